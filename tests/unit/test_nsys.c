/*
** Unit tests for the Nsight Systems reader on small databases built here
** with the sqlite3 C API, plus the trixi anchor when $TESTDATA is available.
** The databases start from the schema of a real nsys 2024.2 export,
** tests/data/schema/nsys.sql (the copy gpuprof-gen writes too; the tests
** run from the repository root); older exports are that schema without
** its ENUM tables (formats.md 1).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readers/reader.h"
#include "readers/sqlutil.h"

/* globalTid = <hw/vm: 1><pid:24><tid:24> as nsys serializes it */
#define GTID(pid, tid) ((1LL << 48) + ((long long)(pid) << 24) + (tid))

static char dbpath[64];
#define NSYS_SCHEMA "tests/data/schema/nsys.sql"
static char *nsys_schema;   /* NSYS_SCHEMA's text, read by setup() */

/* Creates a fresh database at dbpath from a SQL script, in one transaction
** and without syncs (the schema's ~290 statements each waited for the disk
** twice: 45 s of the unit tests on a busy machine; the rows are the same). */
static void make_db(const char *sql)
{
	sqlite3 *db;
	char *msg = NULL;

	unlink(dbpath);
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA synchronous=OFF; PRAGMA journal_mode=OFF", NULL, NULL,
				      NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("SQL: %s", msg);
	sqlite3_close(db);
}

/* Which real export make_nsys_db() imitates: nsys 2024.2, or 2022.1, whose
** exports have no ENUM tables (the reader then uses nsys' fixed ids). */
enum nsys_shape { NSYS_2024, NSYS_2022 };

