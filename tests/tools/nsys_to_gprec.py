#!/usr/bin/env python3
"""nsys_to_gprec.py NSYS.sqlite OUT.gprec CUDA_INCLUDE_DIR

Writes the kernels, memcpys, memsets, syncs, runtime/driver API calls,
NVTX push/pop ranges and GPUs of a one-process Nsight Systems export as a
gpuprof recording of format version 2 (include/gpuprof/record-format.h):
what `gpuprof record` would have written for the same run.  Everything
CUPTI numbers is put back into CUPTI's numbering from CUDA's own headers
(not gpuprof's tables): API names to callback ids (cupti_runtime_cbid.h,
cupti_driver_cbid.h), nsys's memory kinds to CUpti_ActivityMemoryKind by
name (nsys numbers them from 0 = pageable, CUPTI from 0 = unknown); kernel
names are the mangled names CUPTI gives.  t1502 compares gpuprof's
outputs on both files.
"""
import re
import sqlite3
import sys

db, out, inc = sys.argv[1], sys.argv[2], sys.argv[3]


def cbids(header, prefix):
    ids = {}
    for m in re.finditer(r"CUPTI_%s_TRACE_CBID_(\w+)\s*=\s*(\d+)" % prefix, open(header).read()):
        ids.setdefault(m.group(1), int(m.group(2)))
    return ids


def enum(header, prefix):
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r"\b%s(\w+)\s*=\s*(\d+)" % prefix, open(header).read())}


runtime = cbids(inc + "/cupti_runtime_cbid.h", "RUNTIME")
driver = cbids(inc + "/cupti_driver_cbid.h", "DRIVER")
c = sqlite3.connect(db)
s = dict(c.execute("select id, value from StringIds"))
pids = {(g >> 24) & 0xFFFFFF for (g,) in c.execute("select globalTid from CUPTI_ACTIVITY_KIND_RUNTIME")}
assert len(pids) == 1, "one process per recording"
pid = pids.pop()


def esc(t):
    return t.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


lines = ["meta\tpid\t%d" % pid, "meta\tcmdline\tconverted from %s" % esc(db)]
for (gid, name, sms, major, minor, mem, bw, clock, l2) in c.execute(
        "select id, name, smCount, computeMajor, computeMinor, totalMemory, memoryBandwidth,"
        " clockRate, l2CacheSize from TARGET_INFO_GPU"):
    lines.append("device\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s" % (gid, sms, major, minor, mem, bw, clock, l2, esc(name)))
for (st, en, tid, corr, nid, ret) in c.execute(
        "select start, end, globalTid & 16777215, correlationId, nameId, returnValue"
        " from CUPTI_ACTIVITY_KIND_RUNTIME"):
    name = s[nid]
    kind, cb = ("runtime", runtime[name]) if name in runtime else ("driver", driver[name])
    lines.append("api\t%s\t%d\t%d\t%d\t%d\t%d\t%d" % (kind, st, en, tid, corr, cb, ret))
for r in c.execute(
        "select start, end, deviceId, contextId, streamId, correlationId, gridX, gridY, gridZ,"
        " blockX, blockY, blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory,"
        " coalesce(graphNodeId, 0), coalesce(mangledName, demangledName)"
        " from CUPTI_ACTIVITY_KIND_KERNEL"):
    lines.append("kernel\t" + "\t".join(str(v) for v in r[:15]) + "\t0\t%d\t%s" % (r[15], esc(s[r[16]])))
cupti_mem = enum(inc + "/cupti_activity.h", "CUPTI_ACTIVITY_MEMORY_KIND_")
mem = {i: cupti_mem[n[len("CUDA_MEMOPR_MEMORY_KIND_"):]] for (i, n) in c.execute("select id, name from ENUM_CUDA_MEM_KIND")}
mem[None] = 0
for r in c.execute(
        "select start, end, deviceId, contextId, streamId, correlationId, copyKind, srcKind, dstKind,"
        " bytes, srcDeviceId, dstDeviceId from CUPTI_ACTIVITY_KIND_MEMCPY"):
    p2p = r[6] == 10
    lines.append("memcpy\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t0\t%d\t%d\t%d" % (
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], mem[r[7]], mem[r[8]], r[9],
        r[10] if p2p else -1, r[11] if p2p else -1))
for r in c.execute(
        "select start, end, deviceId, contextId, streamId, correlationId, bytes, value, memKind"
        " from CUPTI_ACTIVITY_KIND_MEMSET"):
    lines.append("memset\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d" % (r[:8] + (mem[r[8]],)))
for r in c.execute(
        "select start, end, contextId, streamId, correlationId, syncType, eventId"
        " from CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"):
    lines.append("sync\t%d\t%d\t%d\t%d\t%d\t%d\t%d" % tuple(0xFFFFFFFF if v is None else v for v in r))
nranges = 0
for (st, en, tid, color, text) in c.execute(
        "select n.start, n.end, n.globalTid & 16777215, coalesce(n.color, 0),"
        " coalesce(n.text, (select value from StringIds where id = n.textId), '')"
        " from NVTX_EVENTS n where n.eventType = 59 and n.end is not null"):
    lines.append("range\tpush\t%d\t0\t%d\t%d\t%08x\t0\t\t%s" % (tid, st, en, color & 0xFFFFFFFF, esc(text)))
    nranges += 1
with open(out, "w") as f:
    f.write("GPUPROF-REC\t2\n" + "\n".join(lines) + "\nchunk\t%d\nend\t%d\t0\n" % (len(lines), nranges))
