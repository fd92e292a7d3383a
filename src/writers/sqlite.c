/*
** The sqlite sink (export -f sqlite): every table of an analysed trace in
** one SQLite database, with the schema docs/export-sqlite.md documents:
** facts, ranks, devices, steps, the time breakdown, kernels (every column of `report`, from
** writers/kernel_cols.c), copies, ops, layers, gaps and their causes, the
** critical path, findings, collectives, memory events and communication
** hidden and exposed per device and per layer and pass.  Each table has
** a rank column, so the traces of a job go into one database (a write per
** trace, gp_sink_write).  Times are integer nanoseconds on the trace's
** clock.  The rows go in through prepared statements in one transaction,
** a row at a time (SQLite's page cache bounds the memory); the indexes
** are made once, after the last row.
**
** The sink writes the database file itself (opts.path): out is not used.
** It creates the file at open, so a path that cannot be written fails
** before any input is read; the command removes the file when the export
** fails.  What it wrote is said in opts.note when given.
*/
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "analysis/optable.h"
#include "util/alloc.h"
#include "util/version.h"
#include "writers/kernel_cols.h"
#include "writers/sink.h"

enum tab {
	T_FACTS, T_RANKS, T_DEVICES, T_STEPS, T_BREAKDOWN, T_KERNELS, T_COPIES, T_OPS, T_LAYERS, T_GAPS, T_GAP_CAUSES,
	T_CRITPATH, T_FINDINGS, T_COLLECTIVES, T_MEMORY, T_COMM_OVERLAP, T__COUNT
};

/* Each table's name and columns (the kernels' are these, then report's). */
static const char *const tabs[T__COUNT][2] = {
	[T_FACTS] = {"facts", "rank INTEGER, key TEXT, value"},
	[T_RANKS] = {"ranks", "rank INTEGER, path TEXT, world_size INTEGER, rank_from TEXT, kernels INTEGER, "
		     "span_ns INTEGER, compute_ns INTEGER, comm_ns INTEGER, memory_ns INTEGER, idle_ns INTEGER, "
		     "gpu_span_ns INTEGER, step_median_ns INTEGER"},
	[T_DEVICES] = {"devices", "rank INTEGER, device INTEGER, name TEXT, sm_count INTEGER, cc_major INTEGER, "
		       "cc_minor INTEGER, mem_bytes INTEGER, mem_bw REAL, clock_hz REAL, l2_bytes INTEGER"},
	[T_STEPS] = {"steps", "rank INTEGER, step INTEGER, start_ns INTEGER, end_ns INTEGER, dur_ns INTEGER, "
		     "gpu_start_ns INTEGER, gpu_end_ns INTEGER, gpu_ns INTEGER"},
	[T_BREAKDOWN] = {"breakdown", "rank INTEGER, device INTEGER, iter INTEGER, part TEXT, ns INTEGER"},
	[T_KERNELS] = {"kernels", "rank INTEGER, kernel_id INTEGER, name TEXT, start_ns INTEGER, end_ns INTEGER, "
		       "dur_ns INTEGER, step INTEGER"},
	[T_COPIES] = {"copies", "rank INTEGER, copy_id INTEGER, what TEXT, copy_kind TEXT, start_ns INTEGER, "
		      "end_ns INTEGER, dur_ns INTEGER, bytes INTEGER, device INTEGER, src_device INTEGER, "
		      "dst_device INTEGER, stream INTEGER, corr INTEGER, pid INTEGER"},
	[T_OPS] = {"ops", "rank INTEGER, op_id INTEGER, name TEXT, kind TEXT, calls INTEGER, self_cpu_ns INTEGER, "
		   "cpu_total_ns INTEGER, self_gpu_ns INTEGER, gpu_total_ns INTEGER, flops REAL, "
		   "cpu_mem_bytes INTEGER, self_cpu_mem_bytes INTEGER, gpu_mem_bytes INTEGER, "
		   "self_gpu_mem_bytes INTEGER"},
	[T_LAYERS] = {"layers", "rank INTEGER, layer TEXT, kernels INTEGER, gpu_ns INTEGER, flops REAL, "
		      "bytes REAL, known_ns INTEGER"},
	[T_GAPS] = {"gaps", "rank INTEGER, gap_id INTEGER, device INTEGER, iter INTEGER, start_ns INTEGER, "
		    "end_ns INTEGER, dur_ns INTEGER, cause TEXT, next_kernel_id INTEGER"},
	[T_GAP_CAUSES] = {"gap_causes", "rank INTEGER, gap_id INTEGER, cause TEXT, ns INTEGER"},
	[T_CRITPATH] = {"critpath", "rank INTEGER, piece_id INTEGER, start_ns INTEGER, end_ns INTEGER, "
			"dur_ns INTEGER, cause TEXT, lane TEXT, pid_or_device INTEGER, tid_or_stream INTEGER"},
	[T_FINDINGS] = {"findings", "rank INTEGER, position INTEGER, kind TEXT, notice INTEGER, saving_ns INTEGER, "
			"alone_ns INTEGER, cumulative_ns INTEGER, overlap_ns INTEGER, overlaps TEXT, "
			"involved_ns INTEGER, count INTEGER, idle INTEGER, one_time INTEGER, title TEXT, "
			"evidence TEXT, change TEXT"},
	[T_COLLECTIVES] = {"collectives", "rank INTEGER, coll_id INTEGER, kind TEXT, start_ns INTEGER, "
			   "end_ns INTEGER, dur_ns INTEGER, launch_ns INTEGER, seq INTEGER, bytes INTEGER, "
			   "process_group TEXT, group_size INTEGER, stream INTEGER, device INTEGER, iter INTEGER, "
			   "dtype TEXT"},
	[T_MEMORY] = {"memory", "rank INTEGER, event_id INTEGER, ts_ns INTEGER, device INTEGER, bytes INTEGER, "
		      "total_alloc INTEGER, total_reserved INTEGER, addr INTEGER, pid INTEGER, tid INTEGER"},
	[T_COMM_OVERLAP] = {"comm_overlap", "rank INTEGER, scope TEXT, device INTEGER, layer TEXT, pass TEXT, "
			    "kernels INTEGER, comm_ns INTEGER, hidden_ns INTEGER, exposed_ns INTEGER, sms_held REAL, "
			    "sm_count INTEGER"},
};

