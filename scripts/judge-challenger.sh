#!/usr/bin/env bash
# Challengers of the time model, judged on one held-out sweep against the model as built in, offline; the rule of
# docs/results/h200/twentyninth/decision-rule.md (challenger F), and for several challengers the rule of
# docs/results/h200/thirtieth/decision-rule.md:
#   scripts/judge-challenger.sh SWEEP.json[.gz] CALIBRATION.json CREDIT CHALLENGER [CHALLENGER ...]
# A CHALLENGER is the constants it changes, NAME=VALUE[,NAME=VALUE ...] (each passed to --set). A challenger passes if
# its regret geomean is below the built-in model's, its worst pick at most 2 points above, and its share of right
# verdicts outside the noise band (the overall share where the sweep has one pass) not below; its line must score the
# same shapes. Prints each time-model line and verdict; with several challengers, the pick: the passing one with the
# lowest regret geomean (the first named of equals), or none. A credit error is shown and stops it (exit 2).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 SWEEP.json[.gz] CALIBRATION.json CREDIT NAME=VALUE[,NAME=VALUE ...] [...]" >&2; exit 2; }
input=$1 cal=$2 credit=$3
shift 3
source "$(dirname "$0")/summary-lines.sh"
summary_input "$input"
line() { summary_lines "$credit" "$sweep" "$cal" "$@" | awk '$1 == "time"'; }
built=$(line)
read -r n0 g0 w0 a0 <<<"$(line_figures "$built")"
echo "built in:    $built"
pick="" pick_g=""
for challenger in "$@"; do
  sets=()
  add_sets "$challenger"
  out=$(line "${sets[@]}")
  read -r n g w a <<<"$(line_figures "$out")"
  echo "challenger:  $out    (${challenger//,/ })"
  if [ "$n" != "$n0" ]; then
    echo "verdict: not built in ($n shapes scored against $n0)"
  elif beats_built_in "$g" "$g0" "$w" "$w0" "$a" "$a0"; then
    echo "verdict: built in (regret geomean $g% < $g0%, worst $w% <= $w0% + 2, right outside the noise band $a >= $a0)"
    if [ -z "$pick" ] || awk -v g="$g" -v p="$pick_g" 'BEGIN { exit !(g < p) }'; then pick=$challenger pick_g=$g; fi
  else
    echo "verdict: not built in (regret geomean $g% against $g0%, worst $w% against $w0%, right outside the noise band $a against $a0)"
  fi
done
if [ $# -gt 1 ]; then
  if [ -n "$pick" ]; then echo "pick: $pick (regret geomean $pick_g%)"; else echo "pick: none (the model stays as built in)"; fi
fi
