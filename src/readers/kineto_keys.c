/*
** The Kineto reader's keys and categories: which JSON key is which in each
** kind of container, and which category an event is.  See kineto_int.h.
*/
#include <string.h>

#include "readers/kineto_int.h"

struct keydef {
	const char *s;
	uint8_t len;
	uint8_t key;
	const char *meta;   /* K_META and distributedInfo: the gp_meta key it becomes */
};

#define KD(s, key, meta) {s, sizeof(s) - 1, key, meta}

static const struct keydef top_keys[] = {
	KD("traceEvents", K_TRACE_EVENTS, NULL),
	KD("baseTimeNanoseconds", K_BASE_TIME, NULL),
	KD("deviceProperties", K_DEVPROPS, NULL),
	KD("distributedInfo", K_DIST, NULL),
	KD("schemaVersion", K_META, "schema_version"),
	KD("cupti_version", K_META, "cupti_version"),
	KD("cuda_runtime_version", K_META, "cuda_runtime_version"),
	KD("cuda_driver_version", K_META, "cuda_driver_version"),
	KD("hip_runtime_version", K_META, "hip_runtime_version"),
	KD("roctracer_version", K_META, "roctracer_version"),
	KD("pytorch_version", K_META, "pytorch_version"),
	KD("torch_version", K_META, "pytorch_version"),
	KD("trace_id", K_META, "trace_id"),
	KD("traceName", K_META, "trace_name"),
	KD("displayTimeUnit", K_META, "display_time_unit"),
	KD("record_shapes", K_META, "record_shapes"),
	KD("profile_memory", K_META, "profile_memory"),
	KD("with_stack", K_META, "with_stack"),
	KD("with_flops", K_META, "with_flops"),
	KD("with_modules", K_META, "with_modules"),
	KD("host_name", K_META, "host_name"),
	{NULL, 0, 0, NULL},
};

static const struct keydef device_keys[] = {
	KD("id", K_DEV_ID, NULL), KD("name", K_DEV_NAME, NULL),
	KD("totalGlobalMem", K_DEV_MEM, NULL), KD("computeMajor", K_DEV_MAJOR, NULL),
	KD("computeMinor", K_DEV_MINOR, NULL), KD("numSms", K_DEV_SMS, NULL),
	KD("warpSize", K_DEV_WARP, NULL),
	{NULL, 0, 0, NULL},
};

static const struct keydef dist_keys[] = {
	KD("rank", K_RANK, "rank"), KD("world_size", K_WORLD, "world_size"),
	KD("backend", K_BACKEND, "dist_backend"), KD("nccl_version", K_NCCL, "nccl_version"),
	KD("pg_count", K_PG_COUNT, "pg_count"),
	{NULL, 0, 0, NULL},
};

static uint8_t lookup_key(const struct keydef *tab, const char *s, size_t n, const char **meta)
{
	for (int i = 0; tab[i].s; i++)
		if (tab[i].len == n && tab[i].s[0] == s[0] && memcmp(tab[i].s, s, n) == 0) {
			*meta = tab[i].meta;
			return tab[i].key;
		}
	return K_NONE;
}

/* The event keys, by hand: they are looked up a dozen times per event. */
static uint8_t event_key(const char *s, size_t n)
{
	switch (n) {
	case 2:
		if (s[0] == 'p' && s[1] == 'h') return K_PH;
		if (s[0] == 't' && s[1] == 's') return K_TS;
		if (s[0] == 'i' && s[1] == 'd') return K_ID;
		return K_NONE;
	case 3:
		if (memcmp(s, "cat", 3) == 0) return K_CAT;
		if (memcmp(s, "dur", 3) == 0) return K_DUR;
		if (memcmp(s, "pid", 3) == 0) return K_PID;
		if (memcmp(s, "tid", 3) == 0) return K_TID;
		return K_NONE;
	case 4:
		if (memcmp(s, "name", 4) == 0) return K_NAME;
		if (memcmp(s, "args", 4) == 0) return K_ARGS;
		return K_NONE;
	}
	return K_NONE;
}

