# Durations in the text formats carry no more digits than the trace's
# clock (issue 35, "58.000 us" for microsecond traces): a Kineto trace
# whose ts and dur are whole microseconds (the generated trace, rounded
# here) prints its kernel times as "58 us" (milliseconds keep their three
# decimals, which are whole microseconds), each the raw JSON's own sum;
# its JSON keeps integer ns; a tenth of a microsecond anywhere in the file
# gives one decimal, whether one thread or several parse it; the
# nanosecond nsys trace keeps "58.000 us" style digits, and so does the
# fractional Kineto trace, and a run over both traces.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto -n 400 -o "$TMP/frac.json"
python3 - "$TMP/frac.json" "$TMP/us.json" <<'PY' || fail "rounding the trace to whole microseconds"
import json, sys
t = json.load(open(sys.argv[1]))
for e in t["traceEvents"]:
    for k in ("ts", "dur"):
        if isinstance(e.get(k), float):
            e[k] = int(round(e[k]))
json.dump(t, open(sys.argv[2], "w"))
PY
run_ok "$GPUPROF" summary --section gpu -n 1000 "$TMP/us.json"
cp "$TMP/out" "$TMP/us.txt"
run_ok "$GPUPROF" summary --section gpu -n 1000 -f json "$TMP/us.json"
python3 - "$TMP/us.json" "$TMP/us.txt" "$TMP/out" <<'PY' || fail "the microsecond trace's durations"
import json, re, sys
t = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
rows = [json.loads(l) for l in open(sys.argv[3])]
# no microsecond value with decimals: the clock has none
assert not re.search(r"\d\.\d+ us", text), re.search(r".*\d\.\d+ us.*", text).group(0)
assert re.search(r"\b\d+ us\b", text), text[:400]
# each kernel's total: the raw durations' sum, as integer ns in JSON and
# in whole us (or ms with three decimals) in the table
tot = {}
for e in t["traceEvents"]:
    if e.get("cat") == "kernel" and e.get("ph") == "X":
        tot[e["name"]] = tot.get(e["name"], 0) + e["dur"]
lines = text.splitlines()[1:]   # the table's rows, in the JSON rows' order
assert len(lines) == len(rows), (len(lines), len(rows))
checked = 0
for r, line in zip(rows, lines):
    if r["name"] not in tot:   # memcpy and memset rows
        continue
    us = tot[r["name"]]
    assert r["total_ns"] == 1000 * us, (r["name"], r["total_ns"], us)
    want = "%d us" % us if us < 1000 else "%.3f ms" % (us / 1000)
    assert " %s " % want in line, (want, line)
    checked += 1
assert checked >= 5, checked
PY
# one duration with a tenth of a microsecond, the last kernel of the file:
# one decimal, also when the file is parsed in parts on several threads
# (the parts' steps merged)
python3 - "$TMP/us.json" "$TMP/tenth.json" <<'PY' || fail "writing the tenth trace"
import json, sys
t = json.load(open(sys.argv[1]))
[e for e in t["traceEvents"] if e.get("cat") == "kernel"][-1]["dur"] += 0.5
json.dump(t, open(sys.argv[2], "w"))
PY
for threads in 1 4; do
	env GPUPROF_THREADS=$threads GPUPROF_PARALLEL_MIN_BYTES=1 "$GPUPROF" summary --section gpu "$TMP/tenth.json" \
		>"$TMP/out" || fail "summary on $threads threads"
	assert_grep ' [0-9]+\.[0-9] us ' "$TMP/out"
	assert_no_grep '[0-9]\.[0-9]{2,} us' "$TMP/out"
done
# nanosecond clocks keep their digits: nsys, and the fractional Kineto trace
run_ok "$GEN" --format nsys -n 400 -o "$TMP/gen.sqlite"
run_ok "$GPUPROF" summary --section gpu "$TMP/gen.sqlite"
assert_grep '[0-9]\.[0-9]{3} us' "$TMP/out"
run_ok "$GPUPROF" summary --section gpu "$TMP/frac.json"
assert_grep '[0-9]\.[0-9]{3} us' "$TMP/out"
# a run over both: the finest clock wins, no digit of the nsys trace is hidden
run_ok "$GPUPROF" diff "$TMP/us.json" "$TMP/gen.sqlite"
assert_grep '[0-9]\.[0-9]{3} us' "$TMP/out"
exit 0
