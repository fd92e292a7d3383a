/*
** Correlation pass.  (Stub: fills empty attributions.)
*/
#include <stdlib.h>

#include "core/correlate.h"

int gp_correlate(gp_trace *t, const struct gp_correlate_opts *o, gp_error *err)
{
	free(t->attrs);
	t->attrs = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*t->attrs));
	for (size_t i = 0; i < t->kernels.n; i++) {
		t->attrs[i].api = -1;
		t->attrs[i].seq = -1;
		t->attrs[i].iter = -1;
		t->attrs[i].fwd = -1;
	}
	return GP_OK;
}
