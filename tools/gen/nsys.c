/*
** `gpuprof-gen --format nsys`: the model's events as an Nsight Systems
** 2024.2 SQLite export (schema 3.11.1; DDL in tests/data/schema/nsys.sql).  Names are
** interned into StringIds, threads are encoded as globalTid (formats.md
** 1.1), kernels and copies point at their CUDA runtime call through
** correlationId, NVTX ranges are push/pop rows (eventType 59) with inline
** text, as PyProf and emit_nvtx leave them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/alloc.h"
#include "util/strtab.h"

/* <HwId:8><VmId:8><Pid:24><Tid:24>; nsys puts VmId 1 on Linux hosts. */
#define VM (1ULL << 48)
#define GPID ((int64_t)(VM | ((uint64_t)GEN_PID << 24)))

struct nsys {
	struct gen_db db;
	gp_strtab strs;
	uint32_t nwritten;   /* strs ids below this are in StringIds */
	sqlite3_stmt *s_str, *s_kern, *s_rt, *s_cpy, *s_set, *s_sync, *s_event, *s_nvtx, *s_gnode, *s_gexec;
	uint32_t kname[3 * 32];  /* demangled, short, mangled id per kdef; 0 = not yet */
	uint32_t api_name[GEN_API__COUNT];
	char host[64];           /* TARGET_INFO_SYSTEM_ENV's Hostname; "" = none */
};

static int64_t gtid(enum gen_thread t)
{
	uint32_t tid = t == GEN_THR_MAIN ? GEN_TID_MAIN : GEN_TID_AUTOGRAD;
	return GPID | (int64_t)tid;
}

/* The StringIds id of s, inserting it the first time. */
static int64_t sid(struct nsys *n, const char *s)
{
	gp_str id = gp_strtab_intern(&n->strs, s);

	if (id >= n->nwritten) {
		gen_db_row(&n->db, n->s_str, "it", (int64_t)id, s);
		n->nwritten = id + 1;
	}
	return id;
}

static void on_range(void *ctx, const struct gen_range *r)
{
	struct nsys *n = ctx;

	/* start end eventType rangeId category color text globalTid endGlobalTid
	** textId domainId (the payload columns stay NULL).  Iterations get
	** NVIDIA green, as torch.cuda.nvtx users often do. */
	if (r->kind == GEN_R_ITER)
		gen_db_row(&n->db, n->s_nvtx, "iiinnitinni", r->start, r->end, (int64_t)59,
			   (int64_t)0xFF76B900, r->text, gtid(r->thr), (int64_t)0);
	else
		gen_db_row(&n->db, n->s_nvtx, "iiinnntinni", r->start, r->end, (int64_t)59, r->text,
			   gtid(r->thr), (int64_t)0);
}

static void on_api(void *ctx, const struct gen_api *a)
{
	struct nsys *n = ctx;

	if (!n->api_name[a->api])
		n->api_name[a->api] = (uint32_t)sid(n, gen_apis[a->api].name);
	gen_db_row(&n->db, n->s_rt, "iiiiiiin", a->start, a->end, (int64_t)0, gtid(a->thr),
		   (int64_t)a->corr, a->name ? sid(n, a->name) : (int64_t)n->api_name[a->api], (int64_t)0);
}

static void on_kernel(void *ctx, const struct gen_kernel *k)
{
	struct nsys *n = ctx;
	const struct gen_kdef *d = &gen_kdefs[k->kdef];
	uint32_t *ids = &n->kname[3 * k->kdef];

	if (!ids[0]) {
		ids[0] = (uint32_t)sid(n, d->demangled);
		ids[1] = (uint32_t)sid(n, d->short_name);
		ids[2] = (uint32_t)sid(n, d->mangled ? d->mangled : d->demangled);
	}
	/* the 27th column, graphNodeId, is NULL for an eager launch */
	gen_db_row(&n->db, n->s_kern, k->graph_node ? "iiiiiiiiiiiiiiiiiiiiiiiiiiii" : "iiiiiiiiiiiiiiiiiiiiiiiiiini",
		   k->start, k->end, (int64_t)0, (int64_t)1, (int64_t)0, (int64_t)k->stream,
		   (int64_t)k->corr, GPID, (int64_t)ids[0], (int64_t)ids[1], (int64_t)ids[2],
		   (int64_t)1, (int64_t)0, (int64_t)d->regs,
		   (int64_t)k->grid[0], (int64_t)k->grid[1], (int64_t)k->grid[2],
		   (int64_t)k->block[0], (int64_t)k->block[1], (int64_t)k->block[2],
		   (int64_t)d->static_smem, (int64_t)d->dynamic_smem, (int64_t)0, (int64_t)127401984,
		   (int64_t)k->corr, (int64_t)(d->dynamic_smem ? 167936 : 32768),
		   k->graph_node ? (int64_t)k->graph_node : (int64_t)0, (int64_t)0);
}

