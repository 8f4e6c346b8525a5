#!/usr/bin/env bash
# Everything that needs the GPU, in one call on the device machine: build, GPU tests, sanitizer,
# benchmarks. JSON goes to $OUT (or ./gpu-out), logs to $OUT/logs.tar.gz (the device tool brings
# back at most 8 files). Usage: scripts/gpu-check.sh [steps...]
# Where the tree travels without .git, write the sha first (git rev-parse --short=12 HEAD >
# .git-sha) and carry .git-sha, so results files name the commit they measured.
# steps: dtypetests ladderbf16 torchdtype:TYPE policyab policysweep:CONFIG splitpartial build tests gputests sgtests clregseed clregbench tunetests tune occupancy regtests train heldout validation validation2 validation3 validation4 validation5 validation6 validation7 validation8 validation9 validation10 validation11 sweep:CONFIG torchrmsnorm paper65536 shortrows torchshort:M wide wideheldout torchwide:M widebench widetests widefusion abwide:DEFS megawide launchgap sanitize calibrate calibrate3 predict sweep torch bench quickbench ladder megabench profile phases stalls colstalls negctl ncushort ncushort:W:M:N ncupair:W:M:N:P traffic trafficwide phasesplit
# abladder:THREADS abdefs:NAME=VALUE[,NAME=VALUE] ab:THREADS sass:REGEX abprep:DEFS (then abwide:DEFS or abbench:DEFS)
# AB_SCHEDULES, AB_WORKLOADS, AB_P: the schedules (default registers registers_deep), workloads (default all) and
# cluster sizes (default 2,4,8,16) regbench and abbench:DEFS time
# AB_REUSE=1: abwide/abbench reuse an earlier invocation's build of the same tree (a second pass) instead of rebuilding
# BUILD_DEFS: definitions the build step compiles the whole tree with (NAME=VALUE, ';' between several)
# BIN: the credit binary calibrate and widebench run (default build/credit), e.g. build-CREDIT_CLUSTER_POLICY_0/credit
# WIDE_SHAPES, WIDE_SCHEDULES, WIDE_WORKLOADS (default all), WIDE_P (default 2,4,8,16; split_global and
# split_pipelined take powers of two to 128): what widebench and abwide:DEFS time (AB_WIDE_SCHEDULES: abwide's
# schedules where they differ from widebench's, e.g. only the schedule the A/B option changes)
# (default: build tests bench)
set -uo pipefail
self=$(realpath "$0")  # policyab runs this script again, for each of its two passes
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
LOGS=$(mktemp -d)
mkdir -p "$OUT"
trap 'tar -czf "$OUT/logs.tar.gz" -C "$LOGS" .' EXIT
steps=${*:-build tests bench}
status=0
run() {  # run NAME CMD...: log to $OUT/NAME.log, remember failures, keep going; each step's seconds in the console
  local name=$1 t0=$SECONDS; shift
  echo "=== $name: $*"
  if ! "$@" >"$LOGS/$name.log" 2>&1; then echo "!!! $name failed (see $name.log)"; status=1; fi
  echo "--- $name: $((SECONDS - t0)) s"
  [ -n "${NO_TAIL:-}" ] || tail -n 25 "$LOGS/$name.log"  # NO_TAIL=1: a held-out sweep is not read before its fit
}
sweep() {  # sweep NAME CONFIG SECONDS: run-sweep of configs/CONFIG.json into $OUT/sweep-CONFIG.json, resuming carry/'s (or its .gz)
  local f=sweep-$2.json r=""
  [ -f "carry/$f.gz" ] && gunzip -c "carry/$f.gz" >"$LOGS/$f" && r="--resume $LOGS/$f"  # gzipped: the tree's 64 MiB
  [ -f "carry/$f" ] && r="--resume carry/$f"
  run "$1" timeout "$3" build/credit --json "$OUT/$f" run-sweep --config "configs/$2.json" --no-python $r
}
ab_dir() { echo "build-$(echo "$1" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-40)"; }
configure_tree() {  # configure_tree DIR [DEFS]: a Release tree in DIR, compiled with -DDEFS (';' separates several)
  local defs=()
  [ -n "${2:-}" ] && defs=("-DCMAKE_CUDA_FLAGS=-D${2//;/ -D}" "-DCMAKE_CXX_FLAGS=-D${2//;/ -D}")
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release "${defs[@]}"
}
ab_build() {  # ab_build DEFS DIR: credit built with -DDEFS in DIR
  rm -rf "$2"
  configure_tree "$2" "$1" && cmake --build "$2" -j 16 --target credit
}
declare -A ab_pids
ab_ready() {  # ab_ready DEFS DIR: wait for abprep:DEFS's build of DIR, else build it now
  if [ -n "${ab_pids[$2]:-}" ]; then
    wait "${ab_pids[$2]}" || { echo "!!! build-$2 failed"; status=1; }
  elif [ -n "${AB_REUSE:-}" ] && [ -x "$2/credit" ]; then  # AB_REUSE=1: an earlier invocation's build (a second pass)
    echo "=== build-$2: reused"
  else
    run "build-$2" ab_build "$1" "$2"
  fi
}
for step in $steps; do
  case $step in
    build)
      { nvidia-smi; nvcc --version; cmake --version | head -1; } >"$LOGS/machine.log" 2>&1
      rm -rf build  # a machine kept warm may hold a cache from another configuration
      # BUILD_DEFS (NAME=VALUE, ';' between several): the whole tree, tests too, built with these definitions,
      # e.g. an A/B option's candidate that the GPU tests and the sanitizer must pass (its A then abwide:NAME=0)
      run configure configure_tree build "${BUILD_DEFS:-}"
      run build cmake --build build -j 16
      cp build/.ninja_log "$LOGS/ninja_log.txt" 2>/dev/null ;;  # each file's compile time: where the build's minutes go
    tests)
      run ctest ctest --test-dir build --output-on-failure ;;
    gputests)  # the GPU test binary alone, with Catch's durations (e.g. after a rebuild)
      run gpu-tests build/tests/credit_gpu_tests --durations yes ;;
    ladder)  # seed 001's ladder, host completion time (configs/seed001.json)
      run ladder build/credit --json "$OUT/ladder-seed001.json" run-sweep --config configs/seed001.json ;;
    ladderbf16)  # issue 17: the ladder's bf16 GPU test, then seed 001's ladder in bf16 (configs/seed001-bf16.json; every
      # rung built in bf16, the unfused chain since the forty-second session); `ladder` runs the f32 one
      run ladder-bf16-test timeout 120 build/tests/credit_gpu_tests "[ladder][dtype]" --durations yes
      run ladder-bf16 timeout "${LADDER_S:-300}" build/credit --json "$OUT/ladder-seed001-bf16.json" run-sweep \
        --config configs/seed001-bf16.json ;;
    megabench)  # kernel time (events, L2 flushed) of the global-memory schedules beside the cluster kernel
      run megabench build/credit --json "$OUT/megabench.json" bench --workload rms_softmax --rows 16 \
        --widths 131072 --schedule megakernel local_fusion unfused cluster --P 8,16 --samples 20 ;;
    profile)  # Nsight Compute on seed 001's shape (16 x 131072), warm L2 and free clocks as in the ladder
      run profile ncu --cache-control none --clock-control none -k "regex:split_row|fused|unfused" \
        --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
        --section SchedulerStats --section MemoryWorkloadAnalysis \
        build/credit bench --workload rms_softmax --rows 16 --widths 131072 \
        --schedule megakernel local_fusion cluster --P 8,16 --samples 1 --warmup 0 ;;
    sanitize)
      for tool in memcheck racecheck; do
        run "sanitize-$tool" compute-sanitizer --tool $tool --error-exitcode 9 build/tests/credit_gpu_tests "[sanitize]"
      done ;;
    calibrate)  # with BIN (default build/credit): e.g. a binary an abprep or policyab step built
      run calibrate ${BIN:-build/credit} --json "$OUT/calibration.json" calibrate ;;
    calibrate3)  # three calibrations in a row: how stable the per-workload probe is (elem_ns)
      for i in 1 2 3; do run "calibrate-$i" build/credit --json "$OUT/calibration-$i.json" calibrate; done ;;
    predict)  # the model at every workload x N in {4096, 16384, 65536}, one JSON each (in the logs)
      for w in layernorm wvar_bwd pearson_bwd softmax_bwd lars quant_int8 rms_softmax rmsnorm; do
        for n in 4096 16384 65536; do
          m=4096; [ $w = layernorm ] && m=2048
          run "predict-$w-$n" build/credit --json "$LOGS/predict-$w-$n.json" predict --workload $w --shape ${m}x$n
        done
      done ;;
    tunetests)  # credit tune as a library call and the SM-work probes (both with the lone one) on the GPU
      run tune-tests build/tests/credit_gpu_tests "[tune],[calibrate]" --durations yes ;;
    tune)  # credit tune at a few shapes (the model's shortlist, checked and timed there): JSON and log of each
      # in the logs (the device tool brings back 8 files at most)
      for s in lars:44x4250 softmax_bwd:300x50257 layernorm:4096x2048 rms_softmax:16x131072 wvar_bwd:1024x524288; do
        w=${s%%:*}; sh=${s##*:}
        run "tune-$w-$sh" build/credit --json "$LOGS/tune-$w-$sh.json" tune --workload "$w" --shape "$sh"
      done ;;
    occupancy)  # the calibration tests, host occupancy against the occupancy API among them
      run occupancy build/tests/credit_gpu_tests "[calibrate]" ;;
    train)  # the time model's training sweep (M = 128, 1024, 4096)
      sweep train model-train 360 ;;
    heldout)  # the held-out sweep: other M, ragged widths, two timing passes
      sweep heldout model-heldout 540 ;;
    validation)  # the time model's validation sweep: shapes no fit or design choice has seen (M = 32 ... 8192)
      sweep validation model-validation 540 ;;
    validation[2-9]|validation1[01])  # validation N (configs/model-validation-N.json), each measured before the model it judged was
      # fitted (docs/model-notes.md); NO_TAIL=1 keeps a held-out one unread until its fit is committed
      n=${step#validation}; v=VALIDATION${n}_S
      sweep "$step" "model-validation-$n" "${!v:-540}" ;;
    dtypetests)  # issue 17: the bf16 and fp16 kernels against the oracle on rounded inputs, every fp32 schedule again
      # (the kernels' loads and stores are now generic over the element type), then memcheck and racecheck of bf16
      run dtypetests timeout 360 build/tests/credit_gpu_tests "[dtype]" --durations yes
      run f32tests timeout 150 build/tests/credit_gpu_tests "every schedule matches the float64 oracle at ragged and large shapes"
      for tool in memcheck racecheck; do
        run "dtypesanitize-$tool" timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/credit_gpu_tests \
          "bf16: one ragged shape per workload*,bf16: the wide-row schedules at one ragged wide row"
      done ;;
    torchdtype:*)  # issue 17: torch eager, torch.compile and Triton in one element type at the bf16 sweep's widths
      # (configs/bf16.json), e.g. torchdtype:bf16; the records are named <workload>@bf16, as credit's
      t=${step#torchdtype:}
      run "torch-$t" env PYTHONUNBUFFERED=1 timeout "${TORCH_S:-400}" python3 scripts/torch_baselines.py --dtype "$t" \
        --widths 4096,8192,16384,32768,65536,131072,262144 --impls torch_compile,triton --rep-ms 20 --tune-ms 5 \
        --json "$OUT/torch-$t.json" ;;
    sweep:*)  # any config, e.g. sweep:short-rows (resumes a partial file in carry/; SWEEP_S seconds at most)
      c=${step#sweep:}; sweep "$c" "$c" "${SWEEP_S:-540}" ;;
    torchrmsnorm)  # the rmsnorm peers (eager, Triton) beside the others' at two widths: the script's new entry runs
      run torch-rmsnorm env PYTHONUNBUFFERED=1 timeout 200 python3 scripts/torch_baselines.py --workloads rmsnorm \
        --widths 8192,65536 --impls torch_eager,triton --rep-ms 20 --tune-ms 5 --json "$OUT/torch-rmsnorm.json" ;;
    launchgap)  # issue 12: event time against the kernel's own span for a copy-like kernel launched as credit does and
      # not, then credit's register kernels and the copy at the short rows' smallest shapes, in the same lease
      run launchgap build/tests/credit_launch_gap 100
      run launchgap-bench build/credit bench --workload rms_softmax softmax_dropout_bwd --rows 256 --widths 2048 \
        --schedule registers staged --samples 50 ;;
    paper65536)  # issue 12's no-regression check: the paper sweep's N = 65536 (default rows), every candidate
      sweep paper65536 paper-65536 300 ;;
    shortrows)  # issue 12: every credit schedule at M = 256, 1024, 4096 x N = 1024 ... 16384
      sweep shortrows short-rows 400 ;;
    torchshort:*)  # torch.compile and Triton at the short-row shapes for one M, e.g. torchshort:256
      m=${step#torchshort:}
      run "torch-short-$m" env PYTHONUNBUFFERED=1 timeout 290 python3 scripts/torch_baselines.py --rows "$m" \
        --widths 1024,2048,4096,8192,16384 --impls torch_compile,triton --rep-ms 50 --tune-ms 5 \
        --json "$OUT/torch-short-$m.json" ;;
    wide)  # issue 13: every credit schedule, partial retention among them, at M = 1024, 4096 x N = 128K ... 1M
      sweep wide wide-rows 560 ;;
    wideheldout)  # the partial schedule's held-out shapes: other M, ragged N (judges the model, tunes nothing)
      sweep wideheldout wide-rows-heldout 560 ;;
    torchwide:*)  # torch.compile and Triton at the wide-row shapes for one M, e.g. torchwide:1024; in TORCH_DTYPE (default
      # f32; bf16: records named <workload>@bf16, as credit's) at TORCH_WIDTHS (default 131072 ... 1048576)
      m=${step#torchwide:} t=${TORCH_DTYPE:-f32}
      run "torch-wide-$t-$m" env PYTHONUNBUFFERED=1 timeout "${TORCH_S:-400}" python3 scripts/torch_baselines.py --rows "$m" \
        --dtype "$t" --widths "${TORCH_WIDTHS:-131072,262144,524288,1048576}" --impls torch_compile,triton --rep-ms 40 \
        --tune-ms 5 --warmup-ms 10 --json "$OUT/torch-wide-$t-$m.json" ;;
    widebench)  # a quick look: the partial schedules beside the cluster and global_reread at WIDE_SHAPES (M:N ..., default
      # 4096:262144 1024:1048576), the schedules WIDE_SCHEDULES (default global_reread cluster partial partial_one)
      for s in ${WIDE_SHAPES:-4096:262144 1024:1048576}; do
        run "widebench-${s%%:*}-${s##*:}" ${BIN:-build/credit} --json "$OUT/widebench-${s%%:*}-${s##*:}.json" bench --workload ${WIDE_WORKLOADS:-all} \
          --rows ${s%%:*} --widths ${s##*:} --schedule ${WIDE_SCHEDULES:-global_reread cluster partial partial_one} --P ${WIDE_P:-2,4,8,16} \
          --samples 10 --warmup 2
      done ;;
    policyab)  # question 1 of docs/results/h200/thirtysixth/decision-rule-policy.md as written: the GPU suite built with
      # load balancing, the A/B at its five shapes in two passes (the second B before A), then scripts/policy-rule.sh;
      # $OUT/policy-ab.tar.gz (each pass's bench files and logs) and $OUT/policy-rule.txt (its last line the decision)
      pa=(WIDE_SHAPES="1725:185000 1024:262144 4096:65536 256:16384 1024:8192" WIDE_P=2,4,8,16
          AB_WIDE_SCHEDULES="cluster cluster_registers partial")
      run policy-pass1 env "${pa[@]}" BUILD_DEFS=CREDIT_CLUSTER_POLICY=2 OUT="$OUT/policy-p1" "$self" \
        abprep:CREDIT_CLUSTER_POLICY=0 abprep:CREDIT_CLUSTER_POLICY=2 build gputests abwide:CREDIT_CLUSTER_POLICY=0 \
        abwide:CREDIT_CLUSTER_POLICY=2
      run policy-pass2 env "${pa[@]}" AB_REUSE=1 OUT="$OUT/policy-p2" "$self" abwide:CREDIT_CLUSTER_POLICY=2 \
        abwide:CREDIT_CLUSTER_POLICY=0
      tar -xzf "$OUT/policy-p1/logs.tar.gz" -O ./gpu-tests.log >"$LOGS/gpu-tests-policy2.log" 2>/dev/null
      run policy-rule scripts/policy-rule.sh build-CREDIT_CLUSTER_POLICY_0/credit "$OUT/policy-p1" "$OUT/policy-p2" \
        "$LOGS/gpu-tests-policy2.log"
      cp "$LOGS/policy-rule.log" "$OUT/policy-rule.txt"
      tar -czf "$OUT/policy-ab.tar.gz" -C "$OUT" policy-p1 policy-p2 && rm -rf "$OUT/policy-p1" "$OUT/policy-p2" ;;
    splitpartial)  # step 1 of docs/results/h200/thirtyeighth/decision-rule-split-partial.md: split_partial's oracle tests
      # (where BIN's tree has the test binary; policyab's GPU suite runs them otherwise), then its calibration and the
      # widebench beside split_global and global_reread at three wide shapes, into $OUT/splitpartial/
      t=${BIN:-build/credit}; gt=$(dirname "$t")/tests/credit_gpu_tests
      [ -x "$gt" ] && run sgtests-partial timeout 150 "$gt" "split_global*" --durations yes
      run splitpartial env WIDE_SCHEDULES="global_reread split_global split_partial" WIDE_P=16,32,64,128 \
        WIDE_SHAPES="1024:1048576 4096:262144 1024:524288" OUT="$OUT/splitpartial" BIN="$t" "$self" calibrate widebench ;;
    policysweep:*)  # after policyab: a config's sweep (e.g. policysweep:model-validation-48) under the default policyab's
      # rule decided (load balancing where $OUT/policy-rule.txt says "decision: adopt"), with its own calibration
      defs=""
      grep -q "^decision: adopt" "$OUT/policy-rule.txt" 2>/dev/null && defs=CREDIT_CLUSTER_POLICY=2
      echo "=== policysweep: the tree built with '$defs'"
      rm -rf build
      run configure configure_tree build "$defs"
      run build cmake --build build -j 16 --target credit
      run calibrate build/credit --json "$OUT/calibration.json" calibrate
      sweep "${step#policysweep:}" "${step#policysweep:}" "${SWEEP_S:-540}" ;;
    abprep:*)  # starts abwide:DEFS's (or abbench:DEFS's) build in the background, so that several variants build at once
      d=${step#abprep:}; dir=$(ab_dir "$d")
      ab_build "$d" "$dir" >"$LOGS/build-$dir.log" 2>&1 &
      ab_pids[$dir]=$! ;;
    abwide:*)  # the partial schedule built with other definitions, at the widebench shapes, e.g. abwide:CREDIT_PARTIAL_CTAS_PER_SM=3
      d=${step#abwide:}; dir=$(ab_dir "$d")
      ab_ready "$d" "$dir"
      for s in ${WIDE_SHAPES:-4096:262144 1024:1048576}; do  # the schedules AB_WIDE_SCHEDULES, else WIDE_SCHEDULES (default partial)
        run "abwide-$dir-${s%%:*}-${s##*:}" "$dir/credit" --json "$OUT/abwide-$dir-${s%%:*}-${s##*:}.json" bench \
          --workload ${WIDE_WORKLOADS:-all} --rows ${s%%:*} --widths ${s##*:} \
          --schedule ${AB_WIDE_SCHEDULES:-${WIDE_SCHEDULES:-partial}} --P ${WIDE_P:-2,4,8,16} \
          --samples 10 --warmup 2
      done ;;
    megawide)  # the global-memory exchange at the widest rows: many CTAs per row, few rows in flight
      run megawide build/credit --json "$OUT/megawide.json" bench --workload softmax_bwd rms_softmax lars --rows 1024 \
        --widths 1048576 --schedule megakernel --P 16,32,64 --samples 10 --warmup 2 ;;
    widefusion)  # evidence at N = 1M: seed 001's local fusion (L + 1 kernels, many CTAs per row) beside global_reread and partial
      run widefusion build/credit --json "$OUT/widefusion.json" bench --workload layernorm softmax_bwd rms_softmax --rows 1024 \
        --widths 1048576 --schedule global_reread local_fusion --P 16,64 --samples 10 --warmup 2 ;;
    widetests)  # the partial schedule against the oracle at wide rows
      run widetests build/tests/credit_gpu_tests "partial retention matches the oracle at wide rows" --durations yes ;;
    sgtests)  # split_global, split_pipelined and split_partial against the oracle (wide rows, every schedule at the suite's shapes),
      # host occupancy against the API, then memcheck and racecheck of their case over more rows than the device holds
      # (bounded: a schedule that has never run must not spend the call's time in a hang; 240 + 2 x 150 s keeps a
      # call of 600 s alive to return its logs. The twenty-eighth session's run of these took 36 s and a few seconds.)
      run sgtests timeout 240 build/tests/credit_gpu_tests "split_global*,[occupancy]" --durations yes
      for tool in memcheck racecheck; do
        run "sgsanitize-$tool" timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/credit_gpu_tests \
          "split_global and the schedules built on it over more rows than the device holds"
      done ;;
    regtests)  # the register-resident kernel against the oracle, and host occupancy against the API
      run regtests build/tests/credit_gpu_tests "the register-resident*,[occupancy]" ;;
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
    abladder:*)  # seed 001's ladder with another thread count for the split kernels, e.g. abladder:1024
      t=${step#abladder:}
      rm -rf build-$t
      run configure-$t cmake -S . -B build-$t -G Ninja -DCMAKE_BUILD_TYPE=Release -DCREDIT_SPLIT_THREADS=$t
      run build-$t cmake --build build-$t -j 16 --target credit credit_gpu_tests
      run gpu-tests-$t build-$t/tests/credit_gpu_tests "[ladder]"
      run ladder-$t build-$t/credit --json "$OUT/ladder-$t.json" run-sweep --config configs/seed001.json ;;
    phases)  # where the split-row kernels' time goes at seed 001's shape (16 x 131072), and T_ctrl
      run phases build/credit bench --workload rms_softmax --rows 16 --widths 131072 \
        --schedule staged cluster megakernel --P 8,16 --samples 20 --phases
      run predict-seed001 build/credit predict --workload rms_softmax --shape 16x131072 ;;
    phasesplit)  # where split_global's time goes at wide rows: each CTA's step per phase (its waits at the row barriers)
      run phasesplit build/credit bench --workload softmax_bwd rmsnorm --rows 1024 --widths 524288 \
        --schedule split_global --P 64,128 --samples 5 --phases ;;
    abbench:*)  # the register kernel's bench at short rows built with other definitions, e.g. abbench:CREDIT_REGISTER_LOAD=1
      d=${step#abbench:}; dir=$(ab_dir "$d")
      ab_ready "$d" "$dir"
      for m in 256 1024 4096; do
        run "abbench-$dir-$m" "$dir/credit" --json "$OUT/abbench-$dir-$m.json" bench --workload ${AB_WORKLOADS:-all} --rows $m \
          --widths 2048 4096 8192 16384 --schedule ${AB_SCHEDULES:-registers registers_deep} --P ${AB_P:-2,4,8,16} --samples 20
      done ;;
    regbench)  # the register kernel as built by `build`, at the abbench shapes (its A of an A/B)
      for m in 256 1024 4096; do
        run "regbench-$m" build/credit --json "$OUT/regbench-$m.json" bench --workload ${AB_WORKLOADS:-all} --rows $m \
          --widths 2048 4096 8192 16384 --schedule ${AB_SCHEDULES:-registers registers_deep} --P ${AB_P:-2,4,8,16} --samples 20
      done ;;
    clregseed)  # cluster_registers beside the clustered kernel at seed 001's shape (kernel time, L2 flushed)
      run clregbench-seed build/credit --json "$OUT/clregbench-seed.json" bench --workload rms_softmax --rows 16 \
        --widths 131072 --schedule cluster cluster_registers --P 4,8,16 --samples 50 ;;
    clregbench)  # cluster_registers beside the clustered, register and staged kernels: M = 256 and 1024 at
      # N = 8192 ... 131072 (every workload, every cluster size)
      for m in 256 1024; do
        run "clregbench-$m" build/credit --json "$OUT/clregbench-$m.json" bench --workload all --rows $m \
          --widths 8192 16384 32768 65536 131072 --schedule staged registers registers_deep cluster cluster_registers \
          --P 2,4,8,16 --samples 20
      done ;;
    sass:*)  # the SASS of every kernel whose mangled name matches a regex, into the logs, e.g. sass:register_row
      re=${step#sass:}
      run "sass-$(echo "$re" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-40)" bash -c \
        "cuobjdump -sass build/credit | awk -v re='$re' '/Function :/ {on = \$0 ~ re} on'" ;;
    abdefs:*)  # phases at seed 001's shape built with other policy constants, e.g. abdefs:CREDIT_SHARED_UNROLL=4
      d=${step#abdefs:}; d=${d//,/;}; dir=$(ab_dir "$d")
      run "build-$dir" ab_build "$d" "$dir"
      run "phases-$dir" "$dir/credit" bench --workload rms_softmax --rows 16 --widths 131072 \
        --schedule cluster megakernel --P 8,16 --samples 20 --phases ;;
    stalls)  # where one clustered and one megakernel launch at 16 x 131072 stall (sampled by source line)
      for s in cluster:16 megakernel:32; do
        run "stalls-${s%%:*}" ncu --cache-control none --clock-control none -k regex:split_row --launch-skip 1 \
          --launch-count 1 --section WarpStateStats --section SourceCounters --section SpeedOfLight --print-details all \
          build/credit bench --workload rms_softmax --rows 16 --widths 131072 --schedule ${s%%:*} --P ${s##*:} \
          --samples 1 --warmup 0
      done ;;
    colstalls)  # where a lone cluster CTA per SM stalls when it reads column parameters: layernorm (gamma, beta),
      # rmsnorm (gamma) and rms_softmax (none, the same bytes) at 380 x 740000, the cluster of 16 (one launch each)
      for w in layernorm rmsnorm rms_softmax; do
        run "colstalls-$w" ncu --cache-control none --clock-control none -k regex:split_row --launch-skip 1 \
          --launch-count 1 --section WarpStateStats --section SourceCounters --section SpeedOfLight \
          --section MemoryWorkloadAnalysis --print-details all \
          build/credit bench --workload $w --rows 380 --widths 740000 --schedule cluster --P 16 --samples 1 --warmup 0
      done ;;
    ncupair:*)  # the clustered kernel beside split_global at one shape and P, ncupair:WORKLOAD:M:N:P (thirty-sixth
      # session: at N = 185000-222000, P = 16, two to four CTAs per SM, the cluster takes 1.1-1.2x split_global's time
      # for rmsnorm and add_rmsnorm, where the time model puts it 0.8x): Nsight Compute on one launch of each, then
      # each one's phase timeline (CTA timestamps) from a warm bench
      IFS=: read -r _ w m n p <<<"$step"
      sec="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis"
      for s in cluster split_global; do
        run "ncupair-$s-$w-${m}x$n-$p" ncu $sec --cache-control none --clock-control none -k regex:split_row --launch-skip 1 \
          --launch-count 1 build/credit bench --workload "$w" --rows "$m" --widths "$n" --schedule $s --P "$p" --samples 1 --warmup 1
      done
      run "phasepair-$w-${m}x$n-$p" build/credit --json "$OUT/phasepair-$w-${m}x$n-$p.json" bench --workload "$w" --rows "$m" \
        --widths "$n" --schedule cluster split_global --P "$p" --samples 5 --phases ;;
    ncushort)  # issue 12: Nsight Compute on credit's register kernel and the Triton peer at 256 x 8192 (softmax_bwd)
      sec="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats"
      run ncu-credit ncu $sec -k regex:register_row build/credit bench --workload softmax_bwd --rows 256 --widths 8192 \
        --schedule registers staged --samples 1 --warmup 0
      run ncu-triton ncu $sec -k regex:_reg -c 30 python3 scripts/torch_baselines.py --workloads softmax_bwd --rows 256 \
        --widths 8192 --impls triton --rep-ms 1 --tune-ms 1 --warmup-ms 1 ;;
    ncushort:*)  # issue 12: ncushort at another shape, ncushort:WORKLOAD:M:N (credit's register kernels, the Triton peer)
      IFS=: read -r _ w m n <<<"$step"
      sec="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
      run "ncu-credit-$w-${m}x$n" ncu $sec -k regex:register_row build/credit bench --workload "$w" --rows "$m" --widths "$n" \
        --schedule registers --samples 1 --warmup 0
      run "ncu-triton-$w-${m}x$n" ncu $sec -k regex:_reg -c 12 python3 scripts/torch_baselines.py --workloads "$w" --rows "$m" \
        --widths "$n" --impls triton --rep-ms 1 --tune-ms 1 --warmup-ms 1 ;;
    negctl)  # issue 14: the negative controls checked (also under the sanitizer), then measured once:
      # the one-CTA kernels and clusters of P = 2..16 at N = 4096 and 65536; the scan and the
      # selection are recorded as not supported, with the reason (no split-row kernel can run them)
      run negctl-tests build/tests/credit_gpu_tests "[controls]"
      for tool in memcheck racecheck; do
        run "negctl-sanitize-$tool" compute-sanitizer --tool $tool --error-exitcode 9 build/tests/credit_gpu_tests "[controls]"
      done
      run negctl build/credit --json "$OUT/negctl.json" bench --workload controls --widths 4096,65536 \
        --schedule staged global_reread cluster --P 2,4,8,16 --samples 20
      cp "$LOGS/negctl.log" "$OUT/negctl.txt" ;;
    traffic)  # issue 14, Fig. 5: the GPU test (a copy kernel's ncu bytes within 2% of its size), then
      # the seven workloads at M = 1024 x N = 16384, 65536, 262144: the one-CTA kernels and clusters
      # P = 2..16, each checked and timed (5 samples), then every passed kernel profiled once under
      # ncu (DRAM bytes read and written, L2 emptied before and drained after): traffic-h200.json,
      # .txt and its report
      run traffic-test build/tests/credit_gpu_tests "[traffic]"
      run traffic build/credit --json "$OUT/traffic-h200.json" bench --traffic --rows 1024 \
        --widths 16384,65536,262144 --schedule staged global_reread registers cluster --P 2,4,8,16 \
        --samples 5 --warmup 1
      cp "$LOGS/traffic.log" "$OUT/traffic-h200.txt"
      run traffic-report build/credit report "$OUT/traffic-h200.json" --markdown "$OUT/traffic-report.md" ;;
    trafficwide)  # issue 13: the partial, split_global and split_pipelined schedules' measured DRAM bytes beside the
      # cluster's and global_reread's (M = 1024, N = 262144 and 524288; every passed kernel profiled once under ncu, as
      # in `traffic`; P = 32, 64, 128 only the split schedules take)
      run traffic-wide build/credit --json "$OUT/traffic-wide.json" bench --traffic --rows 1024 \
        --widths 262144,524288 --schedule global_reread cluster partial split_global split_pipelined --P 16,32,64,128 \
        --samples 5 --warmup 1
      cp "$LOGS/traffic-wide.log" "$OUT/traffic-wide.txt" ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
