/*
** JSON numbers as integers, for the streaming JSON readers (Kineto,
** rocprofv3): yajl hands numbers over as raw text, so ids above INT64_MAX
** convert exactly, without going through a double.
**
** Ownership: pure functions; the caller owns the text and the result.
*/
#ifndef GP_JSONNUM_H
#define GP_JSONNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parse raw JSON number text s[0..n) (also "0x..." hex, as some
** profilers write ids and addresses in strings) into *out; false for text
** that is not one in range.  A fraction or exponent is truncated through
** strtod. */
bool gp_json_u64(const char *s, size_t n, uint64_t *out);
bool gp_json_i64(const char *s, size_t n, int64_t *out);

#endif
