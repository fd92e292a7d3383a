# Traces of different jobs in one directory (issue 35, "unrelated traces
# become one job"): a folder with 2 DLRM V100 rank files, a BERT H100 trace
# and a README is refused, naming the two files and the GPU models (read
# here from the raw deviceProperties); the same files named one by one are
# compared as given, with a note.  World sizes that differ (distributedInfo)
# are refused too.  A number in a file name is a rank only after "rank":
# "model__1016005.json" is ranked by its position, not rank 1016005.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
R="$TESTDATA/verdicts/param/dlrm_kineto_8rank"
B="$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"
[ -d "$R" ] && [ -r "$B" ] || skip "DLRM ranks or the BERT trace missing"
D=$TMP/mixed; mkdir "$D"
ln -s "$R"/worker0_*.json.gz "$R"/worker1_*.json.gz "$B" "$D/" || fail ln
echo "notes" >"$D/README"
gpus=$(python3 - "$D" <<'PY'
import glob, gzip, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json.gz"))):
    print(json.load(gzip.open(f))["deviceProperties"][0]["name"])
PY
) || fail "reading the raw traces"
bert=$(echo "$gpus" | head -1); dlrm=$(echo "$gpus" | tail -1)
[ "$bert" != "$dlrm" ] || fail "the oracle found one GPU model"
for cmd in ranks summary html; do
	o=; [ $cmd = html ] && o="-o $TMP/p.html"
	expect_exit 2 "$GPUPROF" $cmd $o "$D"
	assert_grep "^gpuprof $cmd: $D/worker0_[^ ]* is not of the job of $D/gaunernst_[^ ]* \(GPU $dlrm, not $bert\): give one job's rank files" "$TMP/err"
	[ ! -s "$TMP/out" ] || fail "$cmd wrote output for traces of different jobs"
	[ ! -e "$TMP/p.html" ] || fail "$cmd left a page"
done
run_ok "$GPUPROF" ranks -f csv "$D"/gaunernst_*.json.gz "$D"/worker0_*.json.gz
assert_grep "^gpuprof ranks: note: .* is not of the job of .*\(files named one by one: compared as given\)$" "$TMP/err"
[ "$(wc -l <"$TMP/out")" = 3 ] || fail "not a header and 2 rows"

# world sizes that differ; names whose numbers are no rank
W=$TMP/world; mkdir "$W"
for r in 0 1; do
	"$GEN" --format kineto -n 200 --seed $((r + 1)) -o "$TMP/g$r.json" >/dev/null || fail gen
	cp "$TMP/g$r.json" "$TMP/model__101600$r.json"
	python3 - "$TMP/g$r.json" "$W/rank$r.json" $r $((2 + 2 * r)) <<'PY' || fail "writing distributedInfo"
import json, sys
t = json.load(open(sys.argv[1]))
t["distributedInfo"] = {"backend": "nccl", "rank": int(sys.argv[3]), "world_size": int(sys.argv[4])}
json.dump(t, open(sys.argv[2], "w"))
PY
done
expect_exit 2 "$GPUPROF" ranks "$W"
assert_grep "^gpuprof ranks: $W/rank1.json is not of the job of $W/rank0.json \(world size 4, not 2\)" "$TMP/err"
run_ok "$GPUPROF" ranks -f csv "$TMP/model__1016001.json" "$TMP/model__1016000.json"
assert_eq "$(cut -d, -f1,2 "$TMP/out" | tr -d '"' | tr '\n' ' ')" "Rank,From 0,order 1,order "
