/*
** Demangling and short kernel names; see demangle.h.
*/
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "util/demangle.h"

#define DMGL_FLAGS (DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES)
#define MAX_CUT 160     /* bytes dropped from the end, at most */
#define MAX_CLOSE 24    /* template and name scopes closed, at most */

/* The readable start of a mangled name libiberty rejects (tools cut long
** names, e.g. ROCm's): the longest prefix that demangles once its open
** scopes are closed ('E's) and a void parameter list (and return type)
** added, marked
** " [truncated]": "_ZN7ck_tile6kentryILi64ENS_10GemmKernelIJ" ->
** "void ck_tile::kentry<64, ck_tile::GemmKernel<> >() [truncated]".  At
** most 2 * MAX_CUT * MAX_CLOSE attempts, once per distinct name.  NULL when no
** prefix reads. */
static char *readable_prefix(const char *name)
{
	size_t len = strlen(name);
	char *buf = malloc(len + MAX_CLOSE + 3);

	if (!buf)
		return NULL;
	for (size_t cut = 0; cut <= MAX_CUT && cut + 3 <= len; cut++) {
		size_t n = len - cut;
		memcpy(buf, name, n);
		for (size_t tries = 0; tries <= 2 * MAX_CLOSE + 1; tries++) {
			/* a function template also has a return type: "vv" */
			size_t close = tries / 2;
			memset(buf + n, 'E', close);
			strcpy(buf + n + close, tries % 2 ? "vv" : "v");
			char *d = cplus_demangle(buf, DMGL_FLAGS);
			/* a cut identifier ("10Gemm") swallows the filler, or a
			** cut substitution names "E": such a reading shows "EE",
			** "Ev" or "::E>" and is not the name's */
			if (d && (strstr(d, "EE") || strstr(d, "Ev") || strstr(d, "::E>"))) {
				free(d);
				d = NULL;
			}
			if (d) {
				size_t dl = strlen(d);
				char *out = realloc(d, dl + sizeof(" [truncated]"));
				if (!out) {
					free(d);
					break;
				}
				memcpy(out + dl, " [truncated]", sizeof(" [truncated]"));
				free(buf);
				return out;
			}
		}
	}
	free(buf);
	return NULL;
}

char *gp_demangle(const char *name)
{
	/* Itanium names start with _Z; libiberty also accepts other schemes
	** (and may misread plain C names), so only hand it _Z names. */
	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	char *d = cplus_demangle(name, DMGL_FLAGS);
	return d ? d : readable_prefix(name);
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
