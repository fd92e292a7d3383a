/*
** Unit tests: layer paths (src/analysis/layers.c): components split at '/'
** only, empty ones skipped; --depth cuts; module types without their
** instance number; gp_layers_apply rewrites each kernel's layer once.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/layers.h"
#include "util/alloc.h"

static void components(void **state)
{
	const char *path = "/Net//Block 1/all2all:recat/aten::mm/";
	const char *want[] = {"Net", "Block 1", "all2all:recat", "aten::mm"};
	size_t pos = 0, len;
	const char *c;
	int n = 0;

	while ((c = gp_layer_next(path, &pos, &len)) != NULL) {
		assert_true(n < 4);
		assert_int_equal(len, strlen(want[n]));
		assert_memory_equal(c, want[n], len);
		n++;
	}
	assert_int_equal(n, 4);
	pos = 0;
	assert_null(gp_layer_next("//", &pos, &len));
}

static void type_len(void **state)
{
	static const struct { const char *name, *type; } t[] = {
		{"Qwen2Attention_12", "Qwen2Attention"}, {"Block_0", "Block"}, {"layer1.0", "layer1"},
		{"Linear1", "Linear1"}, {"_3", "_3"}, {"x_", "x_"}, {"3", "3"}, {"Conv", "Conv"}, {"a_b_7", "a_b"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t n = gp_layer_type_len(t[i].name, strlen(t[i].name));
		assert_int_equal(n, strlen(t[i].type));
		assert_memory_equal(t[i].name, t[i].type, n);
	}
}

/* The pass grammar: NAME(P), P in F B W (upper case) or fwd forward bwd
** backward wgrad (any case); the innermost component naming one wins. */
static void passes(void **state)
{
	static const struct { const char *name; int pass; size_t base; } t[] = {
		{"attn(F)", GP_DIR_FPROP, 4}, {"mlp(B)", GP_DIR_BPROP, 3}, {"mlp(W)", GP_DIR_WGRAD, 3},
		{"dispatch(fwd)", GP_DIR_FPROP, 8}, {"x(Forward)", GP_DIR_FPROP, 1}, {"x(BWD)", GP_DIR_BPROP, 1},
		{"x(backward)", GP_DIR_BPROP, 1}, {"moe(wgrad)", GP_DIR_WGRAD, 3}, {"a(b)(W)", GP_DIR_WGRAD, 4},
		{"attn(f)", GP_DIR_NA, 7}, {"(F)", GP_DIR_NA, 3}, {"mlp_B", GP_DIR_NA, 5}, {"attn F", GP_DIR_NA, 6},
		{"attn(F) x", GP_DIR_NA, 9}, {"attn(Fwd2)", GP_DIR_NA, 10}, {"F)", GP_DIR_NA, 2}, {"", GP_DIR_NA, 0},
	};
	char buf[64];
	struct gp_layer_view type = {.module_type = true};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t base = 99;
		assert_int_equal(gp_layer_pass(t[i].name, strlen(t[i].name), &base), t[i].pass);
		assert_int_equal(base, t[i].base);
	}
	assert_int_equal(gp_layer_path_pass("block_0/mlp(B)/gemm"), GP_DIR_BPROP);
	assert_int_equal(gp_layer_path_pass("stage(F)/mlp(W)"), GP_DIR_WGRAD);
	assert_int_equal(gp_layer_path_pass("block_0/mlp"), GP_DIR_NA);
	assert_int_equal(gp_layer_path_pass(NULL), GP_DIR_NA);
	assert_string_equal(gp_layer_key("block_0/Mlp_3(W)", &type, buf, sizeof(buf)), "Mlp");
}

static void keys(void **state)
{
	const char *p = "Qwen2Model_0/Qwen2DecoderLayer_3/Qwen2Attention_3/Linear_9";
	char buf[128], small[8];
	struct gp_layer_view all = {0}, d2 = {.depth = 2}, type = {.module_type = true},
			     type3 = {.depth = 3, .module_type = true}, deep = {.depth = 99};

	assert_false(gp_layer_view_cuts(&all));
	assert_string_equal(gp_layer_key(p, &all, buf, sizeof(buf)), p);
	assert_string_equal(gp_layer_key(p, &d2, buf, sizeof(buf)), "Qwen2Model_0/Qwen2DecoderLayer_3");
	assert_string_equal(gp_layer_key(p, &deep, buf, sizeof(buf)), p);
	assert_string_equal(gp_layer_key(p, &type, buf, sizeof(buf)), "Linear");
	assert_string_equal(gp_layer_key(p, &type3, buf, sizeof(buf)), "Qwen2Attention");
	assert_string_equal(gp_layer_key("/a//b/", &all, buf, sizeof(buf)), "a/b");
	assert_string_equal(gp_layer_key("//", &type, buf, sizeof(buf)), "");
	/* a small buffer cuts, never overruns */
	assert_string_equal(gp_layer_key(p, &all, small, sizeof(small)), "Qwen2Mo");
}

static void apply(void **state)
{
	gp_trace t;
	const char *layers[] = {"Enc/Block_0/Attn_0", "Enc/Block_1/Attn_1", NULL, "Enc/Block_1/MLP_1"};
	struct gp_layer_view type2 = {.depth = 2, .module_type = true}, none = {0};

	gp_trace_init(&t);
	t.kernels.n = 4;
	t.attrs = gp_xcalloc(4, sizeof(*t.attrs));
	for (int i = 0; i < 4; i++)
		t.attrs[i].layer = layers[i] ? gp_intern(&t, layers[i]) : 0;
	gp_str before = t.attrs[0].layer;
	gp_layers_apply(&t, &none);
	assert_int_equal(t.attrs[0].layer, before);
	gp_layers_apply(&t, &type2);
	assert_string_equal(gp_s(&t, t.attrs[0].layer), "Block");
	assert_int_equal(t.attrs[1].layer, t.attrs[0].layer);
	assert_int_equal(t.attrs[2].layer, 0);
	assert_int_equal(t.attrs[3].layer, t.attrs[0].layer);
	t.kernels.n = 0;
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(components),
		cmocka_unit_test(type_len),
		cmocka_unit_test(passes),
		cmocka_unit_test(keys),
		cmocka_unit_test(apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
