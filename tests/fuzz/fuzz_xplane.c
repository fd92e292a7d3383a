/*
** Fuzz target: the XPlane reader (src/readers/xplane.c), loaded from a
** file as a command does (probing, the protobuf decode, the host plane's
** attribution ranges, the post-load passes, the correlation, the op model
** and the memory replay).  Any input must end in GP_OK or a clean error,
** never a crash, leak or sanitizer report.  Seeds (tests/fuzz/corpus/xplane/)
** are small files of tests/tools/xplane_mini.py, whole, cut and gzipped.
*/
#include <stddef.h>
#include <stdint.h>

#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_file(data, size, NULL, NULL);
	return 0;
}
