# Included by tests/CMakeLists.txt after credit_cli_exit / credit_cli_ok / credit_cli_error are defined.
# The output-path rule (src/cli/output_paths.hpp), for every output option: "-" is stdout; a device, FIFO or
# socket is written through; a link's target is written and the link kept; a missing or unusable directory,
# an input, or another output's file is refused with exit 2 before any work (before the GPU: exit 2, not 3).

# Special files and the file system after the run: tests/cli/special_outputs.sh makes its FIFOs and links in a
# temporary directory; /dev/null and /dev/full are only checked to be character devices still.
set(special_outputs ${CMAKE_CURRENT_SOURCE_DIR}/cli/special_outputs.sh)
foreach(pair
    "fifo-json;cli_output_fifo_reader_gets_the_json"
    "fifo-csv;cli_output_fifo_reader_gets_the_csv"
    "fifo-markdown;cli_output_fifo_reader_gets_the_markdown"
    "fifo-html;cli_output_fifo_reader_gets_the_html"
    "link-json;cli_output_json_link_kept_target_written"
    "link-csv;cli_output_csv_link_kept_target_written"
    "link-markdown;cli_output_markdown_link_kept_target_written"
    "link-html;cli_output_html_link_kept_target_written"
    "dev-null;cli_output_dev_null_written_through_stays_a_device"
    "dev-full;cli_output_dev_full_fails_with_enospc_stays_a_device"
    "markdown-dash;cli_output_markdown_dash_is_stdout_not_a_file"
    "html-dash;cli_output_html_dash_is_stdout_markdown_to_stderr"
    "json-dash;cli_output_json_dash_is_stdout_table_to_stderr"
    "html-missing-dir;cli_output_html_missing_directory_refused_not_made"
    "link-to-input;cli_output_link_to_an_input_refused"
    "link-to-other-output;cli_output_link_to_the_other_output_refused")
  list(GET pair 0 case)
  list(GET pair 1 name)
  add_test(NAME ${name} COMMAND ${special_outputs} ${case} $<TARGET_FILE:credit> ${fixtures})
  set_tests_properties(${name} PROPERTIES LABELS cpu)
endforeach()

set(out_cal ${fixtures}/h200-calibration-with-model.json)
set(out_sweep ${fixtures}/sweep-paper-h200.json)
set(out_missing ${CMAKE_CURRENT_BINARY_DIR}/no-such-directory)  # never made

# Two outputs on stdout: exit 2, whichever the options.
credit_cli_rejected(cli_output_markdown_and_html_both_dash "--markdown and --html both name stdout \\(-\\)"
                    report ${out_sweep} --markdown - --html -)
credit_cli_rejected(cli_output_json_and_csv_both_dash "--json and --csv both name stdout \\(-\\)"
                    predict --workload lars --shape 44x4250 --calibration ${out_cal} --json - --csv -)
# A sweep's results file is rewritten as points complete and read back by --resume: stdout and devices refused.
credit_cli_rejected(cli_output_sweep_json_dash_refused "--json -: a sweep's results file is rewritten" run-sweep --json -)
credit_cli_rejected(cli_output_sweep_resume_dash_refused "--resume -: a sweep's results file is rewritten"
                    run-sweep --resume -)
credit_cli_rejected(cli_output_sweep_json_device_refused
                    "--json /dev/null: is a character device, and a sweep's results file is rewritten" run-sweep --json /dev/null)
credit_cli_rejected(cli_output_manifest_dash_refused "--manifest -: the manifest is read back" profile-launches --manifest -)

# A missing directory: exit 2 for every option, before any work (nothing printed).
credit_cli_rejected(cli_output_csv_missing_directory "--csv .*/no-such-directory/x.csv: no directory"
                    run-sweep --summarize ${out_sweep} --csv ${out_missing}/x.csv)
credit_cli_rejected(cli_output_markdown_missing_directory "--markdown .*/no-such-directory/x.md: no directory"
                    report ${out_sweep} --markdown ${out_missing}/x.md)
credit_cli_rejected(cli_output_html_missing_directory "--html .*/no-such-directory/x.html: no directory"
                    report ${out_sweep} --html ${out_missing}/x.html)

# A directory no file can be created in (/proc: tried, never written): exit 2 before the work, not 1 after it;
# on the GPU commands before the GPU (exit 2 here, where the GPU would give 3).
credit_cli_rejected(cli_output_summarize_csv_unwritable_directory "--csv /proc/nope.csv: no file can be created in /proc"
                    run-sweep --summarize ${out_sweep} --csv /proc/nope.csv)
credit_cli_rejected(cli_output_predict_json_unwritable_directory "--json /proc/nope.json: no file can be created in /proc"
                    predict --workload lars --shape 44x4250 --calibration ${out_cal} --json /proc/nope.json)
credit_cli_rejected(cli_output_report_markdown_unwritable_directory "--markdown /proc/nope.md: no file can be created"
                    report ${out_sweep} --markdown /proc/nope.md)
credit_cli_rejected(cli_output_fit_model_csv_unwritable_directory "--csv /proc/nope.csv: no file can be created"
                    fit-model ${out_sweep} --csv /proc/nope.csv)
credit_cli_rejected(cli_output_bench_csv_before_the_gpu "--csv /proc/nope.csv: no file can be created"
                    bench --csv /proc/nope.csv)
credit_cli_rejected(cli_output_tune_csv_before_the_gpu "--csv /proc/nope.csv: no file can be created"
                    tune --workload layernorm --shape 4x4096 --csv /proc/nope.csv)
credit_cli_rejected(cli_output_calibrate_json_before_the_gpu "--json /proc/nope.json: no file can be created"
                    calibrate --json /proc/nope.json)
credit_cli_rejected(cli_output_sweep_csv_before_the_gpu "--csv /proc/nope.csv: no file can be created"
                    run-sweep --csv /proc/nope.csv)

# Two options naming one file, spelt otherwise.
credit_cli_rejected(cli_output_markdown_and_html_same_file "--markdown and --html name the same file"
                    report ${out_sweep} --markdown ${CMAKE_CURRENT_BINARY_DIR}/same-report
                    --html ${CMAKE_CURRENT_BINARY_DIR}/./same-report)
