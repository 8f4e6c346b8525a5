#!/usr/bin/env bash
# The rules of twentyfifth/decision-rule.md (challenger C) and twentyseventh/decision-rule.md (challenger D),
# applied to one held-out sweep, offline: scripts/judge-challengers.sh SWEEP.json[.gz] CALIBRATION.json [CREDIT]
# 1. C (cluster_fill_power 0.3) is built in if its regret geomean is below the built-in model's and its share of
#    right verdicts outside the noise band is not below it; M0 is the model that leaves.
# 2. D (reread_probe_power 0.6) on top of M0 is built in if its regret geomean is below M0's, its worst pick at most
#    2 points above M0's, and its share of right verdicts outside the noise band not below M0's.
# Prints each model's summary line and the verdicts; the figures are the time model's line of
# `credit run-sweep --summarize SWEEP --calibration CALIBRATION [--set ...]`.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 SWEEP.json[.gz] CALIBRATION.json [CREDIT binary]" >&2; exit 2; }
cal=$2 credit=${3:-build/credit}
source "$(dirname "$0")/summary-lines.sh"
summary_input "$1"
line() {  # line [--set NAME=VALUE ...]: the time model's summary line
  summary_lines "$credit" "$sweep" "$cal" "$@" | awk '$1 == "time"'
}
built=$(line); fill=$(line --set cluster_fill_power=0.3)
read -r _ g0 w0 a0 <<<"$(line_figures "$built")"; read -r _ gc wc ac <<<"$(line_figures "$fill")"
echo "built in:          $built"
echo "C:                 $fill"
m0_sets=()
if awk -v g="$gc" -v g0="$g0" -v a="$ac" -v a0="$a0" 'BEGIN { exit !(g < g0 && a >= a0) }'; then
  echo "verdict C: built in (regret geomean $gc% < $g0%, right outside the noise band $ac >= $a0)"
  m0_sets=(--set cluster_fill_power=0.3); g0=$gc; w0=$wc; a0=$ac
else
  echo "verdict C: not built in (regret geomean $gc% against $g0%, right outside the noise band $ac against $a0)"
fi
with_d=$(line "${m0_sets[@]}" --set reread_probe_power=0.6)
read -r _ gd wd ad <<<"$(line_figures "$with_d")"
echo "M0 + D:            $with_d"
if beats_built_in "$gd" "$g0" "$wd" "$w0" "$ad" "$a0"; then
  echo "verdict D: built in (regret geomean $gd% < $g0%, worst $wd% <= $w0% + 2, right outside the noise band $ad >= $a0)"
else
  echo "verdict D: not built in (regret geomean $gd% against $g0%, worst $wd% against $w0%, right outside the noise band $ad against $a0)"
fi
