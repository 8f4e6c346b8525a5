#!/usr/bin/env bash
# gpu-check.sh: build, test and measure credit on a GPU machine (H100 or H200), writing the files that
# results/<gpu>/README.md lists.
#
# Usage: scripts/gpu-check.sh [-o DIR] [STEP...]
#   -o DIR   where the results and logs go (default results/<gpu>: h100 or h200 from the name that
#            `nvidia-smi --query-gpu=name --format=csv,noheader` prints, else a lowercased slug of it)
#   STEP     any of the steps below, run in the order listed here (default: build tests)
#   -h       print this help
#
# Every step prints each command it runs, as a plain credit (or cmake, ctest, python3) command that can be
# copied and run alone from the repository root; the commands' output goes to DIR/logs/<step>.log (follow
# it with tail -f), each step's seconds to the console and to DIR/logs/times.txt. A failed command fails its
# step, and the script goes on with the next command and step; it exits 1 if any step failed, 2 on a usage
# error. Times are rough, on one H100 (80 GB HBM3).
#
# Steps (DIR/... is what a step writes; $BUILD_DIR and $CREDIT as under Environment):
#   build      configure and build the Release tree (about 2 min on 16 cores)
#                cmake -S . -B $BUILD_DIR -G Ninja -DCMAKE_BUILD_TYPE=Release
#                cmake --build $BUILD_DIR -j$(nproc)
#   tests      every test: CPU, command line, and the GPU suite against the float64 oracle, which runs
#              where a GPU is present (about 3 min)
#                ctest --test-dir $BUILD_DIR --output-on-failure
#   sanitize   the GPU tests tagged [sanitize] (one small ragged shape per workload and schedule, the
#              barriers and switches, bf16, the wide-row and many-row schedules) under compute-sanitizer,
#              memcheck then racecheck, capped at 15 and 30 min (about 3 + 10 min)
#                timeout 900 compute-sanitizer --tool memcheck --error-exitcode 9 $BUILD_DIR/tests/credit_gpu_tests [sanitize]
#                timeout 1800 compute-sanitizer --tool racecheck --error-exitcode 9 $BUILD_DIR/tests/credit_gpu_tests [sanitize]
#   calibrate  the DSMEM microbenchmarks (paper Table II) and the time model's device inputs: DIR/calibration.json
#              (about 1 min)
#                $CREDIT --json DIR/calibration.json calibrate
#   sweep      the paper's sweep, then configs/<C>.json for each C in $SWEEPS: DIR/sweep-paper.json,
#              DIR/sweep-<C>.json (about 3 min each on an H100; a sweep cut short continues with
#              run-sweep --resume DIR/sweep-<C>.json). The paper's and the bf16 sweep run the peers
#              themselves (torch eager, torch.compile, Triton at each workload's default M, where python3
#              has torch and triton): DIR/sweep-paper-torch.json, DIR/sweep-bf16-torch.json
#                $CREDIT --json DIR/sweep-paper.json run-sweep
#                $CREDIT --json DIR/sweep-bf16.json run-sweep --config configs/bf16.json
#                $CREDIT --json DIR/sweep-<C>.json run-sweep --config configs/<C>.json --no-python
#   peers      torch.compile and Triton (scripts/torch_baselines.py) at the row counts of the short-row and
#              wide-row configs, which run-sweep's own peers (each workload's default M) do not cover;
#              skipped when python3 cannot import torch and triton (about 3 min each)
#                DIR/peers-short-rows-<M>.json    M = 256, 1024, 4096 (when SWEEPS has short-rows)
#                DIR/peers-wide-rows-1024.json    M = 1024 (when SWEEPS has wide-rows)
#   traffic    the measured DRAM traffic (paper Fig. 5): the GPU test that checks Nsight Compute's bytes on a
#              copy kernel, then every one-CTA kernel and cluster at M = 1024 x N = 16384, 65536, 262144,
#              checked, timed and profiled once under ncu: DIR/traffic.json (about 10 min; needs ncu)
#                $BUILD_DIR/tests/credit_gpu_tests [traffic]
#                $CREDIT --json DIR/traffic.json bench --traffic --rows 1024 --widths 16384,65536,262144
#                  --schedule staged global_reread registers cluster --P 2,4,8,16 --samples 5 --warmup 1
#   ladder     seed 001's ladder (host completion time at M = 1, 16, 32, 64 x N = 131072), fp32 and bf16:
#              DIR/ladder-seed001.json, DIR/ladder-seed001-bf16.json (about 1 min)
#                $CREDIT --json DIR/ladder-seed001.json run-sweep --config configs/seed001.json
#                $CREDIT --json DIR/ladder-seed001-bf16.json run-sweep --config configs/seed001-bf16.json
#   report     the paper's tables from the paper sweep and its peers: DIR/report.md; the summary of every
#              sweep and ladder file in DIR, each with its peers files: DIR/summary.txt (seconds; no GPU)
#                $CREDIT report DIR/sweep-paper.json DIR/sweep-paper-torch.json --markdown DIR/report.md
#                $CREDIT run-sweep --summarize DIR/sweep-<C>.json [--baselines DIR/peers-<C>*.json]
#   validate   the seeded held-out selection check, fp32 and bf16: 250 shapes each drawn from VALIDATE_SEED
#              (and VALIDATE_SEED + 1 for bf16), every candidate measured, the regret of the model, tune, the
#              N-only rule and the best one-CTA schedule: DIR/validate-f32.json, DIR/validate-f32.txt and the
#              same for bf16 (about 5 min each)
#                $CREDIT --json DIR/validate-f32.json validate --seed VALIDATE_SEED --shapes 250
#
# Environment:
#   BUILD_DIR  the build tree, relative to the repository root or absolute (default build)
#   CREDIT     the credit binary the measuring steps run (default $BUILD_DIR/credit)
#   VALIDATE_SEED  the validate step's seed (default: today's date as YYYYMMDD; a seed serves one judgement)
#   SWEEPS     the configs the sweep step runs after the paper's, and the peers step times the peers at
#              (default "short-rows wide-rows bf16"; SWEEPS= runs the paper's alone)
set -uo pipefail

