#!/usr/bin/env bash
# expect_failure.sh REGEX CMD...: passes when CMD exits non-zero and its output matches REGEX
# (bad input must give a clear error and a non-zero exit, never a crash or a hang).
regex=$1; shift
out=$(timeout 60 "$@" 2>&1); rc=$?
if [ $rc -eq 0 ]; then echo "expected a non-zero exit from: $*"; echo "$out"; exit 1; fi
if [ $rc -ge 124 ]; then echo "crashed or hung (exit $rc): $*"; echo "$out"; exit 1; fi
if ! grep -Eq -- "$regex" <<<"$out"; then echo "output does not match /$regex/:"; echo "$out"; exit 1; fi
echo "ok (exit $rc): $out"
