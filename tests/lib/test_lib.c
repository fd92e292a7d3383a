/*
** Unit tests of libgpuprof (linked with the static archive): range nesting
** and layer paths, sync levels observed through the sync hook, timer
** statistics (GPU timers through a fake CUDA runtime with asynchronous
** completion), threads, the recording, a forked child's fresh start, the
** profiler capture range.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "internal.h"

/* ---- doubles ---------------------------------------------------------- */

static int syncs;
static void count_sync(void *ctx)
{
	(*(int *)ctx)++;
}

static char last_log[512];
static int nlogs;
static void capture_log(int level, const char *msg, void *ctx)
{
	snprintf(last_log, sizeof(last_log), "%s", msg);
	nlogs++;
}

/* A fake CUDA runtime: an event is an index into fake_ev; the "GPU" has
** done an event's work once fake_ev[i].done is set (event_synchronize sets
** it, as waiting would). */
struct fake_event {
	double t_ms;
	int done;
};
static struct fake_event fake_ev[64];
static int n_fake_ev, fake_device_syncs, fake_prof_starts, fake_prof_stops;
static double fake_clock_ms;

static int f_sync(void) { fake_device_syncs++; return 0; }
static int f_count(int *n) { *n = 1; return 0; }
static int f_pstart(void) { fake_prof_starts++; return 0; }
static int f_pstop(void) { fake_prof_stops++; return 0; }
static int f_create(void **ev)
{
	if (n_fake_ev == 64)
		return 2;
	*ev = (void *)(intptr_t)(++n_fake_ev);
	return 0;
}
static int f_record(void *ev, void *stream)
{
	struct fake_event *e = &fake_ev[(intptr_t)ev - 1];
	e->t_ms = fake_clock_ms;
	e->done = 0;
	return 0;
}
static int f_query(void *ev) { return fake_ev[(intptr_t)ev - 1].done ? 0 : 600; }
static int f_evsync(void *ev) { fake_ev[(intptr_t)ev - 1].done = 1; return 0; }
static int f_elapsed(float *ms, void *a, void *b)
{
	*ms = (float)(fake_ev[(intptr_t)b - 1].t_ms - fake_ev[(intptr_t)a - 1].t_ms);
	return 0;
}
static int f_destroy(void *ev) { return 0; }

static const struct gpi_cuda fake_cuda = {
	f_sync, f_count, f_pstart, f_pstop, f_create, f_record, f_query, f_evsync, f_elapsed, f_destroy,
};

static int setup(void **state)
{
	gp_set_sync_level(0);
	gp_set_sync_hook(count_sync, &syncs);
	syncs = 0;
	nlogs = 0;
	last_log[0] = '\0';
	return 0;
}

/* ---- tests ------------------------------------------------------------ */

static void test_nesting_and_layer_path(void **state)
{
	char path[64];

	assert_int_equal(gp_depth(), 0);
	gp_layer_push("Conv2_x");
	gp_push("not a layer");
	gp_layer_push("Bottleneck_1");
	gp_layer_push("ReLU");
	assert_int_equal(gp_depth(), 4);
	assert_int_equal(gp_layer_path(path, sizeof(path)), strlen("Conv2_x:Bottleneck_1:ReLU"));
	assert_string_equal(path, "Conv2_x:Bottleneck_1:ReLU");
	/* truncation: NUL-terminated, full length returned */
	assert_int_equal(gp_layer_path(path, 8), 25);
	assert_string_equal(path, "Conv2_x");
	gp_pop();
	gp_layer_path(path, sizeof(path));
	assert_string_equal(path, "Conv2_x:Bottleneck_1");
	gp_pop();
	gp_pop();
	gp_pop();
	assert_int_equal(gp_depth(), 0);
	assert_int_equal(gp_layer_path(path, sizeof(path)), 0);
	assert_string_equal(path, "");
	/* a long name goes through the heap path of gp_layer_push */
	char big[600];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	gp_layer_push(big);
	assert_int_equal(gp_layer_path(NULL, 0), sizeof(big) - 1);
	gp_pop();
}

static void test_unbalanced_pop_is_logged(void **state)
{
	gp_set_log(capture_log, NULL);
	gp_pop();
	assert_int_equal(gp_depth(), 0);
	assert_int_equal(nlogs, 1);
	assert_non_null(strstr(last_log, "pop with no open range"));
	gp_pop();   /* logged once per thread */
	assert_int_equal(nlogs, 1);
	gp_phase_begin(GP_FORWARD);
	gp_push("inner");
	gp_phase_end(GP_FORWARD);   /* closes "inner": logged */
	assert_non_null(strstr(last_log, "end of forward closes 'inner'"));
	gp_pop();
	assert_int_equal(gp_depth(), 0);
	gp_range_end(987654321);
	assert_non_null(strstr(last_log, "unknown range id"));
	gp_set_log(NULL, NULL);
}

