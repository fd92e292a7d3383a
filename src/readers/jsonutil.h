/*
** What the streaming JSON readers (Kineto, rocprofv3) share: numbers as
** integers (yajl hands numbers over as raw text, so ids above INT64_MAX
** convert exactly, without going through a double) and yajl's errors as
** messages.
**
** Ownership: the caller owns the text, the buffers and the handle.
*/
#ifndef GP_JSONNUM_H
#define GP_JSONNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "util/error.h"

/* Parse raw JSON number text s[0..n) (also "0x..." hex, as some
** profilers write ids and addresses in strings) into *out; false for text
** that is not one in range.  A fraction or exponent is truncated through
** strtod. */
bool gp_json_u64(const char *s, size_t n, uint64_t *out);
bool gp_json_i64(const char *s, size_t n, int64_t *out);

/* yajl's description of the error that stopped h, on one line (its
** newlines as spaces, no trailing space), into buf (size bytes). */
void gp_json_yajl_error(yajl_handle h, char *buf, size_t size);

/* Adds " (byte offset N)" to err's message: where in the input the
** callback that set it (and stopped the parse) was.  Returns the status. */
int gp_json_err_at(gp_error *err, uint64_t offset);

#endif
