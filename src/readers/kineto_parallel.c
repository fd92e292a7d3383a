/*
** The Kineto reader on several threads: a large plain .json is parsed in
** parts, one per thread, and the parts merged into the trace one pass would
** give.  See kineto_int.h.
**
** A split point is an event boundary near size/nparts * i: the bytes
** between the first two events of traceEvents (libkineto's "  },\n  {\n
** \"", the one-event-a-line "},\n  {\"" of grow_kineto.py and PyTorch's
** older writer, json.dump's "}, {\"" or "},{\"", an indented file's
** "    },\n    {\n      \""), learned from the start of the file, found
** again.  No JSON string can hold them ('"' is escaped inside one), and in
** a file written with newlines and indents an object nested in an event
** sits on the event's line or deeper, so a boundary learned that way is an
** event boundary.  Where none was learned (a file whose first event has no
** successor near the start) any "}" "," "{" "\"" with spaces between is
** tried.  When the "}" closes an event, the rest of the file from the "{"
** parses exactly as it would in one pass if yajl starts it inside a
** synthetic `{"traceEvents":[` (a bare event array: `[`).  Parts are read
** by the fast tokenizer (jsonscan.h); where it gives up, the parallel work
** is dropped as for an error (the one-pass parse then decides).
**
** Whether a split was right is checked, not assumed: the part before it is
** parsed from a point already known to be right (the file's start, or a
** split checked the same way), so its parse state at the "}" tells.  A
** part whose state there is not "in traceEvents, right after an event"
** (the "}" closed an object inside an event or the header: a minified
** file's nested list of objects) parses on through the next part's bytes
** to the next split, and so on; the part after a wrong split is dropped,
** the others are kept.  So a wrong split costs the part after it, never
** the whole parallel parse.  Every part but the first parses into a trace
** of its own; the parts are then merged in file order into the caller's
** trace with the strings re-interned in order of first use, so the result
** is identical to the sequential parse (same records, order, string ids,
** metadata, notes).  An error in a part that is kept (and a merge that
** cannot be exact) throws the parallel work away and the file is parsed
** sequentially, so errors read exactly as before.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "readers/kineto_int.h"

#define SPLIT_WINDOW 65536
#define SPLIT_CONTEXT 256
#define SPLIT_SEARCH (16u << 20)   /* no boundary this far after a split point: none */
#define SEP_MAX 64                 /* longest learned boundary */
#define LEARN_MAX (64u << 20)      /* bytes read at most to learn the boundary */

/* How the events of a file are laid out: learned from its start. */
struct layout {
	bool array;               /* a bare event array: `[` {...}, ... `]` */
	char sep[SEP_MAX];        /* the bytes from an event's "}" to the '"' of the next one's first key */
	size_t seplen;            /* 0: not learned, any "}" "," "{" "\"" with spaces is tried */
};

struct part {
	struct kineto_parser p;   /* p.t: the caller's trace (part 0), else &t */
	gp_trace t;
	gp_error err;             /* parts > 0: messages are never shown */
	int fd;
	const char *mem;          /* the file's bytes when in memory, else NULL */
	const struct layout *lay;
	uint64_t start, end;      /* byte range [start, end) of the file */
	int index;
	int upto;                 /* the parse ran to the end of part upto (>= index) */
	bool ok;                  /* parsed cleanly and ended at a checked split or the file's end */
	bool started;             /* runs on its own thread */
	pthread_t thread;
	_Atomic uint64_t done;    /* bytes parsed, for the progress callback */
	_Atomic bool *stop;       /* the first part failed: stop early */
	_Atomic bool dropped;     /* the first part parsed through this one's bytes: stop */
	const struct gp_load_opts *o;   /* part 0 reports progress */
	struct part *all;
	int nparts;
	uint64_t total;
};

