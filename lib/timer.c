/*
** Timers, as PaddlePaddle's built-in ones: named statistics (count, total,
** min, max, average, standard deviation) fed by scoped measurements from
** any thread.  CPU timers read CLOCK_MONOTONIC; GPU timers record a pair of
** CUDA events on a stream and collect the elapsed time once the GPU has
** passed the second one, so they are right under asynchronous execution.
** At load time the timers register with the core (collect at shutdown,
** reset in a forked child) and hand the recorder their section's writer.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct gp_timer {
	char *name;
	int gpu;
	pthread_mutex_t mu;         /* the statistics below */
	uint64_t count;
	double total, min, max, sumsq;   /* ns, ns^2 */
	struct gp_timer *next;      /* hash chain */
	struct gp_timer *all;       /* every timer, newest first */
};

#define NBUCKETS 256
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gp_timer *buckets[NBUCKETS];
static struct gp_timer *all_timers;

/* GPU measurements whose end event the GPU may not have reached yet. */
struct pending {
	gp_timer *t;
	void *ev[2];
	struct pending *next;
};
#define MAX_PENDING 4096
static pthread_mutex_t gpu_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pending_head, *free_pending;
static int n_pending;

static uint32_t hash(const char *s, int gpu)
{
	uint32_t h = 2166136261u ^ (uint32_t)gpu;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % NBUCKETS;
}

static gp_timer *timer_get(const char *name, int gpu)
{
	gp_timer *t;
	uint32_t b;

	if (!name)
		name = "";
	gpi_init();
	b = hash(name, gpu);
	pthread_mutex_lock(&reg_lock);
	for (t = buckets[b]; t; t = t->next)
		if (t->gpu == gpu && strcmp(t->name, name) == 0)
			break;
	if (!t && (t = calloc(1, sizeof(*t))) != NULL) {
		t->name = strdup(name);
		if (!t->name) {
			free(t);
			t = NULL;
		} else {
			t->gpu = gpu;
			pthread_mutex_init(&t->mu, NULL);
			t->next = buckets[b];
			buckets[b] = t;
			t->all = all_timers;
			all_timers = t;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	if (!t)
		gpi_log(0, "out of memory: timer '%s' is not measured", name);
	return t;
}

GPI_EXPORT gp_timer *gp_timer_get(const char *name)
{
	return timer_get(name, 0);
}

GPI_EXPORT gp_timer *gp_gpu_timer_get(const char *name)
{
	return timer_get(name, 1);
}

GPI_EXPORT gp_timer *gp_timer_cached(gp_timer **slot, const char *name, int gpu)
{
	gp_timer *t = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	/* the name is checked, so a call site whose name varies stays right
	** (it only loses the cache) */
	if (!t || t->gpu != (gpu != 0) || strcmp(t->name, name ? name : "") != 0) {
		t = timer_get(name, gpu != 0);
		__atomic_store_n(slot, t, __ATOMIC_RELEASE);
	}
	return t;
}

static void add_sample(gp_timer *t, double ns)
{
	pthread_mutex_lock(&t->mu);
	if (t->count == 0 || ns < t->min)
		t->min = ns;
	if (t->count == 0 || ns > t->max)
		t->max = ns;
	t->count++;
	t->total += ns;
	t->sumsq += ns * ns;
	pthread_mutex_unlock(&t->mu);
}

GPI_EXPORT struct gp_timer_scope gp_timer_begin(gp_timer *t)
{
	struct gp_timer_scope s = {.t = t && !t->gpu ? t : NULL};

	if (s.t)
		s.start = gpi_now();
	return s;
}

/* Folds finished measurements into their timers; with wait, waits for the
** GPU to finish every one.  Called with gpu_lock held. */
static void collect_locked(const struct gpi_cuda *c, int wait)
{
	struct pending **pp = &pending_head;

	while (*pp) {
		struct pending *p = *pp;
		float ms = 0;
		if (wait)
			c->event_synchronize(p->ev[1]);
		else if (c->event_query(p->ev[1]) != 0) {
			pp = &p->next;
			continue;
		}
		if (c->event_elapsed_time(&ms, p->ev[0], p->ev[1]) == 0)
			add_sample(p->t, (double)ms * 1e6);
		*pp = p->next;
		p->next = free_pending;
		free_pending = p;
		n_pending--;
	}
}

/* Collects every pending GPU measurement, waiting for the GPU if wait. */
static void gpu_timers_collect(int wait)
{
	const struct gpi_cuda *c = gpi_cuda();

	if (!c)
		return;
	pthread_mutex_lock(&gpu_lock);
	collect_locked(c, wait);
	pthread_mutex_unlock(&gpu_lock);
}

GPI_EXPORT struct gp_timer_scope gp_gpu_timer_begin(gp_timer *t, void *stream)
{
	struct gp_timer_scope s = {.stream = stream};
	const struct gpi_cuda *c;
	struct pending *p;

	if (!t || !t->gpu || !(c = gpi_cuda()))
		return s;
	pthread_mutex_lock(&gpu_lock);
	p = free_pending;
	if (p)
		free_pending = p->next;
	pthread_mutex_unlock(&gpu_lock);
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p || c->event_create(&p->ev[0]) || c->event_create(&p->ev[1])) {
			gpi_log(1, "GPU timer '%s': cannot create CUDA events", t->name);
			if (p && p->ev[0])
				c->event_destroy(p->ev[0]);
			free(p);
			return s;
		}
	}
	p->t = t;
	c->event_record(p->ev[0], stream);
	s.t = t;
	s.priv = p;
	return s;
}

