# Included by tests/CMakeLists.txt after credit_cli_exit / credit_cli_ok / credit_cli_error are defined.
# Options that cannot take effect in the command as given (exit 2 naming them), --help listing only what a command
# takes, messages that name the option or file at fault, compare --versus against candidates only, and run-sweep
# --summarize's tables and order (every input checked before anything is printed).
set(options_dir ${CMAKE_CURRENT_BINARY_DIR}/cli-options)
file(MAKE_DIRECTORY ${options_dir})
file(WRITE ${options_dir}/garbage.json "garbage\n")
set(paper ${fixtures}/sweep-paper-h200.json)
set(heldout ${fixtures}/sweep-heldout-h200.json)
set(with_model ${fixtures}/h200-calibration-with-model.json)

# A test whose stdout must match `pass` and never `fail` (the command's stdout and stderr, as CTest sees them).
function(credit_cli_output name pass fail)
  add_test(NAME ${name} COMMAND credit --log-level error ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS cpu PASS_REGULAR_EXPRESSION "${pass}" FAIL_REGULAR_EXPRESSION "${fail}")
endfunction()

# compare --versus S: S against the fastest other candidate at each shape, never the work-free control (which made
# every row "control P=2 ... 0.080", geomean 0.077), the copy, or a peer of a torch file given beside the sweep.
credit_cli_output(cli_compare_versus_candidates_only "cluster over the fastest other candidate: geomean 1\\.079 over 35 shapes"
                  "control P=|copy P=" compare --a ${paper} --versus cluster)
credit_cli_output(cli_compare_versus_ignores_peers "cluster over the fastest other candidate: geomean 1\\.079 over 35 shapes"
                  "torch_|triton|control P=" compare --a ${paper} ${fixtures}/sweep-paper-torch-h200.json --versus cluster)
credit_cli_exit(cli_compare_versus_unknown 2 "--versus: unknown schedule 'bogus' \\(known: staged, global_reread, cluster"
                compare --a ${paper} --versus bogus)

# run-sweep --summarize: an M column in the per-shape table (four row counts of one (workload, N) told apart), the
# speed-ups per (M, N), and no blank first line.
credit_cli_ok(cli_summarize_m_column "^workload +M +N +baseline +T_base ms" run-sweep --summarize ${heldout})
credit_cli_ok(cli_summarize_shape_row_has_m "^layernorm +64 +98304 +global_reread +0\\.0404 +16 "
              run-sweep --summarize ${heldout})
credit_cli_ok(cli_summarize_speedups_per_shape "^ +512 +200003 +best 1\\.743x \\(3\\) +cuda 1\\.743x \\(3\\)"
              run-sweep --summarize ${heldout})
credit_cli_output(cli_summarize_no_blank_first_line "^workload +M +N " "^\n" run-sweep --summarize ${paper})
credit_cli_output(cli_ladder_summary_no_blank_first_line "^rms_softmax M=1 N=131072: host completion" "^\n"
                  run-sweep --summarize ${fixtures}/ladder-seed001-h200.json)
# Nothing on stdout before every input is read and checked (it printed 4 KB of summary, then failed).
credit_cli_rejected(cli_summarize_bad_calibration_prints_nothing "garbage.json: not valid JSON"
                    run-sweep --summarize ${paper} --calibration ${options_dir}/garbage.json)
credit_cli_rejected(cli_summarize_bad_baselines_prints_nothing "garbage.json: not valid JSON"
                    run-sweep --summarize ${paper} --baselines ${options_dir}/garbage.json)
credit_cli_rejected(cli_summarize_bad_constants_prints_nothing "garbage.json: not valid JSON"
                    run-sweep --summarize ${heldout} --calibration ${with_model} --constants ${options_dir}/garbage.json)
credit_cli_rejected(cli_summarize_model_vs_measured_prints_nothing
                    "--model-vs-measured: the sweep has no time-model inputs to use it with"
                    run-sweep --summarize ${paper} --model-vs-measured cluster)
credit_cli_rejected(cli_summarize_calibration_sweep_file_prints_nothing
                    "--calibration .*sweep-paper-h200.json: a sweep results file whose calibration has no time model inputs"
                    run-sweep --summarize ${heldout} --calibration ${paper})