static bool is_json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Up to n bytes at pos of the file: fd, or mem (size bytes) when not
** NULL; pread's return. */
static ssize_t read_at(int fd, const char *mem, uint64_t size, char *buf, size_t n, uint64_t pos)
{
	if (!mem)
		return pread(fd, buf, n, (off_t)pos);
	if (pos >= size)
		return 0;
	if (n > size - pos)
		n = (size_t)(size - pos);
	memcpy(buf, mem + pos, n);
	return (ssize_t)n;
}

/* Where the boundary w[i..] ("}" spaces "," spaces "{" spaces '"') ends:
** the index of its '"', or -1 when w[i..n) holds none. */
static ssize_t boundary_at(const char *w, ssize_t i, ssize_t n)
{
	if (i >= n || w[i] != '}')
		return -1;
	for (i++; i < n && is_json_space(w[i]); i++)
		;
	if (i >= n || w[i] != ',')
		return -1;
	for (i++; i < n && is_json_space(w[i]); i++)
		;
	if (i >= n || w[i] != '{')
		return -1;
	for (i++; i < n && is_json_space(w[i]); i++)
		;
	return i < n && w[i] == '"' ? i : -1;
}

/* Learns the layout (see the top of the file) from the first LEARN_MAX
** bytes: a string-aware scan for the first two events of traceEvents (or
** of a bare array).  Leaves lay->seplen 0 where it cannot tell. */
static void learn_layout(int fd, const char *mem, uint64_t size, struct layout *lay)
{
	static const char te[] = "traceEvents";
	char *w = gp_xmalloc(SPLIT_WINDOW);
	uint64_t limit = size < LEARN_MAX ? size : LEARN_MAX;
	int64_t close = -1;              /* offset of the first event's "}" */
	int depth = 0, events = -1;      /* depth of traceEvents' elements, once found */
	bool in_str = false, esc = false, key_te = false, started = false;
	size_t te_at = 0;                /* bytes of the current string matched against te */
	ssize_t n;

	memset(lay, 0, sizeof(*lay));
	for (uint64_t base = 0; close < 0 && base < limit; base += (uint64_t)n) {
		n = read_at(fd, mem, size, w, SPLIT_WINDOW, base);
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && close < 0; i++) {
			char c = w[i];
			if (in_str) {
				if (esc) {
					esc = false;
					te_at = SIZE_MAX;
				} else if (c == '\\') {
					esc = true;
				} else if (c == '"') {
					in_str = false;
					key_te = depth == 1 && te_at == sizeof(te) - 1;
				} else {
					te_at = te_at < sizeof(te) - 1 && c == te[te_at] ? te_at + 1 : SIZE_MAX;
				}
			} else if (c == '"') {
				in_str = true;
				te_at = 0;
			} else if (c == '{' || c == '[') {
				if (!started && c == '[') {
					events = 1;       /* a bare event array */
					lay->array = true;
				}
				else if (depth == 1 && c == '[' && key_te && events < 0)
					events = 2;       /* "traceEvents": [ */
				started = true;
				depth++;
			} else if (c == '}' || c == ']') {
				depth--;
				if (c == '}' && depth == events)
					close = (int64_t)(base + (uint64_t)i);
				else if (depth <= 0 || depth < events)
					goto out;         /* the document or traceEvents ended first */
			} else if (c == ',') {
				key_te = false;
			} else if (!started && !is_json_space(c)) {
				goto out;                 /* no object or array opens the file */
			}
		}
	}
	if (close >= 0 && (n = read_at(fd, mem, size, w, SEP_MAX, (uint64_t)close)) > 0) {
		ssize_t q = boundary_at(w, 0, n);
		if (q >= 0) {
			lay->seplen = (size_t)q + 1;
			memcpy(lay->sep, w, lay->seplen);
		}
	}
out:
	free(w);
}

