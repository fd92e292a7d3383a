# gpuprof comm --view a2a: expert-parallel all-to-all-v per rank, peer,
# layer and pass.  A generated 4-rank job (gpuprof-gen --a2a, rank 2 late
# by 300 us, clocks 1 s apart, 2 iterations): at dispatch rank r sends
# 16(1+r+2p) rows of 2048 FP8 to rank p, at combine the reverse in BF16,
# with record_param_comms split sizes, Seq and group "1"; passes F and B
# over layer0 and layer1.  The truth is computed here from that
# construction: bytes per rank and peer, largest/mean across ranks, peers
# and each rank's peers, every non-slow rank's 300 us wait per call, each
# call's transfer (the largest input at 64 GB/s) and busbw (x 3/4).  Then
# the 8 DLRM ranks of param (no split sizes: nccl:all_to_all's input and
# c10d::alltoall_base_'s output) against tests/tools/a2a_oracle.py.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto --ranks 4 --a2a --slow-rank 2 --delay-us 300 --clock-skew-us 1000000 --iters 2 -o "$TMP/job"
run_ok "$GPUPROF" comm -V a2a -f csv --no-header "$TMP/job"
tr -d '"' <"$TMP/out" >"$TMP/got"
python3 - >"$TMP/want" <<'PY'
n, iters, slow, delay = 4, 2, 2, 300000
def d(r, p): return 16 * (1 + r + 2 * p)          # dispatch rows r -> p
DB, CB = 2048, 4096                                # bytes per row: FP8, BF16
calls = 4 * iters                                  # per rank, of each of dispatch and combine
M = [[calls * (d(r, p) * DB + d(p, r) * CB) for p in range(n)] for r in range(n)]
sent = [sum(M[r]) for r in range(n)]
recv = [calls * sum(d(p, r) * DB + d(r, p) * CB for p in range(n)) for r in range(n)]
tdis = max(sum(d(r, p) for p in range(n)) for r in range(n)) * DB // 64
tcom = max(sum(d(p, r) for p in range(n)) for r in range(n)) * CB // 64
def lom(v): return "%.3f" % (max(v) * len(v) / sum(v))
rtime = [calls * (tdis + tcom) + (0 if r == slow else 2 * calls * delay) for r in range(n)]
wait = [0 if r == slow else 2 * calls * delay for r in range(n)]
col = [sum(M[r][p] for r in range(n)) for p in range(n)]
hot = col.index(max(col))
print(",".join(map(str, ["job", "", "", "", "", 2 * calls, sum(sent), sum(recv), sum(rtime) // n, max(rtime),
                         sum(wait), calls * (tdis + tcom), max(sent), lom(sent)])))
print(",".join(map(str, ["peers", "", hot, "", "", "", "", col[hot], "", "", "", "", col[hot], lom(col)])))
for r in range(n):
    big = M[r].index(max(M[r]))
    print(",".join(map(str, ["rank", r, big, "", "", 2 * calls, sent[r], recv[r], rtime[r], "", wait[r], "",
                             M[r][big], lom(M[r])])))
# per layer and pass: 2 calls a rank (one per iteration); sorted by time
rows = []
for op, t, b in (("combine", tcom, CB), ("dispatch", tdis, DB)):
    per = [iters * (t + (0 if r == slow else delay)) for r in range(n)]
    nbytes = iters * sum(d(r, p) for r in range(n) for p in range(n)) * b
    for layer in (0, 1):
        for ps in "BF":
            rows.append((-sum(per), "layer%d/%s(%s)" % (layer, op, ps), ps, per, nbytes, t))
for key, label, ps, per, nbytes, t in sorted(rows):
    print(",".join(map(str, ["layer", "", "", label, ps, iters, nbytes, "", sum(per) // n, max(per),
                             iters * (n - 1) * delay, iters * t, "", lom(per)])))
for r in range(n):
    for p in range(n):
        print(",".join(map(str, ["peer", r, p, "", "", "", M[r][p], "", "", "", "", "", "", ""])))
PY
diff "$TMP/want" "$TMP/got" >&2 || fail "a2a view of the generated job (< expected)"

# the calls: matched by Seq in group 1; transfer and busbw by construction
run_ok "$GPUPROF" comm -V calls -n 2 -f csv --no-header "$TMP/job"
assert_eq "$(tr -d '"' <"$TMP/out" | cut -d, -f1-3,5-7,10,12,13 | sort)" "all_to_all,1,0,917504,2,900000,14336,64.000,48.000
all_to_all,1,1,2228224,2,900000,34816,64.000,48.000" "calls: seq, busiest size, last rank, wait, transfer, algbw, busbw"

# json carries the same view
run_ok "$GPUPROF" comm -V a2a -f json "$TMP/job"
assert_grep '^\{"scope":"job",.*"calls":16,"sent_bytes":69206016,.*"imbalance":1.455\}' "$TMP/out"

# DLRM, 8 ranks: calls, bytes sent and received, kernel time per rank
need_testdata
D=$TESTDATA/verdicts/param/dlrm_kineto_8rank
[ -d "$D" ] || skip "no $D"
python3 "$TOP/tests/tools/a2a_oracle.py" "$D"/*.json.gz >"$TMP/want" || fail "a2a_oracle.py failed"
run_ok "$GPUPROF" comm -V a2a -f tsv --no-header "$D"
awk -F'\t' '$1 == "rank" { print $2, $6, $7, $8, $9 }' "$TMP/out" >"$TMP/got"
diff "$TMP/want" "$TMP/got" >&2 || fail "DLRM per rank (< a2a_oracle.py)"
# what the ranks send is what they receive, over the job
assert_eq "$(awk '{ s += $3; r += $4 } END { print (s == r && s > 0) }' "$TMP/want")" 1 "bytes sent = received"
# no split sizes recorded: no peer rows
assert_no_grep '^peer' "$TMP/out"
