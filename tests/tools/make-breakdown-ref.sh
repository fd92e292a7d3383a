#!/bin/sh
# make-breakdown-ref.sh TESTDATA > tests/data/breakdown_ref.tsv: runs the
# independent breakdown oracle (tests/data/breakdown_oracle.py --emit:
# Python over the Kineto JSON, SQL over nsys/nvprof) once on every trace of
# TESTDATA, so that tests/cli/t0900 checks gpuprof against its checked-in
# output instead of parsing 42 traces at every run.  Lines:
# FILE<TAB>#file, then FILE<TAB>device<TAB>span idle compute communication
# memory busy overlap kernels (TAB-separated).  Regenerate it when testdata
# or the oracle changes, and read the diff.
td=${1:?usage: make-breakdown-ref.sh TESTDATA}
here=$(dirname "$0")
(cd "$td" && find . -path ./expected -prune -o -type f \( -name '*.json' -o -name '*.json.gz' \
	-o -name '*.sqlite' -o -name '*.sql' \) -print | sed 's|^\./||' | LC_ALL=C sort) |
while read -r f; do
	python3 "$here/../data/breakdown_oracle.py" --emit "$td/$f" "$f" || exit 1
done
