/*
** What the XPlane reader's two files share: xplane.c reads the file and
** its device planes, xplane_host.c the host plane and the attribution of
** kernels to XLA ops (docs/trace-model.md, "XPlane").
**
** Ownership: a struct xp borrows the trace it fills and the decoded
** XSpace (freed by xplane.c after the read); its own tables (by_corr,
** the kernel's HLO facts) are freed by xp_free().
*/
#ifndef GP_XPLANE_INT_H
#define GP_XPLANE_INT_H

#include <stdint.h>

#include "xplane.pb-c.h"
#include "model/trace.h"
#include "util/u64map.h"

typedef Gpuprof__Xplane__XPlane xp_plane;
typedef Gpuprof__Xplane__XLine xp_line;
typedef Gpuprof__Xplane__XEvent xp_event;
typedef Gpuprof__Xplane__XStat xp_stat;

/* The stats the reader reads, by name (stat_metadata). */
enum xp_key {
	XK_NONE, XK_CORR, XK_KERNEL_DETAILS, XK_MEMCPY_DETAILS, XK_HLO_OP, XK_HLO_MODULE,
	XK_NAME, XK_TF_OP, XK_LONG_NAME, XK_STEP_NUM, XK_GROUP_ID, XK_DEVICE_ID,
	XK_FLOPS, XK_BYTES_ACCESSED, XK_VENDOR, XK_CLOCK, XK_CORES, XK_MEM_BW,
	XK_MEM_SIZE, XK_CC_MAJOR, XK_CC_MINOR, XK_DEVICE_NAME, XK_ALLOCATOR, XK_ALLOC_BYTES,
	XK_BYTES_ALLOCATED, XK_BYTES_RESERVED, XK_ADDR, XK__COUNT
};

/* One plane's names: event and stat metadata by id. */
struct xp_names {
	const xp_plane *p;
	gp_u64map ev;           /* event metadata id -> index into p->event_metadata */
	gp_u64map st;           /* stat metadata id -> index into p->stat_metadata */
	gp_u64map key;          /* stat metadata id -> enum xp_key */
};

/* What one event's stats say (the event's own, then its metadata's). */
struct xp_facts {
	const xp_stat *s[XK__COUNT];   /* NULL = not stated */
	const struct xp_names *nm;
};

/* What an XLA op launch says about the op, kept per correlation id. */
struct xp_hlo {
	gp_str op, module, stack;  /* hlo_op, hlo_module, name stack; 0 = none */
	uint32_t work;             /* 1 + index into t->op_work (xplane_hlo.c), 0 = unpriced */
};

struct xp {
	gp_trace *t;
	const char *path;
	uint32_t pid;
	gp_u64map hlo_at;          /* correlation id -> index into hlo */
	GP_VEC(struct xp_hlo) hlo;
	uint32_t next_tid;         /* for lines whose id is no thread id */
	uint32_t mem_order;        /* allocator events read so far */
	/* events whose stats name a JAX name stack ("name"), a TensorFlow
	** op (tf_op other than XLA's "XlaModule:"): the framework */
	size_t jax_stacks, tf_ops;
};

void xp_names_init(struct xp_names *nm, const xp_plane *p);
void xp_names_free(struct xp_names *nm);
/* The event's name (metadata name, else display name); "" when unknown. */
const char *xp_event_name(const struct xp_names *nm, const xp_event *e);
/* Gathers e's stats (the event's own win over its metadata's). */
void xp_facts_of(const struct xp_names *nm, const xp_event *e, struct xp_facts *f);
/* A stat as text (a string, a ref to a stat metadata's name), or NULL. */
const char *xp_stat_text(const struct xp_facts *f, enum xp_key k);
/* A stat as an unsigned number; false when absent or not a number. */
bool xp_stat_u64(const struct xp_facts *f, enum xp_key k, uint64_t *v);
/* An event's start and end in ns: the line's timestamp_ns plus offset_ps. */
void xp_event_span(const xp_line *l, const xp_event *e, gp_ns *start, gp_ns *end);

/* Records what a launch's stats say about its XLA op (first one wins). */
void xp_hlo_note(struct xp *x, uint64_t corr, const struct xp_facts *f);
/* Reads the host plane: threads, API calls, TraceMe ranges. */
void xp_read_host(struct xp *x, const xp_plane *p);
/* Prices the XLA ops the kernels name from the HloProtos of the
** `/host:metadata` plane p into t->op_work and their struct xp_hlo's
** work (after the device and host planes); messages decoded with pa. */
void xp_read_hlo(struct xp *x, const xp_plane *p, ProtobufCAllocator *pa);
/* The ranges that name each kernel's XLA module, name stack and HLO op
** (after both kinds of plane are read). */
void xp_attribute(struct xp *x);
void xp_free(struct xp *x);

#endif
