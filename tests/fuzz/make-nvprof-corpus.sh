#!/bin/sh
# Builds the tiny nvprof databases of tests/fuzz/corpus/nvprof/ (and the
# fixtures tests/cli/t0202 uses) with the sqlite3 CLI: nvprof's schema
# (tests/data/schema/nvprof.sql) with a few rows each.
#   usage: tests/fuzz/make-nvprof-corpus.sh OUTDIR
set -eu
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"

# nvprof's own schema (tests/data/schema/nvprof.sql, the one copy: every
# table, always) in 512-byte pages, for small seeds
schema="PRAGMA page_size = 512;
$(cat "$(dirname "$0")/../data/schema/nvprof.sql")
INSERT INTO Version VALUES (12);
INSERT INTO StringTable VALUES (0, \"-- null --\");"

# Kernel and device rows give the columns the reader reads; the other NOT
# NULL columns, which it does not, are zeros (ktail, dtail).
kcols='registersPerThread, start, end, deviceId, contextId, streamId, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, correlationId, name, cacheConfig, sharedMemoryConfig, partitionedGlobalCacheRequested, partitionedGlobalCacheExecuted, completed, localMemoryPerThread, localMemoryTotal, gridId, queued, submitted, launchType, isSharedMemoryCarveoutRequested, sharedMemoryCarveoutRequested, sharedMemoryExecuted'
ktail="X'00', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0"
dcols='globalMemoryBandwidth, globalMemorySize, l2CacheSize, coreClockRate, numMultiprocessors, computeCapabilityMajor, computeCapabilityMinor, id, name, flags, constantMemorySize, numThreadsPerWarp, numMemcpyEngines, maxIPC, maxWarpsPerMultiprocessor, maxBlocksPerMultiprocessor, maxSharedMemoryPerMultiprocessor, maxRegistersPerMultiprocessor, maxRegistersPerBlock, maxSharedMemoryPerBlock, maxThreadsPerBlock, maxBlockDimX, maxBlockDimY, maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ, eccEnabled, uuid'
dtail="0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X''"

# pid 100 (64000000 LE), tid 7 (0700000000000000 LE)
thr="X'640000000700000000000000'"
rows="INSERT INTO StringTable VALUES (1, 'Tesla V100-SXM2-16GB'), (2, '_ZN2at6native18elementwise_kernelILi128ELi4EZNS0_15gpu_kernel_implIZZZNS0_15add_kernel_cudaERNS_14TensorIteratorEN3c106ScalarEENKUlvE_clEvENKUlvE2_clEvEUlffE_EEvS4_RKT_EUliE2_EEviT1_'),
  (3, 'volta_sgemm_128x64_tn'), (4, '{''mod'': ''torch.nn.functional'', ''op'': ''linear'', ''args'': [{''name'': '''', ''type'': ''tensor'', ''shape'': (4, 8), ''dtype'': ''float32''}, {''name'': '''', ''type'': ''tensor'', ''shape'': (16, 8), ''dtype'': ''float32''}]}'),
  (5, 'addmm, seq = 3'), (6, 'AddmmBackward, seq = 3'), (7, 'layer:Block1'), (8, 'python train.py');
INSERT INTO CUPTI_ACTIVITY_KIND_DEVICE ($dcols) VALUES (898048000, 16945512448, 6291456, 1530000, 80, 7, 0, 0, 1, $dtail);
INSERT INTO CUPTI_ACTIVITY_KIND_NAME VALUES (NULL, 1, X'64000000', 8);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (NULL, 211, 1000, 1100, 100, 7, 1, 0), (NULL, 211, 1200, 1300, 100, 7, 2, 0), (NULL, 211, 3000, 3100, 100, -704661760, 3, 0), (NULL, 165, 3200, 4000, 100, 7, 4, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ($kcols) VALUES (32, 1500, 1700, 0, 1, 7, 1, 1, 1, 128, 1, 1, 0, 0, 1, 3, $ktail), (16, 1800, 1900, 0, 1, 7, 2, 1, 1, 512, 1, 1, 0, 0, 2, 2, $ktail), (16, 3300, 3400, 0, 1, 7, 4, 1, 1, 256, 1, 1, 0, 1024, 3, 3, $ktail);
INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 2, 900, 1, 2, $thr, 7, 0), (NULL, 2, 950, 2, 2, $thr, 4, 0), (NULL, 2, 960, 3, 2, $thr, 5, 0),
  (NULL, 4, 1350, 3, 2, $thr, 0, 0), (NULL, 4, 1360, 2, 2, $thr, 0, 0), (NULL, 4, 1400, 1, 2, $thr, 0, 0),
  (NULL, 2, 2900, 4, 2, X'6400000000B7FFD500000000', 6, 0), (NULL, 4, 3150, 4, 2, X'6400000000B7FFD500000000', 0, 0),
  (NULL, 1, 2000, 5, 2, $thr, 7, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (NULL, 1, 2, 3, 1, 4096, 500, 600, 0, 1, 7, 9, 9), (NULL, 2, 3, 1, 0, 128, 4100, 4200, 0, 1, 7, 10, 10);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (NULL, 0, 1024, 700, 750, 0, 1, 7, 11, 1, 3);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (NULL, 4, 3200, 4000, 4, 1, 0, 0);"

mk() { # NAME SQL...
	rm -f "$out/$1"
	name=$1; shift
	printf '%s\n' "$@" | sqlite3 "$out/$name"
}

mk small.nvvp "$schema" "$rows"
mk empty.nvvp "$schema"
mk stringtable-only.nvvp 'PRAGMA page_size = 512;' \
	'CREATE TABLE StringTable(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT NOT NULL UNIQUE);' \
	"INSERT INTO StringTable VALUES (0, '-- null --');"
# Odd values: unpaired start/end markers, unknown flags and cbids, reversed
# and huge times, NULLs and text where numbers belong, a short objectId.
mk odd.nvvp "$schema" "$rows" \
	"INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES (NULL, 2, 5000, 77, 2, X'64', 5, 999), (NULL, 4, 5100, 78, 2, X'', 0, 0), (NULL, 64, 5200, 79, 2, $thr, 5, 0);" \
	"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (NULL, 99999, 9000, 8000, -1, -1, 1, 0), (NULL, -5, 'x', 'y', 100, 7, 12, 0);" \
	"INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ($kcols) VALUES (1, 9223372036854775807, -9223372036854775808, -1, 1, 7, 4294967296, 0, 0, 0, 0, 0, 0, 0, 0, 12345, $ktail), (1, 6000, 6100, 0, 1, 7, 1, 1, 1, 1, 1, 1, 0, 0, 12, 'z', $ktail);" \
	"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;" \
	"INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (NULL, 99, -1, 12, 0, -5, 10, 5, 0, 1, 7, 0, 0);" \
	"INSERT INTO StringTable VALUES (9, '_Z'), (10, '_ZN1a1bIiEEvv(');"
# A missing kernel table and a kernel table missing a column.
mk nokernels.nvvp "$schema" "DROP TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
mk badcolumns.nvvp "$schema" "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME; CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(cbid INT);"
# Damaged copies of small.nvvp: truncated and bit-flipped.
head -c 3000 "$out/small.nvvp" > "$out/truncated.nvvp"
python3 - "$out/small.nvvp" "$out/flipped.nvvp" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
for i in range(700, len(b), 97):
    b[i] ^= 0x5a
open(sys.argv[2], 'wb').write(bytes(b))
PY
