# tier: slow (over 268 s in make check before the tiers, on the busy 2-core machine: it runs gpuprof on every shared trace)
# GPUs without peaks or with the wrong name (issue 24 item 5): every device
# of every shared trace maps to the row tests/data/gpu_peaks.tsv names
# (checked by hand); an unknown GPU with properties gets estimated peaks,
# marked so in info, advise, html and the notes; --gpu list shows the
# whole table and --gpu takes its names.
need_testdata
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
find "$TESTDATA" -type f \( -name '*.sqlite' -o -name '*.sql' -o -name '*.nvvp' -o -name '*.json' -o -name '*.json.gz' \) \
	-not -path '*/expected/*' | sort >"$TMP/files"
: >"$TMP/devices"
while read -r f; do
	"$GPUPROF" info -f json "$f" >"$TMP/info.json" 2>/dev/null || continue
	python3 - "$TMP/info.json" >>"$TMP/devices" <<'PY'
import json, sys
for g in json.load(open(sys.argv[1]))["gpus"]:
    print("%s\t%d\t%s" % (g["name"] or "", g["sm_count"] or 0, g["peaks"] or ""))
PY
done <"$TMP/files"
python3 - tests/data/gpu_peaks.tsv "$TMP/devices" <<'PY' || fail "a device of the shared traces has other peaks than gpu_peaks.tsv"
import sys
want = {}
for line in open(sys.argv[1]):
    if line.startswith("#") or line.startswith("name\t"):
        continue
    name, sms, peaks = line.rstrip("\n").split("\t")
    want[(name, int(sms))] = peaks
seen, bad = set(), 0
for line in open(sys.argv[2]):
    name, sms, peaks = line.rstrip("\n").split("\t")
    key = (name, int(sms))
    seen.add(key)
    if key not in want:
        print("not in gpu_peaks.tsv: %r %s SMs -> %r" % (key + (peaks,))); bad = 1
    elif want[key] != peaks:
        print("%r %s SMs: %r, expected %r" % (name, sms, peaks, want[key])); bad = 1
for key in set(want) - seen:
    print("in gpu_peaks.tsv but in no trace: %r %s" % key); bad = 1
print("%d devices, %d distinct" % (sum(1 for _ in open(sys.argv[2])), len(seen)))
sys.exit(bad)
PY

# An nsys export of a GPU the table lacks (the generator's A100-SXM4-40GB
# under another name): peaks estimated from its SMs, clock and bandwidth,
# within 1% of the A100 row's, and said so everywhere peaks show
"$GEN" --format nsys -n 50 --seed 3 -o "$TMP/g.sqlite" >/dev/null || fail "gpuprof-gen"
sqlite3 "$TMP/g.sqlite" "UPDATE TARGET_INFO_GPU SET name = 'NVIDIA Test GPU', smCount = 108, computeMajor = 8,
	computeMinor = 0, totalMemory = 42297786368, memoryBandwidth = 1555200000000, clockRate = 1410000000" ||
	fail "cannot rename the GPU"
run_ok "$GPUPROF" info "$TMP/g.sqlite"
assert_grep '^gpu 0 +NVIDIA Test GPU, 108 SMs, cc 8.0, 39.4 GiB, peaks Ampere sm_80 \(estimated\)$' "$TMP/out"
# 108 SMs x 1.41 GHz x 128 = 19.5 FP32; x 2048 = 311.9 FP16 tensor (the A100's 19.5, 312); 1555 GB/s
assert_grep "^note [0-9]+ +gpu 0 \(NVIDIA Test GPU\): not in the GPU table; peaks estimated from the trace's properties \(108 SMs, cc 8.0, 1.41 GHz, 1555 GB/s\): 19.5 FP32, 311.9 FP16 tensor TFLOP/s dense" "$TMP/out"
run_ok "$GPUPROF" advise "$TMP/g.sqlite"
assert_grep '^GPU Ampere sm_80 \(estimated\)( x [0-9]+)?: ' "$TMP/out"
run_ok "$GPUPROF" html -o "$TMP/g.html" "$TMP/g.sqlite"
assert_grep '"gpu":"Ampere sm_80 \(estimated\)"' "$TMP/g.html"
assert_grep 'not in the GPU table; peaks estimated' "$TMP/g.html"
# the roofline is judged as on the A100: the same eff to a 1% rounding
"$GPUPROF" report -f tsv --no-header -c eff "$TMP/g.sqlite" >"$TMP/est" || fail "report"
"$GPUPROF" report -f tsv --no-header -c eff --gpu A100-SXM4-40GB "$TMP/g.sqlite" >"$TMP/row" || fail "report --gpu"
paste "$TMP/est" "$TMP/row" | awk -F'\t' '$1 != "na" { n++; d = $1 - $2; if (d < 0) d = -d; if (d > 0.011 * $2 + 0.0015) { print; bad = 1 } }
	END { exit bad || n < 20 }' || fail "eff on the estimate differs from eff on the A100 row"
# --gpu takes the estimate's place
run_ok "$GPUPROF" advise --gpu "A100-SXM4-40GB" "$TMP/g.sqlite"
assert_grep '^GPU A100-SXM4-40GB( x [0-9]+)?: ' "$TMP/out"

# --gpu list: the whole table, one line per row; --gpu takes every name
run_ok "$GPUPROF" report --gpu list
cp "$TMP/out" "$TMP/list"
n=$(grep -cE '^[A-Za-z0-9].* +[0-9]+ +[0-9]+\.[0-9] +[0-9.]+ ' "$TMP/list")
[ "$n" -ge 120 ] || fail "--gpu list shows $n rows"
for name in "A100-PCIE-40GB" "MI210" "RTX 3050 Laptop" "RTX PRO 6000 Blackwell" "GH200 144GB" "H20" "B300"; do
	assert_grep "^$name " "$TMP/list"
	run_ok "$GPUPROF" advise --gpu "$name" "$TMP/g.sqlite"
	assert_grep "^GPU $name( x [0-9]+)?: " "$TMP/out"
done
expect_exit 2 "$GPUPROF" advise --gpu "Voodoo 5" "$TMP/g.sqlite"
# docs/op-model.md lists every row of the table
grep -E '^[A-Za-z0-9].* +[0-9]+ +[0-9]+\.[0-9] +[0-9.]+ ' "$TMP/list" | cut -c1-28 | sed 's/ *$//' | while read -r name; do
	grep -qF "| $name | " docs/op-model.md || { echo "$name"; exit 1; }
done || fail "a GPU of --gpu list is not in docs/op-model.md"
