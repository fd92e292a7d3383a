/*
** libgpuprof setup: lazy initialization from the environment, per-thread
** state, diagnostics, and the hooks that the files above the core register
** for gp_shutdown() (also at exit) and for a forked child.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct gpi_state gpi = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static _Atomic int initialized;
static _Atomic int shut_down;
static __thread struct gpi_thread *self;

/* Registered hooks, in registration order (tails: where the next goes). */
static struct gpi_hook *shutdown_hooks, **shutdown_tail = &shutdown_hooks;
static struct gpi_hook *fork_child_hooks, **fork_child_tail = &fork_child_hooks;

void gpi_on_shutdown(struct gpi_hook *h)
{
	h->next = NULL;
	*shutdown_tail = h;
	shutdown_tail = &h->next;
}

void gpi_on_fork_child(struct gpi_hook *h)
{
	h->next = NULL;
	*fork_child_tail = h;
	fork_child_tail = &h->next;
}

static void run_hooks(const struct gpi_hook *h)
{
	for (; h; h = h->next)
		h->fn();
}

static void on_exit_write(void)
{
	gp_shutdown();
}

/* In a forked child the parent's other threads are gone and their locks
** may be held: start over with this thread only (self, NULL when it never
** called the library).  Without %p in the path the child would overwrite
** the parent's recording, so it stops recording. */
static void after_fork_child(void)
{
	pthread_mutex_init(&gpi.lock, NULL);
	if (self) {
		self->tid = (uint32_t)gettid();
		self->next = NULL;
	}
	gpi.threads = self;
	run_hooks(fork_child_hooks);
	if (gpi.record_path && !strstr(gpi.record_path, "%p"))
		atomic_store(&gpi.recording, 0);
}

static void log_stderr(int level, const char *msg, void *ctx)
{
	static const char *const names[] = {"error", "warning", "info"};
	fprintf(stderr, "libgpuprof: %s: %s\n", names[level < 0 || level > 2 ? 2 : level], msg);
}

static void init_from_env(void)
{
	struct timespec ts;
	const char *s;

	clock_gettime(CLOCK_REALTIME, &ts);
	gpi.t0_real = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	gpi.t0_mono = gpi_now();
	s = getenv("GPUPROF_LOG");
	if (s && strcmp(s, "stderr") == 0) {
		pthread_mutex_lock(&gpi.lock);   /* gpi_log() may run on another thread */
		gpi.log_fn = log_stderr;
		pthread_mutex_unlock(&gpi.lock);
	}
	s = getenv("GPUPROF_SYNC");
	if (s && *s) {
		char *end;
		long v = strtol(s, &end, 10);
		if (*end || v < 0 || v > 3)
			gpi_log(1, "GPUPROF_SYNC=%s ignored (expected 0, 1, 2 or 3)", s);
		else
			atomic_store(&gpi.sync_level, (int)v);
	}
	s = getenv("GPUPROF_RECORD");
	if (s && *s) {
		gpi.record_path = strdup(s);
		atomic_store(&gpi.recording, gpi.record_path != NULL);
	}
	atexit(on_exit_write);
	pthread_atfork(NULL, NULL, after_fork_child);
	atomic_store_explicit(&initialized, 1, memory_order_release);
}

void gpi_init(void)
{
	if (!atomic_load_explicit(&initialized, memory_order_acquire))
		pthread_once(&init_once, init_from_env);
}

/* Creates this thread's state and links it into gpi.threads. */
static struct gpi_thread *thread_new(void)
{
	struct gpi_thread *th = calloc(1, sizeof(*th));

	if (!th)
		return NULL;
	th->tid = (uint32_t)gettid();
	pthread_getname_np(pthread_self(), th->name, sizeof(th->name));
	pthread_mutex_lock(&gpi.lock);
	th->next = gpi.threads;
	gpi.threads = th;
	pthread_mutex_unlock(&gpi.lock);
	return th;
}

struct gpi_thread *gpi_self(void)
{
	if (__builtin_expect(self != NULL, 1))
		return self;
	gpi_init();
	self = thread_new();
	if (!self)
		gpi_log(0, "out of memory: annotations of thread %d are ignored", (int)gettid());
	return self;
}

void gpi_log(int level, const char *fmt, ...)
{
	gp_log_fn fn;
	void *ctx;
	char msg[512];
	va_list ap;

	/* fn and ctx as one pair, as gp_set_log() sets them; the call itself
	** is outside the lock, so the callback may call the library */
	pthread_mutex_lock(&gpi.lock);
	fn = gpi.log_fn;
	ctx = gpi.log_ctx;
	pthread_mutex_unlock(&gpi.lock);
	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(level, msg, ctx);
}

GPI_EXPORT int gp_init(const struct gp_options *o)
{
	gpi_init();
	if (!o)
		return 0;
	if (o->sz < sizeof(struct gp_options) || o->sync_level < -1 || o->sync_level > 3)
		return -1;
	pthread_mutex_lock(&gpi.lock);
	if (o->log) {
		gpi.log_fn = o->log;
		gpi.log_ctx = o->log_ctx;
	}
	if (o->record_path) {
		char *p = *o->record_path ? strdup(o->record_path) : NULL;
		free(gpi.record_path);
		gpi.record_path = p;
		atomic_store(&gpi.recording, p != NULL && !atomic_load(&shut_down));
	}
	pthread_mutex_unlock(&gpi.lock);
	if (o->sync_level >= 0)
		atomic_store(&gpi.sync_level, o->sync_level);
	return 0;
}

GPI_EXPORT void gp_shutdown(void)
{
	gpi_init();
	if (atomic_exchange(&shut_down, 1))
		return;
	run_hooks(shutdown_hooks);
}

GPI_EXPORT void gp_set_log(gp_log_fn fn, void *ctx)
{
	gpi_init();
	pthread_mutex_lock(&gpi.lock);
	gpi.log_fn = fn;
	gpi.log_ctx = ctx;
	pthread_mutex_unlock(&gpi.lock);
}

GPI_EXPORT const char *gp_version(void)
{
	return GPUPROF_VERSION_STRING;
}
