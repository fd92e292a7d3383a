/*
** Choosing a reader by content and running it.  See reader.h.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "readers/captures.h"
#include "readers/reader.h"

#define HEAD_BYTES 4096

/* Checks that path names a regular file before anything opens it (opening
** a FIFO would block, and zlib reads a directory as an empty file).
** Returns GP_OK; GP_ERR_IO when it cannot be read: missing, no permission
** to look, a pipe (the readers need to read by position); GP_ERR_FORMAT
** when it is something else than a file: a directory, a device, a socket. */
static int check_file(const char *path, gp_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	if (S_ISREG(st.st_mode))
		return GP_OK;
	if (S_ISDIR(st.st_mode))
		return gp_err(err, GP_ERR_FORMAT, "%s: is a directory, not a trace file (give one trace file)",
			      path);
	if (S_ISFIFO(st.st_mode))
		return gp_err(err, GP_ERR_IO, "%s: is a pipe; gpuprof reads traces from regular files "
			      "(save it to a file first)", path);
	return gp_err(err, GP_ERR_FORMAT, "%s: is a %s, not a trace file", path,
		      S_ISCHR(st.st_mode) ? "character device" : S_ISBLK(st.st_mode) ? "block device"
		      : S_ISSOCK(st.st_mode) ? "socket" : "special file");
}

/* Reads up to HEAD_BYTES of the (possibly gzipped) file into head. */
static int read_head(const char *path, unsigned char *head, size_t *len, int *gz, gp_error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char magic[2] = {0, 0};
	size_t n;

	if (!f)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	n = fread(magic, 1, 2, f);
	fclose(f);
	*gz = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;

	gzFile z = gzopen(path, "rb");   /* reads plain files transparently */
	if (!z)
		return gp_err(err, GP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
	int r = gzread(z, head, HEAD_BYTES);
	gzclose(z);
	if (r < 0)
		r = 0;  /* a damaged gzip stream: let the readers see nothing */
	*len = (size_t)r;
	return GP_OK;
}

/* gp_trace_probe, with the best reader's claim (0..1) in *weight. */
static const struct gp_reader *probe_best(const char *path, double *weight, gp_error *err)
{
	unsigned char head[HEAD_BYTES];
	struct gp_probe_input in = {.path = path, .head = head};
	const struct gp_reader *best = NULL;
	double best_w = 0;
	int rc;

	rc = check_file(path, err);
	if (rc == GP_OK)
		rc = read_head(path, head, &in.head_len, &in.gzip, err);
	if (rc)
		return NULL;
	if (in.head_len == 0 && !in.gzip) {
		gp_err(err, GP_ERR_FORMAT, "%s: empty file, not a trace", path);
		return NULL;
	}
	for (size_t i = 0; gp_readers[i]; i++) {
		double w = gp_readers[i]->probe(&in);
		if (w > best_w) {
			best_w = w;
			best = gp_readers[i];
		}
	}
	if (!best)
		gp_err(err, GP_ERR_FORMAT,
		       "%s: not a recognised trace (expected an Nsight Systems or nvprof "
		       "SQLite export, a PyTorch profiler JSON trace, rocprofv3 output, a "
		       "JAX/TensorFlow XPlane profile or a gpuprof recording)",
		       path);
	*weight = best_w;
	return best;
}

const struct gp_reader *gp_trace_probe(const char *path, gp_error *err)
{
	double w;

	return probe_best(path, &w, err);
}

/* A reader's claim below this is a guess (JSON without a trace's keys in
** its head, a damaged SQLite file): only a read settles it. */
#define SURE_CLAIM 0.5

bool gp_trace_foreign(const char *path, gp_error *err)
{
	double w = 0;
	const struct gp_reader *best = probe_best(path, &w, err);
	gp_error lerr = {0};
	gp_trace t;
	int rc;

	if (!best)
		return err->status == GP_ERR_FORMAT;
	if (w >= SURE_CLAIM)
		return false;
	gp_trace_init(&t);
	rc = best->load(path, &t, NULL, &lerr);
	gp_trace_free(&t);
	if (rc != GP_ERR_FORMAT)
		return false;
	*err = lerr;
	return true;
}

int gp_trace_load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	const struct gp_reader *best = gp_trace_probe(path, err);
	int rc;

	if (!best)
		return err->status;
	t->path = gp_intern(t, path);
	t->format = gp_intern(t, best->name);
	t->work_threads = o && o->threads > 0 ? o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
	rc = best->load(path, t, o, err);
	if (rc)
		return rc;
	gp_trace_finish(t);
	return gp_captures_load(t, path, o ? &o->captures : NULL, err);
}
