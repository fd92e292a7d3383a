# The layout rules docs/architecture.md states and a reviewer would miss
# (issue 33): every source file under src/ stays within 1,200 lines (split
# along its seams, as kineto_*.c, rocprof_model.c, formulas_gemm.c), and
# includes point down: no file of the analysis layer includes a writer
# (the row interface and kept rows its record encoders use are
# util/rows.h).  Counted here with wc and grep over the sources, not with
# gpuprof.
over=$(find "$TOP/src" -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1200 { print $2 " (" $1 " lines)" }')
[ -z "$over" ] || fail "source files over 1,200 lines: $over"
up=$(grep -ln '^#include "writers/' "$TOP"/src/analysis/*.[ch] || true)
[ -z "$up" ] || fail "src/analysis includes src/writers/ in: $up"
# the check itself: a file of 1,201 lines and a header with such an
# include are caught by the same commands
mkdir -p "$TMP/src/analysis"
seq 1201 >"$TMP/src/long.c"
echo '#include "writers/writer.h"' >"$TMP/src/analysis/x.h"
[ -n "$(find "$TMP/src" -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1200')" ] ||
	fail "the line count misses a 1,201-line file"
grep -lqn '^#include "writers/' "$TMP"/src/analysis/*.[ch] || fail "the include check misses writers/"
