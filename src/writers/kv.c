/*
** Key/value writer; see kv.h.  JSON is indented two spaces per level,
** one entry per line, so that grep and diff work on it as well as jq.
*/
#include <inttypes.h>
#include <string.h>

#include "writers/kv.h"
#include "writers/writer.h"

const char *const gp_kv_formats[] = {"text", "json", NULL};

int gp_kv_open(gp_kv *kv, const char *format, FILE *out, gp_error *err)
{
	char names[64];

	memset(kv, 0, sizeof(*kv));
	kv->out = out;
	if (strcmp(format, "json") == 0)
		kv->json = true;
	else if (strcmp(format, "text") != 0)
		return gp_err(err, GP_ERR_USAGE, "unknown output format '%s' (valid: %s)", format,
			      gp_name_list(gp_kv_formats, names, sizeof(names)));
	return GP_OK;
}

/* Starts a JSON entry: the separator, the indentation and (outside a
** list) the key.  Opens the outer object on the first entry. */
static void json_entry(gp_kv *kv, const char *key)
{
	if (kv->depth == 0 && kv->count[0] == 0) {
		fputc('{', kv->out);
		kv->depth = 1;
		kv->count[1] = 0;
		kv->list[1] = false;
	}
	fputs(kv->count[kv->depth]++ ? ",\n" : "\n", kv->out);
	fprintf(kv->out, "%*s", 2 * kv->depth, "");
	if (!kv->list[kv->depth]) {
		gp_json_string(kv->out, key);
		fputs(": ", kv->out);
	}
	kv->count[0] = 1;
}

void gp_kv_str(gp_kv *kv, const char *key, const char *label, const char *val)
{
	if (kv->json && key) {
		json_entry(kv, key);
		if (val)
			gp_json_string(kv->out, val);
		else
			fputs("null", kv->out);
	} else if (!kv->json && label && val) {
		fprintf(kv->out, "%-22s %s\n", label, val);
	}
}

void gp_kv_u64(gp_kv *kv, const char *key, const char *label, uint64_t val)
{
	if (kv->json && key) {
		json_entry(kv, key);
		fprintf(kv->out, "%" PRIu64, val);
	} else if (!kv->json && label) {
		fprintf(kv->out, "%-22s %" PRIu64 "\n", label, val);
	}
}

void gp_kv_i64(gp_kv *kv, const char *key, const char *label, int64_t val)
{
	if (kv->json && key) {
		json_entry(kv, key);
		fprintf(kv->out, "%" PRId64, val);
	} else if (!kv->json && label) {
		fprintf(kv->out, "%-22s %" PRId64 "\n", label, val);
	}
}

void gp_kv_pct(gp_kv *kv, const char *key, const char *label, double pct)
{
	if (kv->json && key) {
		json_entry(kv, key);
		fprintf(kv->out, "%.1f", pct);
	} else if (!kv->json && label) {
		fprintf(kv->out, "%-22s %.1f%%\n", label, pct);
	}
}

void gp_kv_begin(gp_kv *kv, const char *key, bool list)
{
	if (!kv->json)
		return;
	json_entry(kv, key);
	fputc(list ? '[' : '{', kv->out);
	if (kv->depth + 1 < GP_KV_MAX_DEPTH) {
		kv->depth++;
		kv->count[kv->depth] = 0;
		kv->list[kv->depth] = list;
	}
}

void gp_kv_end(gp_kv *kv)
{
	if (!kv->json || kv->depth < 2)
		return;
	if (kv->count[kv->depth])
		fprintf(kv->out, "\n%*s", 2 * (kv->depth - 1), "");
	fputc(kv->list[kv->depth] ? ']' : '}', kv->out);
	kv->depth--;
}

int gp_kv_close(gp_kv *kv, gp_error *err)
{
	if (kv->json) {
		while (kv->depth > 1)
			gp_kv_end(kv);
		fputs(kv->count[0] ? "\n}\n" : "{}\n", kv->out);
	}
	if (fflush(kv->out) != 0 || ferror(kv->out))
		return gp_err(err, GP_ERR_IO, "write failure on output");
	return GP_OK;
}
