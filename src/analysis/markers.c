/*
** NVTX marker classification and extraction; see markers.h and
** docs/markers.md.  Dict markers go through the Python-literal parser
** (pylit.c) with a node buffer on the stack; emit_nvtx ranges are split on
** their ", key = value" fields.
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "analysis/markers.h"
#include "util/alloc.h"
#include "analysis/pylit.h"

#define STACK_NODES 512

/* The first pat[0..pn) in s[0..n) (pn > 0), or NULL: memmem's answer,
** found by memchr for pat's first byte and a compare.  Marker names are
** tens of bytes, and glibc's memmem costs more to set up than that. */
static const char *find(const char *s, size_t n, const char *pat, size_t pn)
{
	const char *end = s + n;

	for (const char *p = s; pn <= (size_t)(end - p) &&
	     (p = memchr(p, pat[0], (size_t)(end - p) - pn + 1)) != NULL; p++)
		if (memcmp(p, pat, pn) == 0)
			return p;
	return NULL;
}

const char *gp_marker_kind_name(int kind)
{
	static const char *names[GP_MK__COUNT] = {
		"OTHER", "SKIP", "PYPROF", "LAYER", "TRACE", "REPR", "SEQ",
	};
	return kind >= 0 && kind < GP_MK__COUNT ? names[kind] : "?";
}

/* The substrings PyProf's binning tests, as bits of one pass's result. */
enum {
	P_CHECKPOINT = 1 << 0, P_MOD = 1 << 1, P_OP = 1 << 2, P_ARGS = 1 << 3, P_TYPE = 1 << 4,
	P_LAYER = 1 << 5, P_TRACE = 1 << 6, P_REPR = 1 << 7, P_SEQ = 1 << 8,
};

#define AT(lit) (len - i >= sizeof(lit) - 1 && memcmp(s + i, lit, sizeof(lit) - 1) == 0)

/* The binning's substring starting at s[i] (its bit), or 0.  Each starts
** with one of the eight bytes bin_substrings() looks for. */
static unsigned bin_at(const char *s, size_t len, size_t i)
{
	switch (s[i]) {
	case 'C': return AT("CheckpointFunctionBackward") ? P_CHECKPOINT : 0;
	case 'm': return AT("mod") ? P_MOD : 0;
	case 'o': return AT("op") ? P_OP : 0;
	case 'a': return AT("args") ? P_ARGS : 0;
	case 't': return AT("type") ? P_TYPE : AT("traceMarker") ? P_TRACE : 0;
	case 'l': return AT("layer:") ? P_LAYER : 0;
	case 's': return AT("strRepr") ? P_REPR : 0;
	case ',': return AT(", seq = ") ? P_SEQ : 0;
	}
	return 0;
}

/* Which of the binning's substrings s[0..len) contains: one pass over the
** text instead of a memmem per substring (every distinct NVTX text of a
** trace is binned, a million in a large PyProf run), looking only where
** a substring's first byte is (found 16 bytes at a time with SSE2). */
static unsigned bin_substrings(const char *s, size_t len)
{
	unsigned m = 0;
	size_t i = 0;

#ifdef __SSE2__
#define EQ(c) _mm_cmpeq_epi8(v, _mm_set1_epi8(c))
	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_or_si128(EQ('C'), EQ('m')), _mm_or_si128(EQ('o'), EQ('a'))),
					   _mm_or_si128(_mm_or_si128(EQ('t'), EQ('l')), _mm_or_si128(EQ('s'), EQ(','))));
		for (unsigned bits = (unsigned)_mm_movemask_epi8(hit); bits; bits &= bits - 1)
			m |= bin_at(s, len, i + (size_t)__builtin_ctz(bits));
	}
#undef EQ
#endif
	for (; i < len; i++)
		m |= bin_at(s, len, i);
	return m;
}
#undef AT

/* PyProf's binning of a text whose substrings are m (bin_substrings),
** substring tests only, first match wins. */
static uint8_t pyprof_bin(unsigned m)
{
	const unsigned pyprof = P_MOD | P_OP | P_ARGS | P_TYPE;

	if (m & P_CHECKPOINT)
		return GP_MK_SKIP;
	if ((m & pyprof) == pyprof)
		return GP_MK_PYPROF;
	if (m & P_LAYER)
		return GP_MK_LAYER;
	if (m & P_TRACE)
		return GP_MK_TRACE;
	if (m & P_REPR)
		return GP_MK_REPR;
	if (m & P_SEQ)
		return GP_MK_SEQ;
	return GP_MK_OTHER;
}

