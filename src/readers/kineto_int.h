/*
** The Kineto reader's insides, shared by its files and private to them:
**
**   kineto.c           the gp_reader: probe, load, the sequential parse
**   kineto_keys.c      which key is which (top level, event, args, ...)
**   kineto_values.c    raw JSON number text to ns, pid/tid (integers: jsonutil.c)
**   kineto_parse.c     the state machine: yajl callbacks, one event at a time
**   kineto_event.c     a finished event -> a model record, one function per kind
**   kineto_finish.c    after the parse: base time, pids, versions, notes
**   kineto_flows.c     fwdbwd flows tie backward ops to forward ones
**   kineto_parallel.c  large plain files parsed in parts on several threads
**   kineto_window.c    the read window: a pre-scan for its span, the test
**
** docs/kineto.md describes the format and the field mapping.
**
** Ownership: a kineto_parser fills the trace it points at (the caller's,
** or a part's own in the parallel parse) and owns only its scratch state
** (the event being read, the capture buffer, flows, counters), which
** kineto_parser_free() releases.
*/
#ifndef GP_KINETO_INT_H
#define GP_KINETO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "util/error.h"
#include "util/u64map.h"
#include "model/trace.h"
#include "readers/jsonscan.h"
#include "readers/jsonutil.h"
#include "readers/reader.h"

#define KINETO_CHUNK (256 * 1024)   /* bytes handed to yajl at a time */
#define KINETO_MAX_DEPTH 128
#define KINETO_MAX_SYNTH_IDS 4096
#define KINETO_MAX_PARTS 16         /* most threads a plain file is parsed on */
#define KINETO_MAX_SKIPPED 32       /* unknown categories named in the notes */
#define KINETO_GZIP_KEEP (64ull << 20)  /* inflated bytes a gzip window read keeps */

/* What the container at one depth is. */
enum ctx {
	C_NONE,      /* outside any container */
	C_TOP,       /* the top-level object */
	C_EVENTS,    /* traceEvents (or a bare top-level array) */
	C_EVENT,     /* one event object */
	C_ARGS,      /* event.args */
	C_DIM3,      /* args.grid / args.block */
	C_CAPTURE,   /* a value kept as raw JSON text (Input Dims ...) */
	C_DEVPROPS,  /* deviceProperties */
	C_DEVICE,    /* one deviceProperties entry */
	C_DIST,      /* distributedInfo */
	C_SKIP,      /* anything we do not read */
};

/* Keys we act on; K_NONE for every other key. */
enum key {
	K_NONE,
	/* top level */
	K_TRACE_EVENTS, K_BASE_TIME, K_DEVPROPS, K_DIST, K_META,
	/* event */
	K_NAME, K_CAT, K_PH, K_TS, K_DUR, K_PID, K_TID, K_ID, K_ARGS,
	/* args */
	K_DEVICE, K_CONTEXT, K_STREAM, K_CORR, K_EXT_ID, K_REGS, K_SMEM, K_GRID,
	K_BLOCK, K_BYTES, K_CBID, K_SEQ, K_FWD_TID, K_INPUT_DIMS, K_INPUT_TYPES,
	K_CONCRETE, K_CALL_STACK, K_GRAPH_ID, K_GRAPH_NODE, K_ARG_NAME,
	K_WAIT_EVENT, K_WAIT_STREAM, K_WAIT_RECORD, K_LAUNCH_KERNEL, K_MODULE_FQN, K_ANNOT_LAYER,
	/* args of collectives (record_param_comms, NCCL kernels) */
	K_COLL_NAME, K_COLL_IN, K_COLL_OUT, K_COLL_GROUP_SIZE, K_COLL_DTYPE, K_COLL_GROUP,
	K_COLL_SEQ, K_COLL_IN_SPLIT, K_COLL_OUT_SPLIT, K_COLL_RANKS,
	/* args of [memory] instants */
	K_MEM_BYTES, K_MEM_TOTAL_ALLOC, K_MEM_TOTAL_RESERVED, K_MEM_ADDR, K_MEM_DEV_ID,
	K_MEM_DEV_TYPE,
	/* deviceProperties entry */
	K_DEV_ID, K_DEV_NAME, K_DEV_MEM, K_DEV_MAJOR, K_DEV_MINOR, K_DEV_SMS, K_DEV_WARP,
	/* distributedInfo */
	K_RANK, K_WORLD, K_BACKEND, K_NCCL, K_PG_COUNT,
};