/* Creates a fresh database at dbpath with the real export's schema, in the
** given shape, and no rows but the ENUM tables'. */
static void make_nsys_db(enum nsys_shape shape)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char drops[4096] = "", *msg = NULL;
	size_t n = 0;

	make_db(nsys_schema);
	if (shape == NSYS_2024)
		return;
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' "
					    "AND name LIKE 'ENUM\\_%' ESCAPE '\\'", -1, &st, NULL), SQLITE_OK);
	while (n < sizeof(drops) && sqlite3_step(st) == SQLITE_ROW)
		n += (size_t)snprintf(drops + n, sizeof(drops) - n, "DROP TABLE \"%s\";",
				      (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	assert_true(n > 0 && n < sizeof(drops));
	if (sqlite3_exec(db, drops, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("SQL: %s", msg);
	sqlite3_close(db);
}

/* Executes printf-formatted SQL on dbpath (values computed in C), without
** syncs (as make_db). */
static void exec_db(const char *fmt, ...)
{
	char sql[4096];
	va_list ap;
	sqlite3 *db;
	char *msg = NULL;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA synchronous=OFF", NULL, NULL, NULL), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("SQL: %s", msg);
	sqlite3_close(db);
}

static int load(gp_trace *t, gp_error *err)
{
	gp_trace_init(t);
	memset(err, 0, sizeof(*err));
	return gp_trace_load(dbpath, t, NULL, err);
}

static bool has_warning(const gp_trace *t, const char *needle)
{
	for (size_t i = 0; i < t->warnings.n; i++)
		if (strstr(gp_s(t, t->warnings.v[i]), needle))
			return true;
	return false;
}

static const struct gp_range *range_named(const gp_trace *t, const char *text)
{
	for (size_t i = 0; i < t->ranges.n; i++)
		if (strcmp(gp_s(t, t->ranges.v[i].text), text) == 0)
			return &t->ranges.v[i];
	return NULL;
}

static const struct gp_api *api_named(const gp_trace *t, const char *name)
{
	for (size_t i = 0; i < t->apis.n; i++)
		if (strcmp(gp_s(t, gp_api_def(t, &t->apis.v[i])->name), name) == 0)
			return &t->apis.v[i];
	return NULL;
}

/* The kernel columns the rows below give: those the reader reads, then the
** ones it does not that are NOT NULL (gridId, local memory). */
#define KERNEL_INSERT \
	"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId," \
	" correlationId, globalPid, demangledName, shortName, mangledName, registersPerThread," \
	" gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory," \
	" graphNodeId, gridId, localMemoryPerThread, localMemoryTotal"

/* Kernels: names by key, NULL mangledName/correlationId/graphNodeId,
** negative timestamps, pid from globalPid, extra DLProf columns. */
static void kernels_are_read(void **state)
{
	gp_trace t;
	gp_error err;

	make_nsys_db(NSYS_2024);
	exec_db("INSERT INTO StringIds VALUES (0,'[Unknown]'),(1,'void gemm<float>(float*)'),(2,'gemm'),"
		"(3,'_Z4gemmIfEvPT_'),(4,'cudaLaunchKernel_v7000'),(5,'cuLaunchKernel');"
		"ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN kernel_name TEXT;"
		KERNEL_INSERT ", kernel_name) VALUES"
		" (-5000,-3000,0,1,7,42,%lld,1,2,3,32,10,2,1,128,1,1,1024,2048,NULL,1,0,0,'dlprof'),"
		" (100,300,1,1,13,NULL,%lld,1,2,NULL,16,1,1,1,32,1,1,0,0,77,2,0,0,NULL);",
		GTID(100, 0), GTID(200, 0));
	assert_int_equal(load(&t, &err), GP_OK);
	assert_string_equal(gp_s(&t, t.format), "nsys");
	assert_int_equal(t.kernels.n, 2);
	const struct gp_kernel *k = &t.kernels.v[0];   /* sorted by start */
	assert_int_equal(k->start, -5000);
	assert_int_equal(k->end, -3000);
	assert_int_equal(k->corr, 42);
	assert_int_equal(gp_kernel_pid(&t, k), 100);
	assert_int_equal(k->stream, 7);
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->name), "gemm");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->demangled), "void gemm<float>(float*)");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->mangled), "_Z4gemmIfEvPT_");
	assert_int_equal(gp_kernel_def(&t, k)->grid[0], 10);
	assert_int_equal(gp_kernel_def(&t, k)->grid[1], 2);
	assert_int_equal(gp_kernel_def(&t, k)->block[0], 128);
	assert_int_equal(gp_kernel_def(&t, k)->regs, 32);
	assert_int_equal(gp_kernel_def(&t, k)->static_smem, 1024);
	assert_int_equal(gp_kernel_def(&t, k)->dynamic_smem, 2048);
	assert_int_equal(gp_kernel_def(&t, k)->graph_node, 0);
	k = &t.kernels.v[1];
	assert_int_equal(k->corr, 0);           /* NULL correlationId */
	assert_int_equal(gp_kernel_def(&t, k)->mangled, 0);        /* NULL mangledName */
	assert_int_equal(gp_kernel_def(&t, k)->graph_node, 77);
	assert_int_equal(gp_kernel_device(&t, k), 1);
	assert_int_equal(gp_kernel_pid(&t, k), 200);
	assert_int_equal(t.warnings.n, 0);
	gp_trace_free(&t);
}