/* The indexes, made after the last row: what tables are joined on. */
static const char *const indexes =
	"CREATE INDEX kernels_id ON kernels(rank, kernel_id);"
	"CREATE INDEX kernels_step ON kernels(rank, step);"
	"CREATE INDEX kernels_op ON kernels(rank, op);"
	"CREATE INDEX kernels_layer ON kernels(rank, layer);"
	"CREATE INDEX ops_id ON ops(rank, op_id);"
	"CREATE INDEX ops_name ON ops(rank, name);"
	"CREATE INDEX steps_step ON steps(rank, step);"
	"CREATE INDEX breakdown_dev ON breakdown(rank, device, iter);"
	"CREATE INDEX gaps_id ON gaps(rank, gap_id);"
	"CREATE INDEX gaps_next ON gaps(rank, next_kernel_id);"
	"CREATE INDEX gap_causes_id ON gap_causes(rank, gap_id);"
	"CREATE INDEX collectives_iter ON collectives(rank, iter);"
	"CREATE INDEX copies_corr ON copies(rank, corr);"
	"CREATE INDEX findings_kind ON findings(rank, kind);"
	"CREATE INDEX comm_overlap_layer ON comm_overlap(rank, layer);";

/* report's columns the kernels table does not repeat: kernel_id, dur_ns,
** start_ns and end_ns say them, name gives the kernel's name unchanged. */
static bool kernel_col_skipped(int c)
{
	return c == GP_KC_IDX || c == GP_KC_SIL || c == GP_KC_START || c == GP_KC_END || c == GP_KC_KERNEL;
}

/* A report column's SQL type: the numbers with a fraction are REAL;
** tceligible is a 0/1 flag (report aligns it as text). */
static const char *kernel_col_type(int c)
{
	if (c == GP_KC_TCELIG)
		return "INTEGER";
	if (c == GP_KC_GFLOPS || c == GP_KC_GBPS || c == GP_KC_INTENSITY || c == GP_KC_EFF || c == GP_KC_PEAK)
		return "REAL";
	if (c == GP_KC_TC)
		return "TEXT";
	return gp_kernel_columns[c].numeric ? "INTEGER" : "TEXT";
}

struct db {
	sqlite3 *db;
	sqlite3_stmt *ins[T__COUNT];
	uint64_t rows[T__COUNT];
	int ranks;              /* traces written */
	bool done;              /* committed */
	struct gp_kcells cells;
};

/* A row being bound: its statement and next parameter. */
struct row {
	struct db *d;
	enum tab t;
	int i;
};

static struct row row_start(struct db *d, enum tab t, int64_t rank)
{
	struct row r = {d, t, 1};

	sqlite3_bind_int64(d->ins[t], r.i++, rank);
	return r;
}

static void put_i64(struct row *r, int64_t v)
{
	sqlite3_bind_int64(r->d->ins[r->t], r->i++, v);
}

