#!/usr/bin/env python3
"""Checks the marks a multi-rank HTML report drew in Chromium (the data-*
counts its script writes, from --dump-dom) against counts computed here
from the raw Kineto JSON of each rank: one step-time series per rank with
one point per ProfilerStep that ran kernels (tests/tools/kineto_steps.py),
each iteration's slowest rank (none where all ranks took the same time),
a row and a breakdown bar per rank, the kernel names of all ranks.

usage: html_job_marks.py DOM TOP RANKFILE...   (rank files in rank order)
Prints each check; exits 1 when one fails.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_job_oracle import kernels  # noqa: E402
from html_marks import attr, shown, verdict  # noqa: E402
from kineto_steps import steps  # noqa: E402


def main():
    dom = open(sys.argv[1], encoding="utf-8").read()
    top, files = int(sys.argv[2]), sys.argv[3:]
    st = [steps(f) for f in files]
    names = {name for f in files for name, _ in kernels(f)}
    iters = sorted({it for s in st for it in s})
    slowest = []
    for it in iters:
        have = [(i, s[it]) for i, s in enumerate(st) if it in s]
        slow = max(have, key=lambda p: (p[1], -p[0]))
        slowest.append(str(slow[0]) if slow[1] > min(t for _, t in have) else "")
    n = len(files)
    checks = [
        ("report state", attr(dom, "report", "data-state"), "done"),
        ("errors", attr(dom, "errors", "data-errors"), "0"),
        ("rank rows", attr(dom, "table-ranks", "data-rows"), str(n)),
        ("step series", attr(dom, "chart-steps", "data-series"), str(n)),
        ("step points per rank", attr(dom, "chart-steps", "data-points"), ",".join(str(len(s)) for s in st)),
        ("step marks", attr(dom, "chart-steps", "data-marks"), str(sum(len(s) for s in st))),
        ("slowest rank per iteration", attr(dom, "chart-steps", "data-slowest"), ",".join(slowest)),
        ("iteration rows", attr(dom, "table-steps", "data-rows"), str(len(iters))),
        ("breakdown bars", attr(dom, "chart-breakdown", "data-bars"), str(n)),
        ("breakdown marks", attr(dom, "chart-breakdown", "data-marks"), str(5 * n)),
        ("kernel rows", attr(dom, "table-kernels", "data-rows"), str(shown(len(names), top))),
    ]
    verdict(checks)


if __name__ == "__main__":
    main()
