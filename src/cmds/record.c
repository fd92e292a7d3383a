/*
** gpuprof record [OPTIONS] [--] CMD ARGS...: runs CMD with the CUPTI
** collector (libgpuprof-inject.so, collector/, docs/collector.md) injected
** through CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH, so that each
** process of CMD writes a recording (include/gpuprof/record-format.h,
** version 2) that every command reads.  Returns CMD's own exit status.
**
** The collector does the recording; this command chooses what it records
** (by environment variables), forwards SIGINT/SIGTERM/SIGHUP/SIGQUIT that
** were sent to gpuprof alone, and writes the recording of a CMD that never
** loaded the collector (no CUDA, no NVTX), so that "no GPU was found" is
** still on record.
*/
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmds/cmds.h"
#include "cmds/options.h"
#include "gpuprof/record-format.h"

/* gpuprof's own failures before CMD runs; everything else is CMD's status. */
#define EXIT_NO_COLLECTOR 5
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127

#define INJECT_LIB "libgpuprof-inject.so"

static const struct gp_cmd_opt record_own[] = {
	{"output", 'o', "FILE", "the recording; %p is the process id, so that each\n"
	 "process (children, torchrun/mpirun ranks) writes its\n"
	 "own (default gpuprof-%p.gprec); without %p, processes\n"
	 "other than CMD itself append .PID"},
	{"trace", 't', "LIST", "what to record, comma-separated: cuda (GPU activity\n"
	 "and runtime/driver API calls), cuda-gpu (GPU activity\n"
	 "only: least overhead, no kernel-to-API correlation),\n"
	 "nvtx (NVTX ranges of any NVTX user); default cuda,nvtx"},
	{"capture-range", 0, "cudaProfilerApi", "record only between cudaProfilerStart and\n"
	 "cudaProfilerStop (libgpuprof's gp_profiler_start/stop),\n"
	 "as nsys --capture-range=cudaProfilerApi; default none"},
	{"duration", 'd', "S", "keep only what starts in the first S seconds (the\n"
	 "program runs to its end)"},
	{"cuda-graph-trace", 0, "node|graph", "a CUDA graph's kernels one by one (node,\n"
	 "default) or each launch as one record (graph)"},
	{"log", 0, "FILE|stderr", "where the collector says what it could not do (it\n"
	 "always notes it in the recording); default nowhere"},
	{"quiet", 'q', NULL, "no closing line on stderr"},
	{NULL, 0, NULL, NULL},
};

static const struct gp_cmd_spec record_spec = {
	.name = "record",
	.usage = "[--] CMD [ARGS...]",
	.about =
	"Runs CMD with gpuprof's CUPTI collector and writes one recording per process\n"
	"(kernels with launch configuration, memcpy/memset, runtime and driver API\n"
	"calls, synchronizations, NVTX ranges with domains and payloads, GPU\n"
	"properties, CUPTI's dropped-record counts and overhead), read by every\n"
	"gpuprof command as an Nsight Systems export is.  For GPU nodes without\n"
	"Nsight Systems; one CUPTI user at a time: not under nsys, ncu or\n"
	"torch.profiler.  CMD's stdout and stderr are untouched; on a machine\n"
	"without a GPU CMD runs as usual and the recording says why it holds no GPU\n"
	"activity (docs/collector.md).",
	.shared = 0,
	.own = record_own,
	.more =
	"Environment: GPUPROF_INJECT_LIB overrides where the collector library is\n"
	"looked for (default: beside the gpuprof binary, then ../lib/gpuprof/).",
	.exit_help =
	"Exit codes: CMD's own exit status, 128+N when CMD died of signal N, and\n"
	"  2    bad command line (CMD did not run)\n"
	"  5    the collector is not installed: gpuprof was built without CUDA's\n"
	"       CUPTI headers (CMD did not run)\n"
	"  126  CMD could not be executed\n"
	"  127  CMD was not found\n",
};

struct record_opts {
	const char *output, *trace, *capture, *graph, *log;
	double duration;
	bool quiet;
};

