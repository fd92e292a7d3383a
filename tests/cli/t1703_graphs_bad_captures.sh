# Damaged, foreign, unended, mismatched and partial capture traces: a note
# each, the attribution of what can still be matched, never a crash; a
# capture that holds only part of a graph attributes that part.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto --graphs amd -o "$TMP/replay.pt.trace.json"
c=$TMP/capture_traces
python3 - "$c" <<'PY' || fail "cannot damage the capture traces"
import json, os, sys
c = sys.argv[1]
def events(n):
    return json.load(open(os.path.join(c, n)))
def save(n, doc):
    json.dump(doc, open(os.path.join(c, n), "w"))
# batch size 1 (P and G): cut in the middle of an event
raw = open(os.path.join(c, "graph_capture_rank_0.1.pt.trace.json")).read()
open(os.path.join(c, "graph_capture_rank_0.1.pt.trace.json"), "w").write(raw[: len(raw) // 2])
# batch size 8 (G and M): M's capture never ends
d = events("graph_capture_rank_0.8.pt.trace.json")
ends = [e for e in d["traceEvents"] if e.get("name") == "hipStreamEndCapture"]
d["traceEvents"].remove(ends[-1])
save("graph_capture_rank_0.8.pt.trace.json", d)
# batch size 32: G's last four launches are missing (the capture was cut)
d = events("graph_capture_rank_0.32.pt.trace.json")
launches = [e for e in d["traceEvents"] if e.get("name") == "hipLaunchKernel"]
for e in launches[-4:]:
    d["traceEvents"].remove(e)
save("graph_capture_rank_0.32.pt.trace.json", d)
# batch size 64: kernel names no replay has
d = events("graph_capture_rank_0.64.pt.trace.json")
for e in d["traceEvents"]:
    if "kernel" in e.get("args", {}):
        e["args"]["kernel"] = "renamed_" + e["args"]["kernel"]
save("graph_capture_rank_0.64.pt.trace.json", d)
open(os.path.join(c, "README.txt"), "w").write("not a trace\n")
open(os.path.join(c, "execution_details.json"), "w").write("{\"file\": 3")
PY
run_ok "$GPUPROF" info -f json "$TMP/replay.pt.trace.json"
python3 - "$TMP/out" <<'PY' || fail "info of the damaged captures"
import json, sys
d = json.load(open(sys.argv[1]))
notes = "\n".join(d["notes"])
assert "graph_capture_rank_0.1.pt.trace.json" in notes and "capture trace not read" in notes, notes
assert "README.txt" in notes, notes
assert "execution_details.json: not a list of capture files" in notes, notes
assert "1 graph captures never ended" in notes, notes
assert d["capture_traces"] == 3, d                       # 1 unreadable, README not a trace
s = d["graph_kernels_by_state"]
# G: batch size 8's complete capture fits by names; 32's partial one does not
assert s["captured"]["kernels"] == 4 * 16, s
assert s["no-match"]["kernels"] == 4 * (3 + 6 + 2), s    # P, M (never ended), U
PY
# the partial capture alone: its 12 launches attribute 12 of G's 16 kernels
run_ok "$GPUPROF" info -f json --capture "$c/graph_capture_rank_0.32.pt.trace.json" "$TMP/replay.pt.trace.json"
python3 - "$TMP/out" <<'PY' || fail "info with the partial capture"
import json, sys
s = json.load(open(sys.argv[1]))["graph_kernels_by_state"]
assert s["captured"]["kernels"] == 4 * 12 and s["not-captured"]["kernels"] == 4 * 4, s
PY
# every command reads them the same, without a crash
for cmd in report summary ops advise breakdown; do
	run_ok "$GPUPROF" $cmd "$TMP/replay.pt.trace.json"
done
