/*
** The GPU table (src/ops/gpus.c): which row a trace's device is, told apart
** by what the trace records (name, SM count, memory, compute capability);
** the estimate for a GPU the table lacks, checked against every row it can
** be computed for (hide the name, estimate from the properties, compare
** with the datasheet); the notes gp_gpus_resolve() adds.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/opsint.h"
#include "ops_fixture.h"

#define GIB (1ull << 30)

/* A device as a trace records it. */
struct dev {
	const char *name;
	int sms, major, minor;
	uint64_t mem;
	double clock_hz, bw;    /* bytes/s */
	int warp;
};

/* A one-device trace of format fmt ("kineto", "nsys"); free with fx_free. */
static void trace_with(struct fx *f, const char *fmt, const struct dev *v)
{
	fx_init(f);
	struct gp_device *d = gp_vec_push(f->t.devices);
	d->id = 0;
	d->name = gp_intern(&f->t, v->name);
	d->sm_count = v->sms;
	d->cc_major = (int16_t)v->major;
	d->cc_minor = (int16_t)v->minor;
	d->mem_bytes = v->mem;
	d->clock_hz = v->clock_hz;
	d->mem_bw = v->bw;
	d->warp_size = (int16_t)v->warp;
	f->t.format = gp_intern(&f->t, fmt);
}

/* The name of the peaks gp_gpu_for_device() gives v in a trace of fmt,
** "(none)" for none; copied into buf. */
static const char *peaks_of(const char *fmt, const struct dev *v, char *buf, size_t size)
{
	struct fx f;
	struct gp_gpu est;

	trace_with(&f, fmt, v);
	const struct gp_gpu *g = gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est);
	snprintf(buf, size, "%s", g ? g->name : "(none)");
	fx_free(&f);
	return buf;
}

/* Every device the shared traces record (tests/cli/t0608 reads them from
** the files; these are their properties as the readers fill them), and
** the row each is. */
static void testdata_devices(void **state)
{
	static const struct {
		const char *fmt;
		struct dev d;
		const char *row;
	} cases[] = {
		{"kineto", {"AMD Radeon Graphics", 104, 9, 0, 68702699520ull, 0, 0, 64}, "MI210 or MI250-GCD"},
		{"kineto", {"NVIDIA A100-PG509-200", 108, 8, 0, 42505273344ull, 0, 0, 32}, "A100-SXM4-40GB"},
		{"kineto", {"NVIDIA A100-PG509-200", 108, 8, 0, 42297524224ull, 0, 0, 32}, "A100-SXM4-40GB"},
		{"kineto", {"NVIDIA A100-SXM4-80GB", 108, 8, 0, 84990623744ull, 0, 0, 32}, "A100-SXM4-80GB"},
		{"kineto", {"Tesla V100-SXM2-32GB", 80, 7, 0, 34087305216ull, 0, 0, 32}, "V100-SXM2"},
		{"kineto", {"Tesla V100-SXM2-16GB", 80, 7, 0, 16914055168ull, 0, 0, 32}, "V100-SXM2"},
		{"kineto", {"Tesla V100-DGXS-32GB", 80, 7, 0, 34084028416ull, 0, 0, 32}, "V100-SXM2"},
		{"kineto", {"Quadro GP100", 56, 6, 0, 17071734784ull, 0, 0, 32}, "Quadro GP100"},
		{"kineto", {"NVIDIA GeForce RTX 2080 Ti", 68, 7, 5, 11554586624ull, 0, 0, 32}, "RTX 2080 Ti"},
		{"kineto", {"NVIDIA H100 80GB HBM3", 132, 9, 0, 85018279936ull, 0, 0, 32}, "H100-SXM"},
		{"kineto", {"", 304, 9, 4, 206141652992ull, 0, 0, 64}, "MI300X"},
		{"kineto", {"AMD Instinct MI300X", 304, 9, 4, 206141652992ull, 0, 0, 64}, "MI300X"},
		{"kineto", {"ARTEMIS", 0, 0, 0, 0, 0, 0, 0}, "(none)"},
		{"nsys", {"NVIDIA GeForce RTX 4060", 24, 8, 9, 8181776384ull, 2460e6, 272032e6, 0}, "RTX 4060"},
		{"nsys", {"Tesla V100-SXM2-16GB", 80, 7, 0, 16935682048ull, 1530e6, 898048e6, 0}, "V100-SXM2"},
		{"nsys", {"NVIDIA A100-SXM4-40GB", 108, 8, 0, 42297786368ull, 1410e6, 1555200e6, 0}, "A100-SXM4-40GB"},
		{"nsys", {"NVIDIA RTX A5000", 64, 8, 6, 25283526656ull, 1695e6, 768096e6, 0}, "RTX A5000"},
		{"nsys", {"NVIDIA GeForce RTX 2070 SUPER", 40, 7, 5, 8368816128ull, 1785e6, 448064e6, 0}, "RTX 2070 SUPER"},
		{"nvprof", {"TITAN V", 80, 7, 0, 12621381632ull, 1455e6, 652800e6, 0}, "TITAN V"},
		{"nvprof", {"Tesla V100-SXM2-16GB", 80, 7, 0, 16914055168ull, 1530e6, 898048e6, 0}, "V100-SXM2"},
	};
	char buf[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = peaks_of(cases[i].fmt, &cases[i].d, buf, sizeof(buf));
		if (strcmp(got, cases[i].row))
			fail_msg("%s (%d SMs): %s, expected %s", cases[i].d.name, cases[i].d.sms, got, cases[i].row);
	}
}

