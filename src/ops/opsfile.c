/*
** The user's ops files: kernel families and op formulas added without
** rebuilding (docs/op-model.md, "Your own ops"), and the tables they join
** (opdefs.h).  A file is lines of a keyword and key=value fields:
**
**   kernel pattern=PATTERN family=FAMILY [tc=TC] [library=TEXT]
**   op name=NAMES like=OP
**   op name=NAMES family=FAMILY formula=FORMULA [k1=X] [k2=X] [k3=X]
**   op name=NAMES [family=gemm] M=EXPR N=EXPR K=EXPR [B=EXPR] [kernels=PATTERN]
**   op name=NAMES family=FAMILY flops=EXPR bytes=EXPR [kernels=PATTERN]
**
** A value with blanks is written in double quotes; '#' starts a comment
** (outside quotes).  EXPR is arithmetic (+ - * / and parentheses) over
** numbers and the op's tensor arguments: inN[i] (dimension i of the N-th
** tensor argument, counted from 0; a negative i counts from the last),
** numel(inN), bytes(inN), size(inN) (element size), ndim(inN), and argN
** (the value of the N-th argument, of any type, when it is a number).
*/
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ops/opdefs.h"

#define MAX_CODE 64
#define MAX_FILE (4u << 20)   /* an ops file is a few kilobytes; refuse absurd ones */
#define MAX_FILES 256         /* *.ops files read from one directory */

/* One instruction of a compiled expression (reverse Polish). */
enum { X_NUM, X_DIM, X_NUMEL, X_BYTES, X_SIZE, X_NDIM, X_ARG, X_ADD, X_SUB, X_MUL, X_DIV, X_NEG };
struct xcode {
	uint8_t op;
	int16_t a, b;       /* tensor or argument index, dimension */
	double v;           /* X_NUM */
};
struct xprog {
	struct xcode c[MAX_CODE];
	int n;
};

/* A user rule's formula. */
enum { UF_GEMM, UF_FLOPS };
struct gp_opexpr {
	int kind;
	struct xprog m, n, k, b;        /* UF_GEMM (b: n == 0 for 1) */
	struct xprog flops, bytes;      /* UF_FLOPS */
	bool has_kernels;
	struct gp_namepat kernels;      /* which of the op's kernels do its work */
};

/* ---- expressions ---- */

struct xparse {
	const char *s, *end;
	struct xprog *p;
	char why[160];
};

static void skip_blanks(struct xparse *x)
{
	while (x->s < x->end && (*x->s == ' ' || *x->s == '\t'))
		x->s++;
}

static bool emit(struct xparse *x, struct xcode c)
{
	if (x->p->n == MAX_CODE) {
		snprintf(x->why, sizeof(x->why), "expression too long (at most %d terms)", MAX_CODE);
		return false;
	}
	x->p->c[x->p->n++] = c;
	return true;
}

/* Reads a small integer (with an optional '-') at x->s into *v. */
static bool small_int(struct xparse *x, long *v)
{
	char *e;
	char buf[16];
	size_t n = (size_t)(x->end - x->s) < sizeof(buf) - 1 ? (size_t)(x->end - x->s) : sizeof(buf) - 1;

	memcpy(buf, x->s, n);
	buf[n] = '\0';
	*v = strtol(buf, &e, 10);
	if (e == buf || *v < -32000 || *v > 32000)
		return false;
	x->s += e - buf;
	return true;
}

/* "inN" at x->s: the tensor index into *n. */
static bool tensor_ref(struct xparse *x, long *n)
{
	if (x->end - x->s < 3 || strncmp(x->s, "in", 2) != 0 || !isdigit((unsigned char)x->s[2])) {
		snprintf(x->why, sizeof(x->why), "expected inN (the N-th tensor argument) at '%.*s'",
			 (int)(x->end - x->s < 20 ? x->end - x->s : 20), x->s);
		return false;
	}
	x->s += 2;
	return small_int(x, n) && *n >= 0;
}

static bool expr(struct xparse *x);

