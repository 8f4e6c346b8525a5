#!/usr/bin/env bash
# The rule of twentyeighth/decision-rule.md (challenger E: split_global a candidate with its fitted exchange term),
# applied to one sweep measured with E built in, offline:
#   scripts/judge-split-global.sh SWEEP.json[.gz] CALIBRATION.json [CREDIT] [MAX_GEOMEAN_RISE]
# E holds on the sweep if the time model as built in has a regret geomean at most MAX_GEOMEAN_RISE points (default 0:
# wide held-out 15; 0.05 for validation 44) above the same model with --set global_exchange_us=1e6, which never picks
# split_global, and (with MAX_GEOMEAN_RISE 0) a worst pick at most 2 points higher. Both read the same field: every
# measured candidate, split_global's points included. A pick with no passed time (a split_global point refused or
# failed at run time) leaves its shape out of a line's figures, so the two lines must score the same shapes: where E's
# scores fewer, E fails. Prints both summary lines (time and tuned) and the verdict; a credit error is shown and stops
# it (exit 2).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 SWEEP.json[.gz] CALIBRATION.json [CREDIT binary] [MAX_GEOMEAN_RISE]" >&2; exit 2; }
cal=$2 credit=${3:-build/credit} rise=${4:-0}
source "$(dirname "$0")/summary-lines.sh"
summary_input "$1"
lines() { summary_lines "$credit" "$sweep" "$cal" "$@"; }
with=$(lines); without=$(lines --set global_exchange_us=1e6)
echo "E built in:          ${with//$'\n'/$'\n'                     }"
echo "never split_global:  ${without//$'\n'/$'\n'                     }"
read -r n g w _ <<<"$(line_figures "$(awk '$1 == "time"' <<<"$with")")"
read -r n0 g0 w0 _ <<<"$(line_figures "$(awk '$1 == "time"' <<<"$without")")"
if [ "$n" -lt "$n0" ]; then
  echo "verdict: E fails ($n shapes scored against $n0: $((n0 - n)) of its picks have no passed time): split_global stops being a candidate"
elif awk -v g="$g" -v g0="$g0" -v w="$w" -v w0="$w0" -v r="$rise" \
     'BEGIN { exit !(g <= g0 + r && (r > 0 || w <= w0 + 2)) }'; then
  echo "verdict: E holds (regret geomean $g% against $g0% + $rise; worst $w% against $w0%; $n shapes each)"
else
  echo "verdict: E fails (regret geomean $g% against $g0% + $rise; worst $w% against $w0%): split_global stops being a candidate"
fi
