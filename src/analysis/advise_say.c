/*
** advise in the traced framework's terms: the table that pairs each
** change (and title) said in PyTorch's terms with its twin in XLA's (JAX,
** TensorFlow), and the look-up the rules make before they write one
** (docs/cli.md, "advise"; docs/trace-model.md, "The framework").  The
** texts themselves are in advise_texts.h.
*/
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/advise_texts.h"

/* PyTorch's text -> XLA's.  A text not here is said in every framework. */
const struct gp_adv_twin gp_adv_xla_twins[] = {
	{CPU_CHANGE, CPU_CHANGE_XLA},
	{CPU_CHANGE_LONG_OPS, CPU_CHANGE_LONG_OPS_XLA},
	{LAUNCH_CHANGE, LAUNCH_CHANGE_XLA},
	{SYNC_CHANGE, SYNC_CHANGE_XLA},
	{LOADER_CHANGE, LOADER_CHANGE_XLA},
	{PYTHON_CHANGE, PYTHON_CHANGE_XLA},
	{USER_CHANGE, USER_CHANGE_XLA},
	{ALLOC_CHANGE, ALLOC_CHANGE_XLA},
	{JIT_CHANGE, JIT_CHANGE_XLA},
	{AUTOTUNE_CHANGE, AUTOTUNE_CHANGE_XLA},
	{FIRST_ALLOC_CHANGE, FIRST_ALLOC_CHANGE_XLA},
	{UNTRACED_CHANGE, UNTRACED_CHANGE_XLA},
	{COVER_CHANGE, COVER_CHANGE_XLA},
	{TINY_CHANGE, TINY_CHANGE_XLA},
	{SMALLCOPY_TITLE, SMALLCOPY_TITLE_XLA},
	{PAGEABLE_CHANGE, PAGEABLE_CHANGE_XLA},
	{SYNCCOPY_CHANGE, SYNCCOPY_CHANGE_XLA},
	{FUSION_CHANGE, FUSION_CHANGE_XLA},
	{ATTN_CHANGE, ATTN_CHANGE_XLA},
	{COMM_CHANGE, COMM_CHANGE_XLA},
	{CHURN_CHANGE, CHURN_CHANGE_XLA},
	{GRAPH_GAPS_CHANGE, GRAPH_GAPS_CHANGE_XLA},
	{FP32_CHANGE_TF32, FP32_CHANGE_TF32_XLA},
	{FP32_CHANGE_AMP, FP32_CHANGE_AMP_XLA},
	{FP32NS_CHANGE, FP32NS_CHANGE_XLA},
	{NO_ARRIVALS_CHANGE, NO_ARRIVALS_CHANGE_XLA},
	{A2A_RECORD, A2A_RECORD_XLA},
	{BUSBW_CHANGE, BUSBW_CHANGE_XLA},
};
const size_t gp_adv_xla_ntwins = sizeof(gp_adv_xla_twins) / sizeof(gp_adv_xla_twins[0]);

const char *gp_adv_say(const gp_trace *t, const char *text)
{
	return gp_adv_say_fw(t ? t->framework : GP_FW_UNKNOWN, text);
}

const char *gp_adv_say_fw(int framework, const char *text)
{
	if (framework != GP_FW_JAX && framework != GP_FW_TENSORFLOW)
		return text;
	for (size_t i = 0; i < gp_adv_xla_ntwins; i++)
		if (strcmp(gp_adv_xla_twins[i].torch, text) == 0)
			return gp_adv_xla_twins[i].xla;
	return text;
}
