# One step in a window of one iteration (issue 33): advise --iter 16 on
# the MI300X ResNet counts the steps inside the window, 1, and its median
# step and GPU span are those an oracle computes from the raw Kineto
# JSON: the step from ProfilerStep#16's start to ProfilerStep#17's
# (host waits included), its GPU span from the first start to the last
# end of the kernels whose launch call (the cuda_runtime event with the
# kernel's correlation id) starts inside it.  (It said "2 steps, median
# 53.829 ms" when each command found iterations its own way.)
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
f=$TESTDATA/verdicts/tl2/mi300__resnet_act_checkpoint.json.gz
[ -f "$f" ] || fail "missing $f"
step=$(python3 - "$f" 16 <<'PY'
import gzip, json, re, sys
path, it = sys.argv[1], int(sys.argv[2])
with gzip.open(path, "rt") as f:
    ev = json.load(f)["traceEvents"]
starts, launch, kern = {}, {}, []
for e in ev:
    if e.get("ph") != "X":
        continue
    n, c = e.get("name", ""), e.get("cat", "")
    t0 = round(e["ts"] * 1000)
    m = re.fullmatch(r"ProfilerStep#(\d+)", n)
    if m and c in ("cpu_op", "user_annotation"):
        k = int(m.group(1))
        starts[k] = min(starts.get(k, t0), t0)
    elif c == "cuda_runtime" and "correlation" in e.get("args", {}):
        launch[e["args"]["correlation"]] = t0
    elif c == "kernel":
        kern.append((e["args"].get("correlation"), t0, t0 + round(e.get("dur", 0) * 1000)))
a, b = starts[it], starts[it + 1]
mine = [(k0, k1) for corr, k0, k1 in kern if a <= launch.get(corr, -1) < b]
assert mine, "no kernel launched in the step"
ms = lambda x: "%.3f ms" % (x / 1e6)
print("%s \\(GPU span %s\\)" % (ms(b - a), ms(max(k1 for _, k1 in mine) - min(k0 for k0, _ in mine))))
PY
) || fail "oracle on $f"
run_ok "$GPUPROF" advise --iter 16 "$f"
assert_grep "; 1 step, median $step\$" "$TMP/out"
