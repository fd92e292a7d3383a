/*
** Reading a gzip-compressed (or plain) file in chunks, for streaming
** parsers: the Kineto JSON reader, and any other reader of large text
** files.  The inflating may run on a second thread that fills a ring of
** chunk buffers while the caller parses the previous ones, so the wall
** time is about the slower of the two instead of their sum.
**
**     gp_inflate *in = gp_inflate_open(path, 256 * 1024, true, err);
**     while ((n = gp_inflate_read(in, &data, &why)) > 0)
**             parse(data, n);
**     gp_inflate_close(in);   // also stops the thread early, after an error
**
** Ownership: a gp_inflate owns its zlib stream, its thread and its
** buffers, all released by gp_inflate_close(); the chunk and message that
** gp_inflate_read() hands out stay valid until the next read or the close.
*/
#ifndef GP_INFLATE_H
#define GP_INFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct gp_inflate gp_inflate;

/* Opens path (gzip-compressed, or plain, which passes through unchanged)
** for reading in chunks of chunk bytes, inflated on a second thread when
** threaded is set and a thread can be started (else on the caller's).
** Returns NULL with err set to GP_ERR_IO ("PATH: cannot open: why") when
** the file cannot be opened. */
gp_inflate *gp_inflate_open(const char *path, size_t chunk, bool threaded, gp_error *err);

/* The next chunk: returns its size (at most chunk bytes) with *data
** pointing at it, 0 at the end of the data, or -1 for a truncated or
** damaged gzip stream with *why set to zlib's message (which starts with
** the path). */
long gp_inflate_read(gp_inflate *in, const char **data, const char **why);

/* why, the message gp_inflate_read() gave for path, without the "PATH: "
** zlib starts it with (a reader's message names the file already). */
const char *gp_inflate_cause(const char *why, const char *path);

/* How far into the file (compressed bytes, read ahead included) the
** chunk gp_inflate_read() last handed out lies: for progress against the
** file's size. */
uint64_t gp_inflate_position(const gp_inflate *in);

/* Stops the inflating thread, if any, and frees everything. */
void gp_inflate_close(gp_inflate *in);

#endif
