/*
** Key/value output: aligned "label value" lines for people, or one JSON
** object for tools.  Each entry has a JSON key (an identifier:
** "api_calls_runtime") and a text label ("api calls (runtime)"); either may
** be NULL to leave the entry out of that format, so one sequence of calls
** writes both.  Lists and objects nest in JSON and are flat in text.
**
** Ownership: the kv writes strings as it gets them and keeps none.
*/
#ifndef GP_KV_H
#define GP_KV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

#define GP_KV_MAX_DEPTH 8

typedef struct gp_kv {
	FILE *out;
	bool json;
	int depth;                      /* open objects/lists, the outer one 0 */
	int count[GP_KV_MAX_DEPTH];     /* entries written at each depth */
	bool list[GP_KV_MAX_DEPTH];     /* a JSON array at this depth */
} gp_kv;

/* The kv formats, NULL-terminated: "text", "json". */
extern const char *const gp_kv_formats[];

/* Sets kv up for format (a gp_kv_formats name) on out; writes nothing.
** Fails with GP_ERR_USAGE naming the valid formats. */
int gp_kv_open(gp_kv *kv, const char *format, FILE *out, gp_error *err);

/* Inside a list, JSON writes the value alone: key only needs to be
** non-NULL for the entry to be in the JSON. */

/* A string; NULL val: no text line, JSON null. */
void gp_kv_str(gp_kv *kv, const char *key, const char *label, const char *val);
void gp_kv_u64(gp_kv *kv, const char *key, const char *label, uint64_t val);
void gp_kv_i64(gp_kv *kv, const char *key, const char *label, int64_t val);
/* A percentage: text "12.3%", JSON 12.3. */
void gp_kv_pct(gp_kv *kv, const char *key, const char *label, double pct);

/* Opens a JSON object (list false) or array under key; text writes
** nothing, its entries follow flat.  Ends with gp_kv_end. */
void gp_kv_begin(gp_kv *kv, const char *key, bool list);
void gp_kv_end(gp_kv *kv);

/* Ends the output (JSON's closing brace) and flushes: GP_ERR_IO if a write
** to out failed. */
int gp_kv_close(gp_kv *kv, gp_error *err);

#endif
