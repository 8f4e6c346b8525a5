#!/usr/bin/env bash
# special_outputs.sh CASE CREDIT FIXTURES: one case of the output-path rule (src/cli/output_paths.hpp) that
# needs a special file or a look at the file system after the run. Every file it makes (FIFOs, links,
# targets) is in a temporary directory, which is also the working directory (so a stray file named "-"
# would show); /dev/null and /dev/full are only checked to still be character devices afterwards.
# Prints what went wrong and exits 1, or prints "ok".
set -u
case_name=$1 credit=$2 fixtures=$3
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
cal=$fixtures/h200-calibration-with-model.json
sweep=$fixtures/sweep-paper-h200.json
predict=("$credit" predict --workload lars --shape 44x4250 --calibration "$cal")
report=("$credit" report "$sweep")
summarize=("$credit" run-sweep --summarize "$sweep")

fail() { echo "FAIL ($case_name): $*"; for f in stdout stderr; do [ -s "$dir/.$f" ] && { echo "--- $f:"; head -c 2000 "$dir/.$f"; echo; }; done; exit 1; }
run() { timeout 60 "$@" >"$dir/.stdout" 2>"$dir/.stderr"; rc=$?; }
# Only the names the case made (the outputs' temporaries renamed or removed, no file named "-").
only() { local have; have=$(ls -A "$dir" | grep -v '^\.std' | sort | paste -sd' '); [ "$have" = "$*" ] || fail "files here: '$have', expected '$*'"; }
is_char() { [ "$(stat -c %F "$1")" = "character special file" ] || fail "$1 is no longer a character device: $(stat -c %F "$1")"; }

# A FIFO as the output of CMD (the FIFO's path is FIFO in its arguments): a reader started first must get
# data that matches REGEX, and the FIFO must still be a FIFO.
through_fifo() {
  local regex=$1; shift
  mkfifo fifo || fail "mkfifo"
  cat fifo >got & local reader=$!  # ends at the writer's close, or is killed below
  local args=("${@/#FIFO/$dir/fifo}")
  run "${args[@]}"
  # The writer has closed: a reader that got data has its end of file. One still waiting to open (the FIFO was
  # replaced, or never opened) waits for nothing.
  for _ in $(seq 50); do kill -0 $reader 2>/dev/null || break; sleep 0.1; done
  kill $reader 2>/dev/null
  wait $reader
  [ $rc -eq 0 ] || fail "exit $rc"
  [ -p fifo ] || fail "the FIFO was replaced by: $(stat -c %F fifo)"
  grep -Eq -- "$regex" got || fail "the FIFO's reader got: $(head -c 300 got)"
  only fifo got
}

# A symbolic link as the output (LINK in the arguments) to a file in another directory: the link stays a link
# to the same target, the target holds data matching REGEX, and no temporary is left in either directory.
through_link() {
  local regex=$1; shift
  mkdir real && echo old >real/target && ln -s real/target link || fail "setting up the link"
  local args=("${@/#LINK/$dir/link}")
  run "${args[@]}"
  [ $rc -eq 0 ] || fail "exit $rc"
  [ -L link ] || fail "the link was replaced by: $(stat -c %F link)"
  [ "$(readlink link)" = real/target ] || fail "the link now points to $(readlink link)"
  grep -Eq -- "$regex" real/target || fail "the target holds: $(head -c 300 real/target)"
  only link real
  [ "$(ls -A real)" = target ] || fail "in the target's directory: $(ls -A real | tr '\n' ' ')"
}

case $case_name in
  fifo-json) through_fifo '"kind": "prediction"' "${predict[@]}" --json FIFO ;;
  fifo-csv) through_fifo '^workload,m,n,schedule,p,legal' "${predict[@]}" --csv FIFO ;;
  fifo-markdown) through_fifo '^# credit report' "${report[@]}" --markdown FIFO ;;
  fifo-html) through_fifo '^<!DOCTYPE html>' "${report[@]}" --html FIFO ;;
  link-json) through_link '"kind": "prediction"' "${predict[@]}" --json LINK ;;
  link-csv) through_link '^workload,m,n,schedule,p,disposition' "${summarize[@]}" --csv LINK ;;
  link-markdown) through_link '^# credit report' "${report[@]}" --markdown LINK ;;
  link-html) through_link '^<!DOCTYPE html>' "${report[@]}" --html LINK ;;
  dev-null)  # written through: the device stays a device, the command succeeds
    run "${summarize[@]}" --csv /dev/null
    [ $rc -eq 0 ] || fail "exit $rc"
    is_char /dev/null ;;
  dev-full)  # written through: the write fails (exit 1, after the work) and the device stays a device
    run "${summarize[@]}" --csv /dev/full
    [ $rc -eq 1 ] || fail "exit $rc, expected 1"
    grep -q "cannot write /dev/full: writing: No space left on device" .stderr || fail "no ENOSPC message"
    is_char /dev/full ;;
  markdown-dash)  # stdout, as --csv - is; no file named "-"
    run "${report[@]}" --markdown -
    [ $rc -eq 0 ] || fail "exit $rc"
    head -1 .stdout | grep -q '^# credit report' || fail "stdout is not the Markdown"
    only ;;
  html-dash)  # the HTML alone on stdout, the Markdown printed by default on stderr
    run "${report[@]}" --html -
    [ $rc -eq 0 ] || fail "exit $rc"
    head -1 .stdout | grep -q '^<!DOCTYPE html>' || fail "stdout does not start with the HTML"
    grep -q '^# credit report' .stdout && fail "the Markdown is on stdout beside the HTML"
    grep -q '^# credit report' .stderr || fail "the Markdown is not on stderr"
    only ;;
  json-dash)  # the JSON alone on stdout, the table on stderr
    run "${predict[@]}" --json -
    [ $rc -eq 0 ] || fail "exit $rc"
    head -c 1 .stdout | grep -q '{' || fail "stdout does not start with the JSON"
    grep -q '"kind": "prediction"' .stdout || fail "no prediction on stdout"
    grep -q '^pick: ' .stdout && fail "the table is on stdout beside the JSON"
    grep -q '^pick: ' .stderr || fail "the table is not on stderr"
    only ;;
  html-missing-dir)  # refused before any work, and the directories are not made
    run "${report[@]}" --html "$dir/nonexistent/dir/x.html"
    [ $rc -eq 2 ] || fail "exit $rc, expected 2"
    grep -q -- "--html $dir/nonexistent/dir/x.html: no directory $dir/nonexistent/dir to write it in" .stderr ||
      fail "no message naming the directory"
    [ -s .stdout ] && fail "output before the refusal"
    only ;;
  link-to-input)  # a link to an input is the input
    ln -s "$cal" cal-link || fail "ln"
    run "${predict[@]}" --json cal-link
    [ $rc -eq 2 ] || fail "exit $rc, expected 2"
    grep -q -- "--json cal-link is one of the input files ($cal): refusing to overwrite it" .stderr || fail "no message"
    [ -L cal-link ] || fail "the link was replaced" ;;
  link-to-other-output)  # a link and its target are one file
    ln -s report.md link.md || fail "ln"
    run "${report[@]}" --markdown report.md --html link.md
    [ $rc -eq 2 ] || fail "exit $rc, expected 2"
    grep -q -- "--markdown and --html name the same file, report.md and link.md" .stderr || fail "no message"
    only link.md ;;
  *) echo "unknown case $case_name"; exit 1 ;;
esac
echo "ok ($case_name)"
