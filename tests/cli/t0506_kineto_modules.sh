# Layers from the trace itself: Kineto's nn.Module events (with_modules=True)
# nest into a '/'-joined module path on the thread that launched the op;
# user annotations keep precedence; backward kernels take their forward
# op's path.  The same for NVTX module ranges in nsys exports.
need_testdata
bert=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
run_ok "$GPUPROF" report -f csv -c kernel,op,layer "$bert"
assert_grep '^"flash_fwd_kernel","_flash_attention_forward","BertLMHeadModel_0/BertModel_0/BertEncoder_0/BertLayer_2/BertAttention_2/BertSdpaSelfAttention_2"$' "$TMP/out"
assert_no_grep '"-"$' "$TMP/out"
run_ok "$GPUPROF" summary --by layer -f csv "$bert"
assert_grep '"BertLMHeadModel_0/BertOnlyMLMHead_0/BertLMPredictionHead_0/Linear_25"$' "$TMP/out"
# hand-written: a module path, an annotation inside a module (wins), a
# backward op tied to its forward op by a fwdbwd flow
cat > "$TMP/mods.json" <<'JSON'
{"traceEvents": [
{"ph": "X", "cat": "python_function", "name": "nn.Module: Model_0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
{"ph": "X", "cat": "python_function", "name": "nn.Module: Encoder_0", "pid": 1, "tid": 1, "ts": 1, "dur": 60},
{"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_3", "pid": 1, "tid": 1, "ts": 2, "dur": 20},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 3, "dur": 10, "args": {"External id": 1, "Sequence number": 5}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 4, "dur": 2, "args": {"correlation": 1}},
{"ph": "X", "cat": "user_annotation", "name": "my_block", "pid": 1, "tid": 1, "ts": 30, "dur": 20},
{"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 31, "dur": 10, "args": {"External id": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 32, "dur": 2, "args": {"correlation": 2}},
{"ph": "X", "cat": "cpu_op", "name": "MmBackward0", "pid": 1, "tid": 2, "ts": 200, "dur": 10, "args": {"External id": 3, "Sequence number": 5, "Fwd thread id": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 201, "dur": 2, "args": {"correlation": 3}},
{"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 10, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "relu_k", "pid": 0, "tid": 7, "ts": 40, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 7, "ts": 210, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 3}}
]}
JSON
run_ok "$GPUPROF" report -f csv -c kernel,op,dir,layer "$TMP/mods.json"
assert_grep '^"gemm_a","mm","fprop","Model_0/Encoder_0/Linear_3"$' "$TMP/out"
assert_grep '^"relu_k","relu","fprop","my_block"$' "$TMP/out"
assert_grep '^"gemm_b","MmBackward0","bprop","Model_0/Encoder_0/Linear_3"$' "$TMP/out"
# nsys: NVTX module ranges around emit_nvtx seq markers give the layer too
db=$TMP/mods.sqlite
sqlite3 "$db" <<'SQL' || fail "sqlite3"
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'volta_sgemm_128x64_tn');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 1500, 0, 7, 11, 1291845632, 1, 4, 1, 1, 128, 1, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 200, 1291845710, 11);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, text TEXT, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES (10, 900, 'train step', 1291845710);
INSERT INTO NVTX_EVENTS VALUES (20, 800, 'nn.Module: Model_0', 1291845710);
INSERT INTO NVTX_EVENTS VALUES (30, 700, 'nn.Module: Linear_0', 1291845710);
INSERT INTO NVTX_EVENTS VALUES (60, 250, 'aten::mm, seq = 4', 1291845710);
SQL
run_ok "$GPUPROF" report -f csv -c op,layer "$db"
assert_eq "$(sed -n 2p "$TMP/out")" '"aten::mm","Model_0/Linear_0"'
