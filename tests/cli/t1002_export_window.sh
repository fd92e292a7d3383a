# tier: slow (31 s in make check before the tiers, on the busy 2-core machine)
# Cutting a window: --start/--end keep exactly the kernels that overlap it
# (counted here from report's start and end columns), with the launch
# calls their flows need; --iter N and --iters A:B keep every kernel of
# those iterations (report's iter column) and nothing wholly before or
# after them.  An iteration with no kernels is an error.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto -n 3000 -o "$TMP/g.json"
run_ok "$GPUPROF" report -f csv -c start,end,iter "$TMP/g.json"
cp "$TMP/out" "$TMP/report.csv"
read -r ws we <<EOF2
$(python3 -c "
import csv; r = list(csv.DictReader(open('$TMP/report.csv')))
s = sorted(int(x['Start(ns)']) for x in r); print(s[len(s)//3], s[len(s)//2])")
EOF2
run_ok "$GPUPROF" export --start "$ws" --end "$we" -o "$TMP/w.json" "$TMP/g.json"
python3 tests/tools/perfetto_check.py "$TMP/w.json" >/dev/null || fail "window export is not well-formed"
run_ok "$GPUPROF" report -f csv -c start,end "$TMP/w.json"
python3 - "$TMP/report.csv" "$TMP/out" "$ws" "$we" <<'PY' || fail "--start/--end kept the wrong kernels"
import csv, sys
full, cut, ws, we = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
want = sorted((int(r["Start(ns)"]), int(r["End(ns)"])) for r in csv.DictReader(open(full))
              if int(r["End(ns)"]) >= ws and int(r["Start(ns)"]) <= we)
got = sorted((int(r["Start(ns)"]), int(r["End(ns)"])) for r in csv.DictReader(open(cut)))
assert want and got == want, (len(got), len(want))
PY
for it in "--iter 1" "--iters 1:2"; do
	run_ok "$GPUPROF" export $it -o "$TMP/i.json" --force "$TMP/g.json"
	python3 tests/tools/perfetto_check.py "$TMP/i.json" >/dev/null || fail "$it: export is not well-formed"
	run_ok "$GPUPROF" report -f csv -c start,end,iter "$TMP/i.json"
	python3 - "$TMP/report.csv" "$TMP/out" $it <<'PY' || fail "$it kept the wrong kernels"
import csv, sys
full, cut, opt, arg = sys.argv[1:5]
a, b = (int(arg), int(arg)) if opt == "--iter" else map(int, arg.split(":"))
rows = list(csv.DictReader(open(full)))
mine = [r for r in rows if r["Iter"] not in ("", "na") and a <= int(r["Iter"]) <= b]
lo = min(int(r["Start(ns)"]) for r in mine); hi = max(int(r["End(ns)"]) for r in mine)
got = list(csv.DictReader(open(cut)))
keys = {(r["Start(ns)"], r["End(ns)"]) for r in got}
assert all((r["Start(ns)"], r["End(ns)"]) in keys for r in mine), "an iteration kernel is missing"
assert all(int(r["End(ns)"]) >= lo - 10**6 and int(r["Start(ns)"]) <= hi for r in got), "a kernel far outside"
assert len(got) < len(rows)
PY
done
expect_exit 2 "$GPUPROF" export --iter 999 -o "$TMP/none.json" "$TMP/g.json"
assert_grep "no kernels in iterations 999 to 999" "$TMP/err"