/* Two log callbacks, each set with its own context: a message that reaches
** one with the other's context is a callback and context read apart. */
static _Atomic int log_a_calls, log_b_calls, log_mismatches;
static int ctx_a, ctx_b;
static void log_a(int level, const char *msg, void *ctx)
{
	log_a_calls++;
	log_mismatches += ctx != &ctx_a;
}
static void log_b(int level, const char *msg, void *ctx)
{
	log_b_calls++;
	log_mismatches += ctx != &ctx_b;
}

#define LOG_SWITCHES 20000
static void *switch_logs(void *arg)
{
	for (int i = 0; i < LOG_SWITCHES; i++) {
		gp_set_log(log_b, &ctx_b);
		gp_set_log(log_a, &ctx_a);
	}
	return NULL;
}

/* gp_set_log on one thread while another logs (run it under
** ThreadSanitizer too: the pair is read under gp_set_log's lock). */
static void test_log_callback_switched_while_logging(void **state)
{
	pthread_t th;

	gp_set_log(log_a, &ctx_a);
	assert_int_equal(pthread_create(&th, NULL, switch_logs, NULL), 0);
	for (int i = 0; i < LOG_SWITCHES; i++)
		gp_range_end(987654321);   /* an unknown id: one warning each */
	pthread_join(th, NULL);
	assert_int_equal(log_mismatches, 0);
	assert_int_equal(log_a_calls + log_b_calls, LOG_SWITCHES);
	gp_set_log(NULL, NULL);
	gp_range_end(987654321);
	assert_int_equal(log_a_calls + log_b_calls, LOG_SWITCHES);
}

/* The same for the sync hook: two hooks, each counting into its own
** context, switched while another thread synchronizes at level 3. */
static _Atomic int hook_mismatches;
static int hook_ctx_a, hook_ctx_b;
static void sync_a(void *ctx) { hook_mismatches += ctx != &hook_ctx_a; }
static void sync_b(void *ctx) { hook_mismatches += ctx != &hook_ctx_b; }

static void *switch_sync_hooks(void *arg)
{
	for (int i = 0; i < LOG_SWITCHES; i++) {
		gp_set_sync_hook(sync_b, &hook_ctx_b);
		gp_set_sync_hook(sync_a, &hook_ctx_a);
	}
	return NULL;
}

static void test_sync_hook_switched_while_syncing(void **state)
{
	pthread_t th;

	gp_set_sync_hook(sync_a, &hook_ctx_a);
	gp_set_sync_level(3);
	assert_int_equal(pthread_create(&th, NULL, switch_sync_hooks, NULL), 0);
	for (int i = 0; i < LOG_SWITCHES / 2; i++) {
		gp_push("synced");   /* a sync at the push and one at the pop */
		gp_pop();
	}
	pthread_join(th, NULL);
	gp_set_sync_level(0);
	assert_int_equal(hook_mismatches, 0);
}

/* Runs one of each range kind and returns the number of syncs. */
static int syncs_for_one_of_each(int level)
{
	syncs = 0;
	gp_set_sync_level(level);
	gp_phase_begin(GP_ITERATION);
	gp_phase_end(GP_ITERATION);
	int it = syncs;
	gp_phase_begin(GP_FORWARD);
	gp_phase_end(GP_FORWARD);
	gp_phase_begin(GP_BACKWARD);
	gp_phase_end(GP_BACKWARD);
	gp_phase_begin(GP_UPDATE);
	gp_phase_end(GP_UPDATE);
	int phases = syncs - it;
	gp_push("x");
	gp_pop();
	gp_layer_push("L");
	gp_pop();
	gp_range_end(gp_range_start(NULL, "se", 0));
	int ranges = syncs - it - phases;
	gp_mark(NULL, "m", 0);   /* an instant never synchronizes */
	assert_int_equal(syncs, it + phases + ranges);
	return it * 10000 + phases * 100 + ranges;
}

static void test_sync_levels(void **state)
{
	/* chainer_profutil: sync before the push and before the pop */
	assert_int_equal(syncs_for_one_of_each(0), 0);
	assert_int_equal(syncs_for_one_of_each(1), 2 * 10000);
	assert_int_equal(syncs_for_one_of_each(2), 2 * 10000 + 6 * 100);
	assert_int_equal(syncs_for_one_of_each(3), 2 * 10000 + 6 * 100 + 6);
	assert_int_equal(gp_set_sync_level(4), -1);
	assert_int_equal(gp_sync_level(), 3);
	assert_int_equal(gp_set_sync_level(0), 3);
}

