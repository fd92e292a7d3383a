/*
** Whole-trace outputs.  A row writer (writer.h) gets one row at a time; a
** sink gets the whole analysed trace at once, for outputs that need all of
** it: the advise report, the Perfetto/Chrome trace (perfetto.c), the
** flame-graph stacks (folded.c), the HTML report (html.c) and the HTML
** comparison of two runs (html_diff.c).  A sink only formats: it reads the
** results of the analysis runner (struct gp_analysis, analysis/analysis.h)
** that its command ran with the GP_NEED_* bits the sink documents.  Its own
** settings (-n, the charting library, a progress callback) come when it is
** opened; what one trace of an output of several is (its rank, its clock
** offset) comes with that trace's write.  A new whole-trace output is one
** sink file in src/writers/ listed in sink.c's registry, plus the
** subcommand that runs the analysis and hands it over.
**
** Ownership: a gp_sink_input only points to what the command owns (the
** path, the analysis, a page's parts); they outlive the write.  The sink
** copies its options and owns its state (priv) until close, across the
** traces of an output of several (gp_sink_write).
*/
#ifndef GP_SINK_H
#define GP_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "util/error.h"
#include "model/trace.h"

struct gp_analysis;
struct gp_html_job;
struct gp_diff_page;
struct gp_rank_id;
struct gp_optable;

/* A sink's own settings, for every write of its output. */
struct gp_sink_opts {
	size_t top;             /* at most this many items (-n); SIZE_MAX = all */
	const char *script;     /* html, html-diff: the charting library to inline (its text) */
	size_t script_len;
	/* Called now and then by a long write: done of total records (total 0
	** = unknown), for the CLI's progress line; NULL = none. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* A sink that writes a file itself (sqlite: a database) writes path;
	** out is then not used.  NULL: none given. */
	const char *path;
	/* When not NULL, the sink says there what it wrote, in one line
	** ("3 ranks, 120 kernels, ... in 15 tables"), for the command to
	** print; the command owns the buffer. */
	char *note;
	size_t note_size;
};

/* What one write formats. */
struct gp_sink_input {
	const char *path;                   /* the input as named on the command line, NULL = none */
	const struct gp_analysis *an;       /* the analysed trace: the runner's results */
	const struct gp_html_job *job;      /* html: a page over several ranks' parts
					** (writers/html.h); then an is NULL */
	const struct gp_diff_page *diff;    /* html-diff: the comparison of two runs (html_diff.h) */
	/* Several traces into one output (gp_sink_write): this trace's rank by
	** the shared rule (docs/ranks.md), for the sink to show; NULL: none. */
	const struct gp_rank_id *rank;
	/* Added to every time the sink writes (export --align-clocks: the
	** rank's clock offset); 0: the trace's own clock. */
	gp_ns clock_offset;
	/* sqlite: the ops table (analysis/optable.h, by name) the command
	** built; NULL: none. */
	const struct gp_optable *optable;
};

/* The buckets of the perfetto sink's counter tracks over the window:
** enough to see phases, few enough that a million-kernel trace adds
** little to the file (the export command asks the analysis runner for
** the device timeline and the queue depth series in as many). */
#define GP_PERFETTO_BUCKETS 2000

typedef struct gp_sink gp_sink;

struct gp_sink_ops {
	const char *name;
	const char *help;       /* one line for --help */
	/* Sets up state; writes nothing.  GP_OK or an error.  NULL: no state. */
	int (*open)(gp_sink *s, gp_error *err);
	/* Writes the whole output for in; GP_OK or an error (GP_ERR_USAGE when
	** a result it needs was not computed). */
	int (*write)(gp_sink *s, const struct gp_sink_input *in, gp_error *err);
	/* Frees the state (open succeeded).  NULL: no state. */
	void (*close)(gp_sink *s);
	/* Several traces into one output: write was called once per trace
	** (gp_sink_write, s->many set); writes what follows the last one.
	** GP_OK or an error.  NULL: the sink takes one trace only. */
	int (*end)(gp_sink *s, gp_error *err);
};

struct gp_sink {
	const struct gp_sink_ops *ops;
	FILE *out;
	struct gp_sink_opts opts;
	void *priv;             /* the sink's state */
	bool many;              /* one of several traces (gp_sink_write) */
};

/* The sink called name, or NULL. */
const struct gp_sink_ops *gp_sink_find(const char *name);

/* The registered sinks, NULL-terminated. */
extern const struct gp_sink_ops *const gp_sinks[];

/* Opens sink name on out with its settings o (NULL: all items, no
** library, no progress); writes nothing, so a command opens its sink
** before it loads the input.  Fails with GP_ERR_USAGE for an unknown name. */
int gp_sink_open(gp_sink *s, const char *name, FILE *out, const struct gp_sink_opts *o, gp_error *err);

/* Writes in's output, then closes the sink and flushes out: GP_ERR_IO if a
** write to out failed, or the sink's own error. */
int gp_sink_write_close(gp_sink *s, const struct gp_sink_input *in, gp_error *err);

/* Writes in's part of one output of several traces, a trace at a time so
** that only one is in memory: call it once per trace, then
** gp_sink_end_close.  GP_ERR_USAGE when the sink takes one trace only,
** else the sink's error; the sink stays open (gp_sink_discard it after an
** error). */
int gp_sink_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err);

/* Ends an output of several traces, closes the sink and flushes out:
** GP_ERR_IO if a write to out failed, or the sink's own error. */
int gp_sink_end_close(gp_sink *s, gp_error *err);

/* Closes an opened sink without writing (the input failed to load). */
void gp_sink_discard(gp_sink *s);

#endif
