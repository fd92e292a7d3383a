/*
** `gpuprof-gen --format nvprof`: the model's events as an nvprof (CUPTI
** Version 12) SQLite file, every table nvprof creates (DDL in
** tests/data/schema/nvprof.sql).  Kernel names are mangled symbols in StringTable; API
** calls are RUNTIME rows keyed by cbid; NVTX ranges are MARKER start/end
** row pairs sharing an id, whose objectId blob is the thread (LE int32 pid,
** LE int64 tid); thread ids are pthread_self() values, which nvprof stores
** in RUNTIME.threadId as signed 32-bit (formats.md section 2).
*/
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "util/alloc.h"
#include "util/strtab.h"

/* epoch ns of the model's time 0 (March 2020, as in the reference file) */
#define BASE 1583975498000000000LL
/* pthread ids of the main and autograd threads (the main one is above
** 2^31, so threadId is negative in RUNTIME, as in real files) */
static const uint32_t pthread_id[GEN_THR__COUNT] = {0xEADC3740u, 0x4CEC9740u};

struct nvprof {
	struct gen_db db;
	/* strings that repeat (layer names, PyProf markers) are interned here;
	** ids maps a strtab id to its StringTable _id_ (0 = not written) */
	gp_strtab strs;
	GP_VEC(uint32_t) ids;
	int64_t next_id;
	int64_t marker_id;
	sqlite3_stmt *s_str, *s_kern, *s_rt, *s_cpy, *s_set, *s_sync, *s_event, *s_mark;
	int64_t kname[32];
	const char *indexes;    /* the index DDL, run after the rows */
};

static int64_t new_string(struct nvprof *n, const char *s)
{
	gen_db_row(&n->db, n->s_str, "it", n->next_id, s);
	return n->next_id++;
}

static int64_t sid(struct nvprof *n, const char *s)
{
	gp_str id = gp_strtab_intern(&n->strs, s);

	while (n->ids.n <= id)
		*gp_vec_push(n->ids) = 0;
	if (!n->ids.v[id])
		n->ids.v[id] = (uint32_t)new_string(n, s);
	return n->ids.v[id];
}

static void object_id(unsigned char blob[12], enum gen_thread t)
{
	uint32_t pid = GEN_PID;
	uint64_t tid = pthread_id[t];

	for (int i = 0; i < 4; i++)
		blob[i] = (unsigned char)(pid >> (8 * i));
	for (int i = 0; i < 8; i++)
		blob[4 + i] = (unsigned char)(tid >> (8 * i));
}

static void on_range(void *ctx, const struct gen_range *r)
{
	struct nvprof *n = ctx;
	unsigned char blob[12];
	/* op markers and iterations are unique by construction (op_id, N) */
	int64_t name = r->kind == GEN_R_OP || r->kind == GEN_R_ITER ? new_string(n, r->text)
								     : sid(n, r->text);
	int64_t id = n->marker_id++;

	object_id(blob, r->thr);
	/* flags timestamp id objectKind objectId name domain */
	gen_db_row(&n->db, n->s_mark, "iiiibii", (int64_t)2, BASE + r->start, id, (int64_t)2, blob, 12,
		   name, (int64_t)0);
	gen_db_row(&n->db, n->s_mark, "iiiibii", (int64_t)4, BASE + r->end, id, (int64_t)2, blob, 12,
		   (int64_t)0, (int64_t)0);
}

static void on_api(void *ctx, const struct gen_api *a)
{
	struct nvprof *n = ctx;

	gen_db_row(&n->db, n->s_rt, "iiiiiii", (int64_t)gen_apis[a->api].cbid, BASE + a->start,
		   BASE + a->end, (int64_t)GEN_PID, (int64_t)(int32_t)pthread_id[a->thr],
		   (int64_t)a->corr, (int64_t)0);
}

