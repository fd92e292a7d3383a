/*
** Unit tests of advise's framework terms (analysis/advise_say.c): every
** XLA twin takes the printf conversions of its PyTorch text, in order
** (a twin that did not would print garbage or crash), says no PyTorch
** API, and is chosen only for JAX and TensorFlow traces.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/advise_texts.h"

/* The conversions of printf format s ("%zu", "%.0f", "%s"...: their
** letters and length modifiers, without flags, widths, precisions) into
** out, one per conversion, "%%" skipped. */
static void conversions(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s; s++) {
		if (*s != '%')
			continue;
		s++;
		if (*s == '%')
			continue;
		while (*s && strchr("-+ #0123456789.*", *s))
			s++;
		while (*s && strchr("hlzjtL", *s) && n + 1 < size)
			out[n++] = *s++;
		if (*s && n + 2 < size) {
			out[n++] = *s;
			out[n++] = ',';
		}
	}
	out[n] = '\0';
}

static void twins_take_the_same_arguments(void **state)
{
	(void)state;
	assert_true(gp_adv_xla_ntwins > 20);
	for (size_t i = 0; i < gp_adv_xla_ntwins; i++) {
		char a[64], b[64];
		conversions(gp_adv_xla_twins[i].torch, a, sizeof(a));
		conversions(gp_adv_xla_twins[i].xla, b, sizeof(b));
		if (strcmp(a, b) != 0)
			fail_msg("twin %zu: '%s' vs '%s' in %.60s", i, a, b, gp_adv_xla_twins[i].xla);
	}
	/* the checker itself sees conversions */
	char c[64];
	conversions(SMALLCOPY_TITLE, c, sizeof(c));
	assert_string_equal(c, "zu,s,u,");
	conversions(CPU_CHANGE_LONG_OPS, c, sizeof(c));
	assert_string_equal(c, "s,f,");
}

static void twins_say_no_pytorch(void **state)
{
	static const char *const words[] = {"torch", "DataLoader", "record_function", "PYTORCH_", "DDP",
					    "FSDP", "non_blocking", "emit_nvtx", ".item()", "cudaMalloc"};
	(void)state;
	for (size_t i = 0; i < gp_adv_xla_ntwins; i++)
		for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
			if (strstr(gp_adv_xla_twins[i].xla, words[w]))
				fail_msg("twin %zu says %s: %.60s", i, words[w], gp_adv_xla_twins[i].xla);
}

static void chosen_by_framework(void **state)
{
	gp_trace t;
	(void)state;
	memset(&t, 0, sizeof(t));
	for (int fw = GP_FW_UNKNOWN; fw <= GP_FW_TENSORFLOW; fw++) {
		bool xla = fw == GP_FW_JAX || fw == GP_FW_TENSORFLOW;
		t.framework = (uint8_t)fw;
		assert_string_equal(gp_adv_say(&t, LAUNCH_CHANGE), xla ? LAUNCH_CHANGE_XLA : LAUNCH_CHANGE);
		assert_string_equal(gp_adv_say(&t, SYNC_CHANGE), xla ? SYNC_CHANGE_XLA : SYNC_CHANGE);
		/* a text without a twin is said as it is */
		assert_string_equal(gp_adv_say(&t, EVENT_CHANGE), EVENT_CHANGE);
	}
	assert_string_equal(gp_adv_say(NULL, LAUNCH_CHANGE), LAUNCH_CHANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(twins_take_the_same_arguments),
		cmocka_unit_test(twins_say_no_pytorch),
		cmocka_unit_test(chosen_by_framework),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
