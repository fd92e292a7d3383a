#!/bin/sh
# outputs.sh GPUPROF GEN OUTDIR: runs every command in several formats on
# every trace in ../shared/testdata (and on fixed-seed generated traces) and
# writes stdout, stderr and the exit code of each run to OUTDIR, one file per
# run.  Two such directories, made before and after a change, are compared
# with `diff -r`: a restructuring must leave them byte-identical apart from
# the fixes it names.  GEN is the trace generator (build/gpuprof-gen).
set -u
gp=$1 gen=$2 out=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
td=${TESTDATA:-$top/../shared/testdata}
[ -d "$td" ] || { echo "outputs.sh: $td not found" >&2; exit 77; }
mkdir -p "$out/gen"
for f in nsys nvprof kineto; do
	$gen --format $f -n 3000 --seed 11 --streams 3 -o "$out/gen/gen.$f" --force >/dev/null || exit 1
done
one() { # NAME ARGS...: run gpuprof ARGS, keep stdout, stderr and status
	n=$1; shift
	"$gp" "$@" >"$out/$n.out" 2>"$out/$n.err"
	echo $? >"$out/$n.rc"
}
find "$td" -type f \( -name '*.sqlite' -o -name '*.sql' -o -name '*.nvvp' -o -name '*.json' -o -name '*.json.gz' \) \
	-not -path '*/expected/*' | sort >"$out/files"
ls "$out"/gen/gen.* >>"$out/files"
while read -r f; do
	id=$(echo "${f#"$td"/}" | sed 's|^.*/gen/|gen/|; s|[/ ]|_|g')
	one "$id.info" info "$f"
	one "$id.info-json" info -f json "$f"
	one "$id.report" report "$f"
	one "$id.report-csv" report -f csv -c kernel,op,mod,dir,seq,altseq,layer,trace,iter,params,sil,flops,bytes,tc,gflops,gbps,eff,bound "$f"
	one "$id.report-json" report -f json "$f"
	one "$id.summary" summary "$f"
	for b in op layer iter stream device; do one "$id.summary-$b" summary -f csv --by $b "$f"; done
	one "$id.summary-json" summary -f json "$f"
	one "$id.advise" advise "$f"
	one "$id.advise-json" advise -f json "$f"
	one "$id.breakdown" breakdown -f csv "$f"
	one "$id.breakdown-streams" breakdown -f csv --view streams "$f"
	one "$id.breakdown-gaps" breakdown -f csv --view gaps "$f"
	one "$id.ranges" ranges "$f"
	one "$id.memory" memory "$f"
	one "$id.memory-op" memory -f json --by op "$f"
	one "$id.ops" ops "$f"
	one "$id.ops-shape-csv" ops -f csv --group-by shape "$f"
	one "$id.ops-stack-json" ops -f json --group-by stack --stack-depth 3 "$f"
	one "$id.ops-python" ops --python "$f"
	one "$id.comm" comm -f csv "$f"
	one "$id.comm-kinds" comm -f json -V kinds "$f"
	one "$id.html" html -o - "$f"
done <"$out/files"
# several rank files at once: the two ranks of one job
if [ -d "$td/hta/trace_filter" ]; then
	one "multi.comm" comm -f csv "$td"/hta/trace_filter/sampled_rank-*.json.gz
	one "multi.comm-calls" comm -f csv -V calls "$td"/hta/trace_filter/sampled_rank-*.json.gz
fi
# diff: the shared pairs of two runs; the rank files of one job against
# themselves (a run of several files a side); the comparison page
for p in trace_diff/control/control.json.gz:trace_diff/test/test.json.gz \
	trace_compare/base/base.json.gz:trace_compare/test/test.json.gz; do
	[ -f "$td/hta/${p%%:*}" ] || continue
	pair=${p%%/*}
	one "diff.$pair" diff "$td/hta/${p%%:*}" "$td/hta/${p#*:}"
	one "diff.$pair-op-tsv" diff -f tsv --by op "$td/hta/${p%%:*}" "$td/hta/${p#*:}"
	one "diff.$pair-html" diff -f html -o - "$td/hta/${p%%:*}" "$td/hta/${p#*:}"
done
if [ -d "$td/hta/trace_filter" ]; then
	one "multi.diff-ranks" diff -f tsv --by rank "$td/hta/trace_filter/sampled_rank-*.json.gz" \
		"$td/hta/trace_filter"
fi
