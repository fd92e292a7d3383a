#!/bin/sh
# The floors of a Kineto read (docs/PERFORMANCE.md, "A floor beyond yajl"):
# on each JSON FILE, RUNS rounds of
#   yajl        bench/json_parse_baseline.c: yajl, empty callbacks
#   jsonscan    bench/json_scan_floor.c: the reader's own tokenizer
#               (src/readers/jsonscan.c), empty callbacks
#   simdjson    bench/simdjson_floor.cpp whole and chunked (on-demand API),
#               only where Debian's libsimdjson-dev is installed
#   gpuprof     GPUPROF_THREADS=1 gpuprof $CMD FILE
# and prints per program the medians of wall and CPU seconds (user + sys),
# peak RSS, and CPU against yajl's and against jsonscan's (per-round
# ratios, medians).  No part of make check: a measurement.
#
# usage: bench/floors.sh [GPUPROF] FILE...
#   env: RUNS=5, CMD="report -f csv -c kernel,op,sil", DIR=build/bench/floors
set -eu
GPUPROF=build/gpuprof
case ${1:-} in *gpuprof*) GPUPROF=$1; shift ;; esac
[ $# -ge 1 ] || { echo "usage: bench/floors.sh [GPUPROF] FILE..." >&2; exit 2; }
RUNS=${RUNS:-5}
CMD=${CMD:-report -f csv -c kernel,op,sil}
DIR=${DIR:-build/bench/floors}
for t in "$GPUPROF" /usr/bin/time; do
	[ -x "$t" ] || { echo "floors.sh: $t missing (make; apt-get install time)" >&2; exit 2; }
done
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$DIR"
CC=${CC:-cc}
CXX=${CXX:-c++}
$CC -O2 -o "$DIR/yajl" "$top/bench/json_parse_baseline.c" -lyajl -lz
$CC -O2 -I"$top/src" -I"$top/include" -D_GNU_SOURCE -o "$DIR/jsonscan" "$top/bench/json_scan_floor.c" \
	"$top/src/readers/jsonscan.c" "$top/src/util/alloc.c" -lz
progs="yajl jsonscan"
if echo '#include <simdjson.h>' | $CXX -x c++ -fsyntax-only - 2>/dev/null; then
	$CXX -O2 -o "$DIR/simdjson" "$top/bench/simdjson_floor.cpp" -lsimdjson
	progs="$progs simdjson-whole simdjson-chunked"
else
	echo "floors.sh: no simdjson.h (apt-get install libsimdjson-dev): simdjson skipped" >&2
fi
progs="$progs gpuprof"
dir=$DIR
. "$top/bench/medians.sh"   # median, run

cmd_of() {
	case $1 in
	yajl | jsonscan) echo "$DIR/$1" ;;
	simdjson-whole) echo "$DIR/simdjson whole" ;;
	simdjson-chunked) echo "$DIR/simdjson chunked" ;;
	gpuprof) echo "$GPUPROF $CMD" ;;
	esac
}

printf '%-24s %-17s %7s %7s %8s %8s %10s\n' file program "wall s" "CPU s" "RSS MiB" "x yajl" "x jsonscan"
for f in "$@"; do
	cat "$f" >/dev/null   # page cache warm for all
	for p in $progs; do : >"$DIR/$p.times"; done
	i=0
	while [ $i -lt "$RUNS" ]; do
		for p in $progs; do
			GPUPROF_THREADS=1 run "$p" $(cmd_of "$p") "$f"
		done
		i=$((i + 1))
	done
	for p in $progs; do
		x=$(paste -d' ' "$DIR/yajl.times" "$DIR/$p.times" | awk '{print $5 / $2}' | median)
		j=$(paste -d' ' "$DIR/jsonscan.times" "$DIR/$p.times" | awk '{print $5 / $2}' | median)
		printf '%-24s %-17s %7.2f %7.2f %8d %8.2f %10.2f\n' "$(basename "$f")" "$p" \
			"$(cut -d' ' -f1 "$DIR/$p.times" | median)" "$(cut -d' ' -f2 "$DIR/$p.times" | median)" \
			"$(($(cut -d' ' -f3 "$DIR/$p.times" | median) / 1024))" "$x" "$j"
	done
done