/* Runtime vs driver from eventClass, with and without ENUM_NSYS_EVENT_CLASS;
** version suffix stripped; pid/tid from globalTid; NULL correlationId. */
static void api_calls_are_read(void **state)
{
	gp_trace t;
	gp_error err;

	make_nsys_db(NSYS_2022);
	exec_db("INSERT INTO StringIds VALUES (4,'cudaLaunchKernel_v7000'),(5,'cuLaunchKernel'),"
		"(6,'cudaLaunchKernelExC_v11060'),(7,'cudaGetLastError_v3020');"
		"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
		" (10,20,0,%lld,42,4,0,NULL),(30,40,1,%lld,43,5,1,NULL),"
		" (50,60,0,%lld,44,6,0,NULL),(70,80,0,%lld,NULL,7,0,NULL);",
		GTID(100, 101), GTID(100, 102), GTID(100, 101), GTID(100, 101));
	/* no ENUM tables (nsys 2022.1): 0 = runtime, 1 = driver */
	assert_int_equal(load(&t, &err), GP_OK);
	assert_int_equal(t.apis.n, 4);
	const struct gp_api *a = api_named(&t, "cudaLaunchKernel");
	assert_non_null(a);
	assert_int_equal(gp_api_def(&t, a)->kind, GP_API_RUNTIME);
	assert_int_equal(a->pid, 100);
	assert_int_equal(a->tid, 101);
	assert_int_equal(a->corr, 42);
	assert_int_equal(gp_api_def(&t, a)->cbid, -1);
	a = api_named(&t, "cuLaunchKernel");
	assert_non_null(a);
	assert_int_equal(gp_api_def(&t, a)->kind, GP_API_DRIVER);
	assert_int_equal(a->tid, 102);
	assert_int_equal(gp_api_def(&t, a)->ret, 1);
	assert_non_null(api_named(&t, "cudaLaunchKernelExC"));
	a = api_named(&t, "cudaGetLastError");
	assert_non_null(a);
	assert_int_equal(a->corr, 0);
	gp_trace_free(&t);

	/* an ENUM table, when present, decides (here with made-up ids) */
	exec_db("CREATE TABLE ENUM_NSYS_EVENT_CLASS (id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
		"INSERT INTO ENUM_NSYS_EVENT_CLASS VALUES (0,'TRACE_PROCESS_EVENT_CUDA_DRIVER','CUDA driver'),"
		"(1,'TRACE_PROCESS_EVENT_CUDA_RUNTIME','CUDA runtime');");
	assert_int_equal(load(&t, &err), GP_OK);
	assert_int_equal(gp_api_def(&t, api_named(&t, "cudaLaunchKernel"))->kind, GP_API_DRIVER);
	assert_int_equal(gp_api_def(&t, api_named(&t, "cuLaunchKernel"))->kind, GP_API_RUNTIME);
	gp_trace_free(&t);
}