# With --csv - the CSV is stdout's only data; the summary goes to stderr.
add_test(NAME cli_summarize_csv_dash_summary_on_stderr COMMAND sh -c
         "'$<TARGET_FILE:credit>' run-sweep --summarize '${paper}' --csv - 2>&1 >/dev/null | head -1")
set_tests_properties(cli_summarize_csv_dash_summary_on_stderr PROPERTIES LABELS cpu
                     PASS_REGULAR_EXPRESSION "^workload +M +N +baseline")

# --baselines FILE with no peer point at a shape of the sweep would change nothing: refused, naming the file.
credit_cli_rejected(cli_summarize_baselines_no_peer_points
                    "--baselines .*sweep-heldout-h200.json: no passed peer point \\(torch_compile, triton, torch_eager\\)"
                    run-sweep --summarize ${paper} --baselines ${heldout})
credit_cli_rejected(cli_summarize_baselines_other_shapes "--baselines .*sweep-paper-torch-h200.json: no passed peer point"
                    run-sweep --summarize ${heldout} --baselines ${fixtures}/sweep-paper-torch-h200.json)

# Options that cannot take effect, each refused by name (they were ignored, exit 0).
credit_cli_rejected(cli_compare_margin_without_versus "--margin goes with --versus"
                    compare --a ${paper} --b ${paper} --margin 0.1)
foreach(where before after)
  if(where STREQUAL "before")
    set(dev --device 0 list)
  else()
    set(dev list --device 0)
  endif()
  credit_cli_rejected(cli_list_device_${where} "--device: list uses no GPU" ${dev})
endforeach()
credit_cli_rejected(cli_devices_device "--device: devices lists every device" devices --device 1)
credit_cli_rejected(cli_report_device "--device: report uses no GPU" report ${paper} --device 0)
credit_cli_rejected(cli_fit_model_device "--device: fit-model uses no GPU" --device 0 fit-model ${heldout})
credit_cli_rejected(cli_compare_device "--device: compare uses no GPU" compare --a ${paper} --versus cluster --device 0)
credit_cli_rejected(cli_predict_calibration_device "--device: predict --calibration FILE predicts offline"
                    predict --workload lars --shape 44x4250 --calibration ${with_model} --device 0)
credit_cli_rejected(cli_predict_from_device "--device: --from re-evaluates a results file, offline"
                    predict --from ${fixtures}/predict-lars-65536-h200.json --device 0)
credit_cli_rejected(cli_summarize_device "--device: --summarize reads a recorded sweep, offline"
                    --device 0 run-sweep --summarize ${paper})
credit_cli_rejected(cli_dry_run_device "--device: --dry-run lists what the sweep would measure, offline"
                    run-sweep --dry-run --device 0)
credit_cli_rejected(cli_profile_launches_json "--json: profile-launches writes its --manifest, no JSON"
                    --json ${options_dir}/p.json profile-launches --manifest ${options_dir}/m.tsv)
credit_cli_rejected(cli_predict_time_seed "--seed goes with --model paper\\|refined"
                    predict --workload lars --shape 44x4250 --calibration ${with_model} --seed 3)
credit_cli_rejected(cli_predict_from_seed "--seed: --from re-evaluates recorded measurements"
                    predict --from ${fixtures}/predict-lars-65536-h200.json --seed 3)
credit_cli_rejected(cli_predict_from_dtype "--dtype: --from re-evaluates the file's predictions"
                    predict --from ${fixtures}/predict-lars-65536-h200.json --dtype bf16)
credit_cli_rejected(cli_summarize_seed "--seed goes with a sweep to run, not with --summarize"
                    run-sweep --summarize ${paper} --seed 3)
credit_cli_rejected(cli_dry_run_seed "--seed: --dry-run measures nothing" run-sweep --dry-run --seed 3)
credit_cli_rejected(cli_dry_run_no_python "--no-python: --dry-run runs no peers" run-sweep --dry-run --no-python)
credit_cli_rejected(cli_reevaluate_without_summarize "--reevaluate goes with --summarize" run-sweep --dry-run --reevaluate)
credit_cli_rejected(cli_ladder_summary_calibration "--calibration: .*ladder-seed001-h200.json is a ladder file"
                    run-sweep --summarize ${fixtures}/ladder-seed001-h200.json --calibration ${with_model})