/* Interns string node i, decoding escapes (through a heap buffer only for
** long escaped strings). */
static gp_str intern_node(gp_trace *t, const gp_pyl_doc *d, uint32_t i)
{
	const struct gp_pyl *v = gp_pyl_node(d, i);
	char stack[512];

	if (!v || v->type != GP_PYL_STR)
		return 0;
	if (!(v->flags & GP_PYL_ESCAPED))
		return gp_strtab_intern_n(&t->strs, d->text + v->off, v->len);
	char *buf = v->len < sizeof(stack) ? stack : gp_xmalloc(v->len + 1);
	size_t n = gp_pyl_str(d, i, buf, v->len + 1);
	gp_str id = gp_strtab_intern_n(&t->strs, buf, n);
	if (buf != stack)
		free(buf);
	return id;
}

/* Fills shape[] from a list/tuple of ints; returns false if something was
** lost (non-int items, too many dims). */
static bool fill_dims(const gp_pyl_doc *d, uint32_t list, struct gp_arg *a)
{
	const struct gp_pyl *v = gp_pyl_node(d, list);
	bool ok = true;

	a->ndim = 0;
	if (!v || (v->type != GP_PYL_LIST && v->type != GP_PYL_TUPLE))
		return false;
	for (uint32_t k = v->first; k; k = d->nodes[k].next) {
		const struct gp_pyl *e = &d->nodes[k];
		double f;
		if (a->ndim == GP_MAX_DIMS) {
			ok = false;
			break;
		}
		if (e->type == GP_PYL_INT || e->type == GP_PYL_BOOL) {
			a->shape[a->ndim++] = e->v.i;
			if (e->flags & GP_PYL_OVERFLOW)
				ok = false;
		} else if (gp_pyl_number(d, k, &f) && isfinite(f) && f == trunc(f) &&
		           fabs(f) < 9.2e18) {
			a->shape[a->ndim++] = (int64_t)f;
		} else {
			ok = false;
		}
	}
	return ok;
}

/*
** One element of PyProf's 'args' list:
** {'name': N, 'type': 'tensor'|'ndarray', 'shape': (..), 'dtype': D} or
** {'name': N, 'type': T, 'value': V}.  Returns false if lossy.
*/
static bool add_arg(gp_trace *t, const gp_pyl_doc *d, uint32_t ad)
{
	char type[32], dtype[64];
	uint32_t val = gp_pyl_get(d, ad, "value");
	struct gp_arg *a = gp_vec_push(t->args);
	bool ok = true;

	a->name = intern_node(t, d, gp_pyl_get(d, ad, "name"));
	gp_pyl_str(d, gp_pyl_get(d, ad, "type"), type, sizeof(type));
	if (!strcmp(type, "tensor") || !strcmp(type, "ndarray")) {
		a->type = GP_ARG_TENSOR;
		gp_pyl_str(d, gp_pyl_get(d, ad, "dtype"), dtype, sizeof(dtype));
		a->dtype = (uint8_t)gp_dtype_parse(dtype);
		ok = fill_dims(d, gp_pyl_get(d, ad, "shape"), a);
	} else if (!strcmp(type, "int") || !strcmp(type, "float") ||
	           !strcmp(type, "bool")) {
		a->type = type[0] == 'i' ? GP_ARG_INT : type[0] == 'f' ? GP_ARG_FLOAT : GP_ARG_BOOL;
		const struct gp_pyl *v = gp_pyl_node(d, val);
		ok = gp_pyl_number(d, val, &a->value) && !(v->flags & GP_PYL_OVERFLOW);
	} else if (!strcmp(type, "str")) {
		a->type = GP_ARG_STR;
		a->sval = intern_node(t, d, val);
		ok = gp_pyl_node(d, val) && d->nodes[val].type == GP_PYL_STR;
	} else if (!strcmp(type, "NoneType")) {
		a->type = GP_ARG_NULL;
	} else if (!strcmp(type, "list") || !strcmp(type, "tuple")) {
		a->type = GP_ARG_LIST;
		ok = fill_dims(d, val, a);
	} else {
		/* a type PyProf does not record: keep its name */
		a->type = GP_ARG_NONE;
		a->sval = intern_node(t, d, gp_pyl_get(d, ad, "type"));
		ok = false;
	}
	return ok;
}

