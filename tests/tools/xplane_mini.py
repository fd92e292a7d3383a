#!/usr/bin/env python3
"""Small XPlane files for the XPlane reader's tests and fuzz seeds,
protobuf-encoded by hand (Python here has no protobuf module), with the
field numbers of src/readers/xplane.proto.

    xplane_mini.py host OUT [--host N] [--hlo]   one host: GPU 0 and GPU 1,
                                          their launches on the host plane

What `host` writes (times in ns from the line start 1000000): on GPU 0,
stream 7, four kernels, each launched by a host call with its correlation
id: loop_add_fusion (corr 1, 10 us, hlo_op loop_add_fusion), a GEMM
Cijk_Alik_Bljk_HHS (corr 2, 40 us, hlo_op dot.3, name stack
jit(step)/dot_general), ncclDevKernel_AllReduce_Sum_f32_RING_LL (corr 3,
25 us, hlo_op all-reduce.1), input_reduce_fusion (corr 4, 5 us, its op
only on the device event); one copy MemcpyH2D (corr 5, 2 us, 4096 bytes)
on stream 8.  On GPU 1 a kernel loop_add_fusion.kd (corr 6, 10 us) with
no launch call, and gather_kernel_impl (corr 7, at 40 us for 8 us, hlo_op
all-gather-start.2: a kernel of unknown family under an XLA collective).  On the host two steps, TraceMe "train" with step_num 0
(2 to 60 us: the launches of kernels 1 and 2) and 1 (60 to 121 us), and
a MemoryAllocation of 1 MiB on GPU 0 at 3 us.  Host N shifts every start
by N * 1000 ns.

--hlo adds to the /host:metadata plane the module's HloProto (event
metadata "jit_step(3)", stat "Hlo Proto"; the proto names it jit_step, as
the kernels' hlo_module does): loop_add_fusion = fusion of
add(p0, p1) and exponential of it, f32[1024,256] each; dot.3 =
dot(f16[512,1024], f16[1024,256]) contracting lhs dim 1 and rhs dim 0;
input_reduce_fusion = reduce(f32[4096,512] over dim 1, f32[] constant
0) -> f32[4096]; all-reduce.1 an all-reduce (not priced).  With it GPU 1
runs three cuBLAS kernels (no launch calls) whose hlo_op is a GEMM
custom-call of the module: at 50 us for 6 us
sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_..._cublas (corr 8, cublas-gemm.1:
`__cublas$gemm` of f16[256,512] x f16[512,128] -> (f16[256,128],
u8[4194304] workspace), backend_config in GpuBackendConfig's
"gemm_backend_config" wrapper, contracting lhs dim 1); at 60 us for 4 us
volta_sgemm_128x64_nn (corr 9, custom-call.2: `__cublas$gemm` in the old
top-level GemmBackendConfig form, beta 1, batch dim 0, contracting lhs dim
2: f32[4,64,32] x f32[4,32,16] + C f32[4,64,16] -> f32[4,64,16], no
tuple); at 70 us for 2 us volta_sgemm_32x32_nn (corr 10,
custom-call.3: `__cublas$lt$matmul` whose backend_config is not JSON).
"""
import struct
import sys


def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wt):
    return varint(field << 3 | wt)


def vint(field, n):
    return key(field, 0) + varint(n)


