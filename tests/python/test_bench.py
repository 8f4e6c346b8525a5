"""python -m credit.bench: importable without torch, its arguments checked before any GPU work."""
import contextlib
import io
import unittest

from credit import bench


class BenchArgumentsTest(unittest.TestCase):
    def test_defaults(self):
        a = bench.parse_args([])
        self.assertEqual(a.ops, list(bench.OPS))
        self.assertEqual(a.widths, list(bench.MODEL_WIDTHS))
        self.assertEqual((a.dtypes, a.rows, a.json), (["bf16"], 4096, "credit-bench.json"))

    def test_lists(self):
        a = bench.parse_args(["--ops", "layer_norm,rms_norm", "--widths", "768 4096", "--dtypes", "bf16,f32",
                              "--rows", "16", "--impls", "credit,eager", "--json", "out.json"])
        self.assertEqual((a.ops, a.widths, a.dtypes, a.rows, a.impls, a.json),
                         (["layer_norm", "rms_norm"], [768, 4096], ["bf16", "f32"], 16, ["credit", "eager"],
                          "out.json"))

    def test_refusals(self):
        for argv, message in ((["--ops", "nosuch"], "unknown nosuch (known: layer_norm"),
                              (["--dtypes", "fp8"], "unknown fp8"),
                              (["--widths", "0"], "expected a positive whole number, got '0'"),
                              (["--rows", "x"], "expected a positive whole number, got 'x'"),
                              (["--impls", "cudnn"], "unknown cudnn")):
            with self.subTest(argv=argv):
                err = io.StringIO()
                with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
                    bench.parse_args(argv)
                self.assertEqual(e.exception.code, 2)
                self.assertIn(message, err.getvalue())


if __name__ == "__main__":
    unittest.main()