static void parse_pyprof(gp_trace *t, const gp_pyl_doc *d, uint32_t root,
                         struct gp_marker *m)
{
	uint32_t args = gp_pyl_get(d, root, "args");
	const struct gp_pyl *v = gp_pyl_node(d, args);

	m->kind = GP_MK_PYPROF;
	m->mod = intern_node(t, d, gp_pyl_get(d, root, "mod"));
	m->op = intern_node(t, d, gp_pyl_get(d, root, "op"));
	m->args_first = (uint32_t)t->args.n;
	if (!v || (v->type != GP_PYL_LIST && v->type != GP_PYL_TUPLE)) {
		m->lossy = true;
		return;
	}
	for (uint32_t k = v->first; k; k = d->nodes[k].next) {
		if (d->nodes[k].type != GP_PYL_DICT) {
			m->lossy = true;
			continue;
		}
		if (!add_arg(t, d, k))
			m->lossy = true;
	}
	m->args_count = (uint32_t)(t->args.n - m->args_first);
}

bool gp_marker_frame_hidden(const char *frame)
{
	static const char *hidden[] = {
		"torch/nn/modules/", "nn/functional.py", "torch/tensor.py",
		"autograd/__init__.py", "_jit_internal.py", "nvmarker.py",
		"apex/optimizers/", "torch/_utils.py", "torch/optim/",
	};
	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
		if (strstr(frame, hidden[i]))
			return true;
	return false;
}

/*
** Walks the 'traceMarker' list of a parsed dict: calls back with each
** frame decoded (NUL-terminated) and whether PyProf hides it.  Returns
** the number of string frames; *lossy is set for non-string items.
*/
typedef void frame_fn(void *ctx, const char *frame, size_t len, bool hidden);

static uint32_t walk_frames(const gp_pyl_doc *d, uint32_t list, frame_fn *fn,
                            void *ctx, bool *lossy)
{
	const struct gp_pyl *v = gp_pyl_node(d, list);
	char stack[1024];
	uint32_t n = 0;

	if (!v || (v->type != GP_PYL_LIST && v->type != GP_PYL_TUPLE)) {
		*lossy = true;
		return 0;
	}
	for (uint32_t k = v->first; k; k = d->nodes[k].next) {
		const struct gp_pyl *e = &d->nodes[k];
		if (e->type != GP_PYL_STR) {
			*lossy = true;
			continue;
		}
		char *buf = e->len < sizeof(stack) ? stack : gp_xmalloc(e->len + 1);
		size_t len = gp_pyl_str(d, k, buf, e->len + 1);
		fn(ctx, buf, len, gp_marker_frame_hidden(buf));
		if (buf != stack)
			free(buf);
		n++;
	}
	return n;
}

struct trace_acc {
	gp_trace *t;
	gp_str last_raw, last_kept;
	char *join;          /* kept frames joined with '\n' */
	size_t jlen, jcap;
	char stack[2048];
};

static void trace_frame(void *ctx, const char *frame, size_t len, bool hidden)
{
	struct trace_acc *a = ctx;
	gp_str id = gp_strtab_intern_n(&a->t->strs, frame, len);

	a->last_raw = id;
	if (hidden)
		return;
	a->last_kept = id;
	size_t need = a->jlen + (a->jlen ? 1 : 0) + len;
	if (need > a->jcap) {
		size_t ncap = need * 2;
		char *nj = gp_xmalloc(ncap);
		memcpy(nj, a->join, a->jlen);
		if (a->join != a->stack)
			free(a->join);
		a->join = nj;
		a->jcap = ncap;
	}
	if (a->jlen)
		a->join[a->jlen++] = '\n';
	memcpy(a->join + a->jlen, frame, len);
	a->jlen += len;
}

static void parse_trace(gp_trace *t, const gp_pyl_doc *d, uint32_t root,
                        struct gp_marker *m)
{
	struct trace_acc a;

	a.t = t;
	a.last_raw = a.last_kept = 0;
	a.join = a.stack;
	a.jlen = 0;
	a.jcap = sizeof(a.stack);
	m->kind = GP_MK_TRACE;
	m->nframes = walk_frames(d, gp_pyl_get(d, root, "traceMarker"), trace_frame,
	                         &a, &m->lossy);
	m->trace = a.last_kept;
	m->trace_raw = a.last_raw;
	m->trace_list = gp_strtab_intern_n(&t->strs, a.join, a.jlen);
	m->func_stack = intern_node(t, d, gp_pyl_get(d, root, "funcStack"));
	if (a.join != a.stack)
		free(a.join);
}

