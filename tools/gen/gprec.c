/*
** `gpuprof-gen --format gprec`: the model's events as a recording of
** `gpuprof record` (include/gpuprof/record-format.h, version 3), the lines
** collector/ writes: NVTX push/pop ranges, runtime API calls by CUPTI
** callback id, kernels with mangled names, copies, memsets, syncs, and
** CUDA graph node events as CUPTI's callbacks give them (a node that
** cudaGraphInstantiate clones is reported made, then cloned).  One chunk
** line and the end line close it.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "gpuprof/record-format.h"
#include "util/alloc.h"

struct gprec {
	FILE *f;
	const char *path;
	uint64_t lines, ranges;
};

static uint32_t tid_of(enum gen_thread t)
{
	return t == GEN_THR_MAIN ? GEN_TID_MAIN : GEN_TID_AUTOGRAD;
}

/* Starts a line: its record name; counts it. */
static FILE *line(struct gprec *g, const char *what)
{
	g->lines++;
	fputs(what, g->f);
	return g->f;
}

static void on_range(void *ctx, const struct gen_range *r)
{
	struct gprec *g = ctx;

	/* range KIND TID END_TID START END COLOR ARG DOMAIN NAME; iterations
	** NVIDIA green, as torch.cuda.nvtx users often do */
	fprintf(line(g, "range"), "\tpush\t%u\t0\t%" PRId64 "\t%" PRId64 "\t%08x\t0\t\t%s\n", tid_of(r->thr),
		r->start, r->end, r->kind == GEN_R_ITER ? 0xFF76B900u : 0u, r->text);
	g->ranges++;
}

static void on_api(void *ctx, const struct gen_api *a)
{
	struct gprec *g = ctx;

	fprintf(line(g, "api"), "\truntime\t%" PRId64 "\t%" PRId64 "\t%u\t%" PRIu64 "\t%d\t0\n", a->start, a->end,
		tid_of(a->thr), a->corr, gen_apis[a->api].cbid);
}

static void on_kernel(void *ctx, const struct gen_kernel *k)
{
	struct gprec *g = ctx;
	const struct gen_kdef *d = &gen_kdefs[k->kdef];

	fprintf(line(g, "kernel"),
		"\t%" PRId64 "\t%" PRId64 "\t0\t1\t%u\t%" PRIu64 "\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%u\t%" PRIu64
		"\t%s\n", k->start, k->end, k->stream, k->corr, k->grid[0], k->grid[1], k->grid[2], k->block[0],
		k->block[1], k->block[2], d->regs, d->static_smem, d->dynamic_smem, k->graph_id, k->graph_node,
		d->mangled ? d->mangled : d->demangled);
}

static void on_memcpy(void *ctx, const struct gen_memcpy *c)
{
	struct gprec *g = ctx;

	fprintf(line(g, "memcpy"), "\t%" PRId64 "\t%" PRId64 "\t0\t1\t%u\t%" PRIu64 "\t%d\t%d\t%d\t1\t%" PRIu64
		"\t-1\t-1\t0\t%" PRIu64 "\n", c->start, c->end, c->stream, c->corr, c->copy_kind, c->src_kind,
		c->dst_kind, c->bytes, c->graph_node);
}

static void on_memset(void *ctx, const struct gen_memset *s)
{
	struct gprec *g = ctx;

	fprintf(line(g, "memset"), "\t%" PRId64 "\t%" PRId64 "\t0\t1\t%u\t%" PRIu64 "\t%" PRIu64 "\t%u\t3\t0\t%" PRIu64
		"\n", s->start, s->end, s->stream, s->corr, s->bytes, s->value, s->graph_node);
}

static void on_sync(void *ctx, const struct gen_sync *y)
{
	struct gprec *g = ctx;

	fprintf(line(g, "sync"), "\t%" PRId64 "\t%" PRId64 "\t1\t%u\t%" PRIu64 "\t%d\t%u\n", y->start, y->end,
		y->stream, y->corr, y->type, y->event_id);
}

/* CUPTI calls GRAPHNODE_CREATED for the node an instantiation makes, then
** GRAPHNODE_CLONED: both lines, as the collector writes them. */
static void on_graph_node(void *ctx, const struct gen_graph_node *n)
{
	struct gprec *g = ctx;

	if (n->original)
		fprintf(line(g, "gnode"), "\t%" PRId64 "\t%u\t0\t%" PRIu64 "\t0\t0\n", n->start, tid_of(n->thr),
			n->node);
	fprintf(line(g, "gnode"), "\t%" PRId64 "\t%u\t0\t%" PRIu64 "\t%" PRIu64 "\t0\n", n->end, tid_of(n->thr),
		n->node, n->original);
}

static void on_graph_exec(void *ctx, const struct gen_graph_exec *x)
{
	struct gprec *g = ctx;

	fprintf(line(g, "graph"), "\t%" PRId64 "\t%" PRId64 "\t0\t1\t%u\t%" PRIu64 "\t%u\n", x->start, x->end,
		x->stream, x->corr, x->graph_id);
}

static int gprec_open(const char *path, bool force, const struct gen_opts *o, struct gen_sink *sink,
		      gp_error *err)
{
	struct gprec *g;
	int fd = gen_create(path, force, err);
	FILE *f;

	if (fd < 0)
		return err->status;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(path);
		return gp_err(err, GP_ERR_IO, "%s: cannot open for writing", path);
	}
	g = gp_xcalloc(1, sizeof(*g));
	g->f = f;
	g->path = path;
	fprintf(f, "%s%d\n", GPREC_MAGIC, GPREC_VERSION_COLLECTOR);
	fprintf(line(g, "meta"), "\tcollector_version\tgpuprof-gen\n");
	fprintf(line(g, "meta"), "\tpid\t%u\n", GEN_PID);
	fprintf(line(g, "meta"), "\tcmdline\tpython serve.py\n");
	fprintf(line(g, "thread"), "\t%u\tpython\n", GEN_TID_MAIN);
	fprintf(line(g, "thread"), "\t%u\tpt_autograd_0\n", GEN_TID_AUTOGRAD);
	/* one A100, as the nsys sink's */
	fprintf(line(g, "device"), "\t0\t108\t8\t0\t42297786368\t1555200000000\t1410000000\t41943040\t"
		"NVIDIA A100-SXM4-40GB\n");
	*sink = (struct gen_sink){g, on_range, on_api, on_kernel, on_memcpy, on_memset, on_sync,
				  o->graphs ? on_graph_node : NULL, o->graphs ? on_graph_exec : NULL};
	return GP_OK;
}

static int gprec_finish(struct gen_sink *sink, gp_error *err)
{
	struct gprec *g = sink->ctx;
	int rc = GP_OK;

	fprintf(g->f, "chunk\t%" PRIu64 "\nend\t%" PRIu64 "\t0\n", g->lines, g->ranges);
	if (ferror(g->f) | (fclose(g->f) != 0)) {
		unlink(g->path);
		rc = gp_err(err, GP_ERR_IO, "%s: write failed", g->path);
	}
	free(g);
	return rc;
}

const struct gen_writer gen_writer_gprec = {"gprec", gprec_open, gprec_finish};
