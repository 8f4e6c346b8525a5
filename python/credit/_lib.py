"""libcredit_c.so through ctypes: where it is found, the C signatures, and C statuses as Python exceptions.

The library is loaded on first use, never at import: `import credit` works without it, and the first call that
needs it names what is missing and the variable to set.
"""
import ctypes
import os
import threading

LIBRARY_ENV = "CREDIT_LIBRARY"
LIBRARY_NAME = "libcredit_c.so"

# credit_status_t (include/credit/credit_c.h)
OK, INVALID_ARGUMENT, NOT_SUPPORTED, NO_CANDIDATE, NO_CALIBRATION, CUDA_ERROR, INTERNAL = range(7)


class CreditError(RuntimeError):
    """A C call that failed: `status` is its credit_status_t, the message the library's."""

    def __init__(self, message, status=INTERNAL):
        super().__init__(message)
        self.status = status


class CreditValueError(CreditError, ValueError):
    """Bad input (CREDIT_STATUS_INVALID_ARGUMENT): an unknown workload or dtype, a bad shape, an unreadable file."""


class NotSupportedError(CreditError):
    """The device or schedule cannot run the problem (CREDIT_STATUS_NOT_SUPPORTED)."""


class NoCalibrationError(CreditError):
    """The GPU has no cached calibration (CREDIT_STATUS_NO_CALIBRATION): run `credit calibrate` once."""


class LibraryNotFoundError(CreditError):
    """libcredit_c.so could not be found or loaded."""


_ERRORS = {INVALID_ARGUMENT: CreditValueError, NOT_SUPPORTED: NotSupportedError, NO_CALIBRATION: NoCalibrationError}


class _Selection(ctypes.Structure):
    _fields_ = [("schedule", ctypes.c_char * 32), ("p", ctypes.c_int), ("time_ms", ctypes.c_double),
                ("measured", ctypes.c_int)]


class _WorkloadInfo(ctypes.Structure):
    _fields_ = [("num_inputs", ctypes.c_int), ("num_col_params", ctypes.c_int), ("num_row_params", ctypes.c_int),
                ("num_outputs", ctypes.c_int), ("output_is_int8", ctypes.c_uint), ("num_row_outputs", ctypes.c_int)]


class _Problem(ctypes.Structure):
    _fields_ = [("workload", ctypes.c_char_p), ("dtype", ctypes.c_int), ("schedule", ctypes.c_char_p),
                ("p", ctypes.c_int), ("m", ctypes.c_longlong), ("n", ctypes.c_longlong)]


_P = ctypes.c_void_p


class _Tensors(ctypes.Structure):
    _fields_ = [("inputs", ctypes.POINTER(_P)), ("num_inputs", ctypes.c_int),
                ("col_params", ctypes.POINTER(_P)), ("num_col_params", ctypes.c_int),
                ("row_params", ctypes.POINTER(_P)), ("num_row_params", ctypes.c_int),
                ("outputs", ctypes.POINTER(_P)), ("num_outputs", ctypes.c_int),
                ("row_outputs", ctypes.POINTER(_P)), ("num_row_outputs", ctypes.c_int)]


_I, _LL, _S, _CP = ctypes.c_int, ctypes.c_longlong, ctypes.c_size_t, ctypes.c_char_p
_SIGNATURES = {
    "credit_last_error": (_CP, []),
    "credit_status_name": (_CP, [_I]),
    "credit_version": (_I, [ctypes.POINTER(_I)] * 3),
    "credit_version_string": (_CP, []),
    "credit_workload_count": (_I, [ctypes.POINTER(_I)]),
    "credit_workload_name": (_I, [_I, ctypes.POINTER(_CP)]),
    "credit_workload_info": (_I, [_CP, ctypes.POINTER(_WorkloadInfo)]),
    "credit_workload_tensor_name": (_I, [_CP, _I, _I, ctypes.POINTER(_CP)]),
    "credit_select": (_I, [_CP, _I, _LL, _LL, _I, ctypes.POINTER(_Selection)]),
    "credit_select_offline": (_I, [_CP, _CP, _I, _LL, _LL, ctypes.POINTER(_Selection)]),
    "credit_can_implement": (_I, [ctypes.POINTER(_Problem), ctypes.c_char_p, _S]),
    "credit_workspace_size": (_I, [ctypes.POINTER(_Problem), ctypes.POINTER(_S)]),
    "credit_run": (_I, [ctypes.POINTER(_Problem), ctypes.POINTER(_Tensors), _P, _S, _P]),
}

_lock = threading.Lock()
_loaded = None


def candidates():
    """Where the library is looked for, in order: $CREDIT_LIBRARY, next to the package, and the lib folder of the
    prefix the package is installed under (PREFIX/share/credit/python/credit -> PREFIX/lib)."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    if os.environ.get(LIBRARY_ENV):
        found.append(os.environ[LIBRARY_ENV])
    found.append(os.path.join(here, LIBRARY_NAME))
    found.append(os.path.normpath(os.path.join(here, "..", "..", "..", "..", "lib", LIBRARY_NAME)))
    return found


def _load():
    env = os.environ.get(LIBRARY_ENV)
    tried = []
    for path in candidates():
        if env and path == env and not os.path.isfile(path):
            raise LibraryNotFoundError(f"{LIBRARY_ENV}={env}: no such file (set it to the path of {LIBRARY_NAME})")
        if not os.path.isfile(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise LibraryNotFoundError(f"{path} does not load: {e}") from e
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        return lib
    raise LibraryNotFoundError(
        f"{LIBRARY_NAME} not found (looked at {', '.join(tried)}): set {LIBRARY_ENV} to its path "
        f"(`cmake --install build --prefix PREFIX` puts it in PREFIX/lib; a build leaves it in build/src/capi)")


def lib():
    """The loaded library; raises LibraryNotFoundError naming where it looked and the variable to set."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load()
        return _loaded


def check(status):
    """Raises the exception of a failed call's status, with the library's message."""
    if status == OK:
        return
    message = lib().credit_last_error().decode(errors="replace")
    raise _ERRORS.get(status, CreditError)(message, status)


def call(name, *args):
    check(getattr(lib(), name)(*args))


def pointers(ptrs):
    """A C array of device pointers (ints), and its length."""
    return (_P * max(1, len(ptrs)))(*ptrs), len(ptrs)