static void put_null(struct row *r)
{
	sqlite3_bind_null(r->d->ins[r->t], r->i++);
}

/* s, or NULL for NULL; the text is copied by SQLite. */
static void put_text(struct row *r, const char *s)
{
	if (s)
		sqlite3_bind_text(r->d->ins[r->t], r->i++, s, -1, SQLITE_TRANSIENT);
	else
		put_null(r);
}

static void put_real(struct row *r, double v)
{
	sqlite3_bind_double(r->d->ins[r->t], r->i++, v);
}

/* A time or count kept as a double: integer ns, rounded. */
static void put_ns(struct row *r, double v)
{
	put_i64(r, (int64_t)llround(v));
}

/* Inserts the bound row; GP_OK or GP_ERR_IO with SQLite's reason. */
static int row_end(struct row *r, gp_error *err)
{
	sqlite3_stmt *st = r->d->ins[r->t];
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return gp_err(err, GP_ERR_IO, "sqlite: %s: %s", tabs[r->t][0], sqlite3_errmsg(r->d->db));
	r->d->rows[r->t]++;
	return GP_OK;
}

/* Runs sql; GP_OK or GP_ERR_IO naming what failed. */
static int exec(struct db *d, const char *sql, gp_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(d->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		gp_err(err, GP_ERR_IO, "sqlite: %s", msg ? msg : sqlite3_errmsg(d->db));
		sqlite3_free(msg);
		return GP_ERR_IO;
	}
	return GP_OK;
}

/* Creates table t and prepares its insert. */
static int make_table(struct db *d, enum tab t, gp_error *err)
{
	char cols[4096], create[4200], insert[1024];
	size_t n = 1, at;
	int rc;

	at = (size_t)snprintf(cols, sizeof(cols), "%s", tabs[t][1]);
	if (t == T_KERNELS)
		for (int c = 0; c < GP_KC__COUNT; c++)
			if (!kernel_col_skipped(c))
				at += (size_t)snprintf(cols + at, sizeof(cols) - at, ", \"%s\" %s",
						       gp_kernel_columns[c].key, kernel_col_type(c));
	for (const char *p = cols; *p; p++)
		n += *p == ',';
	snprintf(create, sizeof(create), "CREATE TABLE %s (%s)", tabs[t][0], cols);
	at = (size_t)snprintf(insert, sizeof(insert), "INSERT INTO %s VALUES (?", tabs[t][0]);
	for (size_t i = 1; i < n; i++)
		at += (size_t)snprintf(insert + at, sizeof(insert) - at, ",?");
	snprintf(insert + at, sizeof(insert) - at, ")");
	rc = exec(d, create, err);
	if (!rc && sqlite3_prepare_v2(d->db, insert, -1, &d->ins[t], NULL) != SQLITE_OK)
		rc = gp_err(err, GP_ERR_IO, "sqlite: %s", sqlite3_errmsg(d->db));
	return rc;
}

