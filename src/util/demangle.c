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

/* The span [*start, *end) of the kernel function's own name in demangled
** (see gp_kernel_short_name); *end is at its template argument list's '<'
** when it has one. */
static void short_span(const char *demangled, const char **start, const char **end)
{
	const char *comp = demangled, *comp_end = NULL, *s;
	char open[64];          /* the open brackets, innermost last */
	size_t depth = 0;

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
	if (comp_end == comp) {   /* nothing name-like: keep the text */
		comp = demangled;
		comp_end = demangled + strlen(demangled);
	}
	*start = comp;
	*end = comp_end;
}

/* Copies [a, b) into buf (size > 0), cut to size-1 bytes; returns buf. */
static char *copy_span(const char *a, const char *b, char *buf, size_t size)
{
	size_t n = (size_t)(b - a);

	if (n >= size)
		n = size - 1;
	memcpy(buf, a, n);
	buf[n] = '\0';
	return buf;
}

char *gp_kernel_short_name(const char *demangled, char *buf, size_t size)
{
	const char *a, *b;

	if (size == 0)
		return buf;
	short_span(demangled, &a, &b);
	return copy_span(a, b, buf, size);
}

/* The end of the bracketed text that opens at s ('<', '(', '{' or '['):
** just past its closing bracket, or NULL when it never closes (a name the
** profiler cut).  Inside parentheses '<' and '>' are comparisons, not
** brackets. */
static const char *skip_brackets(const char *s)
{
	char open[64];
	size_t depth = 0;

	for (; *s; s++) {
		char top = depth ? open[depth <= sizeof(open) ? depth - 1 : sizeof(open) - 1] : 0;
		if ((*s == '<' || *s == '>') && top == '(')
			continue;
		if (strchr("<({[", *s)) {
			if (depth < sizeof(open))
				open[depth] = *s;
			depth++;
		} else if (strchr(">)}]", *s) && depth && --depth == 0) {
			return s + 1;
		}
	}
	return NULL;
}

/* Whether [a, b) starts with the text w. */
static bool starts(const char *a, const char *b, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(b - a) >= n && memcmp(a, w, n) == 0;
}

/* Whether the identifier [a, b) ends with one of the '|'-separated texts
** of list, or (list starting with '=') is one of them. */
static bool word_in(const char *a, const char *b, const char *list)
{
	bool exact = *list == '=';
	size_t n = (size_t)(b - a);

	for (const char *w = list + exact; *w;) {
		const char *e = strchr(w, '|');
		size_t k = e ? (size_t)(e - w) : strlen(w);
		if (k <= n && memcmp(exact ? a : b - k, w, k) == 0 && (!exact || k == n))
			return true;
		w = e ? e + 1 : w + k;
	}
	return false;
}

/* PyTorch's templates that only carry the operation they run: their own
** template arguments name it ("gpu_kernel_impl<MulFunctor<float>>",
** "BinaryFunctor<float, float, float, MulFunctor<float>>",
** "ReduceOp<float, MeanOps<..>, ..>"). */
#define WRAPPERS "=gpu_kernel_impl|gpu_kernel_impl_nocast|gpu_kernel_with_scalars|gpu_index_kernel|" \
		 "AUnaryFunctor|BUnaryFunctor|BinaryFunctor|UnaryFunctor|ReduceOp|func_wrapper_t"
/* Template arguments that say how, not what: element types, launch
** plumbing, tuning policies and parameter blocks. */
#define PLAIN_TYPES "=Half|BFloat16|half|__half|__nv_bfloat16|bfloat16_t|half_t|float2|half2|" \
		    "complex|Array|array|decltype|__hip_bfloat16|__hip_fp8_e4m3_fnuz|Float8_e4m3fn|OpaqueType|TrivialOffsetCalculator|OffsetCalculator|" \
		    "TensorListMetadata|LoadWithCast|StoreWithCast|LoadWithoutCast|StoreWithoutCast"
#define PLAIN_SUFFIXES "Params|ParamsEx|Policy|policy|Traits|traits|Metadata|Calculator|Config|Problem|State|Batched"
/* PyTorch's foreach functors take the operation as the next argument:
** multi_tensor_apply_kernel<.., BinaryOpScalarFunctor<..>, std::multiplies<float>, ..> */
#define FOREACH_FUNCTORS "OpScalarFunctor|OpListFunctor|OpListAlphaFunctor|OpScalarListFunctor|" \
			 "OpScalarTensorFunctor|OpTensorFunctor|OpFunctor"

