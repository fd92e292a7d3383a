/*
** Reader: PyTorch profiler (Kineto) JSON trace, .json or .json.gz, both the
** current format (cpu_op, cuda_runtime, kernel, gpu_memcpy...;
** baseTimeNanoseconds) and the 2021 one (Operator, Runtime, Kernel...;
** absolute microseconds, string tids, "external id").
**
** One streaming pass over 256 KiB chunks: no DOM, memory grows with the
** records kept, not with the file.  The fast tokenizer (jsonscan.h) reads
** the JSON; where it gives up (invalid JSON, an error a callback found, a
** rare escape) the trace is put back as it was and yajl reads the file
** again, so every message and byte offset is yajl's.  Large plain files
** are parsed in parts on several threads and merged into the trace one
** pass would give (kineto_parallel.c); gzip files are inflated on a second
** thread (inflate.c).  How many threads, and from which size on a file is split,
** are load options: this file never reads the environment.  kineto_int.h
** lists the other files; docs/kineto.md has the field mapping.
*/
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readers/inflate.h"
#include "readers/kineto.h"
#include "readers/kineto_int.h"

#define DEFAULT_PARALLEL_MIN_BYTES (32u << 20)

/* A source of input chunks: returns the byte count with *data pointing at
** them (valid until the next call), 0 at the end, -1 on error (with
** *errmsg). */
typedef long (*read_fn)(void *src, const char **data, const char **errmsg);
/* How far into the file the source is, for progress against its size
** (for a gzip file: compressed bytes, not the inflated offset). */
typedef uint64_t (*where_fn)(void *src);

/* The message for a yajl status other than ok, in p->err; returns its
** status.  offset: bytes consumed; at_end: the input ended cleanly. */
static int parse_error(struct kineto_parser *p, yajl_handle h, yajl_status st, uint64_t offset,
		       bool at_end)
{
	if (st == yajl_status_client_canceled)   /* fail() wrote the message; add where */
		return gp_json_err_at(p->err, offset);
	if (at_end && p->depth > 0)
		return gp_err(p->err, GP_ERR_CORRUPT,
			      "%s: truncated JSON: the file ends inside %s after %" PRIu64
			      " events (byte offset %" PRIu64 ")",
			      p->path, p->depth >= 2 && p->nevents ? "traceEvents" : "the document",
			      p->nevents, offset);

	char msg[256];
	gp_json_yajl_error(h, msg, sizeof(msg));
	return gp_err(p->err, p->nevents ? GP_ERR_CORRUPT : GP_ERR_FORMAT,
		      "%s: invalid JSON (%s): at byte offset %" PRIu64 ", after %" PRIu64 " events",
		      p->path, msg, offset, p->nevents);
}

/* The not-a-trace tests of a document that parsed: returns GP_OK, or the
** error. */
static int check_trace(struct kineto_parser *p)
{
	if (!p->seen_events)
		return gp_err(p->err, GP_ERR_FORMAT,
			      "%s: not a PyTorch profiler trace: no traceEvents array in the JSON object",
			      p->path);
	if (p->top_is_array && p->nevents && !p->with_ph)   /* vLLM's execution_details.json */
		return gp_err(p->err, GP_ERR_FORMAT,
			      "%s: not a PyTorch profiler trace: a JSON array of %" PRIu64 " objects, none "
			      "of them a trace event (no \"ph\")", p->path, p->nevents);
	return GP_OK;
}

/* The sequential parse: every chunk of src through one yajl handle, then
** kineto_finish(); progress (o's, if any) is where(src) of total, or the
** bytes parsed when where is NULL.  Returns GP_OK, or an error naming the
** file, what and where (docs/kineto.md). */
static int parse_stream(struct kineto_parser *p, read_fn rd, void *src, where_fn where,
			const struct gp_load_opts *o, uint64_t total)
{
	yajl_handle h = kineto_yajl(p);
	uint64_t offset = 0;
	int rc = GP_OK;
	yajl_status st = yajl_status_ok;

	for (;;) {
		const char *errmsg = NULL, *data;
		long n = rd(src, &data, &errmsg);
		if (n < 0) {
			rc = gp_err(p->err, GP_ERR_CORRUPT,
				    "%s: truncated or damaged gzip stream (%s): after %" PRIu64
				    " uncompressed bytes, %" PRIu64 " events",
				    p->path, gp_inflate_cause(errmsg, p->path), offset, p->nevents);
			goto out;
		}
		if (n == 0)
			break;
		st = yajl_parse(h, (const unsigned char *)data, (size_t)n);
		if (st != yajl_status_ok) {
			rc = parse_error(p, h, st, offset + yajl_get_bytes_consumed(h), false);
			goto out;
		}
		offset += (uint64_t)n;
		if (o && o->progress)
			o->progress(o->progress_ctx, where ? where(src) : offset, total);
	}
	st = yajl_complete_parse(h);
	if (st != yajl_status_ok)
		rc = parse_error(p, h, st, offset, true);
	else if ((rc = check_trace(p)) == GP_OK)
		kineto_finish(p);
out:
	yajl_free(h);
	return rc;
}

