# gpuprof-gen --format nsys: exactly N kernels, every kernel's correlationId
# has its cudaLaunchKernel row in the same process, globalTid/globalPid
# encoding, determinism, refusing to overwrite, usage errors; the generator
# is not a gpuprof command.
db=$TMP/gen.sqlite
run_ok "$GEN" --format nsys -n 1234 --seed 7 -o "$db"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL')" 1234 "kernel rows"
# the join nsys stats uses: same correlationId and same process
assert_eq "$(sqlite3 "$db" "select count(*) from CUPTI_ACTIVITY_KIND_KERNEL k where not exists
	(select 1 from CUPTI_ACTIVITY_KIND_RUNTIME r join StringIds s on s.id = r.nameId
	 where r.correlationId = k.correlationId and s.value = 'cudaLaunchKernel_v7000'
	 and (r.globalTid & 0xFFFFFFFFFF000000) = k.globalPid)")" 0 "kernels without their launch"
assert_eq "$(sqlite3 "$db" "select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME r join StringIds s on s.id = r.nameId
	where s.value = 'cudaLaunchKernel_v7000'")" 1234 "one launch per kernel"
# correlation ids are unique, kernels start after their launch and end after they start
assert_eq "$(sqlite3 "$db" 'select count(distinct correlationId) from CUPTI_ACTIVITY_KIND_RUNTIME')" \
	"$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_RUNTIME')" "unique correlation ids"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL k join CUPTI_ACTIVITY_KIND_RUNTIME r
	using (correlationId) where k.start < r.start or k.end <= k.start')" 0 "kernel before its launch"
# memcpy, memset and syncs point at API calls too
assert_eq "$(sqlite3 "$db" 'select count(*) from (select correlationId from CUPTI_ACTIVITY_KIND_MEMCPY union all
	select correlationId from CUPTI_ACTIVITY_KIND_MEMSET union all select correlationId from
	CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) x where correlationId not in (select correlationId from CUPTI_ACTIVITY_KIND_RUNTIME)')" 0 "orphan memory ops"
[ "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY where copyKind = 1')" -gt 0 ] || fail "no HtoD copy"
[ "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MEMCPY where copyKind = 2')" -gt 0 ] || fail "no DtoH copy"
[ "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_MEMSET')" -gt 0 ] || fail "no memset"
[ "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_SYNCHRONIZATION where syncType = 3')" -gt 0 ] || fail "no stream sync"
assert_eq "$(sqlite3 "$db" 'select count(distinct streamId) from CUPTI_ACTIVITY_KIND_KERNEL')" 2 "default --streams 2"
# globalTid = <vm 1><pid:24><tid:24>; PROCESSES.pid decodes from globalPid
assert_eq "$(sqlite3 "$db" 'select distinct (globalTid >> 24) & 0xFFFFFF from CUPTI_ACTIVITY_KIND_RUNTIME')" 24242 "pid in globalTid"
assert_eq "$(sqlite3 "$db" 'select pid from PROCESSES where (globalPid >> 24) & 0xFFFFFF = pid')" 24242 "PROCESSES"
assert_eq "$(sqlite3 "$db" 'select count(distinct globalTid) from NVTX_EVENTS')" 2 "main and autograd threads"
# names are interned: every kernel name id resolves
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL k left join StringIds s on s.id = k.demangledName
	left join StringIds b on b.id = k.shortName where s.value is null or b.value is null')" 0 "dangling names"
# the markers the analysis relies on
for pat in 'iteration 0' 'layer:Encoder' 'layer:Block_3' 'layer:Linear1' "{'mod': 'torch.nn.functional', 'op': 'linear'" \
	'aten::addmm, seq = [0-9]+, op_id = [0-9]+, sizes = \[\[4096\], \[2048, 1024\]' 'AddmmBackward0, seq = [0-9]+, op_id = [0-9]+$'; do
	sqlite3 "$db" 'select text from NVTX_EVENTS' > "$TMP/texts"
	assert_grep "$pat" "$TMP/texts"
done
# a backward op carries the sequence number of a forward op, on the other thread
assert_eq "$(sqlite3 "$db" "select count(*) > 0 from NVTX_EVENTS b join NVTX_EVENTS f
	on substr(b.text, instr(b.text, ', seq = '), instr(b.text, ', op_id') - instr(b.text, ', seq = '))
	 = substr(f.text, instr(f.text, ', seq = '), instr(f.text, ', op_id') - instr(f.text, ', seq = '))
	where b.text like 'AddmmBackward0, seq = %' and f.text like 'aten::addmm, seq = %'
	and b.globalTid != f.globalTid")" 1 "backward seq matches a forward op"

# determinism: same seed, same bytes; another seed, another trace
run_ok "$GEN" --format nsys -n 1234 --seed 7 -o "$TMP/again.sqlite"
cmp -s "$db" "$TMP/again.sqlite" || fail "same seed gave different files"
run_ok "$GEN" --format nsys -n 1234 --seed 8 -o "$TMP/other.sqlite"
cmp -s "$db" "$TMP/other.sqlite" && fail "different seeds gave the same file"

# --streams and the empty trace
run_ok "$GEN" --format nsys -n 3000 --streams 5 -o "$TMP/s5.sqlite"
assert_eq "$(sqlite3 "$TMP/s5.sqlite" 'select count(distinct streamId) from (select streamId from CUPTI_ACTIVITY_KIND_KERNEL
	union select streamId from CUPTI_ACTIVITY_KIND_MEMCPY)')" 5 "--streams 5"
run_ok "$GEN" --format nsys -n 0 -o "$TMP/zero.sqlite"
assert_eq "$(sqlite3 "$TMP/zero.sqlite" 'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL')" 0 "-n 0"

# never overwrites by accident
expect_exit 3 "$GEN" --format nsys -n 5 -o "$db"
assert_grep 'already exists \(use --force' "$TMP/err"
run_ok "$GEN" --format nsys -n 5 --force -o "$db"
assert_eq "$(sqlite3 "$db" 'select count(*) from CUPTI_ACTIVITY_KIND_KERNEL')" 5 "--force replaced the file"
expect_exit 3 "$GEN" --format nsys -n 5 -o "$TMP/no/such/dir/x.sqlite"

# usage errors
run_ok "$GEN" --help
assert_grep '^usage: gpuprof-gen' "$TMP/out"
expect_exit 2 "$GEN" -n 5 -o "$TMP/x"
expect_exit 2 "$GEN" --format sqlite -n 5 -o "$TMP/x"
expect_exit 2 "$GEN" --format nsys -o "$TMP/x"
expect_exit 2 "$GEN" --format nsys -n -3 -o "$TMP/x"
expect_exit 2 "$GEN" --format nsys -n 12abc -o "$TMP/x"
expect_exit 2 "$GEN" --format nsys -n 5 --streams 0 -o "$TMP/x"
expect_exit 2 "$GEN" --format nsys -n 5 --streams 17 -o "$TMP/x"
expect_exit 2 "$GEN" --format nsys -n 5
assert_grep "^gpuprof-gen: -o FILE is required" "$TMP/err"
[ -e "$TMP/x" ] && fail "a usage error created a file"
expect_exit 2 "$GPUPROF" gen --format nsys -n 5 -o "$TMP/x"
assert_grep "unknown command 'gen'" "$TMP/err"
:
