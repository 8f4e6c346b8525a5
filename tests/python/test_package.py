"""credit (the package over libcredit_c.so) without a GPU: version, workloads, offline selection, errors.
Needs CREDIT_LIBRARY (the library) and CREDIT_FIXTURE_DIR (tests/fixtures); CTest sets both."""
import os
import re
import subprocess
import sys
import unittest

import credit

FIXTURES = os.environ.get("CREDIT_FIXTURE_DIR", "")


def fixture(name):
    return os.path.join(FIXTURES, name)


@unittest.skipUnless(os.environ.get("CREDIT_LIBRARY"), "CREDIT_LIBRARY is not set")
class PackageTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(credit.version(), r"^\d+\.\d+\.\d+$")
        self.assertEqual(".".join(map(str, credit.version_tuple())), credit.version())

    def test_workloads(self):
        names = credit.workloads()
        for name in ("layernorm", "rmsnorm", "add_rmsnorm", "rms_softmax", "quant_int8", "softmax_bwd",
                     "layernorm_bwd"):
            self.assertIn(name, names)
        t = credit.workload_tensors("quant_int8")
        self.assertEqual((t.inputs, t.outputs, t.output_is_int8, t.row_outputs), (("x",), ("q",), (True,), ("scale",)))
        t = credit.workload_tensors("layernorm")
        self.assertEqual((t.inputs, t.col_params, t.outputs, t.output_is_int8), (("x",), ("gamma", "beta"), ("y",),
                                                                                  (False,)))

    def test_select_offline(self):
        # What `credit predict` picks from the same calibration (tests/CMakeLists.txt's cli_predict_bf16_pick).
        s = credit.select("rmsnorm", "bf16", 4096, 65536, calibration=fixture("h100-calibration-bf16.json"))
        self.assertEqual((s.schedule, s.p, s.measured), ("cluster", 2, False))
        self.assertAlmostEqual(s.time_ms, 0.3597, places=4)
        f32 = credit.select("rmsnorm", "f32", 4096, 65536, calibration=fixture("h100-calibration-bf16.json"))
        self.assertGreater(f32.time_ms, 0.5)  # twice the bytes of bf16
        # Each dtype reaches its own kernels: a calibration without the 16-bit kernels names the one asked for.
        for dtype, typed in (("bf16", "layernorm@bf16 "), ("float16", "layernorm@f16 ")):
            with self.assertRaisesRegex(credit.CreditValueError, "no kernel resources for " + typed):
                credit.select("layernorm", dtype, 4096, 65536, calibration=fixture("h200-calibration-with-model.json"))
        for dtype in ("f32", "float32", "torch.float32"):
            s = credit.select("wvar_bwd", dtype, 4096, 200000,
                              calibration=fixture("h200-calibration-with-model.json"))
            self.assertEqual((s.schedule, s.p), ("cluster", 16))

    def test_errors(self):
        cal = fixture("h200-calibration-with-model.json")
        cases = [
            (lambda: credit.select("nosuch", "f32", 64, 4096, calibration=cal), credit.CreditValueError,
             "unknown workload 'nosuch'"),
            (lambda: credit.select("layernorm", "fp8", 64, 4096, calibration=cal), ValueError, "unknown dtype 'fp8'"),
            (lambda: credit.select("layernorm", "f32", 0, 4096, calibration=cal), credit.CreditValueError,
             "M and N must be at least 1, got 0 x 4096"),
            (lambda: credit.select("layernorm", "f32", 64, 4096, calibration=fixture("nosuch.json")),
             credit.CreditValueError, "nosuch.json"),
            (lambda: credit.select("layernorm", "f32", 64.0, 4096, calibration=cal), TypeError, "m must be an int"),
            (lambda: credit.select("layernorm", "f32", 64, 4096, calibration=cal, device=0), ValueError, "not both"),
            (lambda: credit.select("layernorm", "f32", 64, 4096, device=99), credit.CreditError, "device 99"),
            (lambda: credit.workload_tensors("nosuch"), credit.CreditValueError, "unknown workload 'nosuch'"),
        ]
        for call, kind, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(kind) as e:
                    call()
                self.assertIn(message, str(e.exception))

    def test_invalid_argument_is_a_value_error(self):
        with self.assertRaises(ValueError):
            credit.select("nosuch", "f32", 64, 4096, calibration=fixture("h200-calibration-with-model.json"))


class WithoutLibraryTest(unittest.TestCase):
    """`import credit` never fails for want of the library; the first call that needs it says what to set."""

    def run_python(self, code, library):
        env = dict(os.environ, CREDIT_LIBRARY=library, PYTHONDONTWRITEBYTECODE="1")
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)

    def test_missing_library(self):
        r = self.run_python("import credit\ntry:\n credit.version()\nexcept credit.LibraryNotFoundError as e:\n"
                            " print('error:', e)", "/nonexistent/libcredit_c.so")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, re.escape("error: CREDIT_LIBRARY=/nonexistent/libcredit_c.so: no such file"))

    def test_not_a_library(self):
        r = self.run_python("import credit\ntry:\n credit.workloads()\nexcept credit.LibraryNotFoundError as e:\n"
                            " print('error:', e)", os.path.abspath(__file__))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("does not load", r.stdout)


if __name__ == "__main__":
    unittest.main()
