/*
** --gpu / --peak-flops / --peak-bw, shared by report and advise.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds/cmds.h"
#include "ops/ops.h"

static void list_gpus(void)
{
	printf("%-16s %4s %7s %7s %7s %7s %7s %7s %6s\n", "GPU", "SMs", "FP64", "FP32", "TF32",
	       "FP16", "BF16", "FP8", "GB/s");
	for (const struct gp_gpu *g = gp_gpus; g->name; g++)
		printf("%-16s %4d %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %6.0f\n", g->name, g->sm_count,
		       g->fp64_tc ? g->fp64_tc : g->fp64, g->fp32, g->tf32, g->fp16, g->bf16, g->fp8, g->bw);
	printf("(dense TFLOP/s at boost clock, datasheet roofs; docs/op-model.md)\n");
}

int gp_peak_option(const char *cmd, const char *opt, const char *arg, struct gp_peak_opts *po)
{
	if (strcmp(opt, "gpu") == 0) {
		if (strcmp(arg, "list") == 0) {
			list_gpus();
			return -1;
		}
		po->gpu = gp_gpu_lookup(arg);
		if (!po->gpu)
			return gp_cli_usage(cmd, "unknown GPU '%s' (--gpu list shows the table)", arg);
		return 0;
	}
	char *end;
	double v = strtod(arg, &end);
	if (end == arg || *end || !(v > 0) || v > 1e20)
		return gp_cli_usage(cmd, "bad --%s '%s' (a positive number, e.g. 312e12)", opt, arg);
	if (strcmp(opt, "peak-flops") == 0)
		po->peak_flops = v;
	else
		po->peak_bw = v;
	return 0;
}
