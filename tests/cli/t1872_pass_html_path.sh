# Passes from annotations (attn(F), mlp(B), mlp(W)...) in the critical
# path and the HTML page (issue 34, item 6).  gpuprof-gen --annot passes
# (tools/gen/annot.c): kernels launched inside attn(F), mlp(B), mlp(W),
# dispatch(fwd), combine(B) take that pass, the aten::mm inside mlp(W)
# keeps its op's (fprop), router_B and optimizer name none.  The oracle
# reads the raw JSON: each kernel's pass (an enclosing op's fprop first,
# else the innermost annotation naming a pass) and its innermost
# annotation; every critical-path row of GPU work must have the pass of
# the kernels it sums, every other row the one its layer path names.  The
# page's critical rows carry the same passes, and its communication per
# layer and pass those of the comm kernels.
command -v python3 >/dev/null || skip "python3 not installed"
k=$TMP/passes.json
run_ok "$GEN" --format kineto --annot passes -o "$k"
run_ok "$GPUPROF" breakdown --view critical -f csv --no-header "$k"
tr -d '"' <"$TMP/out" | awk -F, '$1 == "all"' >"$TMP/crit"
cat >"$TMP/oracle.py" <<'PY'
import json, re
GRAMMAR = re.compile(r".+\((F|B|W|(?i:fwd|forward|bwd|backward|wgrad))\)$")
WORD = {"f": "fprop", "fwd": "fprop", "forward": "fprop", "b": "bprop", "bwd": "bprop",
        "backward": "bprop", "w": "wgrad", "wgrad": "wgrad"}
def name_pass(name):
    m = GRAMMAR.match(name)
    return WORD[m.group(1).lower()] if m else ""
def short(name):
    """a kernel's function name: no return type, template arguments, parameters or namespaces"""
    s = (name[5:] if name.startswith("void ") else name).replace("(anonymous namespace)", "anon")
    s = re.split(r"[<(]", s)[0]
    return s.split("::")[-1]
def kernels(path):
    """(label, innermost annotation, pass, is comm) per kernel"""
    ev = json.load(open(path))["traceEvents"]
    ranges = [e for e in ev if e.get("cat") in ("user_annotation", "cpu_op")]
    launch = {e["args"]["correlation"]: e for e in ev if e.get("cat") == "cuda_runtime"}
    out = []
    for kr in (e for e in ev if e.get("cat") == "kernel"):
        l = launch[kr["args"]["correlation"]]
        around = sorted((r for r in ranges if r["tid"] == l["tid"] and r["ts"] <= l["ts"]
                         and l["ts"] + l["dur"] <= r["ts"] + r["dur"]), key=lambda r: r["ts"])
        ops = [r for r in around if r["cat"] == "cpu_op"]
        annots = [r["name"] for r in around if r["cat"] == "user_annotation" and not r["name"].startswith("ProfilerStep")]
        p = "fprop" if ops else next((name_pass(a) for a in reversed(annots) if name_pass(a)), "")
        label = ops[-1]["name"].replace("aten::", "") if ops else short(kr["name"])
        out.append((label, annots[-1] if annots else "", p, "nccl" in kr["name"]))
    return out
PY
python3 - "$k" "$TMP/crit" "$TMP/oracle.py" <<'PY' || fail "critical path: a row's pass differs from its kernels' (raw JSON)"
import sys
exec(open(sys.argv[3]).read())
ks = kernels(sys.argv[1])
checked = 0
for line in open(sys.argv[2]):
    it, cause, op, layer, ns, share, p = line.rstrip("\n").split(",")
    leaf = layer.split("/")[-1] if layer != "(none)" else ""
    if cause in ("gpu_compute", "gpu_comm"):
        want = {kp for (label, a, kp, comm) in ks if label == op and a == leaf}
        assert len(want) == 1, (line, want)
        assert p == want.pop(), line
        checked += 1
    else:
        assert p == (name_pass(leaf) if leaf else ""), line
assert checked >= 10, checked
PY
# the passes by construction: mm in mlp(W) keeps fprop, its GEMM wgrad
assert_grep '^all,gpu_compute,mm,block_0/mlp\(W\),[0-9]+,[0-9.]+,fprop$' "$TMP/crit"
assert_grep '^all,gpu_compute,ampere_[^,]*,block_0/mlp\(W\),[0-9]+,[0-9.]+,wgrad$' "$TMP/crit"
assert_grep '^all,gpu_comm,[^,]*,block_0/combine\(B\),[0-9]+,[0-9.]+,bprop$' "$TMP/crit"
assert_grep '^all,gpu_compute,vectorized_elementwise_kernel,block_0/router_B,[0-9]+,[0-9.]+,$' "$TMP/crit"

# the page: the critical rows' passes as breakdown's; the communication
# per layer and pass as the comm kernels say
run_ok "$GPUPROF" html -o "$TMP/p.html" "$k"
python3 - "$TMP/p.html" "$TMP/crit" "$k" "$TMP/oracle.py" "$TOP/tests/tools" <<'PY' || fail "html: passes differ"
import sys
sys.path.insert(0, sys.argv[5])
exec(open(sys.argv[4]).read())
from html_job_oracle import page_data
inp = page_data(sys.argv[1])["inputs"][0]
crit = {}
for line in open(sys.argv[2]):
    it, cause, op, layer, ns, share, p = line.rstrip("\n").split(",")
    crit[(cause, "" if op == "(none)" else op, "" if layer == "(none)" else layer)] = p
rows = inp["critical"]["rows"]
assert rows and all(crit[(r["cause"], r["op"], r["layer"])] == r["pass"] for r in rows), rows
want = {}
for label, a, p, comm in kernels(sys.argv[3]):
    if comm:
        want.setdefault("block_0/" + a, set()).add(p)
got = {r["layer"]: r["pass"] for r in inp["comm_layers"]}
assert set(got) == set(want) and all(want[l] == {got[l]} for l in got), (got, want)
PY
if command -v chromium >/dev/null && { [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; }; then
	open_page "$TMP/p.html"
	python3 - "$TMP/dom" <<'PY' || fail "the drawn page: no Pass column in the critical path or the communication per layer"
import re, sys
dom = open(sys.argv[1]).read()
for tid in ("table-critical", "table-comm-layers"):
    part = dom.split('id="%s"' % tid)[1].split("</table>")[0]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", part)
    assert any(h.startswith("Pass") for h in heads), (tid, heads)
    assert "wgrad" in part or tid == "table-comm-layers", tid
    assert "bprop" in part, tid
PY
fi
exit 0