/* NVTX: text vs textId, push/pop, start/end across threads, marks,
** domains created after use, unended ranges, ignored event types. */
static void nvtx_is_read(void **state)
{
	gp_trace t;
	gp_error err;

	make_nsys_db(NSYS_2022);
	exec_db("INSERT INTO StringIds VALUES (0,'[Unknown]'),(1,'registered'),(2,'k'),(3,'cudaLaunchKernel_v7000');"
		KERNEL_INSERT ") VALUES (500,600,0,1,7,1,%lld,2,2,NULL,8,1,1,1,1,1,1,0,0,NULL,1,0,0);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (0,1000,0,%lld,1,3,0,NULL);"
		"INSERT INTO NVTX_EVENTS (start,end,eventType,text,textId,globalTid,endGlobalTid,domainId,color,category) VALUES"
		" (100,900,59,'inline',NULL,%lld,NULL,0,4278190335,3),"
		" (200,800,59,NULL,1,%lld,NULL,5,NULL,NULL),"
		" (300,NULL,34,'mark',NULL,%lld,NULL,0,NULL,NULL),"
		" (-40,700,60,'crossing',NULL,%lld,%lld,0,NULL,NULL),"
		" (400,NULL,59,'open',NULL,%lld,NULL,0,NULL,NULL),"
		" (0,NULL,75,'MyDomain',NULL,%lld,NULL,5,NULL,NULL),"
		" (0,NULL,75,'OtherProcessDomain',NULL,%lld,NULL,5,NULL,NULL),"
		" (0,NULL,33,'category name',NULL,%lld,NULL,0,NULL,NULL),"
		" (0,NULL,39,'thread name',NULL,%lld,NULL,0,NULL,NULL);",
		GTID(100, 0), GTID(100, 101),
		GTID(100, 101), GTID(100, 101), GTID(100, 101), GTID(100, 101), GTID(100, 102),
		GTID(100, 101), GTID(100, 101), GTID(200, 201), GTID(100, 101), GTID(100, 101));
	assert_int_equal(load(&t, &err), GP_OK);
	assert_int_equal(t.ranges.n, 5);
	const struct gp_range *r = range_named(&t, "inline");
	assert_non_null(r);
	assert_int_equal(r->kind, GP_RANGE_PUSHPOP);
	assert_int_equal(r->pid, 100);
	assert_int_equal(r->tid, 101);
	assert_int_equal(gp_range_nvtx(&t, r).color, 4278190335u);
	assert_int_equal(gp_range_nvtx(&t, r).category, 3);
	assert_int_equal(gp_range_nvtx(&t, r).domain, 0);
	assert_null(gp_range_op_ext(&t, r));
	r = range_named(&t, "registered");
	assert_non_null(r);
	assert_string_equal(gp_s(&t, gp_range_nvtx(&t, r).domain), "MyDomain");
	assert_int_equal(r->depth, 2);   /* inside "crossing" and "inline" */
	r = range_named(&t, "mark");
	assert_non_null(r);
	assert_int_equal(r->kind, GP_RANGE_MARK);
	assert_int_equal(r->end, 300);
	assert_int_equal(r->ext, 0);   /* no NVTX details: no side entry */
	r = range_named(&t, "crossing");
	assert_non_null(r);
	assert_int_equal(r->kind, GP_RANGE_STARTEND);
	assert_int_equal(r->start, -40);
	assert_int_equal(gp_range_nvtx(&t, r).end_tid, 102);
	r = range_named(&t, "open");
	assert_non_null(r);
	assert_int_equal(r->end, 1000);   /* the end of the trace */
	assert_true(has_warning(&t, "1 NVTX ranges have no end"));
	assert_null(range_named(&t, "category name"));
	assert_null(range_named(&t, "thread name"));
	gp_trace_free(&t);
}

/* Memory and sync tables without ENUM tables (2022.1): nsys memory kinds
** (Pageable = 0) translated to ours; with a renumbering ENUM table. */
static void memory_and_sync_are_read(void **state)
{
	gp_trace t;
	gp_error err;

	make_nsys_db(NSYS_2022);
	exec_db("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, greenContextId,"
		" streamId, correlationId, globalPid, bytes, copyKind, deprecatedSrcId, srcKind, dstKind,"
		" srcDeviceId, srcContextId, dstDeviceId, dstContextId) VALUES"
		" (10,20,0,1,NULL,7,5,%lld,4096,1,NULL,0,2,NULL,NULL,0,1),"
		" (30,40,0,1,NULL,7,6,%lld,8,2,NULL,2,1,0,1,NULL,NULL);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId,"
		" correlationId, globalPid, value, bytes, graphNodeId, memKind)"
		" VALUES (50,60,0,1,7,8,%lld,255,64,NULL,2);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId,"
		" correlationId, globalPid, syncType, eventId) VALUES"
		" (70,80,0,1,4294967295,9,%lld,3,4294967295),(90,95,0,1,7,10,%lld,4,1);",
		GTID(100, 0), GTID(100, 0), GTID(100, 0), GTID(100, 0), GTID(100, 0));
	assert_int_equal(load(&t, &err), GP_OK);
	assert_int_equal(t.memcpys.n, 2);
	const struct gp_memcpy *m = &t.memcpys.v[0];
	assert_int_equal(m->copy_kind, GP_COPY_HTOD);
	assert_int_equal(m->src_kind, GP_MEM_PAGEABLE);
	assert_int_equal(m->dst_kind, GP_MEM_DEVICE);
	assert_int_equal(m->bytes, 4096);
	assert_int_equal(m->corr, 5);
	assert_int_equal(m->pid, 100);
	assert_int_equal(m->src_device, -1);
	assert_int_equal(m->dst_device, 0);
	m = &t.memcpys.v[1];
	assert_int_equal(m->copy_kind, GP_COPY_DTOH);
	assert_int_equal(m->src_kind, GP_MEM_DEVICE);
	assert_int_equal(m->dst_kind, GP_MEM_PINNED);
	assert_int_equal(t.memsets.n, 1);
	assert_int_equal(t.memsets.v[0].mem_kind, GP_MEM_DEVICE);
	assert_int_equal(t.memsets.v[0].value, 255);
	assert_int_equal(t.memsets.v[0].bytes, 64);
	assert_int_equal(t.syncs.n, 2);
	assert_int_equal(t.syncs.v[0].kind, GP_SYNC_STREAM);
	assert_int_equal(t.syncs.v[0].stream, 4294967295u);
	assert_int_equal(t.syncs.v[0].event_id, 4294967295u);
	assert_int_equal(t.syncs.v[1].kind, GP_SYNC_CONTEXT);
	gp_trace_free(&t);

	exec_db("CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
		"INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0,'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN','Unknown'),"
		"(2,'CUDA_MEMOPR_MEMORY_KIND_MANAGED','Managed');");
	assert_int_equal(load(&t, &err), GP_OK);
	assert_int_equal(t.memcpys.v[0].src_kind, GP_MEM_UNKNOWN);
	assert_int_equal(t.memcpys.v[0].dst_kind, GP_MEM_MANAGED);
	assert_int_equal(t.memsets.v[0].mem_kind, GP_MEM_MANAGED);
	gp_trace_free(&t);
}