/* Variants a name alone does not tell apart, and names the table had
** wrong (issue 24: an A100-PCIE-40GB was an A100-SXM4-40GB, an MI210 an
** MI250 GCD). */
static void variants(void **state)
{
	static const struct {
		struct dev d;
		const char *row;
	} cases[] = {
		{{"NVIDIA A100-PCIE-40GB", 108, 8, 0, 42314694656ull, 0, 0, 0}, "A100-PCIE-40GB"},
		{{"NVIDIA A100 80GB PCIe", 108, 8, 0, 85051572224ull, 0, 0, 0}, "A100-PCIE-80GB"},
		{{"NVIDIA A100-SXM4-40GB", 108, 8, 0, 42314694656ull, 0, 0, 0}, "A100-SXM4-40GB"},
		{{"AMD Instinct MI210", 104, 9, 0, 68702699520ull, 0, 0, 64}, "MI210"},
		{{"AMD Instinct MI250X / MI250", 104, 9, 0, 68702699520ull, 0, 0, 64}, "MI250-GCD"},
		{{"AMD Instinct MI250X / MI250", 110, 9, 0, 68702699520ull, 0, 0, 64}, "MI250X-GCD"},
		{{"AMD Radeon Graphics", 110, 9, 0, 68702699520ull, 0, 0, 64}, "MI250X-GCD"},
		{{"gfx942:sramecc+:xnack-", 304, 9, 4, 206141652992ull, 0, 0, 64}, "MI300X"},
		{{"AMD Instinct MI300A", 228, 9, 4, 137438953472ull, 0, 0, 64}, "MI300A"},
		{{"AMD Instinct MI308X", 80, 9, 4, 206141652992ull, 0, 0, 64}, "MI308X"},
		{{"AMD Instinct MI325X", 304, 9, 4, 274877906944ull, 0, 0, 64}, "MI325X"},
		{{"AMD Instinct MI350X", 256, 9, 5, 309237645312ull, 0, 0, 64}, "MI350X"},
		{{"AMD Radeon PRO W7900", 96, 11, 0, 51522830336ull, 0, 0, 32}, "Radeon PRO W7900"},
		{{"AMD Radeon RX 7900 XTX", 96, 11, 0, 25753026560ull, 0, 0, 32}, "RX 7900 XTX"},
		{{"NVIDIA H100 PCIe", 114, 9, 0, 85520809984ull, 0, 0, 0}, "H100-PCIE"},
		{{"NVIDIA H100", 114, 9, 0, 85520809984ull, 0, 0, 0}, "H100-PCIE"},
		{{"NVIDIA H100 NVL", 132, 9, 0, 100485038080ull, 0, 0, 0}, "H100 NVL"},
		{{"NVIDIA H800", 132, 9, 0, 85520809984ull, 0, 0, 0}, "H800"},
		{{"NVIDIA H20", 78, 9, 0, 102642122752ull, 0, 0, 0}, "H20"},
		{{"NVIDIA H200", 132, 9, 0, 150754820096ull, 0, 0, 0}, "H200"},
		{{"NVIDIA H200 NVL", 132, 9, 0, 150754820096ull, 0, 0, 0}, "H200 NVL"},
		{{"NVIDIA GH200 480GB", 132, 9, 0, 102005473280ull, 0, 0, 0}, "GH200 96GB"},
		{{"NVIDIA GH200 144G HBM3e", 132, 9, 0, 154618822656ull, 0, 0, 0}, "GH200 144GB"},
		{{"NVIDIA B200", 148, 10, 0, 191514476544ull, 0, 0, 0}, "B200"},
		{{"NVIDIA GB200", 148, 10, 0, 199715979264ull, 0, 0, 0}, "GB200"},
		{{"NVIDIA B300 SXM6 AC", 160, 10, 3, 309237645312ull, 0, 0, 0}, "B300"},
		{{"NVIDIA GB300", 160, 10, 3, 309237645312ull, 0, 0, 0}, "GB300"},
		{{"NVIDIA A800-SXM4-80GB", 108, 8, 0, 85198045184ull, 0, 0, 0}, "A800-SXM4-80GB"},
		{{"NVIDIA L4", 58, 8, 9, 23580639232ull, 0, 0, 0}, "L4"},
		{{"NVIDIA L40", 142, 8, 9, 48305799168ull, 0, 0, 0}, "L40"},
		{{"NVIDIA L40S", 142, 8, 9, 48305799168ull, 0, 0, 0}, "L40S"},
		{{"NVIDIA A10G", 80, 8, 6, 23836033024ull, 0, 0, 0}, "A10G"},
		{{"NVIDIA A10", 72, 8, 6, 23836033024ull, 0, 0, 0}, "A10"},
		{{"NVIDIA A2", 10, 8, 6, 15642329088ull, 0, 0, 0}, "A2"},
		{{"NVIDIA RTX A2000 12GB", 26, 8, 6, 12622168064ull, 0, 0, 0}, "RTX A2000"},
		{{"NVIDIA RTX A6000", 84, 8, 6, 51041271808ull, 0, 0, 0}, "RTX A6000"},
		{{"NVIDIA RTX 6000 Ada Generation", 142, 8, 9, 51010732032ull, 0, 0, 0}, "RTX 6000 Ada"},
		{{"Quadro RTX 6000", 72, 7, 5, 25393692672ull, 0, 0, 0}, "Quadro RTX 6000"},
		{{"NVIDIA TITAN RTX", 72, 7, 5, 25393692672ull, 0, 0, 0}, "TITAN RTX"},
		{{"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", 188, 12, 0, 102641336320ull, 0, 0, 0}, "RTX PRO 6000 Blackwell"},
		{{"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 188, 12, 0, 102641336320ull, 0, 0, 0}, "RTX PRO 6000 Blackwell Max-Q"},
		{{"NVIDIA GeForce RTX 3050 Laptop GPU", 16, 8, 6, 4294443008ull, 0, 0, 0}, "RTX 3050 Laptop"},
		{{"NVIDIA GeForce RTX 3060", 28, 8, 6, 12884246528ull, 0, 0, 0}, "RTX 3060"},
		{{"NVIDIA GeForce RTX 3060", 28, 8, 6, 8589475840ull, 0, 0, 0}, "RTX 3060 8GB"},
		{{"NVIDIA GeForce RTX 4090", 128, 8, 9, 25393692672ull, 0, 0, 0}, "RTX 4090"},
		{{"NVIDIA GeForce RTX 4090 Laptop GPU", 76, 8, 9, 17170956288ull, 0, 0, 0}, "RTX 4090 Laptop"},
		{{"NVIDIA GeForce RTX 4060 Laptop GPU", 24, 8, 9, 8585216000ull, 0, 0, 0}, "RTX 4060 Laptop"},
		{{"NVIDIA GeForce RTX 5060", 30, 12, 0, 8546484224ull, 0, 0, 0}, "RTX 5060"},
		{{"NVIDIA GeForce RTX 5090", 170, 12, 0, 34190458880ull, 0, 0, 0}, "RTX 5090"},
		{{"NVIDIA GeForce RTX 5090 Laptop GPU", 82, 12, 0, 25769803776ull, 0, 0, 0}, "RTX 5090 Laptop"},
		{{"NVIDIA GeForce GTX 1660 Ti", 24, 7, 5, 6442450944ull, 0, 0, 0}, "GTX 1660 Ti"},
		{{"Orin", 16, 8, 7, 65890271232ull, 0, 0, 0}, "Jetson AGX Orin 64GB"},
		{{"Orin", 8, 8, 7, 16450404352ull, 0, 0, 0}, "Jetson Orin NX 16GB"},
	};
	char buf[96];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = peaks_of("kineto", &cases[i].d, buf, sizeof(buf));
		if (strcmp(got, cases[i].row))
			fail_msg("%s (%d SMs, %.1f GiB): %s, expected %s", cases[i].d.name, cases[i].d.sms,
				 (double)cases[i].d.mem / GIB, got, cases[i].row);
	}
	/* by name alone (--gpu): every row by its own name, the old wrong ones right */
	for (const struct gp_gpu *g = gp_gpus; g->name; g++)
		if (gp_gpu_lookup(g->name) != g)
			fail_msg("--gpu '%s' is %s", g->name, gp_gpu_lookup(g->name) ? gp_gpu_lookup(g->name)->name : "none");
	assert_string_equal(gp_gpu_lookup("NVIDIA A100-PCIE-40GB")->name, "A100-PCIE-40GB");
	assert_string_equal(gp_gpu_lookup("AMD Instinct MI210")->name, "MI210");
}

/* Datasheet rows whose peaks differ from the architecture's per-SM rates
** by design (capped or power-limited parts), and why; every other row must
** be estimated within TOL from its SM count and clock. */
#define TOL 0.10
static const struct {
	const char *row;
	const char *why;
} not_by_rates[] = {
	{"H20", "export-capped compute (148 FP16 TFLOPS on 78 SMs)"},
	{"H800", "FP64 cut to 1 TFLOPS"},
	{"H800 PCIe", "FP64 cut to 0.8 TFLOPS"},
	{"H100 NVL", "tensor figures at a power-limited clock (400 W)"},
	{"H200 NVL", "tensor figures at a power-limited clock (600 W)"},
	{"RTX 4000 Ada", "tensor figure at a power-limited clock (130 W)"},
	{"Quadro GV100", "tensor figure at 1447 MHz, FP32 at 1627"},
	{"GB200", "FP64 (45) at a higher clock than its tensor figures (2.4 vs 2.06 GHz)"},
	{"GB300", "INT8 stated per rack (23 POPS sparse / 72), not as the B300's"},
	{"L40", "every tensor figure, INT8 too, at half the L40S's"},
};

static bool exempt(const char *row)
{
	for (size_t i = 0; i < sizeof(not_by_rates) / sizeof(not_by_rates[0]); i++)
		if (!strcmp(row, not_by_rates[i].row))
			return true;
	return false;
}

/* The estimator: each row's SM count, clock and compute capability, its
** name hidden (kept only as GeForce / GTX / AMD, which the estimate reads),
** must give the row's datasheet peaks within TOL. */
static void estimate_matches_table(void **state)
{
	size_t checked = 0, bad = 0;

	for (const struct gp_gpu *g = gp_gpus; g->name; g++) {
		if (g->sm_count <= 0 || g->clock_mhz <= 0 || exempt(g->name))
			continue;
		bool amd = !strncmp(g->name, "MI", 2) || strstr(g->name, "Radeon") || strstr(g->name, "RX ");
		const char *name = amd ? "AMD (hidden)"
				   : g->flags & GP_GPU_NO_TC ? "NVIDIA GeForce GTX (hidden)"
				   : g->flags & GP_GPU_HALF_ACC ? "NVIDIA GeForce (hidden)" : "NVIDIA (hidden)";
		struct dev v = {name, g->sm_count, g->cc_major, g->cc_minor, (uint64_t)g->mem_gb * GIB,
				g->clock_mhz * 1e6, g->bw * 1e9, amd && g->cc_major == 9 ? 64 : 32};
		struct fx f;
		struct gp_gpu e;
		trace_with(&f, "kineto", &v);
		if (!gp_gpu_estimate(&f.t, &f.t.devices.v[0], &e))
			fail_msg("%s: no estimate", g->name);
		assert_true(e.flags & GP_GPU_ESTIMATED);
		assert_false(e.flags & GP_GPU_CLOCK_ASSUMED);
		const double want[] = {g->fp64, g->fp64_tc, g->fp32, g->tf32, g->fp16, g->bf16, g->fp8, g->int8, g->fp4};
		const double got[] = {e.fp64, e.fp64_tc, e.fp32, e.tf32, e.fp16, e.bf16, e.fp8, e.int8, e.fp4};
		const char *what[] = {"fp64", "fp64_tc", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4"};
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			if (fabs(got[i] - want[i]) > TOL * want[i] + 0.02) {
				print_error("%s %s: estimate %.2f, datasheet %.2f\n", g->name, what[i], got[i], want[i]);
				bad++;
			}
		assert_true(fabs(e.bw - g->bw) < 1e-6);
		fx_free(&f);
		checked++;
	}
	assert_int_equal(bad, 0);
	/* every exemption names a row; every other row with SMs and a clock was checked */
	size_t rows = 0, n_exempt = sizeof(not_by_rates) / sizeof(not_by_rates[0]);
	for (const struct gp_gpu *g = gp_gpus; g->name; g++)
		rows += g->sm_count > 0 && g->clock_mhz > 0;
	for (size_t i = 0; i < n_exempt; i++)
		assert_string_equal(gp_gpu_lookup(not_by_rates[i].row)->name, not_by_rates[i].row);
	assert_int_equal(checked, rows - n_exempt);
	print_message("%zu rows estimated within %.0f%% of their datasheet peaks\n", checked, TOL * 100);
	assert_true(checked >= 100);
}

/* A GPU the table lacks, or one a row's name matches but its properties do
** not (a MIG slice), gets estimated peaks, marked so; without the SM count,
** or for an architecture the rates do not know, nothing. */
static void estimate_unknown(void **state)
{
	struct fx f;
	struct gp_gpu est;
	const struct gp_gpu *g;

	/* an unknown NVIDIA name with what nsys records: SMs, clock, bandwidth */
	trace_with(&f, "nsys", &(struct dev){"NVIDIA Next 9000", 160, 10, 0, 200 * GIB, 2.0e9, 8.0e12, 0});
	g = gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est);
	assert_ptr_equal(g, &est);
	assert_string_equal(g->name, "Blackwell sm_100 (estimated)");
	assert_true(g->flags & GP_GPU_ESTIMATED);
	assert_false(g->flags & GP_GPU_CLOCK_ASSUMED);
	assert_true(fabs(g->fp16 - 160 * 8192 * 2.0e9 / 1e12) < 1e-6);      /* 2621.44 */
	assert_true(fabs(g->bw - 8000) < 1e-6);
	fx_free(&f);

	/* a GeForce the table lacks, as Kineto records it (no clock, no
	** bandwidth): the architecture's clock, FP32-accumulate at half */
	trace_with(&f, "kineto", &(struct dev){"NVIDIA GeForce RTX 4050 Ti", 30, 8, 9, 8 * GIB, 0, 0, 32});
	g = gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est);
	assert_non_null(g);
	assert_string_equal(g->name, "Ada sm_89 (estimated)");
	assert_true(g->flags & GP_GPU_CLOCK_ASSUMED);
	assert_true(g->flags & GP_GPU_HALF_ACC);
	assert_true(fabs(g->fp16 - 30 * 512 * 2.5e9 / 1e12) < 1e-6);        /* 38.4 */
	assert_true(fabs(g->fp32 - 30 * 256 * 2.5e9 / 1e12) < 1e-6);
	assert_true(g->bw == 0);
	fx_free(&f);

	/* a MIG slice: the A100 row's name, 42 of its SMs */
	trace_with(&f, "nsys", &(struct dev){"NVIDIA A100-SXM4-40GB MIG 3g.20gb", 42, 8, 0, 20 * GIB, 1.41e9, 0, 0});
	g = gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est);
	assert_non_null(g);
	assert_string_equal(g->name, "Ampere sm_80 (estimated)");
	assert_true(fabs(g->fp16 - 42 * 2048 * 1.41e9 / 1e12) < 1e-6);
	fx_free(&f);

	/* unnamed: the warp size says AMD, the CUs which CDNA */
	trace_with(&f, "kineto", &(struct dev){"", 220, 9, 0, 128 * GIB, 0, 0, 64});
	g = gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est);
	assert_non_null(g);
	assert_string_equal(g->name, "CDNA2 gfx90a (estimated)");
	fx_free(&f);

	/* unnamed cc 12.0 without a warp size: NVIDIA Blackwell RTX or AMD
	** RDNA4, the trace cannot tell: no peaks */
	trace_with(&f, "kineto", &(struct dev){"", 64, 12, 0, 16 * GIB, 0, 0, 0});
	assert_null(gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est));
	fx_free(&f);
	/* no SM count; an architecture the rates do not know */
	trace_with(&f, "kineto", &(struct dev){"NVIDIA Mystery", 0, 9, 0, 80 * GIB, 0, 0, 32});
	assert_null(gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est));
	fx_free(&f);
	trace_with(&f, "kineto", &(struct dev){"NVIDIA Mystery", 100, 13, 0, 80 * GIB, 0, 0, 32});
	assert_null(gp_gpu_for_device(&f.t, &f.t.devices.v[0], &est));
	assert_false(gp_gpu_estimate(&f.t, &f.t.devices.v[0], &est));
	fx_free(&f);
}

