/*
** Many trace files: read jobs at a time on threads, each reduced to kept
** rows before the next, then written in rank order (cmds.h, gp_cli_run;
** docs/ranks.md).  Peak memory is about jobs x the largest file's model
** plus the kept rows, whatever the number of files.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/collectives.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "ops/ops.h"

static const struct gp_column rank_col = {"rank", "Rank", 4, true, false, NULL};

/* The work queue of the threads: res[todo[0..ntodo)] to fill. */
struct pool {
	const struct gp_cli_many *m;
	struct gp_cli_result *res;
	const size_t *todo;
	size_t ntodo;
	size_t next;
	struct gp_load_opts lo;
	const struct gp_peak_opts *peaks;
	pthread_mutex_t lock;
	/* on a terminal: one progress line over all files, each counting
	** for the share of it its reader has read (part[i] of todo[i]) */
	struct gp_cli_progress progress;
	double *part, parts;
};

/* The progress of the file a worker reads. */
struct file_progress {
	struct pool *p;
	size_t i;
};

/* Sets file i's share read to f (0..1) and shows the line, under the
** pool's lock: the workers' readers call it from their threads. */
static void progress_set(struct pool *p, size_t i, double f)
{
	pthread_mutex_lock(&p->lock);
	p->parts += f - p->part[i];
	p->part[i] = f;
	gp_cli_progress_show(&p->progress, (uint64_t)(p->parts * 1000), (uint64_t)p->ntodo * 1000);
	pthread_mutex_unlock(&p->lock);
}

/* A reader's progress callback (gp_progress_fn) for one file; a reader
** that cannot say its total counts nothing until the file is done. */
static void file_progress_show(void *ctx, uint64_t done, uint64_t total)
{
	struct file_progress *fp = ctx;

	if (total)
		progress_set(fp->p, fp->i, done < total ? (double)done / (double)total : 1.0);
}

/* Loads, analyses and frees the file todo[i] into its result. */
static void run_one(struct pool *p, size_t i)
{
	struct gp_cli_result *r = &p->res[p->todo[i]];
	struct file_progress fp = {p, i};
	struct gp_load_opts lo = p->lo;
	gp_error err = {0};
	gp_writer w, rec;
	gp_trace t;

	if (p->part) {
		lo.progress = file_progress_show;
		lo.progress_ctx = &fp;
	}
	gp_trace_init(&t);
	r->status = gp_cli_load_quiet(r->path, &t, &lo, p->peaks, &err);
	if (r->status == GP_OK) {
		r->id = gp_rank_from_meta(&t);
		gp_rowbuf_writer(&w, &r->rows, p->m->cols, p->m->ncols);
		gp_rowbuf_writer(&rec, &r->record, gp_rank_record_cols, GP_RANK_RECORD_NCOLS);
		r->status = p->m->fn(p->m->ctx, &t, &w, p->m->want_record ? &rec : NULL, &err);
	}
	if (r->status != GP_OK) {
		r->error = gp_xstrdup(err.msg);
		gp_rowbuf_free(&r->rows);
		gp_rowbuf_free(&r->record);
	}
	gp_trace_free(&t);
	if (p->part)
		progress_set(p, i, 1.0);
}

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		size_t i;
		pthread_mutex_lock(&p->lock);
		i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->ntodo)
			return NULL;
		run_one(p, i);
	}
}

int gp_cli_ranks_order(const char *cmd, struct gp_rank_id *ids, const char *const *paths, size_t n,
		       size_t *order, bool refuse)
{
	gp_error err = {0};
	char *notes;

	if (gp_ranks_one_job(ids, paths, n, &err)) {
		if (refuse) {
			fprintf(stderr, "gpuprof %s: %s\n", cmd, err.msg);
			return gp_exit_code(err.status);
		}
		fprintf(stderr, "gpuprof %s: note: %s (files named one by one: compared as given)\n", cmd, err.msg);
	}
	notes = gp_ranks_order(ids, paths, n, order);

	if (notes && n > 1) {
		for (char *line = notes, *nl; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			fprintf(stderr, "gpuprof %s: note: %.*s\n", cmd, (int)(nl - line), line);
		}
	}
	free(notes);
	return GP_EXIT_OK;
}