/* A key into StringIds without a row reads as "" and is counted; sparse,
** huge ids work. */
static void string_keys_are_checked(void **state)
{
	gp_trace t;
	gp_error err;

	make_nsys_db(NSYS_2024);
	exec_db("INSERT INTO StringIds VALUES (7,'seven'),(1000000000000,'big');"
		KERNEL_INSERT ") VALUES"
		" (0,10,0,1,7,1,%lld,1000000000000,7,-3,8,1,1,1,1,1,1,0,0,NULL,1,0,0),"
		" (20,30,0,1,7,2,%lld,999,4611686018427387904,NULL,8,1,1,1,1,1,1,0,0,NULL,2,0,0);",
		GTID(1, 0), GTID(1, 0));
	assert_int_equal(load(&t, &err), GP_OK);
	assert_int_equal(t.kernels.n, 2);
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, &t.kernels.v[0])->demangled), "big");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, &t.kernels.v[0])->name), "seven");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, &t.kernels.v[0])->mangled), "");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, &t.kernels.v[1])->name), "");
	assert_true(has_warning(&t, "3 references to missing StringIds rows"));
	gp_trace_free(&t);
}

/* Metadata, GPUs, processes, threads, and whole-graph launches. */
static void metadata_and_graphs(void **state)
{
	gp_trace t;
	gp_error err;

	make_nsys_db(NSYS_2024);
	/* a lazy export has no kernel table when no kernel ran */
	exec_db("DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
		"INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION','2024.2.1.106'),"
		"('EXPORT_SCHEMA_VERSION','3.11.1');"
		"INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1713889498851521398,'2024-04-23T16:24:58','x');"
		"INSERT INTO TARGET_INFO_GPU (vmId, id, name, l2CacheSize, totalMemory, memoryBandwidth,"
		" clockRate, smCount, computeMajor, computeMinor) VALUES (0,1,'B',1,2,3,4,5,8,0),"
		" (0,0,'A',41943040,42297786368,1555200000000,1410000000,108,8,0),(1,0,'A again',0,0,0,0,0,0,0);"
		"INSERT INTO PROCESSES VALUES (%lld,100,'python3');"
		"INSERT INTO StringIds VALUES (1,'pt_main_thread'),(2,'cudaGraphLaunch_v10000');"
		"INSERT INTO ThreadNames VALUES (1,0,%lld);"
		"CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER NOT NULL, end INTEGER NOT NULL,"
		" deviceId INTEGER NOT NULL, contextId INTEGER, greenContextId INTEGER, streamId INTEGER,"
		" correlationId INTEGER, globalPid INTEGER, graphId INTEGER, graphExecId INTEGER);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (100,900,0,1,NULL,7,12,%lld,5,6);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (50,90,0,%lld,12,2,0,NULL);",
		GTID(100, 0), GTID(100, 101), GTID(100, 0), GTID(100, 101));
	assert_int_equal(load(&t, &err), GP_OK);
	assert_string_equal(gp_s(&t, t.tool_version), "nsys 2024.2.1.106");
	assert_string_equal(gp_trace_meta_get(&t, "schema version"), "3.11.1");
	assert_string_equal(gp_trace_meta_get(&t, "session epoch (ns)"), "1713889498851521398");
	assert_int_equal(t.devices.n, 2);
	const struct gp_device *d = gp_trace_device(&t, 0);
	assert_non_null(d);
	assert_string_equal(gp_s(&t, d->name), "A");
	assert_int_equal(d->sm_count, 108);
	assert_int_equal(d->cc_major, 8);
	assert_int_equal(d->mem_bytes, 42297786368ULL);
	assert_true(d->mem_bw == 1555200000000.0);
	assert_true(d->clock_hz == 1410000000.0);
	assert_int_equal(d->l2_bytes, 41943040);
	assert_int_equal(t.processes.n, 1);
	assert_int_equal(t.processes.v[0].pid, 100);
	assert_string_equal(gp_s(&t, t.processes.v[0].name), "python3");
	assert_int_equal(t.threads.n, 1);
	assert_int_equal(t.threads.v[0].tid, 101);
	assert_string_equal(gp_s(&t, t.threads.v[0].name), "pt_main_thread");
	assert_int_equal(t.kernels.n, 1);
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, &t.kernels.v[0])->name), "[CUDA graph 5]");
	assert_int_equal(gp_kernel_def(&t, &t.kernels.v[0])->graph_id, 5);
	assert_int_equal(t.kernels.v[0].corr, 12);
	assert_int_equal(gp_kernel_pid(&t, &t.kernels.v[0]), 100);
	assert_true(has_warning(&t, "1 CUDA graph launches were traced as whole graphs"));
	assert_true(has_warning(&t, "no CUDA kernels were captured"));
	gp_trace_free(&t);
}