/* The args keys, by hand too: every event has several, most of them keys
** we do not read ("Record function id", occupancy figures), which a switch
** on the length rejects at once. */
static uint8_t arg_key(const char *s, size_t n)
{
#define IS(lit) (memcmp(s, lit, n) == 0)
	switch (n) {
	case 3:
		return IS("Seq") ? K_COLL_SEQ : K_NONE;
	case 4:
		return IS("grid") ? K_GRID : IS("cbid") ? K_CBID : IS("name") ? K_ARG_NAME
		     : IS("Addr") ? K_MEM_ADDR : K_NONE;
	case 5:
		return IS("block") ? K_BLOCK : IS("bytes") ? K_BYTES : IS("Bytes") ? K_MEM_BYTES
		     : IS("dtype") ? K_COLL_DTYPE : IS("layer") ? K_ANNOT_LAYER : K_NONE;
	case 6:
		return IS("device") ? K_DEVICE : IS("stream") ? K_STREAM : IS("kernel") ? K_LAUNCH_KERNEL
		     : K_NONE;
	case 7:
		return IS("context") ? K_CONTEXT : K_NONE;
	case 8:
		return IS("graph id") ? K_GRAPH_ID : K_NONE;
	case 9:
		return IS("Device Id") ? K_MEM_DEV_ID : K_NONE;
	case 10:
		return IS("Input Dims") || IS("Input dims") ? K_INPUT_DIMS
		     : IS("Input type") ? K_INPUT_TYPES : IS("Call stack") ? K_CALL_STACK
		     : IS("Group size") ? K_COLL_GROUP_SIZE : IS("module_fqn") ? K_MODULE_FQN : K_NONE;
	case 11:
		return IS("correlation") ? K_CORR : IS("External id") || IS("external id") ? K_EXT_ID
		     : IS("Device Type") ? K_MEM_DEV_TYPE : K_NONE;
	case 13:
		return IS("shared memory") ? K_SMEM : IS("Fwd thread id") ? K_FWD_TID
		     : IS("graph node id") ? K_GRAPH_NODE : IS("In msg nelems") ? K_COLL_IN
		     : IS("In split size") ? K_COLL_IN_SPLIT : K_NONE;
	case 14:
		return IS("Total Reserved") ? K_MEM_TOTAL_RESERVED : IS("Out msg nelems") ? K_COLL_OUT
		     : IS("wait_on_stream") ? K_WAIT_STREAM : IS("Out split size") ? K_COLL_OUT_SPLIT : K_NONE;
	case 15:
		return IS("Sequence number") ? K_SEQ : IS("Concrete Inputs") ? K_CONCRETE
		     : IS("Total Allocated") ? K_MEM_TOTAL_ALLOC : IS("Collective name") ? K_COLL_NAME
		     : K_NONE;
	case 18:
		return IS("Process Group Name") ? K_COLL_GROUP : K_NONE;
	case 19:
		return IS("Process Group Ranks") ? K_COLL_RANKS : K_NONE;
	case 20:
		return IS("registers per thread") ? K_REGS : K_NONE;
	case 21:
		return IS("wait_on_cuda_event_id") ? K_WAIT_EVENT : K_NONE;
	case 33:
		return IS("wait_on_cuda_event_record_corr_id") ? K_WAIT_RECORD : K_NONE;
	}
	return K_NONE;
#undef IS
}

uint8_t kineto_key(uint8_t ctx, const char *s, size_t n, const char **meta)
{
	*meta = NULL;
	switch (ctx) {
	case C_TOP: return lookup_key(top_keys, s, n, meta);
	case C_EVENT: return event_key(s, n);
	case C_ARGS: return arg_key(s, n);
	case C_DEVICE: return lookup_key(device_keys, s, n, meta);
	case C_DIST: return lookup_key(dist_keys, s, n, meta);
	}
	return K_NONE;
}

static const struct {
	const char *s;
	uint8_t cat;
	uint8_t len;
} cat_names[] = {
	{"kernel", CAT_KERNEL, 6}, {"Kernel", CAT_KERNEL, 6},
	{"gpu_memcpy", CAT_MEMCPY, 10}, {"Memcpy", CAT_MEMCPY, 6},
	{"gpu_memset", CAT_MEMSET, 10}, {"Memset", CAT_MEMSET, 6},
	{"cuda_runtime", CAT_RUNTIME, 12}, {"cuda_driver", CAT_DRIVER, 11},
	{"Runtime", CAT_OLD_RUNTIME, 7},
	{"cpu_op", CAT_CPU_OP, 6}, {"Operator", CAT_CPU_OP, 8},
	{"user_annotation", CAT_USER_ANNOT, 15}, {"gpu_user_annotation", CAT_GPU_ANNOT, 19},
	{"python_function", CAT_PYTHON, 15}, {"cuda_sync", CAT_SYNC, 9},
	{"mtia_runtime", CAT_MTIA_RUNTIME, 12}, {"fwdbwd", CAT_FWDBWD, 6},
	/* NVTX ranges as gpuprof export writes them (docs/export.md) */
	{"nvtx", CAT_NVTX, 4},
	/* launch flows: only which correlation ids have both ends is kept
	** (TraceLens links by them, docs/breakdown.md) */
	{"ac2g", CAT_AC2G, 4},
	/* read and deliberately not kept: older flows duplicating
	** args.correlation, the profiler's own span, HTA overlays; memory
	** instants are read by their name ("[memory]", kineto_event.c), not
	** their category */
	{"async", CAT_IGNORED, 5}, {"async_gpu", CAT_IGNORED, 9},
	{"async_cpu_to_gpu", CAT_IGNORED, 16}, {"Trace", CAT_IGNORED, 5},
	{"cpu_instant_event", CAT_IGNORED, 17}, {"[memory]", CAT_IGNORED, 8},
	{"overhead", CAT_IGNORED, 8},
	/* gpuprof export's own overlays: idle gaps, the critical path (whose
	** flows HTA's overlaid traces name so too) */
	{"gpu_idle", CAT_IGNORED, 8}, {"critical_path", CAT_IGNORED, 13},
	{NULL, 0, 0},
};

uint8_t kineto_category(const char *s, size_t n)
{
	for (int i = 0; cat_names[i].s; i++)
		if (cat_names[i].len == n && cat_names[i].s[0] == s[0] && memcmp(cat_names[i].s, s, n) == 0)
			return cat_names[i].cat;
	return CAT_OTHER;
}
