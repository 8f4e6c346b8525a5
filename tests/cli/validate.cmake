# Included by tests/CMakeLists.txt after credit_cli_exit / credit_cli_ok / credit_cli_error are defined.
# `credit validate`: its options checked before any GPU work, the seeded draw listed offline (--dry-run), a recorded
# file summarized, two calibrations compared; `credit tune`'s shape options checked before any GPU work.
set(heldout ${fixtures}/sweep-heldout-h200.json)
set(h200_cal ${fixtures}/h200-calibration-with-model.json)
set(validate_dir ${CMAKE_CURRENT_BINARY_DIR}/validate)
file(MAKE_DIRECTORY ${validate_dir})

credit_cli_exit(cli_validate_needs_seed 2 "validate needs --seed" validate --shapes 10)
credit_cli_exit(cli_validate_bad_m_range 2 "--m-range: expected MIN:MAX with 1 <= MIN <= MAX, got '0:5'"
                validate --seed 1 --m-range 0:5 --dry-run)
credit_cli_exit(cli_validate_bad_n_range 2 "--n-range: expected MIN:MAX" validate --seed 1 --n-range 4096 --dry-run)
credit_cli_exit(cli_validate_unknown_workload 2 "--workloads: 'nosuch' is no declared workload"
                validate --seed 1 --workloads nosuch --dry-run)
credit_cli_exit(cli_validate_bad_dtype 2 "--dtype: unknown element type 'fp8'" validate --seed 1 --dtype fp8 --dry-run)
credit_cli_exit(cli_validate_too_few_shapes 2 "the draw: the ranges hold fewer than 50 distinct shapes"
                validate --seed 1 --shapes 50 --workloads layernorm --m-range 4:4 --n-range 1024:1030 --dry-run)
credit_cli_exit(cli_validate_summarize_with_seed 2 "--seed goes with a check to run, not with --summarize"
                validate --summarize ${heldout} --seed 3)
credit_cli_exit(cli_validate_compare_alone 2 "--compare goes with --summarize FILE"
                validate --seed 3 --compare ${h200_cal} ${h200_cal})
credit_cli_exit(cli_validate_summarize_json 2 "--json: --summarize prints the table"
                validate --summarize ${heldout} --json ${validate_dir}/x.json)
credit_cli_exit(cli_validate_summarize_calibration 2 "calibration" validate --summarize ${h200_cal})
credit_cli_ok(cli_validate_dry_run "total: 40 shapes, at most [0-9]+ points"
              validate --seed 5 --shapes 40 --dry-run)
# The same seed lists the same shapes; another seed others.
add_test(NAME cli_validate_seed_repeats
         COMMAND sh -c "'$<TARGET_FILE:credit>' validate --seed 9 --shapes 30 --dry-run > '${validate_dir}/a.txt' && \
'$<TARGET_FILE:credit>' validate --seed 9 --shapes 30 --dry-run > '${validate_dir}/b.txt' && \
'$<TARGET_FILE:credit>' validate --seed 10 --shapes 30 --dry-run > '${validate_dir}/c.txt' && \
cmp -s '${validate_dir}/a.txt' '${validate_dir}/b.txt' && ! cmp -s '${validate_dir}/a.txt' '${validate_dir}/c.txt'")
set_tests_properties(cli_validate_seed_repeats PROPERTIES LABELS cpu)
credit_cli_ok(cli_validate_summarize "the N-only rule .*\n.*one-CTA: "
              validate --summarize ${heldout})
credit_cli_ok(cli_validate_compare "B against A, ln\\(1 \\+ regret\\) paired by shape: \\+0\\.00 points .*keep A"
              validate --summarize ${heldout} --compare ${h200_cal} ${h200_cal})

credit_cli_exit(cli_tune_rows_without_widths 2 "--rows and --widths go together" tune --workload layernorm --rows 16)
credit_cli_exit(cli_tune_needs_shapes 2 "tune needs --workload and the shapes" tune --workload layernorm)
credit_cli_exit(cli_tune_config_unknown_workload 2 "unknown workload 'nosuch'"
                tune --config ${CMAKE_SOURCE_DIR}/configs/quick.json --workload nosuch)
credit_cli_exit(cli_tune_config_ladder 2 "is a ladder \\(host completion\\), not shapes to tune"
                tune --config ${CMAKE_SOURCE_DIR}/configs/seed001.json)
