/*
** Unit tests: the kernel catalog of gpuprof-gen (tools/gen/model.c).
** Every mangled name must demangle (nvprof readers demangle them) and carry
** its short name, as nsys' shortName does.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static void names_demangle(void **state)
{
	for (int i = 0; i < gen_nkdefs; i++) {
		const struct gen_kdef *d = &gen_kdefs[i];
		assert_non_null(d->demangled);
		assert_non_null(strstr(d->demangled, d->short_name));
		if (d->mangled) {
			char *dm = cplus_demangle(d->mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES);
			assert_non_null(dm);
			assert_non_null(strstr(dm, d->short_name));
			free(dm);
		}
	}
}

static void api_names_are_versioned(void **state)
{
	for (int i = 0; i < GEN_API__COUNT; i++) {
		if (i == GEN_API_CUDNN_FIND)
			continue;   /* a library call, as its tracer records it: no CUPTI id */
		assert_non_null(strstr(gen_apis[i].name, "_v"));
		assert_true(gen_apis[i].cbid > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_demangle),
		cmocka_unit_test(api_names_are_versioned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
