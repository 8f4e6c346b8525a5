# Included by tests/CMakeLists.txt after credit_cli_exit / credit_cli_ok / credit_cli_error are defined.
# Inputs: sweep configs out of range, results files of another kind or none, gzipped or cut short.

# tests/cpu/test_inputs.cpp runs `credit list` to check the workload count it prints against the registry.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/cpu/test_inputs.cpp PROPERTIES
                            COMPILE_DEFINITIONS "CREDIT_BINARY=\"$<TARGET_FILE:credit>\"")
add_dependencies(credit_cpu_tests credit)

set(inputs_dir ${CMAKE_CURRENT_BINARY_DIR}/inputs)
file(MAKE_DIRECTORY ${inputs_dir})

# A count beyond its limit is refused before any work, naming the key, the value and the limit ("samples":
# 2147483647 gave --dry-run "about -904281 s").
file(WRITE ${inputs_dir}/samples-int-max.json
     "{\"workloads\": [\"layernorm\"], \"widths\": [4096], \"samples\": 2147483647}\n")
credit_cli_exit(cli_config_samples_beyond_limit 2
                "samples-int-max.json: samples: expected a positive integer up to 100000 .*got 2147483647"
                run-sweep --dry-run --config ${inputs_dir}/samples-int-max.json)
file(WRITE ${inputs_dir}/warmup-int-max.json "{\"widths\": [4096], \"warmup\": 2147483647}\n")
credit_cli_exit(cli_config_warmup_beyond_limit 2 "warmup: expected a non-negative integer up to 10000, got 2147483647"
                run-sweep --dry-run --config ${inputs_dir}/warmup-int-max.json)
file(WRITE ${inputs_dir}/max-bytes-huge.json "{\"widths\": [4096], \"max_bytes\": 1e300}\n")
credit_cli_exit(cli_config_max_bytes_beyond_limit 2 "max_bytes: expected a positive number of bytes up to 1e15.*got 1e\\+300"
                run-sweep --dry-run --config ${inputs_dir}/max-bytes-huge.json)
# At the limits the estimate is a positive number of seconds (counts and times in double).
file(WRITE ${inputs_dir}/at-limits.json
     "{\"workloads\": [\"layernorm\"], \"widths\": [65536], \"rows\": {\"layernorm\": 4096}, \"samples\": 100000, \"warmup\": 10000, \"passes\": 2}\n")
credit_cli_ok(cli_config_dry_run_estimate_at_limits "total: [0-9]+ points, about [1-9][0-9]* s \\([0-9.]+ min\\)"
              run-sweep --dry-run --config ${inputs_dir}/at-limits.json)
# A results file given as the config is named as one, not by its first key.
credit_cli_exit(cli_config_given_results_file 2
                "sweep-paper-h200.json: \\(file\\): is a results file of kind \"sweep\", expected a sweep config"
                run-sweep --dry-run --config ${fixtures}/sweep-paper-h200.json)

# Results files: a config, a non-JSON file, a truncated gzip stream; each named with what it is and what was expected.
credit_cli_exit(cli_report_given_config 2
                "quick.json: is a sweep config \\(for credit run-sweep --config\\), expected a results JSON file"
                report ${CMAKE_SOURCE_DIR}/configs/quick.json)
credit_cli_exit(cli_summarize_given_config 2 "quick.json: is a sweep config"
                run-sweep --summarize ${CMAKE_SOURCE_DIR}/configs/quick.json)
file(WRITE ${inputs_dir}/notes.md "# notes\nnot JSON\n")
credit_cli_exit(cli_report_not_json 2 "notes.md: not valid JSON \\(parse error at line 1, column 1.*\\), expected a results JSON file"
                report ${inputs_dir}/notes.md)
add_test(NAME cli_report_truncated_gzip
         COMMAND ${expect_failure} --exit 2 "cut.json.gz: is gzipped but truncated or corrupt, expected a results JSON file"
                 sh -c "gzip -c '${fixtures}/sweep-paper-h200.json' | head -c 2000 > '${inputs_dir}/cut.json.gz' && exec '$<TARGET_FILE:credit>' report '${inputs_dir}/cut.json.gz'")
set_tests_properties(cli_report_truncated_gzip PROPERTIES LABELS cpu)
# A whole gzipped results file reads as the plain one (by content, whatever its name).
add_test(NAME cli_summarize_gzipped_sweep
         COMMAND ${expect_success} "layernorm"
                 sh -c "gzip -c '${fixtures}/sweep-paper-h200.json' > '${inputs_dir}/sweep.json.gz' && exec '$<TARGET_FILE:credit>' run-sweep --summarize '${inputs_dir}/sweep.json.gz'")
set_tests_properties(cli_summarize_gzipped_sweep PROPERTIES LABELS cpu)

# credit list: the workload count from the registry (tests/cpu/test_inputs.cpp compares it with the registry's size),
# the columns explained under the table, and the controls counted.
credit_cli_ok(cli_list_counts_workloads "^[0-9]+ workloads \\(reduction reuse" list)
credit_cli_ok(cli_list_explains_columns "L: stages of statistics; q: statistics per stage; Q: their sum; s: bytes per statistic" list)
credit_cli_ok(cli_list_counts_controls "[0-9]+ negative controls: nothing for a cluster to reuse" list)
