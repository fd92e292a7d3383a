/*
** Shared by the fuzz targets whose reader opens files by path (SQLite
** databases, gpuprof recordings): the input goes to a temporary file, which
** is loaded through the normal loader (so probing runs too), correlated,
** cut to opts' window when it has one, and given to the op model and the
** memory replay, as a command would.  opts (may be NULL: the defaults) are
** the load options, e.g. Kineto's split-and-merge on tiny files, or a
** window (the readers' pre-scans and read windows).
**
** Ownership: everything is created and freed inside fuzz_load_file(); check
** (may be NULL) sees the loaded trace before it is freed.
*/
#ifndef GP_FUZZ_FILE_H
#define GP_FUZZ_FILE_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/correlate.h"
#include "analysis/memory.h"
#include "analysis/window.h"
#include "ops/ops.h"
#include "readers/reader.h"

static inline void fuzz_load_file(const uint8_t *data, size_t size, const struct gp_load_opts *opts,
				  void (*check)(const gp_trace *))
{
	char path[] = "/tmp/gpuprof-fuzz-XXXXXX";
	struct gp_correlate_opts co = {0};
	gp_error err = {0};
	gp_trace t;
	int fd = mkstemp(path);

	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return;
	}
	close(fd);
	gp_trace_init(&t);
	if (gp_trace_load(path, &t, opts, &err) == GP_OK) {
		if (check)
			check(&t);
		gp_ns lo, hi;
		if (gp_correlate(&t, &co, &err) == GP_OK &&
		    (!opts || gp_window_apply(&t, &opts->window, NULL, &lo, &hi, &err) == GP_OK)) {
			struct gp_memory m;
			struct gp_ops ops;
			gp_ops_run(&t, NULL, &ops);
			gp_ops_free(&ops);
			gp_memory_run(&t, &m);
			gp_memory_free(&m);
		}
	}
	gp_trace_free(&t);
	unlink(path);
}

#endif