/* Checks --trace's words; false (after the error) for an unknown one. */
static bool trace_ok(const char *list)
{
	static const char *const words[] = {"cuda", "cuda-gpu", "nvtx"};
	char w[64];
	bool any = false;

	for (const char *s = list; *s;) {
		size_t n = strcspn(s, ","), k;
		snprintf(w, sizeof(w), "%.*s", (int)(n < sizeof(w) ? n : sizeof(w) - 1), s);
		for (k = 0; k < sizeof(words) / sizeof(words[0]) && strcmp(w, words[k]); k++)
			;
		if (k == sizeof(words) / sizeof(words[0])) {
			gp_cli_usage("record", "--trace: unknown '%s' (cuda, cuda-gpu, nvtx)", w);
			return false;
		}
		any = true;
		s += n + (s[n] == ',');
	}
	if (!any)
		gp_cli_usage("record", "--trace: empty list");
	return any;
}

/* The value of option i (argv[*i] is "--name", "--name=V", "-x" or "-xV"). */
static const char *opt_value(int argc, char **argv, int *i, const char *inline_value)
{
	if (inline_value)
		return inline_value;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

/* Parses the options before CMD; *cmd_at = index of CMD in argv.  Returns
** 0, GP_CLI_DONE (after --help) or an exit code after the error. */
static int parse(int argc, char **argv, struct record_opts *o, int *cmd_at)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = NULL, *v;
		const struct gp_cmd_opt *opt = NULL;
		char name[64];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;   /* CMD */
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			gp_cli_help(&record_spec, stdout);
			return GP_CLI_DONE;
		}
		if (a[1] == '-') {
			eq = strchr(a, '=');
			snprintf(name, sizeof(name), "%.*s", (int)(eq ? eq - a - 2 : (long)strlen(a + 2)), a + 2);
			for (const struct gp_cmd_opt *p = record_own; p->name; p++)
				if (strcmp(p->name, name) == 0)
					opt = p;
			if (eq)
				eq++;
		} else {
			for (const struct gp_cmd_opt *p = record_own; p->name; p++)
				if (p->short_name == a[1])
					opt = p;
			if (opt && a[2])
				eq = a + 2;
		}
		if (!opt)
			return gp_cli_usage("record", "bad option '%s'", a);
		if (!opt->arg) {
			if (eq)
				return gp_cli_usage("record", "--%s takes no value", opt->name);
			o->quiet = strcmp(opt->name, "quiet") == 0 || o->quiet;
			continue;
		}
		if (!(v = opt_value(argc, argv, &i, eq)))
			return gp_cli_usage("record", "--%s needs a value", opt->name);
		if (strcmp(opt->name, "output") == 0) {
			if (!*v)
				return gp_cli_usage("record", "--output: empty file name");
			o->output = v;
		} else if (strcmp(opt->name, "trace") == 0) {
			if (!trace_ok(v))
				return GP_EXIT_USAGE;
			o->trace = v;
		} else if (strcmp(opt->name, "capture-range") == 0) {
			if (strcmp(v, "cudaProfilerApi") && strcmp(v, "none"))
				return gp_cli_usage("record", "--capture-range: '%s' is not cudaProfilerApi or none", v);
			o->capture = v;
		} else if (strcmp(opt->name, "duration") == 0) {
			char *end;
			o->duration = strtod(v, &end);
			if (*end || !(o->duration > 0) || o->duration > 1e9)
				return gp_cli_usage("record", "--duration: '%s' is not a number of seconds > 0", v);
		} else if (strcmp(opt->name, "cuda-graph-trace") == 0) {
			if (strcmp(v, "node") && strcmp(v, "graph"))
				return gp_cli_usage("record", "--cuda-graph-trace: '%s' is not node or graph", v);
			o->graph = v;
		} else if (strcmp(opt->name, "log") == 0) {
			o->log = v;
		}
	}
	if (i >= argc)
		return gp_cli_usage("record", "no command to run (gpuprof record [OPTIONS] -- CMD ARGS...)");
	*cmd_at = i;
	return 0;
}

