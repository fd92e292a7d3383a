/*
** Kernel families: the built-in table of kernels.def and the lookup that
** classifies a kernel name (opdefs.h).
*/
#include <string.h>

#include "model/classify.h"
#include "ops/opdefs.h"
#include "util/demangle.h"

static const struct {
	const char *library, *pattern, *family, *tc, *ref;
} builtin[] = {
#define GP_KFAM(lib, pat, fam, tc, ref) {lib, pat, fam, tc, ref},
#define GP_KHINT(pat)
#include "ops/kernels.def"
#undef GP_KFAM
#undef GP_KHINT
};

static const char *const hint_text =
#define GP_KFAM(lib, pat, fam, tc, ref)
#define GP_KHINT(pat) pat
#include "ops/kernels.def"
#undef GP_KFAM
#undef GP_KHINT
	;

static const char *const family_names[GP_KF__COUNT] = {
	[GP_KF_NONE] = "-", [GP_KF_GEMM] = "gemm", [GP_KF_CONV] = "conv", [GP_KF_ATTENTION] = "attention",
	[GP_KF_NORM] = "norm", [GP_KF_COMM] = "comm", [GP_KF_OTHER] = "other",
};

const char *gp_kfamily_name(int f)
{
	return f > 0 && f < GP_KF__COUNT ? family_names[f] : family_names[0];
}

int gp_kfamily_parse(const char *name, size_t len)
{
	for (int f = 1; f < GP_KF__COUNT; f++)
		if (strlen(family_names[f]) == len && strncmp(name, family_names[f], len) == 0)
			return f;
	return -1;
}

bool gp_ktc_parse(const char *text, size_t len, struct gp_kfam *k)
{
	static const struct {
		const char *name;
		uint8_t tc;
	} kinds[] = {
		{"name", GP_KTC_NAME}, {"yes", GP_KTC_YES}, {"no", GP_KTC_NO}, {"na", GP_KTC_NA}, {"dtype", GP_KTC_DTYPE},
	};
	k->tokens = NULL;
	k->ntokens = 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == len && strncmp(text, kinds[i].name, len) == 0) {
			k->tc = kinds[i].tc;
			return true;
		}
	if (len > 3 && strncmp(text, "if:", 3) == 0) {
		k->tc = GP_KTC_TOKENS;
		k->tokens = text + 3;
		k->ntokens = len - 3;
		return true;
	}
	return false;
}

void gp_kfams_builtin(struct gp_opdefs *d)
{
	char why[128];

	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		struct gp_kfam k = {.library = builtin[i].library, .pattern = builtin[i].pattern, .ref = builtin[i].ref};
		int f = gp_kfamily_parse(builtin[i].family, strlen(builtin[i].family));
		/* tests/unit/test_kfamily.c checks that every row reads */
		if (f < 0 || !gp_ktc_parse(builtin[i].tc, strlen(builtin[i].tc), &k) ||
		    !gp_namepat_compile(k.pattern, &k.pat, why, sizeof(why)))
			continue;
		k.family = (uint8_t)f;
		*gp_vec_push(d->kfams) = k;
	}
	gp_namepat_compile(hint_text, &d->hint, why, sizeof(why));
}

/* The tensor-core verdict of row k for a kernel named full. */
static int row_tc(const struct gp_kfam *k, const char *full, bool *by_dtype)
{
	*by_dtype = false;
	switch (k->tc) {
	case GP_KTC_NAME:
		return gp_tc_kernel(full);
	case GP_KTC_YES:
		return GP_TC_YES;
	case GP_KTC_NO:
		return GP_TC_NO;
	case GP_KTC_DTYPE:
		*by_dtype = true;
		return GP_TC_NA;
	case GP_KTC_TOKENS:
		return gp_namepat_any(full, k->tokens, k->ntokens, GP_NP_SUB) ? GP_TC_YES : GP_TC_NO;
	default:
		return GP_TC_NA;
	}
}

void gp_kernel_classify(const struct gp_opdefs *d, const char *short_name, const char *full_name,
			struct gp_kclass *out)
{
	const char *full = full_name && *full_name ? full_name : short_name ? short_name : "";
	char own[256];

	/* a reader (or a test) that gave the whole name as the short one: the
	** patterns on "name" want the function's own name */
	if (!short_name || !*short_name || strpbrk(short_name, "<(: "))
		short_name = gp_kernel_short_name(full, own, sizeof(own));

	memset(out, 0, sizeof(*out));
	out->tc = GP_TC_NOT_APPLICABLE;
	out->library = gp_comm_kernel_library(short_name, full_name);
	if (out->library) {
		out->family = GP_KF_COMM;
		return;
	}
	for (size_t i = 0; i < d->kfams.n; i++) {
		const struct gp_kfam *k = &d->kfams.v[i];
		if (!gp_namepat_match(&k->pat, short_name, full_name))
			continue;
		out->family = k->family;
		out->library = k->library;
		out->row = k;
		out->tc = (int8_t)row_tc(k, full, &out->by_dtype);
		/* a helper (split-K reduction, transform) or a non-matrix kernel
		** has no tensor-core answer whatever its row says */
		if (gp_kernel_is_helper(full) || (k->family != GP_KF_GEMM && k->family != GP_KF_CONV &&
						  k->family != GP_KF_ATTENTION)) {
			out->tc = GP_TC_NOT_APPLICABLE;
			out->by_dtype = false;
		}
		return;
	}
	out->tc = (int8_t)gp_tc_kernel(full);
	if (d->hint.n && gp_namepat_match(&d->hint, short_name, full_name)) {
		/* which mark: the first alternative that matches */
		const struct gp_namecond *c = &d->hint.c[0];
		const char *p = c->alts, *end = c->alts + c->len;
		while (p < end) {
			const char *bar = memchr(p, '|', (size_t)(end - p));
			const char *e = bar ? bar : end;
			if (gp_namepat_any(full, p, (size_t)(e - p), GP_NP_SUB)) {
				size_t n = (size_t)(e - p) < sizeof(out->hint) ? (size_t)(e - p) : sizeof(out->hint) - 1;
				memcpy(out->hint, p, n);
				out->hint[n] = '\0';
				break;
			}
			p = e + 1;
		}
	}
}
