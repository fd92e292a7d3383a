/*
** Baseline for bench/kineto.sh: the cheapest possible streaming parse of a
** (possibly gzipped) JSON file: gzread in the same chunk size as the
** Kineto reader, yajl with the same configuration and callbacks that do
** nothing.  gpuprof's read + correlate + report is compared against this.
**
** Build: cc -O2 -o json_parse_baseline json_parse_baseline.c -lyajl -lz
** Usage: json_parse_baseline FILE   (prints the number of JSON values)
*/
#include <stdio.h>
#include <stdlib.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#define CHUNK (256 * 1024)

#include "json_floor_callbacks.h"   /* values, callbacks */

int main(int argc, char **argv)
{
	static unsigned char buf[CHUNK];
	gzFile z;
	yajl_handle h;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: json_parse_baseline FILE\n");
		return 2;
	}
	z = gzopen(argv[1], "rb");
	if (!z) {
		perror(argv[1]);
		return 3;
	}
	gzbuffer(z, CHUNK);
	h = yajl_alloc(&callbacks, NULL, NULL);
	yajl_config(h, yajl_dont_validate_strings, 1);
	while ((n = gzread(z, buf, CHUNK)) > 0)
		if (yajl_parse(h, buf, (size_t)n) != yajl_status_ok)
			break;
	if (n < 0 || yajl_complete_parse(h) != yajl_status_ok) {
		fprintf(stderr, "%s: parse error\n", argv[1]);
		return 4;
	}
	yajl_free(h);
	gzclose(z);
	printf("%llu values\n", values);
	return 0;
}