credit_cli_rejected(cli_ladder_summary_baselines "--baselines: .*ladder-seed001-h200.json is a ladder file"
                    run-sweep --summarize ${fixtures}/ladder-seed001-h200.json --baselines ${fixtures}/sweep-paper-torch-h200.json)
credit_cli_rejected(cli_bench_p_without_split "--P: none of the schedules chosen splits a row"
                    bench --schedule staged,global_reread --P 4)
credit_cli_rejected(cli_bench_phases_without_timeline "--phases: none of the schedules chosen records a phase timeline"
                    bench --schedule global_reread --phases)
credit_cli_rejected(cli_fit_model_write_with_without_json "--write-with goes with --json"
                    fit-model ${heldout} --write-with ${with_model})

# --help lists only what the command takes: no --json where it writes none, no --device where it uses no GPU.
foreach(command list devices report compare)
  add_test(NAME cli_help_${command}_no_json_no_device COMMAND credit ${command} --help)
  set_tests_properties(cli_help_${command}_no_json_no_device PROPERTIES LABELS cpu
                       PASS_REGULAR_EXPRESSION "--log-level" FAIL_REGULAR_EXPRESSION "--json|--device")
endforeach()
add_test(NAME cli_help_fit_model_json_no_device COMMAND credit fit-model --help)
set_tests_properties(cli_help_fit_model_json_no_device PROPERTIES LABELS cpu
                     PASS_REGULAR_EXPRESSION "\n  --json " FAIL_REGULAR_EXPRESSION "--device")
add_test(NAME cli_help_predict_json_and_device COMMAND credit predict --help)
set_tests_properties(cli_help_predict_json_and_device PROPERTIES LABELS cpu
                     PASS_REGULAR_EXPRESSION "\n  --device [^\n]*\n(.*\n)*  --json |\n  --json [^\n]*\n(.*\n)*  --device ")

# A missing option value names the option (CLI11 took --shape as the workload and then found 4096x4096 unexpected).
credit_cli_rejected(cli_missing_value_before_option "^--workload needs a value \\(the next word, --shape, is an option\\)"
                    predict --workload --shape 4096x4096)
credit_cli_rejected(cli_missing_value_at_end "^--shape needs a value" predict --workload layernorm --shape)
credit_cli_rejected(cli_missing_value_list_option "^--P needs a value" bench --P --widths 4096)
credit_cli_rejected(cli_missing_value_global_option "^--json needs a value" --json --device 0 list)

# Messages that name the file at fault and say what kind of file it is.
credit_cli_rejected(cli_fit_model_sweep_without_model_inputs
                    "sweep-paper-h200.json: the calibration this sweep records predates the time model's inputs"
                    fit-model ${paper})
credit_cli_rejected(cli_fit_model_bad_start_named "garbage.json: not valid JSON"
                    fit-model ${paper} --start ${options_dir}/garbage.json)
credit_cli_rejected(cli_predict_calibration_sweep_file
                    "--calibration .*sweep-paper-h200.json: this is a sweep results file, expected a calibration"
                    predict --workload layernorm --shape 4096x65536 --calibration ${paper})
# A ladder config runs no peers: --no-python would change nothing (refused before the GPU).
credit_cli_rejected(cli_ladder_config_no_python "--no-python: .*seed001.json is a ladder"
                    run-sweep --config ${CMAKE_SOURCE_DIR}/configs/seed001.json --no-python)
# A torch-baselines file given to --summarize is named as one (it printed an empty summary, exit 0).
credit_cli_rejected(cli_summarize_torch_file "sweep-paper-torch-h200.json: is a torch-baselines file, expected a sweep or ladder"
                    run-sweep --summarize ${fixtures}/sweep-paper-torch-h200.json)
credit_cli_rejected(cli_fit_model_torch_file "sweep-paper-torch-h200.json: kind: expected a sweep .*got a torch-baselines file"
                    fit-model ${fixtures}/sweep-paper-torch-h200.json)
