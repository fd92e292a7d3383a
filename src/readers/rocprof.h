/*
** The rocprofv3 JSON reader's entry point beyond the gp_reader interface:
** parsing from memory, for the fuzz target and unit tests.  docs/trace-model.md
** ("rocprofv3 mapping") describes the field mapping.
**
** Ownership: like gp_reader.load, this fills the caller's trace, which the
** caller frees (also on failure).
*/
#ifndef GP_ROCPROF_H
#define GP_ROCPROF_H

#include <stddef.h>

#include "util/error.h"
#include "model/trace.h"

/* Parses an uncompressed rocprofv3 JSON document held in data[0..len) into
** t (name is used in messages, as a path would be).  Returns GP_OK, or
** GP_ERR_FORMAT (not a rocprofv3 document) / GP_ERR_CORRUPT (damaged,
** truncated, a field of the wrong type) with err set.  Does not call
** gp_trace_finish(). */
int gp_rocprof_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			   gp_error *err);

#endif
