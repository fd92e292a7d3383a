#!/bin/sh
# The parallel split of a plain Kineto .json (docs/kineto.md, "Threads"):
# one thread against THREADS (default 2) on the same file, alternating,
# RUNS rounds, with the output of both compared byte for byte.  Prints per
# file the medians of wall and CPU seconds (user + sys) and peak RSS of
# each, and the median of the per-round wall ratios (threads / one).  On
# a machine shared with other work the wall ratio measures the load, not
# the split: then CPU > wall on the threaded runs is what shows that both
# threads ran (docs/PERFORMANCE.md, "The parallel split").
#
# usage: bench/split.sh [GPUPROF] FILE...
#   env: RUNS=5, THREADS=2, CMD="report -f csv -c kernel,op,sil"
set -eu
GPUPROF=build/gpuprof
case ${1:-} in *gpuprof*) GPUPROF=$1; shift ;; esac
[ $# -ge 1 ] || { echo "usage: bench/split.sh [GPUPROF] FILE..." >&2; exit 2; }
RUNS=${RUNS:-5}
THREADS=${THREADS:-2}
CMD=${CMD:-report -f csv -c kernel,op,sil}
for t in "$GPUPROF" /usr/bin/time; do
	[ -x "$t" ] || { echo "split.sh: $t missing (make; apt-get install time)" >&2; exit 2; }
done
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/medians.sh"   # median
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# one N OUT: a run with N threads appended to $dir/N.times, its output in OUT
one() {
	GPUPROF_THREADS=$1 /usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$GPUPROF" $CMD "$f" >"$2"
	read -r s u y k <"$dir/time.out"
	echo "$s $(echo "$u + $y" | bc) $k" >>"$dir/$1.times"
}

printf '%-28s %8s %8s %8s %8s %8s %8s %8s\n' file "wall 1" "CPU 1" "wall $THREADS" "CPU $THREADS" \
	"ratio" "RSS 1" "RSS $THREADS"
for f in "$@"; do
	cat "$f" >/dev/null   # page cache warm for both
	: >"$dir/1.times"
	: >"$dir/$THREADS.times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		if [ $((i % 2)) = 0 ]; then
			one 1 "$dir/one.out"
			one "$THREADS" "$dir/par.out"
		else
			one "$THREADS" "$dir/par.out"
			one 1 "$dir/one.out"
		fi
		cmp -s "$dir/one.out" "$dir/par.out" || { echo "split.sh: $f: outputs differ" >&2; exit 1; }
		i=$((i + 1))
	done
	paste -d' ' "$dir/1.times" "$dir/$THREADS.times" | awk '{print $4 / $1}' >"$dir/ratios"
	printf '%-28s %8.2f %8.2f %8.2f %8.2f %8.3f %8d %8d\n' "$(basename "$f")" \
		"$(cut -d' ' -f1 "$dir/1.times" | median)" "$(cut -d' ' -f2 "$dir/1.times" | median)" \
		"$(cut -d' ' -f1 "$dir/$THREADS.times" | median)" "$(cut -d' ' -f2 "$dir/$THREADS.times" | median)" \
		"$(median <"$dir/ratios")" \
		"$(($(cut -d' ' -f3 "$dir/1.times" | median) / 1024))" \
		"$(($(cut -d' ' -f3 "$dir/$THREADS.times" | median) / 1024))"
done
