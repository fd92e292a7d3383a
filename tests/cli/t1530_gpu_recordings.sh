# The recordings made on an H100 by bench/gpu-validate.sh (tests/data/gpu,
# README there): what each holds, counted from the files themselves, and the
# properties the GPU validation checked (docs/gpu-validation.md), so that a
# reader change that breaks them on real recordings fails here.
D=$TOP/tests/data/gpu
[ -d "$D" ] || fail "$D missing"
cd "$TMP" || fail "cd"
for f in "$D"/*.gz; do gzip -dc "$f" >"$(basename "$f" .gz)" || fail "gunzip $f"; done
# count KIND FILE: record lines of KIND in a recording, by grep alone
count() { grep -c "^$1	" "$2"; }

# 1. the launch loop: every launch recorded, the GPU described
run_ok "$GPUPROF" info loop2000.gprec
assert_grep '^gpu 0 +NVIDIA H100 80GB HBM3, 132 SMs, cc 9\.0' "$TMP/out"
assert_grep '^dropped_records +0$' "$TMP/out"
assert_grep "^kernels +$(count kernel loop2000.gprec)\$" "$TMP/out"
[ "$(count kernel loop2000.gprec)" = 2001 ] || fail "loop2000: not 2001 kernels"
run_ok "$GPUPROF" summary -f tsv --no-header loop2000.gprec
assert_grep '^GPU activities	100\.0	[0-9]+	2001	.*empty_kernel' "$TMP/out"

# 2. a program that loaded neither CUDA nor NVTX, with a driver: no "no GPU"
run_ok "$GPUPROF" info true.gprec
assert_grep 'loaded neither CUDA nor NVTX' "$TMP/out"
assert_no_grep 'no GPU found' "$TMP/out"

# 3. the same seeded training steps by gpuprof record (capture range = the
# profiled steps) and by torch.profiler: the same kernels per name, each
# name's total within 10%; and the op tables of the emit_nvtx recording
# and of torch.profiler's trace: the same ops with GPU time, the same calls
"$GPUPROF" summary -f tsv --no-header step.gprec >ours.tsv || fail "summary step.gprec"
"$GPUPROF" summary -f tsv --no-header step-kineto.json >kin.tsv || fail "summary step-kineto.json"
"$GPUPROF" ops -f tsv step-nvtx.gprec >ops-nvtx.tsv || fail "ops step-nvtx.gprec"
"$GPUPROF" ops -f tsv step-kineto.json >ops-kin.tsv || fail "ops step-kineto.json"
activities=$(($(count kernel step.gprec) + $(count memcpy step.gprec) + $(count memset step.gprec)))
[ $activities = 1812 ] || fail "step.gprec: $activities kernels, copies and memsets"
python3 - <<'PY' || fail "gpuprof record and torch.profiler disagree"
import csv, sys
def kernels(p):
    r = {}
    for f in csv.reader(open(p), delimiter="\t"):
        if f[0] == "GPU activities":
            r[f[-1]] = (int(f[3]), float(f[2]))
    return r
ours, kin = kernels("ours.tsv"), kernels("kin.tsv")
assert len(ours) >= 30, "only %d kernel names" % len(ours)
assert set(ours) == set(kin), set(ours) ^ set(kin)
for n in ours:
    assert ours[n][0] == kin[n][0], (n, ours[n], kin[n])
    assert abs(ours[n][1] - kin[n][1]) <= 0.10 * kin[n][1], (n, ours[n], kin[n])
assert sum(c for c, _ in ours.values()) == 1812
def ops(p):
    rows = list(csv.DictReader(open(p), delimiter="\t"))
    return {r["Name"]: (int(r["# of Calls"]), float(r["Self GPU (ns)"])) for r in rows if float(r["Self GPU (ns)"]) > 0}
on, ok = ops("ops-nvtx.tsv"), ops("ops-kin.tsv")
assert len(on) >= 10 and set(on) == set(ok), set(on) ^ set(ok)
for n in on:
    assert on[n][0] == ok[n][0], (n, on[n], ok[n])
    assert abs(on[n][1] - ok[n][1]) <= 0.10 * ok[n][1], (n, on[n], ok[n])
PY
# under emit_nvtx every kernel of the steps has its aten:: op (the one
# without is the input's randn, before the steps)
run_ok "$GPUPROF" report -f tsv --no-header -c op,kernel step-nvtx.gprec
n=$(wc -l <"$TMP/out")
[ "$n" = "$(count kernel step-nvtx.gprec)" ] || fail "report: $n rows"
[ "$(grep -c '^na	' "$TMP/out")" = 1 ] || fail "kernels without op: $(grep -c '^na	' "$TMP/out")"
assert_grep '^na	distribution_elementwise_grid_stride_kernel' "$TMP/out"

# 4. libgpuprof's markers from gpuprof.torch: six iterations; the autograd
# thread's kernels in the backward phase are bprop with their iteration;
# forward kernels carry the layer path
run_ok "$GPUPROF" report -f tsv --no-header -c dir,op,layer,iter markers.gprec
[ "$(awk -F'\t' '$1 == "bprop" && $2 == "backward" && $4 != "na"' "$TMP/out" | wc -l)" = 972 ] ||
	fail "markers: backward kernels: $(awk -F'\t' '$1 == "bprop"' "$TMP/out" | wc -l) bprop"
[ "$(cut -f4 "$TMP/out" | grep -v na | sort -un | tr '\n' ' ')" = "0 1 2 3 4 5 " ] || fail "markers: iterations"
assert_grep '^fprop	forward	Sequential/0/attn	0$' "$TMP/out"
run_ok "$GPUPROF" ranges -f tsv --no-header markers.gprec
for r in iteration iteration/forward iteration/backward iteration/update; do
	awk -F'\t' -v r="$r" '$NF == r && $1 == 6 { f = 1 } END { exit !f }' "$TMP/out" ||
		fail "markers: no 6 calls of $r"
done

# 5. the CUDA example: its capture range leaves the warm-up iteration out;
# at sync level 2 every kernel lies inside its phase's range; the GPU timers
# (CUDA events around each launch) are never shorter than the layer's kernel
[ "$(count kernel cuda.gprec)" = 20 ] && [ "$(count memset cuda.gprec)" = 1 ] || fail "cuda.gprec counts"
[ "$(count kernel cap.gprec)" = 16 ] && [ "$(count memset cap.gprec)" = 0 ] || fail "cap.gprec counts"
run_ok "$GPUPROF" info cap.gprec
assert_grep '^capture_range +cudaProfilerApi$' "$TMP/out"
awk -F'\t' '$1 == "range" && ($NF == "forward" || $NF == "backward" || $NF == "update") { s[n] = $5; e[n++] = $6 }
	$1 == "kernel" { ks[m] = $2; ke[m++] = $3 }
	END { for (i = 0; i < m; i++) { in_ = 0; for (j = 0; j < n; j++) if (ks[i] >= s[j] && ke[i] <= e[j]) in_ = 1
		if (!in_) { print "kernel " i " outside its phase"; exit 1 } } }' cuda.gprec || fail "sync level 2"
"$GPUPROF" report -f tsv --no-header -c layer,sil cuda.gprec >k.tsv || fail "report cuda.gprec"
"$GPUPROF" ranges -f tsv --no-header lib.gprec >t.tsv || fail "ranges lib.gprec"
python3 - <<'PY' || fail "GPU timers shorter than their kernels"
import csv
k = {}
for layer, sil in csv.reader(open("k.tsv"), delimiter="\t"):
    k.setdefault(layer, []).append(int(sil))
timers = {r[-1]: r for r in csv.reader(open("t.tsv"), delimiter="\t") if r[-2] == "gpu-timer"}
assert set(timers) == set(k) == {"Conv1", "Conv2", "Conv2_grad", "SGD"}, (timers, k)
for name, r in timers.items():
    assert int(r[0]) == len(k[name]) == 5, r
    assert int(r[3]) >= max(k[name]), (name, r, k[name])   # min timer >= longest kernel
PY

# 6. CUDA graphs: the replayed forward runs the eager forward's kernels
# (torch.profiler traces: 5 forwards each); the recording of the graph run
# holds warm-up, capture and replays
"$GPUPROF" summary -f tsv --no-header graph-eager-kineto.json | awk -F'\t' '$1 == "GPU activities" { print $NF "\t" $4 }' | sort >e.tsv
"$GPUPROF" summary -f tsv --no-header graph-replay-only-kineto.json | awk -F'\t' '$1 == "GPU activities" { print $NF "\t" $4 }' | sort >r.tsv
[ -s e.tsv ] && cmp e.tsv r.tsv || fail "graph replay's kernels differ from eager's: $(diff e.tsv r.tsv | head -5)"
[ "$(awk -F'\t' '{ n += $2 } END { print n }' r.tsv)" = 75 ] || fail "replay: not 75 kernels"
run_ok "$GPUPROF" report -f tsv --no-header -c api graph-replay.gprec
[ "$(grep -c '^cudaGraphLaunch$' "$TMP/out")" = 75 ] || fail "graph-replay.gprec: $(grep -c '^cudaGraphLaunch$' "$TMP/out") kernels of graph launches"
[ "$(count kernel graph-eager.gprec)" = 94 ] && [ "$(count kernel graph-replay.gprec)" = 141 ] || fail "graph recordings' counts"

# 7. what-if on real hardware: the model's GPU span for slow_kernel 3x
# faster (from the 600 us recording) against the run where it really was
# (the 200 us recording), and back; within 2% (docs/dependencies.md)
span() { "$GPUPROF" breakdown -f csv --no-header "$1" | awk -F, '$2 == "\"all\"" && $3 == "\"span\"" { gsub(/"/, "", $4); print $4 }'; }
after() { "$GPUPROF" advise -f csv --what-if "$2" "$1" | awk -F, '$1 == "\"gpu_span\"" { gsub(/"/, "", $3); print $3 }'; }
s600=$(span whatif-600.gprec) s200=$(span whatif-200.gprec)
p200=$(after whatif-600.gprec 'kernel:slow_kernel=3x') p600=$(after whatif-200.gprec 'kernel:slow_kernel=0.3333333x')
[ -n "$s600" ] && [ -n "$s200" ] && [ -n "$p200" ] && [ -n "$p600" ] || fail "what-if: no figures ($s600 $s200 $p200 $p600)"
awk -v p="$p200" -v m="$s200" 'BEGIN { exit !(p > 0.98 * m && p < 1.02 * m) }' || fail "what-if 3x: predicted $p200, measured $s200"
awk -v p="$p600" -v m="$s600" 'BEGIN { exit !(p > 0.98 * m && p < 1.02 * m) }' || fail "what-if 1/3x: predicted $p600, measured $s600"


# 8. CUDA graphs attributed (docs/graphs.md): the recording's graph node
# callbacks give each replayed kernel the op open at its capture, so the
# replays' kernels per op equal the eager forwards' (emit_nvtx), and
# libgpuprof layers around a capture reach the replays; torch.profiler's
# replay trace with its capture trace (--capture) gives the eager ops too
"$GPUPROF" report -f tsv --no-header -c api,op graph-replay-nvtx.gprec |
	awk -F'\t' '$1 == "cudaGraphLaunch" { print $2 }' | sort | uniq -c >replayed.txt
"$GPUPROF" report -f tsv --no-header -c op graph-eager-nvtx.gprec | grep -v '^na$' | sort | uniq -c >eager.txt
[ -s replayed.txt ] && cmp eager.txt replayed.txt || fail "replayed ops differ from eager: $(diff eager.txt replayed.txt | head -5)"
grep -q ' 30 aten::linear$' replayed.txt || fail "replayed aten::linear: $(cat replayed.txt)"
run_ok "$GPUPROF" report -f tsv --no-header -c layer,kernel graph-layers.gprec
[ "$(sort "$TMP/out" | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';')" = "10 - kernel_d;10 decoder kernel_c;20 encoder kernel_a;10 encoder kernel_b;" ] ||
	fail "graph layers: $(sort "$TMP/out" | uniq -c | tr '\n' ';')"
"$GPUPROF" summary -f tsv --no-header --by op --capture graph-capture-kineto.json graph-replay-only-kineto.json |
	awk -F'\t' '$1 == "GPU activities" { print $NF "\t" $4 }' | sort >rk.tsv
"$GPUPROF" summary -f tsv --no-header --by op graph-eager-kineto.json |
	awk -F'\t' '$1 == "GPU activities" { print $NF "\t" $4 }' | sort >ek.tsv
[ -s rk.tsv ] && cmp ek.tsv rk.tsv || fail "Kineto replay with its capture: $(diff ek.tsv rk.tsv | head -5)"
# torch.profiler around both the capture and the replays (one file): the
# trace's own capture attributes the replays, kernel by kernel as in the
# eager run (op, kernel, shapes); the two fill_ launched eagerly stay so
"$GPUPROF" report -f tsv --no-header -c op,kernel,params graph-eager-kineto.json | sort | uniq -c >ep.txt
"$GPUPROF" report -f tsv --no-header -c graph,op,kernel,params graph-replay-kineto.json >rp.all || fail "report graph-replay-kineto.json"
awk -F'\t' '$1 == "captured"' rp.all | cut -f2- | sort | uniq -c >rp.txt
[ -s rp.txt ] && cmp ep.txt rp.txt || fail "replays with their capture in the same file: $(diff ep.txt rp.txt | head -5)"
assert_eq "$(grep -c '^captured	' rp.all) $(grep -c '^eager	fill_	' rp.all) $(wc -l <rp.all | tr -d ' ')" "75 2 77" \
	"replayed and eager kernels of graph-replay-kineto.json"
run_ok "$GPUPROF" info graph-replay-kineto.json
assert_grep '^  with an op +75 of them \(100\.0% of their GPU time\)$' "$TMP/out"