static bool op_name(const char *a, const char *b, const char **na, const char **nb, int level);

/* The first argument of the template list [a, b) ('<' .. '>') that names
** an operation (op_name), into [*na, *nb); after a foreach functor the
** operation argument that follows is taken instead when there is one. */
static bool first_op_arg(const char *a, const char *b, const char **na, const char **nb, int level)
{
	const char *arg = a + 1, *s = arg;
	bool found = false;

	while (s < b) {
		if (strchr("<({[", *s)) {
			const char *e = skip_brackets(s);
			s = e && e < b ? e : b;
			continue;
		}
		if (*s == ',' || s == b - 1 || *s == '>') {
			const char *xa, *xb;
			if (op_name(arg, s, &xa, &xb, level + 1)) {
				if (found)   /* the operation after a foreach functor */
					return *na = xa, *nb = xb, true;
				*na = xa;
				*nb = xb;
				if (!word_in(xa, xb, FOREACH_FUNCTORS))
					return true;
				found = true;
			}
			arg = s + 1;
		}
		s++;
	}
	return found;
}

/* The name of the operation template argument [a, b) stands for, into
** [*na, *nb): a class's own name ("MulFunctor", "cutlass_80_..."), the
** function a lambda belongs to ("direct_copy_kernel_cuda" for
** "..::direct_copy_kernel_cuda(..)::{lambda()#2}::operator()() const::
** {lambda(float)#1}"), what a wrapper (WRAPPERS) carries.  False for a
** number, a scalar or pointer type, plumbing (PLAIN_TYPES, PLAIN_SUFFIXES)
** and anything nested deeper than a few wrappers. */
static bool op_name(const char *a, const char *b, const char **na, const char **nb, int level)
{
	const char *owner = NULL, *owner_end = NULL, *s;

	while (a < b && *a == ' ')
		a++;
	while (b > a && b[-1] == ' ')
		b--;
	if (level > 4 || a == b || strchr("(0123456789-", *a) || b[-1] == '*' || b[-1] == '&')
		return false;
	/* a function's return type ("void at::native::gpu_kernel_impl<..>") */
	if (starts(a, b, "void "))
		a += 5;
	/* the components of the qualified name, at bracket depth 0 */
	for (const char *c = a; c < b;) {
		const char *e = c;
		while (e < b && !(e[0] == ':' && e + 1 < b && e[1] == ':')) {
			if (strchr("<({[", *e)) {
				const char *x = skip_brackets(e);
				e = x && x < b ? x : b;
			} else {
				e++;
			}
		}
		bool lambda = starts(c, e, "{lambda") || starts(c, e, "[lambda") || starts(c, e, "{unnamed");
		if (lambda && owner)
			break;          /* the lambda's owner is found */
		if (!lambda && !starts(c, e, "operator") && !starts(c, e, "(anonymous namespace)") &&
		    !starts(c, e, "<unnamed>")) {
			owner = c;
			owner_end = e;
		}
		c = e < b ? e + 2 : b;
	}
	if (!owner)
		return false;
	for (s = owner; s < owner_end && *s != '<' && *s != '(' && *s != ' '; s++)
		;
	if (s < owner_end && *s == ' ')
		return false;   /* "unsigned int", "long long" */
	if (word_in(owner, s, WRAPPERS)) {
		const char *e = s < owner_end && *s == '<' ? skip_brackets(s) : NULL;
		return e && first_op_arg(s, e, na, nb, level);
	}
	if (word_in(owner, s, PLAIN_TYPES) || word_in(owner, s, PLAIN_SUFFIXES) ||
	    word_in(owner, s, "=bool|char|short|int|long|float|double|signed|unsigned|size_t|"
			      "int8_t|int16_t|int32_t|int64_t|uint8_t|uint16_t|uint32_t|uint64_t|true|false"))
		return false;
	*na = owner;
	*nb = s;
	return true;
}

char *gp_kernel_label(const char *demangled, char *buf, size_t size)
{
	const char *a, *b, *na, *nb;

	if (size == 0)
		return buf;
	short_span(demangled, &a, &b);
	copy_span(a, b, buf, size);
	const char *e = *b == '<' ? skip_brackets(b) : NULL;
	if (!e || !first_op_arg(b, e, &na, &nb, 0))
		return buf;
	size_t n = strlen(buf);
	snprintf(buf + n, size - n, "<%.*s>", (int)(nb - na), na);
	return buf;
}
