#!/usr/bin/env bash
# credit compare over recorded bench files, gzipped or not (the committed ones are gzipped):
#   scripts/ab-compare.sh CREDIT [--schedule NAME] --a A.json[.gz] ... --b B.json[.gz] ...
# Each .gz is unpacked to a temporary (removed on exit); the arguments are passed on in order. credit's own error
# (a file that is not a results file, no point passed on both sides) is shown and stops it with credit's status.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 CREDIT [--schedule NAME] --a A.json[.gz] ... --b B.json[.gz] ..." >&2; exit 2; }
credit=$1
shift
source "$(dirname "$0")/summary-lines.sh"
args=()
for arg in "$@"; do
  unpack "$arg"
  args+=("$unpacked")
done
"$credit" --log-level error compare "${args[@]}"