/* gp_gpus_resolve: the row kept per device, a note for an estimate or an
** unknown GPU that runs kernels, none with --gpu or for an idle device. */
static void resolve_notes(void **state)
{
	struct fx f;

	trace_with(&f, "kineto", &(struct dev){"NVIDIA GeForce RTX 3060", 28, 8, 6, 12 * GIB, 0, 0, 32});
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_FPROP, 0);
	fx_done(&f);
	gp_gpus_resolve(&f.t, NULL);
	assert_int_equal(f.t.devices.v[0].gpu_row, gp_gpu_lookup("RTX 3060") - gp_gpus + 1);
	assert_int_equal(f.t.warnings.n, 0);
	fx_free(&f);

	trace_with(&f, "kineto", &(struct dev){"NVIDIA GeForce RTX 3060 Ti Super", 40, 8, 6, 8 * GIB, 0, 0, 32});
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_FPROP, 0);
	fx_done(&f);
	gp_gpus_resolve(&f.t, NULL);
	assert_int_equal(f.t.devices.v[0].gpu_row, -1);
	assert_int_equal(f.t.warnings.n, 1);
	assert_string_equal(gp_s(&f.t, f.t.warnings.v[0]),
			    "gpu 0 (NVIDIA GeForce RTX 3060 Ti Super): not in the GPU table; peaks estimated from the "
			    "trace's properties (40 SMs, cc 8.6, clock not recorded: 1.70 GHz assumed, bandwidth not "
			    "recorded: eff is na, set --peak-bw): 17.4 FP32, 34.8 FP16 tensor TFLOP/s dense "
			    "(docs/op-model.md)");
	fx_free(&f);

	/* --gpu: the user named the peaks, no note */
	trace_with(&f, "kineto", &(struct dev){"NVIDIA GeForce RTX 3060 Ti Super", 40, 8, 6, 8 * GIB, 0, 0, 32});
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_FPROP, 0);
	fx_done(&f);
	struct gp_peak_opts po = {.gpu = gp_gpu_lookup("RTX 3060")};
	gp_gpus_resolve(&f.t, &po);
	assert_int_equal(f.t.warnings.n, 0);
	fx_free(&f);

	/* unknown, and no kernel on it: no note; with a kernel: what it lacks */
	trace_with(&f, "kineto", &(struct dev){"NVIDIA Mystery", 0, 9, 0, 80 * GIB, 0, 0, 32});
	gp_gpus_resolve(&f.t, NULL);
	assert_int_equal(f.t.warnings.n, 0);
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_FPROP, 0);
	fx_done(&f);
	gp_gpus_resolve(&f.t, NULL);
	assert_int_equal(f.t.warnings.n, 1);
	assert_non_null(strstr(gp_s(&f.t, f.t.warnings.v[0]), "peaks unknown: not in the GPU table, and the trace "
							       "records no SM count"));
	fx_free(&f);
}