static bool primary(struct xparse *x)
{
	static const struct {
		const char *name;
		uint8_t op;
	} funcs[] = {{"numel(", X_NUMEL}, {"bytes(", X_BYTES}, {"size(", X_SIZE}, {"ndim(", X_NDIM}};
	long n, i;

	skip_blanks(x);
	if (x->s >= x->end) {
		snprintf(x->why, sizeof(x->why), "an expression ends too early");
		return false;
	}
	if (*x->s == '(') {
		x->s++;
		if (!expr(x))
			return false;
		skip_blanks(x);
		if (x->s >= x->end || *x->s != ')') {
			snprintf(x->why, sizeof(x->why), "a '(' without its ')'");
			return false;
		}
		x->s++;
		return true;
	}
	if (isdigit((unsigned char)*x->s) || *x->s == '.') {
		char buf[40], *e;
		size_t len = (size_t)(x->end - x->s) < sizeof(buf) - 1 ? (size_t)(x->end - x->s) : sizeof(buf) - 1;
		memcpy(buf, x->s, len);
		buf[len] = '\0';
		double v = strtod(buf, &e);
		x->s += e - buf;
		return emit(x, (struct xcode){.op = X_NUM, .v = v});
	}
	for (size_t f = 0; f < sizeof(funcs) / sizeof(funcs[0]); f++) {
		size_t len = strlen(funcs[f].name);
		if ((size_t)(x->end - x->s) > len && strncmp(x->s, funcs[f].name, len) == 0) {
			x->s += len;
			if (!tensor_ref(x, &n))
				return false;
			skip_blanks(x);
			if (x->s >= x->end || *x->s != ')') {
				snprintf(x->why, sizeof(x->why), "%.*s inN) wants its ')'", (int)len, funcs[f].name);
				return false;
			}
			x->s++;
			return emit(x, (struct xcode){.op = funcs[f].op, .a = (int16_t)n});
		}
	}
	if (x->end - x->s > 3 && strncmp(x->s, "arg", 3) == 0 && isdigit((unsigned char)x->s[3])) {
		x->s += 3;
		if (!small_int(x, &n) || n < 0) {
			snprintf(x->why, sizeof(x->why), "argN wants an argument number");
			return false;
		}
		return emit(x, (struct xcode){.op = X_ARG, .a = (int16_t)n});
	}
	if (!tensor_ref(x, &n))
		return false;
	if (x->s >= x->end || *x->s != '[') {
		snprintf(x->why, sizeof(x->why), "in%ld wants a dimension: in%ld[0], in%ld[-1]", n, n, n);
		return false;
	}
	x->s++;
	if (!small_int(x, &i) || x->s >= x->end || *x->s != ']') {
		snprintf(x->why, sizeof(x->why), "in%ld[...] wants a dimension number and ']'", n);
		return false;
	}
	x->s++;
	return emit(x, (struct xcode){.op = X_DIM, .a = (int16_t)n, .b = (int16_t)i});
}

static bool unary(struct xparse *x)
{
	skip_blanks(x);
	if (x->s < x->end && *x->s == '-') {
		x->s++;
		return unary(x) && emit(x, (struct xcode){.op = X_NEG});
	}
	return primary(x);
}

/* A chain of operands of one precedence level: level 0 joins level-1
** operands with + and -, level 1 joins unary ones with * and /. */
static bool chain(struct xparse *x, int level)
{
	static const char sym[2][2] = {{'+', '-'}, {'*', '/'}};
	static const uint8_t code[2][2] = {{X_ADD, X_SUB}, {X_MUL, X_DIV}};

	if (!(level ? unary(x) : chain(x, 1)))
		return false;
	for (;;) {
		skip_blanks(x);
		if (x->s >= x->end || (*x->s != sym[level][0] && *x->s != sym[level][1]))
			return true;
		uint8_t op = code[level][*x->s++ == sym[level][1]];
		if (!(level ? unary(x) : chain(x, 1)) || !emit(x, (struct xcode){.op = op}))
			return false;
	}
}

static bool expr(struct xparse *x)
{
	return chain(x, 0);
}

/* Compiles text[0..len) into *p; false with the reason in why. */
static bool compile(const char *text, size_t len, struct xprog *p, char *why, size_t size)
{
	struct xparse x = {.s = text, .end = text + len, .p = p};

	p->n = 0;
	if (!expr(&x)) {
		snprintf(why, size, "%s", x.why);
		return false;
	}
	skip_blanks(&x);
	if (x.s != x.end) {
		snprintf(why, size, "unexpected '%.*s' in an expression", (int)(x.end - x.s < 20 ? x.end - x.s : 20), x.s);
		return false;
	}
	return true;
}

