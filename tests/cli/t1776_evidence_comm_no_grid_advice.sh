# Communication kernels get no small-grid, occupancy or fusion advice
# (issue 33 item 6.7): NCCL/RCCL kernels (and expert-parallel dispatch and
# combine kernels) launch few blocks on purpose.  On TraceLens' MI300
# ResNet trace (Kineto, 304 CUs) 66 kernels of 20 us or more launch fewer
# than 304 blocks, 6 of them RCCL's ncclDevKernel_Generic: small-grid counts
# the 60 others and names none of them.  The oracle reads the raw JSON.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/verdicts/tl2/mi300__resnet_act_checkpoint.json.gz
[ -r "$T" ] || skip "verdicts/tl2/mi300__resnet_act_checkpoint.json.gz not in testdata"
python3 - "$T" > "$TMP/oracle" <<'PY' || fail "oracle"
import gzip, json, re, sys
ev = json.load(gzip.open(sys.argv[1]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
comm = re.compile(r"^(nccl(Dev)?Kernel_|rccl)")
def blocks(e):
    g = e["args"].get("grid", [0, 0, 0])
    return g[0] * g[1] * g[2]
small = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel" and e["dur"] >= 20 and
         0 < blocks(e) < 304]
nc = [e for e in small if comm.match(e["name"])]
assert len(small) == 66 and len(nc) == 6, (len(small), len(nc))
print(len(small) - len(nc))
PY
run_ok "$GPUPROF" advise "$T"
assert_grep "^ *[0-9]+\. $(cat "$TMP/oracle") kernels launch fewer blocks than the 304 SMs" "$TMP/out"
assert_no_grep "ncclDevKernel|rccl" "$TMP/out"
