/*
** Numbers as text.  Integers without snprintf: reports format several
** integers per kernel, millions of times, and printf's format parsing was
** a visible share of that.  Durations and byte counts for people
** (gp_fmt_duration, gp_fmt_bytes), the one format every table and message
** uses.  Output is exactly printf's "%lld" / "%llu".
** Integer lists ("1,2,3") and tensor shapes ("(8,3,32,32)") are written
** here and nowhere else.
**
** Ownership: the caller owns buf; gp_fmt_u64/i64 need GP_FMT_INT_SIZE
** bytes, the list writers take the size and never write past it.
*/
#ifndef GP_FMT_H
#define GP_FMT_H

#include <stddef.h>
#include <stdint.h>

#define GP_FMT_INT_SIZE 24   /* "-9223372036854775808" + NUL, rounded up */

/* Writes v in decimal into buf, NUL-terminated; returns buf. */
char *gp_fmt_u64(char *buf, uint64_t v);
char *gp_fmt_i64(char *buf, int64_t v);

/* Writes v[0..n) in decimal joined with ',' ("1,2,3"; "" when n is 0).
** snprintf's contract: buf (NULL when size is 0) gets at most size - 1
** characters of the text and a NUL; returns the length of the whole text,
** so a caller can size a buffer with a first call of size 0. */
size_t gp_fmt_i64_list(char *buf, size_t size, const int64_t *v, size_t n);

/* A tensor shape as PyProf prints it, a Python tuple: "(8,3,32,32)",
** "(5,)" for one dimension, "()" for none.  Same contract as
** gp_fmt_i64_list. */
size_t gp_fmt_shape(char *buf, size_t size, const int64_t *dims, size_t ndim);

/* ns as a human duration ("812 ns", "1.234 us", "5.678 ms", "1.234 s")
** into buf, with no more decimals than the clock step noted
** (gp_fmt_note_clock) supports in the unit chosen: at 1000 ns (whole
** microseconds) "58 us", "1.234 ms"; at 10 ns "58.01 us"; returns buf. */
const char *gp_fmt_duration(double ns, char *buf, size_t size);

/* Notes the clock step of a trace the process shows (gp_trace.clock_res,
** ns; 0 or 1: nanoseconds): durations print at the finest step noted, so
** that no trace's digits are hidden (the step of every trace is 1000 ns:
** "58 us"; one nanosecond trace among them: "58.000 us").  Before any is
** noted, nanoseconds.  Safe on any thread (an atomic minimum). */
void gp_fmt_note_clock(int64_t step_ns);

/* A byte count in binary units ("512 B", "1.50 KiB", "19.91 GiB") into
** buf; returns buf. */
const char *gp_fmt_bytes(double bytes, char *buf, size_t size);

#endif
