# tier: slow
"""gpuprof.load / load_job on real traces from $TESTDATA (a ResNet-50
Kineto trace with allocator events, an nsys export, HTA's two-rank job):
test_frames.py's checks against the CLI, and the memory events against
the raw JSON.  Skipped (exit 77) without $TESTDATA or pandas.
"""
import glob
import gzip
import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_frames as tf  # noqa: E402  (exits 77 without pandas or the CLI)
import gpuprof  # noqa: E402

TESTDATA = tf.TESTDATA
if not TESTDATA or not os.path.isdir(TESTDATA):
    print("SKIP: no $TESTDATA (the real traces)")
    sys.exit(77)


def real(rel):
    p = os.path.join(TESTDATA, rel) if TESTDATA else ""
    return p if p and os.path.exists(p) else None


RESNET = real("kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz")
DLPROF = real("nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite")
RANKS = real("hta/trace_filter")


@unittest.skipUnless(RESNET, "no $TESTDATA (kineto_tb_plugin/resnet50_num_workers_0)")
class RealKineto(tf.Checks, unittest.TestCase):
    has_comm = False    # ResNet-50 on one GPU: no collective

    @classmethod
    def setUpClass(cls):
        cls.path = RESNET
        cls.t = gpuprof.load(cls.path)

    def test_memory_against_raw_json(self):
        # the oracle: the trace's own "[memory]" instant events
        with gzip.open(self.path, "rt") as f:
            ev = json.load(f)["traceEvents"]
        raw = [e for e in ev if e.get("name") == "[memory]"]
        m = self.t.memory()
        self.assertGreater(len(raw), 0)
        self.assertEqual(len(m), len(raw))
        self.assertEqual(int(m.bytes.sum()), sum(int(e["args"]["Bytes"]) for e in raw))
        self.assertEqual(sorted(m.bytes), sorted(int(e["args"]["Bytes"]) for e in raw))


@unittest.skipUnless(DLPROF, "no $TESTDATA (nsys/dlprof_rtx2070_2022.1)")
class RealNsys(tf.Checks, unittest.TestCase):
    has_comm = False    # dlprof's single-GPU run: no collective

    @classmethod
    def setUpClass(cls):
        cls.path = DLPROF
        cls.t = gpuprof.load(cls.path)


class RealJob(unittest.TestCase):
    check_job = tf.Jobs.check_job

    @unittest.skipUnless(RANKS, "no $TESTDATA (hta/trace_filter)")
    def test_real_job(self):
        self.check_job(RANKS, sorted(glob.glob(os.path.join(RANKS, "*.json.gz"))))


def tearDownModule():
    shutil.rmtree(tf.TMP, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
