"""Checks a gpuprof export -f perfetto of several rank files (tests/cli/t1310).

usage: perfetto_ranks.py EXPORT R=ONE_EXPORT...
EXPORT: the export of all the files.  R=ONE_EXPORT: rank R's file exported
alone.  Checks what perfetto_check.py cannot see in one file: every
process is named "rank R: ..." for one of the given ranks and labelled
"rank R", so no pid is shared by two files; the processes sort by rank;
both ends of every flow lie in one rank; each rank has as many kernels,
API calls, ranges and flows as its file exported alone.  Prints one line
"R PID" per GPU process (rank, its pid: the device that `gpuprof report`
shows for its kernels when it reads EXPORT back).  Exits non-zero with the
reason on the first problem."""
import collections, gzip, json, sys

def load(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        return json.load(f)["traceEvents"]

def counts(events, rank_of=None):
    """Events by rank (rank_of: pid -> rank; None: all rank None) and kind."""
    c = collections.Counter()
    for e in events:
        if e["ph"] == "X" and e["cat"] not in ("gpu_idle",):
            c[(rank_of[e["pid"]] if rank_of else None, e["cat"])] += 1
        elif e["ph"] in ("s", "f", "i"):
            c[(rank_of[e["pid"]] if rank_of else None, e["ph"] + e["cat"])] += 1
    return c

events = load(sys.argv[1])
ranks = {}
for arg in sys.argv[2:]:
    r, path = arg.split("=", 1)
    ranks[int(r)] = path

names, labels, sort = {}, {}, {}
for e in events:
    if e["ph"] != "M":
        continue
    if e["name"] == "process_name":
        assert e["pid"] not in names, ("a pid named twice", e)
        names[e["pid"]] = e["args"]["name"]
    elif e["name"] == "process_labels":
        labels[e["pid"]] = e["args"]["labels"]
    elif e["name"] == "process_sort_index":
        sort[e["pid"]] = e["args"]["sort_index"]
rank_of = {}
for pid, name in names.items():
    assert name.startswith("rank "), ("process not named by its rank", pid, name)
    r = int(name[5:name.index(":")])
    assert r in ranks, ("a rank that no file has", pid, name)
    assert labels.get(pid) == "rank %d" % r, ("process label", pid, labels.get(pid))
    rank_of[pid] = r
for e in events:
    assert e["pid"] in rank_of, ("an event on an unnamed process", e)
# the UI's order: every process of a lower rank before those of a higher
by_sort = sorted(rank_of, key=lambda p: sort[p])
assert [rank_of[p] for p in by_sort] == sorted(rank_of[p] for p in by_sort), "processes not sorted by rank"
# flows never cross files
start = {}
for e in events:
    if e["ph"] == "s":
        start[(e["cat"], e["id"])] = rank_of[e["pid"]]
for e in events:
    if e["ph"] == "f":
        assert start[(e["cat"], e["id"])] == rank_of[e["pid"]], ("a flow across ranks", e)
# each rank's events are its file's own export's
got = counts(events, rank_of)
for r, path in ranks.items():
    want = counts(load(path))
    for (_, kind), n in want.items():
        assert got[(r, kind)] == n, ("rank %d: %s" % (r, kind), got[(r, kind)], n)
    assert want[(None, "kernel")] > 0, ("rank %d has no kernels" % r)
for pid, name in sorted(names.items()):
    if ": GPU " in name:
        print(rank_of[pid], pid)