struct frames_out {
	gp_trace *t;
	bool filter;
	gp_str *out;
	size_t cap, n;
};

static void collect_frame(void *ctx, const char *frame, size_t len, bool hidden)
{
	struct frames_out *o = ctx;

	if (o->filter && hidden)
		return;
	if (o->n < o->cap)
		o->out[o->n] = gp_strtab_intern_n(&o->t->strs, frame, len);
	o->n++;
}

long gp_marker_trace_frames(gp_trace *t, const char *text, size_t len, bool filter,
                            gp_str *out, size_t cap)
{
	struct gp_pyl stack[STACK_NODES];
	struct frames_out o = {t, filter, out, cap, 0};
	gp_pyl_doc d;
	bool lossy = false;
	long ret = -1;

	gp_pyl_init(&d, stack, STACK_NODES);
	uint32_t root = gp_pyl_parse(&d, text, len, NULL);
	uint32_t list = gp_pyl_get(&d, root, "traceMarker");
	if (list) {
		walk_frames(&d, list, collect_frame, &o, &lossy);
		ret = (long)o.n;
	}
	gp_pyl_free(&d);
	return ret;
}

/* Parses a dict marker; returns false if it is not a dict of a known
** shape (the caller then tries the text forms). */
static bool parse_dict(gp_trace *t, gp_pyl_doc *d, uint32_t root, struct gp_marker *m)
{
	if (gp_pyl_get(d, root, "mod") && gp_pyl_get(d, root, "op") &&
	    gp_pyl_get(d, root, "args")) {
		parse_pyprof(t, d, root, m);
		return true;
	}
	if (gp_pyl_get(d, root, "traceMarker")) {
		parse_trace(t, d, root, m);
		return true;
	}
	if (gp_pyl_get(d, root, "strRepr")) {
		m->kind = GP_MK_REPR;
		m->mod = intern_node(t, d, gp_pyl_get(d, root, "mod"));
		m->repr = intern_node(t, d, gp_pyl_get(d, root, "strRepr"));
		return true;
	}
	return false;
}

static void parse_layer(gp_trace *t, const char *s, size_t len, struct gp_marker *m)
{
	const char *l = find(s, len, "layer:", 6);
	const char *end = s + len;

	m->kind = GP_MK_LAYER;
	m->name = gp_strtab_intern_n(&t->strs, l + 6, (size_t)(end - (l + 6)));
	/* m.split(":")[1] */
	const char *c1 = memchr(s, ':', len);
	const char *c2 = memchr(c1 + 1, ':', (size_t)(end - (c1 + 1)));
	m->layer = gp_strtab_intern_n(&t->strs, c1 + 1, (size_t)((c2 ? c2 : end) - (c1 + 1)));
}

/* ---- emit_nvtx ranges ---- */

enum { F_SEQ, F_OPID, F_SIZES, F_INPUTS };

#define KEY(lit) lit, sizeof(lit) - 1
static const struct {
	const char *key;
	uint8_t len, field, form;
} seq_keys[] = {
	{KEY(", seq = "), F_SEQ, GP_SEQ_MODERN},
	{KEY(", seq="), F_SEQ, GP_SEQ_LEGACY},
	{KEY(", stashed seq="), F_SEQ, GP_SEQ_STASHED},
	{KEY(", op_id = "), F_OPID, 0},
	{KEY(", sizes = "), F_SIZES, 0},
	{KEY(", input_op_ids = "), F_INPUTS, 0},
};
#undef KEY

/* The seq_keys entry starting at s[pos], or -1. */
static int field_at(const char *s, size_t len, size_t pos)
{
	/* every key starts ", " and a letter */
	if (len - pos < 3 || s[pos + 1] != ' ')
		return -1;
	for (size_t k = 0; k < sizeof(seq_keys) / sizeof(seq_keys[0]); k++) {
		size_t n = seq_keys[k].len;
		if (len - pos >= n && s[pos + 2] == seq_keys[k].key[2] && memcmp(s + pos, seq_keys[k].key, n) == 0)
			return (int)k;
	}
	return -1;
}

/* Offset of the first emit_nvtx field, or len if there is none. */
static size_t first_field(const char *s, size_t len)
{
	for (const char *c = memchr(s, ',', len); c; c = memchr(c + 1, ',', len - (size_t)(c + 1 - s)))
		if (field_at(s, len, (size_t)(c - s)) >= 0)
			return (size_t)(c - s);
	return len;
}

bool gp_marker_is_emit_nvtx(const char *text, size_t len)
{
	size_t f = first_field(text, len);

	return f > 0 && f < len;
}

