#!/usr/bin/env bash
# planted_limits.sh REPO: product_checks.sh's limits check fails on a function and a file one line over the limits
# and passes on them at the limits, in trees made in a temporary folder (no git checkout: every file there counts).
set -uo pipefail
[ $# -eq 1 ] || { echo "usage: $0 REPO" >&2; exit 2; }
repo=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# A tree with the check's two files, a function body of $1 lines (its braces counted) and a file of $2 lines.
plant() {
  local dir=$1 body=$2 file=$3 i
  mkdir -p "$dir/tests/repo" "$dir/src" "$dir/kernels"
  cp "$repo/tests/repo/product_checks.sh" "$repo/tests/repo/function_lengths.awk" "$dir/tests/repo/"
  {
    echo 'namespace planted {'
    echo 'int long_function(int x) {'
    for ((i = 0; i < body - 2; ++i)); do echo '  x += 1;  // { a brace in a comment'; done
    echo '}'
    echo '}  // namespace planted'
  } >"$dir/src/planted.cpp"
  for ((i = 0; i < file; ++i)); do echo "// line $i"; done >"$dir/kernels/planted.cuh"
}

fail=0
plant "$tmp/at" 120 500
if ! out=$(bash "$tmp/at/tests/repo/product_checks.sh" limits "$tmp/at"); then
  echo "$out"
  echo "FAIL: the limits check refuses a 120-line function and a 500-line file"
  fail=1
fi
plant "$tmp/over" 121 501
out=$(bash "$tmp/over/tests/repo/product_checks.sh" limits "$tmp/over")
rc=$?
echo "$out"
[ "$rc" -eq 1 ] || { echo "FAIL: the limits check exits $rc on a tree over the limits, expected 1"; fail=1; }
grep -q '^src/planted.cpp:2: 121 lines$' <<<"$out" || { echo "FAIL: the 121-line function is not named"; fail=1; }
grep -q '^kernels/planted.cuh: 501 lines$' <<<"$out" || { echo "FAIL: the 501-line file is not named"; fail=1; }
[ "$fail" -eq 0 ] && echo "ok: the limits check fails over the limits and passes at them"
exit "$fail"
