/*
** The NVTX tool (NVTX_INJECTION64_PATH -> InitializeInjectionNvtx2): every
** NVTX instance of the process (the program's, PyTorch's, NCCL's,
** libgpuprof's) hands us its calls; push/pop, start/end and marks become
** "range" lines with their domain, colour and payload, stamped with
** CLOCK_MONOTONIC like CUDA's records.  Needs neither CUDA nor CUPTI.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wchar.h>

#include <nvtx3/nvToolsExt.h>

#include "collector.h"

/* Pending lines are written once they pass this size (or at exit). */
#define PENDING_FLUSH_BYTES (256u << 10)
/* Deeper push/pop nesting than this on one thread is counted, not kept. */
#define MAX_DEPTH 4096

struct nvtxDomainRegistration_st {
	char *name;
	struct nvtxDomainRegistration_st *next;   /* in nv.domains */
};
struct nvtxStringRegistration_st {
	char *text;
	struct nvtxStringRegistration_st *next;   /* in nv.strings */
};

struct open_range {
	uint64_t id;            /* start/end: its id, 0 = free slot */
	uint64_t start;
	char *name;
	const char *domain;     /* owned by its domain handle, "" = default */
	uint32_t color, tid;
	int64_t payload;
	uint64_t nodes_at;      /* push/pop: the thread's graph node count when it began */
	bool keep;              /* collecting when it began */
};

/* This thread's push/pop stack (all domains; a pop ends the innermost range
** of its domain). */
static __thread struct {
	struct open_range *v;
	int n, cap;
	int dropped;            /* pushes beyond MAX_DEPTH not yet popped */
	uint32_t tid;
	uint64_t nodes_made;    /* CUDA graph nodes this thread made (gpc_nvtx_node_made) */
} stack;

static struct {
	pthread_mutex_t lock;
	struct gpc_buf pending;
	uint64_t pending_ranges;
	uint64_t dropped;           /* ranges lost: out of memory, too deep */
	uint64_t after_deadline;
	struct open_range *started; /* start/end ranges by id, open addressing */
	size_t started_cap, started_n;
	atomic_uint_fast64_t next_id;
	/* every handle handed out: they live as long as the process */
	struct nvtxDomainRegistration_st *domains;
	struct nvtxStringRegistration_st *strings;
} nv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.next_id = 1,
};

static uint32_t this_tid(void)
{
	if (!stack.tid)
		stack.tid = (uint32_t)syscall(SYS_gettid);
	return stack.tid;
}

