/*
** The rocprofv3 readers' entry points beyond the gp_reader interface:
** parsing from memory, for the fuzz targets and unit tests.  docs/trace-model.md
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

/* Parses one rocprofv3 CSV document held in data[0..len) (any of the
** files of a CSV run: a kernel trace, an API trace, a memory copy or
** allocation trace, agent_info; its kind by its header) into t, as the CSV
** reader reads each file of a run (rocprof_csv.c).  Returns GP_OK, or
** GP_ERR_FORMAT (no rocprofv3 CSV header) / GP_ERR_CORRUPT with err set.
** Does not call gp_trace_finish(). */
int gp_rocprof_csv_load_buffer(const char *name, const void *data, size_t len, gp_trace *t,
			       gp_error *err);

#endif
