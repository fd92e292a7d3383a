/*
** advise's fusion rules: fusion (rows of small elementwise, norm, RoPE
** and copy kernels back to back on a stream) and unfused-attention (bmm +
** softmax + bmm where SDPA would not write the score matrix).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "util/u64map.h"

/* Fusion: op families of elementwise, norm and copy work, and for kernels
** without a known op, kernel-name substrings of such work (RoPE kernels
** have no op family of their own).  Names with one of fusion_done_names
** are already fused or compiled. */
static const char *const fusion_families[] = {
	"pointwise", "activation", "norm", "copy", "convert", "dropout", NULL
};

static const char *const fusion_names[] = {
	"elementwise_kernel", "layer_norm", "rms_norm", "RowwiseMoments", "LayerNorm", "batch_norm",
	"rotary", "rope_", "_rope", "copy_kernel", "CatArrayBatchedCopy", NULL
};

static const char *const fusion_done_names[] = {"fused", "triton_", "Fused", NULL};

/* Unfused attention: the op names (without "aten::") of each step of
** scores = Q K^T, softmax, optional dropout, out = P V. */
static const char *const attn_gemm_ops[] = {"bmm", "baddbmm", "matmul", "einsum", NULL};

static const char *const attn_softmax_ops[] = {"softmax", "_softmax", "_safe_softmax", "safe_softmax", NULL};

/* Whether s contains one of the substrings in list (NULL-terminated). */
static bool has_any(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strstr(s, list[i]))
			return true;
	return false;
}

/* Whether s is one of the strings in list (NULL-terminated). */
static bool is_any(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(s, list[i]) == 0)
			return true;
	return false;
}

/* The op that launched kernel k without "aten::", or "" if none. */
static const char *op_name(const gp_trace *t, size_t k)
{
	const char *op = t->attrs[k].op ? gp_s(t, t->attrs[k].op) : "";

	return strncmp(op, "aten::", 6) == 0 ? op + 6 : op;
}

/* The key of kernel k's stream: device and stream. */
static uint64_t stream_key(const gp_trace *t, const struct gp_kernel *k)
{
	return (uint64_t)(uint32_t)gp_kernel_device(t, k) << 32 | k->stream;
}

/* Whether kernel k is small elementwise, norm, RoPE or copy work: by its
** op's family, or by its name when no op is known; not already fused. */
static bool fusible(const struct gp_adv_in *in, size_t k)
{
	const gp_trace *t = in->t;
	const char *fam = gp_opres_family(&in->r[k]);
	const char *name = gp_s(t, gp_kernel_def(t, &t->kernels.v[k])->name);

	if (gp_adv_dur(&t->kernels.v[k]) >= gp_adv_lim.fusion_small_ns || has_any(name, fusion_done_names) ||
	    gp_op_is_comm(&in->r[k]))
		return false;
	if (fam && strcmp(fam, "unknown"))
		return is_any(fam, fusion_families);
	return has_any(name, fusion_names);
}

/* fusion: rows of gp_adv_lim.fusion_min_run or more small elementwise, norm,
** RoPE or copy kernels back to back on one stream; all but the longest of
** each row is at stake (a fused kernel costs about as much as it). */
bool gp_rule_fusion(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	size_t nk = t->kernels.n, n = 0, rows = 0, longest_row = 0;
	int32_t *row = gp_xmalloc(nk * sizeof(*row));         /* first kernel of k's row, -1 = none */
	uint32_t *len = gp_xcalloc(nk, sizeof(*len));         /* by first kernel: row length */
	int32_t *longest = gp_xcalloc(nk, sizeof(*longest));  /* by first kernel: its longest */
	gp_u64map last = {0};                                 /* stream -> its last kernel */
	double total = 0, stake = 0;
	struct gp_adv_agg a;
	bool found;

	for (size_t k = 0; k < nk; k++) {
		int32_t prev = gp_u64map_get(&last, stream_key(t, &t->kernels.v[k]));
		gp_u64map_put(&last, stream_key(t, &t->kernels.v[k]), (int32_t)k);
		row[k] = -1;
		if (!fusible(in, k))
			continue;
		int32_t first = prev >= 0 && row[prev] >= 0 ? row[prev] : (int32_t)k;
		row[k] = first;
		if (!len[first]++ || gp_adv_dur(&t->kernels.v[k]) > gp_adv_dur(&t->kernels.v[longest[first]]))
			longest[first] = (int32_t)k;
	}
	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < nk; k++) {
		if (row[k] < 0 || len[row[k]] < gp_adv_lim.fusion_min_run)
			continue;
		double d = gp_adv_dur(&t->kernels.v[k]);
		if (row[k] == (int32_t)k) {
			rows++;
			if (len[k] > longest_row)
				longest_row = len[k];
		}
		n++;
		total += d;
		gp_adv_agg_add(&a, gp_adv_group_key(t, in->r, k), d, k);
		if (longest[row[k]] != (int32_t)k) {
			stake += d;
			gp_adv_claim(in, k, in->dur[k]);
		}
	}
	found = n && stake >= gp_adv_lim.fusion_min_share * in->f->gpu_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FUSION_TITLE, n, 100 * total / in->f->gpu_ns);
		gp_adv_evidence(t, NULL, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t l = strlen(x->evidence);
		snprintf(x->evidence + l, sizeof(x->evidence) - l, FUSION_EVIDENCE, rows, gp_adv_lim.fusion_min_run,
			 gp_adv_lim.fusion_small_ns / 1e3, longest_row);
		snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, FUSION_CHANGE));
	}
	gp_adv_agg_free(&a);
	gp_u64map_free(&last);
	free(row);
	free(len);
	free(longest);
	return found;
}

