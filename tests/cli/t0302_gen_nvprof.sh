# gpuprof-gen --format nvprof: exactly N kernels launched by cudaLaunchKernel
# (cbid 211), MARKER start/end pairs with 12-byte objectId blobs naming the
# threads of RUNTIME.threadId, mangled names that demangle, determinism.
db=$TMP/gen.sql
run_ok "$GEN" --format nvprof -n 777 --seed 3 -o "$db"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL')" 777 "kernel rows"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL k where not exists
	(select 1 from CUPTI_ACTIVITY_KIND_RUNTIME r where r.correlationId = k.correlationId and r.cbid = 211)')" 0 "kernels without launch"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME where cbid = 211')" 777 "one launch per kernel"
assert_eq "$(sqlite3 "$db" 'select version from Version')" 12 "Version"
assert_eq "$(sqlite3 "$db" "select value from StringTable where _id_ = 0")" "-- null --" "StringTable id 0"
# markers: one end (flags 4, name 0) per start (flags 2), same id, not before it
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MARKER where flags = 2')" \
	"$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MARKER where flags = 4')" "start/end pairs"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MARKER a join CUPTI_ACTIVITY_KIND_MARKER b
	on a.id = b.id and a.flags = 2 and b.flags = 4 where b.timestamp < a.timestamp or b.name != 0')" 0 "ordered pairs"
assert_eq "$(sqlite3 "$db" 'select distinct length(objectId) from CUPTI_ACTIVITY_KIND_MARKER')" 12 "objectId size"
# objectId = LE int32 pid + LE int64 tid; tid & 0xffffffff = RUNTIME.threadId & 0xffffffff
assert_eq "$(sqlite3 "$db" "select distinct hex(substr(objectId, 1, 4)) from CUPTI_ACTIVITY_KIND_MARKER")" B25E0000 "pid 24242 LE"
assert_eq "$(sqlite3 "$db" "select count(distinct hex(objectId)) from CUPTI_ACTIVITY_KIND_MARKER")" 2 "two threads"
assert_eq "$(sqlite3 "$db" "select group_concat(t, ',') from (select distinct threadId & 0xffffffff t from CUPTI_ACTIVITY_KIND_RUNTIME order by t)")" \
	"1290573632,3940300608" "pthread ids"
[ "$(sqlite3 "$db" 'select min(threadId) from CUPTI_ACTIVITY_KIND_RUNTIME')" -lt 0 ] || fail "threadId not stored as signed 32-bit"
# names: mangled in StringTable, and every one demangles
sqlite3 "$db" 'select distinct s.value from CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL k join StringTable s on s._id_ = k.name' > "$TMP/names"
assert_grep '^_ZN2at6native' "$TMP/names"
assert_grep '^volta_fp16_s884gemm' "$TMP/names"
grep '^_Z' "$TMP/names" | c++filt | grep -q '^_Z' && fail "a mangled name does not demangle"
sqlite3 "$db" "select s.value from CUPTI_ACTIVITY_KIND_MARKER m join StringTable s on s._id_ = m.name where m.flags = 2" > "$TMP/texts"
assert_grep '^layer:Block_2$' "$TMP/texts"
assert_grep "^\{'mod': 'torch.nn.functional', 'op': 'layer_norm'" "$TMP/texts"
assert_grep '^NativeLayerNormBackward0, seq = [0-9]+, op_id = [0-9]+$' "$TMP/texts"
# nvprof times are epoch ns
[ "$(sqlite3 "$db" 'select min(start) from CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL')" -gt 1500000000000000000 ] || fail "not epoch times"
# the indexes nvprof creates exist (t0303 compares them with a real file)
assert_eq "$(sqlite3 "$db" "select count(*) from sqlite_master where type = 'index' and
	name = 'INDEX_CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL'")" 1 "kernel index"
run_ok "$GEN" --format nvprof -n 777 --seed 3 -o "$TMP/again.sql"
cmp -s "$db" "$TMP/again.sql" || fail "same seed gave different files"
