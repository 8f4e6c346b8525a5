#!/usr/bin/env bash
# expect_success.sh REGEX CMD...: passes when CMD exits 0, its stdout matches REGEX and holds no
# log line (logs go to stderr, so `credit report X > out.md` gets the report and nothing else).
regex=$1; shift
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
timeout 60 "$@" >"$dir/stdout" 2>"$dir/stderr"; rc=$?
if [ $rc -ne 0 ]; then echo "expected exit 0, got $rc: $*"; cat "$dir/stdout" "$dir/stderr"; exit 1; fi
if ! grep -Eq -- "$regex" "$dir/stdout"; then echo "stdout does not match /$regex/:"; cat "$dir/stdout"; exit 1; fi
"$(dirname "$0")/no_log_lines.sh" "$dir/stdout" || exit 1
echo "ok: stdout matches /$regex/, no log lines; stderr:"; cat "$dir/stderr"
