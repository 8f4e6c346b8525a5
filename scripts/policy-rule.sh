#!/usr/bin/env bash
# Question 1 of docs/results/h200/thirtysixth/decision-rule-policy.md, applied as written, to one lease's files:
#   scripts/policy-rule.sh CREDIT PASS1_DIR PASS2_DIR GPU_TESTS_LOG
# Each pass directory holds abwide-build-CREDIT_CLUSTER_POLICY_{0,2}-M-N.json (gpu-check.sh's abwide steps) for the
# wide shapes 1725x185000, 1024x262144, 4096x65536 and the short ones 256x16384, 1024x8192. Load balancing becomes the
# default if, in both passes, the best-P geomean B / A is at most 0.990 over the wide shapes and at most 1.005 over
# the short ones, no best-P point of either pass is above 1.08, and the GPU suite built with it passed whole.
# Prints `credit compare`'s best-P line per pass and set, then "decision: adopt" or "decision: keep" (exit 0 either
# way); a missing file or a credit error stops it (exit 2).
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 CREDIT PASS1_DIR PASS2_DIR GPU_TESTS_LOG" >&2; exit 2; }
credit=$1 tests_log=$4
adopt=1
best_line() {  # best_line DIR LIMIT SHAPE...: the best-P line of A (policy 0) against B (policy 2); clears adopt past LIMIT
  local dir=$1 limit=$2 a=() b=() line g max
  shift 2
  for s in "$@"; do
    a+=("$dir/abwide-build-CREDIT_CLUSTER_POLICY_0-$s.json")
    b+=("$dir/abwide-build-CREDIT_CLUSTER_POLICY_2-$s.json")
  done
  line=$("$credit" --log-level error compare --a "${a[@]}" --b "${b[@]}" | grep '^best P per') || exit 2
  g=$(sed -E 's/.*geomean ([0-9.]+) over.*/\1/' <<<"$line")
  max=$(sed -E 's/.*, max ([0-9.]+) .*/\1/' <<<"$line")
  echo "$(basename "$dir") ($*): $line"
  awk -v g="$g" -v l="$limit" -v m="$max" 'BEGIN { exit !(g <= l && m <= 1.08) }' || adopt=0
}
for dir in "$2" "$3"; do
  [ -d "$dir" ] || { echo "no directory $dir" >&2; exit 2; }
  best_line "$dir" 0.990 1725-185000 1024-262144 4096-65536
  best_line "$dir" 1.005 256-16384 1024-8192
done
if grep -q '^All tests passed' "$tests_log"; then echo "GPU suite: passed whole"; else echo "GPU suite: not passed"; adopt=0; fi
[ "$adopt" = 1 ] && echo "decision: adopt" || echo "decision: keep"
