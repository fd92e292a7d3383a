#!/usr/bin/env python3
"""window_filter.py REPORT.csv iters A B | time S E

Prints the lines of a full read's `report -f csv` that a window keeps, as
docs/window.md defines it, computed from the rows alone: iterations A..B
are the rows whose Iter column is in A..B; a time window S..E the rows
whose kernel [Start, End] overlaps it.  The header line is kept.  Lines are
printed as they are, so the output compares byte for byte with the
window read's report."""
import csv
import sys

path, mode, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(path, newline="") as f:
    lines = f.read().splitlines(keepends=True)
head = next(csv.reader([lines[0]]))
it, st, en = head.index("Iter"), head.index("Start(ns)"), head.index("End(ns)")
out = [lines[0]]
for line in lines[1:]:
    row = next(csv.reader([line]))
    if mode == "iters":
        keep = row[it] not in ("", "-", "na") and a <= int(row[it]) <= b
    else:
        keep = int(row[st]) <= b and int(row[en]) >= a
    if keep:
        out.append(line)
sys.stdout.write("".join(out))
