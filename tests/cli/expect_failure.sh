#!/usr/bin/env bash
# expect_failure.sh [--exit N] [--stderr-only] REGEX CMD...: passes when CMD exits non-zero (N
# exactly, with --exit), its output (stdout and stderr; stderr alone and an empty stdout, with
# --stderr-only) matches REGEX and its stdout holds no log line: bad input must give a clear
# error and a non-zero exit, never a crash or a hang, and logs and errors go to stderr (stdout
# is for data).
want=
stderr_only=
while :; do
  case $1 in
    --exit) want=$2; shift 2 ;;
    --stderr-only) stderr_only=1; shift ;;
    *) break ;;
  esac
done
regex=$1; shift
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
timeout 60 "$@" >"$dir/stdout" 2>"$dir/stderr"; rc=$?
out=$(cat "$dir/stdout" "$dir/stderr")
if [ -n "$stderr_only" ]; then
  if [ -s "$dir/stdout" ]; then echo "expected nothing on stdout: $*"; cat "$dir/stdout"; exit 1; fi
  out=$(cat "$dir/stderr")
fi
if [ $rc -eq 0 ]; then echo "expected a non-zero exit from: $*"; echo "$out"; exit 1; fi
if [ $rc -ge 124 ]; then echo "crashed or hung (exit $rc): $*"; echo "$out"; exit 1; fi
if [ -n "$want" ] && [ $rc -ne "$want" ]; then echo "expected exit $want, got $rc: $*"; echo "$out"; exit 1; fi
if ! grep -Eq -- "$regex" <<<"$out"; then echo "output does not match /$regex/:"; echo "$out"; exit 1; fi
"$(dirname "$0")/no_log_lines.sh" "$dir/stdout" || exit 1
echo "ok (exit $rc): $out"