/* Runs the files todo[0..ntodo) with jobs threads (the calling one too),
** each read as co says (window, capture traces); on a terminal with a
** progress line over them all. */
static void run_files(const struct gp_cli_many *m, struct gp_cli_result *res, const size_t *todo,
		      size_t ntodo, int jobs, const struct gp_cli_opts *co)
{
	struct pool p = {.m = m, .res = res, .todo = todo, .ntodo = ntodo};
	char what[64];
	pthread_t *th;
	int started = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (cpus < 1)
		cpus = 1;
	if (jobs <= 0)
		jobs = (int)cpus;
	if ((size_t)jobs > ntodo)
		jobs = ntodo ? (int)ntodo : 1;
	gp_cli_load_opts(&p.lo, co);
	p.peaks = &co->peaks;
	/* a reader's own threads share what the files leave over */
	if (!p.lo.threads)
		p.lo.threads = jobs >= cpus ? 1 : (int)(cpus / jobs);
	pthread_mutex_init(&p.lock, NULL);
	snprintf(what, sizeof(what), "reading %zu file%s", ntodo, ntodo == 1 ? "" : "s");
	gp_cli_progress_start(&p.progress, what);
	if (p.progress.tty)
		p.part = gp_xcalloc(ntodo ? ntodo : 1, sizeof(*p.part));
	th = gp_xmalloc((size_t)jobs * sizeof(*th));
	for (int i = 1; i < jobs; i++)
		if (pthread_create(&th[started], NULL, worker, &p) == 0)
			started++;
	worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	gp_cli_progress_end(&p.progress);
	free(p.part);
	pthread_mutex_destroy(&p.lock);
}

/* Writes the output of results res[] (n, all succeeded) to stdout: fn's
** rows with a rank column, or the command's reduce. */
static int write_output(const struct gp_cli_many *m, const struct gp_cli_opts *co,
			struct gp_cli_result *res, size_t n, bool expanded)
{
	const char **paths = gp_xmalloc(n * sizeof(*paths));
	const struct gp_cli_result **sorted = gp_xmalloc(n * sizeof(*sorted));
	struct gp_rank_id *ids = gp_xmalloc(n * sizeof(*ids));
	size_t *order = gp_xmalloc(n * sizeof(*order));
	struct gp_column *cols = NULL;
	gp_error err = {0};
	gp_writer w;
	int rc = GP_OK;

	for (size_t i = 0; i < n; i++) {
		paths[i] = res[i].path;
		ids[i] = res[i].id;
	}
	if (gp_cli_ranks_order(m->cmd, ids, paths, n, order, expanded) != GP_EXIT_OK) {
		free(order);
		free(ids);
		free(sorted);
		free(paths);
		return GP_EXIT_USAGE;   /* said: traces of different jobs */
	}
	for (size_t i = 0; i < n; i++) {
		res[order[i]].id = ids[order[i]];
		sorted[i] = &res[order[i]];
	}
	if (m->reduce && !m->out_cols) {
		rc = m->reduce(m->ctx, sorted, n, NULL, &err);
		if (rc == GP_OK && (fflush(stdout) != 0 || ferror(stdout)))
			rc = gp_err(&err, GP_ERR_IO, "write failure on output");
	} else if (m->reduce) {
		rc = gp_writer_open(&w, co->format, stdout, m->out_cols, m->out_ncols, &co->wo, &err);
		if (rc == GP_OK)
			rc = m->reduce(m->ctx, sorted, n, &w, &err);
		if (rc == GP_OK)
			rc = gp_writer_close(&w, &err);
	} else {
		/* the rank column only for several files: one file (MPI
		** processes given one) writes its rows as they are */
		int lead = n > 1;
		cols = gp_xmalloc((size_t)(m->ncols + 1) * sizeof(*cols));
		cols[0] = rank_col;
		memcpy(cols + 1, m->cols, (size_t)m->ncols * sizeof(*cols));
		rc = gp_writer_open(&w, co->format, stdout, cols + !lead, m->ncols + lead, &co->wo, &err);
		for (size_t i = 0; i < n && rc == GP_OK; i++) {
			char rank[16];
			snprintf(rank, sizeof(rank), "%d", sorted[i]->id.rank);
			rc = gp_rowbuf_replay(&sorted[i]->rows, &w, rank, &err);
		}
		if (rc == GP_OK)
			rc = gp_writer_close(&w, &err);
	}
	if (rc != GP_OK)
		gp_err_print(&err);
	free(cols);
	free(order);
	free(ids);
	free(sorted);
	free(paths);
	return rc == GP_OK ? GP_EXIT_OK : gp_exit_code(rc);
}

