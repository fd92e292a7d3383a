/*
** What the HTML pages share (the report of `gpuprof html`, html.c; the
** comparison of `gpuprof diff -f html`, html_diff.c): a template's
** "<!--gp:NAME-->" parts filled in order, and the check that inlined text
** cannot end its <script> element.  Trace text goes into a page's JSON
** only through gp_json_string_html (writer.h).
**
** Ownership: a part points to bytes or a writer the page's sink owns; the
** filler keeps nothing.
*/
#ifndef GP_HTML_COMMON_H
#define GP_HTML_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

/* One "<!--gp:NAME-->" of a template: bytes to copy, or (bytes NULL) a
** function that writes the part to out (GP_OK, or the error in err). */
struct gp_html_part {
	const char *name;
	const void *bytes;
	size_t len;
	int (*write)(FILE *out, const void *ctx, gp_error *err);
	const void *ctx;
};

/* Writes template tpl[0..len) to out with each "<!--gp:NAME-->" replaced
** by the part of that name.  Fails with GP_ERR_INTERNAL (the offset) on a
** part no entry names: the template and the sink disagree; or with a
** part writer's error. */
int gp_html_fill(FILE *out, const char *tpl, size_t len, const struct gp_html_part *parts, size_t nparts,
		 gp_error *err);

/* Whether text[0..len) holds "</script" (any case): inlined into a
** <script> element, it would end it. */
bool gp_html_ends_script(const char *text, size_t len);

#endif
