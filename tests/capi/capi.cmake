# The C interface (include/credit/credit_c.h, libcredit_c.so): without a GPU, compiled as C (the header is C99);
# on a GPU, launches checked against the CPU (exit 77, skipped, without one).
add_executable(credit_capi_tests ${CMAKE_CURRENT_LIST_DIR}/test_capi.c)
set_target_properties(credit_capi_tests PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(credit_capi_tests PRIVATE -Wall -Wextra -pedantic -Werror)
target_include_directories(credit_capi_tests PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_compile_definitions(credit_capi_tests PRIVATE CREDIT_EXPECTED_VERSION="${PROJECT_VERSION}")
target_link_libraries(credit_capi_tests PRIVATE credit_c)
add_test(NAME capi COMMAND credit_capi_tests ${fixtures})
set_tests_properties(capi PROPERTIES LABELS cpu)

add_executable(credit_capi_gpu_tests ${CMAKE_CURRENT_LIST_DIR}/test_capi_run.cpp)
# The float64 oracle and the random problems of the other tests (tests/reference, tests/support).
target_link_libraries(credit_capi_gpu_tests PRIVATE credit_c credit_test_support CUDA::cudart)
add_test(NAME capi_gpu COMMAND credit_capi_gpu_tests)
set_tests_properties(capi_gpu PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
