# ops against TraceLens (issue 11 item 3): for every row of TraceLens's
# ops_summary.csv (testdata/expected/tracelens/NAME/, made by TraceLens
# itself), gpuprof's Self GPU equals TraceLens's total_direct_kernel_time
# (microseconds summed as floats: within 20 ns) on the BERT and
# df_index_resolver traces, and within 0.1% on the others (docs/ops-table.md
# "TraceLens" says where they differ).  TraceLens's Count is the number of
# instances that launched kernels directly; gpuprof's calls are all
# instances (PyTorch's): calls >= Count, equal where every instance launched.
need_testdata
exp=$TESTDATA/expected/tracelens
[ -d "$exp" ] || fail "$exp is missing"
while read -r name trace tol; do
	run_ok "$GPUPROF" ops -f csv "$TESTDATA/$trace"
	python3 - "$exp/$name/ops_summary.csv" "$TMP/out" "$tol" "$name" <<'PY' >&2 || fail "$name: ops differs from TraceLens"
import csv, sys
tl, gp, tol, name = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
rows = {r["Name"]: r for r in csv.DictReader(open(gp))}
bad = 0
want = list(csv.DictReader(open(tl)))
for r in want:
    g = rows.get(r["name"])
    direct = float(r["total_direct_kernel_time_sum"]) * 1000
    if g is None:
        print(name, "no row", r["name"]); bad += 1; continue
    if abs(float(g["Self GPU (ns)"]) - direct) > max(20, tol * direct) or int(g["# of Calls"]) < int(r["Count"]):
        print(name, r["name"], "Self GPU", g["Self GPU (ns)"], "TraceLens", direct, "calls", g["# of Calls"], r["Count"])
        bad += 1
if len(want) < 2:
    print(name, "only", len(want), "TraceLens rows"); bad += 1
sys.exit(1 if bad else 0)
PY
done <<'EOF2'
bert_h100 tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz 0
df_index_resolver hta/df_index_resolver/df_index_resolver.json.gz 0
nccl_parser_config hta/nccl_parser_config/nccl_data.json.gz 0.001
trace_diff_test hta/trace_diff/test/test.json.gz 0.001
EOF2
