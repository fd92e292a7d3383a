#!/bin/sh
# Instructions, which the load of a shared machine does not move: the bare
# yajl parse of bench/json_parse_baseline.c (a .json FILE) or the row
# stepping of bench/sql_rows.c (a .nsys/.nvprof/.sqlite FILE) against
# gpuprof CMD on one thread, counted by valgrind (cachegrind, no cache
# simulation).  Prints per file the two counts and their ratio, for JSON
# also the reader's own tokenizer with empty callbacks
# (bench/json_scan_floor.c) and gpuprof against it, and with
# OLD=path/to/old/gpuprof the old build's count beside the new one.
# Valgrind runs ~50x slower: use files of tens of MB (the shared traces
# themselves, gunzipped), not the grown ones.
#
# usage: bench/instr.sh [GPUPROF] FILE...
#   env: CMD="report -f csv -c kernel,op,sil", OLD=, DIR=build/bench/instr
set -eu
GPUPROF=build/gpuprof
case ${1:-} in *gpuprof*) GPUPROF=$1; shift ;; esac
[ $# -ge 1 ] || { echo "usage: bench/instr.sh [GPUPROF] FILE..." >&2; exit 2; }
CMD=${CMD:-report -f csv -c kernel,op,sil}
OLD=${OLD:-}
DIR=${DIR:-build/bench/instr}
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "instr.sh: valgrind missing" >&2; exit 2; }
mkdir -p "$DIR"
CC=${CC:-cc}
$CC -O2 -o "$DIR/json_parse_baseline" "$top/bench/json_parse_baseline.c" -lyajl -lz
$CC -O2 -o "$DIR/sql_rows" "$top/bench/sql_rows.c" -lsqlite3
$CC -O2 -I"$top/src" -I"$top/include" -D_GNU_SOURCE -o "$DIR/json_scan_floor" "$top/bench/json_scan_floor.c" \
	"$top/src/readers/jsonscan.c" "$top/src/util/alloc.c" -lz

# ir CMD...: the instructions CMD executes (all threads)
ir() {
	valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d ,
}

printf '%-34s %15s %15s %7s %15s %7s %15s\n' file floor gpuprof ratio jsonscan ratio "old gpuprof"
for f in "$@"; do
	scan=
	case $f in
	*.nsys | *.sqlite) floor="$DIR/sql_rows $f $top/bench/nsys_read.sql" ;;
	*.nvprof | *.sql | *.nvvp) floor="$DIR/sql_rows $f $top/bench/nvprof_read.sql" ;;
	*) floor="$DIR/json_parse_baseline $f" scan="$DIR/json_scan_floor $f" ;;
	esac
	a=$(ir $floor)
	b=$(GPUPROF_THREADS=1 ir "$GPUPROF" $CMD "$f")
	c=- r=-
	if [ -n "$scan" ]; then
		c=$(ir $scan)
		r=$(printf '%.3f' "$(echo "$b / $c" | bc -l)")
	fi
	o=-
	[ -n "$OLD" ] && o=$(GPUPROF_THREADS=1 ir "$OLD" $CMD "$f")
	printf '%-34s %15s %15s %7.3f %15s %7s %15s\n' "$(basename "$f")" "$a" "$b" "$(echo "$b / $a" | bc -l)" \
		"$c" "$r" "$o"
done
