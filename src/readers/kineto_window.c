/*
** The Kineto reader's read window (docs/window.md): before the parse, one
** cheap pass over the file finds the base time and, for --iters, the
** ProfilerStep#N events (memmem for the name, then only those objects are
** parsed), which give the window's span; the parse then keeps only events
** that overlap the read window (gp_window_read_span says why it is as
** wide as it is).  See kineto_int.h.
**
** The pre-scan never fails the load: when it cannot tell (a damaged file,
** an object it cannot delimit, no step of the window) it leaves the window
** off and the whole file is read; the cut after correlation is exact
** either way.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/inflate.h"
#include "readers/kineto.h"
#include "readers/kineto_int.h"

#define SCAN_CHUNK (1u << 20)
#define STEP_KEY "ProfilerStep#"
#define BASE_KEY "\"baseTimeNanoseconds\""
#define MAX_OBJECT (1u << 20)   /* a step event larger than this is not one */

struct scan {
	char *buf;              /* the unscanned tail of the file, and some before it */
	size_t len, cap;
	size_t step_from;       /* where the next step search starts in buf */
	size_t base_from;
	bool want_steps;
	struct text_buf doc;    /* {"traceEvents":[the step objects... */
	size_t nsteps;
	int64_t base;
	bool base_set;
	struct text_buf *keep;  /* the inflated bytes so far, while within keep_max */
	uint64_t keep_max;
};

/* The '{' opening the object around buf[at], skipping closed objects on
** the way back, at most MAX_OBJECT bytes back (a step object is never
** longer: the search costs no more than one object per key found); -1
** when there is none. */
static long object_start(const char *buf, size_t at)
{
	int depth = 0;

	for (size_t i = at; i-- > 0 && at - i <= MAX_OBJECT;) {
		if (buf[i] == '}')
			depth++;
		else if (buf[i] == '{' && depth-- == 0)
			return (long)i;
	}
	return -1;
}

/* One past the '}' closing the object that opens at buf[s] (strings and
** escapes respected); 0 when buf ends first. */
static size_t object_end(const char *buf, size_t s, size_t len)
{
	int depth = 0;
	bool in_string = false;

	for (size_t i = s; i < len; i++) {
		char c = buf[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && --depth == 0) {
			return i + 1;
		}
	}
	return 0;
}

/* Collects the step objects of buf from step_from on.  False when an
** object cannot be delimited (the scan gives up). */
static bool scan_steps(struct scan *sc, bool at_end)
{
	const char *h;

	while ((h = memmem(sc->buf + sc->step_from, sc->len - sc->step_from, STEP_KEY,
			   strlen(STEP_KEY))) != NULL) {
		size_t at = (size_t)(h - sc->buf);
		long s = object_start(sc->buf, at);
		if (s < 0)
			return false;
		size_t e = object_end(sc->buf, (size_t)s, sc->len);
		if (e == 0 || e - (size_t)s > MAX_OBJECT) {
			if (at_end || sc->len - (size_t)s > MAX_OBJECT)
				return false;
			sc->step_from = at;    /* the object goes on in the next chunk */
			return true;
		}
		if (e <= at) {
			/* the key sits in no object (a '{' inside a string fooled
			** the backward search): not a step event; look further on */
			sc->step_from = at + strlen(STEP_KEY);
			continue;
		}
		if (sc->nsteps++)
			kineto_buf_add(&sc->doc, ",", 1);
		kineto_buf_add(&sc->doc, sc->buf + s, e - (size_t)s);
		sc->step_from = e;
	}
	size_t keep = strlen(STEP_KEY);
	if (sc->len - sc->step_from > keep)
		sc->step_from = sc->len - keep;
	return true;
}

