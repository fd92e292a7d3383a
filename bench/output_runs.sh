# Sourced by the benchmarks that time commands writing an output
# (export.sh, export_ranks.sh, html.sh): a header and `one`, each run's
# wall and CPU seconds, peak RSS and output size on one line.
# Needs: GPUPROF, dir (where time.out and stdout.out go), WIDTH (label column).

# Prints the column header.
one_header() {
	printf "%-${WIDTH}s %8s %8s %10s %14s\n" command wall_s cpu_s rss_MiB output_bytes
}

# one LABEL OUTFILE ARGS...: runs $GPUPROF ARGS once; OUTFILE is the file it
# writes, or - for its standard output.
one() {
	label=$1 out=$2; shift 2
	rm -f "$out"
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$GPUPROF" "$@" > "$dir/stdout.out"
	read -r s u y k < "$dir/time.out"
	[ "$out" = - ] && size=$(wc -c < "$dir/stdout.out") || size=$(wc -c < "$out")
	printf "%-${WIDTH}s %8s %8s %10d %14d\n" "$label" "$s" "$(echo "$u + $y" | bc)" $((k / 1024)) "$size"
}
