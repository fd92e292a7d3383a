# gpuprof comm finds the slow rank of a generated 8-rank job exactly.
# gpuprof-gen --ranks 8 --slow-rank 5 --delay-us 300 makes rank 5's GEMMs
# 300 us longer, so at each of the 15 collectives (5 iterations x
# all-reduce, all-gather, reduce-scatter) it arrives last by exactly
# 300,000 ns and each of the 7 others waits that long; every rank's clock is
# shifted by rank x 2 s, which aligning on collective ends must undo to the
# nanosecond.  Sizes and pure communication times are the generator's:
# all-reduce 64 MiB in 524,288 ns (algbw 128 GB/s, busbw x 2*7/8 = 224),
# all-gather/reduce-scatter 8 x 8 MiB in 1,048,576 ns (64 GB/s, busbw x
# 7/8 = 56, 18.7% of the A100's NVLink3 300 GB/s: a low-busbw finding).
run_ok "$GEN" --format kineto --ranks 8 --slow-rank 5 --delay-us 300 --clock-skew-us 2000000 -o "$TMP/job"
n=$(ls "$TMP/job" | wc -l)
assert_eq "$n" 8 "rank files"

# ranks: given in reverse order, listed by their distributedInfo rank
run_ok "$GPUPROF" comm -f tsv --no-header $(ls -r "$TMP"/job/rank-*.json)
awk -F'\t' '{ print $1, $3, $4, $5, $6, $7, $9 }' "$TMP/out" >"$TMP/got"
awk 'BEGIN { for (r = 0; r < 8; r++)
	printf "%d 15 15 %d %d %d %.0f\n", r, (r == 5 ? 15 : 0), (r == 5 ? 0 : 15 * 300000),
		(r == 5 ? 7 * 15 * 300000 : 0), 0 - r * 2000000000 }' >"$TMP/want"
diff "$TMP/want" "$TMP/got" >&2 || fail "per-rank waits, straggler counts or clock offsets (< expected)"
# the role: rank 5 alone is the straggler
assert_eq "$(awk -F'\t' '$11 != "" { print $1, $11 }' "$TMP/out")" "5 straggler" "roles"

# the directory, and a quoted glob, give the same rows as the files
cp "$TMP/out" "$TMP/by_files"
run_ok "$GPUPROF" comm -f tsv --no-header "$TMP"/job
cmp -s "$TMP/by_files" "$TMP/out" || fail "comm DIR differs from comm FILE..."
run_ok "$GPUPROF" comm -f tsv --no-header "$TMP/job/rank-*.json"
cmp -s "$TMP/by_files" "$TMP/out" || fail "comm 'GLOB' differs from comm FILE..."

# calls: every one has rank 5 last, skew 300 us, 7 x 300 us of waiting;
# its transfer (the shortest kernel, rank 5's) is its pure communication
run_ok "$GPUPROF" comm -V calls -n 100 -f csv "$TMP"/job/rank-*.json
assert_eq "$(tail -n +2 "$TMP/out" | wc -l)" 15 "complete calls"
tail -n +2 "$TMP/out" | tr -d '"' | awk -F, '
	$6 != 5 || $7 != 2100000 || $8 != 300000 { print "bad call: " $0; bad = 1 }
	$9 != $10 { print "transfer is not comm: " $0; bad = 1 }
	$1 == "all_reduce" && ($5 != 67108864 || $9 != 524288 || $12 != "128.000" || $13 != "224.000" || $15 != "74.7") { print "bad all_reduce: " $0; bad = 1 }
	$1 != "all_reduce" && ($5 != 67108864 || $9 != 1048576 || $12 != "64.000" || $13 != "56.000" || $15 != "18.7") { print "bad " $1 ": " $0; bad = 1 }
	END { exit bad }' >&2 || fail "per-call figures"

# kinds: 5 calls each, 5 x 7 x 300 us of waiting
run_ok "$GPUPROF" comm -V kinds -f tsv --no-header "$TMP"/job/rank-*.json
assert_eq "$(cut -f1,2,3,6 "$TMP/out" | tr '\t' ' ')" "all_reduce 5 335544320 10500000
all_gather 5 335544320 10500000
reduce_scatter 5 335544320 10500000" "per kind"

# advise: the straggler first, then the two slow kinds; the straggler's
# saving is its lateness, 15 x 300 us: with it on time every rank is done
# that much sooner (the others' 31.5 ms of waiting is 4.5 ms of each)
run_ok "$GPUPROF" comm -V advise -f tsv --no-header "$TMP"/job/rank-*.json
assert_eq "$(cut -f1 "$TMP/out" | tr '\n' ' ')" "straggler coll-low-busbw coll-low-busbw " "findings"
assert_grep "^straggler	4500000	rank 5 is the straggler: the others waited 31.500 ms for it at 15 of 15 collectives	it arrived last at 15 of the 15 collectives matched on every rank, 4.500 ms after the next-to-last rank in all \(300.000 us a call\)" "$TMP/out"
assert_grep "all_gather reaches 56.0 GB/s bus bandwidth \(median\), 19% of the NVLink3 peak 300 GB/s" "$TMP/out"

# no slow rank: nobody waits, no straggler
run_ok "$GEN" --format kineto --ranks 4 --clock-skew-us 1500 -o "$TMP/even"
run_ok "$GPUPROF" comm -f tsv --no-header "$TMP"/even/rank-*.json
assert_eq "$(cut -f5,6,7 "$TMP/out" | sort -u | tr '\t' ' ')" "0 0 0" "waits without a slow rank"
run_ok "$GPUPROF" comm -V advise -f tsv --no-header "$TMP"/even/rank-*.json
assert_no_grep "straggler" "$TMP/out"

# one file: its calls, kernel times and bandwidths, no waiting
run_ok "$GPUPROF" comm -V calls -n 1 -f csv "$TMP/job/rank-5.json"
assert_grep '^"all_reduce","0","0","0","67108864","\(none\)","0","0","524288","524288","524288","128.000","224.000","224.000","74.7","unknown","0"$' "$TMP/out"

# nsys rank files: no rank metadata (argument order), no collective args
# (calls match by position, sizes unknown), the same waits
run_ok "$GEN" --format nsys --ranks 3 --slow-rank 1 --delay-us 40 --clock-skew-us 7 -o "$TMP/nsys"
run_ok "$GPUPROF" comm -f tsv --no-header "$TMP"/nsys/rank-0.sqlite "$TMP"/nsys/rank-1.sqlite "$TMP"/nsys/rank-2.sqlite
assert_eq "$(cut -f1,5,6,7,9 "$TMP/out" | tr '\t' ' ')" "0 0 600000 0 0
1 15 0 1200000 -7000
2 0 600000 0 -14000" "nsys ranks"
