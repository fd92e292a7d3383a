/*
** Communication by the ops file and by launcher; the audit of kernels of
** unknown family.  See commclass.h.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/commclass.h"
#include "model/classify.h"
#include "util/alloc.h"
#include "util/fmt.h"
#include "util/sort.h"
#include "util/u64map.h"

/* Framework ops and ranges that launch collectives, by their text's start
** (c10d::allreduce_, record_param_comms, Kineto's nccl:all_reduce, XLA's
** HLO collectives as the XPlane reader names a kernel's op: all-reduce.3,
** all-gather-start.1, collective-permute-done) or anywhere in it
** (all_to_all_single, alltoall_base). */
static const char *const comm_op_prefixes[] = {
	"c10d::", "c10d_functional::", "_c10d_functional::", "record_param_comms", "nccl:", "symm_mem::",
	"deep_ep", "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
	"collective-broadcast", "ragged-all-to-all", NULL
};
static const char *const comm_op_words[] = {"all_to_all", "alltoall", "AllToAll", NULL};

/* Whether a user annotation (not an op) names expert-parallel traffic:
** its text up to the first '(' or blank, lower-cased, starts or ends with
** dispatch or combine ("dispatch(F)", "combine(B)", "moe_dispatch"). */
static bool ep_annotation(const char *s)
{
	char low[64];
	size_t n = 0;

	if (strstr(s, "::"))
		return false;   /* an op's name, not the user's */
	while (s[n] && s[n] != '(' && !isspace((unsigned char)s[n]) && n < sizeof(low) - 1) {
		low[n] = (char)tolower((unsigned char)s[n]);
		n++;
	}
	low[n] = '\0';
	for (int i = 0; i < 2; i++) {
		const char *w = i ? "combine" : "dispatch";
		size_t m = strlen(w);
		if (n >= m && (strncmp(low, w, m) == 0 || strcmp(low + n - m, w) == 0))
			return true;
	}
	return false;
}

/* Whether range r or one enclosing it launches collectives. */
static bool under_collective(const gp_trace *t, int32_t r)
{
	for (; r >= 0 && (size_t)r < t->ranges.n; r = t->ranges.v[r].parent) {
		const struct gp_range *g = &t->ranges.v[r];
		const char *s = gp_s(t, g->text);
		if (!s)
			continue;
		for (int i = 0; comm_op_prefixes[i]; i++)
			if (strncmp(s, comm_op_prefixes[i], strlen(comm_op_prefixes[i])) == 0)
				return true;
		for (int i = 0; comm_op_words[i]; i++)
			if (strstr(s, comm_op_words[i]))
				return true;
		if (g->kind != GP_RANGE_CPU_OP && g->kind != GP_RANGE_PYTHON && ep_annotation(s))
			return true;
	}
	return false;
}

/* A kernel name's family under d: -1 communication, 0 unknown, 1 known
** (any other family). */
static int name_family(const gp_trace *t, const struct gp_opdefs *d, const struct gp_kernel_def *k)
{
	struct gp_kclass kc;
	gp_str s = k->name ? k->name : k->demangled, f = k->demangled ? k->demangled : k->name;

	gp_kernel_classify(d, gp_s(t, s), gp_s(t, f), &kc);
	return kc.family == GP_KF_COMM ? -1 : kc.family == GP_KF_NONE ? 0 : 1;
}

size_t gp_comm_classify(gp_trace *t, const struct gp_opdefs *d)
{
	size_t ndefs = t->kernel_defs.n, marked = 0;
	int8_t *fam;
	gp_ns *under, *all;

	if (!ndefs || t->def_comm.n != ndefs)
		return 0;
	fam = gp_xmalloc(ndefs * sizeof(*fam));
	under = gp_xcalloc(ndefs, sizeof(*under));
	all = gp_xcalloc(ndefs, sizeof(*all));
	gp_u64map seen = {0};   /* short name << 32 | full name -> family + 1 */
	for (size_t i = 0; i < ndefs; i++) {
		const struct gp_kernel_def *k = &t->kernel_defs.v[i];
		gp_str s = k->name ? k->name : k->demangled, f = k->demangled ? k->demangled : k->name;
		uint64_t key = (uint64_t)s << 32 | f;
		int32_t v = gp_u64map_get(&seen, key);
		if (v < 0) {
			v = name_family(t, d, k) + 1;
			gp_u64map_put(&seen, key, v);
		}
		fam[i] = (int8_t)(v - 1);
	}
	gp_u64map_free(&seen);
	if (t->attrs)
		for (size_t k = 0; k < t->kernels.n; k++) {
			const struct gp_kernel *kr = &t->kernels.v[k];
			gp_ns dur = kr->end > kr->start ? kr->end - kr->start : 0;
			if (kr->def >= ndefs || fam[kr->def] != 0)
				continue;
			all[kr->def] += dur + 1;
			if (under_collective(t, t->attrs[k].range))
				under[kr->def] += dur + 1;
		}
	for (size_t i = 0; i < ndefs; i++) {
		bool comm = fam[i] < 0 || (fam[i] == 0 && all[i] && 2 * under[i] > all[i]);
		if (comm && !t->def_comm.v[i]) {
			t->def_comm.v[i] = 1;
			marked++;
		}
	}
	free(fam);
	free(under);
	free(all);
	return marked;
}