/* Finds baseTimeNanoseconds from base_from on. */
static void scan_base(struct scan *sc, bool at_end)
{
	const char *h = memmem(sc->buf + sc->base_from, sc->len - sc->base_from, BASE_KEY,
			       strlen(BASE_KEY));

	if (!h) {
		size_t keep = strlen(BASE_KEY);
		if (sc->len - sc->base_from > keep)
			sc->base_from = sc->len - keep;
		return;
	}
	size_t i = (size_t)(h - sc->buf) + strlen(BASE_KEY);
	while (i < sc->len && (sc->buf[i] == ' ' || sc->buf[i] == ':' || sc->buf[i] == '\n' ||
			       sc->buf[i] == '\r' || sc->buf[i] == '\t'))
		i++;
	size_t j = i;
	while (j < sc->len && (sc->buf[j] == '-' || (sc->buf[j] >= '0' && sc->buf[j] <= '9')))
		j++;
	if (j == sc->len && !at_end) {
		sc->base_from = (size_t)(h - sc->buf);   /* the number goes on */
		return;
	}
	sc->base_set = gp_json_i64(sc->buf + i, j - i, &sc->base);
	sc->base_from = j;
	if (!sc->base_set)
		sc->base = 0;
	sc->base_set = true;
}

/* Drops what the searches are done with, keeping 64 KiB before them for
** object_start. */
static void scan_shift(struct scan *sc)
{
	size_t from = sc->want_steps ? sc->step_from : sc->len;

	if (!sc->base_set && sc->base_from < from)
		from = sc->base_from;
	if (from <= 64 * 1024)
		return;
	size_t drop = from - 64 * 1024;
	memmove(sc->buf, sc->buf + drop, sc->len - drop);
	sc->len -= drop;
	sc->step_from = sc->step_from > drop ? sc->step_from - drop : 0;
	sc->base_from = sc->base_from > drop ? sc->base_from - drop : 0;
}

/* Appends a chunk to the kept inflated bytes; past keep_max drops them
** all and keeps no more. */
static void keep_chunk(struct scan *sc, const char *data, size_t n)
{
	if (!sc->keep)
		return;
	if (sc->keep->n + n > sc->keep_max) {
		free(sc->keep->s);
		memset(sc->keep, 0, sizeof(*sc->keep));
		sc->keep = NULL;
		return;
	}
	kineto_buf_add(sc->keep, data, n);
}

/* Streams path through the searches, reporting progress (o's, if any)
** against the file's size.  False when it gave up. */
static bool scan_file(struct scan *sc, const char *path, const struct gp_load_opts *o, uint64_t size,
		      bool threaded)
{
	gp_error err = {0};
	gp_inflate *in = gp_inflate_open(path, SCAN_CHUNK, threaded, &err);
	bool ok = in != NULL;

	while (ok) {
		const char *data, *why;
		long n = gp_inflate_read(in, &data, &why);
		if (n < 0) {
			ok = false;
			break;
		}
		if (n > 0) {
			if (sc->len + (size_t)n > sc->cap) {
				sc->cap = (sc->len + (size_t)n) * 2;
				sc->buf = gp_xrealloc(sc->buf, sc->cap);
			}
			memcpy(sc->buf + sc->len, data, (size_t)n);
			sc->len += (size_t)n;
			keep_chunk(sc, data, (size_t)n);
		}
		if (sc->want_steps)
			ok = scan_steps(sc, n == 0);
		if (!sc->base_set)
			scan_base(sc, n == 0);
		if (n == 0)
			break;
		if (o->progress)
			o->progress(o->progress_ctx, gp_inflate_position(in), size);
		scan_shift(sc);
	}
	if (in)
		gp_inflate_close(in);
	return ok;
}

