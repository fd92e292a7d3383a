# summary --by iter groups the kernels by the run's steps (issue 33): a
# kernel is in the step its launch lies in, from ProfilerStep#N's start to
# the next step's start (the last step: every later launch), as advise's
# median step and GPU span count them.  An oracle reads the raw JSON:
# per step, the kernels whose launch (the runtime event with the same
# correlation id) starts in it, their count and summed time.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
set -- "$TESTDATA"/kineto_tb_plugin/resnet50_num_workers_0/*.json.gz \
	"$TESTDATA"/kineto_tb_plugin/resnet50_num_workers_4/*.json.gz \
	"$TESTDATA"/verdicts/param/dlrm_kineto_8rank/worker0_*.json.gz
for f in "$@"; do
	[ -f "$f" ] || fail "missing $f"
	python3 - "$f" >"$TMP/want" <<'PY' || fail "oracle on $f"
import bisect, gzip, json, re, sys
ev = json.load(gzip.open(sys.argv[1], "rt"))["traceEvents"]
starts, launch, kern = {}, {}, []
for e in ev:
    if e.get("ph") != "X":
        continue
    c, t0 = e.get("cat", "").lower(), round(e["ts"] * 1000)
    m = re.fullmatch(r"ProfilerStep#(\d+)", e.get("name", ""))
    if m and c in ("cpu_op", "user_annotation", "operator"):
        starts.setdefault(int(m.group(1)), t0)
    elif c in ("cuda_runtime", "runtime") and "correlation" in e.get("args", {}):
        launch[e["args"]["correlation"]] = t0
    elif c == "kernel":
        kern.append((e["args"].get("correlation"), round(e.get("dur", 0) * 1000)))
v = sorted((t, n) for n, t in starts.items())
at = [t for t, _ in v]
count, total = {}, {}
for corr, dur in kern:
    if corr not in launch:
        continue
    i = bisect.bisect_right(at, launch[corr]) - 1
    if i >= 0:
        n = v[i][1]
        count[n] = count.get(n, 0) + 1
        total[n] = total.get(n, 0) + dur
for n in sorted(count):
    print("iteration %d %d %d" % (n, count[n], total[n]))
PY
	[ -s "$TMP/want" ] || fail "the oracle finds no step in $f"
	run_ok "$GPUPROF" summary --by iter --section gpu -f json "$f"
	python3 - "$TMP/out" >"$TMP/got" <<'PY' || fail "summary's json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for r in sorted((r for r in rows if r["name"]), key=lambda r: int(r["name"].split()[1])):
    print("%s %d %d" % (r["name"], r["calls"], r["total_ns"]))
PY
	diff "$TMP/want" "$TMP/got" >"$TMP/d" || { cat "$TMP/d"; fail "summary --by iter's steps on $f"; }
done