static void test_sync_level_change_inside_a_range(void **state)
{
	/* a range synchronized at its push also synchronizes at its pop */
	gp_set_sync_level(1);
	gp_phase_begin(GP_ITERATION);
	gp_set_sync_level(0);
	gp_phase_end(GP_ITERATION);
	assert_int_equal(syncs, 2);
}

static void test_default_sync_uses_cuda(void **state)
{
	gp_set_sync_hook(NULL, NULL);
	gpi_test_set_cuda(&fake_cuda);
	fake_device_syncs = 0;
	gp_set_sync_level(2);
	gp_phase_begin(GP_ITERATION);
	gp_phase_begin(GP_FORWARD);
	gp_push("no sync at level 2");
	gp_pop();
	gp_phase_end(GP_FORWARD);
	gp_phase_end(GP_ITERATION);
	assert_int_equal(fake_device_syncs, 4);
	gp_set_sync_level(0);
	gpi_test_set_cuda(NULL);
	/* without CUDA and without a hook, a sync level costs nothing and fails nothing */
	gp_set_sync_level(3);
	gp_push("x");
	gp_pop();
	gp_set_sync_level(0);
}

static void test_cpu_timer_stats(void **state)
{
	struct gp_timer_stats st = {.sz = sizeof(st)};
	gp_timer *t = gp_timer_get("cpu-stats");

	assert_ptr_equal(t, gp_timer_get("cpu-stats"));
	assert_ptr_not_equal(t, gp_gpu_timer_get("cpu-stats"));
	for (int i = 0; i < 5; i++) {
		struct gp_timer_scope s = gp_timer_begin(t);
		usleep(100);
		gp_timer_end(&s);
		gp_timer_end(&s);   /* a second end adds nothing */
	}
	assert_int_equal(gp_timer_stats("cpu-stats", 0, &st), 0);
	assert_int_equal(st.count, 5);
	assert_true(st.min_ns >= 100000 && st.min_ns <= st.avg_ns && st.avg_ns <= st.max_ns);
	assert_true(fabs(st.avg_ns * 5 - st.total_ns) < 1e-6 * st.total_ns);
	assert_int_equal(gp_timer_stats("no such timer", 0, &st), -1);
	st.sz = 8;
	assert_int_equal(gp_timer_stats("cpu-stats", 0, &st), -1);
	/* the scope macro caches the timer per call site */
	for (int i = 0; i < 3; i++) {
		GP_TIMER_SCOPE("macro");
	}
	st.sz = sizeof(st);
	assert_int_equal(gp_timer_stats("macro", 0, &st), 0);
	assert_int_equal(st.count, 3);
}

static void test_gpu_timer_async(void **state)
{
	struct gp_timer_stats st = {.sz = sizeof(st)};
	gp_timer *t = gp_gpu_timer_get("gpu-async");
	static const double dur[] = {1, 2, 3, 4};

	/* no CUDA: nothing measured, nothing fails */
	gpi_test_set_cuda(NULL);
	struct gp_timer_scope s = gp_gpu_timer_begin(t, NULL);
	gp_timer_end(&s);
	assert_int_equal(gp_timer_stats("gpu-async", 1, &st), 0);
	assert_int_equal(st.count, 0);

	gpi_test_set_cuda(&fake_cuda);
	for (int i = 0; i < 4; i++) {
		s = gp_gpu_timer_begin(t, NULL);
		fake_clock_ms += dur[i];
		gp_timer_end(&s);
	}
	/* the GPU has not reached any end event yet: nothing counted so far,
	** and a CPU timer handle is not a GPU timer */
	assert_null(gp_gpu_timer_begin(gp_timer_get("cpu-stats"), NULL).t);
	for (int i = 0; i < n_fake_ev; i++)
		assert_false(fake_ev[i].done);
	/* gp_timer_stats waits for the GPU, then counts all four */
	assert_int_equal(gp_timer_stats("gpu-async", 1, &st), 0);
	assert_int_equal(st.count, 4);
	assert_true(fabs(st.total_ns - 10e6) < 1);
	assert_true(fabs(st.min_ns - 1e6) < 1);
	assert_true(fabs(st.max_ns - 4e6) < 1);
	assert_true(fabs(st.avg_ns - 2.5e6) < 1);
	assert_true(fabs(st.stddev_ns - sqrt(5.0 / 3.0) * 1e6) < 10);
	/* collected events are reused: a fifth measurement creates none (it
	** stays pending: the fake runtime goes away before it is collected) */
	int created = n_fake_ev;
	s = gp_gpu_timer_begin(t, NULL);
	gp_timer_end(&s);
	assert_int_equal(n_fake_ev, created);
	gpi_test_set_cuda(NULL);
}

