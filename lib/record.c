/*
** The library's own recording (GPUPROF_RECORD): every thread appends its
** finished ranges to its own chunks without locking; gp_shutdown() (at exit)
** writes them all in the format of gpuprof/record-format.h, with the timer
** section that timer.c hands in, through the core's shutdown hook.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* A thread keeps at most this many events (about 1 GiB of memory in all);
** later ones are counted in "dropped_events". */
#define MAX_EVENTS_PER_THREAD (16u << 20)
#define STRBLOCK_BYTES (64u << 10)

/* The "timer" lines' writer, NULL when timer.c is not linked in. */
static gpi_section_writer write_timer_section;

void gpi_record_set_timer_section(gpi_section_writer write)
{
	write_timer_section = write;
}

/* Copies s[0..len) into th's string blocks; NULL when out of memory. */
static const char *str_copy(struct gpi_thread *th, const char *s, size_t len)
{
	struct gpi_strblock *b = th->strs;
	char *p;

	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > STRBLOCK_BYTES ? len + 1 : STRBLOCK_BYTES;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = th->strs;
		th->strs = b;
	}
	p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

void gpi_record(struct gpi_thread *th, uint8_t kind, const char *name, size_t name_len,
		gp_domain *dom, uint32_t color, int64_t start, int64_t end, int64_t arg,
		uint32_t tid, uint32_t end_tid)
{
	struct gpi_chunk *c = th->tail;
	uint32_t n = c ? atomic_load_explicit(&c->n, memory_order_relaxed) : GPI_CHUNK_EVENTS;
	struct gpi_event *e;

	if (th->nevents >= MAX_EVENTS_PER_THREAD) {
		th->dropped++;
		return;
	}
	if (n == GPI_CHUNK_EVENTS) {
		c = malloc(sizeof(*c));
		if (!c) {
			th->dropped++;
			return;
		}
		c->next = NULL;
		atomic_init(&c->n, 0);
		/* the writer follows ->next only once published through n or head */
		if (th->tail)
			th->tail->next = c;
		else
			th->head = c;
		th->tail = c;
		n = 0;
	}
	e = &c->ev[n];
	e->name = str_copy(th, name, name_len);
	if (!e->name) {
		th->dropped++;
		return;
	}
	e->name_len = (uint32_t)name_len;
	e->kind = kind;
	e->dom = dom;
	e->color = color;
	e->start = start;
	e->end = end;
	e->arg = arg;
	e->tid = tid ? tid : th->tid;
	e->end_tid = end_tid;
	th->nevents++;
	atomic_store_explicit(&c->n, n + 1, memory_order_release);
}

void gpi_write_escaped(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '\\': fputs("\\\\", f); break;
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		default: fputc(s[i], f); break;
		}
	}
}

/* path with each %p replaced by the process id, into a new string. */
static char *expand_path(const char *path)
{
	size_t len = strlen(path), cap = len + 1;
	char pid[24], *out, *o;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (const char *p = path; (p = strstr(p, "%p")) != NULL; p += 2)
		cap += strlen(pid);
	out = malloc(cap);
	if (!out)
		return NULL;
	for (o = out; *path;) {
		if (path[0] == '%' && path[1] == 'p') {
			o += sprintf(o, "%s", pid);
			path += 2;
		} else {
			*o++ = *path++;
		}
	}
	*o = '\0';
	return out;
}

