/*
** Reader: PyTorch profiler (Kineto) JSON trace, .json or .json.gz, both the
** current format (cpu_op, cuda_runtime, kernel, gpu_memcpy...;
** baseTimeNanoseconds) and the 2021 one (Operator, Runtime, Kernel...;
** absolute microseconds, string tids, "external id").
**
** One streaming pass with yajl over 256 KiB chunks: no DOM, memory grows
** with the records kept, not with the file.  Large plain files are parsed
** in parts on several threads and merged into the trace one pass would
** give (kineto_parallel.c); gzip files are inflated on a second thread
** (inflate.c).  How many threads, and from which size on a file is split,
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
	else if (!p->seen_events)
		rc = gp_err(p->err, GP_ERR_FORMAT,
			    "%s: not a PyTorch profiler trace: no traceEvents array in the JSON object",
			    p->path);
	else if (p->top_is_array && p->nevents && !p->with_ph)   /* vLLM's execution_details.json */
		rc = gp_err(p->err, GP_ERR_FORMAT,
			    "%s: not a PyTorch profiler trace: a JSON array of %" PRIu64 " objects, none "
			    "of them a trace event (no \"ph\")", p->path, p->nevents);
	else
		kineto_finish(p);
out:
	yajl_free(h);
	return rc;
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

int gp_kineto_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			  gp_error *err)
{
	struct kineto_parser *p = gp_xmalloc(sizeof(*p));
	struct membuf m = {.data = data, .len = len};
	int rc;

	kineto_parser_init(p, name, t, err);
	rc = parse_stream(p, read_mem, &m, NULL, NULL, len);
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
			rc = parse_stream(p, read_mem, &m, NULL, o, inflated.n);
	} else if (rc < 0) {
		gp_inflate *in = gp_inflate_open(path, KINETO_CHUNK, threads > 1 && gzip, err);
		if (in) {
			rc = parse_stream(p, read_inflate, in, where_inflate, o, size);
			gp_inflate_close(in);
		} else {
			rc = err->status;
		}
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