/* Finds an event boundary (the learned one, else any "}" "," "{" '"' with
** spaces between) whose "{" is at or after pos and before limit.  Sets
** *end to just after the "}" and *start to the "{".  Returns false if
** there is none.  Whether the "}" really closes an event of traceEvents
** cannot always be told from here; the parse of the part before it
** checks that. */
static bool find_split(int fd, const char *mem, uint64_t size, const struct layout *lay,
		       uint64_t pos, uint64_t limit, uint64_t *end, uint64_t *start)
{
	char *w = gp_xmalloc(SPLIT_WINDOW);
	uint64_t base = pos > SPLIT_CONTEXT ? pos - SPLIT_CONTEXT : 0;
	bool found = false;

	while (!found && pos < limit) {
		ssize_t n = read_at(fd, mem, size, w, SPLIT_WINDOW, base);
		if (n <= (ssize_t)(pos - base))
			break;
		const char *c = w + (pos - base);
		while (!found && (c = memchr(c, '}', (size_t)(w + n - c)))) {
			ssize_t i = c++ - w, q;
			if (lay->seplen) {
				if ((size_t)(n - i) < lay->seplen || memcmp(w + i, lay->sep, lay->seplen) != 0)
					continue;
				q = i + (ssize_t)lay->seplen - 1;
			} else if ((q = boundary_at(w, i, n)) < 0) {
				continue;
			}
			ssize_t l = q - 1;   /* the "{" */
			while (w[l] != '{')
				l--;
			if (base + (uint64_t)l < pos || base + (uint64_t)l >= limit)
				continue;
			*end = base + (uint64_t)i + 1;
			*start = base + (uint64_t)l;
			found = true;
		}
		if (n < SPLIT_WINDOW)
			break;
		pos = base + (uint64_t)n - SPLIT_CONTEXT;
		base = pos - SPLIT_CONTEXT;
	}
	free(w);
	return found;
}

static void report_progress(struct part *w)
{
	uint64_t sum = 0;

	for (int i = 0; i < w->nparts; i++)
		sum += w->all[i].done;
	/* parts that parse on through the next one count its bytes twice */
	w->o->progress(w->o->progress_ctx, sum < w->total ? sum : w->total, w->total);
}

/* Whether p stands right after an event of traceEvents (of the bare array),
** between tokens: where a part that follows may start. */
static bool at_event_boundary(const struct kineto_parser *p, bool array)
{
	if (array)
		return p->depth == 1 && p->ctx[1] == C_EVENTS;
	return p->depth == 2 && p->ctx[1] == C_TOP && p->ctx[2] == C_EVENTS;
}

/* Parses one part (see the top of the file): its bytes, and on through
** the next parts' while its end is no event boundary.  Sets w->ok and
** w->upto. */
static void *parse_part(void *arg)
{
	struct part *w = arg;
	struct kineto_parser *p = &w->p;
	const bool array = w->lay->array;
	gp_jscan *h = kineto_jscan(p);
	char *buf = gp_xmalloc(KINETO_CHUNK);
	uint64_t pos = w->start, end = w->end;
	int upto = w->index;
	bool ok = true;

	if (w->index > 0) {
		const char *prefix = array ? "[" : "{\"traceEvents\":[";
		ok = gp_jscan_parse(h, prefix, strlen(prefix));
	}
	for (;;) {
		while (ok && pos < end && !*w->stop && !w->dropped) {
			size_t want = end - pos < KINETO_CHUNK ? (size_t)(end - pos) : KINETO_CHUNK;
			const char *data = w->mem ? w->mem + pos : buf;
			ssize_t n = w->mem ? (ssize_t)want : pread(w->fd, buf, want, (off_t)pos);
			if (n <= 0) {
				ok = false;
				break;
			}
			ok = gp_jscan_parse(h, data, (size_t)n);
			pos += (uint64_t)n;
			w->done += (uint64_t)n;
			if (w->o && w->o->progress)
				report_progress(w);
		}
		ok = ok && pos == end && !*w->stop && !w->dropped;
		if (!ok || upto == w->nparts - 1 || at_event_boundary(p, array))
			break;
		end = w->all[++upto].end;   /* a wrong split: parse on to the next one */
		if (w->index == 0)
			w->all[upto].dropped = true;   /* certainly not kept */
	}
	w->upto = upto;
	/* a part that ends at a split ends right after an event; closing the
	** document there must then work (it would not inside a string) */
	if (ok && upto < w->nparts - 1) {
		const char *suffix = array ? "]" : "]}";
		ok = gp_jscan_parse(h, suffix, strlen(suffix));
	}
	ok = ok && gp_jscan_complete(h) && !p->failed;
	gp_jscan_free(h);
	free(buf);
	w->ok = ok;
	if (!ok && w->index == 0)
		*w->stop = true;   /* an error in the first part is the file's: stop all */
	return NULL;
}

