#!/bin/bash
# The validation of `gpuprof record` and libgpuprof on a machine with an
# NVIDIA GPU (docs/collector.md "Validation on a GPU", docs/gpu-validation.md
# for what it showed), in one go: builds, runs every GPU check, and keeps
# the logs and the small recordings in one folder.  GPU time is short, so
# each step has a time limit and a failing step does not stop the others.
#
#   bench/gpu-validate.sh [OUTDIR]      (default build/gpu-validate)
#
# env: DEBS     a folder of Debian .deb files (the build's libraries, see
#               below) unpacked into /tmp/gpdeps when the machine lacks
#               their headers and nothing can be installed
#      RESULT   a folder that receives summary.txt and gpu-validate.tar.gz
#               (all of OUTDIR) after every step, so a run cut short still
#               leaves what it did
#      DEADLINE seconds from the start by which the run must end (default
#               900): `make check`, the last step, gets what is left
#      JOBS     parallel jobs (default nproc)
#
# Steps (each one line "[name] rc=N Ts" in OUTDIR/summary.txt, its output in
# OUTDIR/name.log):
#   env        GPU, driver, nvcc, PyTorch, CUPTI locations
#   build      make all, make install into build/prefix
#   true       a recording of `true`: no "no GPU found" note with a driver
#   loop       bench/record-overhead.sh cuda: ns per launch plain/recorded,
#              every launch recorded; a 2,000-launch recording kept
#   torch      bench/record-overhead.sh torch: overhead of gpuprof record,
#              emit_nvtx and torch.profiler; kernels per name equal
#   markers    bench/record_step.py --gpuprof-markers under gpuprof record
#   lib        examples/cuda_example: libgpuprof's own recording (GPU
#              timers), gpuprof record of it, and with --capture-range
#   graphs     bench/record_graphs.py eager and CUDA-graph runs under
#              gpuprof record (also with emit_nvtx) and torch.profiler
#              (capture in the same file, and in a file of its own);
#              bench/record_graph_layers.cu: a graph captured inside
#              libgpuprof layers, recorded
#   whatif     bench/whatif_step.cu with slow_kernel at 600 us and at 200 us,
#              plain and recorded: the measured step times for the what-if
#              check (done on the recordings by tests/cli/t1630)
#   check      make check (tests that need ../shared skip there)
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=$PATH:${CUDA_HOME:-/usr/local/cuda}/bin
O=${1:-build/gpu-validate}
JOBS=${JOBS:-$(nproc)}
rm -rf "$O"; mkdir -p "$O/rec"
O=$(cd "$O" && pwd)
S=$O/summary.txt
G=$PWD/build/gpuprof
export O S G JOBS

say() { echo "$*" | tee -a "$S"; }
pack() {
	[ -n "${RESULT:-}" ] || return 0
	cp "$S" "$RESULT/summary.txt"
	tar -czf "$RESULT/gpu-validate.tar.gz" -C "$O" .
}
# step NAME LIMIT CMD...: CMD with a time limit, its output in NAME.log
step() {
	local n=$1 l=$2 t0 rc
	shift 2
	declare -F "$1" >/dev/null && export -f "$1"
	t0=$(date +%s)
	# through bash -c, so that CMD may be one of the functions below
	timeout -k 5 "$l" bash -c '"$@"' step "$@" >"$O/$n.log" 2>&1
	rc=$?
	say "[$n] rc=$rc $(($(date +%s) - t0))s"
	tail -n 8 "$O/$n.log" | sed 's/^/    /' | tee -a "$S"
	pack
	return $rc
}

env_info() {
	nvidia-smi || true
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv || true
	command -v nvcc && nvcc --version | tail -2
	python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())'
	cc --version | head -1
	. /etc/os-release && echo "os $PRETTY_NAME"
	echo "nproc $(nproc)"
	for d in "${CUDA_HOME:-/usr/local/cuda}" /usr/local/cuda*; do
		ls -d "$d"/include/cupti.h "$d"/extras/CUPTI/include/cupti.h "$d"/lib64/libcupti.so* \
			"$d"/extras/CUPTI/lib64/libcupti.so* 2>/dev/null
	done
	python3 -c 'import nvidia.cuda_cupti, os; print("pip cupti", os.path.dirname(nvidia.cuda_cupti.__file__))' 2>/dev/null || true
	for p in sqlite3 pkg-config pkgconf chromium mpicc bc; do echo "$p: $(command -v $p || echo missing)"; done
}

