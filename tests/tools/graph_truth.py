#!/usr/bin/env python3
"""Compares gpuprof's attribution of graph-replayed kernels with the truth
gpuprof-gen --graphs wrote beside the trace (tools/gen/graphs.c).

    tests/tools/graph_truth.py REPORT.csv TRACE.truth

REPORT.csv is `gpuprof report -f csv -c start,stream,graph,op,layer,iter,flops
TRACE`.  Every truth line (start, stream, state, op, layer, iteration,
FLOPs) must have its report row (same start and stream) saying the same:
the graph state; the op and layer ("-" in the truth: none, which report
prints as "na" and "-"); the iteration; the FLOPs unless the truth says
"-".  Prints each difference and the count of rows checked; exits 1 on a
difference.
"""
import csv, sys

report, truth = sys.argv[1:3]
rows = {}
with open(report) as f:
    for r in csv.DictReader(f):
        rows[(r["Start(ns)"], r["Stream"])] = r
bad = n = 0
with open(truth) as f:
    for line in f:
        start, stream, state, op, layer, it, flops = line.rstrip("\n").split("\t")
        n += 1
        r = rows.get((start, stream))
        if r is None:
            print("no report row for the kernel at %s on stream %s" % (start, stream))
            bad += 1
            continue
        got = (r["Graph"], r["Op"] if r["Op"] != "na" else "-", r["Layer"], r["Iter"],
               r["FLOPs"] if flops != "-" else "-")
        want = (state, op, layer, it, flops)
        if got != want:
            print("kernel at %s stream %s: got %s, expected %s" % (start, stream, got, want))
            bad += 1
print("%d replayed kernels checked, %d differ" % (n, bad))
sys.exit(1 if bad or not n else 0)
