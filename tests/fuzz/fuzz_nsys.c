/*
** Fuzz target: the Nsight Systems reader, then correlation and the op model
** on what it loaded.  Seeds: corpus/nsys/, made by
** tests/fuzz/make-corpus-nsys.sh.
*/
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_file(data, size, NULL, NULL);
	return 0;
}
