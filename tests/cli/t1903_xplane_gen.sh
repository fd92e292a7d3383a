# The XPlane reader on gpuprof-gen's XPlane files (issue 36, docs/gen-xplane.md):
# NVIDIA H100s, NCCL collectives (synchronous, and an asynchronous
# all-reduce beside compute), two hosts in plugins/profile/<run>/, gzip.
# Oracle: the generator's truth by construction (xplane.truth), written by
# another program than the reader.  Per GPU of each host: kernels, kernel
# time, compute, communication and its exposed part, copies; per HLO op
# its kernel time; the device's name; the steps; both hosts as ranks.
command -v python3 >/dev/null || skip "python3 not installed"
"$GEN" --format xplane --ranks 2 --iters 3 --gpus 2 -o "$TMP/run" >"$TMP/gen.out" 2>&1 ||
	skip "gpuprof-gen writes no XPlane files here (gpuprof-gen --format xplane, branch xgen): $(head -c 200 "$TMP/gen.out")"
T=$TMP/run/xplane.truth
D=$(echo "$TMP"/run/plugins/profile/*)
[ -f "$D/host0.xplane.pb" ] || fail "no host0.xplane.pb in $D"
truth() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$T"; }

run_ok "$GPUPROF" info "$D/host0.xplane.pb"
assert_grep "^gpu 0-1 +2 x $(truth device), $(truth sms) SMs, cc $(truth compute_capability)" "$TMP/out"
assert_grep "^kernels +$(( $(truth kernels_per_gpu) * 2 ))\$" "$TMP/out"
assert_grep "^memcpy +$(( $(truth memcpy_per_gpu) * 2 ))\$" "$TMP/out"
assert_grep "^memcpy bytes +$(( $(truth memcpy_bytes_per_gpu) * 2 ))\$" "$TMP/out"
assert_grep "^kernels with launch +$(( $(truth kernels_per_gpu) * 2 ))\$" "$TMP/out"

gzip -c "$D/host1.xplane.pb" >"$TMP/host1.xplane.pb.gz"
for f in "$D/host0.xplane.pb" "$TMP/host1.xplane.pb.gz"; do
	run_ok "$GPUPROF" breakdown -f csv "$f"
	for g in 0 1; do
		assert_grep "^\"$g\",\"all\",\"compute\",\"$(truth compute_ns_per_gpu)\"," "$TMP/out"
		assert_grep "^\"$g\",\"all\",\"communication\",\"$(truth collective_ns_per_gpu)\"," "$TMP/out"
		assert_grep "^\"$g\",\"all\",\"comm_exposed\",\"$(truth collective_exposed_ns_per_gpu)\"," "$TMP/out"
		assert_grep "^\"$g\",\"all\",\"memory\",\"$(truth memcpy_ns_per_gpu)\"," "$TMP/out"
	done
	run_ok "$GPUPROF" summary --by op -f csv "$f"
	python3 - "$T" "$TMP/out" <<'PY' || fail "kernel time per HLO op differs from the truth ($f)"
import csv, sys
truth, got = sys.argv[1:3]
want = {}
for line in open(truth):
    f = line.rstrip("\n").split("\t")
    if f[0] == "op":
        want[f[1]] = int(f[4]) * 2          # two GPUs a host
mine = {r["Name"]: int(r["Total Time (ns)"]) for r in csv.DictReader(open(got)) if r["Type"] == "GPU activities"}
bad = {op: (mine.get(op), ns) for op, ns in want.items() if mine.get(op) != ns}
extra = set(mine) - set(want)
assert not bad and not extra, (bad, extra)
print(len(want), "ops agree")
PY
done

# hosts as ranks, their steps (the train_step markers' step_num)
run_ok "$GPUPROF" ranks "$D"
assert_grep "^ +0 order +$(truth steps) .*host0\.xplane\.pb\$" "$TMP/out"
assert_grep "^ +1 order +$(truth steps) .*host1\.xplane\.pb\$" "$TMP/out"
run_ok "$GPUPROF" comm "$D"
assert_grep "host1\.xplane\.pb" "$TMP/out"
