/*
** The rocprofv3 JSON reader's insides, shared by its two files and private
** to them:
**
**   rocprof.c        the gp_reader: probe, load, the streaming parse (keys,
**                    scalars by container, containers), a record as it closes
**   rocprof_model.c  what both rocprofv3 readers share (rocprof_int.h), and
**                    a process resolved when its object closes: its pending
**                    records named, given devices and its pid
**
** Ownership: a struct rp fills the trace it points at and owns its parse
** state and the process being read (struct proc), which
** rocprof_proc_free() releases.
*/
#ifndef GP_ROCPROF_JSON_H
#define GP_ROCPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/error.h"
#include "util/u64map.h"

#define MAX_DEPTH 64

/* Which buffer_records array the records come from. */
enum section {
	S_SKIP, S_KERNEL, S_HIP, S_HSA, S_RCCL, S_OTHER_API, S_MARKER, S_COPY, S_ALLOC,
};

/* rocprofiler-sdk's agent types (rocprofiler_agent_type_t). */
enum { AGENT_CPU = 1, AGENT_GPU = 2 };

/* One record's fields as they arrive (have: H_* bits). */
struct rec {
	uint64_t kind, op, tid, corr, start, end, bytes, size, addr;
	uint64_t agent, src, dst, queue, stream, kernel_id, group_seg;
	uint64_t wg[3], grid[3];
	unsigned have;
};
enum { H_START = 1, H_END = 2, H_STREAM = 4, H_KERNEL = 8 };

struct agent {
	uint64_t handle;
	int64_t type, gpu_index;
	uint64_t cache_level, cache_kb;   /* the caches entry being read */
	struct gp_device dev;     /* id set by finish_process */
	bool listed;              /* in the agents array (else only named by records) */
};

/* A kernel symbol: the raw and formatted names; the names the model uses
** are made once, when a dispatch first needs them (sym_names). */
struct sym {
	gp_str raw, formatted;
	uint32_t lds, regs;
	bool named;
	gp_str name, demangled, mangled;
};

/* A record kind's name and its operations (ops[first..first+n)). */
struct kind_names {
	gp_str name;
	uint32_t first, n;
};

/* What a dispatch runs, before the symbols and agents are known: the
** def's key.  Hashed as bytes, so no padding and zeroed. */
struct pend_kdef {
	uint64_t kernel_id, agent;
	uint32_t block[3], grid[3];
	uint32_t group_seg, pad;
};

struct pend_adef {
	uint64_t kind, op;
	uint32_t section, pad;
};

struct pend_copy {
	uint64_t src, dst;
};

struct pend_mark {
	gp_ns start, end;
	uint64_t tid, corr, kind, op;
};

struct pend_alloc {
	gp_ns ts;
	uint64_t tid, agent, addr, size, kind, op;
};

/* One process object's state, reset when it closes. */
struct proc {
	uint64_t pid;
	gp_str command, hostname;
	size_t kernel_first, api_first, copy_first;
	GP_VEC(struct agent) agents;
	gp_u64map agent_at;
	GP_VEC(struct kind_names) kinds;
	GP_VEC(gp_str) ops;
	GP_VEC(struct sym) syms;
	gp_u64map sym_at;
	GP_VEC(gp_str) msgs;
	gp_u64map msg_at;             /* correlation id -> msgs index */
	GP_VEC(struct pend_kdef) kdefs;
	gp_u64map kdef_at;
	GP_VEC(struct pend_adef) adefs;
	gp_u64map adef_at;
	GP_VEC(struct pend_copy) copies;
	GP_VEC(struct pend_mark) marks;
	GP_VEC(struct pend_alloc) allocs;
	/* the strings.marker_api entry being read */
	uint64_t msg_key;
	gp_str msg_value;
	bool msg_has_key;
};

struct rp {
	gp_trace *t;
	const char *path;
	gp_error *err;
	bool failed, seen_tool;
	int depth;
	uint8_t ctx[MAX_DEPTH + 1], key[MAX_DEPTH + 1];
	int rec_depth;                /* depth of the record object being read */
	uint8_t section;
	const char *section_name;
	uint64_t nprocs, nrecords, section_records;
	struct rec rec;
	struct proc proc;
	char cmd[1024];
	size_t cmd_n;
	/* counted for the notes */
	uint64_t no_time, neg_dur, zero_wg, no_symbol, unlisted_agent, unpaired_free, no_message;
	uint64_t skipped_records;
};

/* v as 32 bits, saturating at UINT32_MAX. */
static inline uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* A process object closed: its pending records get their names, devices
** and pid (the first process's host and command line describe the run);
** then p->proc is emptied for the next process. */
void rocprof_finish_process(struct rp *p);

/* Releases what process pr holds and zeroes it. */
void rocprof_proc_free(struct proc *pr);

#endif
