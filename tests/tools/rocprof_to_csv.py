#!/usr/bin/env python3
"""Writes the CSV files rocprofv3 (`--output-format csv`, its default) would
have written for a rocprofv3 JSON file: one set per process,
OUT/PID_kernel_trace.csv, PID_hip_api_trace.csv, PID_hsa_api_trace.csv,
PID_marker_api_trace.csv, PID_rccl_api_trace.csv, PID_memory_copy_trace.csv,
PID_memory_allocation_trace.csv and PID_agent_info.csv (a file only when it
has rows, as rocprofv3 does).  Columns and values as rocprofiler-sdk's
source/lib/output/generateCSV.cpp writes them: strings in double quotes,
numbers bare, agents as "Agent N" (N its node id: --agent-index absolute,
the default) or "GPU N"/"CPU N" (type-relative), ROCTx ranges named by
their message.  Independent of gpuprof: the tests read the same run from
both files and compare (tests/cli/t0509_rocprof_csv.sh).

    rocprof_to_csv.py JSON[.gz] OUT [--type-relative] [--legacy]

--legacy writes the column set of rocprofv3 before ROCm 6.4 (no Stream_Id,
Thread_Id, Dispatch_Id or register counts; Private_Segment_Size and
Group_Segment_Size; agents as plain node ids).
"""
import gzip
import json
import os
import sys

KERNEL = ["Kind", "Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id", "Dispatch_Id", "Kernel_Id",
          "Kernel_Name", "Correlation_Id", "Start_Timestamp", "End_Timestamp", "LDS_Block_Size",
          "Scratch_Size", "VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "Workgroup_Size_X",
          "Workgroup_Size_Y", "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z"]
KERNEL_LEGACY = ["Kind", "Agent_Id", "Queue_Id", "Kernel_Id", "Kernel_Name", "Correlation_Id",
                 "Start_Timestamp", "End_Timestamp", "Private_Segment_Size", "Group_Segment_Size",
                 "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y",
                 "Grid_Size_Z"]
API = ["Domain", "Function", "Process_Id", "Thread_Id", "Correlation_Id", "Start_Timestamp", "End_Timestamp"]
COPY = ["Kind", "Direction", "Stream_Id", "Source_Agent_Id", "Destination_Agent_Id", "Correlation_Id",
        "Start_Timestamp", "End_Timestamp"]
ALLOC = ["Kind", "Operation", "Agent_Id", "Allocation_Size", "Address", "Correlation_Id", "Start_Timestamp",
         "End_Timestamp"]
AGENT = ["Node_Id", "Logical_Node_Id", "Agent_Type", "Cpu_Cores_Count", "Simd_Count", "Cpu_Core_Id_Base",
         "Simd_Id_Base", "Max_Waves_Per_Simd", "Lds_Size_In_Kb", "Gds_Size_In_Kb", "Num_Gws",
         "Wave_Front_Size", "Num_Xcc", "Cu_Count", "Array_Count", "Num_Shader_Banks", "Simd_Arrays_Per_Engine",
         "Cu_Per_Simd_Array", "Simd_Per_Cu", "Max_Slots_Scratch_Cu", "Gfx_Target_Version", "Vendor_Id",
         "Device_Id", "Location_Id", "Domain", "Drm_Render_Minor", "Num_Sdma_Engines", "Num_Sdma_Xgmi_Engines",
         "Num_Sdma_Queues_Per_Engine", "Num_Cp_Queues", "Max_Engine_Clk_Ccompute", "Max_Engine_Clk_Fcompute",
         "Sdma_Fw_Version", "Fw_Version", "Capability", "Cu_Per_Engine", "Max_Waves_Per_Cu", "Family_Id",
         "Workgroup_Max_Size", "Grid_Max_Size", "Local_Mem_Size", "Hive_Id", "Gpu_Id", "Workgroup_Max_Dim_X",
         "Workgroup_Max_Dim_Y", "Workgroup_Max_Dim_Z", "Grid_Max_Dim_X", "Grid_Max_Dim_Y", "Grid_Max_Dim_Z",
         "Name", "Vendor_Name", "Product_Name", "Model_Name"]
AGENT_STRINGS = {"Agent_Type", "Name", "Vendor_Name", "Product_Name", "Model_Name"}
MARKER_MESSAGE_OPS = {"roctxMarkA", "roctxRangePushA", "roctxRangeStartA"}
API_FILES = {"hip_api": "hip_api_trace", "hsa_api": "hsa_api_trace", "marker_api": "marker_api_trace",
             "rccl_api": "rccl_api_trace"}


def q(v):
    """A value as generateCSV writes it: strings quoted, numbers bare."""
    return '"%s"' % v if isinstance(v, str) else str(v)


def write(path, header, rows):
    if not rows:
        return
    with open(path, "w") as f:
        f.write(",".join('"%s"' % h for h in header) + "\n")
        for r in rows:
            f.write(",".join(q(v) for v in r) + "\n")


