#!/bin/sh
# make-optable-ref.sh TESTDATA > tests/data/optable_ref.tsv.gz: runs the
# independent op-table oracle (optable_oracle.py: Python over the raw JSON)
# on every Kineto trace of TESTDATA (told by content: trace_kind.py) once,
# so that tests/cli/t0950 compares against its checked-in output instead
# of parsing 39 traces in Python at every run.  Lines: FILE<TAB>#file (one
# per trace, also one without ops), FILE<TAB>oracle line (sorted), and for
# the cProfile view FILE<TAB>py<TAB>oracle --python line.  Regenerate it
# when testdata or the oracle changes, and read the diff.
td=${1:?usage: make-optable-ref.sh TESTDATA}
here=$(dirname "$0")
python3 "$here/trace_kind.py" "$td" kineto |
while read -r f; do
	printf '%s\t#file\n' "$f"
	python3 "$here/optable_oracle.py" "$td/$f" | LC_ALL=C sort | sed "s|^|$f	|" || exit 1
	python3 "$here/optable_oracle.py" --python "$td/$f" | LC_ALL=C sort | sed "s|^|$f	py	|" || exit 1
done | gzip -9n
