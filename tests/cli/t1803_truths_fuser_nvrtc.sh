# verdicts/README.md, "new3 fuser_report1, fuser_sync_report2": the big
# gaps are NVRTC compilation: nvFuser's NVTX range
# executor_utils::Nvrtc::CompileProgram (351.6 / 311.0 ms) lies inside
# the largest gap between the kernels.  The oracle finds both in the raw
# SQLite (NVTX_EVENTS, the kernel table); breakdown's gaps view must give
# that gap first (same start, same idle), with a JIT cause and the range
# in its CPU context.  The cause's name may change (a one-time cause is
# being named by another developer): jit or any name with jit or compile.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
for f in fuser_report1:351.6 fuser_sync_report2:311.0; do
	F=$TESTDATA/verdicts/new3/${f%:*}.sqlite
	[ -r "$F" ] || skip "$F not found"
	python3 - "$F" "${f#*:}" >"$TMP/want" <<'PY' || fail "oracle: ${f%:*} does not hold the truth"
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
(a, b), = db.execute("select n.start, n.end from NVTX_EVENTS n left join StringIds s on n.textId = s.id "
                     "where coalesce(n.text, s.value) = 'executor_utils::Nvrtc::CompileProgram'").fetchall()
gaps, end = [], None
for s, e in db.execute("select start, end from CUPTI_ACTIVITY_KIND_KERNEL order by start"):
    if end is not None and s > end:
        gaps.append((s - end, end))
    end = e if end is None else max(end, e)
idle, start = max(gaps)
assert "%.1f" % ((b - a) / 1e6) == sys.argv[2] and start <= a and b <= start + idle, (a, b, start, idle)
print(start, idle, "%.3f" % ((b - a) / 1e6))
PY
	set -- $(cat "$TMP/want")
	run_ok "$GPUPROF" breakdown --view gaps -n 1 -f csv --no-header "$F"
	# Device, Iter, Start from trace start, Idle, Cause, CPU context, Start on the trace's clock
	row=$(sed 's/^"//; s/"$//' "$TMP/out" | awk -F'","' '{print $7, $4, $5 "|" $6}')
	case ${row%%|*} in
	"$1 $2 jit" | "$1 $2 "*jit* | "$1 $2 "*compile*) ;;
	*) fail "${f%:*}: the largest gap is '${row%%|*}' (start, idle, cause); the oracle's: $1 $2, NVRTC compilation" ;;
	esac
	case ${row#*|} in
	*"executor_utils::Nvrtc::CompileProgram $3 ms"*) ;;
	*) fail "${f%:*}: the largest gap's CPU context '${row#*|}' lacks Nvrtc::CompileProgram $3 ms" ;;
	esac
done
