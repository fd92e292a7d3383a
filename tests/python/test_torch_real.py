"""The PyTorch helpers on real torch (skipped, exit 77, without torch)."""
import sys
import unittest

try:
    import torch
except ImportError:
    print("SKIP: torch is not installed")
    sys.exit(77)

import gpuprof
import gpuprof.torch as gtorch


class TestRealTorch(unittest.TestCase):
    def test_annotate_and_marked_optimizer(self):
        model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
        gtorch.annotate_model(model, "net")
        opt = gtorch.marked_optimizer(torch.optim.SGD(model.parameters(), lr=0.1), model,
                                      sync_level=2)
        start = gpuprof.iteration_count()
        for _ in range(2):
            loss = model(torch.randn(8, 4)).pow(2).mean()
            opt.zero_grad()
            opt.backward(loss)
            opt.step()
        self.assertEqual(gpuprof.iteration_count() - start, 2)
        self.assertEqual(gpuprof.depth(), 0)
        gpuprof.set_sync_level(0)


if __name__ == "__main__":
    unittest.main()