/* A malloc'd UTF-8 copy of a wide string (UTF-32 on Linux). */
static char *utf8_from_wide(const wchar_t *ws)
{
	size_t n = ws ? wcslen(ws) : 0, o = 0;
	char *s = malloc(4 * n + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = (uint32_t)ws[i];
		if (c < 0x80) {
			s[o++] = (char)c;
		} else if (c < 0x800) {
			s[o++] = (char)(0xc0 | c >> 6);
			s[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			s[o++] = (char)(0xe0 | c >> 12);
			s[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			s[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x110000) {
			s[o++] = (char)(0xf0 | c >> 18);
			s[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
			s[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			s[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			s[o++] = '?';
		}
	}
	s[o] = '\0';
	return s;
}

/* The event's message as a malloc'd string (NULL when out of memory). */
static char *message_of(const nvtxEventAttributes_t *a)
{
	if (!a)
		return strdup("");
	switch (a->messageType) {
	case NVTX_MESSAGE_TYPE_ASCII:
		return strdup(a->message.ascii ? a->message.ascii : "");
	case NVTX_MESSAGE_TYPE_UNICODE:
		return utf8_from_wide(a->message.unicode);
	case NVTX_MESSAGE_TYPE_REGISTERED:
		return strdup(a->message.registered ? a->message.registered->text : "");
	default:
		return strdup("");
	}
}

/* The payload as the recording's ARG: integers as they are, floating
** point rounded toward zero. */
static int64_t payload_of(const nvtxEventAttributes_t *a)
{
	if (!a)
		return 0;
	switch (a->payloadType) {
	case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64: return (int64_t)a->payload.ullValue;
	case NVTX_PAYLOAD_TYPE_INT64: return a->payload.llValue;
	case NVTX_PAYLOAD_TYPE_DOUBLE: return (int64_t)a->payload.dValue;
	case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32: return a->payload.uiValue;
	case NVTX_PAYLOAD_TYPE_INT32: return a->payload.iValue;
	case NVTX_PAYLOAD_TYPE_FLOAT: return (int64_t)a->payload.fValue;
	default: return 0;
	}
}

static uint32_t color_of(const nvtxEventAttributes_t *a)
{
	return a && a->colorType == NVTX_COLOR_ARGB ? a->color : 0;
}

static const char *domain_name(nvtxDomainHandle_t d)
{
	return d && d->name ? d->name : "";
}

/* Hands the pending lines to the writer.  Lock held. */
static void write_pending_locked(void)
{
	if (nv.dropped) {
		gpc_buf_printf(&nv.pending, "dropped\t%llu\tnvtx", (unsigned long long)nv.dropped);
		gpc_buf_endline(&nv.pending);
		nv.dropped = 0;
	}
	if (nv.after_deadline) {
		gpc_buf_printf(&nv.pending, "dropped\t%llu\tafter_duration",
			       (unsigned long long)nv.after_deadline);
		gpc_buf_endline(&nv.pending);
		nv.after_deadline = 0;
	}
	if (nv.pending.len)
		gpc_write_chunk(&nv.pending, nv.pending_ranges);
	nv.pending_ranges = 0;
}

static void flush_pending(void)
{
	pthread_mutex_lock(&nv.lock);
	write_pending_locked();
	pthread_mutex_unlock(&nv.lock);
}

/* Appends one finished range (head "range<TAB>push", "...startend" or
** "...mark"); frees r->name. */
static void emit(const char *kind, const struct open_range *r, uint64_t end, uint32_t end_tid)
{
	const struct gpc_config *cfg = gpc_config();

	pthread_mutex_lock(&nv.lock);
	if (cfg->deadline && r->start > cfg->deadline) {
		nv.after_deadline++;
	} else {
		struct gpc_buf *b = &nv.pending;
		gpc_buf_str(b, kind);
		gpc_buf_u64(b, r->tid);
		gpc_buf_u64(b, end_tid);
		gpc_buf_u64(b, r->start);
		gpc_buf_u64(b, end);
		gpc_buf_hex32(b, r->color);
		gpc_buf_i64(b, r->payload);
		gpc_buf_str(b, "\t");
		gpc_buf_escaped(b, r->domain);
		gpc_buf_str(b, "\t");
		gpc_buf_escaped(b, r->name);
		gpc_buf_endline(&nv.pending);
		nv.pending_ranges++;
		if (nv.pending.len >= PENDING_FLUSH_BYTES)
			write_pending_locked();
	}
	pthread_mutex_unlock(&nv.lock);
	free(r->name);
}

static void count_dropped(void)
{
	pthread_mutex_lock(&nv.lock);
	nv.dropped++;
	pthread_mutex_unlock(&nv.lock);
}

/* --- push/pop --- */

static int push(const char *domain, const nvtxEventAttributes_t *a, char *name)
{
	struct open_range *r;

	if (!name || stack.n >= MAX_DEPTH) {
		free(name);
		count_dropped();
		return stack.n + stack.dropped++;
	}
	if (stack.n == stack.cap) {
		int cap = stack.cap ? 2 * stack.cap : 16;
		struct open_range *v = realloc(stack.v, (size_t)cap * sizeof(*v));
		if (!v) {
			free(name);
			count_dropped();
			return stack.n + stack.dropped++;
		}
		stack.v = v;
		stack.cap = cap;
	}
	r = &stack.v[stack.n++];
	*r = (struct open_range){.start = gpc_now(), .name = name, .domain = domain,
				 .color = color_of(a), .tid = this_tid(), .payload = payload_of(a),
				 .nodes_at = stack.nodes_made, .keep = gpc_collecting()};
	return stack.n - 1;
}

static int pop(const char *domain)
{
	uint64_t end = gpc_now();
	int i;

	if (stack.dropped) {
		stack.dropped--;
		return stack.n + stack.dropped;
	}
	for (i = stack.n - 1; i >= 0 && strcmp(stack.v[i].domain, domain) != 0; i--)
		;
	if (i < 0)
		return -1;   /* a pop without its push: NVTX's answer */
	struct open_range r = stack.v[i];
	memmove(&stack.v[i], &stack.v[i + 1], (size_t)(stack.n - i - 1) * sizeof(r));
	stack.n--;
	/* a range around a graph node's capture says what the node is, and the
	** graph may be replayed inside the capture range */
	if (r.keep || gpc_collecting() || r.nodes_at != stack.nodes_made)
		emit("range\tpush", &r, end, 0);
	else
		free(r.name);
	return stack.n;
}

void gpc_nvtx_node_made(void)
{
	stack.nodes_made++;
}

static int push_a(const char *m)
{
	return push("", NULL, strdup(m ? m : ""));
}
static int push_w(const wchar_t *m)
{
	return push("", NULL, utf8_from_wide(m));
}
static int push_ex(const nvtxEventAttributes_t *a)
{
	return push("", a, message_of(a));
}
static int pop_default(void)
{
	return pop("");
}
static int domain_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	return push(domain_name(d), a, message_of(a));
}
static int domain_pop(nvtxDomainHandle_t d)
{
	return pop(domain_name(d));
}

/* --- start/end: ids handed out here, open ranges in a hash table --- */

static struct open_range *slot_of(uint64_t id)
{
	size_t mask = nv.started_cap - 1, i = (size_t)(id * 0x9e3779b97f4a7c15ull) & mask;

	while (nv.started[i].id && nv.started[i].id != id)
		i = (i + 1) & mask;
	return &nv.started[i];
}

/* Makes room for one more open range.  Lock held. */
static bool grow_started(void)
{
	struct open_range *old = nv.started;
	size_t old_cap = nv.started_cap, cap = old_cap ? 2 * old_cap : 256;

	if (nv.started_n + 1 <= old_cap / 2)
		return true;
	nv.started = calloc(cap, sizeof(*nv.started));
	if (!nv.started) {
		nv.started = old;
		return false;
	}
	nv.started_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].id)
			*slot_of(old[i].id) = old[i];
	free(old);
	return true;
}

static nvtxRangeId_t start(const char *domain, const nvtxEventAttributes_t *a, char *name)
{
	uint64_t id = atomic_fetch_add(&nv.next_id, 1);
	struct open_range r = {.id = id, .start = gpc_now(), .name = name, .domain = domain,
			       .color = color_of(a), .tid = this_tid(), .payload = payload_of(a),
			       .keep = gpc_collecting()};

	pthread_mutex_lock(&nv.lock);
	if (!name || !grow_started()) {
		nv.dropped++;
		free(name);
	} else {
		*slot_of(id) = r;
		nv.started_n++;
	}
	pthread_mutex_unlock(&nv.lock);
	return id;
}

static void end_range(nvtxRangeId_t id)
{
	uint64_t end = gpc_now();
	struct open_range r = {0}, *s;
	size_t mask, i, j;

	pthread_mutex_lock(&nv.lock);
	if (nv.started_cap && (s = slot_of(id))->id) {
		r = *s;
		/* backward-shift deletion keeps every other id reachable */
		mask = nv.started_cap - 1;
		i = (size_t)(s - nv.started);
		s->id = 0;
		for (j = (i + 1) & mask; nv.started[j].id; j = (j + 1) & mask) {
			size_t home = (size_t)(nv.started[j].id * 0x9e3779b97f4a7c15ull) & mask;
			if (((j - home) & mask) >= ((j - i) & mask)) {
				nv.started[i] = nv.started[j];
				nv.started[j].id = 0;
				i = j;
			}
		}
		nv.started_n--;
	}
	pthread_mutex_unlock(&nv.lock);
	if (!r.id)
		return;   /* an unknown id: NVTX ignores it too */
	if (r.keep || gpc_collecting()) {
		uint32_t tid = this_tid();
		emit("range\tstartend", &r, end, tid == r.tid ? 0 : tid);
	} else {
		free(r.name);
	}
}

static nvtxRangeId_t start_a(const char *m)
{
	return start("", NULL, strdup(m ? m : ""));
}
static nvtxRangeId_t start_w(const wchar_t *m)
{
	return start("", NULL, utf8_from_wide(m));
}
static nvtxRangeId_t start_ex(const nvtxEventAttributes_t *a)
{
	return start("", a, message_of(a));
}
static nvtxRangeId_t domain_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	return start(domain_name(d), a, message_of(a));
}
static void domain_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
	end_range(id);
}

/* --- marks, names, domains, strings --- */

static void mark(const char *domain, const nvtxEventAttributes_t *a, char *name)
{
	struct open_range r = {.start = gpc_now(), .name = name, .domain = domain,
			       .color = color_of(a), .tid = this_tid(), .payload = payload_of(a)};

	if (!name)
		count_dropped();
	else if (gpc_collecting())
		emit("range\tmark", &r, r.start, 0);
	else
		free(name);
}

static void mark_a(const char *m)
{
	mark("", NULL, strdup(m ? m : ""));
}
static void mark_w(const wchar_t *m)
{
	mark("", NULL, utf8_from_wide(m));
}
static void mark_ex(const nvtxEventAttributes_t *a)
{
	mark("", a, message_of(a));
}
static void domain_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	mark(domain_name(d), a, message_of(a));
}

