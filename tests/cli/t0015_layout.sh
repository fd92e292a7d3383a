# The layout rules docs/architecture.md states and a reviewer would miss
# (issue 33): every source file under src/ stays within 1,200 lines (split
# along its seams, as kineto_*.c, rocprof_model.c, formulas_gemm.c), and
# includes point down: no file of the analysis layer includes a writer
# (the row interface and kept rows its record encoders use are
# util/rows.h).  The run's facts are decided once, by the analysis runner
# (src/analysis/analysis.c): no file outside src/analysis calls
# gp_layers_apply (GP_NEED_LAYERS), gp_serving_steps (GP_NEED_PHASES) or gp_phases_of_kernels
# (GP_NEED_KERNEL_PHASES) itself.  Counted here with wc and grep over the
# sources, not with gpuprof.

# facts_outside DIR: the files under DIR/src, outside DIR/src/analysis,
# that call a run fact's function
facts_outside() {
	grep -rlE --include='*.[ch]' '\<(gp_layers_apply|gp_phases_of_kernels|gp_serving_steps)[[:space:]]*\(' "$1/src" |
		grep -v "^$1/src/analysis/" || true
}
over=$(find "$TOP/src" -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1200 { print $2 " (" $1 " lines)" }')
[ -z "$over" ] || fail "source files over 1,200 lines: $over"
up=$(grep -ln '^#include "writers/' "$TOP"/src/analysis/*.[ch] || true)
[ -z "$up" ] || fail "src/analysis includes src/writers/ in: $up"
by_hand=$(facts_outside "$TOP")
[ -z "$by_hand" ] || fail "run facts computed outside the analysis runner (use GP_NEED_LAYERS, GP_NEED_KERNEL_PHASES) in: $by_hand"
# the check itself: a file of 1,201 lines and a header with such an
# include are caught by the same commands
mkdir -p "$TMP/src/analysis"
seq 1201 >"$TMP/src/long.c"
echo '#include "writers/writer.h"' >"$TMP/src/analysis/x.h"
[ -n "$(find "$TMP/src" -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1200')" ] ||
	fail "the line count misses a 1,201-line file"
grep -lqn '^#include "writers/' "$TMP"/src/analysis/*.[ch] || fail "the include check misses writers/"
mkdir -p "$TMP/src/cmds"
printf 'static void f(gp_trace *t)\n{\n\tgp_layers_apply(t, &v);\n}\n' >"$TMP/src/cmds/a.c"
printf 'uint8_t *p = gp_phases_of_kernels (t);\n' >"$TMP/src/cmds/b.c"
printf 'uint8_t *p = gp_phases_of_kernels(t);\n' >"$TMP/src/analysis/c.c"
[ "$(facts_outside "$TMP" | sort | tr '\n' ' ')" = "$TMP/src/cmds/a.c $TMP/src/cmds/b.c " ] ||
	fail "the run facts check misses a call in src/cmds or blames src/analysis: $(facts_outside "$TMP")"