#define MOVE_CHUNK (1u << 20)   /* bytes moved between shrinks of the source */

/* Moves the *sn elements at *sv (a GP_VEC: *sv, *sn, *scap) to the end of
** another GP_VEC of the same type (dv, dn, dcap), grown to the exact size;
** the source ends empty and freed.  It is moved from its end a MiB at a
** time, the source shrunk after each step, so the records are resident
** about once, not twice (the parts of a large trace are most of the
** reader's memory).  Returns the first moved element in the destination. */
static void *vec_move(void **dv, size_t *dn, size_t *dcap, void **sv, size_t *sn, size_t *scap,
		      size_t elem)
{
	size_t left = *sn, step = MOVE_CHUNK / elem ? MOVE_CHUNK / elem : 1;
	char *first;

	if (*dn + left > *dcap) {
		*dcap = *dn + left;
		*dv = gp_xrealloc(*dv, *dcap * elem);
	}
	if (!left) {
		free(*sv);
		*sv = NULL;
		*scap = 0;
		return *dv;   /* possibly NULL: no offset may be applied to it */
	}
	first = (char *)*dv + *dn * elem;
	while (left) {
		size_t n = left < step ? left : step;
		left -= n;
		memcpy(first + left * elem, (char *)*sv + left * elem, n * elem);
		if (left)
			*sv = gp_xrealloc(*sv, left * elem);
	}
	*dn += *sn;
	free(*sv);
	*sv = NULL;
	*sn = *scap = 0;
	return first;
}

#define VEC_MOVE(d, s) \
	vec_move((void **)&(d).v, &(d).n, &(d).cap, (void **)&(s).v, &(s).n, &(s).cap, sizeof(*(d).v))

/* The synthetic ids of q (a later part) must be those the sequential
** parse gives: q's strings take the ids p's table gives them, those new to
** p are added to it in q's order of first use, and q's records holding
** one (q->synth_refs) are renumbered.  Returns false where that cannot be
** done exactly (a synthetic id in a GPU record's device or stream, a full
** table). */
static bool merge_synth(struct kineto_parser *p, struct kineto_parser *q)
{
	uint32_t id[KINETO_MAX_SYNTH_IDS];
	bool same = true;

	if (q->nsynth == KINETO_MAX_SYNTH_IDS)
		return false;
	for (int i = 0; i < q->nsynth; i++) {
		int j = 0;
		while (j < p->nsynth && strcmp(p->synth[j], q->synth[i]) != 0)
			j++;
		if (j == p->nsynth) {
			if (p->nsynth == KINETO_MAX_SYNTH_IDS)
				return false;
			memcpy(p->synth[p->nsynth++], q->synth[i], sizeof(q->synth[i]));
		}
		id[i] = UINT32_MAX - (uint32_t)j;
		same = same && j == i;
	}
	if (same)
		return true;
	if (q->synth_stuck)
		return false;
	gp_trace *u = q->t;
#define RENUMBER(field) (field = id[UINT32_MAX - (uint32_t)(field)])
	for (size_t k = 0; k < q->synth_refs.n; k++) {
		const struct synth_ref *r = &q->synth_refs.v[k];
		uint32_t *pid = NULL, *tid = NULL;
		switch (r->table) {
		case SR_API: pid = &u->apis.v[r->index].pid; tid = &u->apis.v[r->index].tid; break;
		case SR_RANGE: pid = &u->ranges.v[r->index].pid; tid = &u->ranges.v[r->index].tid; break;
		case SR_PROCESS: pid = &u->processes.v[r->index].pid; break;
		case SR_THREAD: pid = &u->threads.v[r->index].pid; tid = &u->threads.v[r->index].tid; break;
		case SR_MEMEVENT: pid = &u->memevents.v[r->index].pid; tid = &u->memevents.v[r->index].tid; break;
		case SR_FLOW:
			pid = &q->flows.v[r->index].pid;
			tid = &q->flows.v[r->index].tid;
			if (r->fields & S_ID)
				RENUMBER(q->flows.v[r->index].id);
			break;
		}
		if (r->fields & S_PID)
			RENUMBER(*pid);
		if (r->fields & S_TID)
			RENUMBER(*tid);
	}
#undef RENUMBER
	return true;
}

