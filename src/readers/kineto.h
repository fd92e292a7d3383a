/*
** The Kineto (PyTorch profiler) JSON reader's entry points beyond the
** gp_reader interface: parsing from memory, for the fuzz target and unit
** tests.  docs/kineto.md describes the field mapping.
**
** Ownership: like gp_reader.load, these fill the caller's trace, which
** the caller frees (also on failure).
*/
#ifndef GP_KINETO_H
#define GP_KINETO_H

#include <stddef.h>

#include "util/error.h"
#include "model/trace.h"

/* Parses an uncompressed Kineto JSON document held in data[0..len) into
** t (name is used in messages, as a path would be).  Returns GP_OK or
** GP_ERR_FORMAT / GP_ERR_CORRUPT with err set.  Does not call
** gp_trace_finish(). */
int gp_kineto_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			  gp_error *err);

#endif
