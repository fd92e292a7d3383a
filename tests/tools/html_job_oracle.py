#!/usr/bin/env python3
"""Checks the data of a multi-rank HTML report (gpuprof html FILE...)
against figures computed here from the raw Kineto JSON of each rank, not
from gpuprof: kernels and GPU time per rank, the time per kernel name over
all ranks, each rank's step times (tests/tools/kineto_steps.py: a kernel
belongs to step N when its launch starts inside ProfilerStep#N), the
median step, each iteration's slowest and fastest rank, each rank's wait
at the collectives matched on every rank, the wait it caused the others,
the calls it arrived last at and the straggler (tests/tools/coll_oracle.py:
by arrival, never by step time).

usage: html_job_oracle.py PAGE RANKFILE...   (rank files in rank order)
Prints each failed check; exits 1 when one fails.
"""
import decimal
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kineto_steps import median, steps  # noqa: E402
from coll_oracle import job as arrivals  # noqa: E402

D = decimal.Decimal


def page_data(path):
    """The JSON document in the page's data block."""
    page = open(path, encoding="utf-8").read()
    head = '<script type="application/json" id="gp-data">'
    data = page[page.index(head) + len(head):]
    return json.loads(data[:data.index("</script>")])


NAME = re.compile(r"(?:\w+|\(anonymous namespace\))(?:::(?:\w+|\(anonymous namespace\)))*")


def short(name):
    """A kernel's short name, for the names the generator writes: without
    its return type ("void "), namespaces, template arguments and
    parameters; a name that does not start as a qualified C++ name is
    itself."""
    s = name[5:] if name.startswith("void ") else name
    m = NAME.match(s)
    return m.group(0).split("::")[-1] if m else name


_LABELS = {}


def label(name, path):
    """The name a page shows kernel `name` of trace `path` by: its label
    (the short name that keeps the functor), as `gpuprof report -c
    longname,label` gives it ($GPUPROF), else its short name here.  The
    sums per name are checked here; the label rule itself by test_demangle."""
    if path not in _LABELS:
        m = {}
        exe = os.environ.get("GPUPROF")
        if exe:
            import subprocess
            out = subprocess.run([exe, "report", "-f", "tsv", "--no-header", "-c", "longname,label", path],
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split("\t")
                if len(parts) == 2:
                    m[parts[0]] = parts[1]
        _LABELS[path] = m
    return _LABELS[path].get(name[5:] if name.startswith("void ") and name[5:] in _LABELS[path] else name,
                             short(name))


def kernels(path):
    """(label, ns) of every kernel: durations in ns, half up, as gpuprof
    reads them."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        ev = json.loads(f.read(), parse_float=D)["traceEvents"]
    out = []
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") == "kernel" and "ts" in e:
            ns = int((D(e.get("dur", 0)) * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))
            out.append((label(e["name"], path), max(ns, 0)))
    return out


def main():
    data = page_data(sys.argv[1])
    files = sys.argv[2:]
    job = data["job"]
    bad = []

    def check(what, got, want):
        if got != want:
            bad.append("%s: page %r, expected %r" % (what, got, want))

    check("inputs", len(data["inputs"]), len(files))
    check("ranks", [r["rank"] for r in job["ranks"]], list(range(len(files))))
    by_name = {}
    st = []
    for i, f in enumerate(files):
        ks = kernels(f)
        inp, r = data["inputs"][i], job["ranks"][i]
        check("rank %d file" % i, os.path.basename(r["path"]), os.path.basename(f))
        check("rank %d kernels" % i, inp["kernels"], len(ks))
        check("rank %d GPU time" % i, inp["gpu_ns"], sum(ns for _, ns in ks))
        for name, ns in ks:
            c, t = by_name.get(name, (0, 0))
            by_name[name] = (c + 1, t + ns)
        s = steps(f)
        st.append(s)
        check("rank %d steps" % i, {it: ns for it, ns in r["steps"]}, s)
        check("rank %d median step" % i, r["step_median"], median(list(s.values())))
        # the whole-trace windows split each GPU's span exactly
        for w in inp["breakdown"]:
            parts = w["compute"] + w["comm"] + w["memory"] + w["overlap"] + w["idle"]
            if w["iter"] < 0:
                check("rank %d GPU %d parts" % (i, w["device"]), parts, w["end"] - w["start"])
    check("job kernels", job["kernels"], sum(c for c, _ in by_name.values()))
    check("job GPU time", job["gpu_ns"], sum(t for _, t in by_name.values()))
    # every kernel name shown (the test gives -n above their number)
    rows = {k["name"]: (k["count"], k["ns"]) for k in job["top_kernels"]}
    check("kernel names over all ranks", rows, by_name)
    # per iteration: the slowest and fastest rank (ties to the lower rank)
    iters = sorted({it for s in st for it in s})
    check("iterations", [x["iter"] for x in job["steps"]], iters)
    for x in job["steps"]:
        have = [(i, s[x["iter"]]) for i, s in enumerate(st) if x["iter"] in s]
        slow = max(have, key=lambda p: (p[1], -p[0]))
        fast = min(have, key=lambda p: (p[1], p[0]))
        check("iteration %d" % x["iter"], (x["ranks"], x["median"], x["slowest_rank"], x["slowest_ns"],
                                            x["fastest_rank"], x["fastest_ns"]),
              (len(have), median([t for _, t in have]), slow[0], slow[1], fast[0], fast[1]))
    meds = [median(list(s.values())) for s in st]
    check("skew", job["skew"], max(meds) - min(meds))
    # arrivals at the collectives: the straggler and what each rank waited
    cst, ncalls, _, straggler = arrivals(files)
    check("collectives", job["collectives"], ncalls)
    check("straggler", job["straggler"], straggler)
    for i, r in enumerate(job["ranks"]):
        want = (cst[i][3], cst[i][4], cst[i][2]) if ncalls else (-1, -1, -1)
        check("rank %d wait, caused, last" % i, (r["wait"], r["caused"], r["times_last"]), want)
        check("rank %d role" % i, r["role"], "straggler" if i == straggler else "")
    for b in bad:
        print("FAIL " + b)
    print("%d checks failed" % len(bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
