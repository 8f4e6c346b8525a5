#!/usr/bin/env bash
# Everything that needs the GPU, in one call on the device machine: build, GPU tests, sanitizer,
# benchmarks. JSON goes to $OUT (or ./gpu-out), logs to $OUT/logs.tar.gz (the device tool brings
# back at most 8 files). Usage: scripts/gpu-check.sh [steps...]
# Where the tree travels without .git, write the sha first (git rev-parse --short=12 HEAD >
# .git-sha) and carry .git-sha, so results files name the commit they measured.
# steps: build tests sanitize calibrate predict sweep torch bench quickbench ab:THREADS (default: build tests bench)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
LOGS=$(mktemp -d)
mkdir -p "$OUT"
trap 'tar -czf "$OUT/logs.tar.gz" -C "$LOGS" .' EXIT
steps=${*:-build tests bench}
status=0
run() {  # run NAME CMD...: log to $OUT/NAME.log, remember failures, keep going
  local name=$1; shift
  echo "=== $name: $*"
  if ! "$@" >"$LOGS/$name.log" 2>&1; then echo "!!! $name failed (see $name.log)"; status=1; fi
  tail -n 25 "$LOGS/$name.log"
}
for step in $steps; do
  case $step in
    build)
      { nvidia-smi; nvcc --version; cmake --version | head -1; } >"$LOGS/machine.log" 2>&1
      rm -rf build  # a machine kept warm may hold a cache from another configuration
      run configure cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
      run build cmake --build build -j 16 ;;
    tests)
      run ctest ctest --test-dir build --output-on-failure ;;
    sanitize)
      for tool in memcheck racecheck; do
        run "sanitize-$tool" compute-sanitizer --tool $tool --error-exitcode 9 build/tests/credit_gpu_tests "[sanitize]"
      done ;;
    calibrate)
      run calibrate build/credit --json "$OUT/calibration.json" calibrate ;;
    predict)  # the model at every workload x N in {4096, 16384, 65536}, one JSON each (in the logs)
      for w in layernorm wvar_bwd pearson_bwd softmax_bwd lars quant_int8 rms_softmax; do
        for n in 4096 16384 65536; do
          m=4096; [ $w = layernorm ] && m=2048
          run "predict-$w-$n" build/credit --json "$LOGS/predict-$w-$n.json" predict --workload $w --shape ${m}x$n
        done
      done ;;
    sweep)  # the paper's sweep (built in) and the extended one
      run sweep-paper build/credit --json "$OUT/sweep-paper.json" run-sweep
      run sweep-extended build/credit --json "$OUT/sweep-extended.json" run-sweep --config configs/extended.json --no-python ;;
    torch)  # torch eager / torch.compile / Triton baselines at the paper's extreme widths, 5 min at most
      run torch-baselines env PYTHONUNBUFFERED=1 timeout 300 python3 scripts/torch_baselines.py \
        --widths 4096,65536 --json "$OUT/torch_baselines.json" ;;
    bench)
      run bench build/credit --json "$OUT/bench.json" bench ;;
    quickbench)
      run quickbench build/credit --json "$OUT/quickbench.json" bench --widths 4096,16384,65536,262144 --samples 10 ;;
    ab:*)  # the same quick benchmark with another thread count for the split kernels, e.g. ab:128
      t=${step#ab:}
      rm -rf build-$t
      run configure-$t cmake -S . -B build-$t -G Ninja -DCMAKE_BUILD_TYPE=Release -DCREDIT_SPLIT_THREADS=$t
      run build-$t cmake --build build-$t -j 16 --target credit credit_gpu_tests
      run gpu-tests-$t build-$t/tests/credit_gpu_tests
      run quickbench-$t build-$t/credit --json "$OUT/quickbench-$t.json" bench --widths 4096,16384,65536,262144 --samples 10 ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
