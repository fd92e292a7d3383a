/*
** gpuprof-audit: what the op model makes of every kernel name of some
** traces, one row per distinct name, so a reviewer sees misclassifications
** at a glance (docs/op-model.md, "Kernel families"; tests/cli/t0612 and
** tests/data/kernel_audit.tsv).  A tool of its own, not part of gpuprof.
**
**   gpuprof-audit [--check] [--ops-file FILE] TRACE...
**
** Columns (TSV, by name): the kernel family and library its name gets
** (kernels.def, model/classify.c), the tensor-core verdicts the op model
** gave its launches (1, 0, na, -; several joined by '/'), the ops that
** launched it (up to three, most kernels first) and their op families,
** its kernels and GPU time, the check, and the name (demangled, cut at
** 300 characters).  Checks:
**   unclassified:MARK  no family, though the name carries a library's mark
**   side:OP            a GEMM/conv/attention-family kernel that the op
**                      model counted as a side kernel (bias, copy) of OP
**   matrix:OP          a kernel of no GEMM/conv/attention family that
**                      carries the matrix work of OP (a GEMM/conv/attention op)
**   comm-as-compute    a communication kernel the breakdown counts as compute
** --check exits 1 when any row fails a check.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/correlate.h"
#include "model/classify.h"
#include "ops/opdefs.h"
#include "readers/reader.h"
#include "util/strtab.h"

#define MAX_OPS 8

struct row {
	gp_str name, shortname;        /* in names */
	uint8_t family;
	const char *library;
	char hint[24];
	unsigned tc_seen;              /* bit per verdict: 1 yes, 2 no, 4 na, 8 - */
	gp_str ops[MAX_OPS];           /* op names (in names), 0 = none */
	const char *opfam[MAX_OPS];
	uint64_t opn[MAX_OPS];
	uint64_t kernels;
	double ns;
	char check[160];
	const char *key;               /* the name's text, for sorting */
};

struct audit {
	gp_strtab names;
	GP_VEC(struct row) rows;
	GP_VEC(int32_t) row_of;        /* name id -> row index + 1 */
	bool bad;
};

static struct row *row_for(struct audit *a, const char *full, const char *shortname)
{
	gp_str id = gp_strtab_intern(&a->names, full);

	while (a->row_of.n <= id)
		*gp_vec_push(a->row_of) = 0;
	if (!a->row_of.v[id]) {
		struct row *r = gp_vec_push(a->rows);
		memset(r, 0, sizeof(*r));
		r->name = id;
		r->shortname = gp_strtab_intern(&a->names, shortname);
		a->row_of.v[id] = (int32_t)a->rows.n;
	}
	return &a->rows.v[a->row_of.v[id] - 1];
}

static bool matrix_op_family(const char *f)
{
	return f && (strcmp(f, "gemm") == 0 || strcmp(f, "conv") == 0 || strcmp(f, "attention") == 0 ||
		     strcmp(f, "rnn") == 0);
}

static bool matrix_kernel_family(int f)
{
	return f == GP_KF_GEMM || f == GP_KF_CONV || f == GP_KF_ATTENTION;
}

static void add_check(struct row *r, const char *fmt, const char *arg)
{
	size_t n = strlen(r->check);

	if (strstr(r->check, arg ? arg : fmt))
		return;
	snprintf(r->check + n, sizeof(r->check) - n, "%s", n ? "," : "");
	n = strlen(r->check);
	snprintf(r->check + n, sizeof(r->check) - n, fmt, arg);
}

/* Adds the kernels of one loaded, correlated trace with its op model. */
static void add_trace(struct audit *a, gp_trace *t, const struct gp_ops *ops)
{
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kn = &t->kernels.v[k];
		const struct gp_opres *o = &ops->r[k];
		const char *full = gp_s(t, gp_kernel_long_name_of(t, kn));
		const char *shortname = gp_s(t, gp_kernel_short_name_of(t, kn));
		struct row *r = row_for(a, full, shortname);
		if (!r->kernels) {
			struct gp_kclass kc;
			gp_kernel_classify(ops->defs, shortname, full, &kc);
			r->family = kc.family;
			r->library = kc.library;
			memcpy(r->hint, kc.hint, sizeof(r->hint));
		}
		r->kernels++;
		r->ns += kn->end > kn->start ? (double)(kn->end - kn->start) : 0;
		r->tc_seen |= o->tc == GP_TC_YES ? 1 : o->tc == GP_TC_NO ? 2 : o->tc == GP_TC_NA ? 4 : 8;
		gp_str op = o->op ? o->op : t->attrs ? t->attrs[k].op : 0;
		const char *opname = op ? gp_s(t, op) : "na";
		const char *fam = gp_opres_family(o);
		gp_str opid = gp_strtab_intern(&a->names, opname);
		for (int i = 0; i < MAX_OPS; i++) {
			if (r->ops[i] == opid || !r->opn[i]) {
				r->ops[i] = opid;
				r->opfam[i] = fam ? fam : "-";
				r->opn[i]++;
				break;
			}
		}
		/* the checks */
		if (r->family == GP_KF_NONE && r->hint[0])
			add_check(r, "unclassified:%s", r->hint);
		bool matrix_work = o->tc != GP_TC_NOT_APPLICABLE && o->tc != GP_TC_NA ? true : o->tc == GP_TC_NA && o->known;
		if (matrix_op_family(fam) && !o->helper) {
			if (matrix_kernel_family(r->family) && !gp_kernel_is_helper(full) &&
			    o->tc == GP_TC_NOT_APPLICABLE && o->flops >= 0)
				add_check(r, "side:%s", opname);
			if (!matrix_kernel_family(r->family) && r->family != GP_KF_NONE && matrix_work && o->flops > 0)
				add_check(r, "matrix:%s", opname);
		}
		if (r->family == GP_KF_COMM && !(gp_kernel_is_comm(t, kn) && o->comm))
			add_check(r, "%s", "comm-as-compute");
	}
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *x = pa, *y = pb;

	return strcmp(x->key, y->key);
}

