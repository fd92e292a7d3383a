# gpuprof comm: collectives within a node and across nodes, where the
# ranks' hosts are known.  gpuprof-gen --ranks 8 --nodes 2 puts ranks 0-3
# on host node0 and 4-7 on node1 (Kineto's host_name; nsys's
# TARGET_INFO_SYSTEM_ENV Hostname) and ends each iteration in an all-reduce
# of 32 MiB fp16 within the node (group nodeK, Group size 4) at 256 GB/s
# algbw from the node's last arrival, after the three collectives over all
# 8 ranks (all-reduce 64 MiB at 128 GB/s, all-gather and reduce-scatter of
# 8 x 8 MiB at 64 GB/s).  The truth is computed here from that
# construction; the hosts are read from the raw traces.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto --ranks 8 --nodes 2 --slow-rank 5 --delay-us 300 --clock-skew-us 1000000 --iters 3 -o "$TMP/job"

# the hosts, from each raw trace's host_name
python3 - "$TMP/job" >"$TMP/hosts" <<'PY'
import json, sys, os
for r in range(8):
    d = json.load(open(os.path.join(sys.argv[1], "rank-%d.json" % r)))
    print(d["distributedInfo"]["rank"], d["host_name"])
PY
run_ok "$GPUPROF" comm -f csv --no-header "$TMP/job"
tr -d '"' <"$TMP/out" | awk -F, '{ print $1, $12 }' >"$TMP/got"
diff "$TMP/hosts" "$TMP/got" >&2 || fail "ranks view: each rank's host (< from the traces)"

# nodes view: the intra-node all-reduces (2 nodes x 3 iterations, each
# moving 32 MiB in 131072 ns: busbw 256 x 2(4-1)/4) and the 3 x 3 calls
# over all ranks across nodes (busbw: 128 x 2 x 7/8, 64 x 7/8)
run_ok "$GPUPROF" comm -V nodes -f csv --no-header "$TMP/job"
tr -d '"' <"$TMP/out" >"$TMP/got"
python3 - >"$TMP/want" <<'PY'
n, per, iters = 8, 4, 3
MiB = 1 << 20
rows = []
intra = 32 * MiB, 32 * MiB // 256
rows.append(("intra", "all_reduce", 2 * iters, 0, 2 * iters * intra[0], 2 * iters * intra[1],
             2 * (per - 1) / per * 256))
ar = (64 * MiB, 64 * MiB // 128, 2 * (n - 1) / n)
ag = (4194304 * n * 2, 4194304 * n * 2 // 64, (n - 1) / n)
tot = [0, 0, 0.0]
for kind, (b, t, f) in (("all_reduce", ar), ("all_gather", ag), ("reduce_scatter", ag)):
    rows.append(("inter", kind, iters, 0, iters * b, iters * t, b * f / t))
    tot[0] += iters * b; tot[1] += iters * t; tot[2] += iters * b * f
rows.append(("inter", "all", 3 * iters, 0, tot[0], tot[1], tot[2] / tot[1]))
for r in rows:
    print(",".join(map(str, r[:6])) + ",%.3f" % r[6])
PY
diff "$TMP/want" "$TMP/got" >&2 || fail "nodes view (< expected by construction)"

# calls view: the calls over all ranks cross 2 hosts; the slow rank's
# waits are unchanged by the intra-node phase (7 x 300 us each)
run_ok "$GPUPROF" comm -V calls -n 100 -f csv --no-header "$TMP/job"
tr -d '"' <"$TMP/out" | awk -F, '{ print $1, $6, $7, $16, $17 }' | sort | uniq -c | awk '{$1=$1; print}' >"$TMP/got"
printf '%s\n' "3 all_gather 5 2100000 inter 2" "3 all_reduce 5 2100000 inter 2" \
	"3 reduce_scatter 5 2100000 inter 2" >"$TMP/want"
diff "$TMP/want" "$TMP/got" >&2 || fail "calls view: span and hosts per call"

# the files of one node: its own all-reduces are intra; the job's others
# have ranks not given, so where they ran is unknown
run_ok "$GPUPROF" comm -V nodes -f csv --no-header "$TMP"/job/rank-0.json "$TMP"/job/rank-1.json \
	"$TMP"/job/rank-2.json "$TMP"/job/rank-3.json
assert_eq "$(tr -d '"' <"$TMP/out" | cut -d, -f1,2,3 | tr '\n' ' ')" \
	"intra,all_reduce,3 unknown,all_reduce,3 unknown,all_gather,3 unknown,reduce_scatter,3 unknown,all,9 " \
	"one node's files"

# no host stated: none guessed, not even from a file name that looks like
# PyTorch's HOST_PID.TIME.pt.trace.json; every call's span is unknown
run_ok "$GEN" --format kineto --ranks 2 --iters 1 -o "$TMP/plain"
mkdir "$TMP/named"
cp "$TMP/plain/rank-0.json" "$TMP/named/gpu-a_4242.1717200000000.pt.trace.json"
cp "$TMP/plain/rank-1.json" "$TMP/named/gpu-b_77.1717200000001.pt.trace.json"
run_ok "$GPUPROF" comm -f csv --no-header "$TMP/named"
assert_eq "$(tr -d '"' <"$TMP/out" | awk -F, '{ print $1, $12 }' | tr '\n' ' ')" "0  1  " "no hosts"
run_ok "$GPUPROF" comm -V nodes -f csv --no-header "$TMP/named"
assert_eq "$(tr -d '"' <"$TMP/out" | cut -d, -f1 | sort -u)" "unknown" "no hosts: every span unknown"

# nsys: the host from TARGET_INFO_SYSTEM_ENV
command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
run_ok "$GEN" --format nsys --ranks 4 --nodes 2 --iters 1 -o "$TMP/nsys"
for r in 0 1 2 3; do
	printf '%s %s\n' "$r" "$(sqlite3 "$TMP/nsys/rank-$r.sqlite" \
		"SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name = 'Hostname'")"
done >"$TMP/hosts"
run_ok "$GPUPROF" comm -f csv --no-header "$TMP/nsys"
tr -d '"' <"$TMP/out" | awk -F, '{ print $1, $12 }' >"$TMP/got"
diff "$TMP/hosts" "$TMP/got" >&2 || fail "nsys ranks' hosts (< from TARGET_INFO_SYSTEM_ENV)"
