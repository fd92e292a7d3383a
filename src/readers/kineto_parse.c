/*
** The Kineto reader's state machine, driven by yajl's callbacks.  The
** container path (top level, traceEvents[], event, event.args, ...) says
** what a value means: on_open() decides what a new container is from where
** it opens, on_value() hands a scalar to the function for its container,
** and when an event object closes kineto_event_finish() turns it into a
** record.  A callback that finds bad input sets the error and returns 0,
** which stops the parse.  See kineto_int.h.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/kineto_int.h"

/* ---- small helpers ---- */

void kineto_buf_add(struct text_buf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = gp_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* s[0..n) as a JSON string, quoted and escaped; the runs between
** characters to escape are added whole (Concrete Inputs hold long ones). */
static void buf_add_json_string(struct text_buf *b, const char *s, size_t n)
{
	size_t run = 0;

	kineto_buf_add(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];
		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		kineto_buf_add(b, s + run, i - run);
		run = i + 1;
		if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			kineto_buf_add(b, esc, 6);
		} else {
			esc[0] = '\\';
			esc[1] = (char)c;
			kineto_buf_add(b, esc, 2);
		}
	}
	kineto_buf_add(b, s + run, n - run);
	kineto_buf_add(b, "\"", 1);
}

/* Sets an error naming the current event; returns 0 so a yajl callback can
** `return fail(...)` to stop the parse. */
static int fail(struct kineto_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct kineto_parser *p, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	/* a bare JSON array whose first element is no event is some other
	** JSON file (a list of numbers beside the traces), not a damaged trace */
	int status = p->top_is_array && p->nevents == 1 && p->depth == 1 ? GP_ERR_FORMAT : GP_ERR_CORRUPT;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!p->failed) {
		if (status == GP_ERR_FORMAT)
			gp_err(p->err, status, "%s: not a trace: a JSON array whose first element is not an event (%s)",
			       p->path, what);
		else if (p->nevents)
			gp_err(p->err, status, "%s: %s: in event %" PRIu64, p->path, what, p->nevents - 1);
		else
			gp_err(p->err, status, "%s: %s", p->path, what);
	}
	p->failed = true;
	return 0;
}

/* The JSON type of a scalar of kind ('s' string, 'n' number, 'b' bool,
** 'z' null), for messages. */
static const char *json_type(char kind)
{
	return kind == 's' ? "string" : kind == 'n' ? "number" : kind == 'b' ? "boolean" : "null";
}

/* ---- scalars, one function per kind of container ---- */

static int top_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	if (k == K_TRACE_EVENTS)
		return fail(p, "traceEvents is a %s, expected an array",
			    kind == 's' || kind == 'n' ? json_type(kind) : "scalar");
	if (k == K_BASE_TIME) {
		if (kind != 'n' || !gp_json_i64(s, n, &p->base_ns))
			return fail(p, "baseTimeNanoseconds is not an integer");
		p->base_set = true;
	} else if (k == K_META && kind != 'z') {
		char tmp[256];
		size_t m = n < sizeof(tmp) - 1 ? n : sizeof(tmp) - 1;
		memcpy(tmp, s, m);
		tmp[m] = '\0';
		if (kind == 'b')
			snprintf(tmp, sizeof(tmp), "%s", n ? "1" : "0");
		gp_trace_meta_set(p->t, p->meta_key[p->depth], tmp);
	}
	return 1;
}

/* ts or dur: microseconds, kept as ns. */
static int time_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	struct kineto_event *e = &p->ev;
	const char *what = k == K_TS ? "ts" : "dur";
	int64_t ns;

	if (kind != 'n')
		return fail(p, "%s is a %s, expected a number", what, json_type(kind));
	if (!kineto_parse_us_as_ns(s, n, &ns))
		return fail(p, "%s %.*s is out of range", what, (int)(n < 40 ? n : 40), s);
	/* the clock's step: the largest power of ten (to 1 us) every value is a multiple of */
	while (p->clock_res > 1 && ns % p->clock_res)
		p->clock_res /= 10;
	if (k == K_TS) {
		e->ts = ns;
		e->have |= H_TS;
	} else {
		e->dur = ns;
		e->have |= H_DUR;
	}
	return 1;
}

