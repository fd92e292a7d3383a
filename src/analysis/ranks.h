/*
** Which rank of a distributed job a trace file is, and the order of a set
** of rank files.  The rule (docs/ranks.md): the trace's metadata first
** (Kineto distributedInfo "rank" and "world_size"; the same keys in a
** gpuprof recording, which libgpuprof takes from the environment), else the
** file name ("rank-3", "rank_3", "rank3", "..._3.json"), else the file's
** position in the argument list.  Two files claiming one rank, or ranks
** missing below the world size, are noted, never fatal.
**
** Ownership: everything works on the caller's arrays; nothing allocates
** but gp_ranks_order(), whose notes the caller frees.
*/
#ifndef GP_RANKS_H
#define GP_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

enum gp_rank_source { GP_RANK_FROM_ORDER, GP_RANK_FROM_NAME, GP_RANK_FROM_META };

struct gp_rank_id {
	int32_t rank;           /* -1 until known */
	int32_t world;          /* world size, -1 when the trace does not say */
	uint8_t source;         /* enum gp_rank_source */
};

/* The rank and world size that t's metadata give (either -1 when absent
** or not a number >= 0); source GP_RANK_FROM_META when the rank is known. */
struct gp_rank_id gp_rank_from_meta(const gp_trace *t);

/* The rank a file name gives: the last "rank" followed by an optional '-'
** or '_' and digits in the base name, else digits between '_' and '.'
** ("trace_3.json"); -1 when neither. */
int32_t gp_rank_from_name(const char *path);

/* Completes ids[0..n) (in argument order: a file without a rank from its
** metadata takes the one of its name, else its position i) and writes into
** order[0..n) the file indices sorted by rank, ties by position.  Returns
** a malloc'd text of notes (lines ending in '\n': duplicate ranks, ranks
** missing below the largest world size, files ranked by position) or NULL
** when there is nothing to say. */
char *gp_ranks_order(struct gp_rank_id *ids, const char *const *paths, size_t n, size_t *order);

const char *gp_rank_source_name(int source);   /* "metadata", "file name", "order" */

#endif
