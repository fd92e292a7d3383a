# Communication recognised beyond a fixed name list, and its overlap (issue
# 34 items 1-2).  A hand-made Kineto trace of a DeepEP fork (H100, 132 SMs):
# GEMMs on stream 7; on stream 20 the fork's my_ep::intranode_dispatch and
# my_ep::intranode::combine kernels of 20 blocks (a namespace no table
# names), a kernel of no known name launched inside the user annotation
# combine(B) (communication by its launcher), and on stream 7 an unknown
# mystery kernel (5.3% of GPU time).  The oracle reads the JSON: the
# communication is stream 20's kernels, hidden = their time under stream
# 7's, exposed = the rest.  breakdown's rows equal it; advise gives the
# 20-block kernels no small-grid advice and notes the unknown kernel; info
# lists it with how to classify it; an ops file row of family=comm makes it
# communication; --what-if cause:comm=0, =2x and =0.5x (twice as slow: the
# 4.7 ms bug, now 3.72 ms); the views of the overlap: breakdown --view
# comm per layer and pass, the SMs held (breakdown's note, advise's
# evidence, the HTML table, export's counter track).  Then the
# shared B200 trace: its 2.142 ms of multimem and NCCL kernels, none under
# compute (hidden 0).
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP" > "$TMP/oracle" <<'PY' || fail "cannot write the trace"
import json, sys
ev = []
def kernel(i, name, stream, start, dur, grid, annot=None, op=None):
    corr = 100 + i
    ts = start - 50.0
    if annot:
        ev.append({"ph": "X", "cat": "user_annotation", "name": annot, "pid": 1, "tid": 1, "ts": ts - 2, "dur": 20})
    if op:
        ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": 1, "ts": ts - 1, "dur": 15,
                   "args": {"External id": corr}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts,
               "dur": 5, "args": {"correlation": corr, "External id": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": 1000.0 + start, "dur": dur,
               "args": {"correlation": corr, "External id": corr, "device": 0, "stream": stream,
                        "grid": [grid, 1, 1], "block": [128, 1, 1]}})
G = "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTT"
ks = [  # (name, stream, start us, dur us, grid blocks, annotation)
    (G, 7, 100, 1000, 264, "attn(F)"),
    ("void my_ep::intranode_dispatch<8, 768>(int*, void const*)", 20, 600, 1000, 20, "dispatch(F)"),
    (G, 7, 1300, 1000, 264, "mlp(F)"),
    ("void my_ep::intranode::combine<__nv_bfloat16>(void*, int const*)", 20, 2200, 500, 20, "combine(F)"),
    ("void mystery_kernel<float>(float*)", 7, 2800, 200, 264, None),
    ("void fork_push_tokens<4>(int*)", 20, 3100, 100, 20, "combine(B)"),
]
for i, (n, s, st, d, g, a) in enumerate(ks):
    kernel(i, n, s, st, d, g, annot=a)
dev = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017198592, "computeMajor": 9,
       "computeMinor": 0, "numSms": 132, "warpSize": 32}
json.dump({"deviceProperties": [dev], "traceEvents": ev}, open(sys.argv[1] + "/ep.json", "w"))
# the oracle: intervals of the raw events
K = [e for e in ev if e["cat"] == "kernel"]
comm = [(e["ts"], e["ts"] + e["dur"]) for e in K if e["args"]["stream"] == 20]
comp = [(e["ts"], e["ts"] + e["dur"]) for e in K if e["args"]["stream"] == 7]
def inter(a, b):
    return sum(max(0, min(x1, y1) - max(x0, y0)) for x0, x1 in a for y0, y1 in b)
total = sum(b - a for a, b in comm)
hidden = inter(comm, comp)   # stream 7's kernels never overlap each other, nor stream 20's
print(int(total * 1000), int(hidden * 1000), int((total - hidden) * 1000))
assert (total, hidden) == (1600, 900)
# per layer and pass (the annotation each was launched in; F forward, B
# backward): time, hidden, exposed, and the SMs held under compute (its
# grid blocks, at most 132: the time-weighted mean over its hidden time)
pas = {"F": "fprop", "B": "bprop"}
with open(sys.argv[1] + "/groups", "w") as f:
    for n, s, st, d, g, a in ks:
        if s != 20:
            continue
        iv = [(1000.0 + st, 1000.0 + st + d)]
        h = inter(iv, comp)
        f.write("all,%s,%s,1,%d,%d,%d,%.2f,%s,-\n" % (a, pas[a[-2]], d * 1000, h * 1000, (d - h) * 1000,
                100.0 * h / d, "%.1f" % min(g, 132) if h else "-"))
