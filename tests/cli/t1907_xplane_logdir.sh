# A TensorBoard log directory as a FILE argument: JAX's
# jax.profiler.trace(LOGDIR) writes LOGDIR/plugins/profile/<run>/<host>.xplane.pb,
# one run folder (named by its start, YYYY_MM_DD_HH_MM_SS) per profile.  Given
# LOGDIR, LOGDIR/plugins or LOGDIR/plugins/profile, a command reads the run's
# host files as ranks; with two runs the newest by name, with one note naming
# the other.  The runs are told apart by their steps (2 and 4 iterations,
# known by construction of gpuprof-gen) and their files' paths.
L=$TMP/log; P=$L/plugins/profile
old=2026_01_01_00_00_00; new=2026_02_03_04_05_06
run_ok "$GEN" --format xplane --ranks 2 --iters 2 -o "$TMP/a"
run_ok "$GEN" --format xplane --ranks 2 --iters 4 -o "$TMP/b"
mkdir -p "$P" || fail mkdir
mv "$TMP/a/plugins/profile/$old" "$P/$old" && mv "$TMP/b/plugins/profile/$old" "$P/$new" || fail mv

# one run: no note, its hosts are the ranks
mkdir -p "$TMP/one/plugins/profile" && cp -r "$P/$old" "$TMP/one/plugins/profile/" || fail cp
run_ok "$GPUPROF" ranks -f csv "$TMP/one"
assert_no_grep "profile runs" "$TMP/err"
assert_eq "$(tail -n +2 "$TMP/out" | cut -d, -f1,3,18 | tr -d '"' | tr '\n' ' ')" \
	"0,2,$TMP/one/plugins/profile/$old/host0.xplane.pb 1,2,$TMP/one/plugins/profile/$old/host1.xplane.pb "

# two runs: the newest, at every level of the log directory
for d in "$L" "$L/" "$L/plugins" "$P" "$P/"; do
	run_ok "$GPUPROF" ranks -f csv "$d"
	assert_eq "$(tail -n +2 "$TMP/out" | cut -d, -f1,3,18 | tr -d '"' | sed "s|$P/*||" | tr '\n' ' ')" \
		"0,4,$new/host0.xplane.pb 1,4,$new/host1.xplane.pb " "ranks $d"
	assert_grep "^gpuprof ranks: note: 2 profile runs in $P/?: reading the newest, $new \(others: $old; name a run folder to read another\)$" "$TMP/err"
	[ "$(grep -c 'profile runs' "$TMP/err")" = 1 ] || fail "not one note line for $d"
done
# a run folder named: that run, no note
run_ok "$GPUPROF" ranks -f csv "$P/$old"
assert_eq "$(tail -n +2 "$TMP/out" | cut -d, -f3 | tr -d '"' | tr '\n' ' ')" "2 2 "
assert_no_grep "profile runs" "$TMP/err"

# the commands of many files take it as well
run_ok "$GPUPROF" advise "$L"
assert_grep "^Across 2 ranks" "$TMP/out"
assert_grep "reading the newest, $new" "$TMP/err"
run_ok "$GPUPROF" html -o "$TMP/p.html" "$L"
[ -s "$TMP/p.html" ] || fail "html wrote no page"
run_ok "$GPUPROF" summary -f csv "$L"
assert_eq "$(tail -n +2 "$TMP/out" | cut -d, -f1 | sort -u | tr -d '"' | tr '\n' ' ')" "0 1 " "summary's ranks"

# a profile folder without runs; a log directory's files beside plugins/
mkdir -p "$TMP/empty/plugins/profile"
expect_exit 4 "$GPUPROF" ranks "$TMP/empty"
assert_grep "^gpuprof: $TMP/empty/plugins/profile: no profile run folder in this directory$" "$TMP/err"
