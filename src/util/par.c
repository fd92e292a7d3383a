/*
** Two jobs at once.  See par.h.
*/
#include <pthread.h>

#include "util/par.h"

struct job {
	gp_job_fn fn;
	void *ctx;
};

static void *run_job(void *arg)
{
	struct job *j = arg;

	j->fn(j->ctx);
	return NULL;
}

void gp_par2(gp_job_fn a, void *actx, gp_job_fn b, void *bctx, bool two)
{
	struct job jb = {b, bctx};
	pthread_t th;

	if (two && pthread_create(&th, NULL, run_job, &jb) == 0) {
		a(actx);
		pthread_join(th, NULL);
		return;
	}
	a(actx);
	b(bctx);
}
