/*
** Fuzz target: a user's ops file (src/ops/opsfile.c) and the kernel-name
** patterns it compiles (util/namepat.c).  Input: the file's text, any
** bytes; the rows it reads then classify a few kernel names.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ops/opdefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[][2] = {
		{"my_fused_gemm_kernel", NULL},
		{"kernel", "void ck::kernel_gemm_xdl<1>(float const*)"},
		{"multimem_all_reduce_kernel", "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>()"},
		{"", ""},
		{NULL, "void a::b::c<d::e>(f)"},
	};
	struct gp_opdefs d;
	gp_error err;
	/* NUL-terminated copy of exactly the input: a NUL inside ends the text */
	char *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	memset(&d, 0, sizeof(d));
	int rc = gp_opsfile_parse(&d, "fuzz.ops", text, &err);
	if (rc && (!err.msg[0] || strncmp(err.msg, "fuzz.ops", 8) != 0))
		abort();   /* every error names the file */
	gp_kfams_builtin(&d);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct gp_kclass kc;
		gp_kernel_classify(&d, names[i][0], names[i][1], &kc);
		if (kc.family >= GP_KF__COUNT)
			abort();
	}
	for (size_t i = 0; i < d.rules.n; i++)
		if (!d.rules.v[i].names || !d.rules.v[i].fn || gp_op_family_index(d.rules.v[i].family, strlen(d.rules.v[i].family)) < 0)
			abort();
	gp_opdefs_free(&d);
	return 0;
}
