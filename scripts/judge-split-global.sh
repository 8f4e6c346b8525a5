#!/usr/bin/env bash
# The rule of twentyeighth/decision-rule.md (challenger E: split_global a candidate with its fitted exchange term),
# applied to one sweep measured with E built in, offline:
#   scripts/judge-split-global.sh SWEEP.json[.gz] CALIBRATION.json [CREDIT] [MAX_GEOMEAN_RISE]
# E holds on the sweep if the time model as built in has a regret geomean at most MAX_GEOMEAN_RISE points (default 0:
# wide held-out 15; 0.05 for validation 44) above the same model with --set global_exchange_us=1e6, which never picks
# split_global, and (with MAX_GEOMEAN_RISE 0) a worst pick at most 2 points higher. Both read the same field: every
# measured candidate, split_global's points included. Prints both summary lines (time and tuned) and the verdict.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 SWEEP.json[.gz] CALIBRATION.json [CREDIT binary] [MAX_GEOMEAN_RISE]" >&2; exit 2; }
sweep=$1 cal=$2 credit=${3:-build/credit} rise=${4:-0}
if [[ $sweep == *.gz ]]; then
  tmp=$(mktemp --suffix=.json); trap 'rm -f "$tmp"' EXIT
  zcat "$sweep" >"$tmp"; sweep=$tmp
fi
lines() { "$credit" run-sweep --summarize "$sweep" --calibration "$cal" "$@" 2>/dev/null | awk '$1 == "time" || $1 == "tuned"'; }
with=$(lines); without=$(lines --set global_exchange_us=1e6)
echo "E built in:          ${with//$'\n'/$'\n'                     }"
echo "never split_global:  ${without//$'\n'/$'\n'                     }"
read -r g w <<<"$(awk '$1 == "time" { gsub("%", "", $3); gsub("%", "", $4); print $3, $4 }' <<<"$with")"
read -r g0 w0 <<<"$(awk '$1 == "time" { gsub("%", "", $3); gsub("%", "", $4); print $3, $4 }' <<<"$without")"
if awk -v g="$g" -v g0="$g0" -v w="$w" -v w0="$w0" -v r="$rise" \
     'BEGIN { exit !(g <= g0 + r && (r > 0 || w <= w0 + 2)) }'; then
  echo "verdict: E holds (regret geomean $g% against $g0% + $rise; worst $w% against $w0%)"
else
  echo "verdict: E fails (regret geomean $g% against $g0% + $rise; worst $w% against $w0%): split_global stops being a candidate"
fi
