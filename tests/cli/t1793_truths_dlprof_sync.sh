# verdicts/README.md, "nsys dlprof w_relu": cudaEventSynchronize returned
# 12-62 us after the GPU finished, 616.094 us in all.  The oracle takes,
# for each cudaEventSynchronize, its end minus the last GPU activity
# (kernel, memcpy, memset) that ended inside the call; advise's
# sync finding must name the same total.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/nsys/dlprof_rtx2070_2022.1/w_relu_nsys_profile.sqlite
[ -r "$F" ] || skip "$F not found"
python3 - "$F" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import bisect, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
calls = db.execute("select r.start, r.end from CUPTI_ACTIVITY_KIND_RUNTIME r join StringIds s on r.nameId = s.id "
                   "where s.value like 'cudaEventSynchronize%'").fetchall()
ends = sorted(e for (e,) in db.execute("select end from CUPTI_ACTIVITY_KIND_KERNEL union all select end from "
                                       "CUPTI_ACTIVITY_KIND_MEMCPY union all select end from CUPTI_ACTIVITY_KIND_MEMSET"))
lags = []
for s, e in calls:
    last = ends[bisect.bisect_right(ends, e) - 1]
    if last > s:
        lags.append(e - last)
assert sum(lags) == 616094 and 12000 <= min(lags) and max(lags) <= 63000, (sum(lags), lags)
PY
run_ok "$GPUPROF" advise -f json "$F"
assert_grep '"kind":"sync".*cudaEventSynchronize 616\.094 us' "$TMP/out"
