#!/bin/sh
# Installs the Debian packages that gpuprof's build, tests and benchmarks need.
# Usage: scripts/install-deps.sh [--print]   (--print: only print the apt-get line)
# Optional, not a Debian package: NVIDIA's CUDA toolkit (12.4 or later, with
# CUPTI and the NVTX3 headers, in CUDA_HOME or /usr/local/cuda) for the CUPTI
# collector of `gpuprof record` and the NVTX side of libgpuprof; without it
# they are left out of the build (docs/collector.md).
set -e
[ -f "${CUDA_HOME:-/usr/local/cuda}/include/cupti.h" ] ||
	echo "install-deps: no CUDA toolkit (cupti.h) in ${CUDA_HOME:-/usr/local/cuda}: \`gpuprof record\` will not be built (optional; NVIDIA's cuda-cupti-dev and cuda-nvtx packages)" >&2
# openmpi-bin, libopenmpi-dev: the MPI build (make MPI=1) and its test;
# libjs-chart.js: the charting library `gpuprof html` and `diff -f html` inline into their pages;
# chromium: the headless browser tests/cli/t1300 and t1411 open them in;
# time, bc: the benchmarks;
# bsdutils: script(1), the terminal tests/cli/t1681 checks the progress line on;
# libprotobuf-c-dev, protobuf-c-compiler: the XPlane reader (JAX/TensorFlow profiles, src/readers/xplane.c);
# python3-pandas: the Python API (python/gpuprof) and its tests.
PKGS="gcc make libsqlite3-dev sqlite3 zlib1g-dev libyajl-dev libiberty-dev libcmocka-dev pkg-config python3 clang \
openmpi-bin libopenmpi-dev libjs-chart.js chromium time bc bsdutils \
libprotobuf-c-dev protobuf-c-compiler python3-pandas"
if [ "$1" = "--print" ]; then
	echo "apt-get install -y $PKGS"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: not root; run as root:" >&2
	echo "  apt-get update && apt-get install -y $PKGS" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing" >&2
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
