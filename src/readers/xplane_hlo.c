/*
** XPlane: the work of XLA ops from their HLO shapes.  JAX's profiler keeps
** each compiled module's HloProto in the `/host:metadata` plane (the stat
** "Hlo Proto" of the event metadata named after the module); the kernels
** name their op and module (hlo_op, hlo_module).  Each op the kernels
** name is priced here (docs/trace-model.md, "XPlane mapping"):
**
**   dot          2 x prod(result dims) x prod(lhs contracting dims)
**   convolution  2 x prod(output dims) x prod(window sizes)
**                x input features / feature_group_count (also a cuDNN/MIOpen
**                custom-call that carries convolution dimension numbers)
**   GEMM custom-call  (cuBLAS/cuBLASLt `__cublas$gemm`, `__cublas$lt$matmul`,
**                `__cublas$lt$matmul$f8`; hipBLASLt on ROCm under the same
**                names) as a dot, its dimension numbers read from the JSON
**                GemmBackendConfig in its backend_config
**   elementwise  prod(result dims) (arithmetic, comparison, transcendental)
**   reduce       prod(first input's dims)
**   data movement (transpose, copy, slice, bitcast...): 0
**   fusion       the sum over its fused computation's instructions
**
** bytes: the op's operands plus its result (a convolution custom-call's
** result without its scratch buffer; a GEMM custom-call's operands 0 and 1,
** its bias/C operand 2 when it has one, and the first element of its
** result, without the workspace).  An op holding anything else (a sort, a
** call, a custom call of unknown meaning, a GEMM whose config does not
** parse) stays unpriced.
**
** Ownership: the decoded HloProtos live in the caller's protobuf-c
** allocator; what is kept is copied into t->op_work.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "readers/xplane_int.h"
#include "util/alloc.h"
#include "util/strtab.h"

typedef Gpuprof__Xplane__HloInstructionProto hlo_ins;
typedef Gpuprof__Xplane__HloComputationProto hlo_comp;
typedef Gpuprof__Xplane__ShapeProto hlo_shape;

/* Bytes per element of an XLA PrimitiveType; 0 = unknown or none. */
static double elem_size(int type)
{
	switch (type) {
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__PRED: case GPUPROF__XPLANE__PRIMITIVE_TYPE__S8:
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__U8: case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E5M2:
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E4M3FN: case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E4M3B11FNUZ:
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E5M2FNUZ: case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E4M3FNUZ:
		return 1;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S4: case GPUPROF__XPLANE__PRIMITIVE_TYPE__U4:
		return 0.5;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S16: case GPUPROF__XPLANE__PRIMITIVE_TYPE__U16:
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F16: case GPUPROF__XPLANE__PRIMITIVE_TYPE__BF16:
		return 2;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S32: case GPUPROF__XPLANE__PRIMITIVE_TYPE__U32:
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F32:
		return 4;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S64: case GPUPROF__XPLANE__PRIMITIVE_TYPE__U64:
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F64: case GPUPROF__XPLANE__PRIMITIVE_TYPE__C64:
		return 8;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__C128:
		return 16;
	default:
		return 0;
	}
}

/* gpuprof's dtype of an XLA PrimitiveType. */
static enum gp_dtype elem_dtype(int type)
{
	switch (type) {
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__PRED: return GP_DT_BOOL;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S8: return GP_DT_INT8;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__U8: return GP_DT_UINT8;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S16: return GP_DT_INT16;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S32: return GP_DT_INT32;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__S64: return GP_DT_INT64;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F16: return GP_DT_FP16;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__BF16: return GP_DT_BF16;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F32: return GP_DT_FP32;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F64: return GP_DT_FP64;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__C64: return GP_DT_COMPLEX64;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__C128: return GP_DT_COMPLEX128;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E5M2: case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E5M2FNUZ:
		return GP_DT_FP8_E5M2;
	case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E4M3FN: case GPUPROF__XPLANE__PRIMITIVE_TYPE__F8E4M3FNUZ:
		return GP_DT_FP8_E4M3;
	default: return GP_DT_UNKNOWN;
	}
}

