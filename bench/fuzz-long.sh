#!/bin/sh
# fuzz-long.sh [SECONDS]: runs every libFuzzer target (build/fuzz/fuzz_*,
# built by `make fuzz`) in turn for SECONDS each (default 3600: the one
# CPU-hour per target docs/fuzzing.md asks for), on a copy of its corpus
# (tests/fuzz/corpus/NAME, copied to build/fuzz/work/NAME, so the tree only
# gets the inputs someone chooses to add).  Prints one line per target:
# seconds run, runs, corpus size before and after, crashes; crash inputs
# are left in build/fuzz/crashes/NAME/ and the log in build/fuzz/NAME.log.
# Every crash becomes a test: add the input (minimised with -minimize_crash=1)
# to tests/fuzz/corpus/NAME/ and a check to a CLI test.  Exits 1 when any
# target crashed.
secs=${1:-3600}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
status=0
set -- build/fuzz/fuzz_*
[ -x "$1" ] || { echo "fuzz-long.sh: no build/fuzz/fuzz_* (run make fuzz)" >&2; exit 2; }
printf '%-14s %7s %10s %14s %14s %7s\n' target seconds runs corpus-before corpus-after crashes
for bin in "$@"; do
	case $bin in *.log) continue ;; esac   # the logs of earlier runs lie beside the targets
	name=$(basename "$bin"); short=${name#fuzz_}
	work=build/fuzz/work/$short crashes=build/fuzz/crashes/$short
	rm -rf "$work"; mkdir -p "$work" "$crashes"
	cp tests/fuzz/corpus/"$short"/* "$work"/ 2>/dev/null
	before=$(ls "$work" | wc -l)
	"$bin" "$work" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 \
		-artifact_prefix="$crashes/" -print_final_stats=1 >"build/fuzz/$name.log" 2>&1
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/fuzz/$name.log" | tail -1)
	after=$(ls "$work" | wc -l)
	ncrash=$(ls "$crashes" | wc -l)
	[ "$ncrash" = 0 ] || status=1
	printf '%-14s %7s %10s %14s %14s %7s\n' "$name" "$secs" "${runs:-?}" "$before" "$after" "$ncrash"
done
exit $status
