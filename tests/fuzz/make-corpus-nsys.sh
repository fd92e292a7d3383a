#!/bin/sh
# Rebuilds the seed corpus of fuzz_nsys: tiny databases with the schema of a
# real nsys 2024.2 export (tests/data/schema/nsys.sql, the one copy) or one
# derived from it for an older schema generation (formats.md 1), a few rows
# each.  Usage: tests/fuzz/make-corpus-nsys.sh [OUTDIR]
set -e
here=$(dirname "$0")
out=${1:-$here/corpus/nsys}
schema=$here/../data/schema/nsys.sql
mkdir -p "$out"

# mk NAME SQL...: a new database NAME of 512-byte pages (small seeds) with
# the 2024.2 schema, then the given SQL.
mk() {
	name=$1; shift
	rm -f "$out/$name"
	{ echo 'PRAGMA page_size = 512;'; cat "$schema"; printf '%s\n' "$@"; } | sqlite3 "$out/$name"
}

common='
INSERT INTO StringIds VALUES (0,"[Unknown]"),(1,"void gemm<float>(float*, int)"),(2,"gemm"),
 (3,"_Z4gemmIfEvPfi"),(4,"cudaLaunchKernel_v7000"),(5,"cuLaunchKernel"),(6,"registered"),
 (7,"python3"),(8,"cudaMemcpyAsync_v3020"),(9,"cudaStreamSynchronize_v3020");
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100,200,0,281476654432357,1,4,0,NULL),
 (300,400,1,281476654432357,2,5,0,NULL),(500,900,0,281476654432357,3,8,0,NULL),
 (950,990,0,281476654432357,4,9,0,NULL);
INSERT INTO PROCESSES VALUES (281476654432256,100,"python3");
INSERT INTO ThreadNames VALUES (7,0,281476654432357);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1713889498851521398,"2024-04-23T16:24:58","2024-04-23T17:24:58");
INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation, isDiscrete, l2CacheSize, totalMemory,
 memoryBandwidth, clockRate, smCount, computeMajor, computeMinor)
 VALUES (0,0,"NVIDIA A100-SXM4-40GB","0000:07:00.0",1,41943040,42297786368,1555200000000,1410000000,108,8,0);
INSERT INTO NVTX_EVENTS (start,end,eventType,text,textId,globalTid,endGlobalTid,domainId,color) VALUES
 (-50,NULL,75,"MyDomain",NULL,281476654432357,NULL,1,NULL),
 (50,1000,59,"{''mod'': ''torch.nn.functional'', ''op'': ''linear''}",NULL,281476654432357,NULL,0,4278190335),
 (60,950,59,NULL,6,281476654432357,NULL,1,NULL),
 (70,NULL,34,"mark",NULL,281476654432357,NULL,0,NULL),
 (80,990,60,"startend",NULL,281476654432357,281476654432358,0,NULL),
 (90,NULL,59,"open",NULL,281476654432357,NULL,0,NULL);
'

sync_memset='
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start,end,deviceId,contextId,streamId,correlationId,globalPid,syncType,eventId)
 VALUES (960,985,0,1,7,4,281476654432256,3,4294967295);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start,end,deviceId,contextId,streamId,correlationId,globalPid,value,bytes,memKind)
 VALUES (910,920,0,1,7,5,281476654432256,0,4096,2);
'

# nsys 2024.2+: META_DATA_EXPORT, ENUM tables, greenContextId, graph trace.
mk v2024.sqlite "$common
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION','2024.2.1.106'),('EXPORT_SCHEMA_VERSION','3.11.1');
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (210,290,0,1,NULL,7,1,281476654432256,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,1,0,NULL,0),
 (410,480,0,1,NULL,7,2,281476654432256,1,2,NULL,1,0,32,10,1,1,128,1,1,0,0,0,0,2,0,5,0);
CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
 contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
 graphId INTEGER, graphExecId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (995,1200,0,1,NULL,7,6,281476654432256,3,4);
$sync_memset
VACUUM;"

