/*
** Reader: PyTorch profiler (Kineto) JSON trace.  (Stub: not implemented yet.)
*/
#include "readers/reader.h"

static double probe(const struct gp_probe_input *in)
{
	return 0;
}

static int load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err)
{
	return gp_err(err, GP_ERR_INTERNAL, "%s: the kineto reader is not implemented", path);
}

const struct gp_reader gp_reader_kineto = {
	.name = "kineto",
	.description = "PyTorch profiler (Kineto) JSON trace",
	.probe = probe,
	.load = load,
};
