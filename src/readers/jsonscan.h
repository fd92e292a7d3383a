/*
** A streaming JSON tokenizer that drives yajl's callbacks, three times
** cheaper than yajl itself on trace JSON (docs/PERFORMANCE.md, "A floor
** beyond yajl"): strings found 16 bytes at a time, no lexer buffer, a
** token cut by the end of a chunk carried into the next.  It reads what
** yajl reads (yajl_dont_validate_strings, nothing else allowed) and gives
** the callbacks the same calls with the same bytes, except where it gives
** up: invalid JSON, a callback that stops, a \u escape of a UTF-16
** surrogate, nesting past 1024.  Then its caller parses the input again
** with yajl, whose messages (and byte offsets) the readers report: errors
** read exactly as before, valid input is read once, fast.
**
** Ownership: a gp_jscan owns its stack and scratch buffers; the callbacks
** and their context are the caller's.  Strings handed to callbacks live
** until the callback returns.
*/
#ifndef GP_JSONSCAN_H
#define GP_JSONSCAN_H

#include <stddef.h>
#include <yajl/yajl_parse.h>

typedef struct gp_jscan gp_jscan;

/* A tokenizer calling cb's functions (those yajl calls; yajl_integer and
** yajl_double unused: numbers go to yajl_number as text) with ctx. */
gp_jscan *gp_jscan_alloc(const yajl_callbacks *cb, void *ctx);

/* Parses the next n bytes of the document.  Returns 1 while all is well,
** 0 once it gave up (see above); after 0 the tokenizer ignores more. */
int gp_jscan_parse(gp_jscan *s, const char *buf, size_t n);

/* The end of the document: 1 when it was one complete JSON value, else 0
** (also when it gave up before). */
int gp_jscan_complete(gp_jscan *s);

void gp_jscan_free(gp_jscan *s);

#endif