all_steps=(build tests sanitize calibrate sweep peers traffic ladder report validate)

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "gpu-check.sh: $*" >&2; exit 2; }

[ "${1:-}" = --help ] && { usage; exit 0; }
out=""
while getopts ":o:h" opt; do
  case $opt in
    o) out=$OPTARG ;;
    h) usage; exit 0 ;;
    :) die "-$OPTARG needs a directory (-h: help)" ;;
    *) die "unknown option -$OPTARG (-h: help)" ;;
  esac
done
shift $((OPTIND - 1))

requested=("$@")
[ ${#requested[@]} -gt 0 ] || requested=(build tests)
for s in "${requested[@]}"; do
  [[ " ${all_steps[*]} " == *" $s "* ]] || die "unknown step '$s' (steps: ${all_steps[*]})"
done

[ -n "$out" ] && out=$(realpath -m -- "$out")  # -o is relative to where the script was started
cd "$(dirname "$0")/.." || exit 2

gpu_dir_name() {  # h100, h200, else the GPU's name as a lowercased slug; fails without a GPU
  local name
  name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  name=${name,,}
  case $name in
    "") return 1 ;;
    *h100*) echo h100 ;;
    *h200*) echo h200 ;;
    *) printf '%s' "$name" | tr -cs 'a-z0-9' '-' | sed 's/^-//; s/-$//' ;;
  esac
}
if [ -z "$out" ]; then
  gpu=$(gpu_dir_name) || die "nvidia-smi names no GPU: give -o DIR to run the steps anyway"
  out=results/$gpu
