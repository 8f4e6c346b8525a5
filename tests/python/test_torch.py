"""credit.torch: without torch, a clean ImportError naming torch; with torch, the ops registered and their checks;
with a CUDA GPU as well, each op against torch in fp32, bf16 and fp16, layer_norm's autograd, a CUDA graph replay
and torch.compile."""
import math
import os
import subprocess
import sys
import unittest

try:
    import torch
except ImportError:
    torch = None

HAS_GPU = torch is not None and torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 9
HAS_LIBRARY = bool(os.environ.get("CREDIT_LIBRARY"))


class WithoutTorchTest(unittest.TestCase):
    def test_import_error_names_torch(self):
        # torch hidden (sys.modules['torch'] = None makes `import torch` fail), as on a machine without it.
        code = ("import sys\nsys.modules['torch'] = None\nimport credit\ntry:\n import credit.torch\n"
                "except ImportError as e:\n print('name:', e.name)\n print('message:', e)\n")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("name: torch", r.stdout)
        self.assertIn("message: credit.torch needs PyTorch (torch >= 2.4)", r.stdout)


@unittest.skipIf(torch is None, "torch is not installed")
class TorchOpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import credit.torch as ct
        cls.ct = ct

    def test_registered(self):
        for op in ("layer_norm", "rms_norm", "add_rms_norm", "rms_softmax", "quant_int8", "softmax_backward",
                   "softmax_dropout_backward", "layer_norm_input_backward"):
            self.assertTrue(hasattr(torch.ops.credit, op), op)

    def test_checks_before_any_launch(self):
        ct = self.ct
        x = torch.randn(4, 64)
        w = torch.ones(64)
        with self.assertRaisesRegex(ValueError, "x is on cpu; credit runs on CUDA"):
            ct.rms_norm(x, w)
        with self.assertRaisesRegex(TypeError, "x has dtype torch.float64"):
            ct.rms_norm(x.double(), w.double())
        with self.assertRaisesRegex(NotImplementedError, "eps=0.001 is not supported"):
            ct.layer_norm(x, w, w, eps=1e-3)

    @unittest.skipUnless(HAS_GPU and HAS_LIBRARY, "needs a Hopper GPU and CREDIT_LIBRARY")
    def test_cuda_checks(self):
        ct = self.ct
        x = torch.randn(8, 128, device="cuda")
        with self.assertRaisesRegex(ValueError, "not contiguous"):
            ct.rms_norm(x.t(), torch.ones(8, device="cuda"))
        with self.assertRaisesRegex(ValueError, r"weight has shape \(64,\), expected \(128,\)"):
            ct.rms_norm(x, torch.ones(64, device="cuda"))
        with self.assertRaisesRegex(ValueError, r"residual has shape"):
            ct.add_rms_norm(x, x[:4], torch.ones(128, device="cuda"))
        with self.assertRaisesRegex(ValueError, "not 16-byte aligned"):
            ct.rms_softmax(x.view(-1)[1:1 + 127 * 8].view(8, 127))


def _tolerance(dtype):
    return {torch.float32: 1e-4, torch.bfloat16: 2e-2, torch.float16: 4e-3}[dtype]