PY
read comm hidden exposed < "$TMP/oracle"
T=$TMP/ep.json
row() { awk -F, -v p="$1" '$1=="0" && $2=="all" && $3==p {print $4}' "$TMP/out"; }
run_ok "$GPUPROF" breakdown -f csv --no-header "$T"
sed -i 's/"//g' "$TMP/out"
[ "$(row communication)" = "$comm" ] || fail "communication $(row communication) ns, the oracle's $comm"
[ "$(row comm_hidden)" = "$hidden" ] || fail "comm_hidden $(row comm_hidden) ns, the oracle's $hidden"
[ "$(row comm_exposed)" = "$exposed" ] || fail "comm_exposed $(row comm_exposed) ns, the oracle's $exposed"
assert_grep "note: .*1 kernel name of unknown family takes 5.3% of GPU time \(mystery_kernel 5.3%\).*ops file" "$TMP/err"
# the SMs held: stream 20's kernels of 20 blocks are one at a time under compute
assert_grep "note: .*GPU 0: communication kernels hold 20\.0 of 132 SMs while compute runs \(.*900 us of comm_hidden" "$TMP/err"

# --view comm: the device's row (3 kernels, 20 of 132 SMs held under
# compute), then one per layer and pass, most communication first
run_ok "$GPUPROF" breakdown --view comm -f csv --no-header "$T"
sed -i 's/"//g' "$TMP/out"
[ "$(head -1 "$TMP/out")" = "0,(all),-,3,$comm,$hidden,$exposed,56.25,20.0,132" ] || fail "--view comm: $(head -1 "$TMP/out")"
tail -n +2 "$TMP/out" | sort > "$TMP/got"
sort "$TMP/groups" > "$TMP/want"
diff "$TMP/want" "$TMP/got" >&2 || fail "--view comm: the layer and pass rows differ from the oracle's"
[ "$(sed -n 2p "$TMP/out" | cut -d, -f2)" = "dispatch(F)" ] || fail "--view comm: dispatch(F) (1 ms) not first"

# no small-grid advice for the 20-block kernels; the unknown kernel noted
run_ok "$GPUPROF" advise -f json "$T"
assert_no_grep '"kind": *"small-grid"' "$TMP/out"
assert_grep '"kind": *"unknown-kernels"' "$TMP/out"
run_ok "$GPUPROF" advise "$T"
assert_grep "^ !\. 5.3% of GPU time is kernels of unknown family: counted as compute" "$TMP/out"
run_ok "$GPUPROF" advise -f json "$T"
assert_grep '"kind": *"exposed-comm".*"evidence": *"[^"]*hold 20\.0 of the 132 SMs \(their blocks, time-weighted over 900 us\)' "$TMP/out"

# info lists it, with the hint
run_ok "$GPUPROF" info "$T"
assert_grep "mystery_kernel: 5.3% of GPU time, 1 kernels \(add an ops file row: kernel pattern=name\^NAME family=comm" "$TMP/out"

# an ops file row makes it communication: no note, 200 us more communication
printf 'kernel pattern=name^mystery_kernel family=comm\n' > "$TMP/my.ops"
run_ok "$GPUPROF" breakdown -f csv --no-header --ops-file "$TMP/my.ops" "$T"
sed -i 's/"//g' "$TMP/out"
[ "$(row communication)" = "$((comm + 200000))" ] || fail "with the ops file: communication $(row communication) ns"
assert_no_grep "unknown family" "$TMP/err"
run_ok "$GPUPROF" info --ops-file "$TMP/my.ops" "$T"
assert_no_grep "mystery_kernel" "$TMP/out"

