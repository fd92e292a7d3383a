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

static unsigned long long values;

static int on_null(void *ctx) { values++; return 1; }
static int on_bool(void *ctx, int b) { values++; return 1; }
static int on_number(void *ctx, const char *s, size_t n) { values++; return 1; }
static int on_string(void *ctx, const unsigned char *s, size_t n) { values++; return 1; }
static int on_start_map(void *ctx) { return 1; }
static int on_key(void *ctx, const unsigned char *s, size_t n) { return 1; }
static int on_end_map(void *ctx) { values++; return 1; }
static int on_start_array(void *ctx) { return 1; }
static int on_end_array(void *ctx) { values++; return 1; }

static const yajl_callbacks callbacks = {
	on_null, on_bool, NULL, NULL, on_number, on_string,
	on_start_map, on_key, on_end_map, on_start_array, on_end_array,
};

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
