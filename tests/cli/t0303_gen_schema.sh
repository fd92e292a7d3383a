# tier: slow (23 s in make check before the tiers, on the busy 2-core machine)
# The generated databases have exactly the columns (name, type, NOT NULL,
# default, key) of the reference exports, for every table they write.
need_testdata
ref_nsys=$TESTDATA/nsys/mmagic_vsr_a100_2024.2/net.sqlite
ref_nvprof=$TESTDATA/nvprof/pyprof_lm_v100/net_da6bcc3.sql
# the schemas (tests/data/schema/) are built into the binary: it runs from
# any directory
(cd / && "$GEN" --format nsys -n 50 -o "$TMP/g.sqlite") || fail "gpuprof-gen --format nsys from /"
(cd / && "$GEN" --format nvprof -n 50 -o "$TMP/g.sql") || fail "gpuprof-gen --format nvprof from /"
tables() { sqlite3 "$1" "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name"; }
for t in $(tables "$TMP/g.sqlite"); do
	a=$(sqlite3 "$TMP/g.sqlite" "pragma table_info('$t')")
	b=$(sqlite3 "$ref_nsys" "pragma table_info('$t')")
	[ -n "$b" ] || fail "nsys table $t is not in the reference export"
	assert_eq "$a" "$b" "nsys columns of $t"
done
for t in StringIds CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_RUNTIME NVTX_EVENTS TARGET_INFO_GPU ENUM_NSYS_EVENT_TYPE; do
	tables "$TMP/g.sqlite" | grep -qx "$t" || fail "nsys table $t missing"
done
# the ENUM rows are nsys' own
assert_eq "$(sqlite3 "$TMP/g.sqlite" 'select group_concat(id || label) from ENUM_CUDA_MEMCPY_OPER')" \
	"$(sqlite3 "$ref_nsys" 'select group_concat(id || label) from ENUM_CUDA_MEMCPY_OPER')" "ENUM_CUDA_MEMCPY_OPER"
# nvprof creates every table, always: same set, same columns
assert_eq "$(tables "$TMP/g.sql" | tr '\n' ' ')" "$(tables "$ref_nvprof" | tr '\n' ' ')" "nvprof tables"
for t in $(tables "$TMP/g.sql"); do
	assert_eq "$(sqlite3 "$TMP/g.sql" "pragma table_info('$t')")" "$(sqlite3 "$ref_nvprof" "pragma table_info('$t')")" "nvprof columns of $t"
done
assert_eq "$(sqlite3 "$TMP/g.sql" "select group_concat(sql, ';') from (select sql from sqlite_master where type = 'index' order by name)")" \
	"$(sqlite3 "$ref_nvprof" "select group_concat(sql, ';') from (select sql from sqlite_master where type = 'index' order by name)")" "nvprof indexes"
