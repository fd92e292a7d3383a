#!/bin/sh
# Rebuilds the seed corpus of fuzz_xplane: small XPlane files made by
# tests/tools/xplane_mini.py (two hosts' worth of GPU and host planes),
# one with the HLO of its module in /host:metadata (--hlo),
# gzipped, cut at 300 and 900 bytes, and a few odd ones (an XSpace of
# /host:metadata alone, planes without lines, a kernel whose metadata and
# stat ids name nothing, with negative line id and offset, times at the
# int64 range's ends).
# Usage: tests/fuzz/make-corpus-xplane.sh [OUTDIR]
set -e
here=$(dirname "$0")
out=${1:-$here/corpus/xplane}
tools=$here/../tools
mkdir -p "$out"
python3 "$tools/xplane_mini.py" host "$out/host.xplane.pb"
python3 "$tools/xplane_mini.py" host "$out/host3.xplane.pb" --host 3
python3 "$tools/xplane_mini.py" host "$out/hlo.xplane.pb" --hlo
gzip -9nc "$out/host.xplane.pb" >"$out/host.xplane.pb.gz"
head -c 900 "$out/host.xplane.pb" >"$out/cut_900.xplane.pb"
head -c 300 "$out/host.xplane.pb" >"$out/cut_300.xplane.pb"
python3 - "$tools" "$out" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import xplane_mini as x
d = sys.argv[2]
open(d + "/meta_only.xplane.pb", "wb").write(x.ld(1, x.Plane(0, "/host:metadata").encode()))
open(d + "/no_lines.xplane.pb", "wb").write(x.ld(1, x.Plane(0, "/device:GPU:0").encode()) +
                                            x.ld(1, x.Plane(0, "/host:CPU").encode()))
p = x.Plane(0, "/device:GPU:2")
p.line(-5, "Stream #1(Kernel)", -1000,
       [x.vint(1, 99) + x.vint(2, -5000) + x.vint(3, 7) + x.ld(4, x.vint(1, 42) + x.vint(7, 77))])
open(d + "/dangling_ids.xplane.pb", "wb").write(x.ld(1, p.encode()))
# times at the int64 range's ends (the reader holds sums there)
big = (1 << 63) - 1
p = x.Plane(0, "/device:GPU:0")
p.line(3, "Stream #3(Kernel)", big - 5, [p.event("k", big, big, [p.stat("correlation_id", 1)]), p.event("k2", -big, big, [])])
h = x.Plane(0, "/host:CPU")
h.line(4, "t", -big, [h.event("cuLaunchKernel", -big, big, [h.stat("correlation_id", 1), h.ref("hlo_op", "dot.1")])])
open(d + "/extreme_times.xplane.pb", "wb").write(x.ld(1, p.encode()) + x.ld(1, h.encode()))
PY
