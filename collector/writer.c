/*
** The recording of this process (collector.h): settings from the
** environment, the file (opened on the first chunk, named by the pattern
** in GPUPROF_COLLECT_OUT), chunks written with one write(2) each, notes,
** the log, and the end of the recording at exit or on SIGINT/SIGTERM.
*/
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "gpuprof/record-format.h"
#include "collector.h"

#define COLLECTOR_VERSION "0.1.0"
/* How long a signal handler waits for the flush before the program's own
** handling (or death) goes on: a flush stuck on a lock must not hang it. */
#define SIGNAL_FLUSH_WAIT_MS 2000

static const int handled_signals[] = {SIGINT, SIGTERM};
#define NSIGNALS (sizeof(handled_signals) / sizeof(handled_signals[0]))

static struct {
	pthread_mutex_t lock;
	struct gpc_config cfg;
	pthread_once_t cfg_once;
	int fd;                    /* -1 until the first chunk */
	uint64_t nranges;          /* range lines written, for the end line */
	struct gpc_buf notes;      /* notes not yet written */
	bool ended;                /* the end line is written */
	atomic_bool collecting;
	atomic_bool cuda_started;
	FILE *log;
	void (*cuda_flush)(void);
	void (*nvtx_flush)(void);
	bool started;
	struct sigaction old[NSIGNALS];
	sem_t flush_request;
	atomic_uint flushes_requested, flushes_done;
} w = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cfg_once = PTHREAD_ONCE_INIT,
	.fd = -1,
};

uint64_t gpc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --trace's words, as the launcher passes them: "cuda,nvtx" by default. */
static unsigned parse_trace(const char *s)
{
	unsigned bits = 0;
	char word[32];

	while (s && *s) {
		size_t n = strcspn(s, ",");
		snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) ? n : sizeof(word) - 1), s);
		if (strcmp(word, "cuda") == 0)
			bits |= GPC_TRACE_CUDA | GPC_TRACE_API;
		else if (strcmp(word, "cuda-gpu") == 0)
			bits |= GPC_TRACE_CUDA;
		else if (strcmp(word, "nvtx") == 0)
			bits |= GPC_TRACE_NVTX;
		s += n + (s[n] == ',');
	}
	return bits;
}

static void read_config(void)
{
	const char *s;

	w.cfg.trace = (s = getenv("GPUPROF_COLLECT_TRACE")) ? parse_trace(s)
		      : GPC_TRACE_CUDA | GPC_TRACE_API | GPC_TRACE_NVTX;
	s = getenv("GPUPROF_COLLECT_CAPTURE");
	w.cfg.capture_range = s && strcmp(s, "cudaProfilerApi") == 0;
	s = getenv("GPUPROF_COLLECT_CUDA_GRAPH");
	w.cfg.graph_launches = s && strcmp(s, "graph") == 0;
	s = getenv("GPUPROF_COLLECT_DEADLINE_NS");
	w.cfg.deadline = s ? strtoull(s, NULL, 10) : 0;
	atomic_store(&w.collecting, !w.cfg.capture_range);
	s = getenv("GPUPROF_COLLECT_LOG");
	if (s && strcmp(s, "stderr") == 0)
		w.log = stderr;
	else if (s && *s)
		w.log = fopen(s, "a");
}

const struct gpc_config *gpc_config(void)
{
	pthread_once(&w.cfg_once, read_config);
	return &w.cfg;
}

bool gpc_collecting(void)
{
	gpc_config();
	return atomic_load_explicit(&w.collecting, memory_order_relaxed);
}

void gpc_set_collecting(bool on)
{
	gpc_config();
	atomic_store(&w.collecting, on);
}

void gpc_log(const char *fmt, ...)
{
	va_list ap;

	gpc_config();
	if (!w.log)
		return;
	va_start(ap, fmt);
	flockfile(w.log);
	fprintf(w.log, "gpuprof-collect[%d]: ", (int)getpid());
	vfprintf(w.log, fmt, ap);
	fputc('\n', w.log);
	fflush(w.log);
	funlockfile(w.log);
	va_end(ap);
}