static void gpu_timer_end(struct gp_timer_scope *s)
{
	const struct gpi_cuda *c = gpi_cuda();
	struct pending *p = s->priv;

	if (!c)
		return;
	c->event_record(p->ev[1], s->stream);
	pthread_mutex_lock(&gpu_lock);
	p->next = pending_head;
	pending_head = p;
	n_pending++;
	/* bounded: past the limit, wait for the GPU rather than grow */
	collect_locked(c, n_pending > MAX_PENDING);
	pthread_mutex_unlock(&gpu_lock);
}

GPI_EXPORT void gp_timer_end(struct gp_timer_scope *s)
{
	gp_timer *t = s ? s->t : NULL;

	if (!t)
		return;
	s->t = NULL;
	if (t->gpu) {
		gpu_timer_end(s);
		return;
	}
	int64_t end = gpi_now();
	add_sample(t, (double)(end - s->start));
	if (atomic_load_explicit(&gpi.recording, memory_order_relaxed)) {
		struct gpi_thread *th = gpi_self();
		if (th)
			gpi_record(th, GPREC_TIMER, t->name, strlen(t->name), NULL, 0, s->start, end,
				   0, 0, 0);
	}
}

/* One timer's statistics, copied under its lock. */
struct snap {
	const char *name;
	int gpu;
	uint64_t count;
	double total, min, max, sumsq;
};