static void test_report_formats(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	GP_TIMER_SCOPE("report, \"quoted\"");
	assert_int_equal(gp_timer_report(f, GP_REPORT_CSV), 0);
	fclose(f);
	assert_non_null(strstr(buf, "Name,Kind,Calls,Total (ms),Avg (ms),Min (ms),Max (ms),StdDev (ms)\n"));
	assert_non_null(strstr(buf, "\ngpu-async,gpu,4,10.000000,2.500000,1.000000,4.000000,1.290994\n"));
	assert_non_null(strstr(buf, "\n\"report, \"\"quoted\"\"\",cpu,0,"));
	assert_non_null(strstr(buf, "\ncpu-stats,cpu,5,"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(gp_timer_report(f, GP_REPORT_TABLE), 0);
	fclose(f);
	assert_non_null(strstr(buf, "Calls"));
	assert_non_null(strstr(buf, "gpu-async"));
	free(buf);
	assert_int_equal(gp_timer_report(NULL, GP_REPORT_TABLE), -1);
}

static void test_profiler_range(void **state)
{
	gpi_test_set_cuda(NULL);
	assert_int_equal(gp_cuda_available(), 0);
	assert_int_equal(gp_profiler_start(), -1);
	assert_int_equal(gp_profiler_stop(), -1);
	gpi_test_set_cuda(&fake_cuda);
	fake_prof_starts = fake_prof_stops = 0;
	assert_int_equal(gp_cuda_available(), 1);
	{
		GP_PROFILER_SCOPE();
		assert_int_equal(fake_prof_starts, 1);
		assert_int_equal(fake_prof_stops, 0);
	}
	assert_int_equal(fake_prof_stops, 1);
	gpi_test_set_cuda(NULL);
}

#define NTHREADS 4
#define PER_THREAD 1000

static void *thread_body(void *arg)
{
	for (int i = 0; i < PER_THREAD; i++) {
		GP_RANGE_SCOPE("worker");
		GP_TIMER_SCOPE("threaded");
		gp_layer_push("inner");
		gp_pop();
	}
	return NULL;
}

/* Counts lines of f that start with prefix. */
static int count_lines(const char *path, const char *prefix)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		n += strncmp(line, prefix, strlen(prefix)) == 0;
	fclose(f);
	return n;
}

static void test_threads_and_recording(void **state)
{
	char path[] = "/tmp/gpuprof-test-XXXXXX";
	int fd = mkstemp(path);
	struct gp_options o = {.sz = sizeof(o), .sync_level = -1, .record_path = path};
	struct gp_timer_stats st = {.sz = sizeof(st)};
	pthread_t th[NTHREADS];

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(gp_init(&o), 0);
	o.sz = 4;
	assert_int_equal(gp_init(&o), -1);
	for (int i = 0; i < NTHREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, thread_body, NULL), 0);
	uint64_t id = gp_range_start(gp_domain_get("dom"), "cross", 0xff00ff00);
	gp_mark(gp_domain_get("dom"), "tab\there", 0);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	gp_range_end(id);
	assert_ptr_equal(gp_domain_get("dom"), gp_domain_get("dom"));
	assert_null(gp_domain_get(""));
	assert_int_equal(gp_timer_stats("threaded", 0, &st), 0);
	assert_int_equal(st.count, NTHREADS * PER_THREAD);

	assert_int_equal(gpi_record_write(path), 0);
	assert_int_equal(count_lines(path, "GPUPROF-REC\t1"), 1);
	assert_int_equal(count_lines(path, "range\tpush\t"), 2 * NTHREADS * PER_THREAD);
	assert_int_equal(count_lines(path, "range\ttimer\t"), NTHREADS * PER_THREAD);
	assert_int_equal(count_lines(path, "range\tstartend\t"), 1);
	assert_int_equal(count_lines(path, "range\tmark\t"), 1);
	/* escaped name, domain, colour */
	assert_int_equal(count_lines(path, "thread\t"), NTHREADS + 1);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "grep -c 'ff00ff00\t0\tdom\tcross$' %s >/dev/null && "
		 "grep -c 'dom\ttab\\\\there$' %s >/dev/null", path, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(count_lines(path, "end\t"), 1);
	/* the timer section, which timer.c hands the recorder, and the trailer
	** that counts it */
	int ntimers = count_lines(path, "timer\t");
	assert_true(count_lines(path, "timer\tcpu\t") >= 1);
	char trailer[64];
	snprintf(trailer, sizeof(trailer), "end\t%d\t%d\n", count_lines(path, "range\t"), ntimers);
	assert_int_equal(count_lines(path, trailer), 1);
	unlink(path);
	o.sz = sizeof(o);
	o.record_path = "";
	assert_int_equal(gp_init(&o), 0);
	assert_int_equal(atomic_load(&gpi.recording), 0);
}

