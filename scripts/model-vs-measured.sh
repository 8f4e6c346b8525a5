#!/usr/bin/env bash
# One schedule's measured / predicted kernel time in a recorded sweep or bench file (gzipped or not), per shape and
# over all its passed points, with the constants as built in or changed as given: how a time-model term is judged
# against a measurement (split_pipelined's a-priori term: results/h200/thirtyfirst/decision-rule.md).
#   scripts/model-vs-measured.sh FILE.json[.gz] CALIBRATION.json CREDIT SCHEDULE [NAME=VALUE[,NAME=VALUE ...] ...]
# A credit error (an unknown schedule, one without a term, a file without its points) is shown and stops it (exit 2).
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 FILE.json[.gz] CALIBRATION.json CREDIT SCHEDULE [NAME=VALUE[,NAME=VALUE ...] ...]" >&2; exit 2; }
cal=$2 credit=$3 schedule=$4
source "$(dirname "$0")/summary-lines.sh"
summary_input "$1"
shift 4
sets=()
add_sets "$@"
base_sets "${sets[@]}"  # BASE, as in summary-lines.sh: the model of an earlier session
out=$("$credit" --log-level error run-sweep --summarize "$sweep" --calibration "$cal" --model-vs-measured "$schedule" \
  "${base[@]}" "${sets[@]}") || exit 2
awk -v head="$schedule: measured / predicted" 'index($0, head) == 1 { p = 1 } p && $0 == "" { p = 0 } p' <<<"$out"