static void name_thread(uint32_t tid, const char *name)
{
	pthread_mutex_lock(&nv.lock);
	gpc_buf_printf(&nv.pending, "thread\t%u\t", tid);
	gpc_buf_escaped(&nv.pending, name);
	gpc_buf_endline(&nv.pending);
	pthread_mutex_unlock(&nv.lock);
}

/* Domain and string handles live as long as the process, on nv's lists:
** NVTX users keep them in statics, and ranges in flight point at their
** names. */
static nvtxDomainHandle_t domain_create(char *name)
{
	nvtxDomainHandle_t d = malloc(sizeof(*d));

	if (!d || !name) {
		free(d);
		free(name);
		return NULL;   /* NULL is the default domain: its ranges still count */
	}
	d->name = name;
	pthread_mutex_lock(&nv.lock);
	d->next = nv.domains;
	nv.domains = d;
	pthread_mutex_unlock(&nv.lock);
	return d;
}
static nvtxDomainHandle_t domain_create_a(const char *name)
{
	return domain_create(strdup(name ? name : ""));
}
static nvtxDomainHandle_t domain_create_w(const wchar_t *name)
{
	return domain_create(utf8_from_wide(name));
}
static void domain_destroy(nvtxDomainHandle_t d)
{
	/* kept: ranges of the domain may still be open */
}

