"""Tests of the Python binding (python/gpuprof) over the built library.

Run by tests/run.sh with GPUPROF_LIB=$BUILD/libgpuprof.so and
PYTHONPATH=python.  The PyTorch helpers are tested with fake torch-like
objects (torch is not needed); test_torch_real.py uses torch if present.
"""
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

import gpuprof
import gpuprof.torch as gtorch


class SyncCounter:
    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1


# ---- fake torch-like objects -------------------------------------------------

class Handle:
    def __init__(self, lst, item):
        self.lst, self.item = lst, item

    def remove(self):
        if self.item in self.lst:
            self.lst.remove(self.item)


class FakeModule:
    """Just what the helpers use: named_modules, the two forward hooks, call."""

    def __init__(self, **children):
        self._children = children
        self._pre, self._post = [], []
        self.log = None

    def named_modules(self, prefix=""):
        yield prefix, self
        for name, child in self._children.items():
            yield from child.named_modules(prefix + ("." if prefix else "") + name)

    def register_forward_pre_hook(self, hook, prepend=False):
        self._pre.insert(0 if prepend else len(self._pre), hook)
        return Handle(self._pre, hook)

    def register_forward_hook(self, hook, always_call=False, prepend=False):
        self._post.insert(0 if prepend else len(self._post), hook)
        return Handle(self._post, hook)

    def forward(self, x):
        for child in self._children.values():
            x = child(x)
        if self.log is not None:
            self.log.append((gpuprof.layer_path(), gpuprof.depth()))
        return x + 1

    def __call__(self, x):
        for h in list(self._pre):
            h(self, (x,))
        out = self.forward(x)
        for h in list(self._post):
            h(self, (x,), out)
        return out


class FakeLoss:
    def __init__(self, log):
        self.log = log

    def backward(self):
        self.log.append(("backward", gpuprof.depth()))


class FakeOptimizer:
    def __init__(self, log):
        self.log = log
        self.param_groups = [{"lr": 0.1}]

    def step(self):
        self.log.append(("step", gpuprof.depth()))
        return "stepped"

    def zero_grad(self):
        self.log.append(("zero_grad", gpuprof.depth()))


class TestBinding(unittest.TestCase):
    def setUp(self):
        self.assertTrue(gpuprof.available(), "libgpuprof not found (GPUPROF_LIB?)")
        gpuprof.set_sync_level(0)
        self.sync = SyncCounter()
        gpuprof.set_sync_hook(self.sync)

    def tearDown(self):
        gpuprof.set_sync_hook(None)
        gpuprof.set_sync_level(0)
        self.assertEqual(gpuprof.depth(), 0)

    def test_ranges_nest(self):
        with gpuprof.range("outer", color=0xff0000ff, domain="py"):
            with gpuprof.layer("Conv2_x"):
                with gpuprof.layer("ReLU"):
                    self.assertEqual(gpuprof.depth(), 3)
                    self.assertEqual(gpuprof.layer_path(), "Conv2_x:ReLU")
        self.assertEqual(gpuprof.layer_path(), "")
        gpuprof.mark("instant")

    def test_range_closes_on_exception(self):
        with self.assertRaises(KeyError):
            with gpuprof.range("raises"):
                raise KeyError("x")
        self.assertEqual(gpuprof.depth(), 0)

    def test_sync_levels(self):
        def one_of_each():
            self.sync.n = 0
            with gpuprof.iteration():
                with gpuprof.forward():
                    with gpuprof.range("op"):
                        pass
            return self.sync.n
        expected = {0: 0, 1: 2, 2: 4, 3: 6}
        for level, n in expected.items():
            gpuprof.set_sync_level(level)
            self.assertEqual(one_of_each(), n, "level %d" % level)
        with self.assertRaises(ValueError):
            gpuprof.set_sync_level(4)

    def test_timer_stats_and_report(self):
        for _ in range(3):
            with gpuprof.timer("py-timer"):
                sum(range(1000))
        st = gpuprof.timer_stats("py-timer")
        self.assertEqual(st["count"], 3)
        self.assertLessEqual(st["min_ns"], st["avg_ns"])
        self.assertLessEqual(st["avg_ns"], st["max_ns"])
        self.assertAlmostEqual(st["avg_ns"] * 3, st["total_ns"], delta=1e-6 * st["total_ns"])
        self.assertIsNone(gpuprof.timer_stats("never used"))
        with tempfile.TemporaryFile("w+") as f:
            gpuprof.timer_report(f, format="csv")
            f.seek(0)
            text = f.read()
        self.assertIn("Name,Kind,Calls,", text)
        self.assertIn("\npy-timer,cpu,3,", text)
        # a GPU timer without a GPU measures nothing and fails nothing; with
        # one it measures once per use
        with gpuprof.gpu_timer("py-gpu"):
            pass
        self.assertEqual(gpuprof.timer_stats("py-gpu", gpu=True)["count"],
                         1 if gpuprof.cuda_available() else 0)

    def test_profiler_start(self):
        with gpuprof.profiler():
            pass
        # without a driver there is no CUDA and no profiler to start; with
        # one, profiler_start succeeds exactly when CUDA was found
        if not os.path.exists("/proc/driver/nvidia/version"):
            self.assertFalse(gpuprof.cuda_available())
        self.assertEqual(gpuprof.profiler_start(), gpuprof.cuda_available())