# nsys 2022.1: EXPORT_META_DATA, no ENUM tables, no greenContextId.
mk v2022.sqlite "$(sed -n 's/^CREATE TABLE \(ENUM_[A-Z_]*\) .*/DROP TABLE \1;/p' "$schema")" '
ALTER TABLE META_DATA_EXPORT RENAME TO EXPORT_META_DATA;
ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN greenContextId;
ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY DROP COLUMN greenContextId;
ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET DROP COLUMN greenContextId;
ALTER TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION DROP COLUMN greenContextId;' "$common" "
INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_PRODUCT_VERSION','2022.1.3.3'),('EXPORT_SCHEMA_VERSION','2.9.1');
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (210,290,0,1,7,1,281476654432256,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,1,0,NULL,0),
 (410,480,0,1,7,2,281476654432256,1,2,NULL,1,0,32,10,1,1,128,1,1,0,0,0,0,2,0,NULL,0);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (600,800,0,1,7,3,281476654432256,1048576,1,NULL,0,2,NULL,NULL,0,1,NULL,NULL,NULL);
$sync_memset
VACUUM;"

# A lazy export without kernels (uvmtorch/weatherbench2 shape): only the
# tables that have rows.
mk nokernels.sqlite "$common
DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;
DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET; DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION','2025.5.1.121');
VACUUM;"
# --cuda-memory-usage=true: allocations and frees (one without its
# allocation, one of an unknown operation, one host pinned).
mk memusage.sqlite "$common
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
 deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
 bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL,
 name TEXT, correlationId INTEGER);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (150,281476654432256,0,1,4096,0,1048576,2,0,NULL,1),
 (160,281476654432256,0,1,8192,0,512,2,1,NULL,NULL),(170,281476654432256,0,1,4096,0,1048576,2,1,NULL,2),
 (180,281476654432256,0,1,12288,0,64,1,0,NULL,NULL),(190,281476654432256,0,1,4096,0,8,2,7,NULL,NULL);
VACUUM;"
# Two processes (one profiled launcher each, as a multi-rank export) whose
# calls reuse the same correlation ids: each kernel and copy must find the
# call of its own process.
mk multiprocess.sqlite "$common
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION','2024.2.1.106'),('EXPORT_SCHEMA_VERSION','3.11.1');
INSERT INTO PROCESSES VALUES (281476671209472,101,\"python3\");
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (110,210,0,281476671209574,1,4,0,NULL),
 (510,910,0,281476671209574,3,8,0,NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (210,290,0,1,NULL,7,1,281476654432256,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,1,0,NULL,0),
 (220,300,1,1,NULL,7,1,281476671209472,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,2,0,NULL,0);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (600,800,0,1,NULL,7,3,281476654432256,1048576,1,NULL,1,2,NULL,NULL,0,1,NULL,NULL,NULL),
 (610,810,1,1,NULL,7,3,281476671209472,1048576,1,NULL,1,2,NULL,NULL,1,1,NULL,NULL,NULL);
VACUUM;"
# CUDA graphs (--cuda-graph-trace=node): node 1 created inside an op
# range during capture, cloned by instantiation (11) and again (21); a
# clone loop (31, 32); replayed kernels and a copy with those node ids.
mk graphnodes.sqlite "$common
$(cat "$here/../data/schema/nsys_graphs.sql")
INSERT INTO StringIds VALUES (20,\"Graph Node Creation\"),(21,\"cudaGraphLaunch_v10000\");
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000,1010,0,281476654432357,7,21,0,NULL);
INSERT INTO CUDA_GRAPH_NODE_EVENTS VALUES (110,120,77,281476654432357,20,1,NULL),
 (600,610,77,281476654432357,20,11,1),(700,710,77,281476654432357,20,21,11),
 (720,730,77,281476654432357,20,31,32),(740,750,77,281476654432357,20,32,31),
 (760,770,77,NULL,20,0,NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1100,1190,0,1,NULL,7,7,281476654432256,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,3,0,21,0),
 (1200,1290,0,1,NULL,7,7,281476654432256,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,4,0,31,0),
 (1300,1390,0,1,NULL,7,7,281476654432256,1,2,3,1,0,32,10,1,1,128,1,1,0,0,0,0,5,0,99,0);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1400,1490,0,1,NULL,7,7,281476654432256,4096,8,NULL,2,2,0,1,0,1,NULL,21,NULL);
VACUUM;"
# A truncated copy: the loader must report it, not read past the end.
head -c 3000 "$out/v2024.sqlite" > "$out/truncated.sqlite"
ls -l "$out"