static int event_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	struct kineto_event *e = &p->ev;
	uint64_t u;

	switch (k) {
	case K_PH:
		if (kind != 's')
			return fail(p, "ph is not a string");
		e->ph = n ? s[0] : 0;
		return 1;
	case K_CAT:
		if (kind != 's')
			return kind == 'z' ? 1 : fail(p, "cat is not a string");
		e->cat = kineto_category(s, n);
		if (e->cat == CAT_OTHER)
			snprintf(e->cat_text, sizeof(e->cat_text), "%.*s", (int)(n < 40 ? n : 40), s);
		return 1;
	case K_NAME:
		if (kind != 's' && kind != 'n')
			return kind == 'z' ? 1 : fail(p, "name is not a string");
		kineto_event_set_name(e, s, n);
		return 1;
	case K_TS: case K_DUR:
		return time_value(p, k, kind, s, n);
	case K_PID: case K_TID: {
		if (kind != 's' && kind != 'n')
			return kind == 'z' ? 1 : fail(p, "%s is a boolean", k == K_PID ? "pid" : "tid");
		bool synth;
		uint32_t id = kineto_parse_thread_id(p, s, n, kind == 's', &synth);
		uint8_t bit = k == K_PID ? S_PID : S_TID;
		if (k == K_PID) {
			e->pid = id;
			e->have |= H_PID;
		} else {
			e->tid = id;
			e->have |= H_TID;
		}
		e->synth = synth ? e->synth | bit : e->synth & ~bit;
		return 1;
	}
	case K_ID:
		if (gp_json_u64(s, n, &u)) {
			e->id = u;
			e->have |= H_ID;
			e->synth &= ~S_ID;
		} else if (kind == 's') {
			e->id = kineto_synth_id(p, s, n);
			e->have |= H_ID;
			e->synth |= S_ID;
		}
		return 1;
	case K_ARGS:
		if (kind == 'z')
			return 1;
		return fail(p, "args is a %s, expected an object", json_type(kind));
	}
	return 1;
}

/* args values that are signed numbers; AMD writes some as strings
** ("stream": "0x0"), and ids past INT64_MAX wrap. */
static void args_signed(struct kineto_event *e, uint8_t k, const char *s, size_t n)
{
	int64_t v;
	uint64_t u;

	if (!gp_json_i64(s, n, &v)) {
		if (!gp_json_u64(s, n, &u))
			return;
		v = (int64_t)u;
	}
	switch (k) {
	case K_SEQ: e->seq = v; e->have |= H_SEQ; break;
	case K_DEVICE: e->device = v; e->have |= H_DEVICE; break;
	case K_CONTEXT: e->context = v; e->have |= H_CONTEXT; break;
	case K_STREAM: e->stream = v; e->have |= H_STREAM; break;
	case K_WAIT_STREAM: e->wait_stream = v; break;
	case K_CBID: e->cbid = v; break;
	case K_MEM_BYTES: e->mem_bytes = v; e->have |= H_MEM_BYTES; break;
	case K_MEM_TOTAL_ALLOC: e->mem_total_alloc = v; e->have |= H_MEM_TOTAL_ALLOC; break;
	case K_MEM_TOTAL_RESERVED: e->mem_total_reserved = v; e->have |= H_MEM_TOTAL_RESERVED; break;
	case K_MEM_DEV_ID: e->mem_device = v; break;
	case K_MEM_DEV_TYPE: e->mem_device_type = v; break;
	}
}

static void args_unsigned(struct kineto_event *e, uint8_t k, const char *s, size_t n)
{
	uint64_t u;

	if (!gp_json_u64(s, n, &u))
		return;
	switch (k) {
	case K_CORR: e->corr = u; e->have |= H_CORR; break;
	case K_EXT_ID: e->ext_id = u; break;
	case K_REGS: e->regs = u; break;
	case K_SMEM: e->smem = u; break;
	case K_BYTES: e->bytes = u; break;
	case K_FWD_TID: e->fwd_tid = u; e->have |= H_FWD_TID; break;
	case K_GRAPH_ID: e->graph_id = u; break;
	case K_GRAPH_NODE: e->graph_node = u; break;
	case K_WAIT_EVENT: e->wait_event = u; break;
	case K_WAIT_RECORD: e->wait_record = u; break;
	case K_MEM_ADDR: e->mem_addr = u; break;
	}
}

