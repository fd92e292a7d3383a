/*
** gpuprof info: what a trace holds.  Format and tool version, GPUs,
** metadata, record counts, time span, and what the reader had to say.
*/
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmds/cmds.h"
#include "writers/writer.h"

static const char info_help[] =
	"usage: gpuprof info [--format text|json] FILE\n\n"
	"Shows the detected format and tool version, the GPUs, metadata (rank,\n"
	"versions), how many kernels, API calls, NVTX ranges, memcpy, memset and\n"
	"synchronization records the trace holds, and its time span.\n\n"
	"  -f, --format F   text (default) or json (one object)\n"
	"  -h, --help       this text\n\n";

/* Key/value output that is either aligned text or one JSON object. */
struct kv {
	FILE *out;
	int json, n;
};

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void kv_str(struct kv *kv, const char *key, const char *val)
{
	if (kv->json) {
		fputs(kv->n++ ? ",\n  " : "{\n  ", kv->out);
		json_str(kv->out, key);
		fputs(": ", kv->out);
		json_str(kv->out, val);
	} else {
		fprintf(kv->out, "%-22s %s\n", key, val);
	}
}

static void kv_num(struct kv *kv, const char *key, uint64_t val)
{
	if (kv->json) {
		fputs(kv->n++ ? ",\n  " : "{\n  ", kv->out);
		json_str(kv->out, key);
		fprintf(kv->out, ": %" PRIu64, val);
	} else {
		fprintf(kv->out, "%-22s %" PRIu64 "\n", key, val);
	}
}

/* Signed: nsys times count from the capture start and can be negative. */
static void kv_int(struct kv *kv, const char *key, int64_t val)
{
	if (kv->json) {
		fputs(kv->n++ ? ",\n  " : "{\n  ", kv->out);
		json_str(kv->out, key);
		fprintf(kv->out, ": %" PRId64, val);
	} else {
		fprintf(kv->out, "%-22s %" PRId64 "\n", key, val);
	}
}

static void kv_end(struct kv *kv)
{
	if (kv->json)
		fputs(kv->n ? "\n}\n" : "{}\n", kv->out);
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "text";
	struct kv kv = {.out = stdout};
	gp_trace t;
	char buf[512], key[64];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'h': printf("%s%s", info_help, gp_exit_help); return GP_EXIT_OK;
		default: return gp_cli_usage("info", "bad option");
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json"))
		return gp_cli_usage("info", "unknown format '%s' (valid: text, json)", format);
	if (optind != argc - 1)
		return gp_cli_usage("info", "expected exactly one trace file");
	kv.json = strcmp(format, "json") == 0;

	gp_trace_init(&t);
	rc = gp_cli_load(argv[optind], &t);
	if (rc) {
		gp_trace_free(&t);
		return rc;
	}

	kv_str(&kv, "file", gp_s(&t, t.path));
	kv_str(&kv, "format", gp_s(&t, t.format));
	if (t.tool_version)
		kv_str(&kv, "tool", gp_s(&t, t.tool_version));
	for (size_t i = 0; i < t.devices.n; i++) {
		const struct gp_device *d = &t.devices.v[i];
		int n = snprintf(buf, sizeof(buf), "%s", gp_s(&t, d->name)[0] ? gp_s(&t, d->name) : "(unnamed)");
		if (d->sm_count)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, ", %d SMs", d->sm_count);
		if (d->cc_major)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, ", cc %d.%d", d->cc_major, d->cc_minor);
		if (d->mem_bytes)
			snprintf(buf + n, sizeof(buf) - (size_t)n, ", %.1f GiB", (double)d->mem_bytes / (1u << 30));
		snprintf(key, sizeof(key), "gpu %d", d->id);
		kv_str(&kv, key, buf);
	}
	for (size_t i = 0; i < t.meta.n; i++)
		kv_str(&kv, gp_s(&t, t.meta.v[i].key), gp_s(&t, t.meta.v[i].value));

	size_t nrt = 0, ndrv = 0, nranges = 0, nmarks = 0, nops = 0, nannot = 0, nother = 0;
	for (size_t i = 0; i < t.apis.n; i++)
		t.apis.v[i].kind == GP_API_RUNTIME ? nrt++ : t.apis.v[i].kind == GP_API_DRIVER ? ndrv++ : 0;
	for (size_t i = 0; i < t.ranges.n; i++) {
		switch (t.ranges.v[i].kind) {
		case GP_RANGE_PUSHPOP: case GP_RANGE_STARTEND: nranges++; break;
		case GP_RANGE_MARK: nmarks++; break;
		case GP_RANGE_CPU_OP: nops++; break;
		case GP_RANGE_USER_ANNOTATION: case GP_RANGE_GPU_ANNOTATION: nannot++; break;
		default: nother++; break;
		}
	}
	uint64_t copied = 0;
	for (size_t i = 0; i < t.memcpys.n; i++)
		copied += t.memcpys.v[i].bytes;

	kv_num(&kv, "processes", t.processes.n);
	kv_num(&kv, "threads", t.threads.n);
	kv_num(&kv, "kernels", t.kernels.n);
	kv_num(&kv, "api calls", t.apis.n);
	kv_num(&kv, "api calls (runtime)", nrt);
	kv_num(&kv, "api calls (driver)", ndrv);
	kv_num(&kv, "nvtx ranges", nranges);
	kv_num(&kv, "nvtx marks", nmarks);
	if (nops || nannot || nother) {
		kv_num(&kv, "framework ops", nops);
		kv_num(&kv, "annotations", nannot);
		kv_num(&kv, "other ranges", nother);
	}
	kv_num(&kv, "memcpy", t.memcpys.n);
	kv_num(&kv, "memcpy bytes", copied);
	kv_num(&kv, "memset", t.memsets.n);
	kv_num(&kv, "synchronizations", t.syncs.n);

	gp_ns first, last;
	if (gp_trace_span(&t, &first, &last)) {
		char d[64];
		kv_int(&kv, "start (ns)", first);
		kv_int(&kv, "end (ns)", last);
		kv_str(&kv, "duration", gp_fmt_duration((double)(last - first), d, sizeof(d)));
	}
	size_t attributed = 0;
	for (size_t i = 0; i < t.kernels.n; i++)
		attributed += t.attrs[i].api >= 0;
	if (t.kernels.n)
		kv_num(&kv, "kernels with launch", attributed);
	for (size_t i = 0; i < t.warnings.n; i++) {
		snprintf(key, sizeof(key), "note %zu", i + 1);
		kv_str(&kv, key, gp_s(&t, t.warnings.v[i]));
	}
	if (!t.kernels.n)
		kv_str(&kv, "note", "this trace has no kernels");
	kv_end(&kv);
	gp_trace_free(&t);
	return GP_EXIT_OK;
}
