/*
** Demangling and short kernel names; see demangle.h.
*/
#include <libiberty/demangle.h>
#include <string.h>

#include "util/demangle.h"

char *gp_demangle(const char *name)
{
	/* Itanium names start with _Z; libiberty also accepts other schemes
	** (and may misread plain C names), so only hand it _Z names. */
	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES);
}

/* Removes every occurrence of pat from s, in place (Python's
** str.replace(pat, "")). */
static void remove_all(char *s, const char *pat)
{
	size_t plen = strlen(pat);
	char *r = s, *w = s, *hit;

	while ((hit = strstr(r, pat)) != NULL) {
		memmove(w, r, (size_t)(hit - r));
		w += hit - r;
		r = hit + plen;
	}
	memmove(w, r, strlen(r) + 1);
}

char *gp_kernel_short_name(const char *demangled, char *buf, size_t size)
{
	static const char *const drop[] = {
		"void ", "at::", "cuda::", "native::", "(anonymous namespace)::",
	};
	size_t n = strcspn(demangled, "<");

	if (size == 0)
		return buf;
	if (n >= size)
		n = size - 1;
	memcpy(buf, demangled, n);
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		remove_all(buf, drop[i]);
	buf[strcspn(buf, "(")] = '\0';
	return buf;
}