/* One collective arg of record_param_comms or an NCCL kernel: names as
** strings, counts as numbers (PyTorch writes "Process Group Name" as a
** string and the counts as numbers; anything else is ignored); the lists
** ("In split size", "Out split size", "Process Group Ranks") as the text
** PyTorch writes, "[1, 2, 3]", read by analysis/collectives.c. */
static void coll_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	struct kineto_event *e = &p->ev;
	char dtype[32];
	int64_t v;

	if (kind == 's' && (k == K_COLL_NAME || k == K_COLL_GROUP)) {
		gp_str id = gp_strtab_intern_n(&p->t->strs, s, n);
		if (k == K_COLL_NAME)
			e->coll_name = id;
		else
			e->coll_group = id;
	} else if (kind == 's' && (k == K_COLL_IN_SPLIT || k == K_COLL_OUT_SPLIT || k == K_COLL_RANKS)) {
		gp_str id = gp_strtab_intern_n(&p->t->strs, s, n);
		*(k == K_COLL_IN_SPLIT ? &e->coll_in_split : k == K_COLL_OUT_SPLIT ? &e->coll_out_split
		  : &e->coll_ranks) = id;
	} else if (kind == 's' && k == K_COLL_DTYPE) {
		if (n >= sizeof(dtype))
			return;
		memcpy(dtype, s, n);
		dtype[n] = '\0';
		e->coll_dtype = (uint8_t)gp_dtype_parse(dtype);
	} else if (kind == 'n' && gp_json_i64(s, n, &v) && v >= 0) {
		if (k == K_COLL_IN)
			e->coll_in = v;
		else if (k == K_COLL_OUT)
			e->coll_out = v;
		else if (k == K_COLL_GROUP_SIZE)
			e->coll_group_size = v;
		else if (k == K_COLL_SEQ)
			e->coll_seq = v;
		else
			return;
	} else {
		return;
	}
	e->have |= H_COLL;
}

static int args_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	struct kineto_event *e = &p->ev;

	switch (k) {
	case K_NONE:
		return 1;
	case K_ARG_NAME:
		if (kind == 's')
			e->arg_name = gp_strtab_intern_n(&p->t->strs, s, n);
		return 1;
	case K_LAUNCH_KERNEL: case K_MODULE_FQN: case K_ANNOT_LAYER:
		if (kind == 's') {
			gp_str id = gp_strtab_intern_n(&p->t->strs, s, n);
			*(k == K_LAUNCH_KERNEL ? &e->launch_kernel : k == K_MODULE_FQN ? &e->module_fqn
			  : &e->annot_layer) = id;
		}
		return 1;
	case K_CALL_STACK:
		if (kind == 's' && !kineto_event_outside(p, e, false))
			e->call_stack = gp_strtab_intern_n(&p->t->strs, s, n);
		return 1;
	case K_INPUT_DIMS: case K_INPUT_TYPES: case K_CONCRETE: case K_GRID: case K_BLOCK:
		return 1;   /* expected a list: a scalar carries nothing */
	case K_COLL_NAME: case K_COLL_GROUP: case K_COLL_DTYPE: case K_COLL_IN: case K_COLL_OUT:
	case K_COLL_GROUP_SIZE: case K_COLL_SEQ: case K_COLL_IN_SPLIT: case K_COLL_OUT_SPLIT:
	case K_COLL_RANKS:
		coll_value(p, k, kind, s, n);
		return 1;
	}
	if (kind != 'n' && kind != 's')
		return 1;
	if (k == K_SEQ || k == K_DEVICE || k == K_CONTEXT || k == K_STREAM || k == K_CBID ||
	    k == K_WAIT_STREAM ||
	    (k >= K_MEM_BYTES && k <= K_MEM_DEV_TYPE && k != K_MEM_ADDR))
		args_signed(e, k, s, n);
	else
		args_unsigned(e, k, s, n);
	return 1;
}

/* One number of args.grid or args.block. */
static int dim3_value(struct kineto_parser *p, char kind, const char *s, size_t n)
{
	struct kineto_event *e = &p->ev;
	uint64_t u;

	if (kind == 'n' && p->dim_idx < 3 && gp_json_u64(s, n, &u)) {
		uint32_t *d = p->key[p->depth - 1] == K_GRID ? e->grid : e->block;
		d[p->dim_idx] = u > UINT32_MAX ? UINT32_MAX : (uint32_t)u;
		if (p->key[p->depth - 1] == K_GRID)
			e->have |= H_GRID;
	}
	p->dim_idx++;
	return 1;
}

static int capture_value(struct kineto_parser *p, char kind, const char *s, size_t n)
{
	if (p->cap_comma[p->depth])
		kineto_buf_add(&p->cap, ",", 1);
	p->cap_comma[p->depth] = true;
	if (kind == 's')
		buf_add_json_string(&p->cap, s, n);
	else
		kineto_buf_add(&p->cap, s, n);
	return 1;
}

