"""What the torch ops accept (credit._checks), on stand-in tensors: no torch and no GPU needed."""
import unittest

from credit import _checks


class Device:
    def __init__(self, kind, index=0):
        self.type, self.index = kind, index

    def __eq__(self, other):
        return (self.type, self.index) == (other.type, other.index)

    def __str__(self):
        return f"{self.type}:{self.index}"


class Tensor:
    """The attributes the checks read, of a torch.Tensor."""

    def __init__(self, shape, dtype="torch.bfloat16", device=Device("cuda"), contiguous=True, ptr=1 << 20):
        self.shape, self.dtype, self.device, self._contiguous, self._ptr = tuple(shape), dtype, device, contiguous, ptr

    def dim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def is_contiguous(self):
        return self._contiguous

    def data_ptr(self):
        return self._ptr


class ChecksTest(unittest.TestCase):
    def test_accepts(self):
        x = Tensor((2, 3, 64))
        self.assertEqual(_checks.rows("op", [("x", x), ("r", Tensor((2, 3, 64)))]), (6, 64, "bf16"))
        _checks.columns("op", 64, "x", x, [("weight", Tensor((64,)))])
        _checks.aligned("op", [("x", x)])
        for dtype, name in (("torch.float32", "f32"), ("torch.float16", "f16")):
            self.assertEqual(_checks.rows("op", [("x", Tensor((4, 8), dtype))])[2], name)

    def test_eps(self):
        _checks.check_eps("op", 1e-5)
        _checks.check_eps("op", float.fromhex("0x1.4f8b58p-17"))  # 1e-5 as float32 stores it
        with self.assertRaisesRegex(NotImplementedError, r"eps=1e-06 is not supported.*compiled with eps=1e-05"):
            _checks.check_eps("layer_norm", 1e-6)
        with self.assertRaisesRegex(TypeError, "eps must be a float"):
            _checks.check_eps("op", "1e-5")

    def test_refusals(self):
        cuda = Device("cuda")
        cases = [
            ([("x", Tensor((4, 8), "torch.float64"))], TypeError, "x has dtype torch.float64"),
            ([("x", Tensor((4, 8), device=Device("cpu")))], ValueError, "x is on cpu:0; credit runs on CUDA"),
            ([("x", Tensor((4, 8), contiguous=False))], ValueError, "x is not contiguous"),
            ([("x", Tensor(()))], ValueError, "at least one dimension"),
            ([("x", Tensor((0, 8)))], ValueError, "has no elements"),
            ([("x", Tensor((4, 8))), ("r", Tensor((4, 9)))], ValueError, r"r has shape \(4, 9\), x \(4, 8\)"),
            ([("x", Tensor((4, 8))), ("r", Tensor((4, 8), "torch.float16"))], TypeError, "r has dtype torch.float16"),
            ([("x", Tensor((4, 8))), ("r", Tensor((4, 8), device=Device("cuda", 1)))], ValueError,
             "r is on cuda:1, x on cuda:0"),
            ([("x", "not a tensor")], TypeError, "x must be a torch.Tensor, got str"),
        ]
        for rows, kind, message in cases:
            with self.subTest(message=message):
                with self.assertRaisesRegex(kind, message):
                    _checks.rows("op", rows)
        x = Tensor((4, 8), device=cuda)
        with self.assertRaisesRegex(ValueError, r"weight has shape \(4,\), expected \(8,\)"):
            _checks.columns("rms_norm", 8, "x", x, [("weight", Tensor((4,)))])
        with self.assertRaisesRegex(TypeError, "weight has dtype torch.float32, x torch.bfloat16"):
            _checks.columns("rms_norm", 8, "x", x, [("weight", Tensor((8,), "torch.float32"))])
        with self.assertRaisesRegex(ValueError, "x's data is not 16-byte aligned"):
            _checks.aligned("op", [("x", Tensor((4, 8), ptr=(1 << 20) + 2))])


if __name__ == "__main__":
    unittest.main()
