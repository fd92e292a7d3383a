/*
** JSON Lines: one object per row, keyed by column key.  Numeric columns
** are written as JSON numbers when the value is one; "na" and "" become
** null, so jq and pandas.read_json(lines=True) get typed data.
*/
#include <stdlib.h>
#include <string.h>

#include "writers/writer.h"

/* True if s is a JSON number (no inf, nan, hex, leading zeros or '+'). */
static bool is_json_number(const char *s)
{
	char *end;

	if (!*s || *s == '+' || *s == '.' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return 0;
	if (s[0] == '-' && (s[1] == '.' || !s[1] || (s[1] == '0' && s[2] >= '0' && s[2] <= '9')))
		return 0;
	strtod(s, &end);
	if (*end)
		return 0;
	/* strtod accepts inf, nan and hex, which JSON does not */
	for (; *s; s++)
		if (!strchr("0123456789-+.eE", *s))
			return 0;
	return 1;
}

/* Writes s as a JSON string; html: also escapes what would end or change
** an HTML <script> element holding the JSON ('<', '>', '&') and the line
** separators U+2028/U+2029 that older JavaScript parsers reject. */
static void json_string(FILE *out, const char *s, bool html)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&')))
			fprintf(out, "\\u%04x", c);
		else if (html && c == 0xe2 && (unsigned char)s[1] == 0x80 &&
			 ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) {
			fputs((unsigned char)s[2] == 0xa8 ? "\\u2028" : "\\u2029", out);
			s += 2;
		} else
			fputc(c, out);
	}
	fputc('"', out);
}

void gp_json_string(FILE *out, const char *s)
{
	json_string(out, s, false);
}

void gp_json_string_html(FILE *out, const char *s)
{
	json_string(out, s, true);
}

static void json_row(gp_writer *w, const char *const *vals)
{
	fputc('{', w->out);
	for (int i = 0; i < w->ncols; i++) {
		const char *v = vals[i];
		if (i)
			fputc(',', w->out);
		gp_json_string(w->out, w->cols[i].key);
		fputc(':', w->out);
		if (!v)
			fputs("null", w->out);
		else if (w->cols[i].numeric && is_json_number(v))
			fputs(v, w->out);
		else
			gp_json_string(w->out, v);
	}
	fputs("}\n", w->out);
}

static void nothing(gp_writer *w)
{
}

const struct gp_writer_ops gp_writer_json = {"json", nothing, json_row, nothing};
