-- What the nvprof reader (src/readers/nvprof.c) reads, as plain sqlite3
-- queries: the baseline for the "at most 2x sqlite3" target (bench/run.sh).
SELECT _id_, value FROM StringTable;
SELECT start, end, deviceId, contextId, streamId, gridX, gridY, gridZ, blockX, blockY, blockZ,
       registersPerThread, staticSharedMemory, dynamicSharedMemory, correlationId, name
  FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
SELECT cbid, start, end, processId, threadId, correlationId, returnValue FROM CUPTI_ACTIVITY_KIND_RUNTIME;
SELECT cbid, start, end, processId, threadId, correlationId, returnValue FROM CUPTI_ACTIVITY_KIND_DRIVER;
SELECT flags, timestamp, id, objectKind, objectId, name, domain FROM CUPTI_ACTIVITY_KIND_MARKER;
SELECT copyKind, srcKind, dstKind, flags, bytes, start, end, deviceId, contextId, streamId,
       correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY;
SELECT value, bytes, start, end, deviceId, contextId, streamId, correlationId, memoryKind
  FROM CUPTI_ACTIVITY_KIND_MEMSET;
SELECT type, start, end, correlationId, contextId, streamId, cudaEventId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
