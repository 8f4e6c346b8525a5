"""credit: row-wise GPU operators (layernorm, rmsnorm, softmax backward, int8 quantisation, ...) whose schedule is
picked per shape, over the C interface libcredit_c.so (found through $CREDIT_LIBRARY, next to this package, or in
the lib folder of the prefix it is installed under).

    import credit
    credit.version(); credit.workloads()
    credit.select("layernorm", "bf16", 4096, 8192, calibration="PREFIX/share/credit/calibrations/h100.json")

PyTorch ops: `import credit.torch` (docs/python.md). Importing `credit` needs neither the library nor torch.
"""
from ._api import Selection, WorkloadTensors, select, version, version_tuple, workload_tensors, workloads
from ._lib import (LIBRARY_ENV, CreditError, CreditValueError, LibraryNotFoundError, NoCalibrationError,
                   NotSupportedError)

__all__ = ["Selection", "WorkloadTensors", "select", "version", "version_tuple", "workload_tensors", "workloads",
           "LIBRARY_ENV", "CreditError", "CreditValueError", "LibraryNotFoundError", "NoCalibrationError",
           "NotSupportedError"]