# The build's libraries: where their headers are missing and DEBS holds the
# Debian packages, unpack them aside (never into /) and point the compiler,
# the linker and the loader there; a runtime library the system has stays
# the system's.
use_debs() {
	local miss=""
	for h in sqlite3.h zlib.h yajl/yajl_parse.h libiberty/demangle.h; do
		printf '#include <%s>\nint main(void){return 0;}\n' "$h" | cc -x c -o /dev/null - 2>/dev/null || miss="$miss $h"
	done
	printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <cmocka.h>\nint main(void){return 0;}\n' |
		cc -x c -o /dev/null - 2>/dev/null || miss="$miss cmocka.h"
	command -v sqlite3 >/dev/null || miss="$miss sqlite3(1)"
	[ -f /usr/share/javascript/chart.js/chart.min.js ] || miss="$miss chart.js"
	echo "missing:${miss:- nothing}"
	[ -n "$miss" ] && [ -d "${DEBS:-}" ] || return 0
	rm -rf /tmp/gpdeps; mkdir -p /tmp/gpdeps/rt
	for f in "$DEBS"/*.deb; do dpkg -x "$f" /tmp/gpdeps; done
	local lib=/tmp/gpdeps/usr/lib/x86_64-linux-gnu
	for so in "$lib"/*.so.[0-9]*; do
		case $so in *.so.*.*) continue ;; esac
		ldconfig -p | grep -q "$(basename "$so") " || ln -sf "$so" /tmp/gpdeps/rt/
	done
	echo "export CPATH=/tmp/gpdeps/usr/include\${CPATH:+:\$CPATH}"
	echo "export LIBRARY_PATH=$lib\${LIBRARY_PATH:+:\$LIBRARY_PATH}"
	echo "export LD_LIBRARY_PATH=/tmp/gpdeps/rt\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
	# the sqlite3 shell refuses a newer library than its own: it gets its own
	mkdir -p /tmp/gpdeps/bin
	printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec /tmp/gpdeps/usr/bin/sqlite3 "$@"\n' "$lib" >/tmp/gpdeps/bin/sqlite3
	chmod +x /tmp/gpdeps/bin/sqlite3
	echo "export PATH=\$PATH:/tmp/gpdeps/bin:/tmp/gpdeps/usr/bin"
	echo "export PKG_CONFIG_PATH=$lib/pkgconfig"
	[ -f /usr/share/javascript/chart.js/chart.min.js ] ||
		echo "export GPUPROF_CHARTJS=/tmp/gpdeps/usr/share/javascript/chart.js/chart.min.js"
}

say "gpu-validate $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null)"
step env 60 env_info
use_debs >"$O/deps.log" 2>&1
grep '^export' "$O/deps.log" >"$O/deps.env"
. "$O/deps.env"
say "[deps] $(head -1 "$O/deps.log")"

# The collector needs CUPTI's headers: the toolkit's, else those of the
# CUPTI wheel PyTorch brings, seen through a CUDA_HOME of links.
build() {
	local home=${CUDA_HOME:-/usr/local/cuda} pip
	if [ ! -f "$home/include/cupti.h" ] && [ ! -f "$home/extras/CUPTI/include/cupti.h" ]; then
		pip=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.dirname(nvidia.cuda_cupti.__file__))' 2>/dev/null)
		if [ -n "$pip" ] && [ -f "$pip/include/cupti.h" ]; then
			rm -rf /tmp/cudahome; mkdir -p /tmp/cudahome/include /tmp/cudahome/lib64
			ln -s "$home"/include/* "$pip"/include/* /tmp/cudahome/include/ 2>/dev/null
			ln -s "$(ls "$pip"/lib/libcupti.so* | head -1)" /tmp/cudahome/lib64/libcupti.so
			home=/tmp/cudahome
			echo "CUPTI from $pip"
		fi
	fi
	make -j"$JOBS" CUDA_HOME="$home" all && make CUDA_HOME="$home" install PREFIX="$PWD/build/prefix" >/dev/null &&
		ls -l build/gpuprof build/libgpuprof-inject.so build/libgpuprof.so
}
step build 240 build || say "build failed: the other steps use what was built"

# 1. With a driver present, a program that loaded nothing says so, not "no GPU"
rec_true() {
	"$G" record -o "$O/rec/true.gprec" -- true && "$G" info "$O/rec/true.gprec" &&
		! grep -q 'no GPU found' "$O/rec/true.gprec"
}
step true 30 rec_true

# 2. The CUDA launch loop: cost per launch, every launch recorded
loop() {
	OUT=$O/loop REPS=2 bench/record-overhead.sh cuda || return 1
	local f
	f=$(ls -t "$O"/loop/loop-*.gprec | head -1)
	"$G" info "$f" && "$G" summary "$f" && "$G" report "$f" | head -20
	"$G" record -q -o "$O/rec/loop2000.gprec" -- "$O/loop/record_launch_loop" 2000
	rm -f "$O"/loop/*.gprec
}
step loop 120 loop

# 3. A PyTorch training step: overhead, exactness against torch.profiler;
# then the small recordings kept as test data (one step after 5 warm-up
# steps): by gpuprof record (the profiled steps only), with emit_nvtx, and
# by torch.profiler
torch_step() {
	local py="python3 bench/record_step.py --steps 1" rc=0
	OUT=$O/torch STEPS=20 REPS=2 bench/record-overhead.sh torch || rc=1
	rm -f "$O"/torch/*.gprec "$O"/torch/*.json
	"$G" record -q --capture-range cudaProfilerApi -o "$O/rec/step.gprec" -- $py --cuda-profiler-range || rc=1
	"$G" record -q -o "$O/rec/step-nvtx.gprec" -- $py --emit-nvtx || rc=1
	$py --profiler --trace-out "$O/rec/step-kineto.json" || rc=1
	"$G" info "$O/rec/step-nvtx.gprec"
	"$G" ops "$O/rec/step-nvtx.gprec" | head -30
	"$G" ops "$O/rec/step-kineto.json" | head -30
	return $rc
}
step torch 300 torch_step

# 4. libgpuprof's markers in a PyTorch model
markers() {
	PYTHONPATH=python "$G" record -q -o "$O/rec/markers.gprec" -- \
		python3 bench/record_step.py --steps 1 --gpuprof-markers &&
		"$G" report -c idx,dir,op,layer,iter,kernel "$O/rec/markers.gprec" | head -30 &&
		"$G" ranges "$O/rec/markers.gprec" | head -40
}
step markers 120 markers

# 5. libgpuprof's CUDA example: its own recording, under gpuprof record, and
# with the capture range
lib_example() {
	local pc=pkg-config
	command -v pkg-config >/dev/null || pc=pkgconf
	mkdir -p "$O/ex"
	PKG_CONFIG=$pc PKG_CONFIG_PATH="$PWD/build/prefix/lib/pkgconfig" make -C examples OUT="$O/ex" || return 1
	GPUPROF_RECORD=$O/rec/lib.gprec "$G" record -q -o "$O/rec/cuda.gprec" -- "$O/ex/cuda_example" &&
		"$G" record -q --capture-range cudaProfilerApi -o "$O/rec/cap.gprec" -- "$O/ex/cuda_example" &&
		"$G" ranges "$O/rec/lib.gprec" && "$G" report "$O/rec/cuda.gprec" &&
		"$G" info "$O/rec/cap.gprec" && "$G" summary "$O/rec/cap.gprec"
}
step lib 120 lib_example

# 6. CUDA graphs: the same model eagerly and replayed
graphs() {
	local py="python3 bench/record_graphs.py --iters 5" rc=0
	"$G" record -q -o "$O/rec/graph-eager.gprec" -- $py --mode eager || rc=1
	"$G" record -q -o "$O/rec/graph-replay.gprec" -- $py --mode graph || rc=1
	"$G" record -q -o "$O/rec/graph-replay-nvtx.gprec" -- $py --mode graph --emit-nvtx || rc=1
	"$G" record -q -o "$O/rec/graph-eager-nvtx.gprec" -- $py --mode eager --emit-nvtx || rc=1
	$py --mode eager --profiler --trace-out "$O/rec/graph-eager-kineto.json" || rc=1
	$py --mode graph --profiler --trace-out "$O/rec/graph-replay-kineto.json" || rc=1
	$py --mode graph --profiler --trace-out "$O/rec/graph-replay-only-kineto.json" \
		--capture-out "$O/rec/graph-capture-kineto.json" || rc=1
	# a C program capturing a graph inside libgpuprof layer ranges
	nvcc -Iinclude -Lbuild -lgpuprof -Xlinker -rpath -Xlinker "$PWD/build" -o "$O/record_graph_layers" \
		bench/record_graph_layers.cu &&
		"$G" record -q -o "$O/rec/graph-layers.gprec" -- "$O/record_graph_layers" 10 || rc=1
	for f in "$O"/rec/graph-*; do
		[ -f "$f" ] || continue
		echo "== $f"
		"$G" info "$f" | grep -E '^(kernels|graph|note)' ; "$G" summary --by op "$f" | head -12
	done
	return $rc
}
step graphs 180 graphs

# 7. What-if on real hardware: slow_kernel at 600 us, then really 3x faster
whatif() {
	nvcc -O2 -o "$O/whatif_step" bench/whatif_step.cu || return 1
	"$O/whatif_step" 600 3 || return 1
	echo "plain 600: $("$O/whatif_step" 600 40)"
	echo "plain 200: $("$O/whatif_step" 200 40)"
	echo "recorded 600: $("$G" record -q -o "$O/rec/whatif-600.gprec" -- "$O/whatif_step" 600 40)"
	echo "recorded 200: $("$G" record -q -o "$O/rec/whatif-200.gprec" -- "$O/whatif_step" 200 40)"
	"$G" summary "$O/rec/whatif-600.gprec"
	"$G" advise --what-if 'kernel:slow_kernel=3x' "$O/rec/whatif-600.gprec" || true
}
step whatif 90 whatif

# the recordings that become test data, compressed
gzip -9 "$O"/rec/* 2>/dev/null
ls -l "$O/rec" >>"$S"
pack

left=$((${DEADLINE:-900} - SECONDS - 15))
[ $left -gt 30 ] || left=30
step check $left env TEST_JOBS="$JOBS" make -j"$JOBS" check
grep -E '^(FAIL|.* passed, .* failed)' "$O/check.log" | tail -40 >>"$S"
# the logs of the tests that failed (exit status neither 0 nor 77: skip)
mkdir -p "$O/failed"
for rc in build/test-out/*.rc; do
	[ -f "$rc" ] || continue
	case $(cat "$rc") in 0 | 77) ;; *) cp "${rc%.rc}.log" "$O/failed/" ;; esac
done
pack
say "done $(date -u +%FT%TZ)"
