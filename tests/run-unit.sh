#!/bin/sh
# Runs the given unit-test binaries; exits non-zero if any fails.
rc=0
for t in "$@"; do "$t" || rc=1; done
exit $rc
