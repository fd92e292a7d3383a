/*
** Element types as frameworks spell them.  PyProf markers say "float16",
** Kineto says "c10::Half" or "float", DLProf "torch.float16"; all map to
** one enum.
*/
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "model/trace.h"

static const struct {
	const char *name;
	enum gp_dtype dt;
} dtype_names[] = {
	{"float64", GP_DT_FP64}, {"double", GP_DT_FP64}, {"fp64", GP_DT_FP64},
	{"float32", GP_DT_FP32}, {"float", GP_DT_FP32}, {"fp32", GP_DT_FP32},
	{"tf32", GP_DT_TF32},
	{"float16", GP_DT_FP16}, {"half", GP_DT_FP16}, {"c10::half", GP_DT_FP16}, {"fp16", GP_DT_FP16},
	{"bfloat16", GP_DT_BF16}, {"c10::bfloat16", GP_DT_BF16}, {"bf16", GP_DT_BF16},
	{"float8_e4m3fn", GP_DT_FP8_E4M3}, {"c10::float8_e4m3fn", GP_DT_FP8_E4M3},
	{"float8_e4m3fnuz", GP_DT_FP8_E4M3}, {"fp8_e4m3", GP_DT_FP8_E4M3}, {"e4m3", GP_DT_FP8_E4M3},
	{"float8_e5m2", GP_DT_FP8_E5M2}, {"c10::float8_e5m2", GP_DT_FP8_E5M2},
	{"float8_e5m2fnuz", GP_DT_FP8_E5M2}, {"fp8_e5m2", GP_DT_FP8_E5M2}, {"e5m2", GP_DT_FP8_E5M2},
	{"float4_e2m1fn_x2", GP_DT_FP4}, {"c10::float4_e2m1fn_x2", GP_DT_FP4}, {"fp4", GP_DT_FP4},
	{"e2m1", GP_DT_FP4}, {"nvfp4", GP_DT_FP4}, {"mxfp4", GP_DT_FP4},
	{"fp6", GP_DT_FP6}, {"e2m3", GP_DT_FP6}, {"e3m2", GP_DT_FP6}, {"mxfp6", GP_DT_FP6},
	{"int64", GP_DT_INT64}, {"long", GP_DT_INT64}, {"long int", GP_DT_INT64},
	{"int32", GP_DT_INT32}, {"int", GP_DT_INT32},
	{"int16", GP_DT_INT16}, {"short", GP_DT_INT16},
	{"int8", GP_DT_INT8}, {"signed char", GP_DT_INT8},
	{"uint8", GP_DT_UINT8}, {"unsigned char", GP_DT_UINT8}, {"byte", GP_DT_UINT8},
	{"bool", GP_DT_BOOL},
	{"complex64", GP_DT_COMPLEX64}, {"c10::complex<float>", GP_DT_COMPLEX64},
	{"complex128", GP_DT_COMPLEX128}, {"c10::complex<double>", GP_DT_COMPLEX128},
};

enum gp_dtype gp_dtype_parse(const char *s)
{
	if (!s)
		return GP_DT_UNKNOWN;
	if (strncmp(s, "torch.", 6) == 0)
		s += 6;
	/* the names are lower case: their first letter rules out most at
	** once (every op argument's type comes through here, most of them
	** "" or types that are no dtype) */
	char first = (char)tolower((unsigned char)s[0]);
	for (size_t i = 0; first && i < sizeof(dtype_names) / sizeof(dtype_names[0]); i++)
		if (dtype_names[i].name[0] == first && strcasecmp(s, dtype_names[i].name) == 0)
			return dtype_names[i].dt;
	return GP_DT_UNKNOWN;
}

int gp_dtype_size(enum gp_dtype dt)
{
	switch (dt) {
	case GP_DT_FP64: case GP_DT_INT64: case GP_DT_COMPLEX64: return 8;
	case GP_DT_COMPLEX128: return 16;
	case GP_DT_FP32: case GP_DT_TF32: case GP_DT_INT32: return 4;
	case GP_DT_FP16: case GP_DT_BF16: case GP_DT_INT16: return 2;
	case GP_DT_FP8_E4M3: case GP_DT_FP8_E5M2: case GP_DT_INT8:
	case GP_DT_UINT8: case GP_DT_BOOL: return 1;
	/* a byte per element as PyTorch's shapes count them: float4_e2m1fn_x2
	** packs two FP4 values in one (f_mm doubles K); FP6 has no PyTorch
	** dtype and comes only from kernel names */
	case GP_DT_FP6: case GP_DT_FP4: return 1;
	default: return 0;
	}
}

const char *gp_dtype_short(enum gp_dtype dt)
{
	static const char *names[GP_DT__COUNT] = {
		"na", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8e4m3", "fp8e5m2",
		"int64", "int32", "int16", "int8", "uint8", "bool", "complex64",
		"complex128", "fp6", "fp4",
	};
	return dt < GP_DT__COUNT ? names[dt] : "na";
}