/* Where one stream is in the unfused attention pattern. */
struct attn_state {
	int step;               /* 0: none, 1: after the scores GEMM, 2: after its softmax */
	size_t between;         /* other kernels since the step began */
	int32_t start;          /* the scores GEMM's first kernel */
	int32_t iter;           /* its iteration */
	gp_str layer;           /* its layer, 0 = none */
};

/* unfused-attention: scores GEMM (bmm, baddbmm, matmul), softmax, optional
** scaling, mask and dropout, output GEMM, in a row on one stream in one
** iteration and layer (where the trace has them); their non-GEMM kernels
** are at stake (SDPA does not write the score matrix). */
bool gp_rule_unfused_attention(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	GP_VEC(struct attn_state) st = {0};
	gp_u64map streams = {0};
	double side = 0, gemms = 0;
	size_t paths = 0;
	const char *qk = NULL, *pv = NULL;      /* the first path's GEMM ops */
	char d1[32], d2[32];

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int32_t i = gp_u64map_add(&streams, stream_key(t, kr), (int32_t)st.n);
		if (i == (int32_t)st.n)
			memset(gp_vec_push(st), 0, sizeof(*st.v));
		struct attn_state *s = &st.v[i];
		const char *op = op_name(t, k);
		bool gemm = is_any(op, attn_gemm_ops);
		gp_str layer = t->attrs[k].layer;
		if (s->step && (s->iter != t->attrs[k].iter || (layer && s->layer && layer != s->layer)))
			s->step = 0;
		if (gemm && s->step == 2) {
			for (size_t j = (size_t)s->start; j <= k; j++) {
				if (stream_key(t, &t->kernels.v[j]) != stream_key(t, kr))
					continue;
				double d = gp_adv_dur(&t->kernels.v[j]);
				if (is_any(op_name(t, j), attn_gemm_ops)) {
					gemms += d;
				} else {
					side += d;
					gp_adv_claim(in, j, in->dur[j]);
				}
			}
			if (!paths++) {
				qk = op_name(t, (size_t)s->start);
				pv = op;
			}
			s->step = 0;
		} else if (gemm) {
			*s = (struct attn_state){1, 0, (int32_t)k, t->attrs[k].iter, layer};
		} else if (s->step == 1 && is_any(op, attn_softmax_ops)) {
			s->step = 2;
		} else if (s->step && ++s->between > gp_adv_lim.attn_max_between) {
			s->step = 0;
		}
	}
	gp_vec_free(st);
	gp_u64map_free(&streams);
	if (!paths || side + gemms < gp_adv_lim.min_share * in->f->gpu_ns)
		return false;
	gp_adv_involved(x, side + gemms, paths);
	snprintf(x->title, sizeof(x->title), ATTN_TITLE, paths, qk, pv);
	snprintf(x->evidence, sizeof(x->evidence), ATTN_EVIDENCE, gp_fmt_duration(side, d1, sizeof(d1)),
		 gp_fmt_duration(gemms, d2, sizeof(d2)));
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, ATTN_CHANGE));
	return true;
}
