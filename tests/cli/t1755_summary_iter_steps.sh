# summary --by iter has a row per step of the run (issue 33), steps
# without kernels too: the mi250 minitoy trace marks ProfilerStep#1 and #2
# and launches every kernel in #1, so two rows, the second of 0 calls.  An
# oracle reads the raw JSON: the steps (ProfilerStep#N on the host, by
# start), each kernel in the step its launch (the runtime event of its
# correlation id) lies in; per step its kernel count, summed kernel time,
# step time (its start to the next one's; the last: to its range's end or
# its last kernel's end, the later) and GPU span (its kernels' first start
# to last end).  summary -f csv's rows must be those; advise's step count
# and median step the oracle's; -f json and the table the same rows.  A
# window of one step (--iter N) has that step, as long as in the whole
# run (to the next step's start, also where the cut drops the next step:
# on a generated Kineto trace it ended at its own work's end).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
set -- "$TESTDATA"/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
	"$TESTDATA"/kineto_tb_plugin/resnet50_num_workers_0/*.json.gz
cat >"$TMP/oracle.py" <<'PY'
import bisect, gzip, json, re, statistics, sys
op = gzip.open if sys.argv[1].endswith(".gz") else open
ev = json.load(op(sys.argv[1], "rt"))["traceEvents"]
ns = lambda x: round(x * 1000)
steps, launch, kern = {}, {}, []
for e in ev:
    if e.get("ph") != "X":
        continue
    c, t0 = e.get("cat", "").lower(), ns(e["ts"])
    m = re.fullmatch(r"ProfilerStep#(\d+)", e.get("name", ""))
    if m and c in ("cpu_op", "user_annotation", "operator"):
        steps.setdefault(int(m.group(1)), (t0, t0 + ns(e["dur"])))
    elif c in ("cuda_runtime", "runtime") and "correlation" in e.get("args", {}):
        launch[e["args"]["correlation"]] = t0
    elif c == "kernel":
        kern.append((e["args"].get("correlation"), t0, t0 + ns(e.get("dur", 0))))
v = sorted((t, e, n) for n, (t, e) in steps.items())
at = [t for t, _, _ in v]
rows = {n: [0, 0, None, None] for _, _, n in v}   # count, time, first start, last end
for corr, s, e in kern:
    if corr not in launch:
        continue
    i = bisect.bisect_right(at, launch[corr]) - 1
    if i >= 0:
        r = rows[v[i][2]]
        r[0] += 1
        r[1] += e - s
        r[2] = s if r[2] is None else min(r[2], s)
        r[3] = e if r[3] is None else max(r[3], e)
lens = []
for i, (t, end, n) in enumerate(v):
    r = rows[n]
    step = at[i + 1] - t if i + 1 < len(v) else max(end, r[3] or end) - t
    lens.append(step)
    span = r[3] - r[2] if r[0] else "-"
    print("iteration %d %d %d %d %s" % (n, r[0], r[1], step, span))
print("steps %d median %d" % (len(v), statistics.median(lens)))
PY
for f in "$@"; do
	[ -f "$f" ] || fail "missing $f"
	python3 "$TMP/oracle.py" "$f" >"$TMP/want" || fail "oracle on $f"
	[ "$(grep -c ^iteration "$TMP/want")" -ge 2 ] || fail "the oracle finds under 2 steps in $f"
	run_ok "$GPUPROF" summary --by iter --section gpu -f csv --no-header "$f"
	cp "$TMP/out" "$TMP/csv"
	# fields: 4 calls, 3 total, 10 step, 11 GPU span, 12 name
	tr -d '"' <"$TMP/csv" | awk -F, '{print $12, $4, $3, $10, $11}' | sort -k2n >"$TMP/got"
	run_ok "$GPUPROF" advise "$f"
	python3 - "$TMP/out" >>"$TMP/got" <<'PY' || fail "advise's header"
import re, sys
m = re.search(r"(\d+) steps?, median ([\d.]+) (ns|us|ms|s)\b", open(sys.argv[1]).read())
assert m, "advise names no steps"
print("steps", m.group(1), "median", m.group(2), m.group(3))
PY
	# advise prints its median in human units: compare it at its precision
	python3 - "$TMP/want" "$TMP/got" <<'PY' || fail "summary --by iter's steps on $f"
import sys
want, got = [l.split() for l in open(sys.argv[1])], [l.split() for l in open(sys.argv[2])]
assert len(want) == len(got), (want, got)
for w, g in zip(want, got):
    if w[0] == "steps":
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[g[4]]
        assert w[1] == g[1], ("step count", w, g)
        assert abs(int(w[3]) - float(g[3]) * scale) <= scale / 1000, ("median step", w, g)
    else:
        assert w == g, ("row", w, g)
PY
	# json and table: the same rows
	run_ok "$GPUPROF" summary --by iter --section gpu -f json "$f"
	python3 - "$TMP/out" "$TMP/csv" <<'PY' || fail "summary --by iter's json differs from its csv on $f"
import csv, json, sys
js = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cs = list(csv.reader(open(sys.argv[2])))
assert len(js) == len(cs), (len(js), len(cs))
for j, c in zip(js, cs):
    assert (j["name"], j["calls"], j["total_ns"], j["step_ns"]) == (c[11], int(c[3]), int(c[2]), int(c[9])), (j, c)
    assert j["gpu_span_ns"] == (int(c[10]) if c[10] != "-" else None), (j, c)
    assert (j["avg_ns"] is None) == (j["calls"] == 0), j
PY
	run_ok "$GPUPROF" summary --by iter --section gpu "$f"
	assert_eq "$(grep -c 'iteration [0-9]*$' "$TMP/out")" "$(grep -c ^iteration "$TMP/want")" "table rows of $f"
	assert_grep ' Step +GPU span Name$' "$TMP/out"
	# minitoy's second step: no kernel, its own time (49.073 us)
	case $f in *minitoy*) assert_grep '^iteration 2 0 0 49073 -$' "$TMP/want" ;; esac
done
# --iter N: one step, the whole run's (summary's row and advise's median)
"$GEN" --format kineto -n 200 --seed 7 --streams 3 -o "$TMP/g.json" >/dev/null || fail "gpuprof-gen"
python3 "$TMP/oracle.py" "$TMP/g.json" >"$TMP/want" || fail "oracle on the generated trace"
[ "$(grep -c ^iteration "$TMP/want")" -ge 3 ] || fail "the generated trace has under 3 steps"
grep ^iteration "$TMP/want" | while read -r _ n calls total step span; do
	run_ok "$GPUPROF" summary --by iter --section gpu -f csv --no-header --iter "$n" "$TMP/g.json"
	assert_eq "$(tr -d '"' <"$TMP/out" | cut -d, -f4,3,10,11,12)" "$total,$calls,$step,$span,iteration $n" \
		"summary --by iter --iter $n"
	run_ok "$GPUPROF" advise --iter "$n" "$TMP/g.json"
	python3 - "$TMP/out" "$step" <<'PY' || fail "advise --iter $n: not the step's time $step"
import re, sys
m = re.search(r"(\d+) steps?, median ([\d.]+) (ns|us|ms|s)\b", open(sys.argv[1]).read())
scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(3)]
assert m.group(1) == "1" and abs(float(m.group(2)) * scale - int(sys.argv[2])) <= scale / 1000, m.group(0)
PY
done || exit 1