static void print_rows(struct audit *a, bool check)
{
	printf("family\tlibrary\ttc\tops\top_families\tkernels\tgpu_ms\tcheck\tname\n");
	for (size_t i = 0; i < a->rows.n; i++) {
		struct row *r = &a->rows.v[i];
		char tc[32] = "", ops[512] = "", fams[160] = "";
		static const char *const tcs[] = {"1", "0", "na", "-"};
		for (int b = 0; b < 4; b++)
			if (r->tc_seen & (1u << b))
				snprintf(tc + strlen(tc), sizeof(tc) - strlen(tc), "%s%s", tc[0] ? "/" : "", tcs[b]);
		/* ops by kernels, most first; ties by name */
		int order[MAX_OPS], n = 0;
		for (int j = 0; j < MAX_OPS && r->opn[j]; j++)
			order[n++] = j;
		for (int x = 1; x < n; x++)
			for (int y = x; y > 0; y--) {
				int p = order[y - 1], q = order[y];
				if (r->opn[q] > r->opn[p] ||
				    (r->opn[q] == r->opn[p] &&
				     strcmp(gp_strtab_get(&a->names, r->ops[q]), gp_strtab_get(&a->names, r->ops[p])) < 0)) {
					order[y - 1] = q;
					order[y] = p;
				}
			}
		for (int j = 0; j < n && j < 3; j++) {
			const char *o = gp_strtab_get(&a->names, r->ops[order[j]]);
			snprintf(ops + strlen(ops), sizeof(ops) - strlen(ops), "%s%.60s", j ? "," : "", o);
			if (!strstr(fams, r->opfam[order[j]]))
				snprintf(fams + strlen(fams), sizeof(fams) - strlen(fams), "%s%s", fams[0] ? "," : "",
					 r->opfam[order[j]]);
		}
		if (n > 3)
			snprintf(ops + strlen(ops), sizeof(ops) - strlen(ops), ",+%d", n - 3);
		if (r->check[0])
			a->bad = true;
		printf("%s\t%s\t%s\t%s\t%s\t%llu\t%.3f\t%s\t%.300s\n", gp_kfamily_name(r->family),
		       r->library ? r->library : "-", tc, ops, fams, (unsigned long long)r->kernels, r->ns / 1e6,
		       r->check[0] ? r->check : "ok", gp_strtab_get(&a->names, r->name));
	}
	if (check) {
		size_t fam[GP_KF__COUNT] = {0}, unknown = 0, failed = 0;
		for (size_t i = 0; i < a->rows.n; i++) {
			fam[a->rows.v[i].family]++;
			unknown += a->rows.v[i].family == GP_KF_NONE;
			failed += a->rows.v[i].check[0] != 0;
		}
		fprintf(stderr, "gpuprof-audit: %zu names:", a->rows.n);
		for (int f = 1; f < GP_KF__COUNT; f++)
			fprintf(stderr, " %s %zu,", gp_kfamily_name(f), fam[f]);
		fprintf(stderr, " no family %zu; %zu fail a check\n", unknown, failed);
	}
}

int main(int argc, char **argv)
{
	struct audit a = {0};
	struct gp_peak_opts po = {0};
	bool check = false;
	int i = 1, rc = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--check") == 0) {
			check = true;
		} else if (strcmp(argv[i], "--ops-file") == 0 && i + 1 < argc && po.nops_paths < GP_OPS_MAX_PATHS) {
			po.ops_paths[po.nops_paths++] = argv[++i];
		} else {
			fprintf(stderr, "usage: gpuprof-audit [--check] [--ops-file FILE] TRACE...\n");
			return 2;
		}
	}
	if (i == argc) {
		fprintf(stderr, "usage: gpuprof-audit [--check] [--ops-file FILE] TRACE...\n");
		return 2;
	}
	gp_strtab_init(&a.names);
	for (; i < argc; i++) {
		gp_trace t;
		struct gp_load_opts lo = {.threads = 1};
		struct gp_correlate_opts co = {0};
		struct gp_ops ops;
		gp_error err = {0};
		gp_trace_init(&t);
		if (gp_trace_load(argv[i], &t, &lo, &err) || gp_correlate(&t, &co, &err)) {
			gp_err_print(&err);
			gp_trace_free(&t);
			rc = 4;
			continue;
		}
		gp_ops_run(&t, &po, &ops);
		add_trace(&a, &t, &ops);
		gp_ops_free(&ops);
		gp_trace_free(&t);
	}
	for (size_t j = 0; j < a.rows.n; j++)
		a.rows.v[j].key = gp_strtab_get(&a.names, a.rows.v[j].name);
	gp_vec_sort(a.rows, cmp_row);
	print_rows(&a, check);
	gp_vec_free(a.rows);
	gp_vec_free(a.row_of);
	gp_strtab_free(&a.names);
	if (rc)
		return rc;
	return check && a.bad ? 1 : 0;
}
