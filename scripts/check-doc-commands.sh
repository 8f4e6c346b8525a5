#!/usr/bin/env bash
# Runs every offline credit command that README.md and docs/cli.md print, as printed, from a scratch
# directory that sees the repository's configs/, data/, results/ and examples/ (so a command that writes a
# file writes it there, never into the tree). A command counts when it sits in a ```sh block and starts
# with `build/credit` or `credit`; one marked "needs a GPU" (on its line or the line before) is listed, not
# run unless --gpu is given (then every command runs, but those matching --skip REGEX). A trailing backslash
# continues a command. Each must exit 0.
#   bash scripts/check-doc-commands.sh [--gpu] [--skip REGEX] [BUILD_DIR]      (default: build)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpu="" skip=""
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=1; shift ;;
    --skip) [ $# -ge 2 ] || { echo "check-doc-commands: --skip needs a regex" >&2; exit 2; }; skip=$2; shift 2 ;;
    -*) echo "check-doc-commands: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
build=$(cd "${1:-$root/build}" && pwd) || { echo "check-doc-commands: no build directory" >&2; exit 2; }
[ -x "$build/credit" ] || { echo "check-doc-commands: $build/credit is not built" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/build"
ln -s "$build/credit" "$scratch/build/credit"
for d in configs data results examples; do [ -e "$root/$d" ] && ln -s "$root/$d" "$scratch/$d"; done
export PATH="$scratch/build:$PATH"  # `credit ...` as an installed binary

commands() {  # file -> one command per line: "GPU<tab>cmd" or "CPU<tab>cmd"
  awk '
    /^```sh/ { inblock = 1; prev = ""; next }
    /^```/   { inblock = 0; next }
    !inblock { next }
    {
      line = $0
      if (cont != "") { cmd = cmd " " line } else { cmd = line; gpu = (prev ~ /needs a GPU/) }
      if (line ~ /needs a GPU/) gpu = 1
      prev = line
      if (line ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
      cont = ""
      if (cmd ~ /^[ \t]*(build\/credit|credit)[ \t]/ || cmd ~ /^[ \t]*(build\/credit|credit)$/) print (gpu ? "GPU" : "CPU") "\t" cmd
    }' "$1"
}

ran=0 failed=0 listed=0
for doc in README.md docs/cli.md; do
  [ -f "$root/$doc" ] || { echo "check-doc-commands: $doc is missing" >&2; exit 2; }
  while IFS=$'\t' read -r kind cmd; do
    if [ "$kind" = GPU ] && [ -z "$gpu" ]; then listed=$((listed + 1)); continue; fi
    if [ -n "$skip" ] && [[ $cmd =~ $skip ]]; then listed=$((listed + 1)); echo "skip $doc: $cmd"; continue; fi
    ran=$((ran + 1))
    if (cd "$scratch" && eval "$cmd") >"$scratch/out.txt" 2>&1; then
      echo "ok   $doc: $cmd"
    else
      failed=$((failed + 1))
      echo "FAIL $doc: $cmd"
      sed 's/^/     | /' "$scratch/out.txt" | tail -n 8
    fi
  done < <(commands "$root/$doc")
done
why="they need a GPU"
[ -n "$gpu" ] && why="--skip"
echo "documented commands: $listed not run ($why)"
echo "commands: $((ran - failed)) passed, $failed failed"
[ "$ran" -gt 0 ] || { echo "check-doc-commands: found no command" >&2; exit 2; }
[ "$failed" -eq 0 ]