/* In a forked child (run by fork_and_wait): what the hooks of record.c
** and timer.c must have reset.  Returns 0, or the number of the first
** check that failed (the child cannot use cmocka's asserts). */
static int child_after_fork(void)
{
	struct gp_timer_stats st = {.sz = sizeof(st)};

	if (gp_depth() != 1)            /* the stack survives: "open" */
		return 1;
	if (gp_timer_stats("before fork", 0, &st) || st.count != 0)
		return 2;
	gp_push("child");
	gp_pop();
	gp_pop();
	gp_shutdown();
	return 0;
}

/* Forks; the child runs child_after_fork().  Returns the child's pid after
** checking that it exited with 0. */
static pid_t fork_and_wait(void)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_after_fork());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	return pid;
}

static void test_fork_child_starts_clean(void **state)
{
	char dir[] = "/tmp/gpuprof-fork-XXXXXX", path[128], file[160];
	struct gp_options o = {.sz = sizeof(o), .sync_level = -1, .record_path = path};
	gp_timer *t = gp_timer_get("before fork");
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	/* %p in the path: the child writes its own recording, without the
	** parent's events, threads or timer statistics */
	snprintf(path, sizeof(path), "%s/rec-%%p", dir);
	assert_int_equal(gp_init(&o), 0);
	gp_push("parent");
	gp_pop();
	struct gp_timer_scope s = gp_timer_begin(t);
	gp_timer_end(&s);
	gp_push("open");
	pid = fork_and_wait();
	gp_pop();
	snprintf(file, sizeof(file), "%s/rec-%d", dir, (int)pid);
	assert_int_equal(count_lines(file, "range\t"), 2);
	assert_int_equal(count_lines(file, "range\tpush\t0\t0\t"), 0);   /* tids are set */
	snprintf(path, sizeof(path), "thread\t%d\t", (int)pid);
	assert_int_equal(count_lines(file, path), 1);
	assert_int_equal(count_lines(file, "thread\t"), 1);
	/* every timer of the earlier tests is there, with no measurement */
	int ntimers = count_lines(file, "timer\t");
	assert_true(ntimers >= 1);
	assert_int_equal(count_lines(file, "timer\tcpu\t0\t") + count_lines(file, "timer\tgpu\t0\t"),
			 ntimers);
	snprintf(path, sizeof(path), "end\t2\t%d\n", ntimers);
	assert_int_equal(count_lines(file, path), 1);
	unlink(file);
	/* without %p the child would overwrite the parent's file: it does not
	** record */
	snprintf(path, sizeof(path), "%s/rec", dir);
	assert_int_equal(gp_init(&o), 0);
	gp_push("open");
	fork_and_wait();
	gp_pop();
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
	o.record_path = "";
	assert_int_equal(gp_init(&o), 0);
	gp_timer_reset_all();
}

int main(void)
{
	gpi_test_set_cuda(NULL);   /* never the machine's real CUDA */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_nesting_and_layer_path, setup),
		cmocka_unit_test_setup(test_unbalanced_pop_is_logged, setup),
		cmocka_unit_test_setup(test_log_callback_switched_while_logging, setup),
		cmocka_unit_test_setup(test_sync_hook_switched_while_syncing, setup),
		cmocka_unit_test_setup(test_sync_levels, setup),
		cmocka_unit_test_setup(test_sync_level_change_inside_a_range, setup),
		cmocka_unit_test_setup(test_default_sync_uses_cuda, setup),
		cmocka_unit_test_setup(test_cpu_timer_stats, setup),
		cmocka_unit_test_setup(test_gpu_timer_async, setup),
		cmocka_unit_test_setup(test_report_formats, setup),
		cmocka_unit_test_setup(test_profiler_range, setup),
		cmocka_unit_test_setup(test_threads_and_recording, setup),
		cmocka_unit_test_setup(test_fork_child_starts_clean, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
