#!/usr/bin/env python3
"""Writes a small rocprofv3 JSON file (rocprofiler-sdk-tool, `rocprofv3
--output-format json`) with every section gpuprof reads, figures chosen by
hand, for tests/cli/t0507_rocprof.sh and the fuzz seeds
(tests/fuzz/make-corpus-rocprof.sh).  The real file of testdata
(tracelens/rocprof/908_results.json.gz) has only kernel dispatches; the
other sections follow rocprofiler-sdk's serialization
(source/include/rocprofiler-sdk/cxx/serialization.hpp, lib/output/
generateJSON.cpp: records {size, kind, operation, correlation_id
{internal, external}, start_timestamp, end_timestamp, thread_id, ...};
strings.marker_api as cereal writes a map: [{"key", "value"}]).

    make_rocprof.py OUT [--tables-last] [--one-process] [--compact]

--tables-last writes each process's buffer_records before its agents,
strings and kernel_symbols (the reader must take them in any order);
--compact writes no indentation (rocprofv3 indents; fuzz seeds are small).

What it holds (T = 1e9 ns; t0507 checks gpuprof against these numbers):
process 4242 (python3), GPUs gpu_index 0 (handle 101) and 1 (102), CPU 100:
  kernels   corr 11 matmul     T+1000..T+3000   GPU 0 stream 1, wg 256, grid
                                                65536 work-items = 256 blocks,
                                                LDS 3072 = 1024 static + 2048
            corr 12 Cijk_...   T+4000..T+9000   GPU 0, wg 256x1, grid 1000x4
                                                = 4x4 blocks
            corr 13 ncclDevKernel_Generic_1 T+5000..T+15000 GPU 1 stream 2
            corr 14 kernel_id 99 (no symbol) T+20000..T+21000 GPU 0
  hip_api   hipLaunchKernel x4 (corr 11-14), hipMalloc 10, hipMemcpy 15,
            hipMemcpyAsync 16, hipFree 18: 8 runtime calls
  hsa_api   hsa_queue_create (corr 9): 1
  marker    push/pop "forward" T+800..T+16000, mark "step 1" T+17000,
            start/stop "epoch" T+700..T+40000, roctxNameOsThread (no
            message: an API call)
  copies    HtoD 1 MiB (corr 15), DtoH 4096 (16), GPU 0 -> GPU 1 8192 (17)
  memory    GPU 0 1 MiB at T+200 freed at T+36000 (the free names neither
            size nor agent), host 4096 at T+300, a free of 0x9000 never
            allocated; one scratch_memory record (not read)
process 5151: kernel_id 1 is softmax there, corr 1 T+50000..T+52000 GPU 0
Totals: 5 kernels, 20000 ns; 11 API calls (9 runtime, 1 driver); 2 ranges,
1 mark; 3 copies, 1060864 bytes.
"""
import json
import sys

T = 1000000000

STRINGS_BUF = [
    {"kind": "NONE", "operations": []},
    {"kind": "HSA_CORE_API", "operations": ["hsa_init", "hsa_queue_create"]},
    {"kind": "HIP_RUNTIME_API",
     "operations": ["hipMalloc", "hipLaunchKernel", "hipMemcpy", "hipMemcpyAsync", "hipFree"]},
    {"kind": "MARKER_CORE_API",
     "operations": ["roctxMarkA", "roctxRangePushA", "roctxRangePop", "roctxRangeStartA", "roctxRangeStop"]},
    {"kind": "MARKER_NAME_API", "operations": ["roctxNameOsThread"]},
    {"kind": "MEMORY_COPY", "operations": ["MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST",
                                           "MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
                                           "MEMORY_COPY_DEVICE_TO_DEVICE"]},
    {"kind": "KERNEL_DISPATCH", "operations": ["KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE",
                                               "KERNEL_DISPATCH_COMPLETE"]},
    {"kind": "MEMORY_ALLOCATION", "operations": ["MEMORY_ALLOCATION_NONE", "MEMORY_ALLOCATION_ALLOCATE",
                                                 "MEMORY_ALLOCATION_VMEM_ALLOCATE", "MEMORY_ALLOCATION_FREE",
                                                 "MEMORY_ALLOCATION_VMEM_FREE"]},
    {"kind": "SCRATCH_MEMORY", "operations": ["SCRATCH_MEMORY_NONE", "SCRATCH_MEMORY_ALLOC"]},
]
HSA, HIP, MARK, MARK_NAME, COPY, DISPATCH, ALLOC, SCRATCH = 1, 2, 3, 4, 5, 6, 7, 8


