# gpuprof diff's table (issue 35, "diff's table: the same displayed name on
# several rows"): HTA's control and test runs hold several kernels of one
# short name (CatArrayBatchedCopy, vectorized_elementwise_kernel<...>).
# The table tells them apart ("#2", "#3" in row order, a line saying so)
# and folds the groups within noise into one count line; --all shows them.
# Checked against the csv rows (the same rows, in the same order, never
# folded) and their full names (csv's default): each "#k" row is another
# kernel than the rows of its short name above it.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
T="$TESTDATA/hta/trace_diff"
[ -d "$T" ] || skip "$T missing"
B="$T/control/control.json.gz"; X="$T/test/test.json.gz"
run_ok "$GPUPROF" diff -w 1000 "$B" "$X"; cp "$TMP/out" "$TMP/table"
run_ok "$GPUPROF" diff -w 1000 --all "$B" "$X"; cp "$TMP/out" "$TMP/all"
run_ok "$GPUPROF" diff -f csv --base "$B" "$X"; cp "$TMP/out" "$TMP/csv"
run_ok "$GPUPROF" diff -f csv "$B" "$X"; cp "$TMP/out" "$TMP/full"
python3 - "$TMP" <<'PY' || fail "the table differs from the csv rows"
import csv, re, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/csv")))
full = [r["Name"] for r in csv.DictReader(open(d + "/full"))]
noise = sum(1 for r in rows if r["Kind"] == "group" and r["Verdict"] == "within noise")
assert noise > 0

def table(path):
    lines = open(path).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Status "))
    col = lines[start].index("Name")
    body = [l for l in lines[start + 1:] if not l.startswith(("#N:", str(noise) + " group"))]
    return [l[col:] for l in body], lines

names, lines = table(d + "/table")
assert lines[-1] == "%d groups within noise not shown (--all shows them)" % noise, lines[-1]
assert "#N: another kernel of the same short name (--full-names shows the names in full)" in lines
assert len(names) == len(rows) - noise and len(set(names)) == len(names), "a name shown twice"
all_names, all_lines = table(d + "/all")
assert len(all_names) == len(rows) and not any("not shown" in l for l in all_lines)
# each row is the csv's row, its short name numbered by its rank among its twins
seen = {}
for shown, r, f in zip(all_names, rows, full):
    seen.setdefault(r["Name"], []).append(f)
    k = len(seen[r["Name"]])
    assert shown == (r["Name"] if k == 1 else "%s #%d" % (r["Name"], k)), (shown, r["Name"])
    assert k == 1 or f not in seen[r["Name"]][:-1], "a #k row that is no other kernel: " + f
assert any(len(v) > 1 for v in seen.values())
PY