/* Damage: a table without a required column, a foreign SQLite file. */
static void bad_databases_fail_cleanly(void **state)
{
	gp_trace t;
	gp_error err;

	make_db("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
		"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, duration INTEGER);"
		"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1,2);");
	assert_int_equal(load(&t, &err), GP_ERR_CORRUPT);
	assert_non_null(strstr(err.msg, "cannot read kernels: table CUPTI_ACTIVITY_KIND_KERNEL has no column 'end'"));
	gp_trace_free(&t);

	make_db("CREATE TABLE StringIds (a, b);");
	assert_int_equal(load(&t, &err), GP_ERR_CORRUPT);
	assert_non_null(strstr(err.msg, "no column 'id'"));
	gp_trace_free(&t);

	make_db("CREATE TABLE something (a, b);");
	assert_int_equal(load(&t, &err), GP_ERR_FORMAT);
	gp_trace_free(&t);
}

static const struct gp_reader *reader_named(const char *name)
{
	for (int i = 0; gp_readers[i]; i++)
		if (strcmp(gp_readers[i]->name, name) == 0)
			return gp_readers[i];
	fail_msg("no reader %s", name);
	return NULL;
}

/* sqlutil: one whole-file check for both SQLite readers.  A database cut
** short is "truncated" whichever reader loads it (not only the one the
** probe weights pick), and both probes claim it only weakly. */
static void sqlutil_truncated_file_for_both_readers(void **state)
{
	static const char *const names[] = {"nsys", "nvprof"};
	char cutpath[80], buf[65536];
	unsigned char head[100];
	gp_trace t;
	gp_error err;
	FILE *in, *out;
	size_t n;

	make_db("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
		"CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT);"
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)"
		" INSERT INTO StringTable SELECT i, 'a longer string value number ' || i FROM n;");
	snprintf(cutpath, sizeof(cutpath), "%s.cut", dbpath);
	assert_non_null(in = fopen(dbpath, "rb"));
	assert_non_null(out = fopen(cutpath, "wb"));
	n = fread(buf, 1, sizeof(buf), in);
	assert_true(n > 20000);                   /* many pages */
	fwrite(buf, 1, n / 2, out);
	fclose(in);
	fclose(out);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		gp_trace_init(&t);
		memset(&err, 0, sizeof(err));
		assert_int_equal(reader_named(names[i])->load(cutpath, &t, NULL, &err), GP_ERR_CORRUPT);
		assert_non_null(strstr(err.msg, "truncated SQLite database: its header says"));
		gp_trace_free(&t);
	}

	sqlite3 *db;
	assert_non_null(in = fopen(cutpath, "rb"));
	struct gp_probe_input probe = {.path = cutpath, .head = head, .head_len = fread(head, 1, sizeof(head), in)};
	fclose(in);
	assert_int_equal(gp_sql_probe_open(&probe, &db), GP_SQL_DAMAGED);
	assert_null(db);
	probe.path = dbpath;
	assert_int_equal(gp_sql_probe_open(&probe, &db), GP_SQL_WHOLE);
	sqlite3_close(db);
	unlink(cutpath);
}

