# tier: slow (131 s in make check before the tiers, on the busy 2-core machine)
# One vocabulary (issue 25): every command's --help spells the options
# they share the same way (an option's long name has one short letter
# everywhere; grouping is -b/--by, views -V/--view, -n/--top, -c/--columns,
# --base/--full-names where kernel names are printed, --depth where layers
# are grouped), and table outputs carry units: a time, size, percentage or
# bandwidth column shows human units under a bare header ("31.9%",
# "12.3 GB/s"), its csv/tsv header names the unit the one way "Name (unit)"
# ("Total (ns)", "Time (%)"), no raw count of ns or bytes reaches a table,
# and a time point is counted from the trace's start ("Start from trace
# start (ns)"), its clock value a csv/tsv column the table leaves out.
command -v python3 >/dev/null || skip "python3 not installed"
cmds="info report summary advise ops export html ranges memory diff breakdown ranks comm record"
for cmd in $cmds; do
	run_ok "$GPUPROF" $cmd --help
	cp "$TMP/out" "$TMP/help.$cmd"
done
python3 - "$TMP" $cmds <<'PY' || fail "--help: options spelt differently"
import re, sys
tmp, cmds = sys.argv[1], sys.argv[2:]
opt = re.compile(r"^  (?:-(\w), )?    ?--([\w-]+)(?: (\S+))?")
seen = {}      # long name -> {(letter, cmd)}
have = {}      # cmd -> {long names}
bad = []
for c in cmds:
    have[c] = set()
    for line in open("%s/help.%s" % (tmp, c)):
        m = opt.match(line.replace("  -", "  -", 1))
        m = m or re.match(r"^  -(\w), --([\w-]+)(?: (\S+))?", line)
        if not m:
            continue
        letter, name = m.group(1), m.group(2)
        have[c].add(name)
        seen.setdefault(name, set()).add((letter, c))
# the one exception: summary's -s was --section before --sort existed, so
# there --sort has no letter (and no other letter)
seen["sort"].discard((None, "summary"))
for name, uses in seen.items():
    letters = {l for l, _ in uses}
    if len(letters) > 1:
        bad.append("--%s has letters %s" % (name, sorted(uses, key=str)))
def want(names, in_cmds, why):
    for c in in_cmds:
        for n in names:
            if n not in have[c]:
                bad.append("%s lacks --%s (%s)" % (c, n, why))
rows = ["report", "summary", "advise", "ops", "ranges", "memory", "diff", "breakdown", "comm", "ranks"]
want(["format", "width", "no-header"], rows, "a command of rows")
want(["top"], rows + ["html"], "rows to limit")
want(["by"], ["summary", "memory", "diff", "ops"], "grouping")
want(["view"], ["breakdown", "ranks", "comm"], "views")
want(["columns"], ["report", "ops"], "columns to pick")
want(["base", "full-names"], ["report", "summary", "diff"], "kernel names")
want(["sort"], ["report", "summary", "ops"], "rows to sort")
want(["depth"], ["summary", "memory", "diff", "html"], "layer grouping")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
for l in "-b, --by" "-V, --view" "-n, --top N" "-c, --columns LIST" "-w, --width N" "-f, --format F"; do
	grep -hq -- "^  $l" "$TMP"/help.* || fail "no command spells $l"
done

