/*
** Two independent pieces of work on two threads: the passes after a read
** (the final sorts, the reader's last joins) run as pairs of jobs that
** touch disjoint arrays, so two cores finish them in about the time of
** the longer one.  What a pair may share is only what neither writes:
** the string table in particular is read by both or by neither, never
** interned into by one while the other reads it.
**
** Ownership: gp_par2() owns nothing; the jobs own what they touch.
*/
#ifndef GP_PAR_H
#define GP_PAR_H

#include <stdbool.h>
#include <stddef.h>

typedef void (*gp_job_fn)(void *ctx);

/* Whether two jobs over n records (kernels, flows...) are worth a second
** thread when threads may be used: below 65,536 records a thread costs
** about what it saves. */
static inline bool gp_par_worth(int threads, size_t n)
{
	return threads > 1 && n >= 65536;
}

/* Runs a(actx) and b(bctx) and returns when both are done: b on a thread
** of its own while a runs on the caller's when two is true, else (or when
** no thread can be started) one after the other, a first.  Never fails. */
void gp_par2(gp_job_fn a, void *actx, gp_job_fn b, void *bctx, bool two);

#endif