static int cmp_unknown(const void *pa, const void *pb)
{
	const struct gp_comm_unknown *a = pa, *b = pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return (a->name > b->name) - (a->name < b->name);
}

void gp_comm_audit_run(const gp_trace *t, const struct gp_opdefs *d, struct gp_comm_audit *a)
{
	GP_VEC(struct gp_comm_unknown) u = {0};
	gp_u64map at = {0};     /* short name -> index in u */
	gp_u64map fam = {0};    /* def -> family + 1 */

	memset(a, 0, sizeof(*a));
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const struct gp_kernel_def *kd = gp_kernel_def(t, kr);
		gp_ns dur = kr->end > kr->start ? kr->end - kr->start : 0;
		a->kernel_ns += dur;
		if (gp_kernel_is_comm(t, kr)) {
			a->comm_ns += dur;
			continue;
		}
		int32_t f = gp_u64map_get(&fam, kr->def);
		if (f < 0) {
			f = name_family(t, d, kd) + 1;
			gp_u64map_put(&fam, kr->def, f);
		}
		if (f - 1 != 0)
			continue;
		a->unknown_ns += dur;
		gp_str name = gp_kernel_short_name_of(t, kr);
		int32_t i = gp_u64map_add(&at, name, (int32_t)u.n);
		if ((size_t)i == u.n)
			*gp_vec_push(u) = (struct gp_comm_unknown){name, 0, 0};
		u.v[i].ns += dur;
		u.v[i].n++;
	}
	gp_u64map_free(&at);
	gp_u64map_free(&fam);
	if (u.n)
		gp_sort(u.v, u.n, sizeof(*u.v), cmp_unknown);
	while (a->nbig < u.n && (double)u.v[a->nbig].ns >= GP_COMM_UNKNOWN_LIST * (double)a->kernel_ns &&
	       u.v[a->nbig].ns > 0)
		a->nbig++;
	a->big = u.v;
}

void gp_comm_audit_free(struct gp_comm_audit *a)
{
	free(a->big);
	memset(a, 0, sizeof(*a));
}

char *gp_comm_audit_note(const gp_trace *t, const struct gp_comm_audit *a, char *buf, size_t size)
{
	size_t len;
	gp_ns listed = 0;

	buf[0] = '\0';
	if (!a->nbig || !size)
		return buf;
	for (size_t i = 0; i < a->nbig; i++)
		listed += a->big[i].ns;
	len = (size_t)snprintf(buf, size, "%zu kernel name%s of unknown family take%s %.1f%% of GPU time (", a->nbig,
			       a->nbig == 1 ? "" : "s", a->nbig == 1 ? "s" : "",
			       100.0 * (double)listed / (double)a->kernel_ns);
	for (size_t i = 0; i < a->nbig && i < 3 && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s %.1f%%", i ? ", " : "", gp_s(t, a->big[i].name),
					100.0 * (double)a->big[i].ns / (double)a->kernel_ns);
	if (len < size)
		snprintf(buf + len, size - len, "%s): %s; classify them with an ops file row, e.g. 'kernel "
			 "pattern=name^NAME family=comm' or family=other (--ops-file, $GPUPROF_OPS; docs/comm.md)",
			 a->nbig > 3 ? ", ..." : "",
			 gp_comm_audit_blind(a) ? "so much unknown work that gpuprof cannot tell the compute/communication "
						   "split (it counts them as compute)"
						 : "gpuprof counts them as compute");
	return buf;
}