bool gp_marker_is_backward(const char *name, size_t len)
{
	/* last namespace component */
	for (size_t i = len; i >= 2; i--)
		if (name[i - 1] == ':' && name[i - 2] == ':') {
			name += i;
			len -= i;
			break;
		}
	size_t e = len;
	while (e > 0 && name[e - 1] >= '0' && name[e - 1] <= '9')
		e--;
	if (e >= 8 && (memcmp(name + e - 8, "Backward", 8) == 0 ||
	               memcmp(name + e - 8, "backward", 8) == 0))
		return true;
	if (len >= 9 && memcmp(name + len - 9, "Backwards", 9) == 0)
		return true;
	return find(name, len, "_backward_", 10) != NULL;
}

/* Removes every non-overlapping occurrence of pat, left to right, like
** Python's str.replace(pat, ""). */
static size_t remove_all(char *s, size_t n, const char *pat)
{
	size_t pn = strlen(pat), o;
	const char *at = find(s, n, pat, pn);

	if (!at)
		return n;
	o = (size_t)(at - s);   /* what precedes the first occurrence stays */
	for (size_t i = o; i < n; ) {
		if (i + pn <= n && memcmp(s + i, pat, pn) == 0) {
			i += pn;
		} else {
			s[o++] = s[i++];
		}
	}
	return o;
}

const char *gp_marker_fwd_op(const char *name, size_t len, char *buf, size_t size)
{
	static const char *pats[] = {
		"torch", "autograd", "_backward", "::", "jit", "(anonymous namespace)",
	};

	if (!size)
		return buf;
	if (len >= 6 && memcmp(name, "aten::", 6) == 0) {
		name += 6;
		len -= 6;
	}
	if (len > size - 1)
		len = size - 1;
	memcpy(buf, name, len);
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		len = remove_all(buf, len, pats[i]);
	const char *b = find(buf, len, "Backward", 8);
	if (b)
		len = (size_t)(b - buf);
	buf[len] = 0;
	return buf;
}

/* An int value at s[pos..len) (seq, op_id); returns false if malformed.
** Up to 18 plain digits (what emit_nvtx writes) are read here; anything
** else goes through the Python-literal parser, which reads those the same. */
static bool seq_int(gp_pyl_doc *d, const char *s, size_t len, size_t *pos,
                    int64_t *out, bool *lossy)
{
	size_t end = *pos;
	int64_t v0 = 0;

	while (end < len && end - *pos < 18 && s[end] >= '0' && s[end] <= '9')
		v0 = v0 * 10 + (s[end++] - '0');
	if (end > *pos && (end == len || (s[end] != '.' && s[end] != 'e' && s[end] != 'E' &&
					  !(s[end] >= '0' && s[end] <= '9') && s[end] != '_' &&
					  !(s[end] >= 'a' && s[end] <= 'z') && !(s[end] >= 'A' && s[end] <= 'Z')))) {
		*out = v0;
		*pos = end;
		return true;
	}
	gp_pyl_reset(d);
	uint32_t v = gp_pyl_parse(d, s + *pos, len - *pos, &end);
	if (!v || d->nodes[v].type != GP_PYL_INT) {
		if (!d->err) {
			d->err = "expected an integer";
			d->err_off = 0;
		}
		d->err_off += *pos;
		return false;
	}
	*out = d->nodes[v].v.i;
	if (d->nodes[v].flags & GP_PYL_OVERFLOW)
		*lossy = true;
	*pos += end;
	return true;
}

/* ", sizes = [[..], [], ..]": one arg per input. */
static void add_sizes(gp_trace *t, const gp_pyl_doc *d, uint32_t list, struct gp_marker *m)
{
	if (!m->args_count)
		m->args_first = (uint32_t)t->args.n;
	for (uint32_t k = d->nodes[list].first; k; k = d->nodes[k].next) {
		struct gp_arg *a = gp_vec_push(t->args);
		if (!fill_dims(d, k, a))
			m->lossy = true;
		a->type = a->ndim ? GP_ARG_TENSOR : GP_ARG_NONE;
		m->args_count++;
	}
}

