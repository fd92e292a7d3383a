/*
** The op model's knowledge, as data: kernel families (what a kernel is by
** its name: src/ops/kernels.def, kfamily.c) and op rules (FLOPs and bytes
** of an op: src/ops/ops.def, formulas.c), each table with the rows of the
** user's ops files (opsfile.c) before the built-in ones, so a user's row
** wins (docs/op-model.md, "Kernel families" and "Your own ops").
**
** Ownership: a gp_opdefs owns its rows and the file text the user rows
** point into; gp_opdefs_free() releases them.  Built-in rows point to
** static strings.
*/
#ifndef GP_OPDEFS_H
#define GP_OPDEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/opsint.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/namepat.h"

/* What a kernel is, by its name. */
enum gp_kfamily {
	GP_KF_NONE,        /* no row knows the name */
	GP_KF_GEMM,        /* matrix multiplication (GEMM, GEMV, grouped/MoE GEMM) */
	GP_KF_CONV,        /* convolution (its helpers too: transforms, layouts) */
	GP_KF_ATTENTION,   /* fused attention */
	GP_KF_NORM,        /* normalization */
	GP_KF_COMM,        /* communication (model/classify.h) */
	GP_KF_OTHER,       /* a known library's kernel that is none of these */
	GP_KF__COUNT
};

/* How a row decides tensor-core (matrix-core) use. */
enum gp_ktc {
	GP_KTC_NAME,       /* NVIDIA's name patterns (tc.c) */
	GP_KTC_YES,
	GP_KTC_NO,
	GP_KTC_NA,         /* the name cannot tell */
	GP_KTC_DTYPE,      /* yes when the op's element type can use them (Triton) */
	GP_KTC_TOKENS,     /* yes when the full name has one of tokens, else no */
};

/* One kernel-family row. */
struct gp_kfam {
	const char *library;
	const char *pattern;       /* util/namepat.h */
	const char *ref;
	uint8_t family;            /* enum gp_kfamily */
	uint8_t tc;                /* enum gp_ktc */
	const char *tokens;        /* GP_KTC_TOKENS: "a|b", ntokens bytes */
	size_t ntokens;
	struct gp_namepat pat;     /* pattern, compiled */
	const char *file;          /* a user row's file, NULL for a built-in one */
	int line;
};

/* A kernel name's classification. */
struct gp_kclass {
	uint8_t family;            /* enum gp_kfamily */
	int8_t tc;                 /* enum gp_tc from the name (GP_TC_NOT_APPLICABLE
				   ** when it says nothing); GP_TC_NA with by_dtype */
	bool by_dtype;             /* GP_KTC_DTYPE: the op's element type decides */
	const char *library;       /* NULL when no row knows it */
	const struct gp_kfam *row; /* NULL for communication and unknown names */
	char hint[24];             /* unknown names only: the library mark the
				   ** name carries (kernels.def's GP_KHINT), or "" */
};

/* The tables. */
struct gp_opdefs {
	GP_VEC(struct gp_kfam) kfams;        /* user rows, then kernels.def */
	GP_VEC(struct gp_oprule) rules;      /* user rows, then ops.def */
	size_t nuser_rules;                  /* rules[0..nuser_rules) are the user's */
	struct gp_namepat hint;              /* GP_KHINT */
	GP_VEC(char *) texts;                /* the user files' text, owned */
	GP_VEC(struct gp_opexpr *) exprs;    /* the user rules' formulas, owned */
};

/* Fills d with the built-in tables and, before them, the rows of each of
** the files or directories in paths[0..n) (a directory: its *.ops files
** in name order; later paths' rows first).  A path that does not exist is
** an error unless it is a default (optional[i]).  Returns 0, or an error
** naming file:line and what is wrong (GP_ERR_IO: cannot read; GP_ERR_USAGE:
** a bad row); d then holds the built-in tables only. */
int gp_opdefs_init(struct gp_opdefs *d, const char *const *paths, const bool *optional, size_t n,
		   gp_error *err);

void gp_opdefs_free(struct gp_opdefs *d);

/* The family name ("gemm") of f; "-" for GP_KF_NONE. */
const char *gp_kfamily_name(int f);

/* Parses a family name of kernels.def or an ops file; -1 when unknown. */
int gp_kfamily_parse(const char *name, size_t len);

/* Parses a tc verdict ("yes", "name", "if:xdl|wmma") into k->tc and
** k->tokens; false when it is none of them. */
bool gp_ktc_parse(const char *text, size_t len, struct gp_kfam *k);

/* Classifies a kernel by its short and full demangled names (either may
** be NULL): communication (model/classify.h) first, then the rows of d in
** order.  Never fails. */
void gp_kernel_classify(const struct gp_opdefs *d, const char *short_name, const char *full_name,
			struct gp_kclass *out);

/* Loads the built-in kernel families into d->kfams and the hint (kfamily.c;
** gp_opdefs_init calls it after the user rows). */
void gp_kfams_builtin(struct gp_opdefs *d);

/* Reads one ops file into d (opsfile.c): its kernel rows and op rules are
** appended to d->kfams and d->rules.  Returns 0 or an error naming
** path:line. */
int gp_opsfile_read(struct gp_opdefs *d, const char *path, gp_error *err);

/* The same for an ops file's text, read already: text (malloc'd,
** NUL-terminated) becomes d's, whatever the outcome; path names it in the
** errors and rows. */
int gp_opsfile_parse(struct gp_opdefs *d, const char *path, char *text, gp_error *err);

#endif