/* Moves the records, strings, metadata and counters of q (a later part)
** into p (the first part, on the caller's trace), as if p had parsed q's
** bytes itself.  q's trace is emptied.  Returns false where the merge
** could not be exact (the caller then parses sequentially). */
static bool merge_part(struct kineto_parser *p, struct kineto_parser *q)
{
	gp_trace *t = p->t, *u = q->t;

	if (!merge_synth(p, q) || q->skipped.n >= KINETO_MAX_SKIPPED || (t->devices.n && u->devices.n))
		return false;
	if (q->clock_res < p->clock_res)
		p->clock_res = q->clock_res;

	/* strings, in order of first use in q: ids as one pass would give */
	gp_str *map = gp_xmalloc(u->strs.n * sizeof(*map));
	map[0] = 0;
	for (uint32_t i = 1; i < u->strs.n; i++)
		map[i] = gp_strtab_intern_n(&t->strs, gp_strtab_get(&u->strs, i),
					    gp_strtab_len(&u->strs, i));

	/* the counts of q's records, which the moves below empty */
	size_t n_devices = u->devices.n, n_processes = u->processes.n, n_threads = u->threads.n;
	size_t n_kernels = u->kernels.n, n_apis = u->apis.n, n_ranges = u->ranges.n;
	size_t n_op_exts = u->op_exts.n, n_range_nvtx = u->range_nvtx.n;
	struct gp_device *d = VEC_MOVE(t->devices, u->devices);
	for (size_t i = 0; i < n_devices; i++)
		d[i].name = map[d[i].name];
	struct gp_process *pr = VEC_MOVE(t->processes, u->processes);
	for (size_t i = 0; i < n_processes; i++)
		pr[i].name = map[pr[i].name];
	struct gp_thread *th = VEC_MOVE(t->threads, u->threads);
	for (size_t i = 0; i < n_threads; i++)
		th[i].name = map[th[i].name];
	/* q's kernel defs, in t's strings, shared with t's equal ones */
	uint32_t *defmap = gp_xmalloc(u->kernel_defs.n * sizeof(*defmap));
	for (size_t i = 0; i < u->kernel_defs.n; i++) {
		struct gp_kernel_def x = u->kernel_defs.v[i];
		x.name = map[x.name];
		x.demangled = map[x.demangled];
		x.mangled = map[x.mangled];
		defmap[i] = i ? gp_kernel_def_add(t, &x) : 0;
	}
	struct gp_kernel *k = VEC_MOVE(t->kernels, u->kernels);
	for (size_t i = 0; i < n_kernels; i++)
		k[i].def = defmap[k[i].def];
	free(defmap);
	uint32_t *apimap = gp_xmalloc(u->api_defs.n * sizeof(*apimap));
	for (size_t i = 0; i < u->api_defs.n; i++) {
		struct gp_api_def x = u->api_defs.v[i];
		x.name = map[x.name];
		apimap[i] = i ? gp_api_def_add(t, &x) : 0;
	}
	struct gp_api *a = VEC_MOVE(t->apis, u->apis);
	for (size_t i = 0; i < n_apis; i++)
		a[i].def = apimap[a[i].def];
	free(apimap);
	VEC_MOVE(t->memcpys, u->memcpys);
	VEC_MOVE(t->memsets, u->memsets);
	VEC_MOVE(t->syncs, u->syncs);
	VEC_MOVE(t->event_records, u->event_records);
	VEC_MOVE(t->memevents, u->memevents);
	uint32_t ext0 = (uint32_t)t->op_exts.n, nvtx0 = (uint32_t)t->range_nvtx.n;
	struct gp_range *r = VEC_MOVE(t->ranges, u->ranges);
	for (size_t i = 0; i < n_ranges; i++) {
		r[i].text = map[r[i].text];
		if (r[i].ext)
			r[i].ext += r[i].flags & GP_RANGE_F_NVTX ? nvtx0 : ext0;
	}
	struct gp_range_nvtx *rn = VEC_MOVE(t->range_nvtx, u->range_nvtx);
	for (size_t i = 0; i < n_range_nvtx; i++)
		rn[i].domain = map[rn[i].domain];
	struct gp_op_ext *x = VEC_MOVE(t->op_exts, u->op_exts);
	for (size_t i = 0; i < n_op_exts; i++) {
		x[i].input_dims = map[x[i].input_dims];
		x[i].input_types = map[x[i].input_types];
		x[i].concrete_inputs = map[x[i].concrete_inputs];
		x[i].call_stack = map[x[i].call_stack];
	}
	size_t n_coll_args = u->coll_args.n;
	struct gp_coll_args *ca = VEC_MOVE(t->coll_args, u->coll_args);
	for (size_t i = 0; i < n_coll_args; i++) {
		ca[i].name = map[ca[i].name];
		ca[i].group = map[ca[i].group];
		ca[i].in_split = map[ca[i].in_split];
		ca[i].out_split = map[ca[i].out_split];
		ca[i].ranks = map[ca[i].ranks];
	}
	size_t n_launch_args = u->launch_args.n, n_annots = u->node_annots.n;
	struct gp_launch_args *la = VEC_MOVE(t->launch_args, u->launch_args);
	for (size_t i = 0; i < n_launch_args; i++)
		la[i].kernel = map[la[i].kernel];
	struct gp_node_annot *na = VEC_MOVE(t->node_annots, u->node_annots);
	for (size_t i = 0; i < n_annots; i++) {
		na[i].name = map[na[i].name];
		na[i].layer = map[na[i].layer];
	}
	for (size_t i = 0; i < u->meta.n; i++)
		gp_trace_meta_set(t, gp_s(u, u->meta.v[i].key), gp_s(u, u->meta.v[i].value));
	for (size_t i = 0; i < u->warnings.n; i++)
		gp_trace_warn(t, "%s", gp_s(u, u->warnings.v[i]));
	free(map);

	VEC_MOVE(p->flows, q->flows);
	VEC_MOVE(p->ac2g[0], q->ac2g[0]);
	VEC_MOVE(p->ac2g[1], q->ac2g[1]);
	for (size_t i = 0; i < q->skipped.n; i++) {
		size_t j = 0;
		while (j < p->skipped.n && strcmp(p->skipped.v[j].name, q->skipped.v[i].name) != 0)
			j++;
		if (j < p->skipped.n)
			p->skipped.v[j].count += q->skipped.v[i].count;
		else if (p->skipped.n < KINETO_MAX_SKIPPED)
			*gp_vec_push(p->skipped) = q->skipped.v[i];
	}
	if (q->base_set) {
		p->base_ns = q->base_ns;
		p->base_set = true;
	}
	p->nevents += q->nevents;
	p->with_ph += q->with_ph;
	p->no_ts += q->no_ts;
	p->neg_dur += q->neg_dur;
	p->no_launch_cfg += q->no_launch_cfg;
	p->hip_apis += q->hip_apis;
	p->mem_unread += q->mem_unread;
	p->mem_other_type += q->mem_other_type;
	p->mem_negative_total += q->mem_negative_total;
	return true;
}

