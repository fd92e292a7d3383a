/*
** Op model internals shared by ops.c (dispatch) and formulas.c (the
** formula functions named in ops.def).  Not for use outside src/ops/.
**
** Ownership: a gp_opctx lives on gp_ops_run()'s stack; its pointers borrow
** from the trace.
*/
#ifndef GP_OPSINT_H
#define GP_OPSINT_H

#include <stdbool.h>
#include <stddef.h>

#include "ops/ops.h"

struct gp_opctx;
struct gp_opexpr;
struct gp_opdefs;

/* A formula: fills c->flops, c->bytes, the params and may set tc and
** op_override.  Returns false when the arguments do not fit (the row then
** falls back to the generic unknown row). */
typedef bool (*gp_opfn)(struct gp_opctx *c);

/* One row of ops.def. */
struct gp_oprule {
	const char *names;      /* '|'-separated op names; "x*" matches a prefix */
	const char *family;
	gp_opfn fn;
	double k1, k2, k3;      /* constants the formula takes (FLOPs/element, byte factors) */
	const char *ref;
	const struct gp_opexpr *x;  /* a user rule's formula (opsfile.c), NULL for ops.def's */
};

/* What the op model reads from a kernel's names, computed once per
** distinct full name by gp_ops_run() (the substring tests of tc.c cost
** more than the formulas, and a trace has few distinct kernel names; the
** short name follows from the full one). */
struct gp_kname {
	int8_t tc;              /* the family row's verdict (gp_kernel_classify), else gp_tc_kernel(kfull) */
	bool tc_by_dtype;       /* the row says: tensor cores when the op's dtype can use them */
	bool gemm_like;         /* a GEMM/conv/attention family, else gp_kernel_is_gemm_like(kfull) */
	uint8_t family;         /* enum gp_kfamily (opdefs.h) */
	uint8_t dtype;          /* gp_kernel_dtype(kfull) */
	uint8_t mma_dtype;      /* gp_kernel_mma_dtype(kfull): fp8/fp6/fp4 or GP_DT_UNKNOWN */
	bool comm;              /* gp_kernel_name_is_comm(kshort, kfull) */
	bool helper;            /* gp_kernel_is_helper(kfull) */
};

struct gp_opctx {
	const gp_trace *t;
	size_t idx;                     /* kernel index */
	const struct gp_kernel *k;
	const struct gp_attr *a;
	const char *op;                 /* op name, namespace ("aten::") stripped */
	const char *kshort;             /* kernel base name (PyProf matches on it) */
	const char *kfull;              /* full demangled name (TC, dtype) */
	const struct gp_kname *kn;      /* kfull's classification: use it, not tc.c */
	const struct gp_arg *args;
	uint32_t nargs;
	int dir, sub;
	const struct gp_oprule *rule;

	/* Output. */
	char params[384];
	size_t plen;
	double flops, bytes;
	int tc;                         /* enum gp_tc */
	enum gp_dtype dtype;
	const char *op_override;        /* static string or NULL */
	bool helper;                    /* a helper kernel: 0 FLOPs, bytes unknown */
};

/* The peaks of work in dtype dt (tc: on tensor cores) on device of t
** (gpus.c): the overrides of o (may be NULL), else the GPU table entry of
** o->gpu, the device or the trace's only device; the device's stated
** bandwidth when no entry is found.  0 = unknown. */
void gp_peaks_lookup(const gp_trace *t, int32_t device, enum gp_dtype dt, bool tc,
		     const struct gp_peak_opts *o, struct gp_peak *p);

/* The rule table (formulas.c, from ops.def) and its size. */
extern const struct gp_oprule gp_oprules[];
extern const size_t gp_noprules;

/* The op families the rules may name ("gemm", "norm"...; formulas.c), and
** the index of one in it (-1 when it is none). */
extern const char *const gp_op_families[];
int gp_op_family_index(const char *name, size_t len);

/* The TC value of a GEMM/conv/attention kernel of c (formulas.c): 1, 0,
** or na when its family row says the name cannot tell (ops.c then decides
** a dtype row's by the op's element type). */
int gp_optc_matrix(const struct gp_opctx *c);

/* A GEMM's params, FLOPs (2BMNK), bytes (s B (MN + MK + NK)), dtype and TC
** into c (formulas.c); returns true. */
bool gp_opgemm(struct gp_opctx *c, double b, double m, double n, double k, enum gp_dtype dt);

/* The formula of a user's op rule (opsfile.c): evaluates c->rule->x. */
bool gp_opsfile_formula(struct gp_opctx *c);

/* The built-in formula named name ("mm", "unary"...: f_mm, f_unary of
** formulas.c, the functions ops.def's rows name), NULL when none: a user's
** row may reuse one (opsfile.c). */
gp_opfn gp_opformula_find(const char *name, size_t len);

/* Argument access.  NULL when absent. */
const struct gp_arg *gp_oparg(const struct gp_opctx *c, uint32_t i);           /* i-th argument */
const struct gp_arg *gp_optensor(const struct gp_opctx *c, uint32_t i);        /* i-th tensor argument */
const struct gp_arg *gp_opnamed(const struct gp_opctx *c, const char *name);   /* keyword argument */
uint32_t gp_opntensors(const struct gp_opctx *c);
double gp_numel(const struct gp_arg *a);   /* elements of a tensor (1 for a 0-d tensor), 0 if NULL */

/* The dtype of a tensor argument, else the kernel name's, else unknown. */
enum gp_dtype gp_opdtype(const struct gp_opctx *c, const struct gp_arg *a);
/* Element size for a dtype; unknown counts as 4 bytes (fp32). */
int gp_opsize(enum gp_dtype dt);

/* Params string builders: "key=value" joined with ','. */
void gp_pp(struct gp_opctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gp_pp_shape(struct gp_opctx *c, const char *key, const struct gp_arg *a);  /* "(35,20,200)" */
void gp_pp_type(struct gp_opctx *c, enum gp_dtype dt);                          /* "type=fp32" */

/* The shapes of c's tensor arguments joined with ';' ("(35,20);(20,)") into
** buf, snprintf's contract: returns the whole length, size or more when
** the text was cut. */
size_t gp_opshapes(const struct gp_opctx *c, char *buf, size_t size);

#endif
