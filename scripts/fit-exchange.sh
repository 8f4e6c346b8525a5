#!/usr/bin/env bash
# split_global's exchange term refitted on bench files (development data), offline: each exchange costs
# global_exchange_us (a) + global_exchange_split_us (b) x P; the pair with the lowest RMS of log(measured / predicted)
# over every file's split_global points pooled (each file's RMS weighted by its n) wins. The grid of
# results/h200/thirtyfourth/decision-rule.md: a = 0.25 ... 2.00 us by 0.05, b = 0 ... 0.02 us by 0.0025.
#   scripts/fit-exchange.sh CALIBRATION.json CREDIT FILE.json[.gz] [FILE ...]
# A_VALUES and B_VALUES (space-separated) replace the grid's values of a and b (the test's small grid).
# Prints the best pair, its RMS and the built-in pair's, then the five best pairs. A credit error stops it (exit 2).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 CALIBRATION.json CREDIT FILE.json[.gz] [FILE ...]" >&2; exit 2; }
cal=$1 credit=$2
shift 2
here=$(dirname "$0")
source "$here/summary-lines.sh"
pooled() {  # pooled [SETS]: the n-weighted RMS log error of split_global over every file (with --set SETS, if given)
  local f line n r sum=0 total=0
  for f in "${files[@]}"; do
    line=$("$here/model-vs-measured.sh" "$f" "$cal" "$credit" split_global "$@" | awk '$1 == "all:"') || exit 2
    n=$(sed -E 's/.*n=([0-9]+).*/\1/' <<<"$line"); r=$(sed -E 's/.*RMS log error ([0-9.]+).*/\1/' <<<"$line")
    sum=$(awk -v s="$sum" -v n="$n" -v r="$r" 'BEGIN { print s + n * r * r }'); total=$((total + n))
  done
  awk -v s="$sum" -v t="$total" 'BEGIN { printf "%.4f %d\n", sqrt(s / t), t }'
}
# Each gzipped file unpacked once, not at every point of the grid.
files=()
for f in "$@"; do
  unpack "$f"
  files+=("$unpacked")
done
built_in=$(pooled)  # the constants as built in; first, so that a credit error stops it here
results=$(for a in ${A_VALUES:-$(seq 0.25 0.05 2.0001)}; do
  for b in ${B_VALUES:-$(seq 0 0.0025 0.02001)}; do
    echo "$(pooled "global_exchange_us=$a,global_exchange_split_us=$b") $a $b"
  done
done | sort -n)
read -r r n a b <<<"$(head -1 <<<"$results")"
echo "fitted: global_exchange_us=$a global_exchange_split_us=$b  RMS log error $r over $n points"
echo "built in: RMS log error ${built_in% *} over ${built_in#* } points"
echo "the five best (RMS, points, a, b):"
head -5 <<<"$results"
