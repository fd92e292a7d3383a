# An nsys export with only the columns PyProf (2020) read (formats.md 1.8:
# no eventType, shortName, mangledName, registers or metadata tables) still
# loads, and its kernels are attributed to the NVTX ranges around their
# launches.
db=$TMP/minimal.sqlite
sqlite3 "$db" <<'SQL' || fail "sqlite3"
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'void at::native::vectorized_elementwise_kernel<4, at::native::AbsFunctor<float>>(int, float*)');
INSERT INTO StringIds VALUES (2, 'volta_sgemm_128x64_tn');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER);
-- globalPid of pid 77: 77 << 24
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 1500, 0, 7, 11, 1291845632, 1, 4, 1, 1, 128, 1, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 2900, 0, 7, 12, 1291845632, 2, 8, 2, 1, 256, 1, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER);
-- globalTid of pid 77, tid 78: (77 << 24) | 78
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 200, 1291845710, 11);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1100, 1200, 1291845710, 12);
CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, text TEXT, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES (50, 300, 'layer:Encoder', 1291845710);
INSERT INTO NVTX_EVENTS VALUES (60, 250, 'abs, seq = 3', 1291845710);
INSERT INTO NVTX_EVENTS VALUES (1000, 1300, 'mm, seq = 4', 1291845710);
INSERT INTO NVTX_EVENTS VALUES (1250, NULL, 'a mark', 1291845710);
SQL
run_ok "$GPUPROF" info --format json "$db"
assert_grep '"format": "nsys"' "$TMP/out"
assert_grep '"kernels": 2' "$TMP/out"
assert_grep '"kernels_with_launch": 2' "$TMP/out"
assert_grep '"nvtx_ranges": 3' "$TMP/out"
assert_grep '"nvtx_marks": 1' "$TMP/out"
run_ok "$GPUPROF" report -f csv -c idx,layer,dir,op,kernel,sil,grid,block,pid "$db"
assert_eq "$(sed -n 2p "$TMP/out")" '"0","Encoder","fprop","abs","vectorized_elementwise_kernel","500","4,1,1","128,1,1","77"'
assert_eq "$(sed -n 3p "$TMP/out")" '"1","-","fprop","mm","volta_sgemm_128x64_tn","900","8,2,1","256,1,1","77"'
