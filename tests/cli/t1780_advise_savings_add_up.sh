# gpuprof advise: every saving is the replay of its finding's change on
# the dependency model, applied cumulatively in the order printed (issue
# 33, "a saving is a replay").  In -f json each finding's cumulative_ns is
# the replay of its change with all above it; its saving_ns must be that
# less the one above, the savings must add up to the last cumulative (the
# replay of all the changes together), and the list must be ranked
# greedily, one-time costs first and then the others (the others judged
# on the run without the one-time costs), each group non-increasing,
# except for a finding whose change only pays with the ones above it (saving above its alone_ns: the text says "the
# rest with the changes above").  The text says the same numbers.  On the
# real traces where advise had savings contradicting their ranking, and on
# ResNet, where combined CPU removals once replayed longer than fewer of
# them (negative savings).  The oracle for the replay itself is
# `advise --what-if`, parsed by its own code (gp_whatif_parse/apply): each
# finding whose change is one CPU cause removed saves alone what
# cause:NAME=0 saves, and the leading run of such findings saves together
# what their causes removed together save.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
V="$TESTDATA/verdicts"
for f in "$V"/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz \
	 "$V"/tl2/mi300__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz \
	 "$TESTDATA"/param/resnet_kineto.json.gz; do
	[ -f "$f" ] || skip "$f missing"
	run_ok "$GPUPROF" advise -f json "$f"
	cp "$TMP/out" "$TMP/adv.json"
	run_ok "$GPUPROF" advise "$f"
	python3 - "$TMP/adv.json" "$TMP/out" "$f" "$GPUPROF" <<'PY' || fail "savings of $f do not add up"
import json, re, subprocess, sys
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("saving_ns") is not None]
assert rows, "no finding with a saving"
prev = 0
for i, r in enumerate(rows):
    s, c, a = r["saving_ns"], r["cumulative_ns"], r["alone_ns"]
    assert abs((c - prev) - s) <= 0.01 * max(abs(s), 1000), (r["kind"], s, c, prev)
    # greedy within its group (one-time costs lead, then the others)
    if i and r["one_time"] == rows[i - 1]["one_time"] and s > rows[i - 1]["saving_ns"] * 1.01:
        assert s > a, ("ranked above a larger saving it does not need", r["kind"], s, a)
    prev = c
total = sum(r["saving_ns"] for r in rows)
assert abs(total - rows[-1]["cumulative_ns"]) <= 0.01 * total, (total, rows[-1]["cumulative_ns"])
# one-time costs (capture, compiling, autotuning, loading, first
# allocations) come first: the others are judged on the run without them
nonce = sum(1 for r in rows if r["one_time"])
assert all(r["one_time"] for r in rows[:nonce]), [(r["kind"], r["one_time"]) for r in rows]
assert all(r["kind"] in ("capture", "jit", "autotune", "module_load", "first_alloc") for r in rows[:nonce]), rows[:nonce]
# the first ranked saves most alone (of its group) and is its own replay
lead_group = rows[:nonce] or rows
assert abs(rows[0]["saving_ns"] - rows[0]["alone_ns"]) <= 0.01 * rows[0]["alone_ns"], rows[0]
assert max(r["alone_ns"] for r in lead_group) <= rows[0]["alone_ns"] * 1.01
# the text prints the same savings, in the same order
text = open(sys.argv[2]).read()
kinds = re.findall(r"saves:\s+about .*\[([a-z0-9_-]+)\]", text)
assert kinds == [r["kind"] for r in rows], (kinds, [r["kind"] for r in rows])
# removing work never lengthens the step
assert all(r["saving_ns"] >= 0 for r in rows), [(r["kind"], r["saving_ns"]) for r in rows]
# the replay itself, through --what-if
# (the kinds of findings about one cause are that cause's name, docs/cli.md)
causes = {k: k for k in ("dataloader", "python", "annotation", "allocator", "cuda_api", "untraced")}
def whatif(names):
    args = [sys.argv[4], "advise", "-f", "json"]
    for n in names:
        args += ["--what-if", "cause:%s=0" % n]
    out = subprocess.run(args + [sys.argv[3]], check=True, capture_output=True, text=True).stdout
    return next(m for m in map(json.loads, out.splitlines()) if m["measure"] == "gpu_span")["saving_ns"]
def near(a, b):
    return abs(a - b) <= 0.01 * max(abs(b), 1e6)
lead = []
for r in rows:
    if r["kind"] not in causes:
        break
    lead.append(causes[r["kind"]])
for r in rows:
    if r["kind"] in causes:
        w = whatif([causes[r["kind"]]])
        assert near(r["alone_ns"], w), ("alone", r["kind"], r["alone_ns"], w)
if lead:
    w = whatif(lead)
    assert near(rows[len(lead) - 1]["cumulative_ns"], w), ("together", lead, rows[len(lead) - 1]["cumulative_ns"], w)
PY
done
