#!/bin/sh
# Installs the Debian packages that gpuprof's build, tests and benchmarks need.
# Usage: scripts/install-deps.sh [--print]   (--print: only print the apt-get line)
set -e
PKGS="gcc make libsqlite3-dev sqlite3 zlib1g-dev libyajl-dev libiberty-dev libcmocka-dev pkg-config python3 clang time bc"
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