/* Event categories, old and new spellings folded together. */
enum cat {
	CAT_NONE, CAT_KERNEL, CAT_MEMCPY, CAT_MEMSET, CAT_RUNTIME, CAT_DRIVER,
	CAT_OLD_RUNTIME, CAT_CPU_OP, CAT_USER_ANNOT, CAT_GPU_ANNOT, CAT_PYTHON,
	CAT_SYNC, CAT_MTIA_RUNTIME, CAT_FWDBWD, CAT_NVTX, CAT_AC2G, CAT_IGNORED, CAT_OTHER,
	CAT__COUNT
};

/* Which fields the current event had. */
enum {
	H_DEVICE = 1 << 0, H_CONTEXT = 1 << 1, H_STREAM = 1 << 2, H_CORR = 1 << 3,
	H_SEQ = 1 << 4, H_FWD_TID = 1 << 5, H_GRID = 1 << 6, H_TS = 1 << 7,
	H_DUR = 1 << 8, H_PID = 1 << 9, H_TID = 1 << 10, H_ID = 1 << 11,
	H_MEM_BYTES = 1 << 12, H_MEM_TOTAL_ALLOC = 1 << 13, H_MEM_TOTAL_RESERVED = 1 << 14,
	H_COLL = 1 << 15,         /* any collective arg */
};

/* Which of an event's pid, tid and id are synthetic (kineto_synth_id). */
enum { S_PID = 1, S_TID = 2, S_ID = 4 };

/* The event being read. */
struct kineto_event {
	char ph;
	uint8_t cat;
	uint32_t have;
	char *name;
	size_t name_len, name_cap;
	char cat_text[48];        /* for naming unknown categories */
	int64_t ts, dur;          /* ns, relative to the base time */
	uint32_t pid, tid;
	uint64_t id;
	uint8_t synth;            /* S_* */
	int64_t device, context, stream, cbid, seq;
	uint64_t corr, ext_id, regs, smem, bytes, graph_id, graph_node, fwd_tid, wait_event;
	/* cuda_sync: the stream and the record call of the event waited on;
	** -1 / 0 = not stated */
	int64_t wait_stream;
	uint64_t wait_record;
	uint32_t grid[3], block[3];
	/* [memory] instants; totals -1 = not stated */
	int64_t mem_bytes, mem_total_alloc, mem_total_reserved, mem_device, mem_device_type;
	uint64_t mem_addr;
	gp_str input_dims, input_types, concrete, call_stack, arg_name;
	/* a launch call's args.kernel (ROCm); a graph kernel's annotation
	** (module_fqn, layer) */
	gp_str launch_kernel, module_fqn, annot_layer;
	/* collective args; -1 = not stated */
	gp_str coll_name, coll_group;
	gp_str coll_in_split, coll_out_split, coll_ranks;  /* list texts "[1, 2]" */
	uint8_t coll_dtype;
	int64_t coll_in, coll_out, coll_group_size, coll_seq;
};

/* A fwdbwd flow endpoint, resolved to op ranges after the parse. */
struct flow_end {
	uint64_t id;
	int64_t ts;
	uint32_t pid, tid;
	bool start;
};

/* A growable byte buffer. */
struct text_buf {
	char *s;
	size_t n, cap;
};

/* Appends s[0..n) to b, keeping b->s 0-terminated (kineto_parse.c; the
** captured args text and the window pre-scan's documents). */
void kineto_buf_add(struct text_buf *b, const char *s, size_t n);

/* A record of a part of the parallel parse holding a synthetic id, which
** the merge renumbers when the parts met their strings in another order. */
enum { SR_API, SR_RANGE, SR_PROCESS, SR_THREAD, SR_MEMEVENT, SR_FLOW };
struct synth_ref {
	uint32_t index;           /* into the table */
	uint8_t table;            /* SR_* */
	uint8_t fields;           /* S_* */
};

