# Included by tests/CMakeLists.txt after credit_cli_exit / credit_cli_ok / credit_cli_error are defined.
# The tuning cache: `credit cache` on a file named with --tuning, and `credit predict` answering from it.
# The fixture's entries were measured on the GPU of h200-calibration-with-model.json by a build named
# "fixture": --tuning-any-build lets them answer this build; without it they are named as another build's.
set(tuning_fixture ${fixtures}/tuning-cache-h200.json)
set(h200_cal ${fixtures}/h200-calibration-with-model.json)
set(cache_dir ${CMAKE_CURRENT_BINARY_DIR}/cache)
file(MAKE_DIRECTORY ${cache_dir})

credit_cli_ok(cli_cache_list_file "layernorm +f32 +4096 +65536 +cluster P=8 +0\\.5607"
              cache list --tuning ${tuning_fixture})
credit_cli_ok(cli_cache_list_other_gpu "rmsnorm +bf16 +333 +201088 +split_global P=32 .*H100"
              cache list --tuning ${tuning_fixture})
credit_cli_exit(cli_cache_export_needs_file 2 "cache export needs a FILE" cache export --tuning ${tuning_fixture})
credit_cli_exit(cli_cache_list_takes_no_file 2 "cache list takes no FILE" cache list x.json --tuning ${tuning_fixture})
credit_cli_exit(cli_cache_unknown_action 2 "action: .*not in" cache prune --tuning ${tuning_fixture})
credit_cli_exit(cli_cache_import_not_json 2 "cache import .*notes\\.md" cache import ${CMAKE_CURRENT_BINARY_DIR}/inputs/notes.md
                --tuning ${cache_dir}/never.json)
credit_cli_exit(cli_cache_refuses_json 2 "--json: cache writes no JSON" cache list --tuning ${tuning_fixture} --json x.json)

# import, list, export, clear: a round trip through a fresh file.
add_test(NAME cli_cache_import_export_clear
         COMMAND ${expect_success} "team\\.json: 0 tuned shape"
                 sh -c "rm -f '${cache_dir}/team.json' '${cache_dir}/out.json' && \
'$<TARGET_FILE:credit>' cache import '${tuning_fixture}' --tuning '${cache_dir}/team.json' && \
'$<TARGET_FILE:credit>' cache export '${cache_dir}/out.json' --tuning '${cache_dir}/team.json' && \
'$<TARGET_FILE:credit>' cache list --tuning '${cache_dir}/out.json' | grep -q '3 tuned shape' && \
'$<TARGET_FILE:credit>' cache clear --tuning '${cache_dir}/team.json' && \
exec '$<TARGET_FILE:credit>' cache list --tuning '${cache_dir}/team.json'")
set_tests_properties(cli_cache_import_export_clear PROPERTIES LABELS cpu)

set(predict_h200 predict --workload layernorm --calibration ${h200_cal})
credit_cli_ok(cli_predict_measured "pick: cluster P=8 \\(measured by credit tune on 2026-12-07, 0\\.5607 ms\\); the model picks"
              ${predict_h200} --shape 4096x65536 --tuning ${tuning_fixture} --tuning-any-build)
# M = 2048 lies between the tuned 1024 and 4096, both cluster: the nearer (in log M; a tie goes to the smaller) answers.
credit_cli_ok(cli_predict_measured_neighbour "pick: cluster P=4 \\(measured by credit tune at M = 1024 on 2026-12-07"
              ${predict_h200} --shape 2048x65536 --tuning ${tuning_fixture} --tuning-any-build)
# A shape the cache does not hold: the model's pick.
credit_cli_ok(cli_predict_not_tuned "pick: [a-z_]+( P=[0-9]+)? \\([0-9.]+ ms\\); the one-CTA kernel"
              ${predict_h200} --shape 4096x32768 --tuning ${tuning_fixture} --tuning-any-build)
credit_cli_exit(cli_predict_tuning_any_build_alone 2 "--tuning-any-build goes with --tuning FILE"
                ${predict_h200} --shape 4096x65536 --tuning-any-build)
# Another build's entry: the model's pick, and the log says why.
add_test(NAME cli_predict_tuning_other_build
         COMMAND sh -c "'$<TARGET_FILE:credit>' predict --workload layernorm --calibration '${h200_cal}' --shape 4096x65536 \
--tuning '${tuning_fixture}' 2>&1 >/dev/null | grep -q 'measured by another build (fixture' && \
'$<TARGET_FILE:credit>' predict --workload layernorm --calibration '${h200_cal}' --shape 4096x65536 \
--tuning '${tuning_fixture}' 2>/dev/null | grep -q 'one-CTA kernel a cluster must beat'")
set_tests_properties(cli_predict_tuning_other_build PROPERTIES LABELS cpu)
# A corrupt --tuning file: a warning on stderr, the model's pick on stdout, exit 0.
file(WRITE ${cache_dir}/corrupt.tuning.json "{\"kind\": \"tuning_cache\", \"entr")
add_test(NAME cli_predict_tuning_corrupt
         COMMAND sh -c "'$<TARGET_FILE:credit>' predict --workload layernorm --calibration '${h200_cal}' --shape 4096x65536 \
--tuning '${cache_dir}/corrupt.tuning.json' > '${cache_dir}/corrupt.out' 2> '${cache_dir}/corrupt.err' && \
grep -q 'does not read, ignored' '${cache_dir}/corrupt.err' && \
grep -q 'one-CTA kernel a cluster must beat' '${cache_dir}/corrupt.out'")
set_tests_properties(cli_predict_tuning_corrupt PROPERTIES LABELS cpu)
