/*
** Fuzz target: the Nsight Systems reader.  The input bytes are written to a
** temporary file (the reader opens SQLite files by path) and loaded through
** the normal loader, so probing is exercised too.  Seeds: corpus/nsys/,
** made by tests/fuzz/make-corpus-nsys.sh.
*/
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "readers/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	gp_trace t;
	gp_error err;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/gp_fuzz_nsys_%ld.sqlite", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	fclose(f);
	gp_trace_init(&t);
	gp_trace_load(path, &t, NULL, &err);
	gp_trace_free(&t);
	unlink(path);
	return 0;
}
