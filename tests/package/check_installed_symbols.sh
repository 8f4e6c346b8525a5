#!/bin/sh
# The installed package is the library alone: its archives define and reference no symbol of the tool (the
# runners, the report, Nsight Compute's traffic side, the sweep analyses and the A/B comparison, the launcher of
# scripts/torch_baselines.py, the CLI).
#   check_installed_symbols.sh PREFIX BUILD_DIR
# Two checks, each naming every offending symbol: the tool's namespaces and entry points by name, and every
# function that the tool's archives in BUILD_DIR (libcredit_analysis.a, libcredit_report.a, libcredit_runners.a)
# define.
set -eu
prefix=$1 build=$2
installed=$(find "$prefix/lib" -name '*.a' | sort)
if [ -z "$installed" ]; then
  echo "no archive installed under $prefix/lib"
  exit 1
fi
tool="$build/libcredit_analysis.a $build/libcredit_report.a $build/libcredit_runners.a"
for a in $tool; do
  [ -f "$a" ] || { echo "$a: missing (build the tool first)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every symbol an installed archive defines or references, demangled, one a line: "archive: type name".
for a in $installed; do
  nm -C "$a" 2>/dev/null | awk -v a="$(basename "$a")" 'NF >= 2 && $0 !~ /:$/ {
    line = $0; sub(/^[0-9a-f]* *[A-Za-z] /, "", line); t = ($1 ~ /^[A-Za-z]$/) ? $1 : $2; print a ": " t " " line }'
done > "$work/installed"

# The tool by name: its namespaces (credit::report, credit::traffic, credit::cli) and, in namespaces credit and
# credit::gpu, its entry points (sweep, bench, ladder, paper prediction, T_ctrl, phases, profiled launches, A/B
# comparison, summaries, validation, the Python launcher).
names='credit::(report|traffic|cli)::|credit::(run_sweep_passes|run_bench|run_ladder|run_python_baselines|measure_paper_prediction|control_point|copy_point|compare_ab|describe_builds|summarize_sweep|validation_report|compare_models|judge_selection|measured_shapes)(\[abi:[a-z0-9]+\])?\(|credit::gpu::(time_host_completion|time_phases|run_profiled_launches|control_launch|t_ctrl_ms|variant_name)(\[abi:[a-z0-9]+\])?\(|credit::gpu::LadderShape::'
grep -E "$names" "$work/installed" > "$work/by_name" || true

# The tool by its archives: the functions they define (nm type T), referenced or defined by an installed archive.
nm -C --defined-only $tool 2>/dev/null | awk '$2 == "T" { line = $0; sub(/^[0-9a-f]+ T /, "", line); print line }' |
  sort -u > "$work/tool_functions"
awk '{ line = $0; sub(/^[^:]*: [A-Za-z] /, "", line); print line }' "$work/installed" | sort -u > "$work/installed_names"
comm -12 "$work/tool_functions" "$work/installed_names" > "$work/shared"

status=0
if [ -s "$work/by_name" ]; then
  echo "the installed archives hold symbols of the tool:"
  cat "$work/by_name"
  status=1
fi
if [ -s "$work/shared" ]; then
  echo "the installed archives define or reference functions of the tool's archives:"
  cat "$work/shared"
  status=1
fi
[ "$status" -eq 0 ] && echo "no symbol of the tool in $(echo $installed | wc -w) installed archives ($(wc -l < "$work/tool_functions") tool functions checked)"
exit "$status"
