/*
** Fuzz target: the gpuprof recording reader (through the loader, so probe,
** load and gp_trace_finish all run), then the path computation of
** `gpuprof ranges` relies on parent indexes: check they are sane.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "readers/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-gprec-XXXXXX";
	int fd = mkstemp(path);
	gp_error err = {0};
	gp_trace t;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	gp_trace_init(&t);
	if (gp_trace_load(path, &t, NULL, &err) == GP_OK) {
		for (size_t i = 0; i < t.ranges.n; i++) {
			int32_t p = t.ranges.v[i].parent;
			if (p >= (int32_t)i || t.ranges.v[i].end < t.ranges.v[i].start)
				abort();
		}
	}
	gp_trace_free(&t);
	unlink(path);
	return 0;
}
