/*
** The op model's rules as a table: tests/data/ops_rules.tsv has one row
** (or more) per rule of src/ops/ops.def with an op, a kernel, its
** arguments and the FLOPs, bytes and TC computed by hand.  Each row is run
** through gp_ops_run() on a one-kernel trace; every rule of the compiled
** table must have a row.  The file is read from tests/data/ (the tests run
** from the repository root) or from $GPUPROF_OPS_RULES.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_fixture.h"
#include "ops/opsint.h"

#define MAX_ROWS 256

enum { C_RULE, C_OP, C_KERNEL, C_DIR, C_SUB, C_ARGS, C_FLOPS, C_BYTES, C_TC, C_WHY, NCOLS };

struct row {
	int line;
	char *col[NCOLS];
};

struct table {
	char *text;             /* the file; row columns point into it */
	struct row rows[MAX_ROWS];
	int n;
};

static const char *table_path(void)
{
	const char *p = getenv("GPUPROF_OPS_RULES");

	return p && *p ? p : "tests/data/ops_rules.tsv";
}

/* Reads the table: '#' lines are comments, the first other line is the
** header.  Fails the test on a missing file or a malformed row. */
static void table_read(struct table *tb)
{
	FILE *f = fopen(table_path(), "r");
	long size;
	char *line, *next;
	int lineno = 0;
	bool header = true;

	if (!f)
		fail_msg("cannot open %s (run from the repository root)", table_path());
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	tb->text = malloc((size_t)size + 1);
	assert_non_null(tb->text);
	assert_int_equal(fread(tb->text, 1, (size_t)size, f), (size_t)size);
	tb->text[size] = 0;
	fclose(f);
	tb->n = 0;
	for (line = tb->text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		if (line[0] == '#' || line[0] == 0)
			continue;
		if (header) {
			header = false;
			continue;
		}
		if (tb->n == MAX_ROWS)
			fail_msg("%s: more than %d rows", table_path(), MAX_ROWS);
		struct row *r = &tb->rows[tb->n++];
		r->line = lineno;
		char *p = line;
		for (int c = 0; c < NCOLS; c++) {
			r->col[c] = p;
			p = p ? strchr(p, '\t') : NULL;
			if (p)
				*p++ = 0;
			if (!r->col[c] || (c < NCOLS - 1 && !p))
				fail_msg("%s:%d: %d columns expected", table_path(), lineno, NCOLS);
		}
	}
	if (tb->n == 0)
		fail_msg("%s: no rows", table_path());
}

/* The index of the rule whose names start with first (its first name). */
static int rule_by_first_name(const char *first)
{
	size_t n = strlen(first);

	for (size_t i = 0; i < gp_noprules; i++) {
		const char *names = gp_oprules[i].names;
		if (strncmp(names, first, n) == 0 && (names[n] == '|' || names[n] == 0))
			return (int)i;
	}
	return -1;
}

/* Whether op is literally one of rule's names, or starts with the stem
** of one ending in '*'. */
static bool rule_lists(int rule, const char *op)
{
	const char *p = gp_oprules[rule].names;
	size_t oplen = strlen(op);

	while (*p) {
		size_t n = strcspn(p, "|");
		if ((n == oplen && strncmp(p, op, n) == 0) ||
		    (n && p[n - 1] == '*' && strncmp(p, op, n - 1) == 0))
			return true;
		p += n + (p[n] == '|');
	}
	return false;
}