/* Evaluates p over c's arguments; false when an argument it names is
** missing (the formula does not fit this call). */
static bool eval(const struct gp_opctx *c, const struct xprog *p, double *out)
{
	double st[MAX_CODE];
	int sp = 0;

	for (int i = 0; i < p->n; i++) {
		const struct xcode *x = &p->c[i];
		const struct gp_arg *a = NULL;
		double v = 0;
		if (x->op >= X_DIM && x->op <= X_NDIM) {
			a = gp_optensor(c, (uint32_t)x->a);
			if (!a)
				return false;
		}
		switch (x->op) {
		case X_NUM: v = x->v; break;
		case X_DIM: {
			int d = x->b < 0 ? a->ndim + x->b : x->b;
			if (d < 0 || d >= a->ndim || d >= GP_MAX_DIMS)
				return false;
			v = (double)a->shape[d];
			break;
		}
		case X_NUMEL: v = gp_numel(a); break;
		case X_BYTES: v = gp_numel(a) * gp_opsize(gp_opdtype(c, a)); break;
		case X_SIZE: v = gp_opsize(gp_opdtype(c, a)); break;
		case X_NDIM: v = a->ndim; break;
		case X_ARG:
			a = gp_oparg(c, (uint32_t)x->a);
			if (!a || (a->type != GP_ARG_INT && a->type != GP_ARG_FLOAT && a->type != GP_ARG_BOOL))
				return false;
			v = a->value;
			break;
		case X_NEG: st[sp - 1] = -st[sp - 1]; continue;
		default: {
			double r = st[--sp], l = st[sp - 1];
			st[sp - 1] = x->op == X_ADD ? l + r : x->op == X_SUB ? l - r : x->op == X_MUL ? l * r
				     : r != 0 ? l / r : 0;
			continue;
		}
		}
		st[sp++] = v;
	}
	*out = sp == 1 ? st[0] : 0;
	return sp == 1 && *out == *out;   /* not NaN */
}

/* ---- the formula of a user's rule ---- */

static bool matrix_family(const char *f)
{
	return strcmp(f, "gemm") == 0 || strcmp(f, "conv") == 0 || strcmp(f, "attention") == 0;
}

bool gp_opsfile_formula(struct gp_opctx *c)
{
	const struct gp_opexpr *x = c->rule->x;
	const struct gp_arg *in0 = gp_optensor(c, 0);
	enum gp_dtype dt = gp_opdtype(c, in0);
	bool matrix = matrix_family(c->rule->family);
	/* a kernel of the op whose name says it is no matrix math is a side kernel */
	bool side = c->kn->family == GP_KF_OTHER || c->kn->family == GP_KF_NORM;

	c->dtype = dt;
	if (x->has_kernels && !gp_namepat_match(&x->kernels, c->kshort, c->kfull)) {
		/* the op's work is its named kernels': this one counts nothing */
		gp_pp_type(c, dt);
		c->flops = 0;
		c->bytes = 0;
		c->tc = GP_TC_NOT_APPLICABLE;
		return true;
	}
	if (x->kind == UF_GEMM) {
		double m, n, k, b = 1;
		if (!eval(c, &x->m, &m) || !eval(c, &x->n, &n) || !eval(c, &x->k, &k) ||
		    (x->b.n && !eval(c, &x->b, &b)))
			return false;
		gp_opgemm(c, b, m, n, k, dt);
		if (side && !x->has_kernels) {
			c->flops = 0;
			c->bytes = -1;
			c->tc = GP_TC_NOT_APPLICABLE;
		}
		return true;
	}
	double flops, bytes;
	if (!eval(c, &x->flops, &flops) || !eval(c, &x->bytes, &bytes))
		return false;
	char shapes[300];
	if (gp_opshapes(c, shapes, sizeof(shapes)) < sizeof(shapes) && shapes[0])
		gp_pp(c, "T", "[%s]", shapes);
	gp_pp_type(c, dt);
	if (matrix && side && !x->has_kernels) {
		c->flops = 0;
		c->bytes = -1;
		c->tc = GP_TC_NOT_APPLICABLE;
		return true;
	}
	c->flops = flops;
	c->bytes = bytes;
	c->tc = matrix ? gp_optc_matrix(c) : GP_TC_NOT_APPLICABLE;
	return true;
}

/* ---- reading a file ---- */

#define MAX_FIELDS 16
struct field {
	const char *key, *val;
	size_t klen, vlen;
};

struct line {
	const char *path;
	int no;
	const char *word;
	size_t wlen;
	struct field f[MAX_FIELDS];
	int n;
};

