# Kineto reader on every Kineto file in testdata (hta/, kineto_tb_plugin/,
# param/, tracelens/): info, report and summary exit 0; info's
# kernel/API/memcpy/memset counts, report's rows, summary's memcpy/memset/
# kernel calls and the sum of the kernels' Sil equal what python3 computes
# from the same JSON; where
# launches were captured and the trace has ops, >= 95% of the captured
# kernels are attributed to an op.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
cat > "$TMP/expect.py" <<'PY'
import decimal, gzip, json, sys
path, info_path, report_path, summary_path = sys.argv[1:5]
import csv
D = decimal.Decimal
opener = gzip.open if path.endswith('.gz') else open
with opener(path, 'rb') as f:
    doc = json.loads(f.read(), parse_float=D)
events = doc if isinstance(doc, list) else doc['traceEvents']
def cat(*names):
    return [e for e in events if e.get('ph') == 'X' and e.get('cat') in names and 'ts' in e]
def ns(us):   # microseconds as written -> ns, half up, as the reader does
    return int((D(us) * 1000).quantize(D(1), rounding=decimal.ROUND_HALF_UP))
kernels = cat('kernel', 'Kernel')
want = {
    'kernels': len(kernels),
    'memcpy': len(cat('gpu_memcpy', 'Memcpy')),
    'memset': len(cat('gpu_memset', 'Memset')),
    'api_calls': len(cat('cuda_runtime', 'cuda_driver', 'Runtime', 'mtia_runtime')),
    'synchronizations': len(cat('cuda_sync')),
}
info = json.load(open(info_path))
bad = [f'{k}: gpuprof {info.get(k)} python {v}' for k, v in want.items() if info.get(k) != v]
rows = [l.rstrip('\n').split('\t') for l in open(report_path)][1:]
if len(rows) != len(kernels):
    bad.append(f'report rows {len(rows)} != kernel events {len(kernels)}')
sil = sum(int(r[0]) for r in rows)
want_sil = sum(max(0, ns(e.get('dur', 0))) for e in kernels)
if sil != want_sil:
    bad.append(f'sum of Sil {sil} != sum of kernel dur {want_sil} ns')
captured = [r for r in rows if r[1] != 'na']
with_op = [r for r in captured if r[2] != 'na']
has_ops = any(e.get('cat') in ('cpu_op', 'Operator') for e in events)
if len(captured) >= 20 and has_ops and len(with_op) * 100 < len(captured) * 95:
    bad.append(f'only {len(with_op)} of {len(captured)} captured kernels attributed to an op')
# summary: one GPU-activities call per kernel, memcpy and memset event
calls = {'memcpy': 0, 'memset': 0, 'kernels': 0}
for r in csv.DictReader(open(summary_path)):
    if r['Type'] != 'GPU activities':
        continue
    kind = 'memcpy' if r['Name'].startswith('[CUDA memcpy') else \
           'memset' if r['Name'].startswith('[CUDA memset') else 'kernels'
    calls[kind] += int(r['Calls'])
for k, v in calls.items():
    if v != want[k]:
        bad.append(f'summary {k} calls {v} != {want[k]} events')
print(f'{path}: {len(kernels)} kernels, {len(with_op)}/{len(captured)} attributed')
if bad:
    sys.exit('; '.join(bad))
PY
n=0
for f in $(cd "$TESTDATA" && find hta kineto_tb_plugin param tracelens -name '*.json' -o -name '*.json.gz' | sort); do
	run_ok "$GPUPROF" info --format json "$TESTDATA/$f"
	cp "$TMP/out" "$TMP/info.json"
	assert_grep '"format": "kineto"' "$TMP/info.json"
	run_ok "$GPUPROF" report -f tsv -c sil,api,op "$TESTDATA/$f"
	cp "$TMP/out" "$TMP/report.tsv"
	run_ok "$GPUPROF" summary -f csv "$TESTDATA/$f"
	cp "$TMP/out" "$TMP/summary.csv"
	python3 "$TMP/expect.py" "$TESTDATA/$f" "$TMP/info.json" "$TMP/report.tsv" "$TMP/summary.csv" || fail "$f"
	n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n Kineto files found"