# what-if (the replay, docs/dependencies.md): stream 7 never waits for
# stream 20.  Removed (=0) or twice as fast, stream 20's kernels keep the
# gaps recorded behind the kernel before them (600 and 400 us), as work
# made shorter does in the replay; the tail kernel then starts by 3.4 ms
# and the span ends with mystery_kernel at 4000 us: 2.9 ms
run_ok "$GPUPROF" advise -f csv --what-if cause:comm=0 "$T"
assert_grep '^"?gpu_span"?,"?3100000"?,"?2900000"?,' "$TMP/out"
run_ok "$GPUPROF" advise -f csv --what-if cause:comm=2x "$T"
assert_grep '^"?gpu_span"?,"?3100000"?,"?2900000"?,' "$TMP/out"
# twice as slow: those gaps, holds the trace does not name (over 10 us),
# are absorbed by the longer kernels, not kept behind them; each kernel
# follows the one before by the largest back-to-back gap the model allows
# (10 us): dispatch 1600-3600, combine 3610-4610, the tail 4620-4820 us
# (it was 4.7 ms when the whole gaps were pushed behind)
run_ok "$GPUPROF" advise -f csv --what-if cause:comm=0.5x "$T"
assert_grep '^"?gpu_span"?,"?3100000"?,"?3720000"?,' "$TMP/out"
expect_exit 2 "$GPUPROF" advise --what-if cause:comm=2 "$T"
assert_grep "communication is removed \(=0\) or Nx faster" "$TMP/err"

# export: the counter track "communication SMs" holds 20 blocks for as
# long as communication runs, under compute for as long as it is hidden
run_ok "$GPUPROF" export -o "$TMP/pf.json" "$T"
python3 - "$TMP/pf.json" "$comm" "$hidden" <<'PY' || fail "export: the communication SMs track"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
pts = sorted((e["ts"], e["args"]) for e in ev if e.get("ph") == "C" and e.get("name") == "communication SMs")
held = sum(b[0] - a[0] for a, b in zip(pts, pts[1:]) if a[1]["held"] == 20)
under = sum(b[0] - a[0] for a, b in zip(pts, pts[1:]) if a[1]["under compute"] == 20)
assert pts and pts[-1][1] == {"held": 0, "under compute": 0}, pts
assert {a["held"] for _, a in pts} == {0, 20}, pts
assert round(held * 1000) == int(sys.argv[2]) and round(under * 1000) == int(sys.argv[3]), (held, under, pts)
PY

# the HTML page's table under the breakdown: hidden, exposed and the SMs
# held, the oracle's (when Chromium can draw it)
if command -v chromium >/dev/null && { [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; }; then
	run_ok "$GPUPROF" html -o "$TMP/page.html" "$T"
	open_page "$TMP/page.html"
	python3 - "$TMP/dom" "$hidden" "$exposed" <<'PY' || fail "the page's communication cells"
import re, sys
dom = open(sys.argv[1]).read()
table = dom.split('id="idle-causes"')[1].split("</table>")[0]
head = re.findall(r"<th>([^<]*)</th>", table)
row = re.findall(r"<td>([^<]*)</td>", table)
cells = dict(zip(head, row))
us = lambda ns: "%.2f us" % (int(ns) / 1000)   # the page's fmtNs
assert cells["Communication hidden under compute"] == us(sys.argv[2]), cells
assert cells["Communication exposed"] == us(sys.argv[3]), cells
assert cells["SMs communication holds under compute"] == "20.0 of 132", cells
PY
fi

# the shared B200 trace: 2.142 ms of communication, none under compute
[ -n "$TESTDATA" ] && [ -r "$TESTDATA/verdicts/tracelens/b200/eager_trace.json.gz" ] || exit 0
B=$TESTDATA/verdicts/tracelens/b200/eager_trace.json.gz
python3 - "$B" > "$TMP/oracle" <<'PY' || fail "oracle: the B200 trace"
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
k = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"]
isc = lambda n: "multimem_all_reduce_kernel" in n or n.startswith("ncclDevKernel_")
comm = [(e["ts"], e["ts"] + e["dur"]) for e in k if isc(e["name"])]
comp = [(e["ts"], e["ts"] + e["dur"]) for e in k if not isc(e["name"])]
hidden = sum(max(0, min(a1, b1) - max(a0, b0)) for a0, a1 in comm for b0, b1 in comp)
print(round(sum(b - a for a, b in comm)), round(hidden))
PY
read bcomm bhidden < "$TMP/oracle"
[ "$bcomm $bhidden" = "2142 0" ] || fail "oracle: $bcomm us of communication, $bhidden hidden"
run_ok "$GPUPROF" breakdown -f csv --no-header "$B"
sed -i 's/"//g' "$TMP/out"
[ "$(row comm_hidden)" = 0 ] || fail "B200: comm_hidden $(row comm_hidden)"
e=$(row comm_exposed); d=$((e - 2142000)); [ "${d#-}" -le 1000 ] || fail "B200: comm_exposed $e ns, not 2.142 ms"