static nvtxStringHandle_t string_register(char *text)
{
	nvtxStringHandle_t s = malloc(sizeof(*s));

	if (!s || !text) {
		free(s);
		free(text);
		return NULL;
	}
	s->text = text;
	pthread_mutex_lock(&nv.lock);
	s->next = nv.strings;
	nv.strings = s;
	pthread_mutex_unlock(&nv.lock);
	return s;
}
static nvtxStringHandle_t register_a(nvtxDomainHandle_t d, const char *text)
{
	return string_register(strdup(text ? text : ""));
}
static nvtxStringHandle_t register_w(nvtxDomainHandle_t d, const wchar_t *text)
{
	return string_register(utf8_from_wide(text));
}

/* Sets table[id] to fn when the instance's table has that slot. */
static void hook(NvtxFunctionTable table, unsigned size, unsigned id, NvtxFunctionPointer fn)
{
	if (id < size && table[id])
		*table[id] = fn;
}

#define FN(f) ((NvtxFunctionPointer)(void (*)(void))(f))

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);

/* Called once by every NVTX instance on its first call.  Returns 1 (our
** functions installed) or 0 (NVTX stays a no-op for that instance). */
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
	const NvtxExportTableCallbacks *cb;
	NvtxFunctionTable core, core2;
	unsigned ncore = 0, ncore2 = 0;

	if (!(gpc_config()->trace & GPC_TRACE_NVTX) || !get)
		return 0;
	cb = (const NvtxExportTableCallbacks *)get(NVTX_ETID_CALLBACKS);
	if (!cb || !cb->GetModuleFunctionTable ||
	    !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &ncore) ||
	    !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &ncore2))
		return 0;
	gpc_start();
	gpc_set_nvtx_flush(flush_pending);
	hook(core, ncore, NVTX_CBID_CORE_MarkEx, FN(mark_ex));
	hook(core, ncore, NVTX_CBID_CORE_MarkA, FN(mark_a));
	hook(core, ncore, NVTX_CBID_CORE_MarkW, FN(mark_w));
	hook(core, ncore, NVTX_CBID_CORE_RangeStartEx, FN(start_ex));
	hook(core, ncore, NVTX_CBID_CORE_RangeStartA, FN(start_a));
	hook(core, ncore, NVTX_CBID_CORE_RangeStartW, FN(start_w));
	hook(core, ncore, NVTX_CBID_CORE_RangeEnd, FN(end_range));
	hook(core, ncore, NVTX_CBID_CORE_RangePushEx, FN(push_ex));
	hook(core, ncore, NVTX_CBID_CORE_RangePushA, FN(push_a));
	hook(core, ncore, NVTX_CBID_CORE_RangePushW, FN(push_w));
	hook(core, ncore, NVTX_CBID_CORE_RangePop, FN(pop_default));
	hook(core, ncore, NVTX_CBID_CORE_NameOsThreadA, FN(name_thread));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainMarkEx, FN(domain_mark_ex));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainRangeStartEx, FN(domain_start_ex));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainRangeEnd, FN(domain_end));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainRangePushEx, FN(domain_push_ex));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainRangePop, FN(domain_pop));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainRegisterStringA, FN(register_a));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainRegisterStringW, FN(register_w));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainCreateA, FN(domain_create_a));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainCreateW, FN(domain_create_w));
	hook(core2, ncore2, NVTX_CBID_CORE2_DomainDestroy, FN(domain_destroy));
	return 1;
}
