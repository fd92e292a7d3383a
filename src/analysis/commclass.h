/*
** Communication recognised beyond kernel names (docs/comm.md, "Which
** kernels are communication"): after correlation, a kernel that no name
** marks is communication when the user's ops file says so (a kernel row
** of family comm) or when what launched it is a collective (a c10d op,
** record_param_comms, an all-to-all op, a user annotation named dispatch
** or combine); and the audit of the kernels whose family nobody knows,
** which every verdict that splits compute from communication reports.
**
** Ownership: gp_comm_classify() writes t->def_comm only; a
** gp_comm_audit owns its array (gp_comm_audit_free) and its names are the
** trace's strings.
*/
#ifndef GP_COMMCLASS_H
#define GP_COMMCLASS_H

#include <stddef.h>

#include "model/trace.h"
#include "ops/opdefs.h"

/* Kernels of unknown family at or above this share of all kernel time are
** listed; above GP_COMM_UNKNOWN_BLIND of it, a verdict cannot tell compute
** from communication. */
#define GP_COMM_UNKNOWN_LIST 0.01
#define GP_COMM_UNKNOWN_BLIND 0.20

/* Marks as communication in t->def_comm (filled by gp_trace_finish) each
** kernel launch record whose kernel a user's row of d (family comm)
** matches, and each one that no row of d knows (family unknown) whose
** kernels ran, for most of their time, under a collective's op or
** annotation (t->attrs' ranges; nothing when t is not correlated).
** Returns how many launch records it marked. */
size_t gp_comm_classify(gp_trace *t, const struct gp_opdefs *d);

/* One kernel name of unknown family: its short name, time and count. */
struct gp_comm_unknown {
	gp_str name;
	gp_ns ns;
	uint64_t n;
};

struct gp_comm_audit {
	gp_ns kernel_ns;                 /* all kernel time (sum of durations) */
	gp_ns comm_ns;                   /* of it, the communication kernels' */
	gp_ns unknown_ns;                /* of it, the kernels of unknown family */
	struct gp_comm_unknown *big;     /* names of unknown family with at least
					 ** GP_COMM_UNKNOWN_LIST of kernel_ns, longest first */
	size_t nbig;
};

/* Audits t's kernels against d (after gp_comm_classify). */
void gp_comm_audit_run(const gp_trace *t, const struct gp_opdefs *d, struct gp_comm_audit *a);
void gp_comm_audit_free(struct gp_comm_audit *a);

/* Whether unknown kernels take so much time (above GP_COMM_UNKNOWN_BLIND)
** that the compute/communication split cannot be told. */
static inline bool gp_comm_audit_blind(const struct gp_comm_audit *a)
{
	return a->kernel_ns > 0 && (double)a->unknown_ns > GP_COMM_UNKNOWN_BLIND * (double)a->kernel_ns;
}

/* The audit's note for a verdict's reader, or "" when no name is listed:
** "2 kernels of unknown family take 31.0% of GPU time (mystery_kernel
** 25.0%, ...): gpuprof counts them as compute; ...".  Returns buf. */
char *gp_comm_audit_note(const gp_trace *t, const struct gp_comm_audit *a, char *buf, size_t size);

#endif