/* sqlutil: SELECTs with required and optional columns. */
static void sqlutil_select_columns(void **state)
{
	static const char *const opt[] = {"id", "value", "nosuch"};
	static const char *const req[] = {"id", "nosuch"};
	sqlite3 *db;
	sqlite3_stmt *st;
	gp_error err;
	uint64_t size = 0;

	make_db("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT); INSERT INTO StringIds VALUES (7, 'x');");
	assert_int_equal(gp_sql_open_whole(dbpath, &db, &size, &err), GP_OK);
	assert_true(size > 0);
	assert_int_equal(gp_sql_select(db, dbpath, "StringIds", "strings", opt, 3, 2, &st, &err), GP_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(gp_sql_i64(st, 0), 7);
	assert_string_equal(gp_sql_text(st, 1), "x");
	assert_true(gp_sql_is_null(st, 2));
	assert_int_equal(gp_sql_finish(db, st, sqlite3_step(st), dbpath, "strings", &err), GP_OK);

	assert_int_equal(gp_sql_select(db, dbpath, "StringIds", "strings", req, 2, 2, &st, &err), GP_ERR_CORRUPT);
	assert_null(st);
	assert_non_null(strstr(err.msg, ": cannot read strings: table StringIds has no column 'nosuch'"));

	assert_int_equal(gp_sql_select(db, dbpath, "Absent", "strings", req, 2, 2, &st, &err), GP_OK);
	assert_null(st);
	sqlite3_close(db);
}

/* Splits one CSV line (RFC 4180 quotes) into at most n fields, in place. */
static int csv_split(char *line, char **f, int n)
{
	int k = 0;
	char *w = line, *p = line;

	while (k < n) {
		f[k++] = w;
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
				*w++ = *p == '"' ? *++p : *p;
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ',' && *p != '\n' && *p != '\r')
				*w++ = *p++;
		}
		int more = *p == ',';
		*w++ = '\0';
		if (!more)
			break;
		p++;
	}
	return k;
}