def convert(proc, out, type_relative, legacy):
    pid = proc["metadata"]["pid"]
    kinds, ops = {}, {}
    for i, k in enumerate(proc["strings"]["buffer_records"]):
        kinds[i] = k["kind"]
        ops[i] = k["operations"]
    messages = {m["key"]: m["value"] for m in proc["strings"].get("marker_api", [])}
    # agents by node id (the JSON's order where it has none, as the small
    # files of make_rocprof.py)
    agents = [dict(a, node_id=a.get("node_id", i)) for i, a in enumerate(proc.get("agents", []))]
    agents.sort(key=lambda a: a["node_id"])
    by_handle = {a["id"]["handle"]: a for a in agents}
    type_index, seen = {}, {}
    for a in agents:
        seen[a["type"]] = seen.get(a["type"], -1) + 1
        type_index[a["id"]["handle"]] = seen[a["type"]]

    def agent(handle):
        a = by_handle.get(handle)
        if a is None:
            return ""
        if legacy:
            return a["node_id"]
        if type_relative:
            return "%s %d" % ("GPU" if a["type"] == 2 else "CPU", type_index[handle])
        return "Agent %d" % a["node_id"]

    def op_name(r):
        return ops[r["kind"]][r["operation"]]

    syms = {s["kernel_id"]: s for s in proc.get("kernel_symbols", [])}
    rec = proc.get("buffer_records", {})
    rows = []
    for r in rec.get("kernel_dispatch", []):
        d = r["dispatch_info"]
        s = syms.get(d["kernel_id"], {})
        wg, grid = d["workgroup_size"], d["grid_size"]
        name = s.get("formatted_kernel_name", "")
        lds = (s.get("group_segment_size", 0) + 127) & ~127
        if legacy:
            rows.append(["KERNEL_DISPATCH", agent(d["agent_id"]["handle"]), d["queue_id"]["handle"],
                         d["kernel_id"], name, r["correlation_id"]["internal"], r["start_timestamp"],
                         r["end_timestamp"], d["private_segment_size"], d["group_segment_size"],
                         wg["x"], wg["y"], wg["z"], grid["x"], grid["y"], grid["z"]])
        else:
            rows.append(["KERNEL_DISPATCH", agent(d["agent_id"]["handle"]), d["queue_id"]["handle"],
                         r.get("stream_id", {}).get("handle", 0), r["thread_id"], d["dispatch_id"],
                         d["kernel_id"], name, r["correlation_id"]["internal"], r["start_timestamp"],
                         r["end_timestamp"], lds, d["private_segment_size"], s.get("arch_vgpr_count", 0),
                         s.get("accum_vgpr_count", 0), s.get("sgpr_count", 0),
                         wg["x"], wg["y"], wg["z"], grid["x"], grid["y"], grid["z"]])
    write(os.path.join(out, "%d_kernel_trace.csv" % pid), KERNEL_LEGACY if legacy else KERNEL, rows)
    for section, name in API_FILES.items():
        rows = []
        for r in rec.get(section, []):
            fn = op_name(r)
            if section == "marker_api" and fn in MARKER_MESSAGE_OPS:
                fn = messages.get(r["correlation_id"]["internal"], "")
            rows.append([kinds[r["kind"]], fn, pid, r["thread_id"], r["correlation_id"]["internal"],
                         r["start_timestamp"], r["end_timestamp"]])
        write(os.path.join(out, "%d_%s.csv" % (pid, name)), API, rows)
    rows = []
    for r in rec.get("memory_copy", []):
        rows.append([kinds[r["kind"]], op_name(r), r.get("stream_id", {}).get("handle", 0),
                     agent(r["src_agent_id"]["handle"]), agent(r["dst_agent_id"]["handle"]),
                     r["correlation_id"]["internal"], r["start_timestamp"], r["end_timestamp"]])
    write(os.path.join(out, "%d_memory_copy_trace.csv" % pid),
          [c for c in COPY if c != "Stream_Id"] if legacy else COPY,
          [r[:2] + r[3:] for r in rows] if legacy else rows)
    rows = []
    for r in rec.get("memory_allocation", []):
        op = op_name(r)
        a = agent(r["agent_id"]["handle"]) if op.endswith("ALLOCATE") else ""
        rows.append([kinds[r["kind"]], op, a, r["allocation_size"], r["address"],
                     r["correlation_id"]["internal"], r["start_timestamp"], r["end_timestamp"]])
    write(os.path.join(out, "%d_memory_allocation_trace.csv" % pid), ALLOC, rows)
    rows = []
    for a in agents:
        row = []
        for c in AGENT:
            key = c.lower()
            if c == "Agent_Type":
                row.append("GPU" if a["type"] == 2 else "CPU" if a["type"] == 1 else "UNK")
            elif c in AGENT_STRINGS:
                row.append(str(a.get(key, "")))
            else:
                row.append(a.get(key, 0) if not isinstance(a.get(key, 0), (dict, list)) else 0)
        rows.append(row)
    write(os.path.join(out, "%d_agent_info.csv" % pid), AGENT, rows)


def main():
    args = sys.argv[1:]
    flags = [a for a in args if a.startswith("--")]
    paths = [a for a in args if not a.startswith("--")]
    if len(paths) != 2 or any(f not in ("--type-relative", "--legacy") for f in flags):
        sys.exit("usage: rocprof_to_csv.py JSON[.gz] OUT [--type-relative] [--legacy]")
    opener = gzip.open if paths[0].endswith(".gz") else open
    with opener(paths[0], "rt") as f:
        doc = json.load(f)
    os.makedirs(paths[1], exist_ok=True)
    for proc in doc["rocprofiler-sdk-tool"]:
        convert(proc, paths[1], "--type-relative" in flags, "--legacy" in flags)


if __name__ == "__main__":
    main()