/* Adds one argument of the args column to the fixture's last kernel:
** DTYPE[d,...], i:N, f:X, b:0/1, s:TEXT, l:a,b,..., null, NAME=ARG. */
static void add_arg(struct fx *f, char *tok, int line)
{
	char *name = NULL, *eq = strchr(tok, '='), *br = strchr(tok, '[');
	struct gp_arg *a;

	if (eq && (!br || eq < br)) {
		*eq = 0;
		name = tok;
		tok = eq + 1;
	}
	if (br) {
		*br = 0;
		a = fx_arg(f, GP_ARG_TENSOR, name);
		a->dtype = (uint8_t)(strcmp(tok, "na") == 0 ? GP_DT_UNKNOWN : gp_dtype_parse(tok));
		if (strcmp(tok, "na") != 0 && a->dtype == GP_DT_UNKNOWN)
			fail_msg("line %d: unknown dtype '%s'", line, tok);
		for (char *d = br + 1; *d && *d != ']'; d += *d == ',') {
			char *end;
			a->shape[a->ndim++] = strtoll(d, &end, 10);
			d = end;
		}
	} else if (strcmp(tok, "null") == 0) {
		fx_arg(f, GP_ARG_NULL, name);
	} else if (strncmp(tok, "s:", 2) == 0) {
		fx_str(f, name, tok + 2);
	} else if (strncmp(tok, "l:", 2) == 0) {
		a = fx_arg(f, GP_ARG_LIST, name);
		for (char *d = tok + 2; *d; d += *d == ',') {
			char *end;
			a->shape[a->ndim++] = strtoll(d, &end, 10);
			d = end;
		}
	} else if (tok[0] && tok[1] == ':' && strchr("ifb", tok[0])) {
		int type = tok[0] == 'i' ? GP_ARG_INT : tok[0] == 'f' ? GP_ARG_FLOAT : GP_ARG_BOOL;
		fx_scalar(f, type, name, strtod(tok + 2, NULL));
	} else {
		fail_msg("line %d: cannot read argument '%s'", line, tok);
	}
}

static const char *tc_text(int tc)
{
	return tc == GP_TC_YES ? "1" : tc == GP_TC_NO ? "0" : tc == GP_TC_NOT_APPLICABLE ? "-" : "na";
}

/* Whether a result equals the column: "na" for < 0, else the number
** (relative 1e-12: every expected value is an exact small integer). */
static bool num_matches(double got, const char *want)
{
	if (strcmp(want, "na") == 0)
		return got < 0;
	double w = strtod(want, NULL);
	return fabs(got - w) <= 1e-12 * fabs(w);
}