static void write_cmdline(FILE *f)
{
	FILE *c = fopen("/proc/self/cmdline", "rb");
	char buf[1024];
	size_t n;

	if (!c)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, c);
	fclose(c);
	while (n && buf[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	fputs("meta\tcmdline\t", f);
	gpi_write_escaped(f, buf, n);
	fputc('\n', f);
}

/* The process's rank and world size in a distributed job, from the
** launcher's environment (torchrun/torch.distributed: RANK, WORLD_SIZE;
** Open MPI: OMPI_COMM_WORLD_RANK, _SIZE; MPICH/Intel MPI: PMI_RANK,
** PMI_SIZE; Slurm: SLURM_PROCID, SLURM_NTASKS), the first pair whose rank
** is a number; nothing outside such a job.  gpuprof orders rank files by
** them (docs/ranks.md). */
static void write_rank(FILE *f)
{
	static const char *const vars[][2] = {
		{"RANK", "WORLD_SIZE"}, {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
		{"PMI_RANK", "PMI_SIZE"}, {"SLURM_PROCID", "SLURM_NTASKS"},
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *r = getenv(vars[i][0]), *w = getenv(vars[i][1]);
		if (!r || !*r || strspn(r, "0123456789") != strlen(r) || strlen(r) > 9)
			continue;
		fprintf(f, "meta\trank\t%s\n", r);
		if (w && *w && strspn(w, "0123456789") == strlen(w) && strlen(w) <= 9)
			fprintf(f, "meta\tworld_size\t%s\n", w);
		return;
	}
}

static void write_body(FILE *f)
{
	static const char *const kinds[] = GPREC_KIND_NAMES;
	uint64_t nranges = 0, dropped = 0;
	struct gpi_thread *th;
	int ntimers = 0;

	pthread_mutex_lock(&gpi.lock);
	for (th = gpi.threads; th; th = th->next)
		dropped += th->dropped;
	fprintf(f, "%s%d\n", GPREC_MAGIC, GPREC_VERSION);
	fprintf(f, "meta\tlib_version\t%s\n", GPUPROF_VERSION_STRING);
	fprintf(f, "meta\tpid\t%d\n", (int)getpid());
	write_cmdline(f);
	write_rank(f);
	fprintf(f, "meta\tclock\tmonotonic\n");
	fprintf(f, "meta\trealtime_minus_monotonic_ns\t%lld\n",
		(long long)(gpi.t0_real - gpi.t0_mono));
	fprintf(f, "meta\tsync_level\t%d\n", atomic_load(&gpi.sync_level));
	fprintf(f, "meta\titerations\t%lld\n", (long long)atomic_load(&gpi.iterations));
	fprintf(f, "meta\tdropped_events\t%llu\n", (unsigned long long)dropped);
	for (th = gpi.threads; th; th = th->next) {
		fprintf(f, "thread\t%u\t", th->tid);
		gpi_write_escaped(f, th->name, strlen(th->name));
		fputc('\n', f);
	}
	for (th = gpi.threads; th; th = th->next) {
		for (struct gpi_chunk *c = th->head; c; c = c->next) {
			uint32_t n = atomic_load_explicit(&c->n, memory_order_acquire);
			for (uint32_t i = 0; i < n; i++) {
				const struct gpi_event *e = &c->ev[i];
				const char *dom = e->dom ? e->dom->name : "";
				fprintf(f, "range\t%s\t%u\t%u\t%lld\t%lld\t%08x\t%lld\t", kinds[e->kind],
					e->tid, e->end_tid, (long long)e->start, (long long)e->end,
					e->color, (long long)e->arg);
				gpi_write_escaped(f, dom, strlen(dom));
				fputc('\t', f);
				gpi_write_escaped(f, e->name, e->name_len);
				fputc('\n', f);
				nranges++;
			}
			if (n < GPI_CHUNK_EVENTS)
				break;  /* a later chunk may still be under construction */
		}
	}
	pthread_mutex_unlock(&gpi.lock);
	if (write_timer_section)
		ntimers = write_timer_section(f);
	fprintf(f, "end\t%llu\t%d\n", (unsigned long long)nranges, ntimers);
}

int gpi_record_write(const char *path)
{
	char *final = expand_path(path), *tmp;
	FILE *f;
	int rc = -1;

	if (!final) {
		gpi_log(0, "out of memory: recording not written");
		return -1;
	}
	tmp = malloc(strlen(final) + 32);
	if (!tmp) {
		free(final);
		return -1;
	}
	sprintf(tmp, "%s.tmp%d", final, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		gpi_log(0, "cannot write the recording %s: %s", tmp, strerror(errno));
		goto out;
	}
	write_body(f);
	if (ferror(f) | fclose(f)) {
		gpi_log(0, "cannot write the recording %s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, final)) {
		gpi_log(0, "cannot rename %s to %s: %s", tmp, final, strerror(errno));
		unlink(tmp);
		goto out;
	}
	gpi_log(2, "recording written to %s", final);
	rc = 0;
out:
	free(tmp);
	free(final);
	return rc;
}

/* At gp_shutdown(): stops recording and writes what was recorded, once. */
static void write_at_shutdown(void)
{
	char *path = NULL;
	bool was_recording;

	pthread_mutex_lock(&gpi.lock);
	was_recording = atomic_exchange(&gpi.recording, 0) && gpi.record_path;
	if (was_recording)
		path = strdup(gpi.record_path);   /* gp_init() may replace it meanwhile */
	pthread_mutex_unlock(&gpi.lock);
	if (!was_recording)
		return;
	if (path)
		gpi_record_write(path);
	else
		gpi_log(0, "out of memory: recording not written");
	free(path);
}

/* Fork child: the threads the core kept (the forking one) start with no
** events.  The parent's memory is shared copy-on-write; leaking it is
** cheaper than walking it. */
static void forget_parent_events(void)
{
	for (struct gpi_thread *th = gpi.threads; th; th = th->next) {
		th->head = th->tail = NULL;
		th->strs = NULL;
		th->nevents = th->dropped = 0;
	}
}

__attribute__((constructor)) static void register_hooks(void)
{
	static struct gpi_hook at_shutdown = {.fn = write_at_shutdown};
	static struct gpi_hook at_fork_child = {.fn = forget_parent_events};

	gpi_on_shutdown(&at_shutdown);
	gpi_on_fork_child(&at_fork_child);
}
