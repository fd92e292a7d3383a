/*
** Integer to decimal text without snprintf: reports format several
** integers per kernel, millions of times, and printf's format parsing was
** a visible share of that.  Output is exactly printf's "%lld" / "%llu".
**
** Ownership: the caller owns buf; it needs GP_FMT_INT_SIZE bytes.
*/
#ifndef GP_FMT_H
#define GP_FMT_H

#include <stdint.h>

#define GP_FMT_INT_SIZE 24   /* "-9223372036854775808" + NUL, rounded up */

/* Writes v in decimal into buf, NUL-terminated; returns buf. */
char *gp_fmt_u64(char *buf, uint64_t v);
char *gp_fmt_i64(char *buf, int64_t v);

#endif
