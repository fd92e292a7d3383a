#!/usr/bin/env python3
"""Totals of the op table of an nsys or nvprof SQLite export, computed by SQL
over the export alone (no gpuprof), for tests/cli/t0951_ops_nvtx.sh.

    tests/tools/nvtx_ops_oracle.py nsys|nvprof FILE

Prints "calls cpu_total gpu_total self_gpu" (ns): over the push/pop and
start/end ranges of the export with an end, less those the program never
closed (two or more ranges of a thread ending at its last range end: the
profiler closed them at exit, docs/trace-model.md), the number of ranges,
the sum of their durations, the sum over (range, kernel) pairs where the
range strictly encloses the kernel's runtime call on the call's thread of
the kernel's duration, and the sum of the durations of the kernels that
have such a range (each kernel once: Self GPU goes to one range); memcpys
and memsets count as kernels.
"""
import sqlite3
import struct
import sys

NSYS_RANGES = """
    select start, end, globalTid from NVTX_EVENTS
    where eventType in (59, 60) and end is not null"""
NSYS_LAUNCHES = """
    select k.end - k.start, r.start, r.end, r.globalTid
    from TABLE k join CUPTI_ACTIVITY_KIND_RUNTIME r
      on r.correlationId = k.correlationId
     and r.globalTid / 16777216 % 16777216 = k.globalPid / 16777216 % 16777216"""
NVPROF_RANGES = """
    select s.timestamp, e.timestamp, s.objectId
    from CUPTI_ACTIVITY_KIND_MARKER s join CUPTI_ACTIVITY_KIND_MARKER e
      on e.id = s.id and e.flags = 4
    where s.flags = 2"""
NVPROF_LAUNCHES = """
    select k.end - k.start, r.start, r.end, r.processId, r.threadId
    from TABLE k join CUPTI_ACTIVITY_KIND_RUNTIME r
      on r.correlationId = k.correlationId"""
DEVICE = {
    "nsys": ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"),
    "nvprof": ("CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_KERNEL",
               "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"),
}


def thread_of(blob):
    """nvprof's objectId: int32 pid, int64 tid (masked to 32 bits, signed as
    RUNTIME.threadId stores it)."""
    pid, tid = struct.unpack_from("<iq", bytes(blob))
    tid &= 0xFFFFFFFF
    return (pid, tid - (1 << 32) if tid >= 1 << 31 else tid)


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    tables = {n for (n,) in db.execute("select name from sqlite_master where type = 'table'")}
    device = [n for n in DEVICE[fmt] if n in tables]
    if fmt == "nsys":
        ranges = [(s, e, tid) for s, e, tid in db.execute(NSYS_RANGES)]
        launches = [(d, s, e, tid) for n in device for d, s, e, tid in db.execute(NSYS_LAUNCHES.replace("TABLE", n))]
    else:
        ranges = [(s, e, thread_of(o)) for s, e, o in db.execute(NVPROF_RANGES)]
        launches = [(d, s, e, (pid, tid)) for n in device
                    for d, s, e, pid, tid in db.execute(NVPROF_LAUNCHES.replace("TABLE", n))]
    last = {}
    for s, e, tid in ranges:
        last[tid] = max(last.get(tid, e), e)
    at_last = {}
    for s, e, tid in ranges:
        if e == last[tid]:
            at_last[tid] = at_last.get(tid, 0) + 1
    ranges = [r for r in ranges if not (r[1] == last[r[2]] and at_last[r[2]] >= 2)]
    by_thread = {}
    for s, e, tid in ranges:
        by_thread.setdefault(tid, []).append((s, e))
    gpu_total = self_gpu = 0
    for dur, cs, ce, tid in launches:
        n = sum(1 for s, e in by_thread.get(tid, []) if s < cs and e > ce)
        gpu_total += n * dur
        self_gpu += dur if n else 0
    print(len(ranges), sum(e - s for s, e, _ in ranges), gpu_total, self_gpu)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("nsys", "nvprof"):
        sys.exit("usage: nvtx_ops_oracle.py nsys|nvprof FILE")
    main()