# Units: a table (human units) against its tsv (raw, the unit in the header)
"$GEN" --format nsys -n 400 --seed 5 --streams 3 -o "$TMP/g.sqlite" >/dev/null || fail "gpuprof-gen"
"$GEN" --format kineto -n 400 --seed 5 --streams 3 -o "$TMP/g.json" >/dev/null || fail "gpuprof-gen"
cat >"$TMP/mem.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "Net", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 2, "dur": 10},
 {"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 3, "args": {"Device Type": 1, "Device Id": 0, "Addr": 16, "Bytes": 123456789, "Total Allocated": 123456789, "Total Reserved": 234567890}},
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 9}}
]}
JSON
units() { # FILE ARGS...: gpuprof ARGS FILE as a table and as tsv
	f=$1; shift
	"$GPUPROF" "$@" "$f" >"$TMP/t.table" 2>/dev/null || fail "$* $f"
	"$GPUPROF" "$@" -f tsv "$f" >"$TMP/t.tsv" 2>/dev/null || fail "$* -f tsv $f"
	python3 - "$TMP/t.table" "$TMP/t.tsv" "$*" <<'PY' || fail "$*: units"
import re, sys
table, tsv, what = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines(), sys.argv[3]
head = table.splitlines()[0] if table else ""
hdr = tsv[0].split("\t") if tsv else []
tokens = set(table.split())
assert not re.search(r"\((ns|B|%|GB/s)\)|(^|\s)(\+?%|Pct)(\s|$)", head), (what, "a unit or '%' in the table header", head)
rows = [l.split("\t") for l in tsv[1:]]
for i, h in enumerate(hdr):
    assert not re.search(r"\w\((ns|B|%|GB/s)\)|\s%$|^Pct$", h), (what, "a header not 'Name (unit)'", h)
    if h.endswith(" on the trace's clock (ns)"):
        assert h.rsplit(" (", 1)[0] not in head, (what, "the clock column in the table", h)
        continue
    m = re.fullmatch(r"(.*) \((%|GB/s)\)", h)
    if m:   # shown with its unit in the table (its first rows: -n)
        for r in rows[:10]:
            v = r[i] if i < len(r) else ""
            if re.fullmatch(r"-?\d+\.\d+", v):
                want = v + "%" if m.group(2) == "%" else v + " GB/s"
                assert want in table, (what, h, "not shown as", want)
        continue
    m = re.fullmatch(r"(.*) \((ns|B)\)", h)
    if not m:
        continue
    assert h not in head, (what, "the table shows a raw unit header", h)
    for line in tsv[1:]:
        v = line.split("\t")[i] if i < len(line.split("\t")) else ""
        if re.fullmatch(r"-?\d{4,}(\.\d+)?", v):
            assert v not in tokens, (what, h, "raw value in the table", v)
print(what, "ok")
PY
}
units "$TMP/g.sqlite" summary
units "$TMP/g.sqlite" summary --by layer
units "$TMP/g.sqlite" advise -f table
units "$TMP/g.sqlite" breakdown
units "$TMP/g.sqlite" breakdown -V streams
units "$TMP/g.sqlite" breakdown -V gaps
units "$TMP/g.sqlite" breakdown -V depth
units "$TMP/g.sqlite" breakdown -V critical
units "$TMP/mem.json" memory --by series
units "$TMP/g.sqlite" ranks -V steps
units "$TMP/g.sqlite" ranges
units "$TMP/g.json" ops
units "$TMP/g.json" ops --by shape
units "$TMP/mem.json" memory
units "$TMP/mem.json" memory --by op
units "$TMP/mem.json" ops
units "$TMP/g.sqlite" comm
units "$TMP/g.sqlite" ranks
"$GPUPROF" diff "$TMP/g.sqlite" "$TMP/g.json" >"$TMP/t.table" 2>/dev/null || fail "diff"
"$GPUPROF" diff -f tsv "$TMP/g.sqlite" "$TMP/g.json" >"$TMP/t.tsv" 2>/dev/null || fail "diff -f tsv"
assert_no_grep '\((ns|B)\)' "$TMP/t.table"
assert_grep '	Base \(ns\)	' "$TMP/t.tsv"
# memory in the table: binary units; raw in tsv
"$GPUPROF" memory "$TMP/mem.json" >"$TMP/out" 2>/dev/null
assert_grep ' 117\.74 MiB ' "$TMP/out"
"$GPUPROF" memory -f tsv "$TMP/mem.json" >"$TMP/out" 2>/dev/null
assert_grep '	123456789	' "$TMP/out"
assert_grep '^Device	Events	Allocs	Frees	Alloc \(B\)	' "$TMP/out"
# -n's help says the command's own default (html: 25 rows a table)
assert_grep '^  -n, --top N +rows per table, then an "other" row' "$TMP/help.html"
assert_grep 'number; default 25\)$' "$TMP/help.html"
assert_no_grep 'default all' "$TMP/help.html"

# One time reference: a gap's start from the trace's start plus the
# trace's first event (every table of the export, by SQL) is its time on
# the trace's clock, in every row
"$GPUPROF" breakdown -V gaps -f tsv "$TMP/g.sqlite" >"$TMP/gaps.tsv" 2>/dev/null || fail "breakdown gaps"
python3 - "$TMP/g.sqlite" "$TMP/gaps.tsv" <<'PY' || fail "time points: not from the trace's first event"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
first = None
for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
    cols = [c[1] for c in db.execute("PRAGMA table_info(%s)" % t)]
    if "start" in cols:
        v = db.execute("SELECT min(start) FROM %s" % t).fetchone()[0]
        if v is not None and (first is None or v < first):
            first = v
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
h = rows[0]
rel, ab = h.index("Start from trace start (ns)"), h.index("Start on the trace's clock (ns)")
assert len(rows) > 1
for r in rows[1:]:
    assert int(r[ab]) - int(r[rel]) == first, (r, first)
print("gaps from", first, "ok")
PY
# kernel names: labels in the table, full names in csv (--base, --full-names choose)
"$GPUPROF" summary -s gpu -f tsv --base "$TMP/g.json" >"$TMP/base.tsv" 2>/dev/null || fail "summary --base"
"$GPUPROF" summary -s gpu "$TMP/g.json" >"$TMP/t.table" 2>/dev/null || fail "summary"
"$GPUPROF" summary -s gpu -f tsv "$TMP/g.json" >"$TMP/full.tsv" 2>/dev/null || fail "summary -f tsv"
"$GPUPROF" summary -s gpu --full-names "$TMP/g.json" >"$TMP/full.table" 2>/dev/null || fail "summary --full-names"
for n in $(cut -f10 "$TMP/base.tsv" | sed 1d | grep -v '^\[' | head -5); do
	grep -q " $n\$" "$TMP/t.table" || fail "summary's table does not show the label $n"
done
cut -f10 "$TMP/full.tsv" | sed 1d | grep -q '(' || fail "summary -f tsv: no full name"