def corr(i):
    return {"internal": i, "external": 0}


def agent(handle, kind, index):
    a = {"size": 312, "id": {"handle": handle}, "type": kind, "gpu_index": index,
         "cu_count": 304 if kind == 2 else 64, "wave_front_size": 64 if kind == 2 else 0,
         "gfx_target_version": 90402 if kind == 2 else 0,
         "max_engine_clk_fcompute": 2100 if kind == 2 else 0, "max_engine_clk_ccompute": 3700,
         "name": "gfx942" if kind == 2 else "AMD EPYC 9654",
         "product_name": "AMD Instinct MI300X" if kind == 2 else "AMD EPYC 9654",
         "vendor_name": "AMD" if kind == 2 else "CPU",
         "uuid": {"bytes": {"value0": 1}}, "runtime_visibility": {"hsa": 1, "hip": 1},
         "mem_banks": [{"heap_type": 1, "flags": {"HotPluggable": 0}, "width": 8192,
                        "mem_clk_max": 1300, "size_in_bytes": 206141652992 if kind == 2 else 1 << 40}],
         "caches": [{"level": 1, "size": 16, "type": {"Data": 1}},
                    {"level": 2, "size": 4096, "type": {"Data": 1}}] if kind == 2 else []}
    return a


def dispatch(c, tid, s, e, handle, stream, kid, wg, grid, lds=0):
    return {"size": 184, "kind": DISPATCH, "operation": 2, "thread_id": tid, "correlation_id": corr(c),
            "start_timestamp": T + s, "end_timestamp": T + e,
            "dispatch_info": {"size": 72, "agent_id": {"handle": handle}, "queue_id": {"handle": 7},
                              "kernel_id": kid, "dispatch_id": c, "private_segment_size": 0,
                              "group_segment_size": lds,
                              "workgroup_size": dict(zip("xyz", wg)), "grid_size": dict(zip("xyz", grid))},
            "stream_id": {"handle": stream}}


def api(kind, op, c, tid, s, e):
    return {"size": 56, "kind": kind, "operation": op, "correlation_id": corr(c),
            "start_timestamp": T + s, "end_timestamp": T + e, "thread_id": tid}


def symbol(kid, raw, formatted, lds, vgpr, accum):
    return {"size": 88, "kernel_id": kid, "code_object_id": 1, "kernel_name": raw, "kernel_object": 1,
            "group_segment_size": lds, "private_segment_size": 0, "sgpr_count": 32,
            "arch_vgpr_count": vgpr, "accum_vgpr_count": accum, "kernel_address": {"handle": 7},
            "formatted_kernel_name": formatted, "demangled_kernel_name": formatted + ".kd",
            "truncated_kernel_name": formatted}