/* The first array (non-tuple) shape of s, depth first; NULL when none. */
static const hlo_shape *first_array(const hlo_shape *s)
{
	for (int depth = 0; s && s->element_type == GPUPROF__XPLANE__PRIMITIVE_TYPE__TUPLE && depth < 8; depth++)
		s = s->n_tuple_shapes ? s->tuple_shapes[0] : NULL;
	return s && s->element_type != GPUPROF__XPLANE__PRIMITIVE_TYPE__TUPLE ? s : NULL;
}

/* The number of elements of an array shape (1 for a scalar); -1 when s
** is NULL or a dimension is negative (dynamic). */
static double numel(const hlo_shape *s)
{
	double n = 1;

	if (!s)
		return -1;
	for (size_t i = 0; i < s->n_dimensions; i++) {
		if (s->dimensions[i] < 0)
			return -1;
		n *= (double)s->dimensions[i];
	}
	return n;
}

/* Bytes of s, its tuple elements summed; -1 when an element type has no
** known size. */
static double shape_bytes(const hlo_shape *s, int depth)
{
	if (!s || depth > 8)
		return -1;
	if (s->element_type == GPUPROF__XPLANE__PRIMITIVE_TYPE__TUPLE) {
		double b = 0;
		for (size_t i = 0; i < s->n_tuple_shapes; i++) {
			double e = shape_bytes(s->tuple_shapes[i], depth + 1);
			if (e < 0)
				return -1;
			b += e;
		}
		return b;
	}
	if (s->element_type == GPUPROF__XPLANE__PRIMITIVE_TYPE__TOKEN)
		return 0;
	double sz = elem_size(s->element_type), n = numel(s);
	return sz > 0 && n >= 0 ? sz * n : -1;
}

/* Dimension d of s, or -1 when out of range. */
static double dim(const hlo_shape *s, int64_t d)
{
	return s && d >= 0 && (size_t)d < s->n_dimensions ? (double)s->dimensions[d] : -1;
}

/* The instruction of comp with id, or NULL. */
static const hlo_ins *by_id(const hlo_comp *c, int64_t id)
{
	for (size_t i = 0; i < c->n_instructions; i++)
		if (c->instructions[i]->id == id)
			return c->instructions[i];
	return NULL;
}

/* The shape of operand i of ins in c, or NULL. */
static const hlo_shape *operand_shape(const hlo_comp *c, const hlo_ins *ins, size_t i)
{
	const hlo_ins *o = i < ins->n_operand_ids ? by_id(c, ins->operand_ids[i]) : NULL;
	return o ? o->shape : NULL;
}

static bool is_in(const char *op, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(op, list[i]) == 0)
			return true;
	return false;
}

/* Opcodes worth one FLOP per result element. */
static const char *const elementwise[] = {
	"add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "remainder", "atan2",
	"exponential", "exponential-minus-one", "log", "log-plus-one", "sqrt", "rsqrt", "cbrt", "tanh",
	"logistic", "sine", "cosine", "tan", "erf", "abs", "negate", "sign", "floor", "ceil",
	"round-nearest-afz", "round-nearest-even", "compare", "select", "clamp", "and", "or", "xor",
	"not", "shift-left", "shift-right-arithmetic", "shift-right-logical", "is-finite", NULL};

/* Opcodes that move or relabel data and compute nothing. */
static const char *const movement[] = {
	"parameter", "constant", "bitcast", "bitcast-convert", "convert", "copy", "transpose", "reshape",
	"broadcast", "slice", "dynamic-slice", "dynamic-update-slice", "concatenate", "pad", "reverse",
	"gather", "iota", "tuple", "get-tuple-element", "copy-start", "copy-done", NULL};

/* XLA:GPU's custom-call targets of a GEMM through cuBLAS/cuBLASLt (and
** hipBLAS/hipBLASLt on ROCm, which keep these names). */
static const char *const gemm_targets[] = {"__cublas$gemm", "__cublas$lt$matmul", "__cublas$lt$matmul$f8", NULL};

