#!/bin/sh
# Installs the build into an empty prefix, then imports the Python package from it with PYTHONPATH alone (no
# CREDIT_LIBRARY): its version, an offline selection, and `import credit.torch` working or failing only for
# want of torch.
#   install_and_import.sh BUILD_DIR WORK_DIR CALIBRATION PYTHON
set -eu
build=$1 work=$2 python=$4
calibration=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")  # the script reads it from WORK_DIR
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
unset CREDIT_LIBRARY
export PYTHONPATH="$work/prefix/share/credit/python" PYTHONDONTWRITEBYTECODE=1
cd "$work"  # not the source tree: the installed package is the one imported
"$python" -c "import credit; print(credit.version())"
"$python" - "$calibration" "$work/prefix" <<'PY'
import os, sys
import credit
prefix = os.path.realpath(sys.argv[2])
assert os.path.realpath(credit.__file__).startswith(prefix), credit.__file__
s = credit.select("rmsnorm", "bf16", 4096, 65536, calibration=sys.argv[1])
assert (s.schedule, s.p, s.measured) == ("cluster", 2, False), s
print("select:", s)
try:
    import credit.torch
    print("credit.torch: imported, torch", credit.torch.torch.__version__)
except ImportError as e:
    assert "torch" in str(e) and e.name == "torch", repr(e)
    print("credit.torch: no torch:", e)
PY
