# tier: slow (about 1,000 exports over the fuzz corpora; .ci/run runs it)
# Bad input never crashes the export: every file of the fuzz corpora
# (truncated, corrupt, odd values: times at the ends of the int64 range,
# ends before starts) exported in each format, and with a window over the
# whole int64 range, exits 0, 3 or 4, never with a signal or a sanitizer
# report; what it writes on success is JSON.
command -v python3 >/dev/null || skip "python3 not installed"
n=0
for f in tests/fuzz/corpus/*/*; do
	for args in "-f perfetto" "-f folded" "-f folded --weight idle" "-f folded --weight flops" \
		"--start -9223372036854775808 --end 9223372036854775807"; do
		"$GPUPROF" export $args -o - "$f" >"$TMP/out.$n" 2>"$TMP/err"
		rc=$?
		case $rc in
		0|3|4) ;;
		*) cat "$TMP/err" >&2; fail "export $args $f exited $rc" ;;
		esac
		! grep -q "runtime error\|AddressSanitizer" "$TMP/err" || { cat "$TMP/err" >&2; fail "export $args $f: sanitizer report"; }
		# JSON outputs are checked together at the end (one Python, not hundreds)
		if [ $rc = 0 ] && [ "${args#-f folded}" = "$args" ]; then
			printf '%s\t%s\t%s\n' "$TMP/out.$n" "$args" "$f" >>"$TMP/json.list"
		else
			rm -f "$TMP/out.$n"
		fi
		n=$((n + 1))
	done
done
[ $n -ge 100 ] || fail "only $n runs: the fuzz corpora are missing"
[ -s "$TMP/json.list" ] || fail "no export succeeded: nothing to check as JSON"
python3 - "$TMP/json.list" <<'PY' || fail "an export's output is not JSON"
import json, sys
for line in open(sys.argv[1]):
    out, args, src = line.rstrip("\n").split("\t")
    try:
        json.load(open(out))
    except ValueError as e:
        sys.exit(f"export {args} {src}: not JSON ({e})")
PY
