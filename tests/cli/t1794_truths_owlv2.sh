# verdicts/README.md, "tl2 h100 OWLv2": the 4 large GPU gaps (492.7 ms)
# are data loading: the main thread is inside enumerate(DataLoader), in
# scipy's zoom_shift (~105 ms a gap); the 85 copies take 14.57 ms.  The
# oracle finds the gaps as the idle time between the union of kernels,
# copies and memsets, and the DataLoader spans and zoom_shift calls in
# them; breakdown's gaps view must give the same 4 gaps with the cause
# dataloader, and summary's copy rows the same count and time.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tl2/h100__google_owlv2-large-patch14-ensemble__1016001.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
gpu = sorted((e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")), key=lambda e: e["ts"])
gaps, end = [], gpu[0]["ts"]
for e in gpu:
    if e["ts"] > end:
        gaps.append((end, e["ts"]))
    end = max(end, e["ts"] + e["dur"])
gaps.sort(key=lambda g: g[0] - g[1])
def inside(name, a, b):
    return sum(max(0, min(b, e["ts"] + e["dur"]) - max(a, e["ts"])) for e in ev if e["name"].startswith(name))
for a, b in gaps[:4]:
    assert inside("enumerate(DataLoader)", a, b) > 0.99 * (b - a), (a, b)
    assert 100e3 < inside("<built-in function zoom_shift>", a, b) < 110e3, (a, b)
assert gaps[4][1] - gaps[4][0] < 1e3 and round(sum(b - a for a, b in gaps[:4]) / 100) == 4927
copies = [e["dur"] for e in gpu if e["cat"] == "gpu_memcpy"]
assert len(copies) == 85 and round(sum(copies) / 10) == 1457, (len(copies), sum(copies))
print(" ".join(str(round((b - a) * 1000)) for a, b in gaps[:4]))
print(round(sum(copies) * 1000))
PY
set -- $(head -1 "$TMP/want"); copies=$(sed -n 2p "$TMP/want")
run_ok "$GPUPROF" breakdown --view gaps -n 4 -f csv --no-header "$F"
[ "$(wc -l <"$TMP/out")" = 4 ] || fail "breakdown --view gaps -n 4 wrote $(wc -l <"$TMP/out") rows"
for want; do
	row=$(grep -m1 -E "^\"0\",\"[^\"]*\",\"[0-9]+\",\"$want\"" "$TMP/out") ||
		fail "no gap of $want ns (the oracle's) in breakdown's gaps view"
	case $row in *'"dataloader","dataloader <built-in function zoom_shift>'*) ;;
	*) fail "the gap of $want ns: $row; the oracle says data loading in zoom_shift" ;; esac
done
run_ok "$GPUPROF" summary --by kernel -f csv --no-header "$F"
got=$(awk -F'","' '$NF ~ /^\[CUDA memcpy / {n += $4; t += $3} END {print n, t}' "$TMP/out")
set -- $got
assert_eq "$1" 85 "copies in summary --by kernel"
d=$(($2 - copies)); [ "${d#-}" -le 1000 ] || fail "copies take $2 ns, the oracle's $copies ns"