/* The value of ", sizes = " as emit_nvtx writes it, "[[2, 3], [], [4]]":
** lists of plain ints (up to 18 digits), ", " between items, at most
** GP_MAX_DIMS a list.  Adds one arg per list as add_sizes() does from the
** literal parser's nodes and returns the bytes read (the parser's end);
** returns 0 with t->args and m as they were for any other text, which the
** literal parser then reads.  Most texts of a PyProf run are of this form,
** and building a node per int was the largest part of their parse. */
static size_t quick_sizes(gp_trace *t, const char *s, size_t len, struct gp_marker *m)
{
	size_t i = 1, mark = t->args.n;
	uint32_t first = m->args_first, count = m->args_count;

	/* shorter than the parser's node limit: it would not stop either */
	if (len < 2 || len >= GP_PYL_MAX_NODES - 2 || s[0] != '[')
		return 0;
	if (!m->args_count)
		m->args_first = (uint32_t)t->args.n;
	if (s[1] == ']')
		return 2;
	for (;;) {
		if (i >= len || s[i] != '[')
			goto other;
		struct gp_arg *a = gp_vec_push(t->args);
		if (++i < len && s[i] == ']') {
			i++;
		} else {
			for (;;) {
				size_t d0 = i;
				int64_t v = 0;
				while (i < len && i - d0 < 18 && s[i] >= '0' && s[i] <= '9')
					v = v * 10 + (s[i++] - '0');
				if (i == d0 || i >= len || a->ndim == GP_MAX_DIMS)
					goto other;
				a->shape[a->ndim++] = v;
				if (s[i] == ']') {
					i++;
					break;
				}
				if (len - i < 2 || s[i] != ',' || s[i + 1] != ' ')
					goto other;
				i += 2;
			}
		}
		a->type = a->ndim ? GP_ARG_TENSOR : GP_ARG_NONE;
		m->args_count++;
		if (i < len && s[i] == ']')
			return i + 1;
		if (len - i < 2 || s[i] != ',' || s[i + 1] != ' ')
			goto other;
		i += 2;
	}
other:
	t->args.n = mark;
	m->args_first = first;
	m->args_count = count;
	return 0;
}

/* PyProf's backward test, "Backward, seq = ", "backward, seq = " or
** "Backward0, seq = " in the text: each ", seq = " found once, with what
** precedes it compared (one scan instead of three). */
static bool pyprof_backward(const char *s, size_t len)
{
	static const char key[] = ", seq = ";
	const char *end = s + len;

	for (const char *p = s; (p = find(p, (size_t)(end - p), key, sizeof(key) - 1)); p++) {
		size_t before = (size_t)(p - s);
		if (before >= 8 && (memcmp(p - 8, "Backward", 8) == 0 || memcmp(p - 8, "backward", 8) == 0))
			return true;
		if (before >= 9 && memcmp(p - 9, "Backward0", 9) == 0)
			return true;
	}
	return false;
}

/* An emit_nvtx range "NAME, seq = N, op_id = M, sizes = [...]": its
** fields from name_end on into m; subs: the text's bin_substrings().
** Returns 0, or -1 with m->err and m->err_off set at the first field that
** does not parse (the fields before it are kept). */
static int parse_seq(gp_trace *t, const char *s, size_t len, size_t name_end, unsigned subs,
                     struct gp_marker *m)
{
	struct gp_pyl stack[STACK_NODES];
	gp_pyl_doc d;
	size_t pos = name_end;
	int ret = 0;
	char fwd[256];

	m->kind = GP_MK_SEQ;
	m->name = gp_strtab_intern_n(&t->strs, s, name_end);
	m->bwd = gp_marker_is_backward(s, name_end);
	m->pyprof_bwd = (subs & P_SEQ) && pyprof_backward(s, len);   /* it needs ", seq = " */
	if (m->bwd)
		m->fwd_op = gp_intern(t, gp_marker_fwd_op(s, name_end, fwd, sizeof(fwd)));
	gp_pyl_init(&d, stack, STACK_NODES);
	while (pos < len) {
		int k = field_at(s, len, pos);
		if (k < 0) {
			m->err = "unexpected text after an emit_nvtx field";
			m->err_off = (uint32_t)pos;
			ret = -1;
			break;
		}
		pos += seq_keys[k].len;
		bool ok = true;
		switch (seq_keys[k].field) {
		case F_SEQ:
			m->seq_form = seq_keys[k].form;
			ok = seq_int(&d, s, len, &pos, &m->seq, &m->lossy);
			break;
		case F_OPID:
			ok = seq_int(&d, s, len, &pos, &m->op_id, &m->lossy);
			break;
		case F_SIZES:
		case F_INPUTS: {
			size_t end;
			if (seq_keys[k].field == F_SIZES && (end = quick_sizes(t, s + pos, len - pos, m))) {
				pos += end;
				break;
			}
			gp_pyl_reset(&d);
			uint32_t v = gp_pyl_parse(&d, s + pos, len - pos, &end);
			if (v && d.nodes[v].type != GP_PYL_LIST) {
				d.err = "expected a list";
				d.err_off = 0;
				v = 0;
			}
			if (!v) {
				d.err_off += pos;
				ok = false;
				break;
			}
			if (seq_keys[k].field == F_SIZES)
				add_sizes(t, &d, v, m);
			else
				m->n_input_op_ids = d.nodes[v].len;
			pos += end;
			break;
		}
		}
		if (!ok) {
			m->err = d.err;
			m->err_off = (uint32_t)d.err_off;
			ret = -1;
			break;
		}
	}
	gp_pyl_free(&d);
	return ret;
}

