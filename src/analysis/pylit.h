/*
** A safe parser for the Python-literal subset that PyProf's `str(dict)`
** NVTX markers and PyTorch's emit_nvtx `sizes = [...]` suffixes use:
** dicts, lists, tuples, quoted strings with escapes, ints of any size,
** floats (incl. bare inf/nan), True/False/None.  No eval, no recursion
** beyond GP_PYL_MAX_DEPTH, never reads outside text[0..len).
**
** Ownership: a gp_pyl_doc owns its node array (a caller-supplied buffer
** first, a heap array once that is full, released by gp_pyl_free()); nodes
** never own text: strings are (offset, length) spans into the parsed text,
** which the caller keeps alive while it reads the nodes.
**
** The tree is flat: nodes live in d->nodes and refer to each other by
** index, 0 meaning "none" (node 0 is a sentinel, never a value).  A
** container's children are first, then next, next...; a dict's children
** alternate key, value.
*/
#ifndef GP_PYLIT_H
#define GP_PYLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gp_pyl_type {
	GP_PYL_NONE,    /* None */
	GP_PYL_BOOL,    /* True/False: v.i = 1/0 */
	GP_PYL_INT,     /* v.i; clamped to int64 with GP_PYL_OVERFLOW */
	GP_PYL_FLOAT,   /* v.f; also bare inf, -inf, nan */
	GP_PYL_STR,     /* raw text at off, len bytes (escapes undecoded) */
	GP_PYL_LIST,    /* [a, b] */
	GP_PYL_TUPLE,   /* (a, b), (a,), () */
	GP_PYL_DICT,    /* {k: v}: children alternate key, value */
};

#define GP_PYL_MAX_DEPTH 64          /* nesting of containers */
#define GP_PYL_MAX_NODES (1u << 22)  /* values in one parse */

/* gp_pyl.flags */
#define GP_PYL_OVERFLOW 1   /* INT did not fit int64; v.i is INT64_MIN/MAX */
#define GP_PYL_ESCAPED  2   /* STR contains backslash escapes */

struct gp_pyl {
	uint8_t type;      /* enum gp_pyl_type */
	uint8_t flags;     /* GP_PYL_* */
	uint32_t next;     /* next sibling in the parent, 0 = last */
	uint32_t first;    /* containers: first child, 0 = empty */
	uint32_t off;      /* STR: offset of the text after the opening quote */
	uint32_t len;      /* STR: raw bytes; containers: number of children */
	union {
		int64_t i;     /* BOOL, INT */
		double f;      /* FLOAT */
	} v;
};

typedef struct gp_pyl_doc {
	struct gp_pyl *nodes;
	uint32_t n, cap;
	bool heap;           /* nodes was allocated by us */
	const char *text;    /* the text last parsed */
	size_t len;
	size_t err_off;      /* on failure: byte offset of the problem */
	const char *err;     /* on failure: static message, NULL = none */
} gp_pyl_doc;

/* Prepares d to use buf[0..cap) for nodes (buf may be NULL, cap 0); grows
** onto the heap when a parse needs more.  Cheap: no allocation. */
void gp_pyl_init(gp_pyl_doc *d, struct gp_pyl *buf, uint32_t cap);
void gp_pyl_free(gp_pyl_doc *d);

/* Forgets every node (keeps the storage). */
void gp_pyl_reset(gp_pyl_doc *d);

/*
** Parses one literal from text[0..len), leading whitespace allowed, adding
** nodes to d (earlier nodes stay valid as indices).  With end == NULL the
** whole text must be that literal plus whitespace; otherwise parsing stops
** after the value and *end is the offset just after it.  Returns the root
** node index, or 0 on malformed input with d->err and d->err_off set.
** text need not be NUL-terminated.  Offsets in nodes are relative to text,
** so every parse into one doc must use the same text (d->text).
*/
uint32_t gp_pyl_parse(gp_pyl_doc *d, const char *text, size_t len, size_t *end);

/* Node i, or NULL for 0 / out of range. */
static inline const struct gp_pyl *gp_pyl_node(const gp_pyl_doc *d, uint32_t i)
{
	return i && i < d->n ? &d->nodes[i] : NULL;
}

/* In dict node `dict`, the value whose key is the string `key`; 0 if dict
** is not a dict or has no such key. */
uint32_t gp_pyl_get(const gp_pyl_doc *d, uint32_t dict, const char *key);

/* True if node i is a string equal to s (after decoding escapes). */
bool gp_pyl_str_is(const gp_pyl_doc *d, uint32_t i, const char *s);

/*
** Decodes string node i into buf (NUL-terminated, truncated to size-1
** bytes; \x, \u, \U and octal escapes become UTF-8).  Returns the full
** decoded length, which never exceeds the raw length (node.len), so a
** buffer of node.len + 1 bytes always suffices.  Non-strings give 0 and "".
*/
size_t gp_pyl_str(const gp_pyl_doc *d, uint32_t i, char *buf, size_t size);

/* A number node as a double (INT, FLOAT, BOOL); a string 'inf', '-inf' or
** 'nan' (PyProf writes non-finite floats so) also counts.  Returns false
** for anything else. */
bool gp_pyl_number(const gp_pyl_doc *d, uint32_t i, double *out);

#endif