void gpc_note(const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	gpc_log("%s", text);
	pthread_mutex_lock(&w.lock);
	gpc_buf_printf(&w.notes, "note\t");
	gpc_buf_escaped(&w.notes, text);
	gpc_buf_endline(&w.notes);
	pthread_mutex_unlock(&w.lock);
}

/* Writes the n pieces of v in order, as one writev(2) when the system
** takes them at once; false on an error. */
static bool write_all(int fd, struct iovec *v, int n)
{
	while (n > 0) {
		ssize_t done = writev(fd, v, n);
		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0)
			return false;
		while (n > 0 && (size_t)done >= v->iov_len) {
			done -= (ssize_t)v->iov_len;
			v++;
			n--;
		}
		if (n > 0) {
			v->iov_base = (char *)v->iov_base + done;
			v->iov_len -= (size_t)done;
		}
	}
	return true;
}

/* The recording's name for this process: GPUPROF_COLLECT_OUT with %p the
** process id; a process other than the launched one (GPUPROF_COLLECT_ROOT_PID)
** gets ".PID" appended when the pattern has no %p, so none overwrites
** another's.  Into out (size bytes). */
static void recording_path(char *out, size_t size)
{
	const char *pat = getenv("GPUPROF_COLLECT_OUT"), *root = getenv("GPUPROF_COLLECT_ROOT_PID");
	int pid = (int)getpid();
	size_t o = 0;

	if (!pat || !*pat)
		pat = "gpuprof-%p.gprec";
	for (const char *p = pat; *p && o + 24 < size; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(out + o, size - o, "%d", pid);
			p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	if (!strstr(pat, "%p") && (!root || atoi(root) != pid))
		snprintf(out + o, size - o, ".%d", pid);
}

/* The recording's names of what is traced (meta "trace"). */
static const struct {
	unsigned bit;
	const char *word;
} trace_words[] = {
	{GPC_TRACE_CUDA, "cuda-gpu"}, {GPC_TRACE_API, "cuda-api"}, {GPC_TRACE_NVTX, "nvtx"},
};

/* The first lines: magic, metadata (process, rank, clock, settings). */
static void header(struct gpc_buf *b)
{
	static const char *const rank_vars[][2] = {
		{"RANK", "WORLD_SIZE"}, {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
		{"PMI_RANK", "PMI_SIZE"}, {"SLURM_PROCID", "SLURM_NTASKS"},
	};
	struct timespec rt;
	char cmd[1024];
	FILE *f;
	size_t n = 0;
	const char *s;

	gpc_buf_printf(b, "%s%d", GPREC_MAGIC, GPREC_VERSION_COLLECTOR);
	gpc_buf_endline(b);
	gpc_buf_printf(b, "meta\tcollector_version\t%s", COLLECTOR_VERSION);
	gpc_buf_endline(b);
	gpc_buf_printf(b, "meta\tpid\t%d", (int)getpid());
	gpc_buf_endline(b);
	if ((f = fopen("/proc/self/cmdline", "rb"))) {
		n = fread(cmd, 1, sizeof(cmd) - 1, f);
		fclose(f);
	}
	while (n && cmd[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (cmd[i] == '\0')
			cmd[i] = ' ';
	cmd[n] = '\0';
	gpc_buf_printf(b, "meta\tcmdline\t");
	gpc_buf_escaped(b, cmd);
	gpc_buf_endline(b);
	clock_gettime(CLOCK_REALTIME, &rt);
	gpc_buf_printf(b, "meta\tclock\tmonotonic");
	gpc_buf_endline(b);
	gpc_buf_printf(b, "meta\trealtime_minus_monotonic_ns\t%" PRId64,
		       (int64_t)((uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec - gpc_now()));
	gpc_buf_endline(b);
	for (size_t i = 0; i < sizeof(rank_vars) / sizeof(rank_vars[0]); i++) {
		if (!(s = getenv(rank_vars[i][0])))
			continue;
		gpc_buf_printf(b, "meta\trank\t");
		gpc_buf_escaped(b, s);
		gpc_buf_endline(b);
		if ((s = getenv(rank_vars[i][1]))) {
			gpc_buf_printf(b, "meta\tworld_size\t");
			gpc_buf_escaped(b, s);
			gpc_buf_endline(b);
		}
		break;
	}
	gpc_buf_str(b, "meta\ttrace\t");
	for (size_t i = 0, words = 0; i < sizeof(trace_words) / sizeof(trace_words[0]); i++)
		if (w.cfg.trace & trace_words[i].bit) {
			gpc_buf_str(b, words++ ? "," : "");
			gpc_buf_str(b, trace_words[i].word);
		}
	gpc_buf_endline(b);
	if (w.cfg.capture_range) {
		gpc_buf_printf(b, "meta\tcapture_range\tcudaProfilerApi");
		gpc_buf_endline(b);
	}
	if ((s = getenv("GPUPROF_COLLECT_NOTE")) && *s) {
		gpc_buf_printf(b, "note\t");
		gpc_buf_escaped(b, s);
		gpc_buf_endline(b);
	}
}

/* Writes lines (after the header when the file is new, and the pending
** notes) and their chunk line, in one writev(2); opens the recording
** first.  Lock held. */
static void write_locked(struct gpc_buf *b, uint64_t nranges)
{
	struct gpc_buf head = {0}, tail = {0};
	struct iovec v[3];
	uint64_t lines = 0;
	char path[4096];
	int n = 0;

	if (w.ended || (w.fd >= 0 && !w.notes.len && (!b || !b->len)))
		return;
	if (w.fd < 0) {
		recording_path(path, sizeof(path));
		w.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		if (w.fd < 0) {
			gpc_log("cannot create the recording %s: %s", path, strerror(errno));
			w.ended = true;   /* nothing more to try; the program goes on */
			return;
		}
		gpc_log("recording to %s", path);
		header(&head);
		lines = head.lines - 1;   /* a chunk counts the lines after the magic line */
	}
	if (w.notes.len) {
		gpc_buf_str(&head, w.notes.data);
		lines += w.notes.lines;
		gpc_buf_reset(&w.notes);
	}
	if (head.len)
		v[n++] = (struct iovec){head.data, head.len};
	if (b && b->len) {
		v[n++] = (struct iovec){b->data, b->len};
		lines += b->lines;
	}
	gpc_buf_printf(&tail, "chunk\t%" PRIu64, lines);
	gpc_buf_endline(&tail);
	v[n++] = (struct iovec){tail.data, tail.len};
	if (head.oom || tail.oom || (b && b->oom))
		gpc_log("out of memory: a chunk of the recording is lost");
	else if (!write_all(w.fd, v, n))
		gpc_log("cannot write the recording: %s", strerror(errno));
	else
		w.nranges += nranges;
	gpc_buf_free(&head);
	gpc_buf_free(&tail);
}

void gpc_write_chunk(struct gpc_buf *b, uint64_t nranges)
{
	pthread_mutex_lock(&w.lock);
	write_locked(b, nranges);
	pthread_mutex_unlock(&w.lock);
	if (b)
		gpc_buf_reset(b);
}

void gpc_set_cuda_flush(void (*flush)(void))
{
	pthread_mutex_lock(&w.lock);
	w.cuda_flush = flush;
	pthread_mutex_unlock(&w.lock);
}

void gpc_set_nvtx_flush(void (*flush)(void))
{
	pthread_mutex_lock(&w.lock);
	w.nvtx_flush = flush;
	pthread_mutex_unlock(&w.lock);
}

void gpc_cuda_started(void)
{
	atomic_store(&w.cuda_started, true);
}

void gpc_flush(void)
{
	void (*cuda)(void), (*nvtx)(void);

	pthread_mutex_lock(&w.lock);
	cuda = w.cuda_flush;
	nvtx = w.nvtx_flush;
	pthread_mutex_unlock(&w.lock);
	if (cuda)
		cuda();
	if (nvtx)
		nvtx();
}

/* At exit: the last records, the notes, the end line. */
static void at_exit(void)
{
	struct gpc_buf end = {0};

	gpc_flush();
	if ((gpc_config()->trace & GPC_TRACE_CUDA) && !atomic_load(&w.cuda_started))
		gpc_note("CUDA was not initialized in this process (no CUDA call, or no GPU "
			 "and driver): no GPU activity recorded");
	pthread_mutex_lock(&w.lock);
	write_locked(NULL, 0);
	if (w.fd >= 0 && !w.ended) {
		gpc_buf_printf(&end, "end\t%" PRIu64 "\t0", w.nranges);
		gpc_buf_endline(&end);
		struct iovec v = {end.data, end.len};
		if (end.oom || !write_all(w.fd, &v, 1))
			gpc_log("cannot write the end of the recording");
		close(w.fd);
		w.fd = -1;
		w.ended = true;
	}
	pthread_mutex_unlock(&w.lock);
	gpc_buf_free(&end);
}

/* The thread that flushes for a signal handler: flushing takes locks
** (ours, CUPTI's) that the interrupted code may hold, so the handler only
** asks and waits a bounded time. */
static void *flusher(void *arg)
{
	for (;;) {
		while (sem_wait(&w.flush_request) != 0)
			;
		gpc_flush();
		atomic_fetch_add(&w.flushes_done, 1);
	}
	return NULL;
}

/* Hands the signal on as the program had set it up before us. */
static void chain(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *o = NULL;

	for (size_t i = 0; i < NSIGNALS; i++)
		if (handled_signals[i] == sig)
			o = &w.old[i];
	if (!o)
		return;
	if (o->sa_flags & SA_SIGINFO) {
		if (o->sa_sigaction)
			o->sa_sigaction(sig, si, uc);
	} else if (o->sa_handler == SIG_DFL) {
		/* die of it as the program would have: blocked until we return */
		signal(sig, SIG_DFL);
		raise(sig);
	} else if (o->sa_handler != SIG_IGN) {
		o->sa_handler(sig);
	}
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	unsigned want = atomic_fetch_add(&w.flushes_requested, 1) + 1;
	struct timespec tick = {0, 10 * 1000 * 1000};

	sem_post(&w.flush_request);
	for (int ms = 0; ms < SIGNAL_FLUSH_WAIT_MS && atomic_load(&w.flushes_done) < want; ms += 10)
		nanosleep(&tick, NULL);
	chain(sig, si, uc);
	errno = saved;
}

/* Starts the thread that flushes for the signal handlers; false if it
** cannot (then no handler is installed). */
static bool start_flusher(void)
{
	pthread_t th;
	pthread_attr_t attr;
	bool ok;

	if (sem_init(&w.flush_request, 0, 0) != 0)
		return false;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok = pthread_create(&th, &attr, flusher, NULL) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

/* A forked child has its own recording (its own pid) and needs its own
** flusher; it keeps the handlers (and the program's behind them). */
static void in_fork_child(void)
{
	if (w.fd >= 0)
		close(w.fd);
	pthread_mutex_init(&w.lock, NULL);
	w.fd = -1;
	w.nranges = 0;
	w.ended = false;
	gpc_buf_reset(&w.notes);
	atomic_store(&w.flushes_requested, 0);
	atomic_store(&w.flushes_done, 0);
	if (w.started && !start_flusher())
		gpc_note("cannot start the flush thread: no flush on SIGINT/SIGTERM");
}

void gpc_start(void)
{
	struct sigaction sa;

	gpc_config();
	pthread_mutex_lock(&w.lock);
	if (w.started) {
		pthread_mutex_unlock(&w.lock);
		return;
	}
	w.started = true;
	pthread_mutex_unlock(&w.lock);
	atexit(at_exit);
	pthread_atfork(NULL, NULL, in_fork_child);
	if (!start_flusher()) {
		gpc_note("cannot start the flush thread: no flush on SIGINT/SIGTERM");
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < NSIGNALS; i++) {
		struct sigaction cur;
		/* an ignored signal stays ignored (nohup, background jobs) */
		if (sigaction(handled_signals[i], NULL, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_handler == SIG_IGN)
			continue;
		sigaction(handled_signals[i], &sa, &w.old[i]);
	}
}
