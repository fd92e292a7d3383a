/*
** Fuzz target: NVTX marker parsing (markers.c) and the Python-literal
** parser under it (pylit.c).  Input: one marker text, any bytes.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/markers.h"
#include "analysis/pylit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exact-size copy: any read past the end is caught by ASan */
	char *s = malloc(size ? size : 1);
	gp_trace t;
	struct gp_marker m[2];
	gp_pyl_doc d;
	gp_str frames[4];
	char buf[64];

	memcpy(s, data, size);
	gp_trace_init(&t);

	int rc = gp_marker_parse(&t, s, size, &m[0]);
	if ((rc != 0 && rc != -1) || m[0].kind >= GP_MK__COUNT || (rc && !m[0].err))
		abort();
	if (m[0].args_first + m[0].args_count > t.args.n)
		abort();
	gp_marker_trace_frames(&t, s, size, true, frames, 4);
	if (m[0].kind == GP_MK_SEQ) {
		m[1] = m[0];
		if (gp_marker_seq_prune(&t, m, gp_marker_seq_sort(&t, m, 2)) != 1)
			abort();   /* a duplicate always goes */
		gp_marker_fwd_op(s, size, buf, sizeof(buf));
	}

	/* the literal parser alone, whole-text and prefix modes */
	gp_pyl_init(&d, NULL, 0);
	uint32_t root = gp_pyl_parse(&d, s, size, NULL);
	if (!root && (!d.err || d.err_off > size))
		abort();
	for (uint32_t i = 1; root && i < d.n; i++) {
		gp_pyl_str(&d, i, buf, sizeof(buf));
		if (d.nodes[i].type == GP_PYL_STR && d.nodes[i].off + d.nodes[i].len > size)
			abort();
	}
	size_t end = 0;
	gp_pyl_reset(&d);
	if (gp_pyl_parse(&d, s, size, &end) && end > size)
		abort();
	gp_pyl_free(&d);

	gp_trace_free(&t);
	free(s);
	return 0;
}
