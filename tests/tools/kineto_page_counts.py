#!/usr/bin/env python3
"""Checks the marks an HTML report of a Kineto trace drew (the data-*
counts from Chromium's --dump-dom) against counts computed here from the
raw Kineto JSON alone, so that a bug shared by gpuprof's analysis and its
page cannot pass (tests/tools/html_marks.py compares with gpuprof's own
rows): the run's steps (docs/cli.md, "Steps": the distinct ProfilerStep#N
of the process that marks the most; two step-time bars each, the step
and its GPU span, and none, a sentence, for fewer than two), the
iterations (ProfilerStep#N ranges that launched kernels, per GPU: up to
200 per GPU, the breakdown bars) and the kernel rows (distinct kernel
labels, the top ones plus "other").

usage: kineto_page_counts.py DOM TRACE TOP
Prints each check; exits 1 when one fails.
"""
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_job_oracle import label  # noqa: E402
from html_marks import attr, shown, verdict  # noqa: E402


def main():
    dom = open(sys.argv[1], encoding="utf-8").read()
    path, top = sys.argv[2], int(sys.argv[3])
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        ev = json.load(f)["traceEvents"]
    steps, launch, kern, marked = [], {}, [], {}
    for e in ev:
        if e.get("ph") != "X" or "ts" not in e:
            continue
        n, c = e.get("name", ""), str(e.get("cat", "")).lower()   # "Kernel" in older traces
        t0 = round(e["ts"] * 1000)
        m = re.fullmatch(r"ProfilerStep#(\d+)", n)
        if m and c in ("cpu_op", "user_annotation", "operator"):
            steps.append((t0, t0 + round(e.get("dur", 0) * 1000), int(m.group(1))))
            marked.setdefault(e.get("pid"), set()).add(int(m.group(1)))
        elif c in ("cuda_runtime", "runtime") and "correlation" in e.get("args", {}):
            launch[e["args"]["correlation"]] = t0
        elif c == "kernel":
            kern.append((e["args"].get("device"), e["args"].get("correlation"), label(n, path)))
    iters = set()
    for dev, corr, _ in kern:
        t = launch.get(corr)
        for a, b, n in steps:
            if t is not None and a <= t <= b:
                iters.add((dev, n))
    per_dev = {}
    for dev, n in iters:
        per_dev[dev] = per_dev.get(dev, 0) + 1
    bars = sum(-(-k // -(-k // 200)) for k in per_dev.values()) if iters else len({d for d, _, _ in kern})
    names = {k for _, _, k in kern}
    run_steps = max((len(v) for v in marked.values()), default=0)
    checks = [
        ("step bars", attr(dom, "chart-steps", "data-marks"), str(2 * run_steps if run_steps >= 2 else 0)),
        ("breakdown bars", attr(dom, "chart-breakdown", "data-bars"), str(bars)),
        ("kernel rows", attr(dom, "table-kernels", "data-rows"), str(shown(len(names), top))),
    ]
    verdict(checks, " (raw JSON)")


if __name__ == "__main__":
    main()
