/*
** Input readers.  Each input format is one file in src/readers/ exporting
** one `const struct gp_reader`, listed in registry.c.  The loader asks every
** reader how well it fits a file (a weight from 0 to 1, as Babeltrace's
** support-info query does), by content, never by file name, and runs the
** best one.
**
** Ownership: a reader fills the caller's gp_trace; on failure it may leave
** partial records there, which the caller frees with the trace.
*/
#ifndef GP_READER_H
#define GP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "model/trace.h"
#include "model/window.h"

/* Progress callback: done/total in any unit (bytes, rows); total 0 when
** unknown.  May be NULL. */
typedef void (*gp_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* The capture traces to read with a trace (src/readers/captures.h).  All
** zero: those found in a capture_traces/ directory beside it. */
struct gp_capture_opts {
	const char *const *paths;   /* files and directories (--capture), in order */
	size_t n;
	bool none;                  /* read none, not even those found beside it */
};

/* How to load.  All zero (or a NULL pointer) gives the defaults.  Readers
** never read the environment; the CLI fills these from it. */
struct gp_load_opts {
	gp_progress_fn progress;
	void *progress_ctx;
	/* Threads a reader may use (Kineto: parts of a large plain JSON file
	** parsed at once, a .gz inflated beside the parse), and the passes
	** after it (gp_trace.work_threads: the final sorts); 1 = one thread,
	** 0 = one per online CPU. */
	int threads;
	/* Plain Kineto files of at least this many bytes are parsed in parts;
	** 0 = the default, 32 MiB. */
	uint64_t parallel_min_bytes;
	/* A window read of a gzip Kineto file keeps the inflated bytes of its
	** pre-scan for the parse when they are at most this many (inflated
	** once instead of twice); 0 = the default, 64 MiB (docs/window.md: what
	** keeping saves is small, what it costs is the inflated size). */
	uint64_t gzip_keep_bytes;
	/* The window the caller will cut the trace to (gp_window_apply):
	** a reader that can, keeps only records overlapping its read window
	** (gp_window_read_span; for iterations, of the span of their ranges,
	** found by a pre-scan), and fails with GP_ERR_USAGE when the file has
	** none of the iterations.  Readers that cannot read everything. */
	struct gp_window window;
	/* The graph-capture traces read with the trace (gp_trace_load). */
	struct gp_capture_opts captures;
};

/* What the loader knows about a file when asking readers to rate it. */
struct gp_probe_input {
	const char *path;
	const unsigned char *head;   /* first bytes of the file (gunzipped if gzip) */
	size_t head_len;
	int gzip;                    /* the file itself is gzip-compressed */
};

struct gp_reader {
	const char *name;            /* "nsys", "nvprof", "kineto", "gpuprof-rec" */
	const char *description;
	/* 0 = cannot read this, 1 = certainly mine.  Must not fail loudly. */
	double (*probe)(const struct gp_probe_input *in);
	/* Fills t; returns GP_OK or a status with err set ("file: what: where"). */
	int (*load)(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err);
};

extern const struct gp_reader *const gp_readers[];   /* NULL-terminated */

/* The reader that fits path best (by content), or NULL with err set:
** GP_ERR_IO when the file cannot be read, GP_ERR_FORMAT when it is not a
** regular file, empty, or no reader recognises it. */
const struct gp_reader *gp_trace_probe(const char *path, gp_error *err);

/* Whether path is a file that is not a trace, to skip among a directory's
** entries: no reader recognises it, or the best reader only guessed (a
** JSON object without a trace's keys in its first 4 KB) and reading it
** says it is none (GP_ERR_FORMAT: a config file, a JSON list of numbers).
** Then err says why.  A damaged trace, an unreadable file or one a reader
** is sure of is not foreign (its load reports it).  Costs a probe, plus a
** whole read only after a guess. */
bool gp_trace_foreign(const char *path, gp_error *err);

/* Reads path with the best-fitting reader, then gp_trace_finish(), then
** the capture traces o->captures says (gp_captures_load).  Fails with
** GP_ERR_IO when the file (or a capture path named) cannot be read,
** GP_ERR_FORMAT when no reader recognises it. */
int gp_trace_load(const char *path, gp_trace *t, const struct gp_load_opts *o, gp_error *err);

#endif