/* One field of the deviceProperties entry last opened. */
static int device_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	struct gp_device *d = &p->t->devices.v[p->t->devices.n - 1];
	int64_t v;

	if (k == K_DEV_NAME && kind == 's') {
		d->name = gp_strtab_intern_n(&p->t->strs, s, n);
		return 1;
	}
	if (kind != 'n' || !gp_json_i64(s, n, &v))
		return 1;
	switch (k) {
	case K_DEV_ID: d->id = (int32_t)v; break;
	case K_DEV_MEM: d->mem_bytes = (uint64_t)v; break;
	case K_DEV_MAJOR: d->cc_major = (int16_t)v; break;
	case K_DEV_MINOR: d->cc_minor = (int16_t)v; break;
	case K_DEV_SMS: d->sm_count = (int32_t)v; break;
	case K_DEV_WARP: d->warp_size = v > 0 && v <= 1024 ? (int16_t)v : 0; break;
	}
	return 1;
}

static int dist_value(struct kineto_parser *p, uint8_t k, char kind, const char *s, size_t n)
{
	if (k != K_NONE && kind != 'z') {
		char tmp[128];
		snprintf(tmp, sizeof(tmp), "%.*s", (int)(n < 120 ? n : 120), s);
		gp_trace_meta_set(p->t, p->meta_key[p->depth], tmp);
	}
	return 1;
}

/* A scalar value (kind: 's' string, 'n' number, 'b' bool, 'z' null). */
static int on_value(struct kineto_parser *p, char kind, const char *s, size_t n)
{
	uint8_t k = p->key[p->depth];

	switch (p->ctx[p->depth]) {
	case C_NONE:
		return fail(p, "not a trace: the JSON document is a single value");
	case C_TOP:
		return top_value(p, k, kind, s, n);
	case C_EVENTS:
		p->nevents++;
		return fail(p, "an event is a %s, expected an object", json_type(kind));
	case C_EVENT:
		return event_value(p, k, kind, s, n);
	case C_ARGS:
		return args_value(p, k, kind, s, n);
	case C_DIM3:
		return dim3_value(p, kind, s, n);
	case C_CAPTURE:
		return capture_value(p, kind, s, n);
	case C_DEVICE:
		return device_value(p, k, kind, s, n);
	case C_DIST:
		return dist_value(p, k, kind, s, n);
	}
	return 1;
}

static int cb_null(void *ctx)
{
	return on_value(ctx, 'z', "null", 4);
}

static int cb_boolean(void *ctx, int b)
{
	return on_value(ctx, 'b', b ? "true" : "false", (size_t)b);
}

static int cb_number(void *ctx, const char *s, size_t n)
{
	return on_value(ctx, 'n', s, n);
}

static int cb_string(void *ctx, const unsigned char *s, size_t n)
{
	return on_value(ctx, 's', (const char *)s, n);
}

/* ---- containers ---- */

/* An event field that must be a scalar opened a container. */
static int event_field_not_scalar(struct kineto_parser *p, uint8_t k, bool is_map)
{
	static const char *names[] = {[K_TS] = "ts", [K_DUR] = "dur", [K_PH] = "ph",
				      [K_PID] = "pid", [K_TID] = "tid",
				      [K_NAME] = "name", [K_CAT] = "cat"};

	return fail(p, "%s is %s, expected a %s", names[k], is_map ? "an object" : "an array",
		    k == K_TS || k == K_DUR ? "number" : "string");
}