static void on_kernel(void *ctx, const struct gen_kernel *k)
{
	struct nvprof *n = ctx;
	const struct gen_kdef *d = &gen_kdefs[k->kdef];
	static const unsigned char cache_config = 0;

	if (!n->kname[k->kdef])
		n->kname[k->kdef] = sid(n, d->mangled ? d->mangled : d->demangled);
	/* cacheConfig sharedMemoryConfig registersPerThread partitionedGlobalCache
	** Requested/Executed start end completed deviceId contextId streamId
	** grid block staticSharedMemory dynamicSharedMemory localMemoryPerThread
	** localMemoryTotal correlationId gridId name queued submitted launchType
	** isSharedMemoryCarveoutRequested sharedMemoryCarveoutRequested
	** sharedMemoryExecuted */
	gen_db_row(&n->db, n->s_kern, "biiiiiiiiiiiiiiiiiiiiiiiiiiiiii", &cache_config, 1,
		   (int64_t)0, (int64_t)d->regs, (int64_t)1, (int64_t)1, BASE + k->start, BASE + k->end,
		   BASE + k->end, (int64_t)0, (int64_t)1, (int64_t)k->stream,
		   (int64_t)k->grid[0], (int64_t)k->grid[1], (int64_t)k->grid[2],
		   (int64_t)k->block[0], (int64_t)k->block[1], (int64_t)k->block[2],
		   (int64_t)d->static_smem, (int64_t)d->dynamic_smem, (int64_t)0, (int64_t)193986560,
		   (int64_t)k->corr, (int64_t)k->corr, n->kname[k->kdef], (int64_t)0, (int64_t)0,
		   (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0);
}

static void on_memcpy(void *ctx, const struct gen_memcpy *c)
{
	struct nvprof *n = ctx;

	/* copyKind srcKind dstKind flags bytes start end deviceId contextId
	** streamId correlationId runtimeCorrelationId */
	gen_db_row(&n->db, n->s_cpy, "iiiiiiiiiiii", (int64_t)c->copy_kind, (int64_t)c->src_kind,
		   (int64_t)c->dst_kind, (int64_t)1, (int64_t)c->bytes, BASE + c->start, BASE + c->end,
		   (int64_t)0, (int64_t)1, (int64_t)c->stream, (int64_t)c->corr, (int64_t)0);
}

static void on_memset(void *ctx, const struct gen_memset *s)
{
	struct nvprof *n = ctx;

	/* value bytes start end deviceId contextId streamId correlationId flags memoryKind */
	gen_db_row(&n->db, n->s_set, "iiiiiiiiii", (int64_t)s->value, (int64_t)s->bytes,
		   BASE + s->start, BASE + s->end, (int64_t)0, (int64_t)1, (int64_t)s->stream,
		   (int64_t)s->corr, (int64_t)1, (int64_t)3);
}

static void on_sync(void *ctx, const struct gen_sync *y)
{
	struct nvprof *n = ctx;

	/* type start end correlationId contextId streamId cudaEventId */
	gen_db_row(&n->db, n->s_sync, "iiiiiii", (int64_t)y->type, BASE + y->start, BASE + y->end,
		   (int64_t)y->corr, (int64_t)1, (int64_t)y->stream,
		   y->event_id == 0xffffffffu ? (int64_t)-1 : (int64_t)y->event_id);
	if (y->type == 2)   /* the record of the event the stream waits on */
		gen_db_row(&n->db, n->s_event, "iiii", (int64_t)y->record_corr, (int64_t)1,
			   (int64_t)y->record_stream, (int64_t)y->event_id);
}

static int nvprof_open(const char *path, bool force, const struct gen_opts *o, struct gen_sink *sink,
		       gp_error *err)
{
	/* nvprof.sql lists the tables, then the indexes: building an index once
	** after the rows is faster than maintaining it row by row */
	const char *indexes = strstr(gen_nvprof_ddl, "\nCREATE INDEX");
	size_t tables_len = indexes ? (size_t)(indexes - gen_nvprof_ddl) : strlen(gen_nvprof_ddl);
	char *tables;
	struct nvprof *n;
	int rc;

	if (gen_nkdefs > 32)
		return gp_err(err, GP_ERR_INTERNAL, "gen: kernel catalog too large");
	tables = gp_xmalloc(tables_len + 1);
	memcpy(tables, gen_nvprof_ddl, tables_len);
	tables[tables_len] = '\0';
	n = gp_xcalloc(1, sizeof(*n));
	rc = gen_db_open(&n->db, path, force, tables, err);
	free(tables);
	if (rc) {
		free(n);
		return rc;
	}
	n->indexes = indexes;
	gp_strtab_init(&n->strs);
	n->s_str = gen_db_prepare(&n->db, "INSERT INTO StringTable(_id_, value) VALUES(?,?)");
	n->s_kern = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL(cacheConfig,"
		"sharedMemoryConfig,registersPerThread,partitionedGlobalCacheRequested,"
		"partitionedGlobalCacheExecuted,start,end,completed,deviceId,contextId,streamId,gridX,gridY,"
		"gridZ,blockX,blockY,blockZ,staticSharedMemory,dynamicSharedMemory,localMemoryPerThread,"
		"localMemoryTotal,correlationId,gridId,name,queued,submitted,launchType,"
		"isSharedMemoryCarveoutRequested,sharedMemoryCarveoutRequested,sharedMemoryExecuted) "
		"VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	n->s_rt = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(cbid,start,end,processId,"
					 "threadId,correlationId,returnValue) VALUES(?,?,?,?,?,?,?)");
	n->s_cpy = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(copyKind,srcKind,dstKind,"
					  "flags,bytes,start,end,deviceId,contextId,streamId,correlationId,"
					  "runtimeCorrelationId) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
	n->s_set = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET(value,bytes,start,end,"
					  "deviceId,contextId,streamId,correlationId,flags,memoryKind) "
					  "VALUES(?,?,?,?,?,?,?,?,?,?)");
	n->s_sync = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(type,start,end,"
					   "correlationId,contextId,streamId,cudaEventId) VALUES(?,?,?,?,?,?,?)");
	n->s_event = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT(correlationId,contextId,"
				   "streamId,eventId) VALUES(?,?,?,?)");
	n->s_mark = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_MARKER(flags,timestamp,id,"
					   "objectKind,objectId,name,domain) VALUES(?,?,?,?,?,?,?)");
	/* fixed strings first, at the ids nvprof gives them */
	new_string(n, "-- null --");
	new_string(n, "python train.py --epochs 1");
	sid(n, "Tesla V100-SXM2-16GB");
	n->marker_id = 181130;
	(void)o;
	*sink = (struct gen_sink){n, on_range, on_api, on_kernel, on_memcpy, on_memset, on_sync, NULL, NULL};
	return GP_OK;
}

static int nvprof_finish(struct gen_sink *sink, gp_error *err)
{
	struct nvprof *n = sink->ctx;
	unsigned char blob[12] = {0};
	sqlite3_stmt *st;
	int rc;

	for (int i = 0; i < 4; i++)
		blob[i] = (unsigned char)(GEN_PID >> (8 * i));
	st = gen_db_prepare(&n->db, "INSERT INTO CUPTI_ACTIVITY_KIND_NAME(objectKind,objectId,name) VALUES(?,?,?)");
	gen_db_row(&n->db, st, "ibi", (int64_t)1, blob, 12, (int64_t)1);
	/* the V100 of the reference file */
	gen_db_exec(&n->db,
		"INSERT INTO CUPTI_ACTIVITY_KIND_DEVICE VALUES(1,1,898048000,16914055168,65536,6291456,32,"
		"1530000,2,80,4,64,32,98304,65536,65536,49152,1024,1024,1024,64,2147483647,65535,65535,7,0,0,1,"
		"x'91ED2EEF987B782C7CFBA7C0B32F580B',2);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_CONTEXT VALUES(1,1,0,1,7);"
		"INSERT INTO Version VALUES(12);");
	rc = gen_db_close(&n->db, n->indexes, err);
	gp_strtab_free(&n->strs);
	gp_vec_free(n->ids);
	free(n);
	return rc;
}

const struct gen_writer gen_writer_nvprof = {"nvprof", nvprof_open, nvprof_finish};
