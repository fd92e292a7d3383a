/*
** Fuzz target: nvprof SQLite databases through the reader, correlation and
** the op model.  Seeds: tests/fuzz/corpus/nvprof/ (made by
** tests/fuzz/make-nvprof-corpus.sh).
*/
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_file(data, size, NULL, NULL);
	return 0;
}