/* The file name of a frame ("/a/b/train.py:12" -> "train.py:12"). */
static const char *frame_basename(const char *frame)
{
	const char *slash = strrchr(frame, '/');
	return slash ? slash + 1 : frame;
}

gp_str gp_marker_label(gp_trace *t, const char *text, size_t len, bool *per_op)
{
	enum { REPR_MAX = 80 };
	struct gp_marker m;
	char buf[REPR_MAX + 16];
	size_t nargs = t->args.n;

	gp_marker_parse(t, text, len, &m);
	/* The label needs none of the args the parse appended: dropping them
	** keeps `ranges` on a million distinct PyProf markers from holding
	** two million args (369 MB on the 1M-kernel nsys trace). */
	t->args.n = nargs;
	*per_op = m.kind == GP_MK_PYPROF || m.kind == GP_MK_TRACE || m.kind == GP_MK_REPR;
	switch (m.kind) {
	case GP_MK_PYPROF:
		if (!m.mod)
			return m.op;
		snprintf(buf, sizeof(buf), "%s.%s", gp_s(t, m.mod), gp_s(t, m.op));
		return gp_intern(t, buf);
	case GP_MK_TRACE: {
		gp_str frame = m.trace ? m.trace : m.trace_raw;
		snprintf(buf, sizeof(buf), "trace%s%s", frame ? " " : "",
			 frame ? frame_basename(gp_s(t, frame)) : "");
		return gp_intern(t, buf);
	}
	case GP_MK_REPR: {
		const char *mod = m.mod ? gp_s(t, m.mod) : "", *repr = m.repr ? gp_s(t, m.repr) : "";
		if (strlen(mod) + strlen(repr) + 2 <= REPR_MAX)
			snprintf(buf, sizeof(buf), "%s(%s)", mod, repr);
		else
			snprintf(buf, sizeof(buf), "%.*s(...)", REPR_MAX - 5, mod);
		return gp_intern(t, buf);
	}
	case GP_MK_SEQ:
		return m.name;
	default:
		return 0;
	}
}

int gp_marker_parse(gp_trace *t, const char *text, size_t len, struct gp_marker *m)
{
	memset(m, 0, sizeof(*m));
	m->seq = -1;
	m->op_id = -1;
	unsigned subs = bin_substrings(text, len);
	m->pyprof_kind = pyprof_bin(subs);
	if (len >= UINT32_MAX) {
		m->err = "marker too long";
		return -1;
	}
	if (m->pyprof_kind == GP_MK_SKIP) {
		m->kind = GP_MK_SKIP;
		return 0;
	}

	size_t ws = 0;
	while (ws < len && (text[ws] == ' ' || text[ws] == '\t' || text[ws] == '\n'))
		ws++;
	if (ws < len && text[ws] == '{') {
		struct gp_pyl stack[STACK_NODES];
		gp_pyl_doc d;
		size_t args_mark = t->args.n;
		int ret = 0;

		gp_pyl_init(&d, stack, STACK_NODES);
		uint32_t root = gp_pyl_parse(&d, text, len, NULL);
		if (root && parse_dict(t, &d, root, m)) {
			gp_pyl_free(&d);
			return 0;
		}
		if (!root && (m->pyprof_kind == GP_MK_PYPROF || m->pyprof_kind == GP_MK_TRACE ||
		              m->pyprof_kind == GP_MK_REPR)) {
			m->err = d.err;
			m->err_off = (uint32_t)d.err_off;
			ret = -1;
		}
		t->args.n = args_mark;
		gp_pyl_free(&d);
		if (ret)
			return ret;
	}
	if (subs & P_LAYER) {
		parse_layer(t, text, len, m);
		return 0;
	}
	size_t f = first_field(text, len);
	if (f < len)
		return parse_seq(t, text, len, f, subs, m);
	m->kind = GP_MK_OTHER;
	m->name = gp_strtab_intern_n(&t->strs, text, len);
	return 0;
}