static int sqlite_open(gp_sink *s, gp_error *err)
{
	struct db *d = gp_xcalloc(1, sizeof(*d));
	int rc = GP_OK;

	s->priv = d;
	if (!s->opts.path)
		return gp_err(err, GP_ERR_USAGE, "-f sqlite writes a file: give -o FILE");
	if (sqlite3_open_v2(s->opts.path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		return gp_err(err, GP_ERR_IO, "cannot write %s: %s", s->opts.path,
			      d->db ? sqlite3_errmsg(d->db) : "out of memory");
	/* a new file, removed when the export fails: no journal to keep */
	rc = exec(d, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", err);
	for (int t = 0; t < T__COUNT && !rc; t++)
		rc = make_table(d, t, err);
	return rc;
}

static void sqlite_close(gp_sink *s)
{
	struct db *d = s->priv;

	if (!d)
		return;
	for (int t = 0; t < T__COUNT; t++)
		sqlite3_finalize(d->ins[t]);
	sqlite3_close(d->db);
	gp_kcells_free(&d->cells);
	free(d);
}

static int put_fact(struct db *d, int64_t rank, const char *key, const char *text, int64_t v, gp_error *err)
{
	struct row r = row_start(d, T_FACTS, rank);

	put_text(&r, key);
	if (text)
		put_text(&r, text);
	else
		put_i64(&r, v);
	return row_end(&r, err);
}

/* The facts of the trace: what gpuprof and the run's figures say about it. */
static int write_facts(struct db *d, int64_t rank, const struct gp_sink_input *in, gp_error *err)
{
	const struct gp_analysis *a = in->an;
	const gp_trace *t = a->trace;
	const struct gp_gpu *gpu = gp_analysis_gpu(a);
	const struct gp_findings *f = &a->findings;
	bool has_f = gp_analysis_has(a, GP_NEED_FINDINGS);
	int rc = put_fact(d, rank, "gpuprof_version", GP_VERSION, 0, err);

	rc = rc ? rc : put_fact(d, rank, "path", in->path ? in->path : gp_s(t, t->path), 0, err);
	rc = rc ? rc : put_fact(d, rank, "format", gp_s(t, t->format), 0, err);
	if (t->tool_version)
		rc = rc ? rc : put_fact(d, rank, "tool_version", gp_s(t, t->tool_version), 0, err);
	if (gpu)
		rc = rc ? rc : put_fact(d, rank, "gpu", gpu->name, 0, err);
	rc = rc ? rc : put_fact(d, rank, "devices", NULL, (int64_t)t->devices.n, err);
	rc = rc ? rc : put_fact(d, rank, "kernels", NULL, (int64_t)t->kernels.n, err);
	rc = rc ? rc : put_fact(d, rank, "copies", NULL, (int64_t)(t->memcpys.n + t->memsets.n), err);
	rc = rc ? rc : put_fact(d, rank, "steps", NULL, (int64_t)a->steps.n, err);
	if (a->steps.n) {
		rc = rc ? rc : put_fact(d, rank, "step_median_ns", NULL, a->steps.median, err);
		rc = rc ? rc : put_fact(d, rank, "step_gpu_median_ns", NULL, a->steps.gpu_median, err);
	}
	if (has_f) {
		rc = rc ? rc : put_fact(d, rank, "gpu_span_ns", NULL, llround(f->span_ns), err);
		rc = rc ? rc : put_fact(d, rank, "gpu_busy_ns", NULL, llround(f->busy_ns), err);
		rc = rc ? rc : put_fact(d, rank, "kernel_ns", NULL, llround(f->gpu_ns), err);
		rc = rc ? rc : put_fact(d, rank, "findings_saving_ns", NULL, llround(f->all_ns), err);
	}
	if (t->windowed) {
		rc = rc ? rc : put_fact(d, rank, "window_start_ns", NULL, t->window_lo, err);
		rc = rc ? rc : put_fact(d, rank, "window_end_ns", NULL, t->window_hi, err);
	}
	if (in->clock_offset)
		rc = rc ? rc : put_fact(d, rank, "clock_offset_ns", NULL, in->clock_offset, err);
	for (size_t i = 0; i < t->meta.n && !rc; i++) {
		char key[256];
		snprintf(key, sizeof(key), "meta.%s", gp_s(t, t->meta.v[i].key));
		rc = put_fact(d, rank, key, gp_s(t, t->meta.v[i].value), 0, err);
	}
	return rc;
}

static int write_ranks_devices(struct db *d, int64_t rank, const struct gp_sink_input *in, gp_error *err)
{
	const struct gp_analysis *a = in->an;
	const gp_trace *t = a->trace;
	const struct gp_rank_record *rr = &a->record;
	bool has_r = gp_analysis_has(a, GP_NEED_RECORD);
	struct row r = row_start(d, T_RANKS, rank);
	int rc;

	put_text(&r, in->path);
	if (in->rank && in->rank->world >= 0)
		put_i64(&r, in->rank->world);
	else
		put_null(&r);
	put_text(&r, in->rank ? gp_rank_source_name(in->rank->source) : NULL);
	put_i64(&r, (int64_t)t->kernels.n);
	if (has_r) {
		put_i64(&r, rr->span);
		put_i64(&r, rr->compute);
		put_i64(&r, rr->comm);
		put_i64(&r, rr->memory);
		put_i64(&r, rr->idle);
		put_i64(&r, rr->gpu_span);
		put_i64(&r, rr->step_median);
	} else {
		for (int i = 0; i < 7; i++)
			put_null(&r);
	}
	rc = row_end(&r, err);
	for (size_t i = 0; i < t->devices.n && !rc; i++) {
		const struct gp_device *dv = &t->devices.v[i];
		r = row_start(d, T_DEVICES, rank);
		put_i64(&r, dv->id);
		put_text(&r, gp_s(t, dv->name));
		put_i64(&r, dv->sm_count);
		put_i64(&r, dv->cc_major);
		put_i64(&r, dv->cc_minor);
		put_i64(&r, (int64_t)dv->mem_bytes);
		put_real(&r, dv->mem_bw);
		put_real(&r, dv->clock_hz);
		put_i64(&r, (int64_t)dv->l2_bytes);
		rc = row_end(&r, err);
	}
	return rc;
}

static int write_steps(struct db *d, int64_t rank, const struct gp_steps *st, gp_error *err)
{
	int rc = GP_OK;

	for (size_t i = 0; i < st->n && !rc; i++) {
		const struct gp_step *x = &st->v[i];
		bool gpu = x->gpu_start || x->gpu_end;
		struct row r = row_start(d, T_STEPS, rank);
		put_i64(&r, x->iter);
		put_i64(&r, x->start);
		put_i64(&r, x->end);
		put_i64(&r, gp_step_ns(x));
		if (gpu) {
			put_i64(&r, x->gpu_start);
			put_i64(&r, x->gpu_end);
			put_i64(&r, x->gpu_end - x->gpu_start);
		} else {
			put_null(&r);
			put_null(&r);
			put_null(&r);
		}
		rc = row_end(&r, err);
	}
	return rc;
}

static int put_part(struct db *d, int64_t rank, const struct gp_bd_window *w, const char *part, gp_ns ns,
		    gp_error *err)
{
	struct row r = row_start(d, T_BREAKDOWN, rank);

	put_i64(&r, w->device);
	if (w->iter >= 0)
		put_i64(&r, w->iter);
	else
		put_null(&r);
	put_text(&r, part);
	put_i64(&r, ns);
	return row_end(&r, err);
}

/* `breakdown`'s time view: each window's (device's whole trace, then its
** iterations) parts, then its idle time by cause (idle_CAUSE). */
static int write_breakdown(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const gp_breakdown *b = &a->breakdown;
	int rc = GP_OK;

	if (!gp_analysis_has(a, GP_NEED_BREAKDOWN))
		return GP_OK;
	for (size_t i = 0; i < b->nwin && !rc; i++) {
		const struct gp_bd_window *w = &b->win[i];
		for (int p = 0; p < GP_BD_PARTS && !rc; p++)
			rc = put_part(d, rank, w, gp_bd_part_name(p), gp_bd_part_time(w, p), err);
		for (int c = 0; c < GP_IDLE__COUNT && !rc; c++) {
			char name[48];
			if (!gp_cause_is_idle(c))
				continue;
			snprintf(name, sizeof(name), "idle_%s", gp_cause_name(c));
			rc = put_part(d, rank, w, name, w->idle[c], err);
		}
	}
	return rc;
}

/* Every kernel with report's columns; the op model's when it ran. */
static int write_kernels(gp_sink *s, struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const gp_trace *t = a->trace;
	const struct gp_ops *ops = gp_analysis_has(a, GP_NEED_OPS) ? &a->ops : NULL;
	int rc = GP_OK;

	for (size_t k = 0; k < t->kernels.n && !rc; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		struct row r = row_start(d, T_KERNELS, rank);
		put_i64(&r, (int64_t)k);
		put_text(&r, gp_s(t, gp_kernel_def(t, kr)->name));
		put_i64(&r, kr->start);
		put_i64(&r, kr->end);
		put_i64(&r, kr->end - kr->start);
		if (a->steps.kernel_iter && a->steps.kernel_iter[k] >= 0)
			put_i64(&r, a->steps.kernel_iter[k]);
		else
			put_null(&r);
		/* report's text cells: the column's type turns numbers into numbers */
		for (int c = 0; c < GP_KC__COUNT; c++)
			if (!kernel_col_skipped(c))
				put_text(&r, gp_kernel_cell(t, ops, k, c, false, &d->cells));
		rc = row_end(&r, err);
		if (s->opts.progress && (k & 0xffff) == 0)
			s->opts.progress(s->opts.progress_ctx, k, t->kernels.n);
	}
	return rc;
}

static int write_copies(struct db *d, int64_t rank, const gp_trace *t, gp_error *err)
{
	int rc = GP_OK;
	size_t id = 0;

	for (size_t i = 0; i < t->memcpys.n && !rc; i++, id++) {
		const struct gp_memcpy *m = &t->memcpys.v[i];
		struct row r = row_start(d, T_COPIES, rank);
		put_i64(&r, (int64_t)id);
		put_text(&r, "memcpy");
		put_text(&r, gp_copy_kind_name(m->copy_kind));
		put_i64(&r, m->start);
		put_i64(&r, m->end);
		put_i64(&r, m->end - m->start);
		put_i64(&r, (int64_t)m->bytes);
		put_i64(&r, m->device);
		put_i64(&r, m->src_device);
		put_i64(&r, m->dst_device);
		put_i64(&r, m->stream);
		put_i64(&r, (int64_t)m->corr);
		put_i64(&r, m->pid);
		rc = row_end(&r, err);
	}
	for (size_t i = 0; i < t->memsets.n && !rc; i++, id++) {
		const struct gp_memset *m = &t->memsets.v[i];
		struct row r = row_start(d, T_COPIES, rank);
		put_i64(&r, (int64_t)id);
		put_text(&r, "memset");
		put_null(&r);
		put_i64(&r, m->start);
		put_i64(&r, m->end);
		put_i64(&r, m->end - m->start);
		put_i64(&r, (int64_t)m->bytes);
		put_i64(&r, m->device);
		put_null(&r);
		put_null(&r);
		put_i64(&r, m->stream);
		put_i64(&r, (int64_t)m->corr);
		put_i64(&r, m->pid);
		rc = row_end(&r, err);
	}
	return rc;
}

static int write_ops(struct db *d, int64_t rank, const gp_trace *t, const struct gp_optable *tb, gp_error *err)
{
	static const int mem[4] = {GP_OPMEM_CPU_NET, GP_OPMEM_CPU_NET, GP_OPMEM_GPU_NET, GP_OPMEM_GPU_NET};
	int rc = GP_OK;

	for (size_t i = 0; tb && i < tb->rows.n && !rc; i++) {
		const struct gp_oprow *o = &tb->rows.v[i];
		struct row r = row_start(d, T_OPS, rank);
		put_i64(&r, (int64_t)i);
		put_text(&r, gp_s(t, o->name));
		put_text(&r, gp_range_kind_name(o->kind));
		put_i64(&r, (int64_t)o->calls);
		put_i64(&r, o->self_cpu);
		put_i64(&r, o->cpu_total);
		put_i64(&r, o->self_gpu);
		put_i64(&r, o->gpu_total);
		if (o->flops >= 0)
			put_real(&r, o->flops);
		else
			put_null(&r);
		/* total then self, of the CPU then the GPU (PyTorch's columns) */
		for (int m = 0; m < 4; m++)
			if (tb->has_memory)
				put_i64(&r, m % 2 ? o->self_mem[mem[m]] : o->total_mem[mem[m]]);
			else
				put_null(&r);
		rc = row_end(&r, err);
	}
	return rc;
}

static int write_layers(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const struct gp_kgroups *g = &a->groups;
	int rc = GP_OK;

	if (!gp_analysis_has(a, GP_NEED_GROUPS))
		return GP_OK;
	for (size_t i = 0; i < g->by[GP_KGROUP_LAYER].v.n && !rc; i++) {
		const struct gp_kgroup *x = &g->by[GP_KGROUP_LAYER].v.v[i];
		struct row r = row_start(d, T_LAYERS, rank);
		put_text(&r, x->name ? gp_strtab_get(g->names, x->name) : NULL);
		put_i64(&r, (int64_t)x->count);
		put_i64(&r, x->ns);
		put_real(&r, x->flops);
		put_real(&r, x->bytes);
		put_i64(&r, x->known_ns);
		rc = row_end(&r, err);
	}
	return rc;
}

/* Every idle gap with its main cause, and its time by cause. */
static int write_gaps(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const gp_breakdown *b = &a->breakdown;
	int rc = GP_OK;

	for (size_t i = 0; i < b->ngap_causes && !rc; i++) {
		const struct gp_bd_gap_cause *g = &b->gap_causes[i];
		struct row r = row_start(d, T_GAPS, rank);
		put_i64(&r, (int64_t)i);
		put_i64(&r, g->device);
		if (g->iter >= 0)
			put_i64(&r, g->iter);
		else
			put_null(&r);
		put_i64(&r, g->start);
		put_i64(&r, g->end);
		put_i64(&r, g->end - g->start);
		put_text(&r, gp_cause_name(gp_bd_gap_main_cause(b, g)));
		if (g->next >= 0)
			put_i64(&r, g->next);
		else
			put_null(&r);
		rc = row_end(&r, err);
		for (uint8_t p = 0; p < g->nparts && !rc; p++) {
			r = row_start(d, T_GAP_CAUSES, rank);
			put_i64(&r, (int64_t)i);
			put_text(&r, gp_cause_name(b->gap_part_cause[g->part + p]));
			put_i64(&r, b->gap_part_ns[g->part + p]);
			rc = row_end(&r, err);
		}
	}
	return rc;
}

static int write_critpath(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const gp_piece_vec *v = &a->critpath.pieces;
	int rc = GP_OK;

	if (!gp_analysis_has(a, GP_NEED_CRITPATH))
		return GP_OK;
	for (size_t i = 0; i < v->n && !rc; i++) {
		const struct gp_piece *p = &v->v[i];
		struct row r = row_start(d, T_CRITPATH, rank);
		put_i64(&r, (int64_t)i);
		put_i64(&r, p->start);
		put_i64(&r, p->end);
		put_i64(&r, p->end - p->start);
		put_text(&r, gp_cause_name(p->cause));
		put_text(&r, p->cpu ? "cpu" : "gpu");
		put_i64(&r, p->lane_a);
		put_i64(&r, p->lane_b);
		rc = row_end(&r, err);
	}
	return rc;
}

static int write_findings(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const struct gp_findings *f = &a->findings;
	int rc = GP_OK;

	if (!gp_analysis_has(a, GP_NEED_FINDINGS))
		return GP_OK;
	for (size_t i = 0; i < f->v.n && !rc; i++) {
		const struct gp_finding *x = &f->v.v[i];
		struct row r = row_start(d, T_FINDINGS, rank);
		put_i64(&r, (int64_t)i + 1);
		put_text(&r, x->kind);
		put_i64(&r, x->first);
		put_ns(&r, x->ns);
		put_ns(&r, x->alone_ns);
		put_ns(&r, x->cum_ns);
		put_ns(&r, x->overlap_ns);
		put_text(&r, x->overlaps);
		put_ns(&r, x->total_ns);
		put_i64(&r, (int64_t)x->count);
		put_i64(&r, x->idle);
		put_i64(&r, x->one_time);
		put_text(&r, x->title);
		put_text(&r, x->evidence);
		put_text(&r, x->change);
		rc = row_end(&r, err);
	}
	return rc;
}

static int write_collectives(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const struct gp_coll_rank *c = &a->record.coll;
	int rc = GP_OK;

	if (!gp_analysis_has(a, GP_NEED_RECORD))
		return GP_OK;
	for (size_t i = 0; i < c->n && !rc; i++) {
		const struct gp_coll *x = &c->v[i];
		struct row r = row_start(d, T_COLLECTIVES, rank);
		put_i64(&r, (int64_t)i);
		put_text(&r, gp_coll_kind_name(x->kind));
		put_i64(&r, x->start);
		put_i64(&r, x->end);
		put_i64(&r, x->end - x->start);
		if (x->launch >= 0)
			put_i64(&r, x->launch);
		else
			put_null(&r);
		put_i64(&r, x->seq);
		if (x->bytes)
			put_i64(&r, (int64_t)x->bytes);
		else
			put_null(&r);
		put_text(&r, x->group < c->ngroups ? c->groups[x->group] : NULL);
		if (x->group_size >= 0)
			put_i64(&r, x->group_size);
		else
			put_null(&r);
		put_i64(&r, x->stream);
		put_i64(&r, x->device);
		if (x->iter >= 0)
			put_i64(&r, x->iter);
		else
			put_null(&r);
		put_text(&r, x->dtype == GP_DT_UNKNOWN ? NULL : gp_dtype_short((enum gp_dtype)x->dtype));
		rc = row_end(&r, err);
	}
	return rc;
}

/* Communication hidden under compute and exposed (commover.h): a
** "device" row per device with communication, then a "layer" row per
** layer and pass over every device; sms_held NULL when nothing is
** hidden. */
static int write_comm_overlap(struct db *d, int64_t rank, const struct gp_analysis *a, gp_error *err)
{
	const struct gp_comm_overlap *o = &a->comm_overlap;
	int rc = GP_OK;

	if (!gp_analysis_has(a, GP_NEED_COMM_OVERLAP))
		return GP_OK;
	for (size_t i = 0; i < o->ndev && !rc; i++) {
		const struct gp_co_device *x = &o->dev[i];
		struct row r = row_start(d, T_COMM_OVERLAP, rank);
		put_text(&r, "device");
		put_i64(&r, x->device);
		put_null(&r);
		put_null(&r);
		put_i64(&r, (int64_t)x->kernels);
		put_i64(&r, x->comm);
		put_i64(&r, x->hidden);
		put_i64(&r, x->exposed);
		if (x->hidden > 0)
			put_real(&r, gp_co_sms(x->sm_ns, x->hidden));
		else
			put_null(&r);
		if (x->sm_count > 0)
			put_i64(&r, x->sm_count);
		else
			put_null(&r);
		rc = row_end(&r, err);
	}
	for (size_t i = 0; i < o->ngroups && !rc; i++) {
		const struct gp_co_group *g = &o->groups[i];
		struct row r = row_start(d, T_COMM_OVERLAP, rank);
		put_text(&r, "layer");
		put_null(&r);
		if (g->layer)
			put_text(&r, gp_s(a->trace, g->layer));
		else
			put_null(&r);
		if (g->dir != GP_DIR_NA)
			put_text(&r, gp_dir_name(g->dir));
		else
			put_null(&r);
		put_i64(&r, (int64_t)g->kernels);
		put_i64(&r, g->comm);
		put_i64(&r, g->hidden);
		put_i64(&r, g->exposed);
		if (g->hidden > 0)
			put_real(&r, gp_co_sms(g->sm_ns, g->hidden));
		else
			put_null(&r);
		put_null(&r);
		rc = row_end(&r, err);
	}
	return rc;
}

static int write_memory(struct db *d, int64_t rank, const gp_trace *t, gp_error *err)
{
	int rc = GP_OK;

	for (size_t i = 0; i < t->memevents.n && !rc; i++) {
		const struct gp_memevent *m = &t->memevents.v[i];
		struct row r = row_start(d, T_MEMORY, rank);
		put_i64(&r, (int64_t)i);
		put_i64(&r, m->ts);
		put_i64(&r, m->device);
		put_i64(&r, m->bytes);
		if (m->total_alloc >= 0)
			put_i64(&r, m->total_alloc);
		else
			put_null(&r);
		if (m->total_reserved >= 0)
			put_i64(&r, m->total_reserved);
		else
			put_null(&r);
		if (m->addr)
			put_i64(&r, (int64_t)m->addr);
		else
			put_null(&r);
		put_i64(&r, m->pid);
		put_i64(&r, m->tid);
		rc = row_end(&r, err);
	}
	return rc;
}

/* After the last trace: the indexes, the commit, and the note. */
static int sqlite_end(gp_sink *s, gp_error *err)
{
	struct db *d = s->priv;
	int rc = exec(d, indexes, err);

	if (!rc)
		rc = exec(d, "COMMIT", err);
	if (rc)
		return rc;
	d->done = true;
	if (s->opts.note && s->opts.note_size)
#define PLURAL(n) ((n) == 1 ? "" : "s")   /* "1 step", "2 steps" */
		snprintf(s->opts.note, s->opts.note_size,
			 "%d rank%s, %" PRIu64 " kernel%s, %" PRIu64 " %s, %" PRIu64 " op%s, %" PRIu64
			 " step%s, %" PRIu64 " gap%s, %" PRIu64 " finding%s, %" PRIu64 " collective%s in %d tables",
			 d->ranks, PLURAL(d->ranks), d->rows[T_KERNELS], PLURAL(d->rows[T_KERNELS]), d->rows[T_COPIES],
			 d->rows[T_COPIES] == 1 ? "copy" : "copies", d->rows[T_OPS], PLURAL(d->rows[T_OPS]),
			 d->rows[T_STEPS], PLURAL(d->rows[T_STEPS]), d->rows[T_GAPS], PLURAL(d->rows[T_GAPS]),
			 d->rows[T_FINDINGS], PLURAL(d->rows[T_FINDINGS]), d->rows[T_COLLECTIVES],
			 PLURAL(d->rows[T_COLLECTIVES]), T__COUNT);
#undef PLURAL
	return GP_OK;
}

/* One trace's rows under its rank (in->rank, else 0); alone (not
** s->many), the database is finished too. */
static int sqlite_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	struct db *d = s->priv;
	const struct gp_analysis *a = in->an;
	const gp_trace *t;
	int64_t rank = in->rank && in->rank->rank >= 0 ? in->rank->rank : 0;
	int rc;

	if (!a)
		return gp_err(err, GP_ERR_USAGE, "sqlite: no analysed trace");
	t = a->trace;
	rc = write_facts(d, rank, in, err);
	rc = rc ? rc : write_ranks_devices(d, rank, in, err);
	rc = rc ? rc : write_steps(d, rank, &a->steps, err);
	rc = rc ? rc : write_breakdown(d, rank, a, err);
	rc = rc ? rc : write_kernels(s, d, rank, a, err);
	rc = rc ? rc : write_copies(d, rank, t, err);
	rc = rc ? rc : write_ops(d, rank, t, in->optable, err);
	rc = rc ? rc : write_layers(d, rank, a, err);
	rc = rc ? rc : write_gaps(d, rank, a, err);
	rc = rc ? rc : write_critpath(d, rank, a, err);
	rc = rc ? rc : write_findings(d, rank, a, err);
	rc = rc ? rc : write_collectives(d, rank, a, err);
	rc = rc ? rc : write_memory(d, rank, t, err);
	rc = rc ? rc : write_comm_overlap(d, rank, a, err);
	if (!rc)
		d->ranks++;
	return rc || s->many ? rc : sqlite_end(s, err);
}

const struct gp_sink_ops gp_sink_sqlite = {
	.name = "sqlite",
	.help = "every table (kernels, ops, steps, gaps, findings, ...) in one SQLite database",
	.open = sqlite_open,
	.write = sqlite_write,
	.close = sqlite_close,
	.end = sqlite_end,
};
