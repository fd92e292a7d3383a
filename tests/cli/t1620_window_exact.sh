# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# A window read gives exactly the rows of a full read filtered to the
# window (docs/window.md): report -f csv with every column but idx (which
# numbers the rows read), for --iters A:B (rows whose iter is A..B) and
# --start/--end (rows whose kernel overlaps the span), on every shared
# trace whose kernels have iterations and on generated traces of every
# format, gzip and a plain file read in parts on several threads too; a
# gzip file both inflated once (the pre-scan keeps the inflated bytes) and
# twice (GPUPROF_GZIP_KEEP=0: nothing kept, which info notes).  The
# filter is tests/tools/window_filter.py, computed from the full read's
# rows alone.
command -v python3 >/dev/null || skip "python3 not installed"
cols=seq,altseq,tid,layer,trace,dir,sub,mod,op,kernel,params,sil,tc,device,stream,grid,block,flops,bytes,start,end,pid,corr,longname,regs,smem,latency,api,gflops,gbps,intensity,ideal,eff,bound,tceligible,iter
for f in nsys nvprof kineto; do
	run_ok "$GEN" --format $f -n 4000 --seed 5 --streams 2 -o "$TMP/gen.$f"
done
gzip -c "$TMP/gen.kineto" >"$TMP/gen.kineto.gz"
ls "$TMP"/gen.* >"$TMP/files"
# every generated trace with iterations, and at least one shared one
want_min=$(wc -l <"$TMP/files")
if [ -n "$TESTDATA" ] && [ -d "$TESTDATA" ]; then
	want_min=$((want_min + 1))
	find "$TESTDATA" -type f \( -name '*.sqlite' -o -name '*.nvvp' -o -name '*.json' -o -name '*.json.gz' \) \
		-not -path '*/expected/*' | sort >>"$TMP/files"
else
	[ "${CI:-}" = true ] && fail "../shared/testdata is missing (required under CI)"
	echo "note: ../shared/testdata not found: generated traces only"
fi
checked=0
while read -r f; do
	"$GPUPROF" report -f csv -c "$cols" "$f" >"$TMP/full.csv" 2>/dev/null || continue
	# the iterations the kernels have, and a time span inside the trace
	read -r a b s e <<EOF2
$(python3 - "$TMP/full.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
its = sorted({int(r["Iter"]) for r in rows if r["Iter"] not in ("", "-", "na")})
starts = sorted(int(r["Start(ns)"]) for r in rows)
a = b = -1
if its:
    a = its[len(its) // 2]
    b = its[min(len(its) - 1, len(its) // 2 + 1)]
s = e = -1
if len(starts) > 2:
    s, e = starts[len(starts) // 3], starts[len(starts) // 2]
print(a, b, s, e)
PY
)
EOF2
	if [ "$a" -ge 0 ]; then
		run_ok "$GPUPROF" report -f csv -c "$cols" --iters "$a:$b" "$f"
		python3 tests/tools/window_filter.py "$TMP/full.csv" iters "$a" "$b" >"$TMP/want.csv"
		cmp -s "$TMP/out" "$TMP/want.csv" || { diff "$TMP/want.csv" "$TMP/out" | head -5 >&2; fail "$f: --iters $a:$b differs from the full read's rows"; }
		checked=$((checked + 1))
		case $f in *gen.kineto)   # the same window read split across threads
			GPUPROF_PARALLEL_MIN_BYTES=1 GPUPROF_THREADS=3 run_ok "$GPUPROF" report -f csv -c "$cols" --iters "$a:$b" "$f"
			cmp -s "$TMP/out" "$TMP/want.csv" || fail "$f: --iters $a:$b read in parts differs" ;;
		*.gz)   # inflated once (the pre-scan's bytes kept, the default) above,
			# also parsed from them in parts on several threads;
			# inflated twice (nothing kept), on one thread and on two
			GPUPROF_PARALLEL_MIN_BYTES=1 GPUPROF_THREADS=3 run_ok "$GPUPROF" report -f csv -c "$cols" --iters "$a:$b" "$f"
			cmp -s "$TMP/out" "$TMP/want.csv" || fail "$f: --iters $a:$b kept inflated, read in parts differs"
			for th in 1 2; do
				GPUPROF_GZIP_KEEP=0 GPUPROF_THREADS=$th run_ok "$GPUPROF" report -f csv -c "$cols" --iters "$a:$b" "$f"
				cmp -s "$TMP/out" "$TMP/want.csv" || fail "$f: --iters $a:$b inflated twice ($th threads) differs"
			done ;;
		esac
	fi
	if [ "$s" -ge 0 ] 2>/dev/null || [ "$s" -lt -1 ] 2>/dev/null; then
		run_ok "$GPUPROF" report -f csv -c "$cols" --start "$s" --end "$e" "$f"
		python3 tests/tools/window_filter.py "$TMP/full.csv" time "$s" "$e" >"$TMP/want.csv"
		cmp -s "$TMP/out" "$TMP/want.csv" || { diff "$TMP/want.csv" "$TMP/out" | head -5 >&2; fail "$f: --start $s --end $e differs from the full read's rows"; }
	fi
done <"$TMP/files"
[ "$checked" -ge "$want_min" ] || fail "only $checked traces with iterations checked (want $want_min)"
echo "$checked traces with iterations checked"
# a gzip window read over the keep limit says that it inflated twice
GPUPROF_GZIP_KEEP=0 run_ok "$GPUPROF" info --iters 1:2 "$TMP/gen.kineto.gz"
assert_grep "inflated twice" "$TMP/out"
run_ok "$GPUPROF" info --iters 1:2 "$TMP/gen.kineto.gz"
assert_no_grep "inflated twice" "$TMP/out"