/* Whether ins is a custom-call to one of gemm_targets. */
static bool is_gemm_call(const hlo_ins *ins)
{
	return ins->opcode && strcmp(ins->opcode, "custom-call") == 0 && ins->custom_call_target &&
	       is_in(ins->custom_call_target, gemm_targets);
}

/* The product of the dims of s that d[0..n) name; -1 when one is out of
** range or dynamic. */
static double prod_dims(const hlo_shape *s, const int64_t *d, size_t n)
{
	double p = 1;

	for (size_t i = 0; i < n; i++) {
		double v = dim(s, d[i]);
		if (v < 0)
			return -1;
		p *= v;
	}
	return p;
}

/* The lhs contracting dimensions of a GEMM custom-call's backend config
** cfg (JSON GemmBackendConfig, under "gemm_backend_config" as newer XLA
** writes it or at the top level as older XLA does; proto3 JSON writes the
** int64 dims as strings) into d[0..max); their count, or -1 when the
** config does not parse or names none. */
static int gemm_lhs_contracting(const ProtobufCBinaryData *cfg, int64_t *d, int max)
{
	enum { CFG_MAX = 1 << 16 };
	const char *wrapped[] = {"gemm_backend_config", "dot_dimension_numbers", "lhs_contracting_dimensions", NULL};
	char *text;
	yajl_val root, a;
	int n = -1;

	if (!cfg->len || cfg->len > CFG_MAX)
		return -1;
	text = gp_xmalloc(cfg->len + 1);
	memcpy(text, cfg->data, cfg->len);
	text[cfg->len] = '\0';
	root = yajl_tree_parse(text, NULL, 0);
	free(text);
	a = yajl_tree_get(root, wrapped, yajl_t_array);
	if (!a)
		a = yajl_tree_get(root, wrapped + 1, yajl_t_array);
	if (a && a->u.array.len > 0 && a->u.array.len <= (size_t)max) {
		n = (int)a->u.array.len;
		for (int i = 0; i < n; i++) {
			yajl_val v = a->u.array.values[i];
			const char *sv = YAJL_GET_STRING(v);
			char *end = NULL;
			if (YAJL_IS_INTEGER(v))
				d[i] = YAJL_GET_INTEGER(v);
			else if (sv && *sv)
				d[i] = strtoll(sv, &end, 10);
			if (!(YAJL_IS_INTEGER(v) || (end && !*end)))
				n = -1;   /* ends the loop */
		}
	}
	yajl_tree_free(root);
	return n;
}

/* The family of the costliest kind seen so far. */
enum kind { K_MOVE, K_POINTWISE, K_REDUCE, K_GEMM, K_CONV };

/* FLOPs of one instruction of c (not a fusion); -1 when unknown.
** Raises *k to the instruction's kind. */
static double ins_flops(const hlo_comp *c, const hlo_ins *ins, enum kind *k)
{
	const char *op = ins->opcode ? ins->opcode : "";
	const hlo_shape *out = first_array(ins->shape);

	if (ins->convolution_dimension_numbers && ins->window) {
		const Gpuprof__Xplane__ConvolutionDimensionNumbers *cd = ins->convolution_dimension_numbers;
		const hlo_shape *in = operand_shape(c, ins, 0), *ker = operand_shape(c, ins, 1);
		double win = 1, no = numel(out);
		double cin = dim(ker, cd->kernel_input_feature_dimension);
		(void)in;
		for (size_t i = 0; i < ins->window->n_dimensions; i++)
			win *= (double)ins->window->dimensions[i]->size;
		if (no < 0 || cin < 0 || win <= 0)
			return -1;
		/* the kernel's input-feature dimension already counts the
		** features of one group */
		*k = K_CONV;
		return 2 * no * win * cin;
	}
	if ((strcmp(op, "dot") == 0 && ins->dot_dimension_numbers) || is_gemm_call(ins)) {
		/* a GEMM custom-call's result may be a tuple (result,
		** workspace): out is its first element */
		const hlo_shape *lhs = operand_shape(c, ins, 0);
		const Gpuprof__Xplane__DotDimensionNumbers *dd = ins->dot_dimension_numbers;
		int64_t cd[16];
		int ncd = dd ? (int)dd->n_lhs_contracting_dimensions
			     : gemm_lhs_contracting(&ins->backend_config, cd, (int)(sizeof(cd) / sizeof(cd[0])));
		double no = numel(out);
		double kk = ncd < 0 ? -1 : prod_dims(lhs, dd ? dd->lhs_contracting_dimensions : cd, (size_t)ncd);
		if (no < 0 || kk < 0)
			return -1;
		if (*k < K_GEMM)
			*k = K_GEMM;
		return 2 * no * kk;
	}
	if (strcmp(op, "reduce") == 0) {
		double ni = numel(operand_shape(c, ins, 0));
		if (ni >= 0 && *k < K_REDUCE)
			*k = K_REDUCE;
		return ni;
	}
	if (is_in(op, elementwise)) {
		if (*k < K_POINTWISE)
			*k = K_POINTWISE;
		return numel(out);
	}
	if (is_in(op, movement))
		return 0;
	return -1;
}