/* Splits the line s (NUL-terminated, in the file's buffer, which it
** edits) into its keyword and fields.  Returns 0, 1 for a blank line, or
** an error. */
static int split(char *s, struct line *l, gp_error *err)
{
	char *p = s;

	l->n = 0;
	l->word = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			return l->word ? 0 : 1;
		char *start = p;
		if (!l->word) {
			while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
				p++;
			l->word = start;
			l->wlen = (size_t)(p - start);
			continue;
		}
		if (l->n == MAX_FIELDS)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: more than %d fields", l->path, l->no, MAX_FIELDS);
		struct field *f = &l->f[l->n++];
		while (*p && *p != '=' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '=')
			return gp_err(err, GP_ERR_USAGE, "%s:%d: '%.*s' is no key=value field", l->path, l->no,
				      (int)(p - start < 40 ? p - start : 40), start);
		f->key = start;
		f->klen = (size_t)(p - start);
		p++;
		if (*p == '"') {
			f->val = ++p;
			while (*p && *p != '"')
				p++;
			if (*p != '"')
				return gp_err(err, GP_ERR_USAGE, "%s:%d: a \" without its closing \"", l->path, l->no);
			f->vlen = (size_t)(p - f->val);
			p++;
		} else {
			f->val = p;
			while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
				p++;
			f->vlen = (size_t)(p - f->val);
		}
		if (!f->vlen)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: %.*s= has no value", l->path, l->no, (int)f->klen, f->key);
	}
}

/* The value of key in l, NUL-terminated in place (the text after a value
** is a blank, a quote or the end, never needed again), or NULL. */
static const char *get(struct line *l, const char *key, size_t *len)
{
	for (int i = 0; i < l->n; i++)
		if (strlen(key) == l->f[i].klen && strncmp(l->f[i].key, key, l->f[i].klen) == 0) {
			((char *)l->f[i].val)[l->f[i].vlen] = '\0';
			if (len)
				*len = l->f[i].vlen;
			l->f[i].klen = 0;   /* used */
			return l->f[i].val;
		}
	return NULL;
}

/* An error for the first field of l that no get() took. */
static int unused(const struct line *l, gp_error *err)
{
	for (int i = 0; i < l->n; i++)
		if (l->f[i].klen)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: '%.*s' is no field of a %.*s line", l->path, l->no,
				      (int)l->f[i].klen, l->f[i].key, (int)l->wlen, l->word);
	return 0;
}

static int kernel_line(struct gp_opdefs *d, struct line *l, gp_error *err)
{
	struct gp_kfam k = {.file = l->path, .line = l->no};
	size_t flen = 0, tlen = 0;
	const char *fam = get(l, "family", &flen), *tc = get(l, "tc", &tlen);
	char why[160];

	k.pattern = get(l, "pattern", NULL);
	k.library = get(l, "library", NULL);
	k.ref = get(l, "ref", NULL);
	if (!k.pattern || !fam)
		return gp_err(err, GP_ERR_USAGE, "%s:%d: a kernel line wants pattern= and family=", l->path, l->no);
	if (unused(l, err))
		return err->status;
	if (!gp_namepat_compile(k.pattern, &k.pat, why, sizeof(why)))
		return gp_err(err, GP_ERR_USAGE, "%s:%d: pattern: %s", l->path, l->no, why);
	int f = gp_kfamily_parse(fam, flen);
	/* family=comm: the analysis runner marks the kernels it matches as
	** communication for every pass (analysis/commclass.h) */
	if (f < 0)
		return gp_err(err, GP_ERR_USAGE, "%s:%d: family '%s' is none of gemm, conv, attention, norm, comm, other",
			      l->path, l->no, fam);
	k.family = (uint8_t)f;
	if (!gp_ktc_parse(tc ? tc : "na", tc ? tlen : 2, &k))
		return gp_err(err, GP_ERR_USAGE, "%s:%d: tc '%s' is none of yes, no, na, name, dtype, if:TOKENS",
			      l->path, l->no, tc);
	if (!k.library)
		k.library = "user";
	*gp_vec_push(d->kfams) = k;
	return 0;
}

