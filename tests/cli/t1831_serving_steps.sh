# Serving steps (issue 34, item 7; analysis/serving.h, docs/correlation.md
# "Serving steps"): breakdown --view steps and info's steady state.
# gpuprof-gen --annot serving (tools/gen/annot.c, truth by construction):
# a prefill step of 4 requests and 2048 tokens (800 us), 8 decode steps of
# 4 requests and 4 tokens, the first 300 us (warm-up: above 1.5 x the
# decode median), the others 100 us (step 5 also holds an SGLang
# step[DECODE bs=4] marker: the same step), one mixed step (1 prefill of
# 512 tokens + 3 decode, 250 us).  The real vLLM and SGLang traces and the
# B200 vLLM trace (newer execute_context_ markers): an oracle reads the raw
# JSON (outermost step markers with kernels launched inside them, their
# kind, requests and tokens from the marker texts, the kernels' window).
command -v python3 >/dev/null || skip "python3 not installed"
s=$TMP/serving.json
run_ok "$GEN" --format kineto --annot serving -o "$s"
run_ok "$GPUPROF" breakdown --view steps -f csv --no-header "$s"
assert_eq "$(cut -d, -f1-6,8,10,11 "$TMP/out")" '"0","prefill","4","2048","-","2","800000","391","no"
"1","decode","4","4","-","1","300000","75000","yes"
"2","decode","4","4","-","2","100000","25000","no"
"3","decode","4","4","-","2","100000","25000","no"
"4","decode","4","4","-","2","100000","25000","no"
"5","decode","4","4","-","2","100000","25000","no"
"6","decode","4","4","-","2","100000","25000","no"
"7","decode","4","4","-","2","100000","25000","no"
"8","decode","4","4","-","2","100000","25000","no"
"9","mixed","4","515","-","1","250000","485","no"' "breakdown --view steps"
run_ok "$GPUPROF" info "$s"
assert_grep '^decode steady +100 us a step, 25 us a token \(7 of 8 steps; 1 warm-up\)$' "$TMP/out"
assert_grep '^prefill steady +800 us a step, 391 ns a token \(1 of 1 step; 0 warm-up\)$' "$TMP/out"
assert_grep '^decode steps +8, 15 kernels,' "$TMP/out"
run_ok "$GPUPROF" info -f json "$s"
assert_eq "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["serving_steps"]["decode"]
print(d["steps"], d["warmup"], d["median_ns"], d["ns_per_token"])' "$TMP/out")" "8 1 100000 25000" "info json"
expect_exit 2 "$GPUPROF" breakdown --view step "$s"
assert_grep "phases, steps, graphs or comm, not 'step'" "$TMP/err"
# no step, no replay of a known batch size: no rows, no lines
run_ok "$GEN" --format kineto -n 50 -o "$TMP/plain.json"
run_ok "$GPUPROF" breakdown --view steps -f csv --no-header "$TMP/plain.json"
assert_eq "$(cat "$TMP/out")" "" "no steps"

need_testdata
for f in verdicts/tl2/inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz \
	verdicts/tl2/inference__sglang_prefilldecode__sglang_Qwen3-8B_prefilldecode.json.gz \
	verdicts/tracelens/inference/vllm_decode_full/graph_execution.json.gz \
	tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz \
	verdicts/tracelens/b200/eager_trace.json.gz; do
	[ -f "$TESTDATA/$f" ] || skip "$TESTDATA/$f not found"
	run_ok "$GPUPROF" breakdown --view steps -f csv --no-header "$TESTDATA/$f"
	cut -d, -f1-4,6,8 "$TMP/out" | tr -d '"' >"$TMP/got"
	python3 - "$TESTDATA/$f" >"$TMP/want" <<'PY' || fail "$f: the oracle failed"
import gzip, json, re, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
old = re.compile(r"execute_(\d+)_context_(\d+)\(.*_generation_(\d+)\(")
new = re.compile(r"execute_context_(\d+)\((\d+)[^)]*\)_generation_(\d+)\((\d+)")
sgl = re.compile(r"step\[(EXTEND|PREFILL|DECODE|MIXED)([^\]]*)\]")
def parse(name):   # kind, requests, tokens (None: not recorded)
    m = old.match(name)
    if m:
        p, d = int(m[2]), int(m[3])
        return p, d, p + d, int(m[1])
    m = new.match(name)
    if m:
        p, d = int(m[1]), int(m[3])
        return p, d, p + d, int(m[2]) + int(m[4])
    m = sgl.match(name)
    if m:
        kind = {"EXTEND": "prefill", "PREFILL": "prefill", "DECODE": "decode", "MIXED": "mixed"}[m[1]]
        bs, toks = re.search(r" bs=(\d+)", m[2]), re.search(r" toks=(\d+)", m[2])
        return kind, None, bs and int(bs[1]), toks and int(toks[1])
    return None
def kind(p, d):
    return "mixed" if p and d else "prefill" if p else "decode" if d else None
marks = []
for e in ev:
    if e.get("cat") == "user_annotation" and parse(e["name"]):
        a, b, req, tok = parse(e["name"])
        k = a if isinstance(a, str) else kind(a, b)
        if k:
            marks.append((e, k, req, tok))
def inside(o, i):
    return o["tid"] == i["tid"] and o["ts"] <= i["ts"] and i["ts"] + i.get("dur", 0) <= o["ts"] + o["dur"]
outer = [m for m in marks if not any(n is not m and inside(n[0], m[0]) for n in marks)]
launch = {e["args"]["correlation"]: e for e in ev if e.get("cat") in ("cuda_runtime", "cuda_driver")
          and "correlation" in e.get("args", {})}
rows = []
for m in outer:
    req, tok = m[2], m[3]
    for n in marks:   # what the outer marker leaves unsaid, an inner one may say
        if n is not m and inside(m[0], n[0]):
            req = req if req is not None else n[2]
            tok = tok if tok is not None else n[3]
    ks = [k for k in ev if k.get("cat") == "kernel" and k["args"].get("correlation") in launch
          and inside(m[0], launch[k["args"]["correlation"]])]
    if not ks:
        continue
    t0 = min(round(k["ts"] * 1000) for k in ks)
    t1 = max(round((k["ts"] + k["dur"]) * 1000) for k in ks)
    rows.append((t0, m[1], req, tok, len(ks), t1 - t0))
rows.sort()
for i, (t0, k, req, tok, n, t) in enumerate(rows):
    print(",".join(str(x) for x in (i, k, "-" if req is None else req, "-" if tok is None else tok, n, t)))
PY
	# the times may differ by the rounding of the microsecond timestamps
	python3 - "$TMP/got" "$TMP/want" <<'PY' || fail "$f: steps differ from the oracle: $(cat "$TMP/got") vs $(cat "$TMP/want")"
import sys
got = [l.split(",") for l in open(sys.argv[1]).read().split()]
want = [l.split(",") for l in open(sys.argv[2]).read().split()]
assert len(got) == len(want) and want, (got, want)
for g, w in zip(got, want):
    assert g[:5] == w[:5], (g, w)
    assert abs(int(g[5]) - int(w[5])) <= 2, (g, w)
PY
done
