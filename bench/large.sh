#!/bin/sh
# Large traces shaped like real ones (docs/PERFORMANCE.md, "Large traces"):
# real shared traces grown K times with ../shared/tools/grow_kineto.py and
# grow_nvprof.py, beside generated ones, each timed against its floor:
#   Kineto JSON  the bare yajl parse with empty callbacks
#                (bench/json_parse_baseline.c)
#   nsys/nvprof  stepping the rows and columns the reader reads
#                (bench/sql_rows.c with bench/nsys_read.sql / nvprof_read.sql)
# For each trace and command (`report -f csv -c kernel,op,sil`, `summary`)
# it runs RUNS pairs, the floor and gpuprof alternating (which goes first
# alternates too), and prints the medians of the per-pair wall and CPU
# ratios, gpuprof's median wall/CPU seconds and peak RSS (/usr/bin/time),
# and peak RSS per file byte (JSON; of the inflated size for .gz) or per
# kernel (SQLite).
#
# usage: bench/large.sh [GPUPROF [GEN]]
#   env: RUNS=5 (pairs), DIR=build/bench/large, TOOLS=../shared/tools,
#        TESTDATA=../shared/testdata, ONLY="name ..." (a subset, names as
#        printed), MODEL_BYTES=1 (also print bytes per table, bench/model_bytes.c)
# The grown traces (~300 MB each, the PyProf LM database grown to 1M
# kernels 1.3 GB; ~4 GB in all) are made once and kept in DIR.
set -eu
GPUPROF=${1:-build/gpuprof}
GEN=${2:-build/gpuprof-gen}
RUNS=${RUNS:-5}
DIR=${DIR:-build/bench/large}
top=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${TOOLS:-$top/../shared/tools}
TESTDATA=${TESTDATA:-$top/../shared/testdata}
ONLY=${ONLY:-}
mkdir -p "$DIR"
for t in "$GPUPROF" "$GEN" /usr/bin/time; do
	[ -x "$t" ] || { echo "large.sh: $t missing (make; apt-get install time)" >&2; exit 2; }
