/*
** The empty callbacks of the JSON floors (bench/json_parse_baseline.c:
** yajl; bench/json_scan_floor.c: the reader's own tokenizer): each value
** counted, nothing kept, so both floors do the same work beside their
** tokenizer.  Included by one program each; owns nothing.
*/
#ifndef BENCH_JSON_FLOOR_CALLBACKS_H
#define BENCH_JSON_FLOOR_CALLBACKS_H

#include <stddef.h>
#include <yajl/yajl_parse.h>

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

#endif
