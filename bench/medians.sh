# Sourced by the benchmarks that repeat runs and report medians
# (window.sh, window_gzip.sh; large.sh uses median).
# Needs, for run and report: dir (where NAME.times and time.out go), and for
# report REPORT_WIDTH (the label column).

# The median of the numbers on standard input, one a line.
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# run NAME CMD...: one timed run of CMD appended to $dir/NAME.times
# (wall s, CPU s, peak RSS KiB).
run() {
	name=$1; shift
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" > /dev/null
	read -r s u y k < "$dir/time.out"
	echo "$s $(echo "$u + $y" | bc) $k" >> "$dir/$name.times"
}

# report NAME LABEL: the medians of NAME's runs on one line.
report() {
	w=$(cut -d' ' -f1 "$dir/$1.times" | median)
	c=$(cut -d' ' -f2 "$dir/$1.times" | median)
	m=$(cut -d' ' -f3 "$dir/$1.times" | median)
	printf "%-${REPORT_WIDTH}s %7.2f s wall %7.2f s CPU %8.0f MiB peak RSS\n" "$2" "$w" "$c" "$(echo "$m / 1024" | bc)"
}