/* The computation of module m with id, or NULL. */
static const hlo_comp *comp_by_id(const Gpuprof__Xplane__HloModuleProto *m, int64_t id)
{
	for (size_t i = 0; i < m->n_computations; i++)
		if (m->computations[i]->id == id)
			return m->computations[i];
	return NULL;
}

/* Prices ins of computation c in module m into w; false when its FLOPs
** or bytes are unknown. */
static bool price(gp_trace *t, const Gpuprof__Xplane__HloModuleProto *m, const hlo_comp *c, const hlo_ins *ins,
		  struct gp_op_work *w)
{
	static const char *const family[] = {"movement", "pointwise", "reduction", "gemm", "conv"};
	enum kind k = K_MOVE;
	double flops = 0;
	const hlo_shape *res = ins->shape;
	size_t nops = ins->n_operand_ids;

	if (ins->opcode && strcmp(ins->opcode, "fusion") == 0) {
		const hlo_comp *f = ins->n_called_computation_ids ? comp_by_id(m, ins->called_computation_ids[0]) : NULL;
		if (!f)
			return false;
		for (size_t i = 0; i < f->n_instructions; i++) {
			double fl = ins_flops(f, f->instructions[i], &k);
			if (fl < 0)
				return false;
			flops += fl;
		}
	} else {
		flops = ins_flops(c, ins, &k);
		if (flops < 0)
			return false;
		if (k == K_CONV && ins->opcode && strcmp(ins->opcode, "custom-call") == 0)
			res = first_array(ins->shape);   /* without the scratch buffer */
		if (is_gemm_call(ins)) {
			res = first_array(ins->shape);   /* without the workspace */
			if (nops > 3)
				nops = 3;   /* lhs, rhs, bias/C; not FP8's later scales */
		}
	}
	double bytes = shape_bytes(res, 0);
	for (size_t i = 0; i < nops && bytes >= 0; i++) {
		double b = shape_bytes(operand_shape(c, ins, i), 0);
		bytes = b < 0 ? -1 : bytes + b;
	}
	if (bytes < 0)
		return false;
	const hlo_shape *out = first_array(ins->shape);
	char buf[256];
	size_t n = 0;
	if (out) {
		n += (size_t)snprintf(buf, sizeof(buf), "%s[", gp_dtype_short(elem_dtype(out->element_type)));
		for (size_t i = 0; i < out->n_dimensions && n < sizeof(buf) - 24; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%lld", i ? "x" : "",
					      (long long)out->dimensions[i]);
		snprintf(buf + n, sizeof(buf) - n, "]");
	}
	*w = (struct gp_op_work){.flops = flops, .bytes = bytes, .family = gp_intern(t, family[k]),
		.params = out ? gp_intern(t, buf) : 0,
		.dtype = (uint8_t)(out ? elem_dtype(out->element_type) : GP_DT_UNKNOWN)};
	return true;
}

