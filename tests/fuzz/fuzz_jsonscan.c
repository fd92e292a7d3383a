/*
** Fuzz target: the Kineto reader's own JSON tokenizer (readers/jsonscan.c)
** against yajl, configured as the readers configure it.  The input's
** first byte picks a chunk size (1 to 256 bytes, so tokens are cut at
** every place), the rest is the document.  Each side folds every callback
** (kind and bytes) into a hash; the tokenizer must either give up or read
** the document as yajl does: valid for yajl too, the same calls.  A
** difference aborts.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "readers/jsonscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fold {
	uint64_t h, calls;
};

static int fold(void *ctx, char kind, const void *s, size_t n)
{
	struct fold *f = ctx;
	const unsigned char *b = s;

	f->h = (f->h ^ (unsigned char)kind) * 0x100000001b3ULL;
	for (size_t i = 0; i < n; i++)
		f->h = (f->h ^ b[i]) * 0x100000001b3ULL;
	f->h = (f->h ^ n) * 0x100000001b3ULL;
	f->calls++;
	return 1;
}

static int on_null(void *ctx) { return fold(ctx, 'z', "", 0); }
static int on_bool(void *ctx, int b) { return fold(ctx, 'b', b ? "1" : "0", 1); }
static int on_number(void *ctx, const char *s, size_t n) { return fold(ctx, 'n', s, n); }
static int on_string(void *ctx, const unsigned char *s, size_t n) { return fold(ctx, 's', s, n); }
static int on_start_map(void *ctx) { return fold(ctx, '{', "", 0); }
static int on_key(void *ctx, const unsigned char *s, size_t n) { return fold(ctx, 'k', s, n); }
static int on_end_map(void *ctx) { return fold(ctx, '}', "", 0); }
static int on_start_array(void *ctx) { return fold(ctx, '[', "", 0); }
static int on_end_array(void *ctx) { return fold(ctx, ']', "", 0); }

static const yajl_callbacks callbacks = {
	.yajl_null = on_null, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_end_map, .yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold y = {0xcbf29ce484222325ULL, 0}, t = y;
	size_t chunk, n;
	const char *doc;

	if (size == 0)
		return 0;
	chunk = (size_t)data[0] + 1;
	doc = (const char *)data + 1;
	n = size - 1;

	yajl_handle h = yajl_alloc(&callbacks, NULL, &y);
	yajl_config(h, yajl_dont_validate_strings, 1);
	int yok = yajl_parse(h, (const unsigned char *)doc, n) == yajl_status_ok &&
		  yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);

	gp_jscan *j = gp_jscan_alloc(&callbacks, &t);
	int tok = 1;
	for (size_t at = 0; tok && at < n; at += chunk) {
		size_t c = n - at < chunk ? n - at : chunk;
		/* a copy of its own: a read past the chunk is caught by ASan */
		char *piece = malloc(c);
		memcpy(piece, doc + at, c);
		tok = gp_jscan_parse(j, piece, c);
		free(piece);
	}
	tok = tok && gp_jscan_complete(j);
	gp_jscan_free(j);

	if (tok && (!yok || t.h != y.h || t.calls != y.calls))
		abort();
	return 0;
}
