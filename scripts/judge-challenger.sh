#!/usr/bin/env bash
# One challenger of the time model (constants given as NAME=VALUE, passed to --set), judged on one held-out sweep
# against the model as built in, offline; the rule of docs/results/h200/twentyninth/decision-rule.md (challenger F):
#   scripts/judge-challenger.sh SWEEP.json[.gz] CALIBRATION.json CREDIT NAME=VALUE [NAME=VALUE ...]
# The challenger is built in if its regret geomean is below the built-in model's, its worst pick at most 2 points
# above, and its share of right verdicts outside the noise band (the overall share where the sweep has one pass) not
# below; both lines must score the same shapes. Prints both time-model lines and the verdict; a credit error is
# shown and stops it (exit 2).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 SWEEP.json[.gz] CALIBRATION.json CREDIT NAME=VALUE [NAME=VALUE ...]" >&2; exit 2; }
input=$1 cal=$2 credit=$3
shift 3
sets=()
for s in "$@"; do sets+=(--set "$s"); done
source "$(dirname "$0")/summary-lines.sh"
summary_input "$input"
line() { summary_lines "$credit" "$sweep" "$cal" "$@" | awk '$1 == "time"'; }
built=$(line); challenger=$(line "${sets[@]}")
read -r n0 g0 w0 a0 <<<"$(line_figures "$built")"
read -r n g w a <<<"$(line_figures "$challenger")"
echo "built in:    $built"
echo "challenger:  $challenger    ($*)"
if [ "$n" != "$n0" ]; then
  echo "verdict: not built in ($n shapes scored against $n0)"
elif beats_built_in "$g" "$g0" "$w" "$w0" "$a" "$a0"; then
  echo "verdict: built in (regret geomean $g% < $g0%, worst $w% <= $w0% + 2, right outside the noise band $a >= $a0)"
else
  echo "verdict: not built in (regret geomean $g% against $g0%, worst $w% against $w0%, right outside the noise band $a against $a0)"
fi
