#!/usr/bin/env python3
"""Writes tests/data/kineto_counts.tsv: what every Kineto trace of testdata
(told by content, tests/tools/trace_kind.py) holds, counted from the JSON
by Python alone (no gpuprof), for
tests/cli/t0500_kineto_counts.sh to compare gpuprof's counts against.

    tests/tools/kineto_counts.py $TESTDATA > tests/data/kineto_counts.tsv

Counted: complete events ('ph': 'X' with a 'ts') by category, as the Kineto
reader classifies them; kernel_ns is the sum of the kernels' durations in ns
(microseconds as written, exact Decimal arithmetic, half up, negatives as 0);
ops is the number of framework-op events (cpu_op, Operator), which decides
whether the test expects kernels to be attributed to ops.
"""
import decimal
import gzip
import json
import os
import sys

from trace_kind import traces

D = decimal.Decimal
COLUMNS = ("file", "kernels", "api", "memcpy", "memset", "sync", "kernel_ns", "ops")


def ns(us):
    return int((D(us) * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))


def counts(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.loads(f.read(), parse_float=D)
    events = doc if isinstance(doc, list) else doc["traceEvents"]
    by_cat = {}
    for e in events:
        if e.get("ph") == "X" and "ts" in e:
            by_cat.setdefault(e.get("cat"), []).append(e)

    def of(*names):
        return [e for n in names for e in by_cat.get(n, [])]

    kernels = of("kernel", "Kernel")
    return {
        "kernels": len(kernels),
        "api": len(of("cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime")),
        "memcpy": len(of("gpu_memcpy", "Memcpy")),
        "memset": len(of("gpu_memset", "Memset")),
        "sync": len(of("cuda_sync")),
        "kernel_ns": sum(max(0, ns(e.get("dur", 0))) for e in kernels),
        "ops": sum(1 for e in events if e.get("cat") in ("cpu_op", "Operator")),
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kineto_counts.py TESTDATA > tests/data/kineto_counts.tsv")
    top = sys.argv[1]
    print("# Made by tests/tools/kineto_counts.py from the Kineto traces of testdata;")
    print("# regenerate with it, do not edit.  Columns: see that script.")
    print("\t".join(COLUMNS))
    for f in traces(top, {"kineto"}):
        c = counts(os.path.join(top, f))
        print("\t".join([f] + [str(c[k]) for k in COLUMNS[1:]]))


if __name__ == "__main__":
    main()
