"""gpuprof.load / load_job (python/gpuprof/trace.py): the DataFrames
against the CLI's own numbers, read from its other commands (report,
summary, advise, breakdown, ops, comm -f json), and the memory events
against the raw Kineto JSON (test_frames_real.py).

Run by tests/run.sh with PYTHONPATH=python, GPUPROF (the CLI) and GEN
(gpuprof-gen) set; the traces are generated, plus real ones from
$TESTDATA in test_frames_real.py (the slow tier).  Needs pandas (Debian's python3-pandas): a
python3 without it (a pyenv one) re-runs this file under /usr/bin/python3
when that has it, else the test is skipped (exit 77).
"""
import glob
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

try:
    import pandas as pd
except ImportError:
    sysp = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(sysp) and os.access(sysp, os.X_OK) and \
            subprocess.run([sysp, "-c", "import pandas"], stderr=subprocess.DEVNULL).returncode == 0:
        os.execv(sysp, [sysp] + sys.argv)
    print("SKIP: pandas is not installed (Debian: python3-pandas)")
    sys.exit(77)

import gpuprof

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPUPROF = os.environ.get("GPUPROF") or os.path.join(TOP, "build", "gpuprof")
GEN = os.environ.get("GEN") or os.path.join(TOP, "build", "gpuprof-gen")
TESTDATA = os.environ.get("TESTDATA") or ""
if not (os.access(GPUPROF, os.X_OK) and os.access(GEN, os.X_OK)):
    print("SKIP: %s or %s not built" % (GPUPROF, GEN))
    sys.exit(77)
os.environ["GPUPROF"] = GPUPROF
TMP = tempfile.mkdtemp(prefix="test_frames-")


