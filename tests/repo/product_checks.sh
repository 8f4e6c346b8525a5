#!/usr/bin/env bash
# product_checks.sh CHECK SRC: checks of the source tree at SRC that keep it a product, not a notebook.
#   diary   no tracked text file tells how the work went (the pattern below, case-insensitive)
#   readme  README.md is short and starts with setup, test and an offline prediction
#   layout  few configs, small recorded evidence, tests that read only their own fixtures
#   limits  no source file in src/, include/ or kernels/ over 500 lines, no function over 120 (tests/repo/function_lengths.awk
#           tells how a function's lines are counted)
# Exit 0 when the check passes, 1 (after saying what is wrong) when it fails, 2 on a usage error, 77 when it
# cannot run here (diary outside a git checkout), which CTest reports as skipped.
set -uo pipefail

usage() { echo "usage: $0 diary|readme|layout|limits SRC" >&2; exit 2; }
[ $# -eq 2 ] || usage
check=$1
src=$2
[ -d "$src" ] || { echo "$src: not a directory" >&2; exit 2; }
cd "$src" || exit 2

# Work-diary vocabulary: the work's own periods, machine loans and debts, ordinal periods of work, numbered validations and issue
# numbers. Dates and commit hashes are fine. This file holds the pattern and is the one file the check skips.
DIARY_RE='\b(s[e]ssions?|l[e]ases?|ow[e]d)\b|\b(twenty|thirty|forty|fifty|sixty)-?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)\b|\b(eleven|twelf|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)t[h]\b|\b(twent|thirt|fort|fift)iet[h]\b|\bvalidations? [0-9]+|\bissues? #?[0-9]+'
SELF=tests/repo/product_checks.sh
# Names of other projects' APIs that the pattern matches and that say nothing about the work: Catch2's test runner.
ALLOWED='Catch::Session'

in_git() { git rev-parse --is-inside-work-tree >/dev/null 2>&1; }

# The files git tracks (and new ones it does not ignore) that the working tree holds, NUL-separated, once each;
# outside a git checkout, the files under the paths given (the whole tree without them), build folders left out.
repo_files() {
  if in_git; then
    git ls-files -z --cached --others --exclude-standard -- "$@" | sort -zu |
      while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done
  else
    find "${@:-.}" -type f -not -path './build*' -not -path '*/.git/*' -print0 2>/dev/null | sed -z 's|^\./||'
  fi
}

fail=0
problem() { echo "FAIL: $*"; fail=1; }

check_diary() {
  in_git || { echo "skipped: $src is not a git checkout"; exit 77; }
  local hits=0 line file rest lineno text
  while IFS= read -r line; do
    file=${line%%:*}
    rest=${line#*:}
    lineno=${rest%%:*}
    text=${rest#*:}
    text=${text//$ALLOWED/}
    grep -qiE -- "$DIARY_RE" <<<"$text" || continue
    echo "$file:$lineno: $text"
    hits=$((hits + 1))
  done < <(repo_files |
           grep -zv -e "^$SELF\$" -e '\.gz$' -e '\.png$' |
           xargs -0 -r grep -I -s -n -H -i -E -- "$DIARY_RE")
  while IFS= read -r -d '' file; do  # the paths too: folders and files named after periods of work
    grep -qiE -- "$DIARY_RE" <<<"$file" || continue
    echo "$file: (its path)"
    hits=$((hits + 1))
  done < <(repo_files)
  if [ "$hits" -gt 0 ]; then
    problem "$hits finding(s) above tell how the work went (periods and loans of work, ordinal periods of work, numbered" \
            "validations, issue numbers): say in the present tense what the code does and why"
  fi
}

check_readme() {
  if [ ! -f README.md ]; then
    problem "README.md is missing"
    return
  fi
  local lines
  lines=$(wc -l <README.md)
  [ "$lines" -le 250 ] || problem "README.md has $lines lines, at most 250 allowed: move detail into docs/"
  local want
  for want in 'bash scripts/setup.sh' 'ctest --test-dir build' 'credit predict'; do
    head -n 40 README.md | grep -qF -- "$want" ||
      problem "README.md's first 40 lines do not contain '$want' (install, test and a first prediction come first)"
  done
}

# The total size in bytes of the regular files named (NUL-separated) on stdin; missing ones count nothing.
total_bytes() { xargs -0 -r stat -c %s -- 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

check_layout() {
  local configs
  configs=$(find configs -maxdepth 1 -name '*.json' -type f 2>/dev/null | wc -l)
  [ "$configs" -le 12 ] || problem "configs/ holds $configs sweep configs, at most 12 allowed: keep the user-facing ones"

  local evidence
  evidence=$(repo_files docs results data | total_bytes)
  [ "$evidence" -le 15000000 ] ||
    problem "docs/, results/ and data/ hold $(mb "$evidence"), at most 15 MB allowed: keep the current evidence only"

  # Spelt in two parts so that this file does not name it.
  local archive="docs/""results" found
  found=$( { repo_files tests; repo_files | grep -z '\(^\|/\)CMakeLists\.txt$'; } | xargs -0 -r grep -lF -- "$archive" | sort -u)
  if [ -n "$found" ]; then
    echo "$found"
    problem "the file(s) above name $archive: tests read tests/fixtures/, and the build names no results archive"
  fi

  local fixtures
  fixtures=$(repo_files tests/fixtures | total_bytes)
  [ "$fixtures" -le 5000000 ] ||
    problem "tests/fixtures holds $(mb "$fixtures"), at most 5 MB allowed: trim the fixtures to what the tests read"
}

# Size limits of the sources that are not tests: a file at most MAX_FILE_LINES lines, a function body at most
# MAX_FUNCTION_LINES.
MAX_FILE_LINES=500
MAX_FUNCTION_LINES=120
AWK_LENGTHS=$(dirname "${BASH_SOURCE[0]}")/function_lengths.awk

check_limits() {
  [ -f "$AWK_LENGTHS" ] || { echo "$AWK_LENGTHS: missing" >&2; exit 2; }
  local files=()
  while IFS= read -r -d '' f; do files+=("$f"); done < <(
    repo_files src include kernels | grep -z -E '\.(c|cc|cpp|cxx|h|hpp|cu|cuh)$')
  [ ${#files[@]} -gt 0 ] || { problem "no sources found under src/, include/ or kernels/"; return; }
  local long_files
  long_files=$(awk -v max="$MAX_FILE_LINES" 'FNR == 1 && NR > 1 && n > max { print f ": " n " lines" }
                 { f = FILENAME; n = FNR } END { if (n > max) print f ": " n " lines" }' "${files[@]}")
  if [ -n "$long_files" ]; then
    echo "$long_files"
    problem "the file(s) above have over $MAX_FILE_LINES lines: split them by purpose"
  fi
  local long_functions
  long_functions=$(awk -v max="$MAX_FUNCTION_LINES" -f "$AWK_LENGTHS" "${files[@]}")
  if [ -n "$long_functions" ]; then
    echo "$long_functions"
    problem "the function(s) above have over $MAX_FUNCTION_LINES lines: split them into named steps"
  fi
}

case $check in
  diary) check_diary ;;
  readme) check_readme ;;
  layout) check_layout ;;
  limits) check_limits ;;
  *) usage ;;
esac
[ "$fail" -eq 0 ] && echo "ok: $check"
exit "$fail"