/* Runs one row; returns false (and prints what differs) on a mismatch. */
static bool row_check(const struct row *r, int rule)
{
	struct fx f;
	char args[512];
	const char *d = r->col[C_DIR];
	int dir = strcmp(d, "f") == 0 ? GP_DIR_FPROP : strcmp(d, "b") == 0 ? GP_DIR_BPROP : GP_DIR_NA;
	bool ok;

	fx_init(&f);
	fx_kernel(&f, r->col[C_KERNEL], "aten", r->col[C_OP], dir, atoi(r->col[C_SUB]));
	snprintf(args, sizeof(args), "%s", r->col[C_ARGS]);
	for (char *save = NULL, *tok = strtok_r(args, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		add_arg(&f, tok, r->line);
	fx_done(&f);
	struct gp_opres *res = fx_ops(&f, NULL);
	const char *family = gp_opres_family(&res[0]);

	ok = num_matches(res[0].flops, r->col[C_FLOPS]) && num_matches(res[0].bytes, r->col[C_BYTES]) &&
	     strcmp(tc_text(res[0].tc), r->col[C_TC]) == 0 && family &&
	     strcmp(family, gp_oprules[rule].family) == 0;
	if (!ok)
		print_error("%s:%d: %s: got flops %.17g bytes %.17g tc %s family %s; expected %s %s %s %s (%s)\n",
			    table_path(), r->line, r->col[C_OP], res[0].flops, res[0].bytes, tc_text(res[0].tc),
			    family ? family : "(none)", r->col[C_FLOPS], r->col[C_BYTES],
			    r->col[C_TC], gp_oprules[rule].family, r->col[C_WHY]);
	fx_free(&f);
	return ok;
}

/* op after its last "::": a library's own op (vLLM's _C::rms_norm) takes
** the rule of that name. */
static const char *after_namespace(const char *op)
{
	const char *p;

	while ((p = strstr(op, "::")) != NULL)
		op = p + 2;
	return op;
}

/* Every row gives the hand-computed FLOPs, bytes, TC and its rule's family. */
static void rows_match_hand_values(void **state)
{
	struct table *tb = malloc(sizeof(*tb));
	int bad = 0;

	assert_non_null(tb);
	table_read(tb);
	for (int i = 0; i < tb->n; i++) {
		const struct row *r = &tb->rows[i];
		int rule = rule_by_first_name(r->col[C_RULE]);
		if (rule < 0) {
			print_error("%s:%d: no ops.def rule starts with '%s'\n", table_path(), r->line, r->col[C_RULE]);
			bad++;
		} else if (!rule_lists(rule, r->col[C_OP]) && !rule_lists(rule, after_namespace(r->col[C_OP]))) {
			print_error("%s:%d: '%s' is not one of rule '%s''s names\n", table_path(), r->line,
				    r->col[C_OP], r->col[C_RULE]);
			bad++;
		} else if (!row_check(r, rule)) {
			bad++;
		}
	}
	free(tb->text);
	free(tb);
	assert_int_equal(bad, 0);
}

/* Every rule of the compiled table (so every ops.def row) has a row. */
static void every_rule_has_a_row(void **state)
{
	struct table *tb = malloc(sizeof(*tb));
	int missing = 0;

	assert_non_null(tb);
	table_read(tb);
	for (size_t i = 0; i < gp_noprules; i++) {
		bool found = false;
		for (int j = 0; j < tb->n && !found; j++)
			found = rule_by_first_name(tb->rows[j].col[C_RULE]) == (int)i;
		if (!found) {
			print_error("ops.def rule %zu (%.60s) has no row in %s\n", i, gp_oprules[i].names,
				    table_path());
			missing++;
		}
	}
	free(tb->text);
	free(tb);
	assert_int_equal(missing, 0);
}

/* The params builder as plain printf calls: the oracle for gp_pp's short
** paths. */
static void ref_pp(char *buf, size_t cap, size_t *len, const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 2 >= cap)
		return;
	n = snprintf(buf + *len, cap - *len, "%s%s=", *len ? "," : "", key);
	if (n < 0 || (size_t)n >= cap - *len) {
		*len = cap - 1;
		return;
	}
	*len += (size_t)n;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	*len = n < 0 || (size_t)n >= cap - *len ? cap - 1 : *len + (size_t)n;
}

/* gp_pp's short paths print what printf prints: every "%.0f" value
** (whole, fractional, halves, signed zeros, huge, NaN, infinities), "%s",
** and a text cut at the buffer's end exactly where printf cuts it. */
static void params_text_as_printf(void **state)
{
	static const double vals[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -2.5, -0.4, 2048.0, 123456789.0,
		9007199254740991.0, 9007199254740992.0, -9007199254740992.0, 1e19, -1e300,
		1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 4.999999999, 1e-300,
	};
	struct gp_opctx c;
	char want[sizeof(c.params)], pad[sizeof(c.params)];
	size_t wlen;

	(void)state;
	for (size_t fill = 0; fill < sizeof(c.params); fill++) {
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			memset(&c, 0, sizeof(c));
			memset(want, 0, sizeof(want));
			wlen = 0;
			memset(pad, 'x', fill);
			pad[fill] = '\0';
			if (fill) {
				gp_pp(&c, "P", "%s", pad);
				ref_pp(want, sizeof(want), &wlen, "P", "%s", pad);
			}
			gp_pp(&c, "M", "%.0f", vals[i]);
			ref_pp(want, sizeof(want), &wlen, "M", "%.0f", vals[i]);
			gp_pp(&c, "type", "%s", "fp16");
			ref_pp(want, sizeof(want), &wlen, "type", "%s", "fp16");
			gp_pp(&c, "n", "%d", 7);
			ref_pp(want, sizeof(want), &wlen, "n", "%d", 7);
			assert_string_equal(c.params, want);
			assert_int_equal(c.plen, wlen);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_match_hand_values),
		cmocka_unit_test(every_rule_has_a_row),
		cmocka_unit_test(params_text_as_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
