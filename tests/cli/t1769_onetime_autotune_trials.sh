# cudnn.benchmark's trial runs are a one-time autotuning cost (issue 33
# item 5: autotuning recognised from what the trace records).  DLProf's
# w_relu export (nsys, RTX 2070): the network's two conv2d calls (PyProf
# markers {'mod': ..., 'op': 'conv2d'}) ran 24 and 22 kernels each, of
# implicit and explicit GEMM, FFT and Winograd algorithms: cuDNN timing
# every algorithm once before choosing one.  The oracle reads the raw
# SQLite: the kernels launched inside each conv2d marker on its thread and
# the algorithm families among them.  advise must tell one one-time
# autotune finding (no per-step figure, ranked first among the savings)
# whose time is the trials': under the conv calls' kernel time less each
# call's last convolution kernel (the algorithm it kept), and at least a
# quarter of it; its evidence names only kernels those calls ran.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/nsys/dlprof_rtx2070_2022.1/w_relu_nsys_profile.sqlite
[ -e "$F" ] || skip "dlprof w_relu trace not in testdata"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle"
import ast, re, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
S = dict(db.execute("SELECT id, value FROM StringIds"))
convs = []
for s, e, text, tid, g in db.execute("SELECT start, end, text, textId, globalTid FROM NVTX_EVENTS WHERE end IS NOT NULL"):
    text = text or S.get(tid)
    if text and text.startswith("{'mod'") and ast.literal_eval(text)["op"] == "conv2d":
        convs.append((s, e, g))
assert len(convs) == 2, convs
calls = {c: (s, g) for s, c, g in db.execute("SELECT start, correlationId, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME")}
fam = re.compile(r"convolve_sgemm|scudnn|fft2d|winograd|cgemm|gemmSN", re.I)
alg = re.compile(r"convolve_sgemm|scudnn", re.I)
names, trial_cap = set(), 0
for s, e, g in convs:
    ks = sorted((ks, ke, S[n]) for ks, ke, n, c in db.execute(
        "SELECT start, end, shortName, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL")
        if calls[c][1] == g and s <= calls[c][0] <= e)
    assert len(ks) >= 20, len(ks)
    families = {m.group(0).lower()[:6] for m in (fam.search(n) for _, _, n in ks) if m}
    assert len(families) >= 4, families          # several algorithms timed
    last = max(k for k in ks if alg.search(k[2]))    # the one cuDNN kept
    trial_cap += sum(b - a for a, b, _ in ks) - (last[1] - last[0])
    names |= {n for _, _, n in ks}
print(trial_cap)
print("\n".join(sorted(names)))
PY
run_ok "$GPUPROF" advise -f json "$F"
python3 - "$TMP/out" "$TMP/want" <<'PY' || fail "the autotuning trials"
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
want = open(sys.argv[2]).read().split("\n")
cap, names = int(want[0]), set(want[1:])
at = [r for r in rows if r["kind"] == "autotune"]
assert len(at) == 1, [r["kind"] for r in rows]
a = at[0]
assert a["one_time"] == 1 and a["per_step_ns"] is None, a
assert "cudnn.benchmark" in a["title"] and "profile a later step" in a["change"], a
assert 0.25 * cap <= a["involved_ns"] <= cap, (a["involved_ns"], cap)
ranked = [r for r in rows if r["saving_ns"] is not None]
assert ranked[0]["kind"] == "autotune", [r["kind"] for r in ranked]
for n in re.findall(r"(?:^|; )([A-Za-z_][A-Za-z0-9_]*) [0-9.]+ [mun]?s in [0-9]+ kernels?", a["evidence"]):
    assert n in names, (n, a["evidence"])
PY
