/*
** Capture traces read with a replay trace; see captures.h and
** docs/correlation.md ("Kineto: capture traces").
**
** Which files: the --capture paths, else capture_traces/ beside the trace.
** What each says about itself: vLLM's execution_details.json beside it
** gives batch size and mode by file name; the names give the rank
** (graph_capture_rank_R.*, *_rankR.*) and SGLang's the batch size
** (bs_B_rankR.*); the trace's own distributedInfo the rank too.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_tree.h>

#include "readers/captures.h"
#include "util/alloc.h"

#define CAPTURE_DIR "capture_traces"
#define DETAILS_FILE "execution_details.json"
#define DETAILS_MAX (4 << 20)   /* bytes: a note of a few lines per graph */

/* What execution_details.json says of one capture file. */
struct detail {
	char *file;             /* base name */
	char *mode;
	int32_t batch;
};

struct details {
	GP_VEC(struct detail) v;
};

static void details_free(struct details *d)
{
	for (size_t i = 0; i < d->v.n; i++) {
		free(d->v.v[i].file);
		free(d->v.v[i].mode);
	}
	gp_vec_free(d->v);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Reads dir/execution_details.json into d when it is there; a note on t
** when it is there but not what vLLM writes (then d stays empty). */
static void read_details(gp_trace *t, const char *dir, struct details *d)
{
	char path[4096], ebuf[256];
	FILE *f;
	char *text;
	size_t n;
	yajl_val root;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, DETAILS_FILE) >= sizeof(path) ||
	    !(f = fopen(path, "rb")))
		return;
	text = gp_xmalloc(DETAILS_MAX + 1);
	n = fread(text, 1, DETAILS_MAX + 1, f);
	fclose(f);
	text[n <= DETAILS_MAX ? n : DETAILS_MAX] = '\0';
	root = n <= DETAILS_MAX ? yajl_tree_parse(text, ebuf, sizeof(ebuf)) : NULL;
	free(text);
	if (!YAJL_IS_ARRAY(root)) {
		gp_trace_warn(t, "%s: not a list of capture files (batch sizes and modes unknown)", path);
		yajl_tree_free(root);
		return;
	}
	for (size_t i = 0; i < root->u.array.len; i++) {
		const char *fk[] = {"file", NULL}, *bk[] = {"batch_size", NULL}, *mk[] = {"mode", NULL};
		yajl_val e = root->u.array.values[i];
		yajl_val file = yajl_tree_get(e, fk, yajl_t_string);
		yajl_val batch = yajl_tree_get(e, bk, yajl_t_number);
		yajl_val mode = yajl_tree_get(e, mk, yajl_t_string);
		if (!file)
			continue;
		struct detail *x = gp_vec_push(d->v);
		x->file = gp_xstrdup(base_name(YAJL_GET_STRING(file)));
		x->mode = mode ? gp_xstrdup(YAJL_GET_STRING(mode)) : NULL;
		x->batch = batch && YAJL_IS_INTEGER(batch) && YAJL_GET_INTEGER(batch) >= 0 &&
				   YAJL_GET_INTEGER(batch) <= INT32_MAX
			   ? (int32_t)YAJL_GET_INTEGER(batch) : -1;
	}
	yajl_tree_free(root);
}

/* The number after prefix in name ("rank_3." after "rank_"), -1 when none
** follows it. */
static int32_t number_after(const char *name, const char *prefix)
{
	const char *s = strstr(name, prefix);
	char *end;

	if (!s)
		return -1;
	s += strlen(prefix);
	if (*s < '0' || *s > '9')
		return -1;
	long v = strtol(s, &end, 10);
	return v >= 0 && v <= INT32_MAX ? (int32_t)v : -1;
}

/* The rank a capture file is of: its name (vLLM "rank_R", SGLang "rankR"),
** else its own distributedInfo; -1 when neither says. */
static int32_t capture_rank(const char *name, const gp_trace *c)
{
	int32_t r = number_after(name, "rank_");
	const char *m;

	if (r < 0)
		r = number_after(name, "rank");
	if (r < 0 && c && (m = gp_trace_meta_get(c, "rank")) != NULL && *m >= '0' && *m <= '9')
		r = (int32_t)strtol(m, NULL, 10);
	return r;
}

/* The replay trace's rank, -1 when it does not say. */
static int32_t trace_rank(const gp_trace *t)
{
	const char *m = gp_trace_meta_get(t, "rank");

	return m && *m >= '0' && *m <= '9' ? (int32_t)strtol(m, NULL, 10) : -1;
}