class TestTorchHelpers(unittest.TestCase):
    """The PyTorch helpers' logic, on fake torch-like objects."""

    def setUp(self):
        gpuprof.set_sync_level(0)

    def tearDown(self):
        gpuprof.set_sync_hook(None)
        gpuprof.set_sync_level(0)
        self.assertEqual(gpuprof.depth(), 0)

    def test_annotate_model_nested_layers(self):
        log = []
        conv = FakeModule()
        relu = FakeModule()
        block = FakeModule(conv1=conv, relu=relu)
        model = FakeModule(layer1=block)
        for m in (conv, relu, block, model):
            m.log = log
        gtorch.annotate_model(model)
        self.assertEqual(model(1), 5)  # computation unchanged
        self.assertEqual(log, [("FakeModule:layer1:conv1", 3), ("FakeModule:layer1:relu", 3),
                               ("FakeModule:layer1", 2), ("FakeModule", 1)])
        model._gpuprof_handles.remove()
        log.clear()
        model(1)
        self.assertEqual(log[0], ("", 0))

    def test_marked_optimizer_phases_and_sync(self):
        log = []
        model = FakeModule()
        model.log = log
        sync = SyncCounter()
        opt = gtorch.marked_optimizer(FakeOptimizer(log), model, sync_level=2, sync_fn=sync)
        self.assertEqual(gpuprof.sync_level(), 2)
        self.assertEqual(opt.param_groups, [{"lr": 0.1}])  # the wrapped optimizer's
        first = gpuprof.iteration_count()
        for _ in range(2):
            out = model(1)                    # iteration > forward
            opt.zero_grad()
            opt.backward(FakeLoss(log))       # iteration > backward
            self.assertEqual(opt.step(), "stepped")   # iteration > update
            self.assertEqual(gpuprof.depth(), 0)
        self.assertEqual(out, 2)
        self.assertEqual(gpuprof.iteration_count() - first, 2)
        self.assertEqual(log[:4], [("", 2), ("zero_grad", 1), ("backward", 2), ("step", 2)])
        # level 2, per iteration: iteration, forward, backward, update: 2 each
        self.assertEqual(sync.n, 2 * 8)
        opt.remove()

    def test_marked_optimizer_level1_and_off(self):
        log = []
        sync = SyncCounter()
        opt = gtorch.marked_optimizer(FakeOptimizer(log), sync_level=1, sync_fn=sync)
        opt.step()
        self.assertEqual(sync.n, 2)   # around the iteration only
        opt = gtorch.marked_optimizer(FakeOptimizer(log), sync=False)
        self.assertEqual(gpuprof.sync_level(), 0)
        with self.assertRaises(ValueError):
            gtorch.marked_optimizer(FakeOptimizer(log), sync_level=5)


class TestRecording(unittest.TestCase):
    def test_recording_through_gpuprof_ranges(self):
        gp = os.environ.get("GPUPROF")
        if not gp:
            self.skipTest("GPUPROF (the CLI) not set")
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "py-%p.gprec")
            code = ("import gpuprof\n"
                    "for i in range(4):\n"
                    "    with gpuprof.iteration():\n"
                    "        with gpuprof.forward():\n"
                    "            with gpuprof.layer('Conv1'):\n"
                    "                with gpuprof.timer('conv'): pass\n")
            env = dict(os.environ, GPUPROF_RECORD=rec)
            p = subprocess.run([sys.executable, "-c", code], env=env)
            self.assertEqual(p.returncode, 0)
            files = os.listdir(d)
            self.assertEqual(len(files), 1)
            self.assertRegex(files[0], r"^py-\d+\.gprec$")
            out = subprocess.run([gp, "ranges", "--format", "csv", os.path.join(d, files[0])],
                                 stdout=subprocess.PIPE, text=True, check=True).stdout
        rows = {r[-1]: r for r in list(csv.reader(io.StringIO(out)))[1:]}
        self.assertEqual(rows["iteration"][0], "4")
        self.assertEqual(rows["iteration/forward/layer:Conv1"][0], "4")
        self.assertEqual(rows["iteration/forward/layer:Conv1/conv"][6], "timer")

    def test_both_helpers_nest_in_either_order(self):
        # iteration > forward > layer:Model whichever helper came first
        # (seen on a GPU: annotate_model then marked_optimizer left
        # "layer:Model" open over backward and update)
        gp = os.environ.get("GPUPROF")
        if not gp:
            self.skipTest("GPUPROF (the CLI) not set")
        for annotate_first in (True, False):
            with tempfile.TemporaryDirectory() as d:
                rec = os.path.join(d, "h.gprec")
                code = ("import sys\n"
                        "sys.path.insert(0, %r)\n"
                        "import gpuprof.torch as gt\n"
                        "from test_gpuprof import FakeModule, FakeOptimizer, FakeLoss\n"
                        "log = []\n"
                        "model = FakeModule()\n"
                        "if %r: gt.annotate_model(model, 'Model')\n"
                        "opt = gt.marked_optimizer(FakeOptimizer(log), model, sync=False)\n"
                        "if not %r: gt.annotate_model(model, 'Model')\n"
                        "for i in range(2):\n"
                        "    model(1)\n"
                        "    opt.backward(FakeLoss(log))\n"
                        "    opt.step()\n") % (os.path.dirname(os.path.abspath(__file__)),
                                               annotate_first, annotate_first)
                env = dict(os.environ, GPUPROF_RECORD=rec)
                p = subprocess.run([sys.executable, "-c", code], env=env)
                self.assertEqual(p.returncode, 0)
                out = subprocess.run([gp, "ranges", "--format", "csv", rec],
                                     stdout=subprocess.PIPE, text=True, check=True).stdout
            names = sorted(r[-1] for r in list(csv.reader(io.StringIO(out)))[1:])
            self.assertEqual(names, ["iteration", "iteration/backward", "iteration/forward",
                                     "iteration/forward/layer:Model", "iteration/update"],
                             "annotate_model first: %s" % annotate_first)


if __name__ == "__main__":
    unittest.main()
