/*
** Fuzz target: nvprof SQLite databases through the reader, correlation and
** the op model, with and without a window (--iters 0:1).  Seeds:
** tests/fuzz/corpus/nvprof/ (made by
** tests/fuzz/make-nvprof-corpus.sh).
*/
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gp_load_opts window = {.window = {.mode = GP_WINDOW_ITERS, .iter_a = 0, .iter_b = 1}};

	fuzz_load_file(data, size, NULL, NULL);
	fuzz_load_file(data, size, &window, NULL);   /* the pre-scan and read window */
	return 0;
}
