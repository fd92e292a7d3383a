# emit_nvtx's op ranges are framework ops, not the user's own ranges
# (issue 33 item 6.1).  PyTorch 1.x's torch.autograd.profiler.emit_nvtx
# names its ranges "norm, seq = 130", "add_, seq = 130": no namespace, but
# the ", seq = N" field only emit_nvtx writes.  On PyProf's language model
# (nvprof, V100) the critical path, the breakdown's causes and advise must
# put their time under cpu_op with the op's name, never under annotation
# ("code inside your own ranges").  The oracle reads the marker texts from
# the raw SQLite file.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/verdicts/nvprof/pyprof_lm_v100/net_17ed9e2.sql
[ -r "$T" ] || skip "verdicts/nvprof/pyprof_lm_v100 not in testdata"
python3 - "$T" > "$TMP/ops" <<'PY' || fail "oracle"
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
names = set()
for (text,) in db.execute("select distinct s.value from CUPTI_ACTIVITY_KIND_MARKER m "
                          "join StringTable s on s._id_ = m.name"):
    m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*), seq = [0-9]+", text or "")
    if m:
        names.add(m.group(1))
# the ops the issue names are among them, recorded without a namespace
assert {"norm", "add_", "mul_", "mm"} <= names, sorted(names)[:20]
print("\n".join(sorted(names)))
PY
run_ok "$GPUPROF" breakdown --view critical -f tsv "$T"
mv "$TMP/out" "$TMP/crit"
# no time of the path under annotation names one of these ops
awk -F'\t' 'NR == FNR { op[$1] = 1; next } $2 == "annotation" && ($3 in op) { print; bad = 1 } END { exit bad }' \
	"$TMP/ops" "$TMP/crit" || fail "emit_nvtx ops on the critical path as annotation"
assert_grep "^all	cpu_op	add_	" "$TMP/crit"
# the idle gaps' causes (breakdown) and advise say the same
run_ok "$GPUPROF" breakdown -f tsv "$T"
assert_grep "^0	all	idle_cpu_op	[1-9]" "$TMP/out"
awk -F'\t' '$3 == "idle_annotation" && $4 + 0 > 0 { print; bad = 1 } END { exit bad }' "$TMP/out" ||
	fail "idle time put on annotations: the trace has no user range"
run_ok "$GPUPROF" advise "$T"
assert_no_grep "\[annotation\]" "$TMP/out"
assert_no_grep "your own ranges" "$TMP/out"
tr '\n' ' ' < "$TMP/out" | sed 's/  */ /g' > "$TMP/flat"
assert_no_grep "annotation [a-z_]+ [0-9]" "$TMP/flat"
# the gaps' CPU context names norm as the op it is (PyProf's marker around
# it names it Tensor.norm), in breakdown's gaps view that advise's
# evidence quotes from
run_ok "$GPUPROF" breakdown --view gaps -n 1000 "$T"
assert_grep "cpu_op (Tensor\.)?norm [0-9]" "$TMP/out"
assert_no_grep "annotation [a-z_]+ [0-9]" "$TMP/out"