/* The collector library's path into out; false when it is not installed. */
static bool find_collector(char *out, size_t size)
{
	const char *env = getenv("GPUPROF_INJECT_LIB");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return access(out, R_OK) == 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	snprintf(out, size, "%s/%s", exe, INJECT_LIB);
	if (access(out, R_OK) == 0)
		return true;
	snprintf(out, size, "%s/../lib/gpuprof/%s", exe, INJECT_LIB);
	return access(out, R_OK) == 0;
}

/* Why this machine has no GPU to record, or NULL when it seems to have
** one.  Looks, does not initialize CUDA (that costs the program's time). */
static const char *no_gpu_reason(void)
{
	char dev[32];

	if (access("/proc/driver/nvidia/version", R_OK) != 0)
		return "no GPU found: no NVIDIA driver is loaded (/proc/driver/nvidia/version missing)";
	for (int i = 0; i < 64; i++) {
		snprintf(dev, sizeof(dev), "/dev/nvidia%d", i);
		if (access(dev, F_OK) == 0)
			return NULL;
	}
	return "no GPU found: no /dev/nvidia* device";
}

/* path made absolute against the current directory (CMD may chdir). */
static char *absolute(const char *path)
{
	char cwd[PATH_MAX];
	char *out;

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return strdup(path);
	out = malloc(strlen(cwd) + strlen(path) + 2);
	if (out)
		sprintf(out, "%s/%s", cwd, path);
	return out;
}

/* The recording name of process pid from the pattern. */
static void recording_of(const char *pattern, pid_t pid, char *out, size_t size)
{
	size_t o = 0;

	for (const char *p = pattern; *p && o + 24 < size; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			o += (size_t)snprintf(out + o, size - o, "%d", (int)pid);
			p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
}

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': fputs("\\\\", f); break;
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		default: fputc(*s, f); break;
		}
	}
}

/* The recording of a CMD that never loaded the collector: who it was and
** why nothing is recorded.  Returns false when it cannot be written. */
static bool write_empty_recording(const char *path, pid_t pid, char **cmd, const char *note)
{
	FILE *f = fopen(path, "w");
	int lines = 0;

	if (!f)
		return false;
	fprintf(f, "%s%d\nmeta\tpid\t%d\nmeta\tcmdline\t", GPREC_MAGIC, GPREC_VERSION_COLLECTOR, (int)pid);
	for (int i = 0; cmd[i]; i++) {
		if (i)
			fputc(' ', f);
		put_escaped(f, cmd[i]);
	}
	fputs("\nmeta\tclock\tmonotonic\n", f);
	lines = 3;
	if (note) {
		fprintf(f, "note\t%s\n", note);
		lines++;
	}
	fputs("note\tthe program loaded neither CUDA nor NVTX: nothing to record\n", f);
	fprintf(f, "chunk\t%d\nend\t0\t0\n", lines + 1);
	return !(ferror(f) | fclose(f));
}

/* Sets the collector's environment (docs/collector.md) for CMD. */
static void set_environment(const struct record_opts *o, const char *lib, const char *pattern,
			    const char *note)
{
	const char *trace = o->trace ? o->trace : "cuda,nvtx";
	char num[32];

	if (strstr(trace, "cuda"))
		setenv("CUDA_INJECTION64_PATH", lib, 1);
	if (strstr(trace, "nvtx"))
		setenv("NVTX_INJECTION64_PATH", lib, 1);
	setenv("GPUPROF_COLLECT_OUT", pattern, 1);
	setenv("GPUPROF_COLLECT_TRACE", trace, 1);
	setenv("GPUPROF_COLLECT_CAPTURE", o->capture ? o->capture : "none", 1);
	setenv("GPUPROF_COLLECT_CUDA_GRAPH", o->graph ? o->graph : "node", 1);
	if (o->duration > 0) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		snprintf(num, sizeof(num), "%" PRIu64, (uint64_t)now.tv_sec * 1000000000u +
			 (uint64_t)now.tv_nsec + (uint64_t)(o->duration * 1e9));
		setenv("GPUPROF_COLLECT_DEADLINE_NS", num, 1);
	} else {
		unsetenv("GPUPROF_COLLECT_DEADLINE_NS");   /* an outer gpuprof record's */
	}
	if (o->log)
		setenv("GPUPROF_COLLECT_LOG", o->log, 1);
	else
		unsetenv("GPUPROF_COLLECT_LOG");
	if (note)
		setenv("GPUPROF_COLLECT_NOTE", note, 1);
	else
		unsetenv("GPUPROF_COLLECT_NOTE");
}