/* One file, read as the commands always did: straight to the writer. */
static int run_single(const struct gp_cli_many *m, const struct gp_cli_opts *co, const char *path)
{
	gp_error err = {0};
	gp_writer w;
	gp_trace t;
	int rc;

	if (gp_writer_open(&w, co->format, stdout, m->cols, m->ncols, &co->wo, &err))
		return gp_cli_usage(m->cmd, "%s", err.msg);
	gp_trace_init(&t);
	rc = gp_cli_load(path, co, &t, NULL);
	/* the writer wrote nothing yet: left unclosed, no empty table */
	if (rc == GP_EXIT_OK && !(m->needs_kernels && gp_cli_no_kernels(m->cmd, path, &t, co, false))) {
		int st = m->fn(m->ctx, &t, &w, NULL, &err);
		if (st == GP_OK)
			st = gp_writer_close(&w, &err);
		if (st != GP_OK) {
			gp_err_print(&err);
			rc = gp_exit_code(st);
		}
	}
	gp_trace_free(&t);
	return rc;
}

/* Reads the files (this process's share of them), then on process 0
** reports failures or writes the output.  Returns the exit code. */
static int run_many(const struct gp_cli_many *m, const struct gp_cli_opts *co, struct gp_cli_inputs *in,
		    int proc, int nproc)
{
	size_t n = in->paths.n, ntodo = 0;
	struct gp_cli_result *res = gp_xcalloc(n, sizeof(*res));
	size_t *todo = gp_xmalloc(n * sizeof(*todo));
	int rc = GP_EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		res[i].path = in->paths.v[i];
		if ((int)(i % (size_t)nproc) == proc)
			todo[ntodo++] = i;
	}
	run_files(m, res, todo, ntodo, co->jobs, co);
#ifdef GP_MPI
	gp_error err = {0};
	if (nproc > 1 && gp_mpi_gather(res, n, proc, nproc, &err) != GP_OK) {
		gp_err_print(&err);
		rc = GP_EXIT_FAIL;
	}
#endif
	for (size_t i = 0; i < n && proc == 0; i++)
		if (res[i].status != GP_OK) {
			fprintf(stderr, "gpuprof: %s\n", res[i].error);
			if (rc == GP_EXIT_OK)
				rc = gp_exit_code(res[i].status);
		}
	if (rc == GP_EXIT_OK && proc == 0)
		rc = write_output(m, co, res, n, in->expanded);
	for (size_t i = 0; i < n; i++) {
		free(res[i].error);
		gp_rowbuf_free(&res[i].rows);
		gp_rowbuf_free(&res[i].record);
	}
	free(todo);
	free(res);
	return rc;
}

