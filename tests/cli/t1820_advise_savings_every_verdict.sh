# tier: slow
# gpuprof advise on every real trace of verdicts/ (issue 33: "the printed
# saving of every finding equals the replay of its change within 1% on
# every trace there"): t1780's invariants, walked over each trace file
# (json.gz, sqlite, sql; the DLRM rank files one at a time).  In -f json
# each finding's saving_ns is its cumulative_ns less the one above; the
# savings add up to the last cumulative; the list is ranked greedily (a
# saving above the one before only for a change that pays with the ones
# above: saving above alone), one-time costs (one_time 1) first and the
# others after them; the first saves most alone of its group and is its
# own replay; no saving is negative, alone or after the others (perfsandbox:
# removing its module load alone once lengthened the span).  The text
# prints the same findings in the same order with the same numbers
# (saving, share of the GPU span, alone, shared, beyond the idle), within
# display rounding.  The replay itself is
# checked through `advise --what-if`, parsed by its own code: a finding
# whose change is one CPU cause removed saves alone what cause:NAME=0
# saves, and the leading run of such findings saves together what their
# causes removed together save.  The oracle reads each raw file (Python:
# sqlite3, gzip, json) for whether it holds kernels: a trace without any
# answers with the one "this trace has no kernels" line and no saving.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
V="$TESTDATA/verdicts"
[ -d "$V" ] || skip "$V missing"
find "$V" -type f \( -name '*.json.gz' -o -name '*.sqlite' -o -name '*.sql' \) | sort >"$TMP/files"
[ "$(wc -l <"$TMP/files")" -ge 39 ] || fail "verdicts/ holds $(wc -l <"$TMP/files") trace files, not the 39 it had"
checked=0 empty=0
while read -r f; do
	name=${f#"$V"/}
	kernels=$(python3 - "$f" <<'PY'
import gzip, json, sqlite3, sys
f = sys.argv[1]
if f.endswith(".json.gz"):
    d = json.load(gzip.open(f))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    print(sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel")))
else:   # nsys and nvprof SQLite (the nvprof .sql is an SQLite file too)
    db = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
    tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
    print(sum(db.execute("select count(*) from %s" % k).fetchone()[0]
              for k in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL") if k in tables))
PY
) || fail "oracle: cannot read $name"
	if [ "$kernels" = 0 ]; then
		expect_exit 0 "$GPUPROF" advise -f json "$f"
		[ ! -s "$TMP/out" ] || fail "$name has no kernels, yet advise -f json printed findings"
		[ "$(grep -c 'this trace has no kernels' "$TMP/err")" = 1 ] || fail "$name: no 'this trace has no kernels' line"
		expect_exit 0 "$GPUPROF" advise "$f"
		[ ! -s "$TMP/out" ] || fail "$name has no kernels, yet advise printed a report"
		[ "$(grep -c 'this trace has no kernels' "$TMP/err")" = 1 ] || fail "$name: no 'this trace has no kernels' line"
		empty=$((empty + 1))
		continue
	fi
	run_ok "$GPUPROF" advise -f json "$f"
	cp "$TMP/out" "$TMP/adv.json"
	run_ok "$GPUPROF" advise "$f"
	python3 - "$TMP/adv.json" "$TMP/out" "$f" "$GPUPROF" <<'PY' || fail "savings of $name are not their replays"
import json, re, subprocess, sys
UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
DUR = r"(-?[0-9.]+) (ns|us|ms|s)\b"
def ns(m):
    return float(m[0]) * UNIT[m[1]]
def shown(text_ns, json_ns, what):
    # gp_fmt_duration prints 3 decimals of its unit (whole ns below 1 us)
    assert abs(text_ns - json_ns) <= 0.0006 * max(abs(json_ns), 1000) + 1, (what, text_ns, json_ns)
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("saving_ns") is not None]
text = open(sys.argv[2]).read()
head = text.splitlines()[1]
span = ns(re.search(r"GPU span " + DUR, head).groups())
steps = re.search(r"; ([0-9]+) steps?, median", head)
steps = int(steps[1]) if steps else 0
if not rows:
    assert "saves:" not in text and "No change found that saves" in text, text
    sys.exit(0)
prev = 0
for i, r in enumerate(rows):
    s, c, a = r["saving_ns"], r["cumulative_ns"], r["alone_ns"]
    assert abs((c - prev) - s) <= 0.01 * max(abs(s), 1000), (r["kind"], s, c, prev)
    # greedy within its group (one-time costs lead, then the others)
    if i and r["one_time"] == rows[i - 1]["one_time"] and s > rows[i - 1]["saving_ns"] * 1.01:
        assert s > a, ("ranked above a larger saving it does not need", r["kind"], s, a)
    assert abs(r["saving_pct"] - 100 * s / span) <= 0.01 + 0.001 * abs(r["saving_pct"]), (r["kind"], r["saving_pct"], s, span)
    if steps > 1:
        assert abs(r["per_step_ns"] - s / steps) <= 1, (r["kind"], r["per_step_ns"], s, steps)
    prev = c
total = sum(r["saving_ns"] for r in rows)
assert abs(total - rows[-1]["cumulative_ns"]) <= 0.01 * max(total, 1000), (total, rows[-1]["cumulative_ns"])
# one-time costs (capture, compiling, autotuning, loading, first
# allocations) come first: the others are judged on the run without them
nonce = sum(1 for r in rows if r["one_time"])
assert all(r["one_time"] for r in rows[:nonce]), [(r["kind"], r["one_time"]) for r in rows]
assert all(r["kind"] in ("capture", "jit", "autotune", "module_load", "first_alloc") for r in rows[:nonce]), rows[:nonce]
# the first ranked saves most alone (of its group) and is its own replay
lead_group = rows[:nonce] or rows
assert abs(rows[0]["saving_ns"] - rows[0]["alone_ns"]) <= 0.01 * rows[0]["alone_ns"], rows[0]
assert max(r["alone_ns"] for r in lead_group) <= rows[0]["alone_ns"] * 1.01
# removing work never lengthens the step, alone or after the others
assert all(r["saving_ns"] >= 0 for r in rows), [(r["kind"], r["saving_ns"]) for r in rows]
assert all(r["alone_ns"] >= 0 for r in rows), [(r["kind"], r["alone_ns"]) for r in rows]
# the text prints the same findings in the same order, with their numbers
blocks = re.split(r"\n(?: [1-9]|[1-9][0-9])\. ", text)[1:]
assert len(blocks) == len(rows), (len(blocks), [r["kind"] for r in rows])
for b, r in zip(blocks, rows):
    b = re.sub(r"\s+", " ", b)
    m = re.search(r"saves: about " + DUR + r" \(([0-9.]+)% of the GPU span(?:; " + DUR + r" per step)?\)"
                  r"(?:; alone " + DUR + r")?[^\[]*\[([a-z0-9_-]+)\]", b)
    assert m, ("no saving line", r["kind"], b[:300])
    assert m[8] == r["kind"], (m[8], r["kind"])
    shown(ns(m.group(1, 2)), r["saving_ns"], (r["kind"], "saves"))
    assert abs(float(m[3]) - r["saving_pct"]) <= 0.051, (r["kind"], m[3], r["saving_pct"])
    if m[4]:
        shown(ns(m.group(4, 5)), r["saving_ns"] / steps, (r["kind"], "per step"))
    if m[6]:
        shown(ns(m.group(6, 7)), r["alone_ns"], (r["kind"], "alone"))
    else:   # alone is told where it differs from the saving
        assert abs(r["alone_ns"] - r["saving_ns"]) <= 1e-3 * span + 1, (r["kind"], "alone not told", r)
    sh = re.search(r"shared: " + DUR + " more alone", b)
    if r["alone_ns"] > r["saving_ns"] + 1:
        assert sh, (r["kind"], "shared not told", r)
        shown(ns(sh.groups()), r["alone_ns"] - r["saving_ns"], (r["kind"], "shared"))
    else:
        assert not sh, (r["kind"], "shared told", b[:300])
    by = re.search(r"beyond: " + DUR + " more than this idle", b)
    if by:
        shown(ns(by.groups()), r["saving_ns"] - r["involved_ns"], (r["kind"], "beyond"))
# the replay itself, through --what-if: the findings whose change is one
# CPU cause removed (docs/cli.md, "Causes": their kind is the cause's name)
causes = ("dataloader", "python", "annotation", "allocator", "cuda_api", "untraced", "first_alloc", "jit", "autotune", "module_load", "capture")
def whatif(names):
    args = [sys.argv[4], "advise", "-f", "json"]
    for n in names:
        args += ["--what-if", "cause:%s=0" % n]
    out = subprocess.run(args + [sys.argv[3]], check=True, capture_output=True, text=True).stdout
    m = next(m for m in map(json.loads, out.splitlines()) if m["measure"] == "gpu_span")
    assert abs(m["before_ns"] - span) <= 0.0006 * span, ("the what-if's GPU span is not advise's", m["before_ns"], span)
    return m["saving_ns"]
def near(a, b):
    return abs(a - b) <= 0.01 * max(abs(b), 1e6)
lead = []
for r in rows:
    if r["kind"] not in causes:
        break
    lead.append(r["kind"])
for r in rows:
    if r["kind"] in causes:
        w = whatif([r["kind"]])
        assert near(r["alone_ns"], w), ("alone", r["kind"], r["alone_ns"], w)
if len(lead) > 1:
    w = whatif(lead)
    assert near(rows[len(lead) - 1]["cumulative_ns"], w), ("together", lead, rows[len(lead) - 1]["cumulative_ns"], w)
PY
	checked=$((checked + 1))
done <"$TMP/files"
[ "$empty" -ge 1 ] || fail "no trace without kernels among verdicts/ (README.md names 4)"
echo "$checked traces' savings checked, $empty without kernels"