/* The run's GPU (gp_gpu_of_run): --gpu wins over the trace's device; else
** the first device the table knows, past one it cannot tell (an unnamed
** device with no properties); an estimate for a device the table lacks;
** none when nothing tells. */
static void run_gpu(void **state)
{
	struct fx f;
	struct gp_gpu g;
	struct gp_peak_opts po = {.gpu = gp_gpu_lookup("A100-SXM4-40GB")};

	trace_with(&f, "kineto", &(struct dev){"NVIDIA GeForce RTX 3060", 28, 8, 6, 12 * GIB, 0, 0, 32});
	assert_true(gp_gpu_of_run(&f.t, &po, &g));
	assert_string_equal(g.name, "A100-SXM4-40GB");
	assert_true(gp_gpu_of_run(&f.t, NULL, &g));
	assert_ptr_equal(g.name, gp_gpu_lookup("RTX 3060")->name);
	fx_free(&f);

	trace_with(&f, "kineto", &(struct dev){"", 0, 0, 0, 0, 0, 0, 0});
	assert_false(gp_gpu_of_run(&f.t, NULL, &g));
	assert_null(g.name);
	struct gp_device *d = gp_vec_push(f.t.devices);
	*d = f.t.devices.v[0];
	d->id = 1;
	d->name = gp_intern(&f.t, "NVIDIA H100 80GB HBM3");
	assert_true(gp_gpu_of_run(&f.t, NULL, &g));
	assert_ptr_equal(g.name, gp_gpu_lookup("NVIDIA H100 80GB HBM3")->name);
	fx_free(&f);

	trace_with(&f, "nsys", &(struct dev){"NVIDIA Next 9000", 160, 10, 0, 200 * GIB, 2.0e9, 8.0e12, 0});
	assert_true(gp_gpu_of_run(&f.t, NULL, &g));
	assert_true(g.flags & GP_GPU_ESTIMATED);
	fx_free(&f);
}

/* The roofline of a kernel on an estimated GPU uses the estimate. */
static void kernel_peaks_estimated(void **state)
{
	struct fx f;
	double pf, pbw;

	trace_with(&f, "nsys", &(struct dev){"NVIDIA Next 9000", 160, 10, 0, 200 * GIB, 2.0e9, 8.0e12, 0});
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_FPROP, 0);
	fx_done(&f);
	struct gp_peak p;
	gp_peaks_lookup(&f.t, gp_kernel_device(&f.t, &f.t.kernels.v[0]), GP_DT_BF16, true, NULL, &p);
	pf = p.flops;
	pbw = p.bw;
	assert_true(fabs(pf - 160 * 8192 * 2.0e9) < 1);
	assert_true(fabs(pbw - 8.0e12) < 1);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(testdata_devices),
		cmocka_unit_test(variants),
		cmocka_unit_test(estimate_matches_table),
		cmocka_unit_test(estimate_unknown),
		cmocka_unit_test(resolve_notes),
		cmocka_unit_test(kernel_peaks_estimated),
		cmocka_unit_test(run_gpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