/* Counted categories we do not read, for the notes. */
struct skipped_cat {
	char name[48];
	uint64_t count;
};

/* The read window (kineto_window.c): events wholly outside [lo, hi] (ns
** relative to the base time, like kineto_event.ts) are not kept, nor GPU
** work (kernels, copies, memsets) that ends before gpu_lo; off when on is
** false. */
struct kineto_window {
	bool on;
	int64_t lo, hi, gpu_lo;
};

struct kineto_parser {
	gp_trace *t;
	const char *path;
	gp_error *err;
	bool failed;

	/* where the parse is: the container and the last key at each depth */
	int depth;
	uint8_t ctx[KINETO_MAX_DEPTH + 1];
	uint8_t key[KINETO_MAX_DEPTH + 1];
	const char *meta_key[KINETO_MAX_DEPTH + 1];
	int dim_idx;

	/* raw capture of one args value */
	struct text_buf cap;
	int cap_depth;            /* depth of the captured container */
	uint8_t cap_key;
	bool cap_comma[KINETO_MAX_DEPTH + 1];

	struct kineto_event ev;
	uint64_t nevents;         /* events opened so far */
	uint64_t with_ph;         /* events with a "ph" (a bare array of none is no trace) */
	bool seen_events;         /* traceEvents found */
	bool top_is_array;
	int64_t base_ns;
	bool base_set;            /* baseTimeNanoseconds was read */

	gp_u64map short_names;    /* kernel name -> its short name (gp_str) */
	gp_u64map annots;         /* (graph, node) hash -> its node_annots entry */
	gp_u64map demangled;      /* mangled kernel name -> demangled (gp_str) */
	gp_str name_cache[256];   /* recent names, by a cheap hash: skips FNV */
	GP_VEC(struct flow_end) flows;
	GP_VEC(uint64_t) ac2g[2];  /* ids of the launch flows' starts [0] and ends [1] */
	GP_VEC(struct skipped_cat) skipped;
	char synth[KINETO_MAX_SYNTH_IDS][40];  /* string pid/tid -> synthetic id */
	int nsynth;
	bool note_synth;          /* a later part: keep synth_refs */
	bool synth_stuck;         /* a synthetic id went where no synth_ref can follow */
	GP_VEC(struct synth_ref) synth_refs;

	uint64_t no_ts, neg_dur, no_launch_cfg, hip_apis;
	gp_ns clock_res;          /* the finest step of a ts or dur so far (gp_trace.clock_res), from 1000 */
	uint64_t mem_unread;      /* [memory] instants without ts or Bytes */
	uint64_t mem_other_type;  /* [memory] instants of a device type other than CPU/CUDA/HIP */
	uint64_t mem_negative_total;  /* [memory] instants stating a total below 0 */

	struct kineto_window win;
};

/* ---- kineto_keys.c ---- */

/* The key s[0..n) means in a container of kind ctx (enum ctx): an enum
** key, K_NONE for keys not read.  For metadata keys *meta is set to the
** gp_meta key it becomes (NULL otherwise). */
uint8_t kineto_key(uint8_t ctx, const char *s, size_t n, const char **meta);

/* The enum cat of the category name s[0..n); CAT_OTHER if unknown. */
uint8_t kineto_category(const char *s, size_t n);

/* ---- kineto_values.c ---- */

/* Microseconds as written to integer nanoseconds; false when not a
** number or out of range.  See kineto_values.c for the rounding. */
bool kineto_parse_us_as_ns(const char *s, size_t n, int64_t *out);

/* A pid or tid (is_string: it was a JSON string) as a uint32; strings
** without a usable number get a synthetic id (kineto_synth_id), and
** *synth says which it was. */
uint32_t kineto_parse_thread_id(struct kineto_parser *p, const char *s, size_t n, bool is_string,
				bool *synth);

/* The synthetic id of the string s[0..n): the same string always gets the
** same id, counting down from UINT32_MAX in order of first use. */
uint32_t kineto_synth_id(struct kineto_parser *p, const char *s, size_t n);

