/*
** Reader: gpuprof recordings, as libgpuprof writes them (GPUPROF_RECORD).
** The format is in include/gpuprof/record-format.h: tab-separated lines
** after a "GPUPROF-REC<TAB>1" magic line, ending with an "end" trailer
** that counts what came before (so a truncated file is caught).
**
** Ranges keep their kind (push/pop, start/end, mark, timer); the training
** markers become push/pop ranges named iteration/forward/backward/update.
** Timer statistics go to metadata: "timer NAME" and "gpu-timer NAME" with
** value "calls=N total_ns=T min_ns=A max_ns=B sumsq_ns2=S".
*/
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gpuprof/record-format.h"
#include "readers/reader.h"

#define MAX_FIELDS 12

static double probe(const struct gp_probe_input *in)
{
	size_t n = strlen(GPREC_MAGIC);
	return in->head_len >= n && memcmp(in->head, GPREC_MAGIC, n) == 0 ? 1.0 : 0;
}

/* Undoes the recording's escapes in place (\\ \t \n \r); false on a bad
** escape. */
static bool unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s != '\\') {
			*o++ = *s;
			continue;
		}
		switch (*++s) {
		case '\\': *o++ = '\\'; break;
		case 't': *o++ = '\t'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		default: return false;
		}
	}
	*o = '\0';
	return true;
}

/* Splits line at TABs into f[]; returns the number of fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

static bool parse_i64(const char *s, int64_t *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && errno == 0;
}

static bool parse_u32(const char *s, uint32_t *v, int base)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	x = strtoull(s, &end, base);
	*v = (uint32_t)x;
	return !*end && errno == 0 && x <= UINT32_MAX;
}

static bool parse_double(const char *s, double *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtod(s, &end);
	return !*end && *v == *v && *v >= 0 && *v < 1e300;
}

struct rec_state {
	gp_trace *t;
	uint32_t pid;
	uint64_t nranges, ntimers;
	bool ended;
};

static int parse_range(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	static const char *const kinds[] = GPREC_KIND_NAMES;
	static const uint8_t to_range_kind[] = {
		[GPREC_PUSH] = GP_RANGE_PUSHPOP, [GPREC_STARTEND] = GP_RANGE_STARTEND,
		[GPREC_MARK] = GP_RANGE_MARK, [GPREC_TIMER] = GP_RANGE_TIMER,
		[GPREC_ITERATION] = GP_RANGE_PUSHPOP, [GPREC_FORWARD] = GP_RANGE_PUSHPOP,
		[GPREC_BACKWARD] = GP_RANGE_PUSHPOP, [GPREC_UPDATE] = GP_RANGE_PUSHPOP,
	};
	struct gp_range r = {.parent = -1};
	int64_t arg;
	int kind = -1;

	if (n != 10)
		return gp_err(err, GP_ERR_CORRUPT, "%s: range has %d fields, expected 10", where, n);
	for (int k = 0; k < GPREC_KIND__COUNT; k++)
		if (strcmp(f[1], kinds[k]) == 0)
			kind = k;
	if (kind < 0)
		return gp_err(err, GP_ERR_CORRUPT, "%s: unknown range kind '%.40s'", where, f[1]);
	if (!parse_u32(f[2], &r.tid, 10) || !parse_u32(f[3], &r.end_tid, 10) ||
	    !parse_i64(f[4], &r.start) || !parse_i64(f[5], &r.end) ||
	    !parse_u32(f[6], &r.color, 16) || !parse_i64(f[7], &arg))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad number in a range", where);
	if (r.end < r.start)
		return gp_err(err, GP_ERR_CORRUPT, "%s: range ends (%" PRId64 ") before it starts (%" PRId64 ")",
			      where, r.end, r.start);
	if (!unescape(f[8]) || !unescape(f[9]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad escape in a name", where);
	r.pid = st->pid;
	r.kind = to_range_kind[kind];
	r.domain = gp_intern(st->t, f[8]);
	r.text = gp_intern(st->t, f[9]);
	*gp_vec_push(st->t->ranges) = r;
	st->nranges++;
	return GP_OK;
}

static int parse_timer(struct rec_state *st, char **f, int n, const char *where, gp_error *err)
{
	double total, min, max, sumsq;
	int64_t count;
	char key[4096], val[256];

	if (n != 8)
		return gp_err(err, GP_ERR_CORRUPT, "%s: timer has %d fields, expected 8", where, n);
	if (strcmp(f[1], "cpu") && strcmp(f[1], "gpu"))
		return gp_err(err, GP_ERR_CORRUPT, "%s: timer kind '%.40s' is not cpu or gpu", where, f[1]);
	if (!parse_i64(f[2], &count) || count < 0 || !parse_double(f[3], &total) ||
	    !parse_double(f[4], &min) || !parse_double(f[5], &max) || !parse_double(f[6], &sumsq) ||
	    min > max || (count && max > total))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad timer statistics", where);
	if (!unescape(f[7]))
		return gp_err(err, GP_ERR_CORRUPT, "%s: bad escape in a timer name", where);
	snprintf(key, sizeof(key), "%s %s", f[1][0] == 'g' ? "gpu-timer" : "timer", f[7]);
	snprintf(val, sizeof(val), "calls=%" PRId64 " total_ns=%.0f min_ns=%.0f max_ns=%.0f sumsq_ns2=%.17g",
		 count, total, min, max, sumsq);
	gp_trace_meta_set(st->t, key, val);
	st->ntimers++;
	return GP_OK;
}

/* One line (without its newline). */
static int parse_line(struct rec_state *st, char *line, const char *where, gp_error *err)
{
	char *f[MAX_FIELDS];
	int n = split(line, f, MAX_FIELDS);

	if (st->ended)
		return gp_err(err, GP_ERR_CORRUPT, "%s: data after the end line", where);
	if (strcmp(f[0], "range") == 0)
		return parse_range(st, f, n, where, err);
	if (strcmp(f[0], "timer") == 0)
		return parse_timer(st, f, n, where, err);
	if (strcmp(f[0], "meta") == 0) {
		if (n != 3 || !unescape(f[1]) || !unescape(f[2]))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad meta line", where);
		if (strcmp(f[1], "pid") == 0 && !parse_u32(f[2], &st->pid, 10))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad pid '%.40s'", where, f[2]);
		if (strcmp(f[1], "lib_version") == 0) {
			char v[128];
			snprintf(v, sizeof(v), "libgpuprof %.100s", f[2]);
			st->t->tool_version = gp_intern(st->t, v);
		}
		gp_trace_meta_set(st->t, f[1], f[2]);
		if (strcmp(f[1], "cmdline") == 0 && st->pid) {
			struct gp_process *p = gp_vec_push(st->t->processes);
			p->pid = st->pid;
			p->name = gp_intern(st->t, f[2]);
		}
		return GP_OK;
	}
	if (strcmp(f[0], "thread") == 0) {
		struct gp_thread th = {.pid = st->pid};
		if (n != 3 || !parse_u32(f[1], &th.tid, 10) || !unescape(f[2]))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad thread line", where);
		th.name = gp_intern(st->t, f[2]);
		*gp_vec_push(st->t->threads) = th;
		return GP_OK;
	}
	if (strcmp(f[0], "end") == 0) {
		int64_t nr, nt;
		if (n != 3 || !parse_i64(f[1], &nr) || !parse_i64(f[2], &nt))
			return gp_err(err, GP_ERR_CORRUPT, "%s: bad end line", where);
		if ((uint64_t)nr != st->nranges || (uint64_t)nt != st->ntimers)
			return gp_err(err, GP_ERR_CORRUPT,
				      "%s: the end line counts %" PRId64 " ranges and %" PRId64
				      " timers, the file holds %" PRIu64 " and %" PRIu64,
				      where, nr, nt, st->nranges, st->ntimers);
		st->ended = true;
		return GP_OK;
	}
	return GP_OK;   /* a record type from a later minor version */
}