/* Runs cmd in a child with the signals the parent waits for unblocked;
** waits for it, forwarding the signals that were sent to gpuprof alone
** (a terminal's ^C reaches the whole process group, CMD included).
** Returns the child's wait status in *status and its pid, or -1. */
static pid_t run(char **cmd, int *status)
{
	sigset_t wait_set, old;
	siginfo_t si;
	pid_t child;

	sigemptyset(&wait_set);
	sigaddset(&wait_set, SIGCHLD);
	sigaddset(&wait_set, SIGINT);
	sigaddset(&wait_set, SIGTERM);
	sigaddset(&wait_set, SIGHUP);
	sigaddset(&wait_set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &wait_set, &old);
	fflush(NULL);
	child = fork();
	if (child < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (child == 0) {
		char pid[24];
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		setenv("GPUPROF_COLLECT_ROOT_PID", pid, 1);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "gpuprof record: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC);
	}
	for (;;) {
		int sig = sigwaitinfo(&wait_set, &si);
		if (sig < 0)
			continue;   /* EINTR */
		if (sig == SIGCHLD) {
			if (waitpid(child, status, WNOHANG) == child && (WIFEXITED(*status) || WIFSIGNALED(*status)))
				break;
		} else if (si.si_code == SI_USER || si.si_code == SI_QUEUE) {
			kill(child, sig);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return child;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {0};
	char lib[PATH_MAX + 64], path[PATH_MAX + 32], *pattern;
	const char *note;
	int cmd_at = 0, rc, status = 0;
	struct stat sb;
	pid_t child;

	if ((rc = parse(argc, argv, &o, &cmd_at)))
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (!find_collector(lib, sizeof(lib))) {
		fprintf(stderr, "gpuprof record: the CUPTI collector (%s) is not installed: this gpuprof\n"
			"was built without the CUDA toolkit's CUPTI headers (make CUDA_HOME=DIR to\n"
			"point at one); CMD was not run\n", INJECT_LIB);
		return EXIT_NO_COLLECTOR;
	}
	if (getenv("CUDA_INJECTION64_PATH") && !o.quiet)
		fprintf(stderr, "gpuprof record: CUDA_INJECTION64_PATH was set (another tool); "
			"replaced by gpuprof's collector\n");
	pattern = absolute(o.output ? o.output : "gpuprof-%p.gprec");
	if (!pattern) {
		fprintf(stderr, "gpuprof record: out of memory\n");
		return GP_EXIT_FAIL;
	}
	note = no_gpu_reason();
	set_environment(&o, lib, pattern, note);
	child = run(argv + cmd_at, &status);
	if (child < 0) {
		fprintf(stderr, "gpuprof record: cannot start %s: %s\n", argv[cmd_at], strerror(errno));
		free(pattern);
		return GP_EXIT_FAIL;
	}
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	recording_of(pattern, child, path, sizeof(path));
	if (stat(path, &sb) != 0 && !(WIFEXITED(status) && (rc == EXIT_NOT_FOUND || rc == EXIT_CANNOT_EXEC)) &&
	    !write_empty_recording(path, child, argv + cmd_at, note))
		fprintf(stderr, "gpuprof record: cannot write %s: %s\n", path, strerror(errno));
	if (!o.quiet) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "gpuprof record: %s died of signal %d; recording: %s\n", argv[cmd_at],
				WTERMSIG(status), path);
		else
			fprintf(stderr, "gpuprof record: %s exited with %d; recording: %s%s\n", argv[cmd_at], rc,
				path, strstr(pattern, "%p") ? " (and one per other process it started)" : "");
	}
	free(pattern);
	return rc;
}
