# One vocabulary of causes (issue 33 item 7; docs/cli.md, "Causes"): the
# names of docs/cli.md's table are, in the same order, breakdown's idle_NAME
# parts (csv) and the causes its --help lists, the HTML report's cause
# lists (idle causes and the critical path's); every idle cause but the
# ones no change removes (event_wait, sync, unknown) is a --what-if
# cause:NAME=0, as are its old names (the table's aliases) and idle_NAME;
# the kinds of advise's findings about a cause are its name, never an old
# one.  The oracle is the docs' table, read here.
command -v python3 >/dev/null || skip "python3 not installed"
"$GEN" --format nsys -n 200 --seed 7 --streams 3 -o "$TMP/gen.nsys" >/dev/null || fail "gpuprof-gen"
python3 - "$TOP/docs/cli.md" >"$TMP/table" <<'PY' || fail "reading docs/cli.md's table of causes"
import re, sys
text = open(sys.argv[1]).read()
part = text[text.index("\n## Causes\n"):]
part = part[:part.index("\n## ", 1)] if "\n## " in part[1:] else part
rows = [l for l in part.splitlines() if re.match(r"\| `[a-z_]+` \|", l)]
assert len(rows) >= 15, rows
for l in rows:
    cells = [c.strip() for c in l.strip().strip("|").split("|")]
    name = cells[0].strip("`")
    aliases = re.findall(r"`([^`]+)`", cells[3])
    print(name, "yes" if cells[2] == "yes" else "no", *aliases)
PY
cut -d' ' -f1 "$TMP/table" >"$TMP/names"
# the GPU's own causes name critical-path pieces only: the table's names
# are the idle causes, the ones breakdown splits idle time into
run_ok "$GPUPROF" breakdown -f csv "$TMP/gen.nsys"
grep '^"0","all","idle_' "$TMP/out" | cut -d'"' -f6 | sed 's/^idle_//' >"$TMP/parts"
assert_eq "$(tr '\n' ' ' <"$TMP/parts")" "$(tr '\n' ' ' <"$TMP/names")" "breakdown's idle parts vs docs/cli.md"
run_ok "$GPUPROF" breakdown --help
tr '\n' ' ' <"$TMP/out" | tr -s ' ' >"$TMP/help"
assert_grep "$(tr '\n' ' ' <"$TMP/names" | sed 's/ $//; s/ /, /g')[ .]" "$TMP/help"

run_ok "$GPUPROF" html -o "$TMP/r.html" "$TMP/gen.nsys"
want=$(printf '"gpu_compute","gpu_comm","gpu_memory",'; sed 's/.*/"&"/' "$TMP/names" | tr '\n' ',' | sed 's/,$//')
assert_grep "\"idle_causes\":\[$want\]" "$TMP/r.html"
assert_grep "\"causes\":\[$want\]" "$TMP/r.html"

# --what-if: each removable cause by its name, its old names and idle_NAME
while read -r name once aliases; do
	case $name in event_wait | sync | unknown)
		expect_exit 2 "$GPUPROF" advise --what-if "cause:$name=0" "$TMP/gen.nsys"
		continue ;;
	esac
	run_ok "$GPUPROF" advise --what-if "cause:$name=0" -f csv "$TMP/gen.nsys"
	assert_grep "cause:$name=0" "$TMP/out"
	for a in $aliases "idle_$name"; do
		run_ok "$GPUPROF" advise --what-if "cause:$a=0" -f csv "$TMP/gen.nsys"
		assert_grep "cause:$a=0" "$TMP/out"
	done
	expect_exit 2 "$GPUPROF" advise --what-if "cause:bogus=0" "$TMP/gen.nsys"
	grep -q "[ (]$name[,)]" "$TMP/err" || fail "--what-if's error does not list $name: $(cat "$TMP/err")"
done <"$TMP/table"

# advise's kinds, on traces whose findings are about many causes: a kind
# that is a cause's name or an old name is the name; the one-time causes
# give one-time findings
need_testdata
: >"$TMP/kinds"
for f in "$TMP/gen.nsys" verdicts/new3/fuser_xent_report1.sqlite verdicts/new3/sigma_report2.sqlite \
	verdicts/new3/perfsandbox_report1.sqlite nsys/pytorch_lm_a100/pytorch_lm_a100.sqlite; do
	case $f in /*) p=$f ;; *) p=$TESTDATA/$f ;; esac
	[ -e "$p" ] || continue
	run_ok "$GPUPROF" advise -f json "$p"
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    if l.strip(): print(json.loads(l)["kind"])' "$TMP/out" >>"$TMP/kinds" || fail "advise -f json on $f"
done
python3 - "$TMP/table" "$TMP/kinds" <<'PY' || fail "advise's kinds"
import sys
names, old = set(), set()
for l in open(sys.argv[1]):
    w = l.split()
    names.add(w[0]); old.update(w[2:])
kinds = set(open(sys.argv[2]).read().split())
assert not kinds & old, ("old names as kinds", kinds & old)
about = kinds & names
for k in ("untraced", "jit", "module_load"):
    assert k in about, (k, sorted(kinds))
PY