def process_one():
    tid, tid2 = 4243, 4242
    kernels = [
        dispatch(11, tid, 1000, 3000, 101, 1, 1, (256, 1, 1), (65536, 1, 1), 3072),
        dispatch(12, tid, 4000, 9000, 101, 1, 2, (256, 1, 1), (1000, 4, 1)),
        dispatch(13, tid, 5000, 15000, 102, 2, 3, (512, 1, 1), (4096, 1, 1)),
        dispatch(14, tid, 20000, 21000, 101, 1, 99, (64, 1, 1), (64, 1, 1)),
    ]
    hip = [api(HIP, 0, 10, tid, 100, 500)]
    hip += [api(HIP, 1, c, tid, 500 + 100 * c, 550 + 100 * c) for c in (11, 12, 13, 14)]
    hip += [api(HIP, 2, 15, tid, 22000, 30000), api(HIP, 3, 16, tid, 31000, 31500),
            api(HIP, 4, 18, tid, 35900, 36100)]
    markers = [api(MARK, 1, 20, tid, 800, 16000), api(MARK, 0, 21, tid, 17000, 17000),
               api(MARK, 3, 22, tid2, 700, 40000), api(MARK_NAME, 0, 23, tid2, 60, 70)]
    copies = []
    for c, s, e, src, dst, n, op in ((15, 23000, 29000, 100, 101, 1 << 20, 2), (16, 31200, 33000, 101, 100, 4096, 3),
                                     (17, 34000, 35000, 101, 102, 8192, 4)):
        copies.append({"size": 80, "kind": COPY, "operation": op, "thread_id": tid, "correlation_id": corr(c),
                       "start_timestamp": T + s, "end_timestamp": T + e, "dst_agent_id": {"handle": dst},
                       "src_agent_id": {"handle": src}, "bytes": n, "stream_id": {"handle": 1}})
    allocs = []
    for c, s, op, handle, addr, n in ((10, 200, 1, 101, 0x1000, 1 << 20), (19, 300, 1, 100, 0x2000, 4096),
                                      (18, 36000, 3, 0, 0x1000, 0), (24, 37000, 3, 0, 0x9000, 0)):
        allocs.append({"size": 72, "kind": ALLOC, "operation": op, "thread_id": tid, "correlation_id": corr(c),
                       "start_timestamp": T + s, "end_timestamp": T + s + 50, "agent_id": {"handle": handle},
                       "address": "0x%016x" % (0x7f0000000000 + addr), "allocation_size": n})
    scratch = [{"size": 64, "kind": SCRATCH, "operation": 1, "agent_id": {"handle": 101},
                "queue_id": {"handle": 7}, "thread_id": tid, "start_timestamp": T + 1,
                "end_timestamp": T + 2, "correlation_id": corr(0), "flags": 0}]
    return {
        "metadata": {"node": {"hostname": "node1"}, "pid": 4242, "init_time": T, "fini_time": T + 100000,
                     "config": {"json_output": True}, "command": ["/usr/bin/python3", "train.py", "--steps", "1"]},
        "agents": [agent(100, 1, -1), agent(101, 2, 0), agent(102, 2, 1)],
        "counters": [],
        "strings": {"callback_records": [], "buffer_records": STRINGS_BUF,
                    "marker_api": [{"key": 20, "value": "forward"}, {"key": 21, "value": "step 1"},
                                   {"key": 22, "value": "epoch"}],
                    "correlation_id": {"external": []}},
        "code_objects": [],
        "kernel_symbols": [
            symbol(0, "", "0", 0, 0, 0),
            symbol(1, "_Z6matmulPfS_S_i.kd", "matmul(float*, float*, float*, int)", 1024, 32, 16),
            symbol(2, "Cijk_Alik_Bljk_HHS_BH_MT128x128x32.kd", "Cijk_Alik_Bljk_HHS_BH_MT128x128x32", 0, 64, 64),
            symbol(3, "_Z23ncclDevKernel_Generic_124ncclDevKernelArgsStorageILm4096EE.kd",
                   "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", 0, 40, 0),
        ],
        "host_functions": [],
        "summary": [],
        "callback_records": {"counter_collection": []},
        "buffer_records": {"kernel_dispatch": kernels, "hip_api": hip, "hsa_api": [api(HSA, 1, 9, tid2, 50, 90)],
                           "marker_api": markers, "rccl_api": [], "memory_copy": copies,
                           "memory_allocation": allocs, "scratch_memory": scratch,
                           "pc_sample_host_trap": []},
    }


def process_two():
    return {
        "metadata": {"pid": 5151, "command": ["/usr/bin/python3", "eval.py"]},
        "agents": [agent(100, 1, -1), agent(101, 2, 0), agent(102, 2, 1)],
        "strings": {"buffer_records": STRINGS_BUF, "marker_api": []},
        "kernel_symbols": [symbol(1, "_Z7softmaxPfi.kd", "softmax(float*, int)", 0, 24, 0)],
        "buffer_records": {"kernel_dispatch": [dispatch(1, 5152, 50000, 52000, 101, 1, 1, (128, 1, 1), (1024, 1, 1))],
                           "hip_api": [api(HIP, 1, 1, 5152, 49000, 49100)]},
    }


def main():
    args = sys.argv[1:]
    if not args or any(a not in ("--tables-last", "--one-process", "--compact") for a in args[1:]):
        sys.exit("usage: make_rocprof.py OUT [--tables-last] [--one-process] [--compact]")
    procs = [process_one()] + ([] if "--one-process" in args else [process_two()])
    if "--tables-last" in args:
        procs = [dict([("buffer_records", p["buffer_records"])] +
                      [(k, v) for k, v in p.items() if k != "buffer_records"]) for p in procs]
    with open(args[0], "w") as f:
        json.dump({"rocprofiler-sdk-tool": procs}, f, indent=None if "--compact" in args else 1,
                  separators=(",", ":") if "--compact" in args else None)
        f.write("\n")


if __name__ == "__main__":
    main()
