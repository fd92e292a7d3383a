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
		"$GPUPROF" export $args -o - "$f" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		case $rc in
		0|3|4) ;;
		*) cat "$TMP/err" >&2; fail "export $args $f exited $rc" ;;
		esac
		! grep -q "runtime error\|AddressSanitizer" "$TMP/err" || { cat "$TMP/err" >&2; fail "export $args $f: sanitizer report"; }
		if [ $rc = 0 ] && [ "${args#-f folded}" = "$args" ]; then
			python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TMP/out" || fail "export $args $f: not JSON"
		fi
		n=$((n + 1))
	done
done
[ $n -ge 100 ] || fail "only $n runs: the fuzz corpora are missing"
