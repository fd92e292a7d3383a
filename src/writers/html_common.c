/*
** The HTML pages' template filling and <script> safety; see html_common.h.
*/
#include <string.h>
#include <strings.h>

#include "writers/html_common.h"

bool gp_html_ends_script(const char *text, size_t len)
{
	static const char tag[] = "</script";

	for (size_t i = 0; i + sizeof(tag) - 1 <= len; i++)
		if (text[i] == '<' && strncasecmp(text + i, tag, sizeof(tag) - 1) == 0)
			return true;
	return false;
}

int gp_html_fill(FILE *out, const char *tpl, size_t len, const struct gp_html_part *parts, size_t nparts,
		 gp_error *err)
{
	const char *p = tpl, *end = tpl + len;

	while (p < end) {
		const char *m = memmem(p, (size_t)(end - p), "<!--gp:", 7);
		const char *name, *close;
		size_t i, n;
		if (!m) {
			fwrite(p, 1, (size_t)(end - p), out);
			break;
		}
		fwrite(p, 1, (size_t)(m - p), out);
		name = m + 7;
		close = memmem(name, (size_t)(end - name), "-->", 3);
		n = close ? (size_t)(close - name) : 0;
		for (i = 0; i < nparts; i++)
			if (close && strlen(parts[i].name) == n && memcmp(parts[i].name, name, n) == 0)
				break;
		if (i == nparts)
			return gp_err(err, GP_ERR_INTERNAL, "html: unknown template part at offset %zu",
				      (size_t)(m - tpl));
		if (parts[i].bytes)
			fwrite(parts[i].bytes, 1, parts[i].len, out);
		else {
			int rc = parts[i].write(out, parts[i].ctx, err);
			if (rc != GP_OK)
				return rc;
		}
		p = close + 3;
	}
	return GP_OK;
}