/* A container opens: decide what it is from where it is. */
static int on_open(struct kineto_parser *p, bool is_map)
{
	uint8_t c = p->ctx[p->depth], k = p->key[p->depth], nc = C_SKIP;

	switch (c) {
	case C_NONE:
		if (is_map) {
			nc = C_TOP;
		} else {
			nc = C_EVENTS;
			p->top_is_array = p->seen_events = true;
		}
		break;
	case C_TOP:
		if (k == K_TRACE_EVENTS) {
			if (is_map)
				return fail(p, "traceEvents is an object, expected an array");
			nc = C_EVENTS;
			p->seen_events = true;
		} else if (k == K_DEVPROPS && !is_map) {
			nc = C_DEVPROPS;
		} else if (k == K_DIST && is_map) {
			nc = C_DIST;
		}
		break;
	case C_EVENTS:
		p->nevents++;
		if (!is_map)
			return fail(p, "an event is an array, expected an object");
		kineto_event_reset(&p->ev);
		nc = C_EVENT;
		break;
	case C_EVENT:
		if (k == K_ARGS) {
			if (!is_map)
				return fail(p, "args is an array, expected an object");
			nc = C_ARGS;
		} else if (k == K_TS || k == K_DUR || k == K_PH || k == K_PID || k == K_TID ||
			   k == K_NAME || k == K_CAT) {
			return event_field_not_scalar(p, k, is_map);
		}
		break;
	case C_ARGS:
		if ((k == K_GRID || k == K_BLOCK) && !is_map) {
			nc = C_DIM3;
			p->dim_idx = 0;
		} else if (k == K_INPUT_DIMS || k == K_INPUT_TYPES || k == K_CONCRETE) {
			nc = C_CAPTURE;
			p->cap.n = 0;
			p->cap_depth = p->depth + 1;
			p->cap_key = k;
		}
		break;
	case C_DEVPROPS:
		if (is_map) {
			struct gp_device *d = gp_vec_push(p->t->devices);
			d->id = (int32_t)p->t->devices.n - 1;
			nc = C_DEVICE;
		}
		break;
	case C_CAPTURE:
		if (p->cap_comma[p->depth])
			kineto_buf_add(&p->cap, ",", 1);
		p->cap_comma[p->depth] = true;
		nc = C_CAPTURE;
		break;
	}
	if (p->depth >= KINETO_MAX_DEPTH)
		return fail(p, "JSON nested deeper than %d levels", KINETO_MAX_DEPTH);
	p->depth++;
	p->ctx[p->depth] = nc;
	p->key[p->depth] = K_NONE;
	if (nc == C_CAPTURE) {
		p->cap_comma[p->depth] = false;
		kineto_buf_add(&p->cap, is_map ? "{" : "[", 1);
	}
	return 1;
}

/* A container closes: a captured value is complete when its outermost
** container does, an event when its object does. */
static int on_close(struct kineto_parser *p, bool is_map)
{
	uint8_t c = p->ctx[p->depth];

	if (c == C_CAPTURE) {
		kineto_buf_add(&p->cap, is_map ? "}" : "]", 1);
		/* the text of an event outside the read window is not kept */
		if (p->depth == p->cap_depth && !kineto_event_outside(p, &p->ev, false)) {
			gp_str s = gp_strtab_intern_n(&p->t->strs, p->cap.s, p->cap.n);
			if (p->cap_key == K_INPUT_DIMS)
				p->ev.input_dims = s;
			else if (p->cap_key == K_INPUT_TYPES)
				p->ev.input_types = s;
			else
				p->ev.concrete = s;
		}
	}
	p->depth--;
	if (c == C_EVENT)
		return kineto_event_finish(p);
	return 1;
}

static int cb_start_map(void *ctx)
{
	return on_open(ctx, true);
}

static int cb_end_map(void *ctx)
{
	return on_close(ctx, true);
}

static int cb_start_array(void *ctx)
{
	return on_open(ctx, false);
}

static int cb_end_array(void *ctx)
{
	return on_close(ctx, false);
}

static int cb_map_key(void *ctx, const unsigned char *key, size_t n)
{
	struct kineto_parser *p = ctx;
	const char *s = (const char *)key;

	if (p->ctx[p->depth] == C_CAPTURE) {
		if (p->cap_comma[p->depth])
			kineto_buf_add(&p->cap, ",", 1);
		p->cap_comma[p->depth] = false;   /* the value follows without a comma */
		buf_add_json_string(&p->cap, s, n);
		kineto_buf_add(&p->cap, ":", 1);
		return 1;
	}
	p->key[p->depth] = kineto_key(p->ctx[p->depth], s, n, &p->meta_key[p->depth]);
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_boolean,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_map_key,
	.yajl_end_map = cb_end_map,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end_array,
};

gp_jscan *kineto_jscan(struct kineto_parser *p)
{
	return gp_jscan_alloc(&callbacks, p);
}

yajl_handle kineto_yajl(struct kineto_parser *p)
{
	yajl_handle h = yajl_alloc(&callbacks, NULL, p);

	yajl_config(h, yajl_dont_validate_strings, 1);
	return h;
}

void kineto_parser_init(struct kineto_parser *p, const char *path, gp_trace *t, gp_error *err)
{
	memset(p, 0, sizeof(*p));
	p->t = t;
	p->path = path;
	p->err = err;
	p->clock_res = 1000;
}

void kineto_parser_free(struct kineto_parser *p)
{
	free(p->ev.name);
	free(p->cap.s);
	gp_vec_free(p->flows);
	gp_vec_free(p->ac2g[0]);
	gp_vec_free(p->ac2g[1]);
	gp_vec_free(p->skipped);
	gp_vec_free(p->synth_refs);
	gp_u64map_free(&p->short_names);
	gp_u64map_free(&p->annots);
	gp_u64map_free(&p->demangled);
}
