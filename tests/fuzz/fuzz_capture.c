/*
** Fuzz target: capture traces (src/readers/captures.c) and the matching of
** replayed graphs to them (src/analysis/graph_match.c).  The input is a
** capture trace; it is read with a fixed replay trace (a graph of two
** kernels on two streams and a copy, replayed twice, on ROCm's names) as
** `--capture FILE` reads it, then correlated, cut and modelled as a command
** does.  Any input must end in GP_OK or a clean error, never a crash, leak
** or sanitizer report.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char replay[] =
	"{\"schemaVersion\": 1, \"baseTimeNanoseconds\": 1700000000000000000, \"traceEvents\": [\n"
	" {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 5, \"tid\": 5,"
	" \"ts\": 100.0, \"dur\": 900.0, \"args\": {\"External id\": 1}},\n"
	" {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"hipGraphLaunch\", \"pid\": 5, \"tid\": 5,"
	" \"ts\": 300.0, \"dur\": 20.0, \"args\": {\"correlation\": 20}},\n"
	" {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_b\", \"pid\": 0, \"tid\": 8, \"ts\": 400.0,"
	" \"dur\": 10.0, \"args\": {\"device\": 0, \"stream\": 8, \"correlation\": 20}},\n"
	" {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_a\", \"pid\": 0, \"tid\": 7, \"ts\": 401.0,"
	" \"dur\": 10.0, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 20}},\n"
	" {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoD (Device -> Device)\", \"pid\": 0,"
	" \"tid\": 7, \"ts\": 412.0, \"dur\": 3.0, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 20,"
	" \"bytes\": 64}},\n"
	" {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"hipGraphLaunch\", \"pid\": 5, \"tid\": 5,"
	" \"ts\": 500.0, \"dur\": 20.0, \"args\": {\"correlation\": 21}},\n"
	" {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_a\", \"pid\": 0, \"tid\": 7, \"ts\": 600.0,"
	" \"dur\": 10.0, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 21}},\n"
	" {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k_b\", \"pid\": 0, \"tid\": 8, \"ts\": 601.0,"
	" \"dur\": 10.0, \"args\": {\"device\": 0, \"stream\": 8, \"correlation\": 21}}\n"
	"]}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/gpuprof-fuzz-capture-XXXXXX";
	int fd = mkstemp(path);
	const char *paths[1] = {path};
	struct gp_load_opts o = {.threads = 1, .captures = {paths, 1, false}};

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	fuzz_load_file((const uint8_t *)replay, sizeof(replay) - 1, &o, NULL);
	unlink(path);
	return 0;
}