fi
out=${out#"$PWD"/}  # inside the repository: printed commands name results/<gpu>/..., as the README does

BUILD_DIR=${BUILD_DIR:-build}
CREDIT=${CREDIT:-$BUILD_DIR/credit}
read -r -a sweeps <<<"${SWEEPS-short-rows wide-rows bf16}"
gpu_tests=$BUILD_DIR/tests/credit_gpu_tests
export PYTHONUNBUFFERED=1  # the peers' progress reaches the log before a timeout ends them
# nvcc, compute-sanitizer and ncu live in CUDA's bin directory, often not on PATH
command -v nvcc >/dev/null 2>&1 || { [ -d /usr/local/cuda/bin ] && PATH=/usr/local/cuda/bin:$PATH; }

mkdir -p "$out/logs" || exit 2
{ date -u +%FT%TZ; nvidia-smi; nvcc --version; cmake --version; } >"$out/logs/machine.log" 2>&1

log=""           # the running step's log
step_failed=0    # set by a failed command of the running step
step_skipped=""  # why the running step did nothing

quote() { local q; q=$(printf '%q ' "$@"); printf '%s' "${q% }"; }
note() { echo "$*" | tee -a "$log"; }

x() {  # x CMD...: print CMD, run it with its output in the step's log
  note "\$ $(quote "$@")"
  "$@" >>"$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || { note "!!! exit status $rc"; step_failed=1; }
}

x_out() {  # x_out FILE CMD...: as x, with CMD's standard output appended to FILE
  local f=$1; shift
  note "\$ $(quote "$@") >> $(quote "$f")"
  "$@" >>"$f" 2>>"$log"
  local rc=$?
  [ $rc -eq 0 ] || { note "!!! exit status $rc"; step_failed=1; }
}

need() {  # need FILE WHY: a missing input fails the step with WHY
  [ -e "$1" ] && return 0
  note "!!! $1 is missing: $2"; step_failed=1; return 1
}

step_build() {
  x cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
  [ $step_failed -eq 0 ] && x cmake --build "$BUILD_DIR" -j"$(nproc)"
}

step_tests() {
  x ctest --test-dir "$BUILD_DIR" --output-on-failure
}

step_sanitize() {
  need "$gpu_tests" "run the build step first" || return
  # Capped: a kernel that hangs under the sanitizer must not hold the machine.
  x timeout 900 compute-sanitizer --tool memcheck --error-exitcode 9 "$gpu_tests" "[sanitize]"
  x timeout 1800 compute-sanitizer --tool racecheck --error-exitcode 9 "$gpu_tests" "[sanitize]"
}

step_calibrate() {
  x "$CREDIT" --json "$out/calibration.json" calibrate
}

step_sweep() {
  x "$CREDIT" --json "$out/sweep-paper.json" run-sweep  # with its peers, where torch is present
  local c py
  for c in "${sweeps[@]}"; do
    py=(--no-python)
    [ "$c" = bf16 ] && py=()  # the bf16 widths at each workload's default M: run-sweep's own peers fit them
    x "$CREDIT" --json "$out/sweep-$c.json" run-sweep --config "configs/$c.json" "${py[@]}"
  done
}

step_peers() {
  if ! python3 -c 'import torch, triton' >>"$log" 2>&1; then
    step_skipped="python3 cannot import torch and triton"
    return
  fi
  local tb=scripts/torch_baselines.py c m
  # torch.compile and Triton only (the fastest peers), fewer repetitions at the short rows' short times and
  # longer warm-ups at the wide rows' long ones.
  for c in "${sweeps[@]}"; do
    case $c in
      short-rows)
        for m in 256 1024 4096; do
          x timeout 600 python3 "$tb" --rows "$m" --widths 1024,2048,4096,8192,16384 --impls torch_compile,triton \
            --rep-ms 50 --tune-ms 5 --json "$out/peers-short-rows-$m.json"
        done ;;
      wide-rows)  # M = 1024 only: at 4096 x 2^20 the fp32 tensors of the larger workloads outgrow an H100
        x timeout 600 python3 "$tb" --rows 1024 --widths 131072,262144,524288,1048576 --impls torch_compile,triton \
          --rep-ms 40 --tune-ms 5 --warmup-ms 10 --json "$out/peers-wide-rows-1024.json" ;;
      *) ;;  # run-sweep timed them, or the config has none
    esac
  done
}

