# gpuprof summary on the trixi nsys export equals nsys stats'
# cuda_gpu_kern_sum and cuda_api_sum (expected_*.csv made by nsys 2023.1).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
dir=$TESTDATA/nsys/trixi_v100_2023.1
run_ok "$GPUPROF" summary --format csv "$dir/report1.sqlite"
python3 - "$TMP/out" "$dir/expected_cuda_gpu_kern_sum.csv" "$dir/expected_cuda_api_sum.csv" <<'PY' || fail "differs from nsys stats"
import csv, sys
ours = list(csv.DictReader(open(sys.argv[1])))
cols = ["Time (%)", "Total Time (ns)", None, "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)", "Name"]
def rows(path, count):
    out = []
    for r in csv.DictReader(open(path)):
        out.append([r[c] if c else r[count] for c in cols])
    return out
def mine(section):
    return [[r[c] if c else r["Calls"] for c in cols] for r in ours if r["Type"] == section]
for section, path, count in (("GPU activities", sys.argv[2], "Instances"), ("API calls", sys.argv[3], "Num Calls")):
    want, got = rows(path, count), mine(section)
    if want != got:
        sys.exit("%s:\n want %s\n got  %s" % (section, want, got))
PY
# --base uses the short name; table and json carry the same numbers
run_ok "$GPUPROF" summary --base --section gpu --format tsv --no-header "$dir/report1.sqlite"
assert_eq "$(cut -f3,4,10 "$TMP/out")" "$(printf '2272\t1\tadd_arrays_')" "base name row"
run_ok "$GPUPROF" summary --format json "$dir/report1.sqlite"
python3 -c "
import json, sys
d = [json.loads(l) for l in open('$TMP/out')]  # JSON Lines
api = [r for r in d if r['type'] == 'API calls']
assert [r['name'] for r in api] == ['cuModuleLoadDataEx', 'cuLaunchKernel', 'cuCtxSynchronize', 'cuMemHostAlloc'], api
assert api[2]['stddev_ns'] == 4704.2 and api[2]['calls'] == 3 and api[2]['med_ns'] == 10416
" || fail "json output"
run_ok "$GPUPROF" summary "$dir/report1.sqlite"
assert_grep '^API calls +57\.9% +113\.105 us +1 ' "$TMP/out"
assert_grep '^ +13\.1% +25\.566 us +3 +8\.522 us +10\.416 us +3\.166 us +11\.984 us +4\.704 us cuCtxSynchronize$' "$TMP/out"
