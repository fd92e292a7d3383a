# tier: slow (24 s in make check before the tiers, on the busy 2-core machine)
# libgpuprof end to end: `make install` into a prefix, the examples built
# against the installed library through pkg-config, run without a GPU with
# GPUPROF_RECORD set, and their recordings read back by gpuprof ranges/info
# (expected ranges, nesting paths, timer counts).
asan=0 sanflags=""
case $BUILD in *asan*) asan=1; sanflags="-fsanitize=address,undefined -fno-omit-frame-pointer" ;; esac
prefix=$TMP/prefix
run_ok make -s ASAN=$asan install-lib PREFIX="$prefix"
[ -f "$prefix/lib/pkgconfig/gpuprof.pc" ] || fail "no gpuprof.pc installed"
[ -f "$prefix/include/gpuprof/gpuprof.h" ] || fail "no header installed"
[ -f "$prefix/share/man/man3/libgpuprof.3" ] || fail "no man page installed"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
assert_eq "$(pkg-config --libs gpuprof | sed "s/ *$//")" "-L$prefix/lib -lgpuprof" "pkg-config --libs"
# no CUDA library at link time
ldd "$prefix/lib/libgpuprof.so" > "$TMP/ldd"
assert_no_grep 'cuda|nvToolsExt' "$TMP/ldd"

# under ASan the examples must carry the sanitizer too; nvcc cannot
nvcc_arg=""
[ $asan = 1 ] && nvcc_arg="NVCC="
run_ok make -s -C examples OUT="$TMP" CFLAGS="-O1 -g -Wall -Wextra -Werror $sanflags" \
	LDFLAGS="$sanflags" $nvcc_arg

# --- the C example ---
export GPUPROF_RECORD="$TMP/simple-%p.gprec"
run_ok "$TMP/simple"
unset GPUPROF_RECORD
# without a driver CUDA cannot be found; with one it may (libcudart loadable)
if [ -e /proc/driver/nvidia/version ]; then
	assert_grep "^simple: 3 iterations, .*last layer path 'Head', CUDA (not )?found" "$TMP/out"
else
	assert_grep "^simple: 3 iterations, .*last layer path 'Head', CUDA not found" "$TMP/out"
fi
assert_grep '^conv +cpu +6 ' "$TMP/out"
rec=$(ls "$TMP"/simple-*.gprec)
[ -f "$rec" ] || fail "no recording written"
# the recording, counted independently of the reader
assert_eq "$(grep -c "^range	iteration	" "$rec")" 3 "iteration records"
assert_eq "$(grep -Ec "^range	(push|iteration|forward|backward|update)	" "$rec")" 22 "push records"
run_ok "$GPUPROF" info "$rec"
assert_grep '^format +gpuprof-rec$' "$TMP/out"
assert_grep '^nvtx ranges +22$' "$TMP/out"
assert_grep '^nvtx marks +3$' "$TMP/out"
assert_grep '^timer conv +calls=6 ' "$TMP/out"
assert_grep '^timer optimizer step +calls=3 ' "$TMP/out"
# a rank of a distributed job records its rank from the launcher's
# environment (issue 12), which orders rank files
assert_no_grep '^meta	rank	' "$rec"
run_ok env GPUPROF_RECORD="$TMP/rank-%p.gprec" RANK=5 WORLD_SIZE=8 "$TMP/simple"
rrec=$(ls "$TMP"/rank-*.gprec)
assert_grep '^meta	rank	5$' "$rrec"
assert_grep '^meta	world_size	8$' "$rrec"
run_ok "$GPUPROF" ranks -f csv "$rrec" "$rec"
assert_eq "$(cut -d, -f1,2 "$TMP/out" | tr -d '"' | tr '\n' ' ')" "Rank,From 1,order 5,metadata " "ranks of recordings"
run_ok "$GPUPROF" ranges --format tsv "$rec"
# Calls and Kind per nesting path
cut -f1,7,8 "$TMP/out" > "$TMP/paths"
for row in "3	push	iteration" "3	push	iteration/forward" "3	push	iteration/backward" \
	   "3	push	iteration/update" "3	push	iteration/forward/layer:Block1" \
	   "3	push	iteration/forward/layer:Block1/layer:Conv1" \
	   "3	push	iteration/forward/layer:Block1/layer:Conv2" \
	   "3	timer	iteration/forward/layer:Block1/layer:Conv1/conv" \
	   "3	timer	iteration/forward/layer:Block1/layer:Conv2/conv" \
	   "3	timer	iteration/update/optimizer step" "3	mark	iteration/iteration done" \
	   "1	push	layer:Head"; do
	grep -qxF "$row" "$TMP/paths" || { cat "$TMP/paths" >&2; fail "no row '$row'"; }
done
assert_eq "$(wc -l < "$TMP/paths")" 13 "rows (header + 12)"
# --name-only groups the two conv timers
run_ok "$GPUPROF" ranges --name-only --format csv "$rec"
assert_grep '^"6","[0-9]+".*"timer","conv"$' "$TMP/out"
# json: one object per row
run_ok "$GPUPROF" ranges --format json "$rec"
assert_grep '"kind":"push","name":"iteration"' "$TMP/out"
expect_exit 2 "$GPUPROF" ranges --format xml "$rec"
run_ok "$GPUPROF" ranges --help

# the same annotations reach an NVTX tool (as nsys would get them)
if [ -f "$BUILD/tests/lib/nvtx_inject.so" ]; then
	NVTX_INJECTION64_PATH=$PWD/$BUILD/tests/lib/nvtx_inject.so run_ok "$TMP/simple"
	assert_grep '^nvtx: pushes=22 pops=22 marks=3 payloads=3 names=iteration,forward,layer:Block1,layer:Conv1,' "$TMP/err"
fi

# --- the CUDA example (no GPU here: it must say so and exit 0) ---
if [ -x "$TMP/cuda_example" ]; then
	GPUPROF_RECORD="$TMP/cuda.gprec" "$TMP/cuda_example" > "$TMP/cuda.out" 2>&1 ||
		{ cat "$TMP/cuda.out" >&2; fail "cuda_example failed"; }
	if grep -q 'no GPU found' "$TMP/cuda.out"; then
		run_ok "$GPUPROF" ranges --format tsv "$TMP/cuda.gprec"
		assert_grep '^5	.*	push	iteration/forward/layer:Conv1$' "$TMP/out"
		assert_grep '^0	.*	gpu-timer	Conv1$' "$TMP/out"
	fi
fi

# --- the Python example, over the installed library ---
pre=""
[ $asan = 1 ] && pre=$(${CC:-cc} -print-file-name=libasan.so)
GPUPROF_LIB="$prefix/lib/libgpuprof.so" PYTHONPATH=python GPUPROF_RECORD="$TMP/py.gprec" \
	LD_PRELOAD=$pre ASAN_OPTIONS=detect_leaks=0 run_ok python3 examples/example.py
assert_grep '^example.py: 3 iterations, .*library found' "$TMP/out"
run_ok "$GPUPROF" ranges --format tsv "$TMP/py.gprec"
assert_grep '^3	.*	push	iteration/forward/layer:Block1/layer:Conv2$' "$TMP/out"
assert_grep '^3	.*	timer	iteration/forward/layer:Block1/layer:Conv1/conv$' "$TMP/out"
assert_grep '^3	.*	timer	iteration/update/optimizer step$' "$TMP/out"