def ld(field, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return key(field, 2) + varint(len(payload)) + payload


def dbl(field, x):
    return key(field, 1) + struct.pack("<d", x)


class Plane:
    def __init__(self, pid, name):
        self.pid, self.name = pid, name
        self.events, self.stats = {}, {}
        self.lines, self.plane_stats = [], b""
        self.metadata_stats = {}   # event metadata id -> its encoded stats

    def ev(self, name):
        if name not in self.events:
            self.events[name] = len(self.events) + 1
        return self.events[name]

    def st(self, name):
        if name not in self.stats:
            self.stats[name] = len(self.stats) + 1
        return self.stats[name]

    def stat(self, name, value):
        m = vint(1, self.st(name))
        if isinstance(value, str):
            return m + ld(5, value)
        if isinstance(value, float):
            return m + dbl(2, value)
        return m + vint(3, value)

    def ref(self, name, text):
        return vint(1, self.st(name)) + vint(7, self.st(text))

    def event(self, name, off_ps, dur_ps, stats=()):
        return vint(1, self.ev(name)) + vint(2, off_ps) + vint(3, dur_ps) + \
            b"".join(ld(4, s) for s in stats)

    def line(self, lid, name, ts_ns, events):
        self.lines.append(vint(1, lid) + ld(2, name) + vint(3, ts_ns) +
                          b"".join(ld(4, e) for e in events))

    def encode(self):
        out = vint(1, self.pid) + ld(2, self.name)
        out += b"".join(ld(3, line) for line in self.lines)
        for name, i in self.events.items():
            out += ld(4, vint(1, i) + ld(2, vint(1, i) + ld(2, name) + self.metadata_stats.get(i, b"")))
        for name, i in self.stats.items():
            out += ld(5, vint(1, i) + ld(2, vint(1, i) + ld(2, name)))
        return out + self.plane_stats


F16, F32, U8, TUPLE = 10, 11, 6, 13


def shape(ty, dims):
    return vint(2, ty) + ld(3, b"".join(varint(d) for d in dims))


def tuple_shape(*shapes):
    return vint(2, TUPLE) + b"".join(ld(4, s) for s in shapes)


def ins(name, opcode, ty, dims, iid, operands=(), extra=b"", shp=None):
    out = ld(1, name) + ld(2, opcode) + ld(3, shp or shape(ty, dims)) + vint(35, iid)
    if operands:
        out += ld(36, b"".join(varint(o) for o in operands))
    return out + extra


def comp(name, cid, instrs):
    return ld(1, name) + b"".join(ld(2, i) for i in instrs) + vint(5, cid)


# GEMM custom-calls' backend configs as XLA:GPU writes them (proto3 JSON:
# int64 fields as strings): the GpuBackendConfig wrapper of newer XLA...
GEMM_WRAPPED = ('{"operation_queue_id":"0","wait_on_operation_queues":[],'
                '"gemm_backend_config":{"alpha_real":1,"beta":0,"dot_dimension_numbers":'
                '{"lhs_contracting_dimensions":["1"],"rhs_contracting_dimensions":["0"],'
                '"lhs_batch_dimensions":[],"rhs_batch_dimensions":[]},"alpha_imag":0,'
                '"precision_config":{"operand_precision":["DEFAULT","DEFAULT"],"algorithm":"ALG_UNSET"},'
                '"epilogue":"DEFAULT","lhs_stride":"131072","rhs_stride":"65536",'
                '"grad_x":false,"grad_y":false},"force_earliest_schedule":false}')
# ... and older XLA's GemmBackendConfig at the top level
GEMM_OLD = ('{"alpha_real":1,"alpha_imag":0,"beta":1,"dot_dimension_numbers":'
            '{"lhs_contracting_dimensions":["2"],"rhs_contracting_dimensions":["1"],'
            '"lhs_batch_dimensions":["0"],"rhs_batch_dimensions":["0"]},'
            '"precision_config":{"operand_precision":["DEFAULT","DEFAULT"]},'
            '"epilogue":"DEFAULT","selected_algorithm":"-1"}')


def custom_call(target, config):
    return ld(28, target) + ld(43, config)


def hlo_module():
    """The HloProto of jit_step (the docstring's --hlo)."""
    big = [1024, 256]
    fused_add = comp("fused_add", 1, [
        ins("param_0", "parameter", F32, big, 101), ins("param_1", "parameter", F32, big, 102),
        ins("add.0", "add", F32, big, 103, (101, 102)),
        ins("exponential.0", "exponential", F32, big, 104, (103,))])
    fused_reduce = comp("fused_reduce", 2, [
        ins("param_0.1", "parameter", F32, [4096, 512], 201),
        ins("constant.0", "constant", F32, [], 202),
        ins("reduce.0", "reduce", F32, [4096], 203, (201, 202), ld(14, varint(1)) + ld(38, varint(4)))])
    region = comp("region_add", 4, [
        ins("Arg_0", "parameter", F32, [], 401), ins("Arg_1", "parameter", F32, [], 402),
        ins("add.9", "add", F32, [], 403, (401, 402))])
    entry = comp("main", 3, [
        ins("p0", "parameter", F32, big, 1), ins("p1", "parameter", F32, big, 2),
        ins("loop_add_fusion", "fusion", F32, big, 3, (1, 2), ld(38, varint(1))),
        ins("a", "parameter", F16, [512, 1024], 4), ins("b", "parameter", F16, [1024, 256], 5),
        ins("dot.3", "dot", F16, [512, 256], 6, (4, 5),
            ld(30, ld(1, varint(1)) + ld(2, varint(0)))),
        ins("all-reduce.1", "all-reduce", F16, [512, 256], 7, (6,), ld(38, varint(4))),
        ins("r", "parameter", F32, [4096, 512], 8),
        ins("input_reduce_fusion", "fusion", F32, [4096], 9, (8,), ld(38, varint(2))),
        ins("ga", "parameter", F16, [256, 512], 10), ins("gb", "parameter", F16, [512, 128], 11),
        ins("cublas-gemm.1", "custom-call", None, None, 12, (10, 11),
            custom_call(r"__cublas$gemm", GEMM_WRAPPED),
            tuple_shape(shape(F16, [256, 128]), shape(U8, [4194304]))),
        ins("ba", "parameter", F32, [4, 64, 32], 13), ins("bb", "parameter", F32, [4, 32, 16], 14),
        ins("bc", "parameter", F32, [4, 64, 16], 15),
        ins("custom-call.2", "custom-call", F32, [4, 64, 16], 16, (13, 14, 15),
            custom_call(r"__cublas$gemm", GEMM_OLD)),
        ins("custom-call.3", "custom-call", None, None, 17, (10, 11),
            custom_call(r"__cublas$lt$matmul", "{not json"),
            tuple_shape(shape(F16, [256, 128]), shape(U8, [1024])))])
    module = ld(1, "jit_step") + ld(2, "main") + ld(3, fused_add) + ld(3, fused_reduce) + \
        ld(3, region) + ld(3, entry) + vint(6, 3)
    return ld(1, module)


def host_file(n, hlo=False):
    shift = n * 1000 * 1000   # ps
    us = 1000 * 1000          # ps per us
    g0 = Plane(0, "/device:GPU:0")
    g0.plane_stats = b"".join(ld(6, s) for s in (
        g0.stat("device_vendor", "Nvidia"), g0.stat("core_count", 132),
        g0.stat("clock_rate", 1980000), g0.stat("memory_bandwidth", 3352000000000)))
    kernels = [  # name, corr, start us, dur us, hlo_op, name stack
        ("loop_add_fusion", 1, 10, 10, "loop_add_fusion", "jit(step)/add"),
        ("Cijk_Alik_Bljk_HHS", 2, 30, 40, "dot.3", "jit(step)/dot_general"),
        ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 3, 80, 25, "all-reduce.1", "jit(step)/psum"),
        ("input_reduce_fusion", 4, 110, 5, "input_reduce_fusion", None),
    ]
    evs = []
    for name, corr, s, d, op, stack in kernels:
        st = [g0.stat("correlation_id", corr),
              g0.ref("kernel_details", "regs:32 static_shared:0 dynamic_shared:1024 grid:128,1,1 block:256,1,1"),
              g0.ref("hlo_op", op), g0.ref("hlo_module", "jit_step")]
        if stack:
            st.append(g0.ref("name", stack))
        evs.append(g0.event(name, s * us + shift, d * us, st))
    g0.line(7, "Stream #7(Kernel)", 1000000, evs)
    g0.line(8, "Stream #8(MemcpyH2D)", 1000000, [g0.event("MemcpyH2D", 120 * us + shift, 2 * us, [
        g0.stat("correlation_id", 5), g0.ref("memcpy_details", "kind:HtoD size:4096 dest:0 async:1")])])
    g1 = Plane(1, "/device:GPU:1")
    gemms = []
    if hlo:
        gemms = [g1.event(name, s * us + shift, d * us, [
            g1.stat("correlation_id", corr), g1.ref("hlo_op", op), g1.ref("hlo_module", "jit_step")])
            for name, corr, s, d, op in (
                ("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
                 "execute_segment_k_off_kernel__5x_cublas", 8, 50, 6, "cublas-gemm.1"),
                ("volta_sgemm_128x64_nn", 9, 60, 4, "custom-call.2"),
                ("volta_sgemm_32x32_nn", 10, 70, 2, "custom-call.3"))]
    g1.line(9, "Stream #9(Kernel)", 1000000, [
        g1.event("loop_add_fusion.kd", 10 * us + shift, 10 * us, [
            g1.stat("correlation_id", 6), g1.ref("hlo_op", "loop_add_fusion"), g1.ref("hlo_module", "jit_step")]),
        g1.event("gather_kernel_impl", 40 * us + shift, 8 * us, [
            g1.stat("correlation_id", 7), g1.ref("hlo_op", "all-gather-start.2"), g1.ref("hlo_module", "jit_step")])]
        + gemms)
    h = Plane(0, "/host:CPU")
    hevs = [h.event("jit_step:XLA GPU module", 1 * us + shift, 120 * us),
            h.event("train", 2 * us + shift, 58 * us, [h.stat("step_num", 0)]),
            h.event("train", 60 * us + shift, 61 * us, [h.stat("step_num", 1)]),
            h.event("MemoryAllocation", 3 * us + shift, 0, [
                h.ref("allocator_name", "GPU_0_bfc"), h.stat("allocation_bytes", 1 << 20),
                h.stat("bytes_allocated", 1 << 20), h.stat("addr", 0x7f0000000000)])]
    for name, corr, s, d, op, stack in kernels:
        st = [h.stat("correlation_id", corr), h.stat("device_id", 0)]
        if op == "input_reduce_fusion":
            st += [h.ref("name", "jit(step)/reduce_sum")]
        hevs.append(h.event("cuLaunchKernel", (s - 5) * us + shift, 2 * us, st))
    hevs.append(h.event("cuMemcpyHtoDAsync", 115 * us + shift, 1 * us, [h.stat("correlation_id", 5)]))
    hevs.append(h.event("cuLaunchKernel", 36 * us + shift, 1 * us, [h.stat("correlation_id", 7), h.stat("device_id", 1)]))
    h.line(100 + n, "Host Threads/%d" % (100 + n), 1000000, hevs)
    meta = Plane(0, "/host:metadata")
    if hlo:
        i = meta.ev("jit_step(3)")
        meta.metadata_stats = {i: ld(5, vint(1, meta.st("Hlo Proto")) + ld(6, hlo_module()))}
    space = ld(1, meta.encode()) + ld(1, g0.encode()) + ld(1, g1.encode()) + ld(1, h.encode())
    return space + ld(4, "host%d" % n)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "host":
        args = sys.argv[3:]
        n = int(args[args.index("--host") + 1]) if "--host" in args else 0
        with open(sys.argv[2], "wb") as f:
            f.write(host_file(n, "--hlo" in args))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