int gp_cli_run(const struct gp_cli_many *m, const struct gp_cli_opts *co)
{
	struct gp_cli_inputs in;
	int rc, proc = 0, nproc = 1;
	gp_writer probe;
	gp_error err = {0};

	/* a bad -f is a usage error before any file is read (a command
	** writing its own format has checked it) */
	if ((!m->reduce || m->out_cols) &&
	    gp_writer_open(&probe, co->format, stdout, m->reduce ? m->out_cols : m->cols,
			   m->reduce ? m->out_ncols : m->ncols, &co->wo, &err))
		return gp_cli_usage(m->cmd, "%s", err.msg);
#ifdef GP_MPI
	if (!m->local)
		gp_mpi_begin(&proc, &nproc);
	/* process 0 speaks for all: the others' errors travel as records */
	if (proc != 0 && !freopen("/dev/null", "w", stderr))
		fclose(stderr);
#endif
	rc = gp_cli_inputs(m->cmd, co->files, co->nfiles, &in);
	if (rc == GP_EXIT_OK) {
		if (in.paths.n == 1 && (!m->reduce || m->single) && nproc == 1)
			rc = m->single ? m->single(m->ctx, in.paths.v[0]) : run_single(m, co, in.paths.v[0]);
		else
			rc = run_many(m, co, &in, proc, nproc);
		gp_cli_inputs_free(&in);
	}
#ifdef GP_MPI
	if (!m->local)
		rc = gp_mpi_end(rc);
#endif
	return rc;
}

int gp_cli_rank_job(const struct gp_cli_result *const *res, size_t n, bool rows, struct gp_rank_job *j,
		    gp_error *err)
{
	struct gp_rank_record *rec = gp_xcalloc(n ? n : 1, sizeof(*rec));
	int rc = GP_OK;

	for (size_t i = 0; i < n && rc == GP_OK; i++)
		rc = gp_rank_record_read(rows ? &res[i]->rows : &res[i]->record, res[i]->path, res[i]->id.rank,
					 &rec[i], err);
	if (rc != GP_OK) {
		for (size_t i = 0; i < n; i++)
			gp_rank_record_free(&rec[i]);
		free(rec);
		memset(j, 0, sizeof(*j));
		return rc;
	}
	gp_rank_job_compare(rec, n, j);
	return GP_OK;
}

int gp_cli_coll_load(const char *cmd, const struct gp_cli_inputs *in, const struct gp_cli_opts *w,
		     const struct gp_gpu *gpu, struct gp_coll_rank *ranks, size_t *order)
{
	size_t n = in->paths.n;
	struct gp_rank_id *ids = gp_xcalloc(n ? n : 1, sizeof(*ids));
	struct gp_coll_rank *sorted;
	int rc = GP_EXIT_OK;

	for (size_t i = 0; i < n && rc == GP_EXIT_OK; i++) {
		gp_error err = {0};
		gp_trace t;

		gp_trace_init(&t);
		rc = gp_cli_load(in->paths.v[i], w, &t, NULL);
		if (rc == GP_EXIT_OK)
			ids[i] = gp_rank_from_meta(&t);   /* name and position: gp_cli_ranks_order */
		if (rc == GP_EXIT_OK) {
			struct gp_coll_opts o = {.gpu = gpu};
			if (gp_coll_extract(&t, &o, &ranks[i], &err)) {
				gp_err_print(&err);
				rc = gp_exit_code(err.status);
			}
		}
		gp_trace_free(&t);
	}
	if (rc == GP_EXIT_OK) {
		/* the rank rule and order of every command of many files
		** (docs/ranks.md): metadata, file name, position; ties in
		** argument order, the first rank the clock reference */
		sorted = gp_xmalloc(n * sizeof(*sorted));
		rc = gp_cli_ranks_order(cmd, ids, (const char *const *)in->paths.v, n, order, in->expanded);
		for (size_t i = 0; i < n && rc == GP_EXIT_OK; i++) {
			sorted[i] = ranks[order[i]];
			sorted[i].rank = ids[order[i]].rank;
		}
		memcpy(ranks, sorted, n * sizeof(*ranks));
		free(sorted);
	}
	free(ids);
	return rc;
}