/* parse_stream's fast twin: the same with the fast tokenizer, which
** returns GP_OK or -1 for anything else (invalid JSON, a callback's error,
** a damaged gzip stream, the tokenizer giving up): the caller then puts
** the trace back and runs parse_stream, which words the error. */
static int parse_fast(struct kineto_parser *p, read_fn rd, void *src, where_fn where,
		      const struct gp_load_opts *o, uint64_t total)
{
	gp_jscan *j = kineto_jscan(p);
	uint64_t offset = 0;
	bool ok = true;

	for (;;) {
		const char *errmsg = NULL, *data;
		long n = rd(src, &data, &errmsg);
		if (n <= 0) {
			ok = n == 0;
			break;
		}
		if (!gp_jscan_parse(j, data, (size_t)n)) {
			ok = false;
			break;
		}
		offset += (uint64_t)n;
		if (o && o->progress)
			o->progress(o->progress_ctx, where ? where(src) : offset, total);
	}
	ok = ok && gp_jscan_complete(j) && !p->failed && check_trace(p) == GP_OK;
	gp_jscan_free(j);
	if (ok)
		kineto_finish(p);
	return ok ? GP_OK : -1;
}

bool kineto_save(const struct kineto_parser *p, struct kineto_saved *s)
{
	const gp_trace *t = p->t;

	if (t->devices.n || t->processes.n || t->threads.n || t->kernels.n || t->apis.n ||
	    t->memcpys.n || t->memsets.n || t->syncs.n || t->event_records.n || t->ranges.n || t->op_exts.n ||
	    t->range_nvtx.n || t->memevents.n || t->coll_args.n || t->launch_args.n || t->node_annots.n ||
	    t->args.n || t->meta.n || t->warnings.n || t->attrs)
		return false;
	s->n = t->strs.n;
	s->strs = gp_xmalloc(s->n * sizeof(*s->strs));
	for (uint32_t i = 1; i < s->n; i++)
		s->strs[i] = gp_xstrdup(gp_s(t, i));
	return true;
}

void kineto_restore(struct kineto_parser *p, const struct kineto_saved *s)
{
	gp_trace *t = p->t;
	gp_str path = t->path, format = t->format, tool = t->tool_version;
	struct kineto_window win = p->win;

	gp_trace_free(t);
	gp_trace_init(t);
	for (uint32_t i = 1; i < s->n; i++)
		gp_strtab_intern(&t->strs, s->strs[i]);
	t->path = path;
	t->format = format;
	t->tool_version = tool;
	kineto_parser_free(p);
	kineto_parser_init(p, p->path, t, p->err);
	p->win = win;
}

void kineto_saved_free(struct kineto_saved *s)
{
	for (uint32_t i = 1; i < s->n; i++)
		free(s->strs[i]);
	free(s->strs);
	s->strs = NULL;
	s->n = 0;
}

struct membuf {
	const char *data;
	size_t len, pos;
};

static long read_mem(void *src, const char **data, const char **errmsg)
{
	struct membuf *m = src;
	size_t n = m->len - m->pos < KINETO_CHUNK ? m->len - m->pos : KINETO_CHUNK;

	*data = m->data + m->pos;
	m->pos += n;
	return (long)n;
}

static long read_inflate(void *src, const char **data, const char **errmsg)
{
	return gp_inflate_read(src, data, errmsg);
}

static uint64_t where_inflate(void *src)
{
	return gp_inflate_position(src);
}

/* m's bytes, by the fast tokenizer and, where it gives up, by yajl. */
static int parse_mem(struct kineto_parser *p, struct membuf *m, const struct gp_load_opts *o)
{
	struct kineto_saved saved;
	int rc = -1;

	if (kineto_save(p, &saved)) {
		rc = parse_fast(p, read_mem, m, NULL, o, m->len);
		if (rc < 0)
			kineto_restore(p, &saved);
		kineto_saved_free(&saved);
	}
	if (rc < 0) {
		m->pos = 0;
		rc = parse_stream(p, read_mem, m, NULL, o, m->len);
	}
	return rc;
}

typedef int (*parse_fn)(struct kineto_parser *p, read_fn rd, void *src, where_fn where,
			const struct gp_load_opts *o, uint64_t total);

