# Sourced by the decision rules' judges (scripts/judge-*.sh): a sweep's summary lines from `credit run-sweep
# --summarize`, with credit's own errors shown and fatal (exit 2) rather than read as an empty line.
# unpack FILE[.gz]: sets `unpacked` to FILE, or for a .gz to its unpacked copy in one temporary folder, removed on exit.
# Call it in the script's own shell, not inside $(...), whose exit would remove the copy.
unpack() {
  unpacked=$1
  [[ $1 == *.gz ]] || return 0
  if [ -z "${unpack_dir:-}" ]; then unpack_dir=$(mktemp -d); trap 'rm -rf "$unpack_dir"' EXIT; fi
  unpack_count=$((${unpack_count:-0} + 1))
  unpacked=$unpack_dir/$unpack_count-$(basename "${1%.gz}")
  zcat "$1" >"$unpacked"
}
# summary_input SWEEP.json[.gz]: sets `sweep` to a plain JSON file (unpack).
summary_input() {
  unpack "$1"
  sweep=$unpacked
}
# add_sets CHALLENGER...: appends to the array `sets` one --set per NAME=VALUE of each CHALLENGER, NAME=VALUE[,...].
add_sets() {
  local arg s names
  for arg in "$@"; do
    IFS=, read -r -a names <<<"$arg"
    for s in "${names[@]}"; do sets+=(--set "$s"); done
  done
}
# summary_lines CREDIT SWEEP CALIBRATION [--set NAME=VALUE ...]: the time model's and the tuned selection's lines.
# BASE (NAME=VALUE[,NAME=VALUE ...], from the environment): constants set on every line, the challengers' and the
# built-in model's alike: a rule replayed against the model as it was built in when it judged (e.g. BASE=
# register_probe_wave_power=0 for the model before G; tests/CMakeLists.txt's before_f and before_g). A constant the
# line sets itself is its own.
# base_sets [--set NAME=VALUE ...]: BASE's constants as --set arguments in the array base, less those the arguments set.
base_sets() {
  local s names=()
  base=()
  [ -z "${BASE:-}" ] || IFS=, read -r -a names <<<"$BASE"
  for s in "${names[@]}"; do
    [[ " $* " == *" ${s%%=*}="* ]] || base+=(--set "$s")
  done
}
summary_lines() {
  local credit=$1 sweep=$2 cal=$3 out base; shift 3
  base_sets "$@"
  out=$("$credit" --log-level error run-sweep --summarize "$sweep" --calibration "$cal" "${base[@]}" "$@") || exit 2
  out=$(awk '$1 == "time" || $1 == "tuned"' <<<"$out")
  grep -q '^time ' <<<"$out" || { echo "$0: no time model line in the summary of $sweep" >&2; exit 2; }
  echo "$out"
}
# line_figures LINE: a time model line's shapes scored, regret geomean and worst pick (percent), and its share of
# right verdicts outside the noise band (the overall share where the sweep has one pass).
line_figures() {
  awk '{ gsub("%", "", $3); gsub("%", "", $4); right = ($8 == "-") ? $6 : $8; split(right, a, "/");
         printf "%s %s %s %.6f\n", $2, $3, $4, a[1] / a[2] }' <<<"$1"
}
# beats_built_in G G0 W W0 A A0: true if a challenger's regret geomean G is below the built-in model's G0, its worst
# pick W at most 2 points above W0, and its share right outside the noise band A not below A0 (the rule of
# challengers D and F).
beats_built_in() {
  awk -v g="$1" -v g0="$2" -v w="$3" -v w0="$4" -v a="$5" -v a0="$6" 'BEGIN { exit !(g < g0 && w <= w0 + 2 && a >= a0) }'
}
