#!/usr/bin/env python3
"""Checks that `gpuprof ops` gives replayed kernels to the ops their capture
gave them (src/analysis/optable.c).

    tests/tools/graph_ops_check.py REPORT.csv OPS.csv

REPORT.csv is `gpuprof report -f csv -c op,marker,graph,sil TRACE`, OPS.csv
`gpuprof ops -f csv TRACE`.  A kernel's op name is its marker (the raw op,
"aten::mm") or else its op.  For every name of a replayed kernel with an op
(graph state captured, captured-ops, annotated), the ops row of that name
must have as Self GPU the time of the kernels of that name, replayed or
eager (eager kernels' launches sit inside the op).  Prints each difference
and the count of names checked; exits 1 on a difference or none checked.
"""
import csv, sys
from collections import defaultdict

report, ops = sys.argv[1:3]
replayed = set()
gpu = defaultdict(int)
with open(report) as f:
    for r in csv.DictReader(f):
        name = r["Marker"] if r["Marker"] != "na" else r["Op"]
        if name == "na":
            continue
        if r["Graph"] in ("captured", "captured-ops", "annotated"):
            replayed.add(name)
            gpu[name] += int(r["Sil(ns)"])
        elif r["Graph"] == "eager":
            gpu[name] += int(r["Sil(ns)"])
rows = {}
with open(ops) as f:
    for r in csv.DictReader(f):
        rows[r["Name"]] = int(r["Self GPU (ns)"])
bad = 0
for name in sorted(replayed):
    if rows.get(name) != gpu[name]:
        print("%s: ops Self GPU %s, its kernels %d" % (name, rows.get(name), gpu[name]))
        bad += 1
print("%d ops of replayed kernels checked, %d differ" % (len(replayed), bad))
sys.exit(1 if bad or not replayed else 0)
