# NVTX ranges of engines and libraries (TensorRT: ExecutionContext::execute
# around one range per fused layer) name ops the way nsys's NVTX projection
# does: the innermost plain range is the op, the plain ranges around it are
# the layer ('/'-joined).  A TensorRT-like export on the full nsys schema.
db=$TMP/trt.sqlite
sqlite3 "$db" < tests/data/schema/nsys.sql || fail "schema"
pp=59   # NvtxPushPopRange
# globalTid of pid 77, tid 78: (77 << 24) | 78; globalPid: 77 << 24
sqlite3 "$db" <<SQL || fail "sqlite3"
INSERT INTO StringIds VALUES (1, 'sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32');
INSERT INTO StringIds VALUES (2, 'trt_pooling_kernel');
INSERT INTO StringIds VALUES (3, 'cudaLaunchKernel');
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES
  (100, 9000, $pp, 'ExecutionContext::execute', 1291845710),
  (200, 1000, $pp, '/layer1/layer1.0/conv1/Conv + /layer1/layer1.0/relu/Relu', 1291845710),
  (1100, 2000, $pp, '/layer1/layer1.0/conv2/Conv', 1291845710),
  (2100, 3000, $pp, '/maxpool/MaxPool', 1291845710),
  (9500, 9900, $pp, 'lone range', 1291845710);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES
  (300, 400, 1, 1291845710, 11, 3, 0), (1200, 1300, 1, 1291845710, 12, 3, 0),
  (2200, 2300, 1, 1291845710, 13, 3, 0), (9600, 9700, 1, 1291845710, 14, 3, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid,
  demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ,
  staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES
  (500, 900, 0, 1, 7, 11, 1291845632, 1, 1, 64, 8, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1),
  (1400, 1900, 0, 1, 7, 12, 1291845632, 1, 1, 64, 8, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2),
  (2400, 2600, 0, 1, 7, 13, 1291845632, 2, 2, 32, 8, 1, 1, 128, 1, 1, 0, 0, 0, 0, 3),
  (9800, 9850, 0, 1, 7, 14, 1291845632, 2, 2, 32, 8, 1, 1, 128, 1, 1, 0, 0, 0, 0, 4);
SQL
run_ok "$GPUPROF" report -f csv -c op,layer,kernel "$db"
assert_eq "$(sed -n 2p "$TMP/out")" '"/layer1/layer1.0/conv1/Conv + /layer1/layer1.0/relu/Relu","ExecutionContext::execute","sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32"'
assert_eq "$(sed -n 3p "$TMP/out")" '"/layer1/layer1.0/conv2/Conv","ExecutionContext::execute","sm80_xmma_fprop_implicit_gemm_f16f16_f16f16_f16_nhwckrsc_nhwc_tilesize128x128x32"'
assert_eq "$(sed -n 4p "$TMP/out")" '"/maxpool/MaxPool","ExecutionContext::execute","trt_pooling_kernel"'
assert_eq "$(sed -n 5p "$TMP/out")" '"lone range","-","trt_pooling_kernel"'
run_ok "$GPUPROF" summary --by op -f csv "$db"
assert_eq "$(grep -c '^"GPU activities"' "$TMP/out")" 4
assert_grep '^"GPU activities","43.5","500","1",.*,"/layer1/layer1.0/conv2/Conv"$' "$TMP/out"
run_ok "$GPUPROF" summary --by layer -f csv "$db"
assert_grep 'ExecutionContext::execute' "$TMP/out"
