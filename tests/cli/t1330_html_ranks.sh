# gpuprof html over several ranks (a directory of rank files): one page for
# the job whose figures match the ones tests/tools/html_job_oracle.py
# computes from the raw Kineto JSON (kernels and GPU time per rank and per
# kernel name, each rank's steps and median, each iteration's slowest and
# fastest rank, each rank's waits at collectives and the straggler by
# arrival, from tests/tools/coll_oracle.py: none here, though rank 2,
# stretched by 1.25, has the slowest steps: it is last at only half of
# the calls matched by position in these unrelated traces).  The
# page does not depend on -j; --rank N shows rank N's tables exactly as its
# own page does; a bad rank file, an unknown --rank and an existing output
# fail with their exit codes and leave no page.
command -v python3 >/dev/null || skip "python3 not installed"
[ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ] ||
	{ [ "${CI:-}" = true ] && fail "libjs-chart.js is not installed"; skip "libjs-chart.js not installed"; }
D=$TMP/job; mkdir "$D"
for r in 0 1 3; do
	"$GEN" --format kineto -n 1500 --seed $((r + 1)) -o "$D/rank$r.json" >/dev/null || fail gen
done
"$GEN" --format kineto -n 1500 --seed 3 -o "$TMP/r2.json" >/dev/null || fail gen
python3 "$TOP/tests/tools/stretch_kineto.py" "$TMP/r2.json" "$D/rank2.json" || fail "stretching rank 2"

# 1. the job's figures from the raw traces; -n 1000 shows every kernel name
run_ok "$GPUPROF" html -n 1000 -j 2 -o "$TMP/job.html" "$D"
python3 tests/tools/html_job_oracle.py "$TMP/job.html" "$D/rank0.json" "$D/rank1.json" "$D/rank2.json" \
	"$D/rank3.json" || fail "the page's job differs from the raw traces"

# 2. the same page whatever the threads; a glob names the same files
run_ok "$GPUPROF" html -n 1000 -j 1 -o "$TMP/job1.html" "$D/rank*.json"
cmp -s "$TMP/job.html" "$TMP/job1.html" || fail "-j 1 and -j 2 give different pages"

# 3. --rank 1: the job's tables are rank 1's page's (but the launches of its kernels); the
# default sums every rank's groups by name
run_ok "$GPUPROF" html --rank 1 -o "$TMP/r1.html" "$D"
run_ok "$GPUPROF" html -o "$TMP/one.html" "$D/rank1.json"
python3 - "$TMP" "$TOP/tests/tools" <<'PY' || fail "--rank 1 tables differ from rank 1's page"
import sys
sys.path.insert(0, sys.argv[2])
from html_job_oracle import page_data
job = page_data(sys.argv[1] + "/r1.html")["job"]
one = page_data(sys.argv[1] + "/one.html")["inputs"][0]
assert job["only_rank"] == 1
# a kernel row of one trace's page also points at its longest launch (at,
# device, near: the small timeline), which the job's summed groups cannot
for k in one["top_kernels"]:
    for detail in ("at", "device", "near"):
        k.pop(detail, None)
for k in ("layers", "ops", "top_kernels", "roofline", "gpu_ns", "kernels"):
    assert job[k] == one[k], k
all_ = page_data(sys.argv[1] + "/job.html")
assert all_["job"]["only_rank"] == -1
assert all_["job"]["kernels"] == sum(i["kernels"] for i in all_["inputs"])
PY

# 4. errors: no page left behind
expect_exit 2 "$GPUPROF" html --rank 7 -o "$TMP/r7.html" "$D"
assert_grep "rank 7: no such rank among the 4 files" "$TMP/err"
[ ! -e "$TMP/r7.html" ] || fail "a page was left for an unknown --rank"
printf '{"traceEvents": [' >"$D/rank9.json"
expect_exit 4 "$GPUPROF" html -o "$TMP/bad.html" "$D"
assert_grep "rank9.json" "$TMP/err"
[ ! -e "$TMP/bad.html" ] || fail "a page was left for a damaged rank"
expect_exit 3 "$GPUPROF" html -o "$TMP/job.html" "$D/rank0.json" "$D/rank1.json"
assert_grep "exists" "$TMP/err"