/* The key of a (module, op) pair of texts. */
static uint64_t pair_key(const char *mod, const char *op)
{
	return (uint64_t)gp_strtab_hash(mod, strlen(mod)) << 32 | gp_strtab_hash(op, strlen(op));
}

/* Prices the ops of one module (its HloProto's bytes, named name) that
** the kernels name, through want: pair key -> the first launch of the
** pair in x->hlo, whose work it sets. */
static void read_module(struct xp *x, const char *name, const ProtobufCBinaryData *bin, const gp_u64map *want,
			ProtobufCAllocator *pa)
{
	Gpuprof__Xplane__HloProto *hp = gpuprof__xplane__hlo_proto__unpack(pa, bin->len, bin->data);
	const Gpuprof__Xplane__HloModuleProto *m = hp ? hp->hlo_module : NULL;

	if (!m) {
		gp_trace_warn(x->t, "the HLO of module %s is damaged: its ops have no FLOPs", name);
		return;
	}
	for (size_t ci = 0; ci < m->n_computations; ci++) {
		const hlo_comp *c = m->computations[ci];
		for (size_t ii = 0; ii < c->n_instructions; ii++) {
			const hlo_ins *ins = c->instructions[ii];
			if (!ins->name)
				continue;
			for (int alias = 0; alias < 2; alias++) {
				const char *mod = alias ? m->name : name;
				if (!mod)
					continue;
				int32_t hi = gp_u64map_get(want, pair_key(mod, ins->name));
				if (hi < 0)
					continue;
				const struct xp_hlo *rep = &x->hlo.v[hi];   /* the hash checked by text */
				if (strcmp(gp_s(x->t, rep->op), ins->name) || strcmp(gp_s(x->t, rep->module), mod))
					continue;
				struct gp_op_work w;
				if (rep->work || !price(x->t, m, c, ins, &w))
					break;
				*gp_vec_push(x->t->op_work) = w;
				x->hlo.v[hi].work = (uint32_t)x->t->op_work.n;
				break;
			}
		}
	}
}

void xp_read_hlo(struct xp *x, const xp_plane *p, ProtobufCAllocator *pa)
{
	struct xp_names nm;
	gp_u64map want = {0};

	if (!x->hlo.n)
		return;
	for (size_t j = 0; j < x->hlo.n; j++) {
		const struct xp_hlo *h = &x->hlo.v[j];
		if (h->op && h->module)
			gp_u64map_add(&want, pair_key(gp_s(x->t, h->module), gp_s(x->t, h->op)), (int32_t)j);
	}
	xp_names_init(&nm, p);
	for (size_t i = 0; i < p->n_event_metadata; i++) {
		const Gpuprof__Xplane__XEventMetadata *em = p->event_metadata[i]->value;
		if (!em || !em->name)
			continue;
		for (size_t s = 0; s < em->n_stats; s++) {
			const xp_stat *st = em->stats[s];
			int32_t si = gp_u64map_get(&nm.st, (uint64_t)st->metadata_id);
			const char *sn = si >= 0 ? p->stat_metadata[si]->value->name : NULL;
			if (sn && strcmp(sn, "Hlo Proto") == 0 &&
			    st->value_case == GPUPROF__XPLANE__XSTAT__VALUE_BYTES_VALUE)
				read_module(x, em->name, &st->bytes_value, &want, pa);
		}
	}
	/* every launch of a priced pair: the same op and module as the one
	** priced */
	for (size_t j = 0; j < x->hlo.n; j++) {
		struct xp_hlo *h = &x->hlo.v[j];
		int32_t r = h->op && h->module ? gp_u64map_get(&want, pair_key(gp_s(x->t, h->module),
									      gp_s(x->t, h->op))) : -1;
		if (r >= 0 && x->hlo.v[r].op == h->op && x->hlo.v[r].module == h->module)
			h->work = x->hlo.v[r].work;
	}
	xp_names_free(&nm);
	gp_u64map_free(&want);
}
