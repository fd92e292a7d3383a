# Minified Kineto JSON (the whole trace on one line, "},{" between events,
# as json.dump(separators=(',', ':')) and grow_kineto.py --minify write it)
# is split across threads like the one-event-a-line form: `info` and
# `report` (all columns), errors and exit codes are byte-identical to the
# one-thread parse, and to the one-thread parse of the original layout.
# (tests/unit/test_kineto.c, minified_split, checks that the split points of
# such a file are accepted rather than the file re-read in one pass.)
command -v python3 >/dev/null || skip "python3 not installed"
cols=idx,seq,altseq,tid,layer,trace,dir,sub,mod,op,kernel,params,sil,tc,device,stream,grid,block,flops,bytes,start,end,pid,corr,longname,regs,smem,latency,api,iter,gflops,gbps,intensity,ideal,eff,bound,tceligible

# same_output ORIGINAL MINIFIED: both, with one thread and with 2 and 3
same_output() {
	for cmd in "info --format json" "report -c $cols --format csv"; do
		GPUPROF_THREADS=1 "$GPUPROF" $cmd "$1" >"$TMP/orig.out" 2>"$TMP/orig.err"
		echo "exit $?" >>"$TMP/orig.err"
		GPUPROF_THREADS=1 "$GPUPROF" $cmd "$2" >"$TMP/seq.out" 2>"$TMP/seq.err"
		echo "exit $?" >>"$TMP/seq.err"
		for n in 2 3; do
			GPUPROF_THREADS=$n GPUPROF_PARALLEL_MIN_BYTES=0 "$GPUPROF" $cmd "$2" \
				>"$TMP/par.out" 2>"$TMP/par.err"
			echo "exit $?" >>"$TMP/par.err"
			cmp -s "$TMP/seq.out" "$TMP/par.out" || fail "$2: '$cmd' output differs with $n threads"
			cmp -s "$TMP/seq.err" "$TMP/par.err" || fail "$2: '$cmd' errors differ with $n threads"
		done
		# only the file name differs from the original layout's output
		sed "s|$2|FILE|g" "$TMP/seq.out" >"$TMP/a"
		sed "s|$1|FILE|g" "$TMP/orig.out" >"$TMP/b"
		cmp -s "$TMP/a" "$TMP/b" || fail "$2: '$cmd' differs from the original layout's"
	done
}

# minify IN OUT: IN (.json or .json.gz) on one line
minify() {
	python3 -c 'import gzip, json, sys
f = sys.argv[1]
d = json.load(gzip.open(f) if f.endswith(".gz") else open(f))
json.dump(d, open(sys.argv[2], "w"), separators=(",", ":"))' "$1" "$2" || fail "minifying $1"
}

run_ok "$GEN" --format kineto -n 2000 --streams 3 -o "$TMP/gen.json"
minify "$TMP/gen.json" "$TMP/gen.min.json"
same_output "$TMP/gen.json" "$TMP/gen.min.json"
# a raw newline cannot be in a string, but "},{" can: event names made of
# split look-alikes (escaped quotes), and a broken event near the end
python3 - "$TMP" <<'PY' || fail "writing the look-alikes"
import json, sys
d = sys.argv[1]
doc = json.load(open(d + "/gen.json"))
ev = doc["traceEvents"]
for i in range(len(ev) // 5, len(ev), len(ev) // 5):
    ev[i] = dict(ev[i], name='},{"ph":"X","name":"x"},{' * 200 + str(ev[i].get("name")))
json.dump(doc, open(d + "/trap.min.json", "w"), separators=(",", ":"))
ev[len(ev) * 3 // 4] = dict(ev[len(ev) * 3 // 4], ts="12")
json.dump(doc, open(d + "/bad.min.json", "w"), separators=(",", ":"))
PY
for f in trap bad; do
	GPUPROF_THREADS=1 "$GPUPROF" info "$TMP/$f.min.json" >"$TMP/seq.out" 2>"$TMP/seq.err"
	echo "exit $?" >>"$TMP/seq.err"
	for n in 2 3 4; do
		GPUPROF_THREADS=$n GPUPROF_PARALLEL_MIN_BYTES=0 "$GPUPROF" info "$TMP/$f.min.json" \
			>"$TMP/par.out" 2>"$TMP/par.err"
		echo "exit $?" >>"$TMP/par.err"
		cmp -s "$TMP/seq.out" "$TMP/par.out" || fail "$f: info differs with $n threads"
		cmp -s "$TMP/seq.err" "$TMP/par.err" || fail "$f: errors differ with $n threads"
	done
done
assert_grep "^exit 4" "$TMP/par.err"

# real traces: ResNet (kineto_tb_plugin), the H100 BERT trace (TraceLens),
# AlexNet (HTA critical path)
need_testdata
for f in kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz \
	tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz \
	hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
	[ -f "$TESTDATA/$f" ] || fail "$f not in testdata"
	gzip -dc "$TESTDATA/$f" >"$TMP/td.json"
	minify "$TMP/td.json" "$TMP/td.min.json"
	same_output "$TMP/td.json" "$TMP/td.min.json"
done