/* The span of the ProfilerStep#a..b events the scan collected (absolute
** ns); false when none is. */
static bool steps_span(struct scan *sc, const char *path, int32_t a, int32_t b, gp_ns *lo, gp_ns *hi)
{
	char tail[64];
	gp_trace t;
	gp_error err = {0};
	bool any = false;

	snprintf(tail, sizeof(tail), "],\"baseTimeNanoseconds\":%lld}", (long long)sc->base);
	kineto_buf_add(&sc->doc, tail, strlen(tail));
	gp_trace_init(&t);
	if (gp_kineto_load_buffer(path, sc->doc.s, sc->doc.n, &t, &err) == GP_OK) {
		for (size_t i = 0; i < t.ranges.n; i++) {
			const struct gp_range *r = &t.ranges.v[i];
			const char *text = gp_s(&t, r->text);
			char *end;
			if (strncmp(text, STEP_KEY, strlen(STEP_KEY)) != 0)
				continue;
			long n = strtol(text + strlen(STEP_KEY), &end, 10);
			if (end == text + strlen(STEP_KEY) || n < a || n > b)
				continue;
			if (!any || r->start < *lo)
				*lo = r->start;
			if (!any || r->end > *hi)
				*hi = r->end;
			any = true;
		}
	}
	gp_trace_free(&t);
	return any;
}

/* x - base, saturating at the ends of the clock. */
static int64_t relative(gp_ns x, int64_t base)
{
	if (x == GP_NS_MIN || x == GP_NS_MAX)
		return x;
	if (base > 0 && x < GP_NS_MIN + base)
		return GP_NS_MIN;
	if (base < 0 && x > GP_NS_MAX + base)
		return GP_NS_MAX;
	return x - base;
}

bool kineto_window_prescan(struct kineto_parser *p, const char *path, const struct gp_load_opts *o,
			   uint64_t size, bool threaded, struct text_buf *keep)
{
	const struct gp_window *w = &o->window;
	struct scan sc = {.want_steps = w->mode == GP_WINDOW_ITERS, .keep = keep,
			  .keep_max = o->gzip_keep_bytes ? o->gzip_keep_bytes : KINETO_GZIP_KEEP};
	gp_ns lo = w->start, hi = w->end, rlo, rhi, glo;
	bool scanned;

	p->win.on = false;
	if (w->mode == GP_WINDOW_NONE)
		return false;
	if (w->mode == GP_WINDOW_TIME && !gp_window_read_span(lo, hi, &rlo, &rhi, &glo))
		return false;
	kineto_buf_add(&sc.doc, "{\"traceEvents\":[", 16);
	scanned = scan_file(&sc, path, o, size, threaded);
	if (scanned &&
	    (w->mode == GP_WINDOW_TIME || steps_span(&sc, path, w->iter_a, w->iter_b, &lo, &hi)) &&
	    gp_window_read_span(lo, hi, &rlo, &rhi, &glo)) {
		p->win.on = true;
		p->win.lo = relative(rlo, sc.base);
		p->win.hi = relative(rhi, sc.base);
		p->win.gpu_lo = relative(glo, sc.base);
	}
	if (keep && scanned && !sc.keep)
		gp_trace_warn(p->t, "read window: the gzip file was inflated twice (its inflated size "
			      "is over the %" PRIu64 " MiB a window read keeps to inflate it once)",
			      sc.keep_max >> 20);
	free(sc.buf);
	free(sc.doc.s);
	if (keep && (!scanned || !sc.keep)) {
		free(keep->s);
		memset(keep, 0, sizeof(*keep));
		return false;
	}
	return keep != NULL;
}

bool kineto_event_outside(const struct kineto_parser *p, const struct kineto_event *e, bool whole)
{
	if (!p->win.on || !(e->have & H_TS))
		return false;
	if (e->ts > p->win.hi)
		return true;
	if (!(e->have & H_DUR) && !whole)
		return false;   /* its dur may come later */
	int64_t dur = (e->have & H_DUR) && e->dur > 0 ? e->dur : 0;
	bool gpu = e->cat == CAT_KERNEL || e->cat == CAT_MEMCPY || e->cat == CAT_MEMSET;
	return e->ts + dur < (gpu ? p->win.gpu_lo : p->win.lo);
}
