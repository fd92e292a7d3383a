# A progress line ("gpuprof: reading... N%") on stderr when it is a
# terminal, for every reader and for the commands of many files; never
# when stderr is a file or a pipe (tests compare stderr).  The line waits
# GPUPROF_PROGRESS_AFTER seconds (default 1); 0 shows it at once, so small
# traces stand for large ones here and nothing is timed.  The terminal is
# script(1)'s pty (util-linux).
command -v script >/dev/null || skip "script (bsdutils) not installed"
script -qec true /dev/null </dev/null >/dev/null 2>&1 || skip "script cannot open a pty here"
run_ok "$GEN" --format kineto -n 3000 --seed 3 --streams 2 -o "$TMP/k.json"
gzip -c "$TMP/k.json" >"$TMP/k.json.gz"
run_ok "$GEN" --format nsys -n 3000 --seed 3 -o "$TMP/n.sqlite"
run_ok "$GEN" --format nvprof -n 40000 --seed 3 -o "$TMP/v.nvvp"
run_ok "$GEN" --format kineto --ranks 2 -o "$TMP/job"
export GPUPROF_PROGRESS_AFTER=0
# tty NAME ENV ARGS...: runs gpuprof ARGS with ENV (a VAR=value or "")
# on a pty, its stdout dropped; what the terminal showed goes to $TMP/NAME
tty() {
	name=$1 env=$2; shift 2
	script -qec "env $env '$GPUPROF' $* >/dev/null" /dev/null >"$TMP/$name" </dev/null ||
		fail "gpuprof $* on a pty failed"
}
check() { # NAME ENV WANT ARGS...: the pty shows WANT; a pipe shows nothing
	name=$1 env=$2 want=$3; shift 3
	tty "$name" "$env" "$@"
	assert_grep "$want" "$TMP/$name"
	env $env "$GPUPROF" "$@" >/dev/null 2>"$TMP/$name.pipe" | cat || fail "gpuprof $* failed"
	assert_no_grep "reading|correlating|$(printf '\r')" "$TMP/$name.pipe"
}
check kineto "" "gpuprof: reading\.\.\. +[0-9]+%" summary "$TMP/k.json"
check kineto-parts "GPUPROF_PARALLEL_MIN_BYTES=1 GPUPROF_THREADS=2" "gpuprof: reading\.\.\. +[0-9]+%" summary "$TMP/k.json"
check gzip "" "gpuprof: reading\.\.\. +[0-9]+%" summary "$TMP/k.json.gz"
check gzip-window "" "gpuprof: reading\.\.\. +[0-9]+%" summary --iters 1:2 "$TMP/k.json.gz"
check gzip-window-twice "GPUPROF_GZIP_KEEP=0" "gpuprof: reading\.\.\. +[0-9]+%" report --iters 1:2 "$TMP/k.json.gz"
check nsys "" "gpuprof: reading\.\.\. +[0-9]+%" report "$TMP/n.sqlite"
check nvprof "" "gpuprof: reading\.\.\. +[0-9]+" report "$TMP/v.nvvp"
# commands of many files: one line over all of them, whatever -j
check many "" "gpuprof: reading 3 files\.\.\. +[0-9]+%" summary -j 2 "$TMP/k.json" "$TMP/n.sqlite" "$TMP/k.json.gz"
check comm "" "gpuprof: reading 2 files\.\.\. +[0-9]+%" comm -j 1 "$TMP/job"
check ranks "" "gpuprof: reading 2 files\.\.\. +[0-9]+%" ranks "$TMP/job"
# the default waits: a small trace shows nothing
unset GPUPROF_PROGRESS_AFTER
tty quick "" summary "$TMP/k.json"
assert_no_grep "reading" "$TMP/quick"