@unittest.skipUnless(HAS_GPU and HAS_LIBRARY, "needs torch, a Hopper GPU and CREDIT_LIBRARY")
class TorchOnGpuTest(unittest.TestCase):
    """Each op against torch (in fp32 on the same inputs), outputs of every dtype; shapes with leading dims."""

    @classmethod
    def setUpClass(cls):
        import credit.torch as ct
        cls.ct = ct
        cls.eps = ct.SUPPORTED_EPS

    def close(self, got, want, dtype):
        err = ((got.float() - want.float()).abs() / (1 + want.float().abs())).max().item()
        self.assertLessEqual(err, _tolerance(dtype))

    def each(self):
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            for shape in ((3, 5, 1024), (64, 8192), (7, 50264)):
                with self.subTest(dtype=dtype, shape=shape):
                    yield dtype, shape

    def randn(self, shape, dtype):
        return torch.randn(shape, device="cuda").to(dtype)

    def test_forward_ops(self):
        ct, eps, F = self.ct, self.eps, torch.nn.functional
        for dtype, shape in self.each():
            n = shape[-1]
            x, r, w, b = self.randn(shape, dtype), self.randn(shape, dtype), self.randn(n, dtype), self.randn(n, dtype)
            x32, r32, w32, b32 = x.float(), r.float(), w.float(), b.float()
            self.close(ct.layer_norm(x, w, b), F.layer_norm(x32, (n,), w32, b32, eps), dtype)
            rms = lambda h: h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps) * w32
            self.close(ct.rms_norm(x, w), rms(x32), dtype)
            y, h = ct.add_rms_norm(x, r, w)
            self.close(h, x32 + r32, dtype)
            self.close(y, rms(h.float()), dtype)
            s = torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps)
            self.close(ct.rms_softmax(x), torch.softmax((x32 - x32.amax(-1, keepdim=True)) * s, -1), dtype)
            q, scale = ct.quant_int8(x)
            self.assertEqual((q.dtype, q.shape, scale.dtype, scale.shape), (torch.int8, x.shape, torch.float32,
                                                                             x.shape[:-1]))
            amax = x32.abs().amax(-1)
            torch.testing.assert_close(scale, amax / 127)
            want = torch.clamp(torch.round(x32 / scale[..., None]), -127, 127)
            self.assertLessEqual((q.float() - want).abs().max().item(), 0)

    def test_backward_ops(self):
        ct, eps, F = self.ct, self.eps, torch.nn.functional
        for dtype, shape in self.each():
            n = shape[-1]
            z, dy, x, g = (self.randn(shape, dtype) for _ in range(4))
            p = torch.softmax(z.float(), -1)
            self.close(ct.softmax_backward(z, dy), p * (dy.float() - (p * dy.float()).sum(-1, keepdim=True)), dtype)
            mask = (torch.rand(shape, device="cuda") > 0.2).to(dtype) / 0.8
            k = dy.float() * mask.float()
            self.close(ct.softmax_dropout_backward(z, dy, mask), p * (k - (p * k).sum(-1, keepdim=True)), dtype)
            xr = x.float().requires_grad_()
            F.layer_norm(xr, (n,), eps=eps).backward(g.float())
            self.close(ct.layer_norm_input_backward(x, g), xr.grad, dtype)

    def test_layer_norm_autograd(self):
        F = torch.nn.functional
        for dtype in (torch.float32, torch.bfloat16):
            x = self.randn((32, 4096), dtype).requires_grad_()
            w, b = self.randn(4096, dtype).requires_grad_(), self.randn(4096, dtype).requires_grad_()
            dy = self.randn((32, 4096), dtype)
            self.ct.layer_norm(x, w, b).backward(dy)
            ref = [t.detach().float().requires_grad_() for t in (x, w, b)]
            F.layer_norm(ref[0], (4096,), ref[1], ref[2], self.eps).backward(dy.float())
            for got, want in zip((x.grad, w.grad, b.grad), ref):
                # dweight and dbias sum 32 rows: their error grows with the sum
                self.assertLessEqual(((got.float() - want.grad).abs() / (1 + want.grad.abs())).max().item(),
                                     _tolerance(dtype) * (1 if got is x.grad else 8))

    def test_forward_only_ops_say_so(self):
        x = self.randn((4, 1024), torch.float32).requires_grad_()
        with self.assertRaises(RuntimeError):
            self.ct.rms_norm(x, torch.ones(1024, device="cuda")).sum().backward()

    def test_eps_is_checked(self):
        x = self.randn((4, 1024), torch.float32)
        with self.assertRaisesRegex(NotImplementedError, "compiled with eps=1e-05"):
            self.ct.rms_norm(x, torch.ones(1024, device="cuda"), eps=1e-6)

    def test_cuda_graph_replay(self):
        # A split_global pick needs a workspace: rows this wide are split over CTAs at this M on an H100 or H200.
        x = self.randn((64, 262144), torch.float32)
        w = torch.ones(262144, device="cuda")
        want = self.ct.rms_norm(x, w)  # before capture: the pick and its workspace
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            y = self.ct.rms_norm(x, w)
        for _ in range(3):
            y.fill_(math.nan)
            graph.replay()
            torch.cuda.synchronize()
            torch.testing.assert_close(y, want)

    def test_compile(self):
        fn = torch.compile(lambda x, w: self.ct.rms_norm(x, w) * 2, fullgraph=True)
        x, w = self.randn((16, 4096), torch.bfloat16), self.randn(4096, torch.bfloat16)
        torch.testing.assert_close(fn(x, w), self.ct.rms_norm(x, w) * 2)

    def test_picked_once(self):
        x = self.randn((48, 2048), torch.float32)
        w = torch.ones(2048, device="cuda")
        self.ct.rms_norm(x, w)
        s = self.ct.selection("rmsnorm", torch.float32, 48, 2048)
        self.assertIsInstance(s.schedule, str)
        self.assertIn(("rmsnorm", "f32", 48, 2048, x.device.index), self.ct._picks)


if __name__ == "__main__":
    unittest.main()
