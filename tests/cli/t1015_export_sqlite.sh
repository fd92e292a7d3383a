# tier: slow
# gpuprof export -f sqlite (docs/export-sqlite.md): the database holds
# every table, checked against oracles that do not read it through
# gpuprof's own tables: the kernel count and total kernel time against a
# Python reading of the raw trace (Kineto JSON; the nsys/nvprof SQLite by
# SQL), the steps against advise's header (count, median), the findings
# against advise -f json (kind, saving, alone, cumulative, in order), the
# ops against ops -f csv, the breakdown against breakdown -f json;
# several rank files give one database with a rank per file; an existing file is refused without --force, and a path
# that cannot be written fails with exit 3 and leaves nothing.
command -v python3 >/dev/null || skip "python3 not installed"
check() { # FILE KINETO|TABLE: the database of FILE against the oracles
	f=$1 raw=$2
	rm -f "$TMP/t.db"
	run_ok "$GPUPROF" export -f sqlite -o "$TMP/t.db" "$f"
	assert_grep "^gpuprof export: wrote $TMP/t.db \([0-9.]+ [KMG]?i?B\): 1 rank, [0-9]+ kernels, .* in 16 tables" "$TMP/err"
	run_ok "$GPUPROF" advise -f json "$f"; cp "$TMP/out" "$TMP/adv.json"
	run_ok "$GPUPROF" advise "$f"; cp "$TMP/out" "$TMP/adv.txt"
	run_ok "$GPUPROF" breakdown -f json "$f"; cp "$TMP/out" "$TMP/bd.json"
	run_ok "$GPUPROF" ops -f csv -c name,calls,self_cpu_ns,cpu_total_ns,self_gpu_ns,gpu_total_ns "$f"
	python3 - "$TMP/t.db" "$f" "$raw" "$TMP/adv.json" "$TMP/adv.txt" "$TMP/out" "$TMP/bd.json" <<'PY' || fail "$f: the database differs from the oracles"
import csv, gzip, json, re, sqlite3, statistics, sys
from decimal import Decimal
db, path, raw, advj, advt, opscsv, bdj = sys.argv[1:]
c = sqlite3.connect(db)
# kernels: count and total time from the raw trace
if raw == "kineto":
    d = json.load((gzip.open if path.endswith(".gz") else open)(path, "rt"), parse_float=Decimal)
    ev = d["traceEvents"] if isinstance(d, dict) else d
    durs = [int(Decimal(e.get("dur", 0)) * 1000) for e in ev
            if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel")]
    want = (len(durs), sum(durs))
else:
    r = sqlite3.connect(path)
    want = r.execute(f"select count(*), sum(end - start) from {raw}").fetchone()
got = c.execute("select count(*), sum(dur_ns) from kernels").fetchone()
assert got == tuple(want), ("kernels", got, want)
assert c.execute("select count(*) from kernels where dur_ns != end_ns - start_ns").fetchone()[0] == 0
assert c.execute("select value from facts where key = 'kernels'").fetchone()[0] == want[0]
assert c.execute("select count(distinct kernel_id) from kernels").fetchone()[0] == want[0]
# steps: advise's header "N steps, median X ms"
steps = [r[0] for r in c.execute("select dur_ns from steps order by start_ns")]
m = re.search(r"; (\d+) steps?, median ([0-9.]+) (ns|us|ms|s)\b", open(advt).read())
if m:
    assert len(steps) == int(m.group(1)), ("steps", len(steps), m.group(1))
    unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(3)]
    med = statistics.median(steps)
    assert abs(med - float(m.group(2)) * unit) <= unit * 0.0011, ("median", med, m.group(2))
else:
    assert not steps, ("steps without advise's", len(steps))
# findings: advise -f json's, in order
adv = [r for r in map(json.loads, open(advj)) if "kind" in r]
rows = c.execute("select kind, saving_ns, alone_ns, cumulative_ns, title from findings "
                 "order by position").fetchall()
assert len(rows) == len(adv), ("findings", len(rows), len(adv))
for r, a in zip(rows, adv):
    assert r[0] == a["kind"] and r[4] == a["title"], (r, a["kind"])
    for v, k in zip(r[1:4], ("saving_ns", "alone_ns", "cumulative_ns")):
        if a.get(k) is not None:
            assert abs(v - a[k]) <= 1, (a["kind"], k, v, a[k])
# ops: ops -f csv's rows
want = sorted(tuple(int(x) for x in row[1:]) + (row[0],) for row in list(csv.reader(open(opscsv)))[1:])
got = sorted(tuple(r[1:]) + (r[0],) for r in c.execute(
    "select name, calls, self_cpu_ns, cpu_total_ns, self_gpu_ns, gpu_total_ns from ops"))
assert got == want, ("ops", len(got), len(want), [x for x in got if x not in want][:3])
# breakdown: breakdown -f json's rows, in order
want = [(r["device"], r["iteration"], r["part"], r["time_ns"]) for r in map(json.loads, open(bdj))]
got = c.execute("select device, iter, part, ns from breakdown order by rowid").fetchall()
assert got == want, ("breakdown", len(got), len(want), [x for x in got if x not in want][:3])
# one rank, and the gaps' causes add up to each gap
assert c.execute("select count(distinct rank) from kernels").fetchone()[0] in (0, 1)
bad = c.execute("select count(*) from gaps g where dur_ns != (select sum(ns) from gap_causes x "
                "where x.rank = g.rank and x.gap_id = g.gap_id)").fetchone()[0]
assert bad == 0, ("gaps whose causes do not add up", bad)
PY
}
run_ok "$GEN" --format kineto -n 2000 -o "$TMP/g.json"
check "$TMP/g.json" kineto
run_ok "$GEN" --format nsys -n 2000 -o "$TMP/g.nsys"
check "$TMP/g.nsys" CUPTI_ACTIVITY_KIND_KERNEL
run_ok "$GEN" --format nvprof -n 2000 -o "$TMP/g.nvprof"
check "$TMP/g.nvprof" CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
# an existing file: refused without --force (exit 3), replaced with it
expect_exit 3 "$GPUPROF" export -f sqlite -o "$TMP/t.db" "$TMP/g.json"
assert_grep "exists \(--force overwrites it\)" "$TMP/err"
run_ok "$GPUPROF" export -f sqlite --force -o "$TMP/t.db" "$TMP/g.json"
assert_eq "$(sqlite3 "$TMP/t.db" 'select count(*) from kernels')" 2000 "--force: kernels"
# no -o: a usage error; a path that cannot be written: exit 3, one line
expect_exit 2 "$GPUPROF" export -f sqlite "$TMP/g.json"
assert_grep "give -o FILE" "$TMP/err"
expect_exit 3 "$GPUPROF" export -f sqlite -o "$TMP/no/such/dir/t.db" "$TMP/g.json"
assert_grep "^gpuprof: cannot write $TMP/no/such/dir/t.db" "$TMP/err"
assert_eq "$(wc -l <"$TMP/err")" 1 "one line of error"
# an input that fails: exit 4 and no file left
echo "not a trace" >"$TMP/bad.json"
rm -f "$TMP/b.db"
expect_exit 4 "$GPUPROF" export -f sqlite -o "$TMP/b.db" "$TMP/bad.json"
[ ! -e "$TMP/b.db" ] || fail "a failed export left $TMP/b.db"
need_testdata
for f in "$TESTDATA"/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz; do
	[ -f "$f" ] || skip "$f missing"
	check "$f" kineto
