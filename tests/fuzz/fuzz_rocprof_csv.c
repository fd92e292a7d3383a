/*
** Fuzz target: the rocprofv3 CSV reader, one document of any kind its
** header says (kernel, API, memory copy and allocation traces, agent_info),
** parsed from memory, then correlated and replayed (memory); and the same
** bytes as a file through the loader (probing: a kernel trace's header is
** read as a run of one file).  Any input must end in GP_OK or a clean
** error, never a crash, leak or sanitizer report.
*/
#include <stddef.h>
#include <stdint.h>

#include "analysis/memory.h"
#include "fuzz_file.h"
#include "readers/rocprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_trace t;
	gp_error err = {0};
	struct gp_correlate_opts o = {0};

	gp_trace_init(&t);
	if (gp_rocprof_csv_load_buffer("fuzz.csv", data, size, &t, &err) == GP_OK) {
		struct gp_memory m;
		gp_trace_finish(&t);
		gp_correlate(&t, &o, &err);
		gp_memory_run(&t, &m);
		gp_memory_free(&m);
	}
	gp_trace_free(&t);
	fuzz_load_file(data, size, NULL, NULL);
	return 0;
}