/* CUPTI memory kinds (1 pageable, 2 pinned, 3 device) to nsys's (0, 1, 2). */
static int64_t mem_kind(int cupti)
{
	return cupti >= 1 && cupti <= 7 ? cupti - 1 : 7;
}

static void on_memcpy(void *ctx, const struct gen_memcpy *c)
{
	struct nsys *n = ctx;

	gen_db_row(&n->db, n->s_cpy, c->graph_node ? "iiiiiiiiiiniii" : "iiiiiiiiiiniin", c->start, c->end,
		   (int64_t)0, (int64_t)1, (int64_t)0, (int64_t)c->stream, (int64_t)c->corr, GPID,
		   (int64_t)c->bytes, (int64_t)c->copy_kind, mem_kind(c->src_kind), mem_kind(c->dst_kind),
		   (int64_t)c->graph_node);
}

static void on_memset(void *ctx, const struct gen_memset *s)
{
	struct nsys *n = ctx;

	if (s->graph_node)
		gen_db_row(&n->db, n->s_set, "iiiiiiiiiiii", s->start, s->end, (int64_t)0, (int64_t)1,
			   (int64_t)0, (int64_t)s->stream, (int64_t)s->corr, GPID, (int64_t)s->value,
			   (int64_t)s->bytes, (int64_t)s->graph_node, (int64_t)2);
	else
		gen_db_row(&n->db, n->s_set, "iiiiiiiiiini", s->start, s->end, (int64_t)0, (int64_t)1,
			   (int64_t)0, (int64_t)s->stream, (int64_t)s->corr, GPID, (int64_t)s->value,
			   (int64_t)s->bytes, (int64_t)2);
}

static void on_sync(void *ctx, const struct gen_sync *y)
{
	struct nsys *n = ctx;

	gen_db_row(&n->db, n->s_sync, "iiiiniiiii", y->start, y->end, (int64_t)0, (int64_t)1,
		   (int64_t)y->stream, (int64_t)y->corr, GPID, (int64_t)y->type, (int64_t)y->event_id);
	if (y->type == 2)   /* the record of the event the stream waits on */
		gen_db_row(&n->db, n->s_event, "iiniiii", (int64_t)0, (int64_t)1, (int64_t)y->record_stream,
			   (int64_t)y->record_corr, GPID, (int64_t)y->event_id);
}

/* A node's creation or clone: eventClass 77, TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION. */
static void on_graph_node(void *ctx, const struct gen_graph_node *g)
{
	struct nsys *n = ctx;

	gen_db_row(&n->db, n->s_gnode, g->original ? "iiiiiii" : "iiiiiin", g->start, g->end, (int64_t)77,
		   gtid(g->thr), sid(n, "Graph Node Creation"), (int64_t)g->node, (int64_t)g->original);
}

static void on_graph_exec(void *ctx, const struct gen_graph_exec *x)
{
	struct nsys *n = ctx;

	gen_db_row(&n->db, n->s_gexec, "iiiiniiiii", x->start, x->end, (int64_t)0, (int64_t)1,
		   (int64_t)x->stream, (int64_t)x->corr, GPID, (int64_t)x->graph_id, (int64_t)x->exec_id);
}

