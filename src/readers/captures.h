/*
** Capture traces: the profiles a serving framework records while it
** captures its CUDA/HIP graphs, read together with the trace that replays
** them.  vLLM writes capture_traces/graph_capture_rank_R.TS.pt.trace.json.gz
** and an execution_details.json ([{"file", "batch_size", "mode"}]) beside
** its trace; SGLang capture_traces/bs_B_rankR.json.gz.  In them every
** launch between *StreamBeginCapture and *StreamEndCapture sits under the
** ops, Python frames and modules that made it; src/analysis/attr_graph.c
** matches the replayed kernels to those launches (docs/correlation.md).
**
** Ownership: gp_captures_load() adds to t->captures one gp_capture per
** capture trace read, each owning its loaded trace (freed with t).
*/
#ifndef GP_CAPTURES_H
#define GP_CAPTURES_H

#include "util/error.h"
#include "model/trace.h"
#include "readers/reader.h"

/* Reads the capture traces of the trace t loaded from path: the files and
** directories o names (--capture), else, for a PyTorch profiler trace, the
** capture_traces/ directory beside path when there is one; none with
** o->none.  A directory gives its
** trace files by name; when some are of t's rank (distributedInfo, or the
** rank in the file name), only those.  What cannot be read (not a trace,
** damaged) is skipped with a warning on t: a capture trace only adds
** attribution, so the replay trace stays usable without it.  Fails
** (GP_ERR_IO) only when a path o names does not exist or cannot be listed. */
int gp_captures_load(gp_trace *t, const char *path, const struct gp_capture_opts *o, gp_error *err);

#endif
