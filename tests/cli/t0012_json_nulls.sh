# tier: slow (30 s in make check before the tiers, on the busy 2-core machine)
# Unknown values are null in JSON ("na" or "-" in table, csv and tsv, as
# PyProf prints them); info --format json is one object with identifier
# keys, numbers as numbers.
command -v sqlite3 >/dev/null || skip "sqlite3 CLI not installed"
tests/fuzz/make-nvprof-corpus.sh "$TMP/db" || fail "cannot build fixtures"
f=$TMP/db/small.nvvp
cols=idx,seq,altseq,layer,trace,tc,iter
run_ok "$GPUPROF" report -f json -c $cols "$f"
assert_eq "$(head -1 "$TMP/out")" '{"idx":0,"seq":"3","altseq":null,"layer":"Block1","trace":null,"tc":"0","iter":null}'
assert_no_grep '"na"|"(seq|altseq|layer|trace)":"-"' "$TMP/out"
# tc "-" is a value (no tensor-core question for this op), not unknown
assert_grep '"tc":"-"' "$TMP/out"
run_ok "$GPUPROF" report -f csv --no-header -c $cols "$f"
assert_eq "$(head -1 "$TMP/out")" '"0","3","-","Block1","-","0","na"'
run_ok "$GPUPROF" report --no-header -c $cols "$f"
assert_grep '^ +0 3 +- +Block1 +- +0 +na$' "$TMP/out"
run_ok "$GPUPROF" info -f json "$f"
python3 - "$TMP/out" <<'PY' || fail "info -f json: unexpected object"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "nvprof" and d["kernels"] == 3, d
assert d["api_calls_runtime"] == 4 and d["nvtx_marks"] == 1, d
assert d["start_ns"] == 500 and d["end_ns"] == 4200 and d["duration_ns"] == 3700, d
assert d["gpus"] == [{"id": 0, "name": "Tesla V100-SXM2-16GB", "sm_count": 80,
                      "compute_capability": "7.0", "memory_bytes": 16945512448,
                      "peaks": "V100-SXM2", "peaks_from": "table"}], d
assert d["metadata"] == {} and d["notes"] == [], d
assert d["gpu_time_with_flops_pct"] == 100.0, d
assert all(" " not in k for k in d), d
PY
# no kernels: unknown span is null, the note is in the list
run_ok "$GPUPROF" info -f json "$TMP/db/nokernels.nvvp"
python3 - "$TMP/out" <<'PY' || fail "info -f json of a trace without kernels"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kernels"] == 0 and d["gpu_time_with_flops_pct"] is None, d
assert d["notes"] and all(isinstance(n, str) for n in d["notes"]), d
PY
# summary: a group with no op, layer or iteration is "(none)" in tables
# and null in JSON
run_ok "$GPUPROF" summary --by iter -f json "$f"
assert_grep '^\{"type":"GPU activities".*"name":null\}$' "$TMP/out"
assert_no_grep '"\(none\)"' "$TMP/out"
run_ok "$GPUPROF" summary --by iter -f csv "$f"
assert_grep '"\(none\)"$' "$TMP/out"