/* ---- PyProf's seq-marker list handling ---- */

/* Character i of the virtual string a + b + c, or -1 past its end. */
static int key_at(const char *a, size_t an, const char *b, size_t bn,
                  const char *c, size_t cn, size_t i)
{
	if (i < an)
		return (unsigned char)a[i];
	i -= an;
	if (i < bn)
		return (unsigned char)b[i];
	i -= bn;
	return i < cn ? (unsigned char)c[i] : -1;
}

/* PyProf's seqcompare key: str(seq) + name + ", seq". */
static int seq_cmp(const gp_trace *t, const struct gp_marker *x, const struct gp_marker *y)
{
	char xs[24], ys[24];
	int xn = snprintf(xs, sizeof(xs), "%" PRId64, x->seq);
	int yn = snprintf(ys, sizeof(ys), "%" PRId64, y->seq);
	const char *xname = gp_s(t, x->name), *yname = gp_s(t, y->name);
	size_t xl = strlen(xname), yl = strlen(yname);

	for (size_t i = 0; ; i++) {
		int a = key_at(xs, (size_t)xn, xname, xl, ", seq", 5, i);
		int b = key_at(ys, (size_t)yn, yname, yl, ", seq", 5, i);
		if (a != b)
			return a < b ? -1 : 1;
		if (a < 0)
			return 0;
	}
}

size_t gp_marker_seq_sort(const gp_trace *t, struct gp_marker *ms, size_t n)
{
	size_t out = 0;

	/* drop duplicates, keeping the first */
	for (size_t i = 0; i < n; i++) {
		bool dup = false;
		for (size_t j = 0; j < out && !dup; j++)
			dup = ms[j].name == ms[i].name && ms[j].seq == ms[i].seq;
		if (!dup)
			ms[out++] = ms[i];
	}
	/* stable insertion sort */
	for (size_t i = 1; i < out; i++) {
		struct gp_marker x = ms[i];
		size_t j = i;
		while (j > 0 && seq_cmp(t, &ms[j - 1], &x) > 0) {
			ms[j] = ms[j - 1];
			j--;
		}
		ms[j] = x;
	}
	return out;
}

size_t gp_marker_seq_prune(const gp_trace *t, struct gp_marker *ms, size_t n)
{
	size_t out = n ? 1 : 0;
	gp_str prev_name = n ? ms[0].name : 0;
	int64_t prev_seq = n ? ms[0].seq : 0;

	for (size_t i = 1; i < n; i++) {
		const char *name = gp_s(t, ms[i].name), *pname = gp_s(t, prev_name);
		bool similar = strstr(pname, name) || strstr(name, pname);
		bool drop = ms[i].seq == prev_seq && similar;
		/* PyProf compares with the previous element of the input, kept or not */
		prev_name = ms[i].name;
		prev_seq = ms[i].seq;
		if (!drop)
			ms[out++] = ms[i];
	}
	return out;
}

const char *gp_marker_module(const char *text)
{
	static const char prefix[] = "nn.Module: ";

	return strncmp(text, prefix, sizeof(prefix) - 1) == 0 && text[sizeof(prefix) - 1]
		       ? text + sizeof(prefix) - 1
		       : NULL;
}

void gp_marker_labels_init(struct gp_marker_labels *c, gp_trace *t)
{
	c->t = t;
	c->n = t->strs.n + 1;
	c->label = gp_xcalloc(c->n, sizeof(*c->label));
	c->per_op = gp_xcalloc(c->n, 1);
}

gp_str gp_marker_labels_get(const struct gp_marker_labels *c, gp_str text, bool *per_op)
{
	bool po = false;

	if (text && text < c->n && !c->label[text]) {
		gp_str lab = gp_marker_label(c->t, gp_s(c->t, text), gp_strtab_len(&c->t->strs, text), &po);
		c->label[text] = lab ? lab : text;
		c->per_op[text] = po;
	}
	if (per_op)
		*per_op = text && text < c->n && c->per_op[text];
	return text && text < c->n ? c->label[text] : text;
}

void gp_marker_labels_free(struct gp_marker_labels *c)
{
	free(c->label);
	free(c->per_op);
	memset(c, 0, sizeof(*c));
}
