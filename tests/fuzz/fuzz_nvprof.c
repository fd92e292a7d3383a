/*
** Fuzz target: nvprof SQLite databases through the reader, correlation and
** the op model.  SQLite needs a file, so each input is written to a
** temporary file first.  Seeds: tests/fuzz/corpus/nvprof/ (made by
** tests/fuzz/make-nvprof-corpus.sh).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/correlate.h"
#include "ops/ops.h"
#include "readers/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/gpuprof-fuzz-nvprof-XXXXXX";
	struct gp_correlate_opts co = {0};
	gp_error err = {0};
	gp_trace t;
	int fd = mkstemp(path);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	gp_trace_init(&t);
	if (gp_trace_load(path, &t, NULL, &err) == GP_OK &&
	    gp_correlate(&t, &co, &err) == GP_OK)
		free(gp_ops_run(&t));
	gp_trace_free(&t);
	unlink(path);
	return 0;
}