/* Reads the next line of z into *buf (grown as needed), without the
** newline.  Returns 1, 0 at end of file, -1 on a read error. */
static int read_line(gzFile z, char **buf, size_t *cap, size_t *len)
{
	size_t n = 0;

	for (;;) {
		if (*cap - n < 2) {
			*cap = *cap ? *cap * 2 : 4096;
			*buf = gp_xrealloc(*buf, *cap);
		}
		if (!gzgets(z, *buf + n, (int)(*cap - n > INT32_MAX ? INT32_MAX : *cap - n))) {
			int e;
			gzerror(z, &e);
			if (e != Z_OK && e != Z_STREAM_END)
				return -1;
			*len = n;
			return n > 0;
		}
		n += strlen(*buf + n);
		if (n && (*buf)[n - 1] == '\n') {
			(*buf)[--n] = '\0';
			*len = n;
			return 1;
		}
		if (gzeof(z)) {
			*len = n;
			return n > 0;
		}
	}
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	struct rec_state st = {.t = t};
	gzFile z = gzopen(path, "rb");
	char *buf = NULL, where[1200];
	size_t cap = 0, len;
	uint64_t lineno = 0;
	int rc = GP_OK, r;

	if (!z)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	while ((r = read_line(z, &buf, &cap, &len)) > 0) {
		lineno++;
		snprintf(where, sizeof(where), "%s: line %" PRIu64, path, lineno);
		if (memchr(buf, '\0', len)) {
			rc = gp_err(err, GP_ERR_CORRUPT, "%s: NUL byte in the text", where);
			break;
		}
		if (lineno == 1) {
			size_t m = strlen(GPREC_MAGIC);
			int64_t version;
			if (len < m || memcmp(buf, GPREC_MAGIC, m) || !parse_i64(buf + m, &version)) {
				rc = gp_err(err, GP_ERR_FORMAT, "%s: not a gpuprof recording", where);
				break;
			}
			if (version != GPREC_VERSION) {
				rc = gp_err(err, GP_ERR_FORMAT,
					    "%s: recording version %" PRId64 ", this gpuprof reads version %d",
					    where, version, GPREC_VERSION);
				break;
			}
			continue;
		}
		rc = parse_line(&st, buf, where, err);
		if (rc)
			break;
		if (o && o->progress && lineno % 65536 == 0)
			o->progress(o->progress_ctx, (uint64_t)gzoffset(z), 0);
	}
	if (!rc && r < 0)
		rc = gp_err(err, GP_ERR_IO, "%s: read error after line %" PRIu64, path, lineno);
	if (!rc && !st.ended)
		rc = gp_err(err, GP_ERR_CORRUPT, "%s: truncated: no end line after line %" PRIu64,
			    path, lineno);
	free(buf);
	gzclose(z);
	return rc;
}

const struct gp_reader gp_reader_gprec = {
	.name = "gpuprof-rec",
	.description = "gpuprof recording (libgpuprof, GPUPROF_RECORD)",
	.probe = probe,
	.load = load,
};