/* The trixi anchor: our kernel equals the row of nsys' own cuda_gpu_trace. */
static void trixi_matches_nsys_stats(void **state)
{
	const char *td = getenv("TESTDATA");
	char path[1024], line[2048];
	char *f[32];
	gp_trace t;
	gp_error err = {0};
	FILE *csv;

	if (!td || !*td) {
		skip();
		return;
	}
	snprintf(path, sizeof(path), "%s/nsys/trixi_v100_2023.1/expected_cuda_gpu_trace.csv", td);
	csv = fopen(path, "r");
	assert_non_null(csv);
	assert_non_null(fgets(line, sizeof(line), csv));   /* header */
	assert_non_null(fgets(line, sizeof(line), csv));
	fclose(csv);
	assert_int_equal(csv_split(line, f, 32), 20);

	snprintf(path, sizeof(path), "%s/nsys/trixi_v100_2023.1/report1.sqlite", td);
	gp_trace_init(&t);
	assert_int_equal(gp_trace_load(path, &t, NULL, &err), GP_OK);
	assert_int_equal(t.kernels.n, 1);
	const struct gp_kernel *k = &t.kernels.v[0];
	char dev[256];
	snprintf(dev, sizeof(dev), "%s (%d)", gp_s(&t, gp_trace_device(&t, gp_kernel_device(&t, k))->name),
		 gp_kernel_device(&t, k));
	assert_int_equal(k->start, strtoll(f[0], NULL, 10));
	assert_int_equal(k->end - k->start, strtoll(f[1], NULL, 10));
	assert_int_equal(k->corr, strtoll(f[2], NULL, 10));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gp_kernel_def(&t, k)->grid[i], strtoll(f[3 + i], NULL, 10));
		assert_int_equal(gp_kernel_def(&t, k)->block[i], strtoll(f[6 + i], NULL, 10));
	}
	assert_int_equal(gp_kernel_def(&t, k)->regs, strtoll(f[9], NULL, 10));
	assert_string_equal(dev, f[16]);
	assert_int_equal(gp_kernel_def(&t, k)->context, strtoll(f[17], NULL, 10));
	assert_int_equal(k->stream, strtoll(f[18], NULL, 10));
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->demangled), f[19]);
	assert_string_equal(gp_s(&t, t.tool_version), "nsys 2023.1.2.43");
	/* only driver calls in this Julia run (expected_cuda_api_sum.csv) */
	assert_int_equal(t.apis.n, 6);
	for (size_t i = 0; i < t.apis.n; i++)
		assert_int_equal(gp_api_def(&t, &t.apis.v[i])->kind, GP_API_DRIVER);
	assert_non_null(api_named(&t, "cuLaunchKernel"));
	assert_int_equal(api_named(&t, "cuLaunchKernel")->corr, 21);
	gp_trace_free(&t);
}

static int setup(void **state)
{
	FILE *f = fopen(NSYS_SCHEMA, "r");
	long size;

	snprintf(dbpath, sizeof(dbpath), "/tmp/gp_test_nsys_%ld.sqlite", (long)getpid());
	if (!f) {
		fprintf(stderr, "%s: cannot open (run from the repository root)\n", NSYS_SCHEMA);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(nsys_schema = calloc(1, (size_t)size + 1)) ||
	    fread(nsys_schema, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "%s: cannot read\n", NSYS_SCHEMA);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int teardown(void **state)
{
	unlink(dbpath);
	free(nsys_schema);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernels_are_read),
		cmocka_unit_test(api_calls_are_read),
		cmocka_unit_test(nvtx_is_read),
		cmocka_unit_test(memory_and_sync_are_read),
		cmocka_unit_test(string_keys_are_checked),
		cmocka_unit_test(metadata_and_graphs),
		cmocka_unit_test(bad_databases_fail_cleanly),
		cmocka_unit_test(sqlutil_truncated_file_for_both_readers),
		cmocka_unit_test(sqlutil_select_columns),
		cmocka_unit_test(trixi_matches_nsys_stats),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