/* The split: cut points near size/nparts * i, one part per thread, part 0
** on the caller's. */
int kineto_parse_parallel(struct kineto_parser *p, int fd, const char *mem, uint64_t size, int nparts,
			  const struct gp_load_opts *o)
{
	uint64_t bounds[KINETO_MAX_PARTS + 1][2];   /* part i: [bounds[i][1], bounds[i+1][0]) */
	struct layout lay;
	struct kineto_saved saved;
	int n = 0;

	learn_layout(fd, mem, size, &lay);
	bounds[0][1] = 0;
	for (int i = 1; i < nparts; i++) {
		uint64_t e, s, at = size / (uint64_t)nparts * (uint64_t)i;
		if (at <= bounds[n][1])
			continue;
		uint64_t limit = size - at > SPLIT_SEARCH ? at + SPLIT_SEARCH : size;
		if (find_split(fd, mem, size, &lay, at, limit, &e, &s) && e > bounds[n][1]) {
			n++;
			bounds[n][0] = e;
			bounds[n][1] = s;
		}
	}
	n++;
	bounds[n][0] = size;
	if (n < 2 || !kineto_save(p, &saved))
		return -1;

	struct part *w = gp_xcalloc((size_t)n, sizeof(*w));
	_Atomic bool stop = false;
	for (int i = 0; i < n; i++) {
		w[i].fd = fd;
		w[i].mem = mem;
		w[i].lay = &lay;
		w[i].start = bounds[i][1];
		w[i].end = bounds[i + 1][0];
		w[i].index = i;
		w[i].stop = &stop;
		w[i].all = w;
		w[i].nparts = n;
		w[i].total = size;
		if (i == 0) {
			w[i].p = *p;
			w[i].p.err = &w[i].err;
			w[i].o = o;
		} else {
			gp_trace_init(&w[i].t);
			kineto_parser_init(&w[i].p, p->path, &w[i].t, &w[i].err);
			w[i].p.win = p->win;
			w[i].p.note_synth = true;
		}
	}
	for (int i = 1; i < n; i++)
		w[i].started = pthread_create(&w[i].thread, NULL, parse_part, &w[i]) == 0;
	parse_part(&w[0]);
	for (int i = 1; i < n; i++) {
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
		else if (!stop)
			parse_part(&w[i]);
	}
	/* the parts kept: 0, then the one after the last part each kept one
	** parsed through; every one of them must have parsed cleanly */
	bool ok = w[0].ok;
	for (int i = w[0].upto + 1; ok && i < n; i = w[i].upto + 1)
		ok = w[i].ok;
	gp_error *err = p->err;
	*p = w[0].p;
	p->err = err;
	/* every part is freed, the parts a part before parsed through too */
	for (int i = 1, next = w[0].upto + 1; i < n; i++) {
		if (i == next) {
			ok = ok && merge_part(p, &w[i].p);
			next = w[i].upto + 1;
		}
		kineto_parser_free(&w[i].p);
		gp_trace_free(&w[i].t);
	}
	free(w);
	if (ok && p->top_is_array && p->nevents && !p->with_ph)
		ok = false;   /* not a trace: the one-pass parse says so */
	if (ok)
		kineto_finish(p);
	else
		kineto_restore(p, &saved);
	kineto_saved_free(&saved);
	return ok ? GP_OK : -1;
}
