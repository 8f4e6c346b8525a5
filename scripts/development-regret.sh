#!/usr/bin/env bash
# The time model's regret on the committed validation sweeps 31-44 (the development data every challenger since the
# twenty-fourth session was chosen on), each read with its own lease's calibration, with the constants changed as given:
#   scripts/development-regret.sh CREDIT [NAME=VALUE[,NAME=VALUE ...] ...]
# Prints per sweep: its name, the regret geomean and worst pick (percent) and the right verdicts outside the noise
# band; then the mean of the regret geomeans and the worst pick over all. A credit error stops it (exit 2).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 CREDIT [NAME=VALUE[,NAME=VALUE ...] ...]" >&2; exit 2; }
credit=$1
shift
results=$(cd "$(dirname "$0")/.." && pwd)/docs/results/h200
source "$(dirname "$0")/summary-lines.sh"
sets=()
add_sets "$@"
# sweep name, its file and its lease's calibration, under docs/results/h200
sweeps=(
  "31 eighteenth/sweep-model-validation-31-partial.json.gz eighteenth/calibration-31.json"
  "32 nineteenth/sweep-model-validation-32.json.gz nineteenth/calibration-32.json"
  "33a nineteenth/sweep-model-validation-33a.json.gz nineteenth/calibration-33.json"
  "33b nineteenth/sweep-model-validation-33b.json.gz nineteenth/calibration-33.json"
  "34 nineteenth/sweep-model-validation-34.json.gz nineteenth/calibration-34.json"
  "35 twentieth/sweep-model-validation-35.json.gz twentieth/calibration-35.json"
  "36 twentyfirst/sweep-model-validation-36.json.gz twentyfirst/calibration-36.json"
  "37 twentyfirst/sweep-model-validation-37.json.gz twentyfirst/calibration-37.json"
  "38 twentysecond/sweep-model-validation-38.json.gz twentysecond/calibration-38.json"
  "39 twentythird/sweep-model-validation-39.json.gz twentythird/calibration-39.json"
  "40 twentyfourth/sweep-model-validation-40.json.gz twentyfourth/calibration-40.json"
  "41 twentyfourth/sweep-model-validation-41.json.gz twentyfourth/calibration-41.json"
  "42 twentyfifth/sweep-model-validation-42.json.gz twentyfifth/calibration-42.json"
  "43 twentyeighth/sweep-model-validation-43.json.gz twentyeighth/calibration-43.json"
  "44 twentyninth/sweep-model-validation-44.json.gz twentyninth/calibration-44.json"
)
rows=""
for entry in "${sweeps[@]}"; do
  read -r name file cal <<<"$entry"
  summary_input "$results/$file"
  line=$(summary_lines "$credit" "$sweep" "$results/$cal" "${sets[@]}" | awk '$1 == "time"')
  rm -f "$sweep"  # fifteen unpacked sweeps need not stay until the end
  read -r _ g w a <<<"$(line_figures "$line")"
  rows+=$(printf "%-4s %6.2f%% %6.1f%% %7.1f%%" "$name" "$g" "$w" "$(awk -v a="$a" 'BEGIN { print 100 * a }')")$'\n'
done
awk '{ print; g = $2; sub("%", "", g); w = $3; sub("%", "", w); s += g; n++; if (w + 0 > worst) worst = w + 0 }
     END { printf "mean %.3f%% worst %.1f%% over %d sweeps\n", s / n, worst, n }' <<<"${rows%$'\n'}"