step_traffic() {
  need "$gpu_tests" "run the build step first" || return
  x "$gpu_tests" "[traffic]"
  x "$CREDIT" --json "$out/traffic.json" bench --traffic --rows 1024 --widths 16384,65536,262144 \
    --schedule staged global_reread registers cluster --P 2,4,8,16 --samples 5 --warmup 1
}

step_ladder() {
  x "$CREDIT" --json "$out/ladder-seed001.json" run-sweep --config configs/seed001.json
  x "$CREDIT" --json "$out/ladder-seed001-bf16.json" run-sweep --config configs/seed001-bf16.json
}

peers_of() {  # peers_of sweep-C.json: DIR/sweep-C-torch.json and DIR/peers-C-<M>.json, those that exist
  local c p
  c=$(basename "$1" .json); c=${c#sweep-}
  for p in "$out/sweep-$c-torch.json" "$out/peers-$c"-[0-9]*.json; do
    [ -f "$p" ] && echo "$p"
  done
}

step_report() {
  local f peers args
  if need "$out/sweep-paper.json" "run the sweep step first"; then
    mapfile -t peers < <(peers_of "$out/sweep-paper.json")
    x "$CREDIT" report "$out/sweep-paper.json" "${peers[@]}" --markdown "$out/report.md"
  fi
  : >"$out/summary.txt"
  for f in "$out"/sweep-paper.json "$out"/sweep-*.json "$out"/ladder-*.json; do  # the paper's first
    [ -f "$f" ] || continue
    [[ $f == *-torch.json ]] && continue
    [[ $f == */sweep-paper.json && -s $out/summary.txt ]] && continue
    args=()
    if [[ $(basename "$f") == sweep-* ]]; then
      mapfile -t peers < <(peers_of "$f")
      [ ${#peers[@]} -eq 0 ] || args=(--baselines "${peers[@]}")
    fi
    printf '\n==> %s <==\n' "$(basename "$f")" >>"$out/summary.txt"
    x_out "$out/summary.txt" "$CREDIT" run-sweep --summarize "$f" "${args[@]}"
  done
}

step_validate() {
  local seed=${VALIDATE_SEED:-$(date -u +%Y%m%d)}
  x_out "$out/validate-f32.txt" "$CREDIT" --json "$out/validate-f32.json" validate --seed "$seed" --shapes 250
  x_out "$out/validate-bf16.txt" "$CREDIT" --json "$out/validate-bf16.json" validate --seed $((seed + 1)) \
    --shapes 250 --dtype bf16
}

failed=()
times=()
for s in "${all_steps[@]}"; do
  [[ " ${requested[*]} " == *" $s "* ]] || continue
  log=$out/logs/$s.log
  : >"$log"
  step_failed=0 step_skipped=""
  echo "=== $s (log: $log)"
  t0=$SECONDS
  "step_$s"
  secs=$((SECONDS - t0))
  verdict=ok
  if [ $step_failed -ne 0 ]; then
    verdict=FAILED
    failed+=("$s")
    tail -n 20 "$log" | sed 's/^/    /'
  elif [ -n "$step_skipped" ]; then
    verdict="skipped: $step_skipped"
  fi
  echo "--- $s: $secs s, $verdict"
  printf '%s\t%s\t%s s\t%s\n' "$(date -u +%FT%TZ)" "$s" "$secs" "$verdict" >>"$out/logs/times.txt"
  times+=("$(printf '%-10s %6s s  %s' "$s" "$secs" "$verdict")")
done

echo "=== $out"
printf '%s\n' "${times[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}"
  exit 1
fi
