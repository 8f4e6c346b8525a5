#!/bin/sh
# pip install --no-deps --no-build-isolation of a copy of the package source into WORK_DIR/site (offline), then
# `import credit` from there with CREDIT_LIBRARY naming the library. Exit 77 where PYTHON cannot build a wheel
# offline (no setuptools or wheel).
#   pip_install.sh PACKAGE_DIR WORK_DIR LIBRARY PYTHON
set -eu
src=$1 work=$2 library=$3 python=$4
if ! "$python" -c "import setuptools, wheel, pip" 2>/dev/null; then
  echo "skipped: $python lacks pip, setuptools or wheel to build the package offline"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cp -R "$src" "$work/src"
"$python" -m pip install --no-deps --no-build-isolation --no-index --target "$work/site" "$work/src" > "$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; exit 1; }
cd "$work"
PYTHONPATH="$work/site" CREDIT_LIBRARY="$library" PYTHONDONTWRITEBYTECODE=1 \
  "$python" -c "import credit, os; assert credit.__file__.startswith(os.path.realpath('site')), credit.__file__; print(credit.version())"
