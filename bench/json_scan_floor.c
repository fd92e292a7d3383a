/*
** The floor of the Kineto reader's own tokenizer (docs/PERFORMANCE.md, "A
** floor beyond yajl"): src/readers/jsonscan.c, as the reader runs it, with
** callbacks that do nothing, over the same 256 KiB gzread chunks as the
** yajl floor (bench/json_parse_baseline.c), to set beside that one and
** beside simdjson's (bench/simdjson_floor.cpp).  Not part of gpuprof: a
** measurement.
**
** Build (bench/floors.sh does):
**   cc -O2 -Isrc -Iinclude -D_GNU_SOURCE -o json_scan_floor bench/json_scan_floor.c \
**      src/readers/jsonscan.c src/util/alloc.c -lz
** Usage: json_scan_floor FILE   (prints the number of JSON values)
*/
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "readers/jsonscan.h"

#define CHUNK (256 * 1024)

#include "json_floor_callbacks.h"   /* values, callbacks */

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	gzFile z;
	gp_jscan *j;
	int n, ok = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: json_scan_floor FILE\n");
		return 2;
	}
	z = gzopen(argv[1], "rb");
	if (!z) {
		perror(argv[1]);
		return 3;
	}
	gzbuffer(z, CHUNK);
	j = gp_jscan_alloc(&callbacks, NULL);
	while (ok && (n = gzread(z, buf, CHUNK)) > 0)
		ok = gp_jscan_parse(j, buf, (size_t)n);
	if (!ok || n < 0 || !gp_jscan_complete(j)) {
		/* the reader would hand this file to yajl */
		fprintf(stderr, "%s: the tokenizer gave up\n", argv[1]);
		return 4;
	}
	gp_jscan_free(j);
	gzclose(z);
	printf("%llu values\n", values);
	return 0;
}
