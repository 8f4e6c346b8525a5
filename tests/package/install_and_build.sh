#!/bin/sh
# Installs the build into an empty prefix, checks that the installed archives hold no symbol of the tool
# (check_installed_symbols.sh), then configures and builds examples/ against the prefix alone:
#   install_and_build.sh BUILD_DIR EXAMPLES_DIR WORK_DIR [CMAKE_ARGS...]
# The examples land in WORK_DIR/build (select_and_run, own_workload).
set -eu
build=$1 examples=$2 work=$3
shift 3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
sh "$(dirname "$0")/check_installed_symbols.sh" "$work/prefix" "$build"
cmake -S "$examples" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" "$@"
cmake --build "$work/build"
echo "built the examples in $work/build against $work/prefix"
