/*
** The HTML pages' templates, style and scripts (share/html/report.html,
** report.css, report.js; diff.html, diff.js), embedded by the Makefile as byte arrays
** (scripts/embed.sh) so the binary writes pages from any directory.
**
** Ownership: static, read-only data of the binary.
*/
#ifndef GP_HTML_ASSETS_H
#define GP_HTML_ASSETS_H

#include <stddef.h>

extern const unsigned char gp_html_template[];
extern const size_t gp_html_template_len;
extern const unsigned char gp_html_style[];
extern const size_t gp_html_style_len;
extern const unsigned char gp_html_script[];
extern const size_t gp_html_script_len;
/* The comparison page of `gpuprof diff -f html` (share/html/diff.html,
** diff.js; the style is the report's). */
extern const unsigned char gp_html_diff_template[];
extern const size_t gp_html_diff_template_len;
extern const unsigned char gp_html_diff_script[];
extern const size_t gp_html_diff_script_len;
/* What both pages' scripts share (share/html/common.js), inlined before
** each page's own script. */
extern const unsigned char gp_html_common_script[];
extern const size_t gp_html_common_script_len;
/* The report's layer views (share/html/layers.js), inlined before its
** script. */
extern const unsigned char gp_html_layers_script[];
extern const size_t gp_html_layers_script_len;

#endif