/* ---- kineto_parse.c ---- */

/* Sets p up to fill t (path names the input in messages; err receives
** the first error).  Does not touch t. */
void kineto_parser_init(struct kineto_parser *p, const char *path, gp_trace *t, gp_error *err);

/* Releases p's scratch state (never the trace). */
void kineto_parser_free(struct kineto_parser *p);

/* A yajl handle that feeds p's state machine (free with yajl_free). */
yajl_handle kineto_yajl(struct kineto_parser *p);

/* The same state machine behind the fast tokenizer (jsonscan.h; free with
** gp_jscan_free): what reads valid input; yajl reads what it gives up on. */
gp_jscan *kineto_jscan(struct kineto_parser *p);

/* ---- kineto_event.c ---- */

/* Clears e for the next event, keeping its name buffer. */
void kineto_event_reset(struct kineto_event *e);

/* Copies the name s[0..n) into e. */
void kineto_event_set_name(struct kineto_event *e, const char *s, size_t n);

/* Turns p->ev, whose object just closed, into a record of p->t (or a flow
** end, or a count for the notes).  Returns 1 (yajl's "go on"). */
int kineto_event_finish(struct kineto_parser *p);

/* ---- kineto_window.c ---- */

/* Sets p's read window for the window of o (its progress reported) on
** the file at path (size bytes, plain or gzip; threaded: inflate on a
** second thread) by a pre-scan: the base time, and for iterations the
** span of their ProfilerStep#N events, widened as gp_window_read_span
** says.  Never fails: leaves the window off (the whole file is read) when
** the window has an open end or the scan cannot tell.  keep (a gzip file;
** NULL for none) receives the whole inflated file when the scan read it
** all and it is at most o->gzip_keep_bytes (default KINETO_GZIP_KEEP), so
** the parse need not inflate it again: returns true then, else false with
** keep empty (and, when it was too large, a note on the trace). */
bool kineto_window_prescan(struct kineto_parser *p, const char *path, const struct gp_load_opts *o,
			   uint64_t size, bool threaded, struct text_buf *keep);

/* Whether event e lies wholly outside p's read window.  whole: e is
** complete (a missing dur is 0); else only what is certain already
** counts (a dur may still come). */
bool kineto_event_outside(const struct kineto_parser *p, const struct kineto_event *e, bool whole);

/* ---- kineto_finish.c, kineto_flows.c ---- */

/* After a complete parse: resolves flows, adds the base time, links GPU
** records to their processes, formats versions, writes the notes and the
** tool name into p->t. */
void kineto_finish(struct kineto_parser *p);

/* Ties fwdbwd flow ends to op ranges (timestamps still relative). */
void kineto_resolve_flows(struct kineto_parser *p);

/* ---- kineto.c ---- */

/* The trace as the parse found it: blank but for strings (load.c interns
** the path and the format), which kineto_restore() puts back. */
struct kineto_saved {
	char **strs;              /* strs[1..n) */
	uint32_t n;
};

/* Saves p's trace into s; false (nothing saved) when it holds more than
** strings (a window pre-scan's note), which no restore could put back. */
bool kineto_save(const struct kineto_parser *p, struct kineto_saved *s);

/* Puts p's trace back as saved and p to a fresh start (its window kept). */
void kineto_restore(struct kineto_parser *p, const struct kineto_saved *s);

/* Frees what a kineto_save() that returned true copied into s. */
void kineto_saved_free(struct kineto_saved *s);

/* ---- kineto_parallel.c ---- */

/* Parses the plain JSON file fd (size bytes), or the size bytes at mem
** when mem is not NULL (a gzip file the window pre-scan kept inflated), in
** up to nparts parts on as many threads.  Returns GP_OK with p finished,
** or -1 when the sequential parse must run instead (p->t is then as it was
** on entry, p reset). */
int kineto_parse_parallel(struct kineto_parser *p, int fd, const char *mem, uint64_t size, int nparts,
			  const struct gp_load_opts *o);

#endif
