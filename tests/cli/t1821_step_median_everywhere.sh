# tier: slow
# One step, one median, in every command (issue 33; docs/cli.md, "the same
# trace gives the same median step in"): on every trace of testdata with
# ProfilerStep#N ranges (Kineto; testdata holds no nsys trace with
# iteration ranges), the median step of advise (its header, and
# `advise -f json --what-if`'s median_step before), ranks -f json (the
# file alone), html (the page's run_steps and its advice's step_ns) and
# diff -f json A A (the step row's medians) is one number, and the
# oracle's.  The oracle reads the raw trace (Python, json with exact
# decimals: ns-resolution traces): the steps are the ProfilerStep#N ranges
# of the process marking the most, one per number; each lasts from its
# start to the next one's, host waits included; the last one to its own
# work's end: its range's end or the end of the last kernel launched
# inside it (a runtime call of the same correlation on that process, at or
# after its start), the later.  Taken: every trace with 2 or more steps,
# and the single-step traces the verdicts name (tracelens h100 Qwen, tl2
# mi300 Qwen, the 8 DLRM rank files).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
find "$TESTDATA" -type f \( -name '*.json.gz' -o -name '*.json' \) | sort >"$TMP/all"
python3 - "$TMP/all" >"$TMP/want" <<'PY' || fail "oracle failed"
import collections, decimal, gzip, json, re, sys
named = ("verdicts/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
         "verdicts/tl2/mi300__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", "verdicts/param/dlrm_kineto_8rank/")
def oracle(path):
    try:
        d = json.load(gzip.open(path) if path.endswith(".gz") else open(path), parse_float=decimal.Decimal)
    except (ValueError, OSError, EOFError):
        return None
    ev = d.get("traceEvents") if isinstance(d, dict) else d
    if not isinstance(ev, list):
        return None
    X = [e for e in ev if isinstance(e, dict) and e.get("ph") == "X" and "ts" in e]
    steps = [e for e in X if re.fullmatch(r"ProfilerStep#[0-9]+", str(e.get("name", "")))
             and not str(e.get("cat", "")).startswith("gpu_")]
    kernels = [e for e in X if str(e.get("cat", "")).lower() == "kernel"]
    if not steps or not kernels:
        return None
    count = collections.Counter(e["pid"] for e in steps)
    pid = min(p for p, c in count.items() if c == max(count.values()))
    by = {}
    for e in steps:
        if e["pid"] == pid:
            by.setdefault(int(e["name"].split("#")[1]), e)
    st = sorted(by.values(), key=lambda e: e["ts"])
    starts = [e["ts"] for e in st]
    launch = {e["args"]["correlation"]: e for e in X
              if str(e.get("cat", "")).lower() in ("cuda_runtime", "cuda_driver", "runtime", "driver")
              and "correlation" in e.get("args", {})}
    end = st[-1]["ts"] + st[-1].get("dur", 0)
    for k in kernels:
        l = launch.get(k.get("args", {}).get("correlation"))
        if l is not None and l["pid"] == pid and l["ts"] >= starts[-1]:
            end = max(end, k["ts"] + k["dur"])
    lens = sorted([b - a for a, b in zip(starts, starts[1:])] + [end - starts[-1]])
    n = len(lens)
    med = lens[n // 2] if n % 2 else (lens[n // 2 - 1] + lens[n // 2]) / 2
    return n, med * 1000
picked = 0
for path in open(sys.argv[1]).read().split():
    o = oracle(path)
    if o and (o[0] >= 2 or any(x in path for x in named)):
        print(path, o[0], o[1])
        picked += 1
assert picked >= 8, picked
PY
[ "$(awk '$2 >= 2' "$TMP/want" | wc -l)" -ge 8 ] || fail "fewer than 8 traces with 2 or more steps in testdata"
for named in tracelens/h100/Qwen_Qwen1.5 tl2/mi300__Qwen_Qwen1.5 kineto_tb_plugin/resnet50_num_workers_0/ dlrm_kineto_8rank/worker7; do
	grep -q "$named" "$TMP/want" || fail "$named: not among the traces with steps"
done
while read -r f n med; do
	name=${f#"$TESTDATA"/}
	run_ok "$GPUPROF" advise "$f"
	sed -n 2p "$TMP/out" >"$TMP/head"
	run_ok "$GPUPROF" advise -f json --what-if cause:python=0 "$f"
	cp "$TMP/out" "$TMP/wi"
	run_ok "$GPUPROF" ranks -f json "$f"
	cp "$TMP/out" "$TMP/ranks"
	rm -f "$TMP/page.html"
	run_ok "$GPUPROF" html -o "$TMP/page.html" "$f"
	run_ok "$GPUPROF" diff -f json "$f" "$f"
	cp "$TMP/out" "$TMP/diff"
	python3 - "$n" "$med" "$TMP" <<'PY' || fail "$name: the median step differs between commands or from the oracle"
import json, re, sys
n, med, d = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
def exact(what, got, steps=None):
    assert abs(got - med) <= 1, (what, got, med)
    assert steps is None or steps == n, (what, "steps", steps, n)
m = re.search(r"; ([0-9]+) steps?, median ([0-9.]+) (ns|us|ms|s)\b", open(d + "/head").read())
assert m, open(d + "/head").read()
assert int(m[1]) == n, ("advise", m[1], n)
assert abs(float(m[2]) * UNIT[m[3]] - med) <= 0.0006 * med, ("advise", m[0], med)   # 3 decimals shown
wi = next(r for r in map(json.loads, open(d + "/wi")) if r["measure"] == "median_step")
exact("advise --what-if median_step", wi["before_ns"])
rk = [json.loads(l) for l in open(d + "/ranks")]
assert len(rk) == 1, rk
exact("ranks", rk[0]["step_median_ns"], rk[0]["steps"])
page = open(d + "/page.html").read()
rs = re.findall(r'"run_steps":\{"median":([0-9]+)', page)
assert len(rs) == 1, ("html run_steps", rs)
exact("html run_steps", int(rs[0]))
adv = re.findall(r'"steps":([0-9]+),"step_ns":([0-9.]+)', page)
assert len(adv) == 1, ("html advice", adv)
exact("html advice", float(adv[0][1]), int(adv[0][0]))
step = next(r for r in map(json.loads, open(d + "/diff")) if r["kind"] == "step")
exact("diff base", step["base_med_ns"], step["base_calls"])
exact("diff test", step["test_med_ns"], step["test_calls"])
assert step["delta_ns"] == 0, step
PY
done <"$TMP/want"
echo "$(wc -l <"$TMP/want") traces: one median step in advise, ranks, html and diff, the oracle's"
