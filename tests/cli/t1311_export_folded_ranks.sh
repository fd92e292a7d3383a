# gpuprof export -f folded of several rank files: one line per distinct
# stack (the files' identical stacks merged), each stack's weight the sum
# of its weights in the files exported alone, the weights summing exactly
# to the total kernel time of all the files (summed here from the raw
# Kineto JSON, and with SQL from the nsys databases); --per-rank starts
# every stack with "rank-R", each rank's lines being its file's own;
# --weight idle and flops sum the files' too.
command -v python3 >/dev/null || skip "python3 not installed"
command -v sqlite3 >/dev/null || skip "sqlite3 not installed"
run_ok "$GEN" --format kineto --ranks 4 --iters 3 -o "$TMP/k"
run_ok "$GEN" --format nsys --ranks 3 --iters 2 -o "$TMP/n"
sets="$TMP/k $TMP/n"
[ -n "$TESTDATA" ] && [ -d "$TESTDATA" ] && sets="$sets $TESTDATA/hta/trace_filter"
kineto_ns() { # JSON: the kernels' total time in ns from the raw events
	python3 - "$1" <<'PY'
import gzip, json, sys
from decimal import Decimal
p = sys.argv[1]
d = json.load((gzip.open if p.endswith(".gz") else open)(p, "rt"), parse_float=Decimal)
ev = d["traceEvents"] if isinstance(d, dict) else d
print(sum(max(0, int(Decimal(e.get("dur", 0)) * 1000)) for e in ev
          if e.get("ph") == "X" and e.get("cat") in ("kernel", "Kernel")))
PY
}
# merged.py ALL R=ONE...: ALL's stacks are distinct and are the sum of the
# ONE files' (with PER: ALL's lines are "rank-R;" + ONE's lines)
cat >"$TMP/merged.py" <<'PY'
import collections, re, sys
def read(p):
    lines = open(p).read().splitlines()
    for l in lines:
        assert re.fullmatch(r"[^;]+(;[^;]+)* [1-9][0-9]*", l), l
    stacks = [l.rsplit(" ", 1) for l in lines]
    assert len({s for s, _ in stacks}) == len(stacks), (p, "a stack written twice")
    return {s: int(w) for s, w in stacks}
per = sys.argv[1] == "per"
got = read(sys.argv[2])
want = collections.Counter()
for arg in sys.argv[3:]:
    r, p = arg.split("=", 1)
    for s, w in read(p).items():
        want[("rank-%s;" % r if per else "") + s] += w
assert got == dict(want), "the stacks are not the files' summed"
PY
for d in $sets; do
	total=0 ones=""
	for f in "$d"/*; do
		r=$(echo "$f" | sed 's/.*rank[-_]\{0,1\}\([0-9]*\).*/\1/')
		case $f in
		*.sqlite) ns=$(sqlite_count "$f" "SELECT SUM(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL") ;;
		*) ns=$(kineto_ns "$f") ;;
		esac
		total=$((total + ns))
		for w in time idle flops; do
			run_ok "$GPUPROF" export -f folded --weight $w -o "$TMP/$w$r.folded" --force "$f"
		done
		ones="$ones $r"
	done
	for w in time idle flops; do
		run_ok "$GPUPROF" export -f folded --weight $w -o "$TMP/all.folded" --force "$d"
		args=""
		for r in $ones; do args="$args $r=$TMP/$w$r.folded"; done
		# shellcheck disable=SC2086
		python3 "$TMP/merged.py" sum "$TMP/all.folded" $args || fail "$d: --weight $w: merged stacks"
		if [ $w = time ]; then
			got=$(awk '{s += $NF} END {printf "%d", s}' "$TMP/all.folded")
			assert_eq "$got" "$total" "$d: folded weights != the files' kernel time"
		fi
		run_ok "$GPUPROF" export -f folded --weight $w --per-rank -o "$TMP/per.folded" --force "$d"
		# shellcheck disable=SC2086
		python3 "$TMP/merged.py" per "$TMP/per.folded" $args || fail "$d: --weight $w --per-rank"
	done
done
# one file with --per-rank: its rank from its name, its stacks under it
run_ok "$GPUPROF" export -f folded --per-rank "$TMP/k/rank-2.json"
assert_no_grep "^[^r]|^rank-[013]" "$TMP/out"
assert_grep "^rank-2;" "$TMP/out"