def cli(*args, ok=True):
    p = subprocess.run([GPUPROF] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if ok and p.returncode != 0:
        raise AssertionError("gpuprof %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p


def cli_json(*args):
    return [json.loads(ln) for ln in cli(*args, "-f", "json").stdout.splitlines() if ln.strip()]


def gen(name, *args):
    out = os.path.join(TMP, name)
    subprocess.run([GEN] + list(args) + ["--force", "-o", out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out


class Checks:
    """The checks of one trace against the CLI: self.path, self.t."""

    has_comm = True     # the generated traces have communication; a real one may not

    def test_kernels_against_report_and_summary(self):
        k = self.t.kernels()
        rep = cli_json("report", "-c", "idx,start,end,sil", self.path)
        self.assertEqual(len(k), len(rep))
        self.assertEqual(list(k.kernel_id), [r["idx"] for r in rep])
        self.assertEqual(list(k.start_ns), [r["start"] for r in rep])
        self.assertEqual(list(k.end_ns), [r["end"] for r in rep])
        self.assertEqual(int(k.dur_ns.sum()), sum(r["end"] - r["start"] for r in rep))
        # summary's kernel rows (its GPU activities less the [CUDA memcpy ...] ones)
        summ = [r for r in cli_json("summary", self.path)
                if r["type"] == "GPU activities" and not r["name"].startswith("[CUDA ")]
        self.assertEqual(len(k), sum(r["calls"] for r in summ))
        self.assertEqual(int(k.dur_ns.sum()), sum(r["total_ns"] for r in summ))
        self.assertEqual(int(k.dur_ns.sum()), self.t.facts["kernel_ns"])
        self.assertEqual(len(k), self.t.facts["kernels"])

    def test_dtypes(self):
        k = self.t.kernels()
        for c in ("rank", "kernel_id", "start_ns", "end_ns", "dur_ns"):
            self.assertEqual(k[c].dtype, "int64", c)
        for c in ("name", "op", "layer", "label"):
            self.assertIsInstance(k[c].dtype, pd.CategoricalDtype, c)
        self.assertIn(str(k.step.dtype), ("int64", "Int64"))
        self.assertEqual(k.tceligible.dtype, bool)
        s = self.t.steps()
        for c in ("step", "start_ns", "end_ns", "dur_ns"):
            self.assertEqual(s[c].dtype, "int64", c)
        f = self.t.findings()
        self.assertEqual(f.notice.dtype, bool)
        self.assertIsInstance(f.kind.dtype, pd.CategoricalDtype)
        self.assertIn(str(f.saving_ns.dtype), ("int64", "Int64"))
        b = self.t.breakdown()
        self.assertEqual(b.ns.dtype, "int64")
        self.assertEqual(str(b.iter.dtype), "Int64")
        self.assertIsInstance(b.part.dtype, pd.CategoricalDtype)
        g = self.t.gaps()
        self.assertEqual(g.dur_ns.dtype, "int64")
        self.assertIsInstance(g.cause.dtype, pd.CategoricalDtype)
        m = self.t.memory()
        self.assertEqual(m.ts_ns.dtype, "int64")
        self.assertEqual(m.bytes.dtype, "int64")

    def test_steps_against_summary_and_advise(self):
        s = self.t.steps()
        it = {int(r["name"].split()[-1]): r["step_ns"] for r in cli_json("summary", "--by", "iter", self.path)
              if r["name"] and r["name"].startswith("iteration ")}
        self.assertEqual(dict(zip(s.step, s.dur_ns)), it)
        adv = cli("advise", self.path).stdout
        m = re.search(r"; (\d+) steps?, median ([0-9.]+) (ns|us|ms|s)\b", adv)
        if not len(s):
            self.assertIsNone(m)
            return
        self.assertEqual(len(s), int(m.group(1)))
        unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(3)]
        med = s.dur_ns.median()
        self.assertLessEqual(abs(med - float(m.group(2)) * unit), unit * 0.0011)
        self.assertLessEqual(abs(med - self.t.facts["step_median_ns"]), 0.5)

    def test_findings_against_advise(self):
        f = self.t.findings()
        adv = [r for r in cli_json("advise", self.path) if "kind" in r]
        self.assertEqual(list(f.kind.astype(str)), [a["kind"] for a in adv])
        self.assertEqual(list(f.title), [a["title"] for a in adv])
        self.assertEqual(list(f.position), [a["position"] for a in adv])
        for (_, r), a in zip(f.iterrows(), adv):
            for c in ("saving_ns", "alone_ns", "cumulative_ns", "involved_ns"):
                if a.get(c) is not None:
                    self.assertLessEqual(abs(int(r[c]) - a[c]), 1, (a["kind"], c))
        saved = [a["saving_ns"] for a in adv if a.get("saving_ns") is not None]
        self.assertLessEqual(abs(int(f.saving_ns.sum()) - sum(saved)), len(saved))

    def test_layers_against_summary(self):
        lay = self.t.layers()
        want = {r["name"]: (r["calls"], r["total_ns"]) for r in cli_json("summary", "--by", "layer", self.path)
                if r["type"] == "GPU activities"}
        got = {(None if pd.isna(r.layer) else r.layer): (r.kernels, r.gpu_ns) for r in lay.itertuples()}
        self.assertEqual(got, want)

    def test_breakdown_against_cli(self):
        b = self.t.breakdown()
        want = [(r["device"], r["iteration"], r["part"], r["time_ns"]) for r in cli_json("breakdown", self.path)]
        got = [(r.device, None if pd.isna(r.iter) else r.iter, r.part, r.ns) for r in b.itertuples()]
        self.assertEqual(got, want)
        w = self.t.breakdown(wide=True)
        self.assertEqual(len(w), len({(r[0], r[1]) for r in want}))
        idle = [c for c in w.columns if c.startswith("idle_")]
        self.assertTrue((w[idle].sum(axis=1) == w.idle).all())

    def test_ops_against_cli(self):
        o = self.t.ops()
        want = sorted((r["name"], r["calls"], r["self_cpu_ns"], r["cpu_total_ns"], r["self_gpu_ns"],
                       r["gpu_total_ns"]) for r in cli_json("ops", self.path))
        got = sorted((r.name, r.calls, r.self_cpu_ns, r.cpu_total_ns, r.self_gpu_ns, r.gpu_total_ns)
                     for r in o.itertuples())
        self.assertEqual(got, want)

    def test_collectives_against_comm(self):
        c = self.t.collectives()
        comm = cli_json("comm", self.path)
        self.assertEqual(len(c), sum(r["calls"] for r in comm))
        self.assertEqual(int(c.dur_ns.sum()), sum(r["kernel_ns"] for r in comm))

    def test_comm_overlap_against_breakdown(self):
        c = self.t.comm_overlap()
        for col in ("rank", "kernels", "comm_ns", "hidden_ns", "exposed_ns"):
            self.assertEqual(c[col].dtype, "int64", col)
        for col in ("device", "sm_count"):
            self.assertIn(str(c[col].dtype), ("int64", "Int64"), col)
        for col in ("scope", "layer", "pass"):
            self.assertIsInstance(c[col].dtype, pd.CategoricalDtype, col)
        self.assertEqual(c.sms_held.dtype, "float64")

        def na(v):
            return None if pd.isna(v) else v
        got = [(na(r["device"]), na(r["layer"]), na(r["pass"]), r["kernels"], r["comm_ns"], r["hidden_ns"],
                r["exposed_ns"], na(r["sms_held"]), na(r["sm_count"])) for r in c.to_dict("records")]
        want = [(r["device"], r["layer"], r["pass"], r["kernels"], r["comm_ns"], r["hidden_ns"],
                 r["exposed_ns"], r["sms_held"], r["sm_count"])
                for r in cli_json("breakdown", "--view", "comm", self.path)]
        if self.has_comm:
            self.assertTrue(want, "no communication in a trace that has it")
        self.assertEqual(got, want)
        self.assertEqual(list(c.scope), ["device" if r[0] is not None else "layer" for r in want])
        # the layer rows split the devices' time: they add up to it
        dev, lay = c[c.scope == "device"], c[c.scope == "layer"]
        for col in ("comm_ns", "hidden_ns", "exposed_ns"):
            self.assertEqual(int(dev[col].sum()), int(lay[col].sum()), col)

    def test_gaps_causes_add_up(self):
        g = self.t.gaps(causes=True)
        cols = [c for c in g.columns if c.startswith("cause_")]
        self.assertTrue((g[cols].sum(axis=1) == g.dur_ns).all())
        idle = self.t.breakdown().query("part == 'idle' and iter.isna()", engine="python")
        self.assertEqual(int(g.dur_ns.sum()), int(idle.ns.sum()))

    def test_sql_and_tables(self):
        self.assertIn("kernels", self.t.tables())
        n = self.t.sql("select count(*) as n from kernels").n[0]
        self.assertEqual(n, len(self.t.kernels()))


class GeneratedKineto(Checks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path = gen("k.json.gz", "--format", "kineto", "--iters", "6")
        cls.t = gpuprof.load(cls.path)


class GeneratedNsys(Checks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path = gen("g.nsys", "--format", "nsys", "-n", "1500")
        cls.t = gpuprof.load(cls.path)


class Jobs(unittest.TestCase):
    def check_job(self, d, files):
        t = gpuprof.load_job(d)
        k = t.kernels()
        ranks = t.ranks()
        self.assertEqual(sorted(k["rank"].unique()), list(range(len(files))))
        self.assertEqual(t.ranks_list(), list(range(len(files))))
        self.assertEqual(len(ranks), len(files))
        self.assertEqual(set(t.facts), set(range(len(files))))
        # each rank's kernels: that file's report; the collectives: comm's per rank
        by_file = {os.path.realpath(p): r for r, p in zip(ranks["rank"], ranks.path)}
        comm = {r["rank"]: r for r in cli_json("comm", d)}
        for f in files:
            r = by_file[os.path.realpath(f)]
            rep = cli_json("report", "-c", "idx,start,end", f)
            kr = t.kernels(rank=r)
            self.assertEqual(len(kr), len(rep), f)
            self.assertEqual(int(kr.dur_ns.sum()), sum(x["end"] - x["start"] for x in rep), f)
            self.assertEqual(len(t.collectives(rank=r)), comm[r]["calls"], f)
        return t

    def test_generated_job(self):
        d = gen("job", "--format", "kineto", "--ranks", "3", "--iters", "3")
        t = self.check_job(d, sorted(glob.glob(os.path.join(d, "*.json"))))
        self.assertEqual(len(t.kernels(rank=1)), len(t.kernels().query("rank == 1")))


class Errors(unittest.TestCase):
    def test_bad_file_raises_cli_error(self):
        bad = os.path.join(TMP, "bad.json")
        with open(bad, "w") as f:
            f.write("not a trace\n")
        for path in (bad, os.path.join(TMP, "missing.json")):
            p = cli("export", "-f", "sqlite", "-o", os.path.join(TMP, "x.db"), path, ok=False)
            self.assertNotEqual(p.returncode, 0)
            with self.assertRaises(gpuprof.GpuprofError) as cm:
                gpuprof.load(path)
            self.assertEqual(cm.exception.returncode, p.returncode)
            self.assertEqual(cm.exception.message, p.stderr.strip().splitlines()[-1])
            self.assertIn(path, str(cm.exception))

    def test_db_kept_and_reused(self):
        src = gen("r.json", "--format", "kineto", "--iters", "2")
        db = os.path.join(TMP, "kept.db")
        t = gpuprof.load(src, db=db)
        n = len(t.kernels())
        t.close()
        self.assertTrue(os.path.exists(db))
        t = gpuprof.load(os.path.join(TMP, "missing.json"), db=db, reuse=True)   # not re-exported
        self.assertEqual(len(t.kernels()), n)
        self.assertEqual(t.db_path, db)
        t2 = gpuprof.load(src)
        tmp = t2.db_path
        self.assertTrue(os.path.exists(tmp))
        t2.close()
        self.assertFalse(os.path.exists(tmp))

    def test_window_args(self):
        src = gen("w.json", "--format", "kineto", "--iters", "4")
        t = gpuprof.load(src, args=["--iters", "1:2"])
        self.assertEqual(len(t.kernels()), len(cli_json("report", "--iters", "1:2", "-c", "idx", src)))

    def test_without_pandas(self):
        # the binding imports and load() says what is missing
        code = ("import sys; sys.modules['pandas'] = None\n"
                "import gpuprof\n"
                "with gpuprof.range('x'): pass\n"
                "try:\n"
                "    gpuprof.load('x.json')\n"
                "except ImportError as e:\n"
                "    print('ImportError:', e)\n")
        p = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                           env=dict(os.environ, PYTHONPATH=os.path.join(TOP, "python")))
        self.assertEqual(p.returncode, 0)
        self.assertIn("ImportError: gpuprof.load needs pandas", p.stdout)


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