/* Loads the capture trace at path into a new entry of t->captures, with
** what details and its name say of it; a warning on t when it cannot be
** read. */
static void load_one(gp_trace *t, const char *path, const struct details *d)
{
	struct gp_load_opts lo = {.threads = 1, .captures = {.none = true}};
	gp_trace *c = gp_xcalloc(1, sizeof(*c));
	const char *name = base_name(path);
	gp_error err = {0};

	gp_trace_init(c);
	if (gp_trace_load(path, c, &lo, &err) != GP_OK) {
		gp_trace_warn(t, "capture trace not read: %s", err.msg);
		gp_trace_free(c);
		free(c);
		return;
	}
	struct gp_capture *x = gp_vec_push(t->captures);
	x->t = c;
	x->path = gp_intern(t, path);
	x->batch = number_after(name, "bs_");
	x->rank = capture_rank(name, c);
	for (size_t i = 0; d && i < d->v.n; i++)
		if (strcmp(d->v.v[i].file, name) == 0) {
			x->batch = d->v.v[i].batch;
			x->mode = d->v.v[i].mode ? gp_intern(t, d->v.v[i].mode) : 0;
		}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The trace files of dir, by name, with dir's execution_details.json;
** those of rank (when >= 0 and some are) only.  GP_ERR_IO when dir cannot
** be listed. */
static int load_dir(gp_trace *t, const char *dir, int32_t rank, gp_error *err)
{
	GP_VEC(char *) names = {0};
	struct details d = {0};
	struct dirent *e;
	DIR *dh = opendir(dir);
	size_t first = t->captures.n, kept = first;
	bool of_rank = false;

	if (!dh)
		return gp_err(err, GP_ERR_IO, "%s: cannot list the capture traces: %s", dir, strerror(errno));
	while ((e = readdir(dh)) != NULL)
		if (e->d_name[0] != '.' && strcmp(e->d_name, DETAILS_FILE) != 0)
			*gp_vec_push(names) = gp_xstrdup(e->d_name);
	closedir(dh);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), by_name);
	read_details(t, dir, &d);
	for (size_t i = 0; i < names.n; i++) {
		char path[4096];
		struct stat st;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names.v[i]) < sizeof(path) &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode))
			load_one(t, path, &d);
		free(names.v[i]);
	}
	gp_vec_free(names);
	details_free(&d);
	/* a directory of every rank's captures: this rank's, when it has some */
	for (size_t i = first; rank >= 0 && i < t->captures.n; i++)
		of_rank |= t->captures.v[i].rank == rank;
	for (size_t i = first; i < t->captures.n; i++) {
		struct gp_capture *c = &t->captures.v[i];
		if (!of_rank || c->rank == rank || c->rank < 0) {
			t->captures.v[kept++] = *c;
			continue;
		}
		gp_trace_free(c->t);
		free(c->t);
	}
	if (kept < t->captures.n)
		gp_trace_warn(t, "%s: %zu capture traces of other ranks than rank %d left out", dir,
			      t->captures.n - kept, (int)rank);
	t->captures.n = kept;
	return GP_OK;
}

int gp_captures_load(gp_trace *t, const char *path, const struct gp_capture_opts *o, gp_error *err)
{
	int32_t rank = trace_rank(t);
	struct stat st;
	int rc;

	if (o && o->none)
		return GP_OK;
	if (o && o->n) {
		for (size_t i = 0; i < o->n; i++) {
			const char *p = o->paths[i];
			if (stat(p, &st) != 0)
				return gp_err(err, GP_ERR_IO, "%s: cannot open the capture trace: %s", p,
					      strerror(errno));
			if (!S_ISDIR(st.st_mode)) {
				struct details d = {0};
				char dir[4096];
				const char *slash = strrchr(p, '/');
				snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - p) : 1, slash ? p : ".");
				read_details(t, dir, &d);
				load_one(t, p, &d);
				details_free(&d);
			} else if ((rc = load_dir(t, p, rank, err)) != GP_OK) {
				return rc;
			}
		}
		return GP_OK;
	}
	/* found beside PyTorch profiler traces only: an nsys export holds its
	** captures itself (node events) */
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!t->format || strcmp(gp_s(t, t->format), "kineto") != 0)
		return GP_OK;
	if ((size_t)snprintf(dir, sizeof(dir), "%.*s%s", slash ? (int)(slash - path + 1) : 0, path,
			     CAPTURE_DIR) >= sizeof(dir) ||
	    stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return GP_OK;
	/* found, not asked for: what cannot be listed only goes unread */
	if (load_dir(t, dir, rank, err) != GP_OK)
		gp_trace_warn(t, "%s", err->msg);
	return GP_OK;
}