static int nsys_open(const char *path, bool force, const struct gen_opts *o, struct gen_sink *sink,
		     gp_error *err)
{
	struct nsys *n = gp_xcalloc(1, sizeof(*n));

	if (gen_nkdefs > 32)
		return gp_err(err, GP_ERR_INTERNAL, "gen: kernel catalog too large");
	if (gen_db_open(&n->db, path, force, gen_nsys_ddl, err)) {
		free(n);
		return err->status;
	}
	gp_strtab_init(&n->strs);
	snprintf(n->host, sizeof(n->host), "%s", o->host ? o->host : "");
	n->nwritten = 1;   /* id 0 is the empty string: never referenced */
	n->s_str = gen_db_prepare(&n->db, "INSERT INTO StringIds VALUES(?,?)");
	n->s_kern = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES("
					   "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	n->s_rt = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(?,?,?,?,?,?,?,?)");
	n->s_cpy = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start,end,deviceId,"
					  "contextId,greenContextId,streamId,correlationId,globalPid,bytes,"
					  "copyKind,deprecatedSrcId,srcKind,dstKind,graphNodeId) "
					  "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	n->s_set = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
	if (o->graphs) {
		gen_db_exec(&n->db, gen_nsys_graphs_ddl);
		n->s_gnode = gen_db_prepare(&n->db, "INSERT INTO CUDA_GRAPH_NODE_EVENTS VALUES(?,?,?,?,?,?,?)");
		n->s_gexec = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE "
						    "VALUES(?,?,?,?,?,?,?,?,?,?)");
	}
	n->s_sync = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES(?,?,?,?,?,?,?,?,?,?)");
	n->s_event = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT VALUES(?,?,?,?,?,?,?)");
	n->s_nvtx = gen_db_prepare(&n->db, "INSERT INTO NVTX_EVENTS(start,end,eventType,rangeId,category,"
					   "color,text,globalTid,endGlobalTid,textId,domainId) "
					   "VALUES(?,?,?,?,?,?,?,?,?,?,?)");
	*sink = (struct gen_sink){n, on_range, on_api, on_kernel, on_memcpy, on_memset, on_sync,
				  o->graphs ? on_graph_node : NULL, o->graphs ? on_graph_exec : NULL};
	return GP_OK;
}

static int nsys_finish(struct gen_sink *sink, gp_error *err)
{
	struct nsys *n = sink->ctx;
	sqlite3_stmt *st;
	int rc;

	st = gen_db_prepare(&n->db, "INSERT INTO ThreadNames VALUES(?,?,?)");
	gen_db_row(&n->db, st, "iii", sid(n, "python"), (int64_t)20, gtid(GEN_THR_MAIN));
	gen_db_row(&n->db, st, "iii", sid(n, "pt_autograd_0"), (int64_t)20, gtid(GEN_THR_AUTOGRAD));
	/* one A100, as on the mmagic reference machine */
	gen_db_exec(&n->db,
		"INSERT INTO PROCESSES VALUES(281474976710656 + 24242 * 16777216, 24242, 'python');"
		"INSERT INTO TARGET_INFO_GPU VALUES(281474976710656,0,'NVIDIA A100-SXM4-40GB','0000:41:00.0',"
		"1,41943040,42297786368,1555200000000,1410000000,108,1,'b3c1eae3-15dc-dc1b-5a5b-e690d743ad47',0,"
		"'GA100',0,NULL,NULL,161,0,65536,4,65536,49152,166912,167936,65536,32,5,64,32,1024,1024,1024,64,"
		"2147483647,65535,65535,8,0,8,2);"
		"INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(1717200000000000000,'2024-06-01T00:00:00',"
		"'2024-06-01T00:00:00');"
		"INSERT INTO META_DATA_EXPORT VALUES"
		"('EXPORT_PRODUCT_NAME','NVIDIA Nsight Systems'),('EXPORT_PRODUCT_VERSION','2024.2.1.106'),"
		"('EXPORT_PRODUCT_DATE','2024.2'),('EXPORT_SCHEMA_VERSION','3.11.1'),"
		"('EXPORT_SCHEMA_VERSION_MAJOR','3'),('EXPORT_SCHEMA_VERSION_MINOR','11'),"
		"('EXPORT_SCHEMA_VERSION_MICRO','1'),('EXPORT_PLATFORM','linux-desktop'),('EXPORT_ARCH','x64'),"
		"('EXPORT_PARAM_LAZY','false'),('EXPORT_PARAM_TIME_NORMALIZE','false'),"
		"('EXPORT_GENERATOR','gpuprof gen (synthetic trace)');");
	if (*n->host) {
		gen_db_exec(&n->db, "CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER, devStateName TEXT NOT NULL, "
			    "name TEXT NOT NULL, nameEnum INTEGER NOT NULL, value TEXT NOT NULL);");
		st = gen_db_prepare(&n->db, "INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES(281474976710656,"
					    "'Local (CLI)','Hostname',619,?)");
		gen_db_row(&n->db, st, "t", n->host);
	}
	rc = gen_db_close(&n->db, NULL, err);
	gp_strtab_free(&n->strs);
	free(n);
	return rc;
}

const struct gen_writer gen_writer_nsys = {"nsys", nsys_open, nsys_finish};
