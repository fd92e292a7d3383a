-- What the nsys reader (src/readers/nsys.c) reads, as plain sqlite3 queries:
-- the baseline for the "at most 2x sqlite3" target (bench/run.sh).
SELECT id, value FROM StringIds;
SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, shortName,
       demangledName, mangledName, gridX, gridY, gridZ, blockX, blockY, blockZ,
       registersPerThread, staticSharedMemory, dynamicSharedMemory, graphNodeId
  FROM CUPTI_ACTIVITY_KIND_KERNEL;
SELECT start, end, eventClass, globalTid, correlationId, nameId, returnValue
  FROM CUPTI_ACTIVITY_KIND_RUNTIME;
SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind,
       srcKind, dstKind, srcDeviceId, dstDeviceId FROM CUPTI_ACTIVITY_KIND_MEMCPY;
SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, value, memKind
  FROM CUPTI_ACTIVITY_KIND_MEMSET;
SELECT start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId
  FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
SELECT start, end, eventType, text, textId, globalTid, endGlobalTid, domainId, color, category
  FROM NVTX_EVENTS;