done
f="$TESTDATA"/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite
[ -f "$f" ] || skip "$f missing"
check "$f" CUPTI_ACTIVITY_KIND_KERNEL
# the 8 DLRM ranks: one database, 8 ranks, each rank's kernels its file's
d="$TESTDATA"/verdicts/param/dlrm_kineto_8rank
[ -d "$d" ] || skip "$d missing"
run_ok "$GPUPROF" export -f sqlite -o "$TMP/job.db" "$d"
assert_grep "wrote $TMP/job.db \([0-9.]+ [KMG]?i?B\): 8 ranks" "$TMP/err"
python3 - "$TMP/job.db" "$d" <<'PY' || fail "the job's database"
import gzip, json, os, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
assert c.execute("select count(distinct rank) from kernels").fetchone()[0] == 8
assert sorted(r[0] for r in c.execute("select rank from ranks")) == list(range(8))
for rank, path, n in c.execute("select r.rank, r.path, (select count(*) from kernels k where k.rank = r.rank) "
                               "from ranks r"):
    d = json.load(gzip.open(path, "rt"))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    assert n == sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel")), (rank, n)
    assert d["distributedInfo"]["rank"] == rank, (path, rank)
assert c.execute("select count(distinct rank) from collectives").fetchone()[0] == 8
PY
