#!/bin/sh
# The dependency model's cost against `summary` (docs/PERFORMANCE.md, "The
# dependency model and the critical path"): RUNS runs (default 3) of
# `gpuprof summary FILE` under /usr/bin/time (CPU s = user + sys, peak RSS)
# and of build/bench/deps_cost FILE (the load, then the runner's deps and
# critpath passes, each timed in CPU s), alternating; prints every run and
# the best of each.
#
# usage: bench/deps.sh FILE   env: GPUPROF (build/gpuprof), RUNS, CC
set -eu
[ $# -eq 1 ] || { echo "usage: bench/deps.sh FILE" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
GPUPROF=${GPUPROF:-$top/build/gpuprof}
RUNS=${RUNS:-3}
DIR=$top/build/bench
mkdir -p "$DIR"
# links the analyzer's objects as built by make (bench/large.sh does the same)
objs=$(for s in "$top"/src/*/*.c; do case $s in */main.c|*/mpi.c) ;; *)
	s=${s#"$top"/}; echo "$top/build/obj/${s%.c}.o" ;; esac; done)
${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -I"$top/src" -I"$top/include" -o "$DIR/deps_cost" \
	"$top/bench/deps_cost.c" $objs "$top/build/obj/gen/html_assets.o" -lsqlite3 -lz -lyajl -liberty -lm -lpthread
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
i=0
while [ $i -lt "$RUNS" ]; do
	/usr/bin/time -f '%U %S %M' -o "$tmp" "$GPUPROF" summary "$1" >/dev/null
	read -r u s m <"$tmp"
	echo "summary CPU $(echo "$u + $s" | bc) s, peak $m KB"
	/usr/bin/time -f '%U %S %M' -o "$tmp" "$DIR/deps_cost" "$1" >"$tmp.out"
	read -r u s m <"$tmp"
	echo "deps_cost: $(cat "$tmp.out"), peak $m KB"
	i=$((i + 1))
done
rm -f "$tmp.out"