/* The file at path (size bytes, plain or gzip; threaded: inflated on a
** second thread) through parse (parse_fast or parse_stream). */
static int parse_path(struct kineto_parser *p, parse_fn parse, const char *path, bool threaded,
		      const struct gp_load_opts *o, uint64_t size, gp_error *err)
{
	gp_inflate *in = gp_inflate_open(path, KINETO_CHUNK, threaded, err);
	int rc;

	if (!in)
		return err->status;
	rc = parse(p, read_inflate, in, where_inflate, o, size);
	gp_inflate_close(in);
	return rc;
}

/* The file at path, as parse_mem does with bytes in memory. */
static int parse_file(struct kineto_parser *p, const char *path, bool threaded,
		      const struct gp_load_opts *o, uint64_t size, gp_error *err)
{
	struct kineto_saved saved;
	int rc = -1;

	if (kineto_save(p, &saved)) {
		rc = parse_path(p, parse_fast, path, threaded, o, size, err);
		if (rc < 0)
			kineto_restore(p, &saved);
		kineto_saved_free(&saved);
	}
	if (rc < 0)
		rc = parse_path(p, parse_stream, path, threaded, o, size, err);
	return rc;
}

int gp_kineto_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			  gp_error *err)
{
	struct kineto_parser *p = gp_xmalloc(sizeof(*p));
	struct membuf m = {.data = data, .len = len};
	int rc;

	kineto_parser_init(p, name, t, err);
	rc = parse_mem(p, &m, NULL);
	kineto_parser_free(p);
	free(p);
	return rc;
}

/* The threads to use: o->threads, else the online CPUs; 1 to
** KINETO_MAX_PARTS. */
static int thread_count(const struct gp_load_opts *o)
{
	long n = o && o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	return n > KINETO_MAX_PARTS ? KINETO_MAX_PARTS : (int)n;
}

/* Plain files below this are parsed by one thread: splitting costs more
** than it saves there. */
static uint64_t parallel_min_bytes(const struct gp_load_opts *o)
{
	return o && o->parallel_min_bytes ? o->parallel_min_bytes : DEFAULT_PARALLEL_MIN_BYTES;
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct stat stbuf = {0};
	unsigned char magic[2] = {0, 0};
	uint64_t size;
	int threads = thread_count(o), rc = -1, fd;
	struct kineto_parser *p;
	struct text_buf inflated = {0};
	bool have_inflated = false;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	size = fstat(fd, &stbuf) == 0 ? (uint64_t)stbuf.st_size : 0;
	p = gp_xmalloc(sizeof(*p));
	kineto_parser_init(p, path, t, err);
	bool gzip = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (o)
		have_inflated = kineto_window_prescan(p, path, o, size, threads > 1 && gzip,
						      gzip ? &inflated : NULL);
	if (threads > 1 && !gzip && S_ISREG(stbuf.st_mode) && size >= parallel_min_bytes(o))
		rc = kineto_parse_parallel(p, fd, NULL, size, threads, o);
	if (have_inflated) {   /* the pre-scan kept the inflated file: parse it from memory */
		struct membuf m = {.data = inflated.s, .len = inflated.n};
		if (threads > 1 && inflated.n >= parallel_min_bytes(o))
			rc = kineto_parse_parallel(p, -1, inflated.s, inflated.n, threads, o);
		if (rc < 0)
			rc = parse_mem(p, &m, o);
	} else if (rc < 0) {
		rc = parse_file(p, path, threads > 1 && gzip, o, size, err);
	}
	close(fd);
	free(inflated.s);
	kineto_parser_free(p);
	free(p);
	return rc;
}

/* Content sniffing: a JSON object whose first keys include traceEvents or
** Kineto's header keys, or a bare array of trace events. */
static double probe(const struct gp_probe_input *in)
{
	size_t i = 0;
	char head[4097];
	size_t n = in->head_len < 4096 ? in->head_len : 4096;

	while (i < n && (in->head[i] == ' ' || in->head[i] == '\t' || in->head[i] == '\n' ||
			 in->head[i] == '\r'))
		i++;
	if (i == n || (in->head[i] != '{' && in->head[i] != '['))
		return 0;
	memcpy(head, in->head, n);
	head[n] = '\0';
	for (size_t j = 0; j < n; j++)
		if (head[j] == '\0')
			head[j] = ' ';
	if (head[i] == '{') {
		if (strstr(head, "\"traceEvents\"") || strstr(head, "\"schemaVersion\"") ||
		    strstr(head, "\"deviceProperties\"") || strstr(head, "\"distributedInfo\""))
			return 0.9;
		return 0.2;   /* JSON, maybe with a long header first: let load() decide */
	}
	if (strstr(head, "\"ph\"") && (strstr(head, "\"ts\"") || strstr(head, "\"name\"")))
		return 0.6;
	return 0.1;
}

const struct gp_reader gp_reader_kineto = {
	.name = "kineto",
	.description = "PyTorch profiler (Kineto) JSON trace",
	.probe = probe,
	.load = load,
};
