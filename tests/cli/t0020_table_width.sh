# -w is a limit on the table's line width, not a target (issue 10 item 6):
# a table that fits prints as without -w; a wider one has only its names
# cut (summary's and ranges' Name, report's kernel and params first, then
# report's other text columns down to their minimum widths); numbers and
# headers are never cut, and a width too small for them is not refused.
need_testdata
trixi=$TESTDATA/nsys/trixi_v100_2023.1/report1.sqlite
run_ok "$GPUPROF" summary --full-names "$trixi"
cp "$TMP/out" "$TMP/full"
# the widest line is the kernel's full name (217 characters): -w 100000
# changes nothing
assert_eq "$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$TMP/full")" 217
run_ok "$GPUPROF" summary --full-names -w 100000 "$trixi"
cmp -s "$TMP/out" "$TMP/full" || fail "summary -w 100000 differs from summary"
# Name is the last column and the only one cut: each line is the full
# line cut at the width, headers and units whole
for w in 200 160 114; do
	run_ok "$GPUPROF" summary --full-names -w $w "$trixi"
	cut -c1-$w "$TMP/full" | sed 's/ *$//' >"$TMP/want"
	sed 's/ *$//' "$TMP/out" | cmp -s - "$TMP/want" || { diff "$TMP/want" "$TMP/out" >&2; fail "summary -w $w"; }
done
run_ok "$GPUPROF" summary --full-names -w 160 -s gpu "$trixi"
assert_eq "$(cat "$TMP/out")" "Type             Time    Total Calls      Avg      Med      Min      Max StdDev Name
GPU activities 100.0% 2.272 us     1 2.272 us 2.272 us 2.272 us 2.272 us   0 ns add_arrays_(CuDeviceArray<Int64, (int)3, (int)1>, CuDeviceArray<Int64, (int)3, ("
# below what the numbers need: Name keeps 20 characters, lines are longer
# than asked rather than numbers cut or the command refused
run_ok "$GPUPROF" summary --full-names -w 40 -s gpu "$trixi"
assert_eq "$(tail -1 "$TMP/out")" "GPU activities 100.0% 2.272 us     1 2.272 us 2.272 us 2.272 us 2.272 us   0 ns add_arrays_(CuDevice"

# report: the flex columns in the middle of the line are cut, the numbers
# after them are whole (compare with the csv), every line within the width
"$GEN" --format nvprof -n 300 --seed 5 -o "$TMP/g.nvvp" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" report -f csv --no-header -c idx,kernel,params,sil "$TMP/g.nvvp"
tr -d '"' <"$TMP/out" | awk -F, '{ print $1, $NF }' >"$TMP/nums"
run_ok "$GPUPROF" report -c idx,kernel,params,sil "$TMP/g.nvvp"
awk '{ if (length($0) > n) n = length($0) } END { exit n <= 60 }' "$TMP/out" || fail "the generated kernels are too short for this test"
run_ok "$GPUPROF" report -w 60 --no-header -c idx,kernel,params,sil "$TMP/g.nvvp"
awk 'length($0) > 60 { exit 1 }' "$TMP/out" || fail "report -w 60: a line longer than 60"
awk '{ print $1, $NF }' "$TMP/out" | cmp -s - "$TMP/nums" || fail "report -w 60: idx or sil changed"
# PyProf's -w below the columns' need is not refused: kernel and params
# shrink to their minimum (10), then mod and op to 15; headers stay whole
run_ok "$GPUPROF" report -w 30 "$TMP/g.nvvp"
assert_eq "$(head -1 "$TMP/out")" "Idx Direction Sub Module          Op              Kernel     Params     Sil(ns)"
awk 'length($0) != 79 { exit 1 }' "$TMP/out" || fail "report -w 30: lines not at their floor width (79)"

# PyProf's own command line: prof.py --csv -c idx,kernel,sil -w 150 FILE
run_ok "$GPUPROF" report -f csv -c idx,kernel,sil "$TMP/g.nvvp"
cp "$TMP/out" "$TMP/csv"
run_ok "$GPUPROF" report --csv -c idx,kernel,sil -w 150 "$TMP/g.nvvp"
cmp -s "$TMP/out" "$TMP/csv" || fail "report --csv differs from -f csv"
# the last of -f and --csv wins, as between two -f
run_ok "$GPUPROF" report -f json --csv -c idx "$TMP/g.nvvp"
assert_eq "$(head -1 "$TMP/out")" '"Idx"'
run_ok "$GPUPROF" report --csv -f json -c idx "$TMP/g.nvvp"
assert_eq "$(head -1 "$TMP/out")" '{"idx":0}'
# only report speaks PyProf
expect_exit 2 "$GPUPROF" summary --csv "$TMP/g.nvvp"
