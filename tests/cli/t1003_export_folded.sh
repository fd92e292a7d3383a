# tier: slow (128 s in make check before the tiers, on the busy 2-core machine)
# gpuprof export -f folded: every line is "frame;frame;... weight" with
# escaped frames; the weights sum exactly to the total kernel time (summed
# here from the raw Kineto JSON in Python, and with SQL from nsys and
# nvprof databases), to the total FLOPs of report's flops column with
# --weight flops, and to the GPUs' idle time (merged from the raw events
# here) with --weight idle.
command -v python3 >/dev/null || skip "python3 not installed"
lines_ok() { # FILE: well-formed folded lines (frames may hold spaces: the weight is after the last)
	python3 - "$1" <<'PY' || fail "$1: malformed folded line"
import re, sys
for line in open(sys.argv[1]):
    assert re.fullmatch(r"[^;\n]+(;[^;\n]+)* [1-9][0-9]*\n", line), line
PY
}
total() { python3 -c "import sys; print(sum(int(l.rsplit(' ', 1)[1]) for l in open(sys.argv[1])))" "$1"; }
kineto_sums() { # JSON: "kernel_ns idle_ns" from the raw events
	python3 - "$1" <<'PY'
import gzip, json, sys
from decimal import Decimal
p = sys.argv[1]
d = json.load((gzip.open if p.endswith(".gz") else open)(p, "rt"), parse_float=Decimal)
ev = d["traceEvents"] if isinstance(d, dict) else d
ns = lambda v: int(Decimal(v) * 1000)
kern, busy = 0, {}
for e in ev:
    if e.get("ph") != "X" or e.get("cat") not in ("kernel", "Kernel", "gpu_memcpy", "gpu_memset", "Memcpy", "Memset"):
        continue
    s = ns(e["ts"]); t = s + max(0, ns(e.get("dur", 0)))
    if e["cat"] in ("kernel", "Kernel"):
        kern += t - s
    dev = e.get("args", {}).get("device", e["pid"])
    busy.setdefault(dev, []).append((s, t))
idle = 0
for v in busy.values():
    v.sort(); end = v[0][1]
    for s, t in v[1:]:
        if s > end: idle += s - end
        end = max(end, t)
print(kern, idle)
PY
}
run_ok "$GEN" --format kineto -n 2000 -o "$TMP/g.json"
files="$TMP/g.json"
[ -n "$TESTDATA" ] && [ -d "$TESTDATA" ] && files="$files $TESTDATA/param/resnet_kineto.json.gz $TESTDATA/hta/trace_filter/sampled_rank-0.json.gz"
for f in $files; do
	read -r kern idle <<EOF2
$(kineto_sums "$f")
EOF2
	run_ok "$GPUPROF" export -f folded -o "$TMP/t.folded" --force "$f"
	lines_ok "$TMP/t.folded"
	assert_eq "$(total "$TMP/t.folded")" "$kern" "$f: folded time != kernel time"
	run_ok "$GPUPROF" export -f folded --weight idle -o "$TMP/i.folded" --force "$f"
	lines_ok "$TMP/i.folded"
	assert_eq "$(total "$TMP/i.folded")" "$idle" "$f: folded idle != GPU idle time"
	run_ok "$GPUPROF" export -f folded --weight flops "$f"
	lines_ok "$TMP/out"
	flops=$(total "$TMP/out")
	run_ok "$GPUPROF" report -f csv -c flops "$f"
	want=$(python3 -c "import csv,sys; print(sum(int(r['FLOPs']) for r in csv.DictReader(open(sys.argv[1])) if r['FLOPs'] not in ('', 'na')))" "$TMP/out")
	assert_eq "$flops" "$want" "$f: folded FLOPs != report's FLOPs"
done
# SQLite inputs: the total from SQL
for f in nsys nvprof; do
	run_ok "$GEN" --format $f -n 2000 -o "$TMP/g.$f"
	run_ok "$GPUPROF" export -f folded "$TMP/g.$f"
	lines_ok "$TMP/out"
	tab=CUPTI_ACTIVITY_KIND_KERNEL
	[ $f = nvprof ] && tab=CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
	assert_eq "$(total "$TMP/out")" "$(sqlite3 "$TMP/g.$f" "select sum(end - start) from $tab")" "$f: folded != SQL"
done
# hostile names: ';', ' ', '%' and a newline stay inside their frame; a
# space is written as it is (the weight is after the last one)
cat >"$TMP/h.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1.000, "dur": 1.000, "args": {"correlation": 5}},
 {"ph": "X", "cat": "cpu_op", "name": "my;op 1", "pid": 1, "tid": 1, "ts": 0.500, "dur": 3.000, "args": {"External id": 9}},
 {"ph": "X", "cat": "kernel", "name": "k;x%\nz", "pid": 0, "tid": 7, "ts": 2.000, "dur": 1.500, "args": {"correlation": 5, "device": 0, "stream": 7}}
]}
JSON
run_ok "$GPUPROF" export -f folded "$TMP/h.json"
lines_ok "$TMP/out"
assert_eq "$(cat "$TMP/out")" "my%3Bop 1;k%3Bx%25%0Az 1500"
