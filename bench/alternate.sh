#!/bin/sh
# Two builds of gpuprof against each other on the same traces: for each
# FILE and command, RUNS rounds of { OLD; NEW }, each run's CPU seconds
# (user + sys) and peak RSS from /usr/bin/time, one line a run:
#   FILE COMMAND old|new CPU_S PEAK_KB
# Alternating keeps a change in the machine's load from landing on one
# build only (docs/PERFORMANCE.md, "Kernel record 40 B").
#
# usage: bench/alternate.sh OLD_GPUPROF NEW_GPUPROF FILE...   env: RUNS=3
set -eu
[ $# -ge 3 ] || { echo "usage: bench/alternate.sh OLD_GPUPROF NEW_GPUPROF FILE..." >&2; exit 2; }
old=$1 new=$2
shift 2
RUNS=${RUNS:-3}
for t in "$old" "$new" /usr/bin/time; do
	[ -x "$t" ] || { echo "alternate.sh: $t is not executable" >&2; exit 2; }
done
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for f in "$@"; do
	for cmd in report summary; do
		case $cmd in report) args="report -f csv -c kernel,op,sil" ;; summary) args=summary ;; esac
		i=0
		while [ $i -lt "$RUNS" ]; do
			for b in old new; do
				if [ $b = old ]; then g=$old; else g=$new; fi
				/usr/bin/time -f '%U %S %M' -o "$tmp" "$g" $args "$f" >/dev/null
				read -r u s m <"$tmp"
				echo "$f $cmd $b $(echo "$u + $s" | bc) $m"
			done
			i=$((i + 1))
		done
	done
done
