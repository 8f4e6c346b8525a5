# Included by tests/CMakeLists.txt after credit_cli_exit / credit_cli_ok / credit_cli_error are defined.
