# export -f sqlite's comm_overlap table (issue 34 item 2): communication
# hidden under compute and exposed, per device and per layer and pass.  A
# hand-made Kineto trace (H100, 132 SMs): GEMMs on stream 7 under attn(F)
# and mlp(B); on stream 20 communication kernels under dispatch(F),
# combine(B) and mlp(W) (of 16, 24 and 200 blocks), some under a GEMM,
# some not.  The oracle reads the raw intervals: a layer's hidden time is
# its kernels' time under stream 7's, exposed the rest, its SMs held the
# blocks (at most 132) over the hidden time; the device's row their sums.
# The table's rows must equal the oracle's and breakdown --view comm's.
command -v python3 >/dev/null || skip "python3 not installed"
command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
python3 - "$TMP" <<'PY' || fail "cannot write the trace"
import json, sys
ev = []
def kernel(i, name, stream, start, dur, grid, annot):
    corr = 100 + i
    ts = start - 50.0
    ev.append({"ph": "X", "cat": "user_annotation", "name": annot, "pid": 1, "tid": 1, "ts": ts - 2, "dur": 20})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts,
               "dur": 5, "args": {"correlation": corr, "External id": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": 1000.0 + start, "dur": dur,
               "args": {"correlation": corr, "External id": corr, "device": 0, "stream": stream,
                        "grid": [grid, 1, 1], "block": [128, 1, 1]}})
G = "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTT"
ks = [  # (name, stream, start us, dur us, grid blocks, annotation)
    (G, 7, 100, 1000, 264, "attn(F)"),
    ("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 20, 400, 1000, 16, "dispatch(F)"),
    (G, 7, 1500, 600, 264, "mlp(B)"),
    ("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 20, 1900, 700, 24, "combine(B)"),
    ("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 20, 2700, 300, 200, "mlp(W)"),
]
for i, k in enumerate(ks):
    kernel(i, *k)
dev = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017198592, "computeMajor": 9,
       "computeMinor": 0, "numSms": 132, "warpSize": 32}
json.dump({"deviceProperties": [dev], "traceEvents": ev}, open(sys.argv[1] + "/t.json", "w"))
comp = [(1000.0 + s, 1000.0 + s + d) for n, st, s, d, g, a in ks if st == 7]
def under(iv):
    return sum(max(0, min(iv[1], y1) - max(iv[0], y0)) for y0, y1 in comp)
pas = {"F": "fprop", "B": "bprop", "W": "wgrad"}
rows, tot = [], [0, 0, 0, 0, 0.0]
for n, st, s, d, g, a in ks:
    if st != 20:
        continue
    h = under((1000.0 + s, 1000.0 + s + d))
    sms = "%.1f" % min(g, 132) if h else ""
    rows.append("layer||%s|%s|1|%d|%d|%d|%s|" % (a, pas[a[-2]], d * 1000, h * 1000, (d - h) * 1000, sms))
    tot = [tot[0] + 1, tot[1] + d * 1000, tot[2] + h * 1000, tot[3] + (d - h) * 1000, tot[4] + min(g, 132) * h * 1000]
with open(sys.argv[1] + "/want", "w") as f:
    f.write("device|0|||%d|%d|%d|%d|%.1f|132\n" % (tot[0], tot[1], tot[2], tot[3], tot[4] / tot[2]))
    for r in sorted(rows):
        f.write(r + "\n")
assert tot[2] > 0 and tot[3] > 0, tot
PY
T=$TMP/t.json
run_ok "$GPUPROF" export -f sqlite -o "$TMP/t.sqlite" "$T"
sqlite3 "$TMP/t.sqlite" "SELECT scope, device, layer, pass, kernels, comm_ns, hidden_ns, exposed_ns,
	printf('%.1f', sms_held), sm_count FROM comm_overlap WHERE rank = 0 AND scope = 'device'" >"$TMP/got"
sqlite3 "$TMP/t.sqlite" "SELECT scope, device, layer, pass, kernels, comm_ns, hidden_ns, exposed_ns,
	CASE WHEN sms_held IS NULL THEN '' ELSE printf('%.1f', sms_held) END, sm_count
	FROM comm_overlap WHERE scope = 'layer' ORDER BY 1, 2, 3, 4" >>"$TMP/got"
sed -i 's/|block_0\//|/' "$TMP/got"
diff "$TMP/want" "$TMP/got" >&2 || fail "comm_overlap (< the oracle over the raw intervals)"
# the same figures as breakdown --view comm, row for row
run_ok "$GPUPROF" breakdown --view comm -f csv --no-header "$T"
tr -d '"' <"$TMP/out" | tail -n +2 | awk -F, '{ print $2 "|" $3 "|" $5 "|" $6 "|" $7 }' | sort >"$TMP/bd"
sqlite3 "$TMP/t.sqlite" "SELECT layer, pass, comm_ns, hidden_ns, exposed_ns FROM comm_overlap
	WHERE scope = 'layer' ORDER BY layer" | sort >"$TMP/db"
diff "$TMP/bd" "$TMP/db" >&2 || fail "comm_overlap differs from breakdown --view comm"
# its schema in docs/export-sqlite.md
assert_grep '^### comm_overlap' "$TOP/docs/export-sqlite.md"
