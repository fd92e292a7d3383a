#!/usr/bin/env python3
"""stretch_kineto.py IN OUT [FACTOR]: writes the Kineto trace IN to OUT with
every event's ts and dur multiplied by FACTOR (default 1.25): the same run
on a slower rank, for the straggler and multi-rank tests."""
import json
import sys

src, dst = sys.argv[1], sys.argv[2]
factor = float(sys.argv[3]) if len(sys.argv) > 3 else 1.25
d = json.load(open(src))
for e in d["traceEvents"]:
    for k in ("ts", "dur"):
        if isinstance(e.get(k), (int, float)):
            e[k] = round(e[k] * factor, 3)
json.dump(d, open(dst, "w"))
