# NVTX injection without a GPU: an NVTX3 program (tests/collector/nvtx_app.c)
# under `gpuprof record --trace nvtx` records its push/pop ranges (default
# domain and a named one, registered strings, payloads, colours), a mark, a
# start/end range ended by another thread and a thread name; `gpuprof
# ranges` gives the counts taken from the recording's lines with awk.
# Also: one recording per process of a process tree, rank and world size
# from the environment, a crash and a SIGTERM leaving a readable recording,
# --duration.
app=$BUILD/tests/collector/nvtx_app
[ -f "$BUILD/libgpuprof-inject.so" ] && [ -x "$app" ] || skip "collector not built (no CUDA toolkit)"
app=$(cd "$(dirname "$app")" && pwd)/nvtx_app

RANK=3 WORLD_SIZE=8 expect_exit 0 "$GPUPROF" record -q --trace nvtx -o "$TMP/n-%p.gprec" -- "$app" 3
assert_eq "$(cat "$TMP/out")" "nvtx_app: 3 iterations" "the program's stdout"
rec=$(ls "$TMP"/n-*.gprec)
[ -f "$rec" ] || fail "no recording"
# the recording, counted without the reader
count() { awk -F'\t' -v k="$1" -v n="$2" '$1 == "range" && $2 == k && $10 == n' "$rec" | wc -l | tr -d ' '; }
assert_eq "$(count push step)" 3 "step ranges"
assert_eq "$(count push forward)" 3 "forward ranges"
assert_eq "$(count push layer:fc1)" 3 "layer ranges"
assert_eq "$(count push backward)" 3 "backward ranges"
assert_eq "$(count mark done)" 1 "marks"
assert_eq "$(count startend cross-thread)" 1 "start/end ranges"
# step: domain "train", colour, payloads 0 1 2 (the iteration)
assert_eq "$(awk -F'\t' '$10 == "step" { printf "%s/%s/%s ", $9, $7, $8 }' "$rec")" \
	"train/ff00ff00/0 train/ff00ff00/1 train/ff00ff00/2 " "step's domain, colour, payload"
# the start/end range was ended by another thread
awk -F'\t' '$2 == "startend" && ($4 == 0 || $4 == $3) { exit 1 }' "$rec" || fail "END_TID of the cross-thread range"
assert_grep '^thread	[0-9]+	main thread$' "$rec"
assert_grep '^meta	rank	3$' "$rec"
assert_grep '^meta	world_size	8$' "$rec"
# nesting in time: layer:fc1 inside forward inside step
run_ok "$GPUPROF" ranges -f tsv --no-header "$rec"
awk -F'\t' '{ print $1 "\t" $7 "\t" $8 }' "$TMP/out" >"$TMP/rows"
cat >"$TMP/want" <<'END'
3	push	step
3	push	step/forward
3	push	step/forward/layer:fc1
3	push	step/backward
1	startend	cross-thread
1	mark	done
END
sort "$TMP/want" >"$TMP/want.s"; sort "$TMP/rows" >"$TMP/rows.s"
cmp "$TMP/want.s" "$TMP/rows.s" || { cat "$TMP/out"; fail "ranges rows"; }
run_ok "$GPUPROF" info "$rec"
assert_grep '^nvtx ranges +13$' "$TMP/out"
assert_grep '^rank +3$' "$TMP/out"
assert_grep '^format +gpuprof-rec$' "$TMP/out"

# a process tree: the shell and each program get a recording of their own
expect_exit 0 "$GPUPROF" record -q --trace nvtx -o "$TMP/tree-%p.gprec" -- sh -c "'$app' 1 fast; '$app' 1 fast"
assert_eq "$(ls "$TMP"/tree-*.gprec | wc -l | tr -d ' ')" 3 "recordings of sh and two programs"
assert_eq "$(cat "$TMP"/tree-*.gprec | grep -c '^range	push	')" 8 "push ranges of the two programs"
# without %p, the launched process keeps the name, others append .PID
expect_exit 0 "$GPUPROF" record -q --trace nvtx -o "$TMP/one.gprec" -- sh -c "'$app' 1 fast"
[ -f "$TMP/one.gprec" ] || fail "no one.gprec"
assert_grep 'loaded neither CUDA nor NVTX' "$TMP/one.gprec"
[ "$(ls "$TMP"/one.gprec.* | wc -l)" = 1 ] || fail "no one.gprec.PID for the child"

# a crash: the chunks written so far are read, up to the last complete one
expect_exit 139 "$GPUPROF" record -q --trace nvtx -o "$TMP/crash.gprec" -- "$app" 5000 crash
written=$(awk -F'\t' '$1 == "range" { n++ } $1 == "chunk" { kept = n } END { print kept + 0 }' "$TMP/crash.gprec")
[ "$written" -gt 0 ] || fail "nothing flushed before the crash"
run_ok "$GPUPROF" info "$TMP/crash.gprec"
assert_grep "^nvtx ranges +$written\$" "$TMP/out"
assert_grep 'recording truncated' "$TMP/out"

# SIGTERM: forwarded, the collector flushes, then the program dies of it
"$GPUPROF" record -q --trace nvtx -o "$TMP/term.gprec" -- "$app" 1 loop >/dev/null &
gp=$!
sleep 1
kill -TERM $gp
wait $gp; got=$?
assert_eq "$got" 143 "status of a program killed by the forwarded SIGTERM"
run_ok "$GPUPROF" info "$TMP/term.gprec"
assert_grep '^nvtx ranges +[1-9]' "$TMP/out"

# --duration: what starts later is counted, not kept
expect_exit 0 "$GPUPROF" record -q --trace nvtx --duration 0.1 -o "$TMP/dur.gprec" -- "$app" 300
after=$(awk -F'\t' '$1 == "dropped" && $3 == "after_duration" { n += $2 } END { print n + 0 }' "$TMP/dur.gprec")
[ "$after" -gt 0 ] || fail "no range counted after the duration"
kept=$(grep -c '^range	' "$TMP/dur.gprec")
assert_eq "$((kept + after))" $((300 * 4 + 2)) "kept + left out = every range"
run_ok "$GPUPROF" info "$TMP/dur.gprec"
assert_grep "^records_after_duration +$after\$" "$TMP/out"
