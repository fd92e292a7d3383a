#!/bin/sh
# make-breakdown-ref.sh TESTDATA > tests/data/breakdown_ref.tsv: runs the
# independent breakdown oracle (tests/data/breakdown_oracle.py --emit:
# Python over the Kineto and rocprofv3 JSON, SQL over nsys/nvprof) once on
# every trace of TESTDATA (told by content: trace_kind.py), so that
# tests/cli/t0900 checks gpuprof against its checked-in output instead of
# parsing 49 traces at every run.  Lines: FILE<TAB>#file, then
# FILE<TAB>device<TAB>span idle compute communication memory busy overlap
# kernels (TAB-separated).  Regenerate it when testdata or the oracle
# changes, and read the diff.
td=${1:?usage: make-breakdown-ref.sh TESTDATA}
here=$(dirname "$0")
python3 "$here/trace_kind.py" "$td" kineto rocprof nsys nvprof |
while read -r f; do
	python3 "$here/../data/breakdown_oracle.py" --emit "$td/$f" "$f" || exit 1
done