done
[ -d "$TESTDATA" ] && [ -d "$TOOLS" ] || { echo "large.sh: $TESTDATA or $TOOLS missing" >&2; exit 2; }
CC=${CC:-cc}
$CC -O2 -o "$DIR/json_parse_baseline" "$top/bench/json_parse_baseline.c" -lyajl -lz
$CC -O2 -o "$DIR/sql_rows" "$top/bench/sql_rows.c" -lsqlite3
if [ "${MODEL_BYTES:-0}" = 1 ]; then
	# links the analyzer's objects as built by make: those of the sources
	# that exist (the object of a file moved or removed since would define
	# symbols twice; main.c and the MPI build's mpi.c are not the core)
	# and the html writer's embedded assets
	objs=$(for s in "$top"/src/*/*.c; do case $s in */main.c|*/mpi.c) ;; *)
		s=${s#"$top"/}; echo "$top/build/obj/${s%.c}.o" ;; esac; done)
	$CC -O2 -std=c11 -D_GNU_SOURCE -I"$top/src" -I"$top/include" -o "$DIR/model_bytes" \
		"$top/bench/model_bytes.c" $objs "$top/build/obj/gen/html_assets.o" \
		-lsqlite3 -lz -lyajl -liberty -lm -lpthread
fi

# the traces: NAME FILE, made on first use
grow_kineto() { # NAME SRC K [--minify]
	f=$DIR/$1.json
	[ -f "$f" ] || python3 "$TOOLS/grow_kineto.py" "$TESTDATA/$2" "$f" "$3" ${4:-} >/dev/null
	echo "$1 $f"
}
list() {
	grow_kineto resnet-x10 kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz 10
	grow_kineto resnet-x10-min kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz 10 --minify
	grow_kineto param-resnet-x10 param/resnet_kineto.json.gz 10
	grow_kineto bert-h100-x300 tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz 300
	grow_kineto df-index-x5 hta/df_index_resolver/df_index_resolver.json.gz 5
	f=$DIR/gen-kineto-200000.json
	[ -f "$f" ] || "$GEN" --format kineto -n 200000 -o "$f" >/dev/null
	echo "gen-kineto-200k $f"
	f=$DIR/lm-x300.nvprof
	[ -f "$f" ] || python3 "$TOOLS/grow_nvprof.py" "$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql" "$f" 300 >/dev/null
	echo "pyprof-lm-x300 $f"
	f=$DIR/lm-x3522.nvprof   # 1,000,248 kernels, 1.3 GB: a real export at 1M kernels
	[ -f "$f" ] || python3 "$TOOLS/grow_nvprof.py" "$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql" "$f" 3522 >/dev/null
	echo "pyprof-lm-1M $f"
	for fmt in nsys nvprof; do
		f=$DIR/gen-1000000.$fmt
		[ -f "$f" ] || "$GEN" --format $fmt -n 1000000 --seed 1 --streams 2 -o "$f" >/dev/null
		echo "gen-$fmt-1M $f"
	done
}

# one_run OUT CMD...: runs CMD once, appends "wall cpu maxrss_kb" to OUT
one_run() {
	out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$DIR/time.out" "$@" >/dev/null
	read -r s u y k <"$DIR/time.out"
	echo "$s $(echo "$u + $y" | bc) $k" >>"$out"
}

. "$top/bench/medians.sh"   # median

printf '%-16s %-9s %8s %8s %8s %8s %9s %10s\n' trace command "wall x" "CPU x" "wall s" "CPU s" "RSS MiB" "RSS/unit"
list | while read -r name file; do
	case " $ONLY " in "  ") ;; *" $name "*) ;; *) continue ;; esac
	case $file in
	*.json | *.json.gz)
		floor="$DIR/json_parse_baseline $file"
		if [ "${file%.gz}" != "$file" ]; then unit=$(gzip -dc "$file" | wc -c); else unit=$(wc -c <"$file"); fi
		per=file ;;
	*.nsys) floor="$DIR/sql_rows $file $top/bench/nsys_read.sql"
		unit=$(sqlite3 "$file" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL'); per=kernel ;;
	*.nvprof) floor="$DIR/sql_rows $file $top/bench/nvprof_read.sql"
		unit=$(sqlite3 "$file" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL'); per=kernel ;;
	esac
	cat "$file" >/dev/null   # page cache warm for both sides
	for cmd in report summary; do
		case $cmd in report) args="report -f csv -c kernel,op,sil" ;; summary) args=summary ;; esac
		: >"$DIR/floor.runs"
		: >"$DIR/gp.runs"
		: >"$DIR/ratios"
		i=0
		while [ $i -lt "$RUNS" ]; do
			if [ $((i % 2)) = 0 ]; then
				one_run "$DIR/floor.runs" $floor
				one_run "$DIR/gp.runs" "$GPUPROF" $args "$file"
			else
				one_run "$DIR/gp.runs" "$GPUPROF" $args "$file"
				one_run "$DIR/floor.runs" $floor
			fi
			i=$((i + 1))
		done
		paste -d' ' "$DIR/floor.runs" "$DIR/gp.runs" |
			awk '{printf "%f %f\n", ($1 > 0 ? $4 / $1 : 0), ($2 > 0 ? $5 / $2 : 0)}' >"$DIR/ratios"
		wx=$(cut -d' ' -f1 "$DIR/ratios" | median)
		cx=$(cut -d' ' -f2 "$DIR/ratios" | median)
		ws=$(cut -d' ' -f1 "$DIR/gp.runs" | median)
		cs=$(cut -d' ' -f2 "$DIR/gp.runs" | median)
		kb=$(cut -d' ' -f3 "$DIR/gp.runs" | median)
		if [ $per = file ]; then
			perunit=$(echo "scale=3; $kb * 1024 / $unit" | bc)x
		else
			perunit="$(echo "$kb * 1024 / $unit" | bc) B/k"
		fi
		printf '%-16s %-9s %8.2f %8.2f %8.2f %8.2f %9d %10s\n' "$name" "$cmd" "$wx" "$cx" "$ws" "$cs" \
			$((kb / 1024)) "$perunit"
	done
	if [ "${MODEL_BYTES:-0}" = 1 ]; then
		GPUPROF_THREADS=1 "$DIR/model_bytes" "$file" | sed "s/^/  $name: /"
	fi
done
