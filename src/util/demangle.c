/*
** Demangling and short kernel names; see demangle.h.
*/
#include <libiberty/demangle.h>
#include <stdbool.h>
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

/* Operator spellings after "operator", longest first, so that
** "operator<<" is not read as "operator<" followed by a template list. */
static const char *const operator_tokens[] = {
	"()", "[]", "->*", "<<=", ">>=", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "+", "-", "*", "/", "%",
	"^", "&", "|", "~", "!", "=", "<", ">", ",",
};

/* Length of the operator spelling at s (after "operator"), 0 if none. */
static size_t operator_token(const char *s)
{
	for (size_t i = 0; i < sizeof(operator_tokens) / sizeof(operator_tokens[0]); i++) {
		size_t n = strlen(operator_tokens[i]);
		if (strncmp(s, operator_tokens[i], n) == 0)
			return n;
	}
	return 0;
}

/* True if [start, end) is the word w. */
static bool is_word(const char *start, const char *end, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(end - start) == n && memcmp(start, w, n) == 0;
}

char *gp_kernel_short_name(const char *demangled, char *buf, size_t size)
{
	const char *comp = demangled, *comp_end = NULL, *s;
	char open[64];          /* the open brackets, innermost last */
	size_t depth = 0;

	if (size == 0)
		return buf;
	/* One pass at bracket depth 0: a space ends a return type or
	** qualifier ("void", "std::enable_if<...>::type"), "::" starts the
	** next component of the qualified name, '<' opens its template
	** arguments and '(' its parameter list, where the name is complete.
	** Inside parentheses '<' and '>' are comparisons ("enable_if<((8)>(0))>"),
	** not brackets.  A name the profiler cut mid-template just ends at a
	** greater depth. */
	for (s = demangled; *s; s++) {
		char top = depth ? open[depth <= sizeof(open) ? depth - 1 : sizeof(open) - 1] : 0;
		if (depth == 0 && s == comp && strncmp(s, "(anonymous namespace)", 21) == 0) {
			s += 20;
			continue;
		}
		if (depth == 0 && s == comp && strncmp(s, "<unnamed>", 9) == 0) {
			s += 8;
			continue;
		}
		if (depth == 0 && !comp_end && is_word(comp, s, "operator")) {
			size_t n = operator_token(s);
			if (n) {
				s += n - 1;
				continue;
			}
		}
		if ((*s == '<' || *s == '>') && top == '(')
			continue;
		switch (*s) {
		case '<': case '(': case '[': case '{':
			if (depth == 0) {
				if (!comp_end)
					comp_end = s;
				if (*s == '(' && comp_end != comp && !is_word(comp, comp_end, "decltype"))
					goto done;
			}
			if (depth < sizeof(open))
				open[depth] = *s;
			depth++;
			break;
		case '>': case ')': case ']': case '}':
			if (depth > 0)
				depth--;
			break;
		case ' ':
			if (depth == 0 && s[1] == '<' && !comp_end) {
				comp_end = s;   /* "operator<< <int>" */
			} else if (depth == 0 && s[1] && s[1] != '<') {
				comp = s + 1;
				comp_end = NULL;
			}
			break;
		case ':':
			if (depth == 0 && s[1] == ':') {
				comp = s + 2;
				comp_end = NULL;
				s++;
			}
			break;
		}
	}
done:
	if (!comp_end)
		comp_end = s;
	size_t n = (size_t)(comp_end - comp);
	if (n == 0) {             /* nothing name-like: keep the text */
		comp = demangled;
		n = strlen(demangled);
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, comp, n);
	buf[n] = '\0';
	return buf;
}
