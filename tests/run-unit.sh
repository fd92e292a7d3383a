#!/bin/sh
# run-unit.sh BIN...: runs cmocka unit-test binaries.  Exits 1 if one
# failed, else 77 if one skipped a test (cmocka's "N SKIPPED TEST(S)": the
# data it needs is missing), else 0.  Under CI=true a skip is a failure:
# every skip in the unit tests hides missing testdata.
rc=0
for t in "$@"; do
	out=$("$t" 2>&1); st=$?
	printf '%s\n' "$out"
	if [ $st != 0 ]; then
		rc=1
	elif skipped=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([a-z_0-9]*\)$/\1/p' | sort -u) && [ -n "$skipped" ]; then
		names=$(echo $skipped)
		if [ "${CI:-}" = true ]; then
			echo "FAIL: $(basename "$t"): skipped under CI=true (missing testdata?): $names"
			rc=1
		else
			echo "SKIP: $(basename "$t"): $names (no test data? the real-trace collection, README.md 'Test data': ../shared/testdata beside the checkout, or TESTDATA=DIR)"
			[ $rc = 0 ] && rc=77
		fi
	fi
done
exit $rc
