# diff on the shared pairs hta/trace_diff (control/test) and
# hta/trace_compare (base/test) (issue 14): per kernel name, the calls and
# times of each run, and which kernels are new or gone, agree with a count
# Python makes over the raw JSON here (kernel events, durations in
# microseconds as written, exact decimal arithmetic, half up).
need_testdata
cat >"$TMP/check.py" <<'PY'
import decimal, gzip, json, sys

D = decimal.Decimal

def ns(us):
    return max(0, int((D(us) * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP)))

def kernels(path):
    with gzip.open(path, "rb") as f:
        doc = json.loads(f.read(), parse_float=D)
    events = doc if isinstance(doc, list) else doc["traceEvents"]
    out = {}
    for e in events:
        if e.get("ph") == "X" and "ts" in e and e.get("cat") in ("kernel", "Kernel"):
            c = out.setdefault(e.get("name") or "(none)", [0, 0])
            c[0] += 1
            c[1] += ns(e.get("dur", 0))
    return out

base, test = kernels(sys.argv[1]), kernels(sys.argv[2])
rows = {}
for line in open(sys.argv[3]):
    f = line.rstrip("\n").split("\t")
    if f[0] == "group":
        rows[f[23]] = f
bad = 0
for name in sorted(set(base) | set(test)):
    b, t = base.get(name, [0, 0]), test.get(name, [0, 0])
    status = "new" if not b[0] else "gone" if not t[0] else "same" if b == t else "changed"
    want = [str(b[1]), str(t[1]), str(b[0]), str(t[0]), status]
    r = rows.pop(name, None)
    got = [r[2], r[3], r[11], r[12], r[1]] if r else None
    if got != want:
        print("%s: diff says %s, python %s" % (name[:100], got, want))
        bad += 1
for name in rows:
    print("%s: a row python does not know" % name[:100])
    bad += 1
print("%d kernel names, %d in base, %d in test" % (len(base) + len(test) - len(set(base) & set(test)), len(base), len(test)))
sys.exit(1 if bad else 0)
PY
for pair in trace_diff/control/control.json.gz:trace_diff/test/test.json.gz \
	trace_compare/base/base.json.gz:trace_compare/test/test.json.gz; do
	b=$TESTDATA/hta/${pair%%:*} t=$TESTDATA/hta/${pair#*:}
	run_ok "$GPUPROF" diff -f tsv --no-header "$b" "$t"
	python3 "$TMP/check.py" "$b" "$t" "$TMP/out" >"$TMP/py" 2>&1 || { cat "$TMP/py" >&2; fail "$pair: diff and python disagree"; }
	cat "$TMP/py"
	# the totals row holds every kernel's time
	awk -F'\t' '$1 == "group" { b += $3; t += $4 } $1 == "total" { tb = $3; tt = $4 }
		END { exit !(b == tb && t == tt) }' "$TMP/out" || fail "$pair: the total row is not the sum of the groups"
done
# trace_diff's GEMMs moved off tensor cores: the control run's are
# cutlass TF32 tensor-op kernels (s1688, an A100), the test run's
# volta_sgemm kernels on CUDA cores; the tc columns say so
run_ok "$GPUPROF" diff -f tsv --no-header "$TESTDATA/hta/trace_diff/control/control.json.gz" \
	"$TESTDATA/hta/trace_diff/test/test.json.gz"
assert_grep '^group	new	0	[0-9]+	.*	na	no	volta_sgemm_128x32_nt$' "$TMP/out"
assert_grep '^group	gone	[0-9]+	0	.*	yes	na	void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>' "$TMP/out"
