/*
** The sink registry and dispatch; see sink.h.
*/
#include <string.h>

#include "writers/sink.h"

extern const struct gp_sink_ops gp_sink_advise_text;
extern const struct gp_sink_ops gp_sink_perfetto;
extern const struct gp_sink_ops gp_sink_folded;
extern const struct gp_sink_ops gp_sink_folded_flops;
extern const struct gp_sink_ops gp_sink_folded_idle;
extern const struct gp_sink_ops gp_sink_html;
extern const struct gp_sink_ops gp_sink_html_diff;
extern const struct gp_sink_ops gp_sink_sqlite;

const struct gp_sink_ops *const gp_sinks[] = {
	&gp_sink_advise_text, &gp_sink_perfetto, &gp_sink_folded, &gp_sink_folded_flops,
	&gp_sink_folded_idle, &gp_sink_html, &gp_sink_html_diff, &gp_sink_sqlite, NULL,
};

const struct gp_sink_ops *gp_sink_find(const char *name)
{
	for (int i = 0; gp_sinks[i]; i++)
		if (strcmp(gp_sinks[i]->name, name) == 0)
			return gp_sinks[i];
	return NULL;
}

int gp_sink_open(gp_sink *s, const char *name, FILE *out, const struct gp_sink_opts *o, gp_error *err)
{
	memset(s, 0, sizeof(*s));
	s->ops = gp_sink_find(name);
	if (!s->ops)
		return gp_err(err, GP_ERR_USAGE, "unknown output '%s'", name);
	s->out = out;
	s->opts.top = SIZE_MAX;
	if (o)
		s->opts = *o;
	return s->ops->open ? s->ops->open(s, err) : GP_OK;
}

/* Closes s after its last write (rc), flushing its output. */
static int close_flush(gp_sink *s, int rc, gp_error *err)
{
	gp_sink_discard(s);
	if (rc || !s->out)   /* a sink that writes its own file has no out */
		return rc;
	if (fflush(s->out) != 0 || ferror(s->out))
		return gp_err(err, GP_ERR_IO, "write failure on output");
	return GP_OK;
}

int gp_sink_write_close(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	return close_flush(s, s->ops->write(s, in, err), err);
}

int gp_sink_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	if (!s->ops->end)
		return gp_err(err, GP_ERR_USAGE, "%s takes one trace only", s->ops->name);
	s->many = true;
	return s->ops->write(s, in, err);
}

int gp_sink_end_close(gp_sink *s, gp_error *err)
{
	return close_flush(s, s->ops->end(s, err), err);
}

void gp_sink_discard(gp_sink *s)
{
	if (s->ops->close)
		s->ops->close(s);
	s->priv = NULL;
}