/* Compiles the expression of key into *p (required unless optional). */
static int expr_field(struct line *l, const char *key, struct xprog *p, bool optional, gp_error *err)
{
	size_t len;
	const char *v = get(l, key, &len);
	char why[200];

	p->n = 0;
	if (!v)
		return optional ? 0 : gp_err(err, GP_ERR_USAGE, "%s:%d: %s= missing", l->path, l->no, key);
	if (!compile(v, len, p, why, sizeof(why)))
		return gp_err(err, GP_ERR_USAGE, "%s:%d: %s=%s: %s", l->path, l->no, key, v, why);
	return 0;
}

static double number(const char *v, bool *ok)
{
	char *e;
	double x = v ? strtod(v, &e) : 0;

	*ok = !v || (*v && !*e);
	return x;
}

static int op_line(struct gp_opdefs *d, struct line *l, gp_error *err)
{
	struct gp_oprule r = {0};
	size_t flen = 0, fnlen = 0;
	const char *like = get(l, "like", NULL), *fam = get(l, "family", &flen);
	const char *formula = get(l, "formula", &fnlen), *kern = get(l, "kernels", NULL);
	const char *k1 = get(l, "k1", NULL), *k2 = get(l, "k2", NULL), *k3 = get(l, "k3", NULL);
	bool gemm = false;
	char why[160];

	for (int i = 0; i < l->n; i++)
		if (l->f[i].klen == 1 && strchr("MNKB", l->f[i].key[0]))
			gemm = true;
	r.names = get(l, "name", NULL);
	r.ref = get(l, "ref", NULL);
	if (!r.ref)
		r.ref = l->path;
	if (!r.names)
		return gp_err(err, GP_ERR_USAGE, "%s:%d: an op line wants name=", l->path, l->no);
	if (fam && gp_op_family_index(fam, flen) < 0) {
		char list[256] = "";
		for (int i = 0; gp_op_families[i]; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", gp_op_families[i]);
		return gp_err(err, GP_ERR_USAGE, "%s:%d: family '%s' is none of %s", l->path, l->no, fam, list);
	}
	if (like) {
		const struct gp_oprule *base = NULL;
		for (size_t i = 0; i < gp_noprules && !base; i++) {
			const char *p = gp_oprules[i].names;
			size_t n = strlen(like);
			for (const char *q = p; (q = strstr(q, like)); q++)
				if ((q == p || q[-1] == '|') && (q[n] == '|' || !q[n])) {
					base = &gp_oprules[i];
					break;
				}
		}
		if (!base)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: like=%s: no built-in op of that name (ops.def)", l->path,
				      l->no, like);
		if (fam || formula || gemm || kern || k1 || k2 || k3)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: like= takes its family and formula from %s: give nothing else",
				      l->path, l->no, like);
		const char *names = r.names, *ref = r.ref;
		r = *base;
		r.names = names;
		r.ref = ref;
	} else if (formula) {
		bool ok1, ok2, ok3;
		r.fn = gp_opformula_find(formula, fnlen);
		if (!r.fn)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: formula '%s' is none of formulas.c's (mm, linear, conv, "
				      "attention, norm, softmax, unary, binary, reduce, move, copy, ...)", l->path, l->no, formula);
		if (!fam)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: formula= wants family=", l->path, l->no);
		r.k1 = number(k1, &ok1);
		r.k2 = number(k2, &ok2);
		r.k3 = number(k3, &ok3);
		if (!ok1 || !ok2 || !ok3)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: k1, k2, k3 are numbers", l->path, l->no);
		r.family = gp_op_families[gp_op_family_index(fam, flen)];
		if (gemm || kern)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: formula= takes k1..k3, not expressions", l->path, l->no);
	} else {
		struct gp_opexpr *x = gp_xcalloc(1, sizeof(*x));
		*gp_vec_push(d->exprs) = x;
		if (gemm) {
			x->kind = UF_GEMM;
			if (expr_field(l, "M", &x->m, false, err) || expr_field(l, "N", &x->n, false, err) ||
			    expr_field(l, "K", &x->k, false, err) || expr_field(l, "B", &x->b, true, err))
				return err->status;
			if (!fam) {
				fam = "gemm";
				flen = 4;
			}
		} else {
			x->kind = UF_FLOPS;
			if (expr_field(l, "flops", &x->flops, false, err) || expr_field(l, "bytes", &x->bytes, false, err))
				return err->status;
			if (!fam)
				return gp_err(err, GP_ERR_USAGE, "%s:%d: flops= and bytes= want family=", l->path, l->no);
		}
		if (kern) {
			if (!gp_namepat_compile(kern, &x->kernels, why, sizeof(why)))
				return gp_err(err, GP_ERR_USAGE, "%s:%d: kernels: %s", l->path, l->no, why);
			x->has_kernels = true;
		}
		if (k1 || k2 || k3)
			return gp_err(err, GP_ERR_USAGE, "%s:%d: k1..k3 go with formula=", l->path, l->no);
		r.fn = gp_opsfile_formula;
		r.x = x;
		r.family = gp_op_families[gp_op_family_index(fam, flen)];
	}
	if (unused(l, err))
		return err->status;
	*gp_vec_push(d->rules) = r;
	d->nuser_rules++;
	return 0;
}

