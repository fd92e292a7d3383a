# PyProf parity: gpuprof report on the nvprof database of a PyTorch LM must
# give, row for row, the columns PyProf's own CSV gives for the same file
# (expected_pyprof_lm_da6bcc3.csv, made by PyProf from net_da6bcc3.sql).
need_testdata
d=$TESTDATA/nvprof/pyprof_lm_v100
run_ok "$GPUPROF" report --format csv -c kernel,mod,op,dir,sil,device,stream,block,grid "$d/net_da6bcc3.sql"
cp "$TMP/out" "$TMP/got.csv"
python3 - "$d/expected_pyprof_lm_da6bcc3.csv" "$TMP/got.csv" <<'PY' || fail "report differs from PyProf's CSV"
import csv, sys
cols = ["Kernel", "Module", "Op", "Direction", "Sil(ns)", "Device", "Stream", "Block", "Grid"]
exp = list(csv.DictReader(open(sys.argv[1])))
got = list(csv.DictReader(open(sys.argv[2])))
bad = 0
if len(exp) != len(got):
    print("rows: expected %d, got %d" % (len(exp), len(got)))
    bad += 1
for i, (e, g) in enumerate(zip(exp, got)):
    diff = [(c, e[c], g.get(c)) for c in cols if e[c] != g.get(c)]
    if diff:
        bad += 1
        if bad <= 20:
            print("row %d: %s" % (i, diff))
print("%d rows compared, %d differ" % (len(exp), bad))
sys.exit(1 if bad else 0)
PY
# The 5 linear bias kernels get PyProf's "bias" op from the op model.
assert_eq "$(grep -c '"torch.nn.functional","bias","fprop"' "$TMP/got.csv")" 5 "bias rows"
