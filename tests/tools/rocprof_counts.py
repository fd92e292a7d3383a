#!/usr/bin/env python3
"""What rocprofv3 JSON files hold, counted from the JSON by Python alone (no
gpuprof), for tests/cli/t0507_rocprof.sh to compare gpuprof against.

    rocprof_counts.py TESTDATA > tests/data/rocprof_counts.tsv
        every rocprofv3 file of testdata (told by content: trace_kind.py)
    rocprof_counts.py --file FILE
        one file (the small ones t0507 makes), the same columns

Columns, over every process object of the file:
  kernels     kernel_dispatch records
  kernel_ns   the sum of their end_timestamp - start_timestamp (ns; below 0
              counts 0)
  api         hip_api, hsa_api, rccl_api, rocdecode_api and rocjpeg_api
              records, and marker_api records without a message (rocprofv3
              keeps messages, strings.marker_api by correlation id, only
              for roctxMarkA, roctxRangePushA and roctxRangeStartA)
  runtime     hip_api records; driver: hsa_api records
  ranges      marker_api records with a message, but marks; marks: those
              whose operation (strings.buffer_records[kind].operations
              [operation]) is roctxMarkA
  memcpy      memory_copy records; memcpy_bytes: their bytes
  gpus        agents of type 2 (GPU), distinct by gpu_index
  comm_kernels, comm_ns  the kernels whose name (kernel_symbols by
              kernel_id, formatted_kernel_name) starts with ncclKernel_,
              ncclDevKernel_ or rccl: RCCL's collectives
"""
import gzip
import json
import os
import sys

from trace_kind import traces

COLUMNS = ("file", "kernels", "kernel_ns", "api", "runtime", "driver", "ranges", "marks", "memcpy",
           "memcpy_bytes", "gpus", "comm_kernels", "comm_ns")
COMM = ("ncclKernel_", "ncclDevKernel_", "rccl")
APIS = ("hip_api", "hsa_api", "rccl_api", "rocdecode_api", "rocjpeg_api")


def counts(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        doc = json.load(f)
    c = dict.fromkeys(COLUMNS[1:], 0)
    gpus = set()
    for proc in doc["rocprofiler-sdk-tool"]:
        rec = proc.get("buffer_records", {})
        names = {s["kernel_id"]: s.get("formatted_kernel_name", "") for s in proc.get("kernel_symbols", [])}
        kinds = proc.get("strings", {}).get("buffer_records", [])
        msgs = {kv["key"]: kv["value"] for kv in proc.get("strings", {}).get("marker_api", [])}
        gpus |= {a.get("gpu_index") for a in proc.get("agents", []) if a.get("type") == 2}
        for k in rec.get("kernel_dispatch", []):
            ns = max(0, k["end_timestamp"] - k["start_timestamp"])
            c["kernels"] += 1
            c["kernel_ns"] += ns
            if names.get(k["dispatch_info"]["kernel_id"], "").startswith(COMM):
                c["comm_kernels"] += 1
                c["comm_ns"] += ns
        for section in APIS:
            c["api"] += len(rec.get(section, []))
        c["runtime"] += len(rec.get("hip_api", []))
        c["driver"] += len(rec.get("hsa_api", []))
        for m in rec.get("marker_api", []):
            if m["correlation_id"]["internal"] not in msgs:
                c["api"] += 1
            elif kinds[m["kind"]]["operations"][m["operation"]] == "roctxMarkA":
                c["marks"] += 1
            else:
                c["ranges"] += 1
        for m in rec.get("memory_copy", []):
            c["memcpy"] += 1
            c["memcpy_bytes"] += m["bytes"]
    c["gpus"] = len(gpus)
    return c


def line(name, c):
    return "\t".join([name] + [str(c[k]) for k in COLUMNS[1:]])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--file":
        print("\t".join(COLUMNS))
        print(line(os.path.basename(sys.argv[2]), counts(sys.argv[2])))
        return
    if len(sys.argv) != 2:
        sys.exit("usage: rocprof_counts.py TESTDATA > tests/data/rocprof_counts.tsv | --file FILE")
    top = sys.argv[1]
    print("# Made by tests/tools/rocprof_counts.py from the rocprofv3 files of testdata;")
    print("# regenerate with it, do not edit.  Columns: see that script.")
    print("\t".join(COLUMNS))
    for f in traces(top, {"rocprof"}):
        print(line(f, counts(os.path.join(top, f))))


if __name__ == "__main__":
    main()