int gp_opsfile_parse(struct gp_opdefs *d, const char *path, char *text, gp_error *err)
{
	char *p = text;
	int no = 0;

	/* the rows point into the text: d keeps it */
	*gp_vec_push(d->texts) = text;
	while (*p) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		no++;
		struct line l = {.path = path, .no = no};
		int rc = split(p, &l, err);
		if (rc == 0) {
			if (l.wlen == 6 && strncmp(l.word, "kernel", 6) == 0)
				rc = kernel_line(d, &l, err);
			else if (l.wlen == 2 && strncmp(l.word, "op", 2) == 0)
				rc = op_line(d, &l, err);
			else
				rc = gp_err(err, GP_ERR_USAGE, "%s:%d: '%.*s': a line is 'kernel ...' or 'op ...'", path, no,
					    (int)(l.wlen < 40 ? l.wlen : 40), l.word);
			if (rc)
				return rc;
		} else if (rc != 1) {
			return rc;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int gp_opsfile_read(struct gp_opdefs *d, const char *path, gp_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	buf = gp_xmalloc(MAX_FILE + 1);
	n = fread(buf, 1, MAX_FILE + 1, f);
	fclose(f);
	if (n > MAX_FILE) {
		free(buf);
		return gp_err(err, GP_ERR_USAGE, "%s: over %u MiB: not an ops file", path, MAX_FILE >> 20);
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		free(buf);
		return gp_err(err, GP_ERR_USAGE, "%s: binary data (a NUL byte): not an ops file", path);
	}
	return gp_opsfile_parse(d, path, buf, err);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads path: a file, or a directory's *.ops files in name order, last
** first (a later file's rows are searched first). */
static int read_path(struct gp_opdefs *d, const char *path, bool optional, gp_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		if (optional && errno == ENOENT)
			return 0;
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return gp_opsfile_read(d, path, err);
	DIR *dir = opendir(path);
	if (!dir)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	char *names[MAX_FILES];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dir)) && n < MAX_FILES) {
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".ops") == 0 && e->d_name[0] != '.') {
			size_t need = strlen(path) + len + 2;
			names[n] = gp_xmalloc(need);
			snprintf(names[n], need, "%s/%s", path, e->d_name);
			n++;
		}
	}
	closedir(dir);
	qsort(names, n, sizeof(names[0]), cmp_str);
	int rc = 0;
	for (size_t i = n; i-- > 0;) {
		if (!rc)
			rc = gp_opsfile_read(d, names[i], err);
		/* the rows name their file: keep the path with the texts */
		*gp_vec_push(d->texts) = names[i];
	}
	return rc;
}

int gp_opdefs_init(struct gp_opdefs *d, const char *const *paths, const bool *optional, size_t n,
		   gp_error *err)
{
	int rc = 0;

	memset(d, 0, sizeof(*d));
	for (size_t i = n; i-- > 0 && !rc;)
		rc = read_path(d, paths[i], optional && optional[i], err);
	if (rc) {
		/* nothing of the user's: a half-read set of rows would be a guess */
		gp_opdefs_free(d);
		memset(d, 0, sizeof(*d));
	}
	gp_kfams_builtin(d);
	for (size_t i = 0; i < gp_noprules; i++)
		*gp_vec_push(d->rules) = gp_oprules[i];
	return rc;
}

void gp_opdefs_free(struct gp_opdefs *d)
{
	for (size_t i = 0; i < d->texts.n; i++)
		free(d->texts.v[i]);
	for (size_t i = 0; i < d->exprs.n; i++)
		free(d->exprs.v[i]);
	gp_vec_free(d->texts);
	gp_vec_free(d->exprs);
	gp_vec_free(d->kfams);
	gp_vec_free(d->rules);
	memset(d, 0, sizeof(*d));
}
