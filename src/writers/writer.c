/*
** The row-writer registry, writer dispatch and column selection; see
** writer.h.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "writers/writer.h"

extern const struct gp_writer_ops gp_writer_table, gp_writer_csv, gp_writer_tsv, gp_writer_json;

const struct gp_writer_ops *const gp_writers[] = {
	&gp_writer_table, &gp_writer_csv, &gp_writer_tsv, &gp_writer_json, NULL,
};

const struct gp_writer_ops *gp_writer_find(const char *name)
{
	for (int i = 0; gp_writers[i]; i++)
		if (strcmp(gp_writers[i]->name, name) == 0)
			return gp_writers[i];
	return NULL;
}

const char *gp_name_list(const char *const *names, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] && len < size; i++) {
		const char *sep = i == 0 ? "" : names[i + 1] ? ", " : " or ";
		int n = snprintf(buf + len, size - len, "%s%s", sep, names[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
	return buf;
}

const char *gp_writer_names(char *buf, size_t size)
{
	const char *names[16];
	int n = 0;

	for (int i = 0; gp_writers[i] && n < 15; i++)
		names[n++] = gp_writers[i]->name;
	names[n] = NULL;
	return gp_name_list(names, buf, size);
}

int gp_writer_open(gp_writer *w, const char *format, FILE *out, const struct gp_column *cols,
		   int ncols, const struct gp_writer_opts *o, gp_error *err)
{
	char names[256];

	memset(w, 0, sizeof(*w));
	w->ops = gp_writer_find(format);
	if (!w->ops)
		return gp_err(err, GP_ERR_USAGE, "unknown output format '%s' (valid: %s)", format,
			      gp_writer_names(names, sizeof(names)));
	w->out = out;
	w->cols = cols;
	w->ncols = ncols;
	if (o)
		w->opts = *o;
	return GP_OK;
}

int gp_writer_close(gp_writer *w, gp_error *err)
{
	gp_writer_begin(w);
	w->ops->end(w);
	if (fflush(w->out) != 0 || ferror(w->out))
		return gp_err(err, GP_ERR_IO, "write failure on output");
	return GP_OK;
}

int gp_column_find(const struct gp_column *cols, int n, const char *name)
{
	size_t len = strlen(name);

	for (int c = 0; c < n; c++)
		if (strncmp(cols[c].key, name, len) == 0 &&
		    (!cols[c].key[len] || !strcmp(cols[c].key + len, "_ns") || !strcmp(cols[c].key + len, "_bytes")))
			return c;
	return -1;
}

int gp_columns_select(const struct gp_column *cols, int ncols, const char *list, int *idx,
		      int max, gp_error *err)
{
	char *copy = gp_xstrdup(list), *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = -1;
		while (*tok == ' ')
			tok++;
		for (int i = 0; i < ncols; i++)
			if (strcmp(cols[i].key, tok) == 0)
				found = i;
		if (found < 0 || n == max) {
			char valid[2048] = "";
			for (int i = 0; i < ncols; i++) {
				strncat(valid, cols[i].key, sizeof(valid) - strlen(valid) - 3);
				if (i + 1 < ncols)
					strcat(valid, ",");
			}
			gp_err(err, GP_ERR_USAGE,
			       found < 0 ? "unknown column '%s' (valid: %s)" : "too many columns at '%s'%.0s",
			       tok, valid);
			free(copy);
			return -1;
		}
		idx[n++] = found;
	}
	free(copy);
	if (n == 0)
		return gp_err(err, GP_ERR_USAGE, "empty column list"), -1;
	return n;
}

const char *gp_column_header(const struct gp_column *c, char *buf, size_t size)
{
	static const char *const units[] = {
		[GP_UNIT_NS] = "ns", [GP_UNIT_BYTES] = "B", [GP_UNIT_PCT] = "%", [GP_UNIT_GBPS] = "GB/s",
		[GP_UNIT_SINCE_START] = "ns",
	};

	if (c->unit == GP_UNIT_NONE || c->unit >= sizeof(units) / sizeof(units[0]))
		return c->header;
	snprintf(buf, size, "%s%s (%s)", c->header, c->unit == GP_UNIT_SINCE_START ? " from trace start" : "",
		 units[c->unit]);
	return buf;
}

const char *gp_cell_human(const struct gp_column *c, const char *v, char *buf, size_t size)
{
	char *end;
	double x;

	if (!v || c->unit == GP_UNIT_NONE)
		return gp_cell_text(c, v);
	x = strtod(v, &end);
	if (end == v || *end || !isfinite(x))
		return v;
	switch (c->unit) {
	case GP_UNIT_PCT:       /* the command's own precision, the sign kept */
		snprintf(buf, size, "%s%%", v);
		return buf;
	case GP_UNIT_GBPS:
		snprintf(buf, size, "%s GB/s", v);
		return buf;
	}
	buf[0] = '-';
	if (c->unit == GP_UNIT_BYTES)
		gp_fmt_bytes(fabs(x), buf + (x < 0), size - 1);
	else
		gp_fmt_duration(fabs(x), buf + (x < 0), size - 1);
	return buf;
}
