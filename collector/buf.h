/*
** A growable text buffer of recording lines (include/gpuprof/record-format.h)
** for the collector: the decoder and the NVTX hooks append whole lines,
** the writer hands the buffer to write(2) as one chunk.
**
** Ownership: a gpc_buf owns its bytes; gpc_buf_free() releases them.  A
** failed allocation sets .oom and makes later appends no-ops, so callers
** check once per chunk rather than per field.
*/
#ifndef GPC_BUF_H
#define GPC_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpc_buf {
	char *data;
	size_t len, cap;
	uint64_t lines;         /* complete lines appended since the last reset */
	bool oom;
};

/* Appends s as it is (no escaping). */
void gpc_buf_str(struct gpc_buf *b, const char *s);
/* Appends a TAB and v in decimal (the record fields; no printf on the hot
** path: a kernel or NVTX range costs a few of these). */
void gpc_buf_u64(struct gpc_buf *b, uint64_t v);
void gpc_buf_i64(struct gpc_buf *b, int64_t v);
/* Appends a TAB and v as 8 hex digits (colours). */
void gpc_buf_hex32(struct gpc_buf *b, uint32_t v);
/* Appends the printf-formatted text (no escaping); for rare lines. */
void gpc_buf_printf(struct gpc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s (NULL = "") with the format's escapes for \\, TAB, LF, CR. */
void gpc_buf_escaped(struct gpc_buf *b, const char *s);
/* Ends the current line: appends '\n' and counts it. */
void gpc_buf_endline(struct gpc_buf *b);
/* Empties the buffer (keeps its memory) and the line count. */
void gpc_buf_reset(struct gpc_buf *b);
void gpc_buf_free(struct gpc_buf *b);

#endif