static int by_total(const void *a, const void *b)
{
	const struct snap *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* A copy of every timer's statistics after collecting the pending GPU
** measurements, sorted by total time (descending); *n set.  NULL when there
** are none or out of memory.  The caller frees it. */
static struct snap *snapshot(size_t *n)
{
	struct snap *v = NULL;
	size_t k = 0, cap = 0;

	gpu_timers_collect(1);
	pthread_mutex_lock(&reg_lock);
	for (gp_timer *t = all_timers; t; t = t->all)
		cap++;
	v = cap ? malloc(cap * sizeof(*v)) : NULL;
	for (gp_timer *t = all_timers; v && t; t = t->all) {
		pthread_mutex_lock(&t->mu);
		v[k++] = (struct snap){t->name, t->gpu, t->count, t->total, t->min, t->max, t->sumsq};
		pthread_mutex_unlock(&t->mu);
	}
	pthread_mutex_unlock(&reg_lock);
	if (v)
		qsort(v, k, sizeof(*v), by_total);
	*n = k;
	return v;
}

static double stddev(uint64_t n, double total, double sumsq)
{
	double mean, var;

	if (n < 2)
		return 0;
	mean = total / (double)n;
	var = (sumsq - (double)n * mean * mean) / (double)(n - 1);
	return var > 0 ? sqrt(var) : 0;
}

GPI_EXPORT int gp_timer_stats(const char *name, int gpu, struct gp_timer_stats *out)
{
	gp_timer *t = NULL;

	if (!name || !out || out->sz < sizeof(*out))
		return -1;
	gpi_init();
	gpu_timers_collect(1);
	pthread_mutex_lock(&reg_lock);
	for (t = buckets[hash(name, gpu != 0)]; t; t = t->next)
		if (t->gpu == (gpu != 0) && strcmp(t->name, name) == 0)
			break;
	pthread_mutex_unlock(&reg_lock);
	if (!t)
		return -1;
	pthread_mutex_lock(&t->mu);
	out->count = t->count;
	out->total_ns = t->total;
	out->min_ns = t->min;
	out->max_ns = t->max;
	out->avg_ns = t->count ? t->total / (double)t->count : 0;
	out->stddev_ns = stddev(t->count, t->total, t->sumsq);
	pthread_mutex_unlock(&t->mu);
	return 0;
}

/* Writes s as a CSV field (quoted when it needs to be). */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

GPI_EXPORT int gp_timer_report(FILE *out, enum gp_report_format format)
{
	size_t n, w = 4;
	struct snap *v;

	if (!out)
		return -1;
	gpi_init();
	v = snapshot(&n);
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].name) > w)
			w = strlen(v[i].name);
	if (format == GP_REPORT_CSV)
		fputs("Name,Kind,Calls,Total (ms),Avg (ms),Min (ms),Max (ms),StdDev (ms)\n", out);
	else
		fprintf(out, "%-*s  %-4s  %10s  %12s  %12s  %12s  %12s  %12s\n", (int)w, "Name",
			"Kind", "Calls", "Total (ms)", "Avg (ms)", "Min (ms)", "Max (ms)",
			"StdDev (ms)");
	for (size_t i = 0; i < n; i++) {
		const struct snap *s = &v[i];
		double avg = s->count ? s->total / (double)s->count : 0;
		double sd = stddev(s->count, s->total, s->sumsq);
		if (format == GP_REPORT_CSV) {
			csv_field(out, s->name);
			fprintf(out, ",%s,%llu,%.6f,%.6f,%.6f,%.6f,%.6f\n", s->gpu ? "gpu" : "cpu",
				(unsigned long long)s->count, s->total / 1e6, avg / 1e6, s->min / 1e6,
				s->max / 1e6, sd / 1e6);
		} else {
			fprintf(out, "%-*s  %-4s  %10llu  %12.3f  %12.3f  %12.3f  %12.3f  %12.3f\n",
				(int)w, s->name, s->gpu ? "gpu" : "cpu", (unsigned long long)s->count,
				s->total / 1e6, avg / 1e6, s->min / 1e6, s->max / 1e6, sd / 1e6);
		}
	}
	free(v);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

GPI_EXPORT void gp_timer_reset_all(void)
{
	gpi_init();
	gpu_timers_collect(1);
	pthread_mutex_lock(&reg_lock);
	for (gp_timer *t = all_timers; t; t = t->all) {
		pthread_mutex_lock(&t->mu);
		t->count = 0;
		t->total = t->min = t->max = t->sumsq = 0;
		pthread_mutex_unlock(&t->mu);
	}
	pthread_mutex_unlock(&reg_lock);
}

/* The recording's timer section: one "timer" line per timer to f;
** returns how many. */
static int write_timer_lines(FILE *f)
{
	size_t n;
	struct snap *v = snapshot(&n);

	for (size_t i = 0; i < n; i++) {
		fprintf(f, "timer\t%s\t%llu\t%.0f\t%.0f\t%.0f\t%.17g\t", v[i].gpu ? "gpu" : "cpu",
			(unsigned long long)v[i].count, v[i].total, v[i].min, v[i].max, v[i].sumsq);
		gpi_write_escaped(f, v[i].name, strlen(v[i].name));
		fputc('\n', f);
	}
	free(v);
	return (int)n;
}

/* Fork child: forgets every statistic and re-initializes the locks. */
static void reset_after_fork(void)
{
	pthread_mutex_init(&reg_lock, NULL);
	pthread_mutex_init(&gpu_lock, NULL);
	pending_head = NULL;   /* the parent's events mean nothing in the child */
	n_pending = 0;
	for (gp_timer *t = all_timers; t; t = t->all) {
		pthread_mutex_init(&t->mu, NULL);
		t->count = 0;
		t->total = t->min = t->max = t->sumsq = 0;
	}
}

/* At gp_shutdown(): the GPU measurements still pending are folded in. */
static void collect_at_shutdown(void)
{
	gpu_timers_collect(1);
}

__attribute__((constructor)) static void register_hooks(void)
{
	static struct gpi_hook at_shutdown = {.fn = collect_at_shutdown};
	static struct gpi_hook at_fork_child = {.fn = reset_after_fork};

	gpi_on_shutdown(&at_shutdown);
	gpi_on_fork_child(&at_fork_child);
	gpi_record_set_timer_section(write_timer_lines);
}
