"""Python binding of libgpuprof (ctypes; no compiled extension).

Ranges, training-loop markers and timers for programs that gpuprof,
Nsight Systems or any NVTX tool profiles::

    import gpuprof
    with gpuprof.range("data loading"):
        ...
    with gpuprof.iteration():
        with gpuprof.forward():
            ...
    with gpuprof.timer("step"):
        ...
    gpuprof.timer_report()

The library is found through $GPUPROF_LIB, then next to this package
(../../build/libgpuprof.so in a source tree), then the loader's path
(libgpuprof.so.0).  Without it every function is a no-op, so annotated
code runs anywhere.  PyTorch helpers are in gpuprof.torch.

The analysis side: gpuprof.load("trace.json.gz") and gpuprof.load_job(DIR)
give a Trace whose tables (kernels, ops, layers, steps, breakdown, gaps,
findings, collectives, memory) are pandas DataFrames, computed by the
gpuprof CLI (gpuprof.trace, docs/python.md).  pandas is imported only
then.
"""

import contextlib
import ctypes
import os
import sys
import tempfile

__all__ = [
    "available", "lib_path", "push", "pop", "range", "layer", "mark", "layer_path",
    "iteration", "forward", "backward", "update", "phase_begin", "phase_end",
    "set_sync_level", "sync_level", "set_sync_hook", "timer", "gpu_timer", "timer_stats",
    "timer_report", "profiler", "profiler_start", "profiler_stop", "shutdown",
    "ITERATION", "FORWARD", "BACKWARD", "UPDATE",
    "load", "load_job", "Trace", "GpuprofError",
]

# the analysis side (standard library only at import; pandas when used)
from .trace import GpuprofError, Trace, load, load_job  # noqa: E402

ITERATION, FORWARD, BACKWARD, UPDATE = 0, 1, 2, 3
_PHASES = {"iteration": ITERATION, "forward": FORWARD, "backward": BACKWARD, "update": UPDATE}


class _TimerScope(ctypes.Structure):
    _fields_ = [("t", ctypes.c_void_p), ("start", ctypes.c_int64),
                ("stream", ctypes.c_void_p), ("priv", ctypes.c_void_p)]


class _TimerStats(ctypes.Structure):
    _fields_ = [("sz", ctypes.c_size_t), ("count", ctypes.c_uint64),
                ("total_ns", ctypes.c_double), ("min_ns", ctypes.c_double),
                ("max_ns", ctypes.c_double), ("avg_ns", ctypes.c_double),
                ("stddev_ns", ctypes.c_double)]


_SYNC_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _candidates():
    env = os.environ.get("GPUPROF_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "build", "libgpuprof.so")
    yield os.path.join(here, "..", "..", "..", "lib", "libgpuprof.so")  # PREFIX/lib/pythonX/...
    yield "libgpuprof.so.0"
    yield "libgpuprof.so"


def _load():
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        return lib, path
    return None, None


_lib, lib_path = _load()


def _setup(lib):
    c_char_p, c_int, c_void_p = ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p
    sigs = {
        "gp_push": (None, [c_char_p]),
        "gp_push_ex": (None, [c_void_p, c_char_p, ctypes.c_uint32]),
        "gp_pop": (None, []),
        "gp_layer_push": (None, [c_char_p]),
        "gp_layer_path": (ctypes.c_size_t, [c_char_p, ctypes.c_size_t]),
        "gp_mark": (None, [c_void_p, c_char_p, ctypes.c_uint32]),
        "gp_domain_get": (c_void_p, [c_char_p]),
        "gp_depth": (c_int, []),
        "gp_phase_begin": (None, [c_int]),
        "gp_phase_end": (None, [c_int]),
        "gp_iteration_count": (ctypes.c_int64, []),
        "gp_set_sync_level": (c_int, [c_int]),
        "gp_sync_level": (c_int, []),
        "gp_set_sync_hook": (None, [_SYNC_FN, c_void_p]),
        "gp_timer_get": (c_void_p, [c_char_p]),
        "gp_gpu_timer_get": (c_void_p, [c_char_p]),
        "gp_timer_begin": (_TimerScope, [c_void_p]),
        "gp_gpu_timer_begin": (_TimerScope, [c_void_p, c_void_p]),
        "gp_timer_end": (None, [ctypes.POINTER(_TimerScope)]),
        "gp_timer_stats": (c_int, [c_char_p, c_int, ctypes.POINTER(_TimerStats)]),
        "gp_timer_reset_all": (None, []),
        "gp_profiler_start": (c_int, []),
        "gp_profiler_stop": (c_int, []),
        "gp_cuda_available": (c_int, []),
        "gp_shutdown": (None, []),
        "gp_version": (c_char_p, []),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args


if _lib is not None:
    _setup(_lib)


def available():
    """True when libgpuprof was found (annotations then reach NVTX)."""
    return _lib is not None


def _b(s):
    return s.encode("utf-8", "replace") if isinstance(s, str) else bytes(s)


_domains = {}


def _domain(name):
    if not name or _lib is None:
        return None
    d = _domains.get(name)
    if d is None:
        d = _domains[name] = _lib.gp_domain_get(_b(name))
    return d


# ---- ranges -----------------------------------------------------------------

def push(name, color=0, domain=None):
    """Opens an NVTX push range on this thread; close it with pop()."""
    if _lib is None:
        return
    if color or domain:
        _lib.gp_push_ex(_domain(domain), _b(name), color)
    else:
        _lib.gp_push(_b(name))


def pop():
    """Closes this thread's innermost range."""
    if _lib is not None:
        _lib.gp_pop()


@contextlib.contextmanager
def range(name, color=0, domain=None):  # noqa: A001 (mirrors nvtx.range)
    """A push/pop range around a block."""
    push(name, color, domain)
    try:
        yield
    finally:
        pop()


@contextlib.contextmanager
def layer(name):
    """A PyProf layer range ("layer:NAME") around a block."""
    if _lib is not None:
        _lib.gp_layer_push(_b(name))
    try:
        yield
    finally:
        pop()


def layer_path():
    """This thread's open layer names joined with ':' (PyProf's layer path)."""
    if _lib is None:
        return ""
    n = _lib.gp_layer_path(None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _lib.gp_layer_path(buf, n + 1)
    return buf.value.decode("utf-8", "replace")


def depth():
    """How many ranges are open on this thread."""
    return _lib.gp_depth() if _lib is not None else 0


def mark(name, color=0, domain=None):
    """An instant event."""
    if _lib is not None:
        _lib.gp_mark(_domain(domain), _b(name), color)


# ---- training-loop markers --------------------------------------------------

def phase_begin(phase):
    """Opens the iteration/forward/backward/update range (a name or a constant)."""
    if _lib is not None:
        _lib.gp_phase_begin(_PHASES.get(phase, phase))


def phase_end(phase):
    if _lib is not None:
        _lib.gp_phase_end(_PHASES.get(phase, phase))


@contextlib.contextmanager
def _phase(p):
    phase_begin(p)
    try:
        yield
    finally:
        phase_end(p)


def iteration():
    return _phase(ITERATION)


def forward():
    return _phase(FORWARD)


def backward():
    return _phase(BACKWARD)


def update():
    return _phase(UPDATE)


def iteration_count():
    return _lib.gp_iteration_count() if _lib is not None else 0


def set_sync_level(level):
    """0 = never synchronize; 1 around iterations; 2 also forward/backward/
    update; 3 around every range (chainer_profutil).  Returns the previous
    level.  Raises ValueError outside 0..3."""
    if level not in (0, 1, 2, 3):
        raise ValueError("sync level must be 0, 1, 2 or 3")
    return _lib.gp_set_sync_level(level) if _lib is not None else 0


def sync_level():
    return _lib.gp_sync_level() if _lib is not None else 0


_sync_hook = None


def set_sync_hook(fn):
    """Makes sync levels call fn() (e.g. torch.cuda.synchronize) instead of
    cudaDeviceSynchronize; None restores the default."""
    global _sync_hook
    if _lib is None:
        return
    if fn is None:
        _sync_hook = None
        _lib.gp_set_sync_hook(_SYNC_FN(), None)
        return
    _sync_hook = _SYNC_FN(lambda ctx: fn())   # kept alive while installed
    _lib.gp_set_sync_hook(_sync_hook, None)


# ---- timers -----------------------------------------------------------------

_timers = {}


def _timer_handle(name, gpu):
    h = _timers.get((name, gpu))
    if h is None:
        get = _lib.gp_gpu_timer_get if gpu else _lib.gp_timer_get
        h = _timers[(name, gpu)] = get(_b(name))
    return h


@contextlib.contextmanager
def timer(name):
    """A CPU timer around a block (PaddlePaddle's REGISTER_TIMER_INFO)."""
    if _lib is None:
        yield
        return
    s = _lib.gp_timer_begin(_timer_handle(name, False))
    try:
        yield
    finally:
        _lib.gp_timer_end(ctypes.byref(s))


@contextlib.contextmanager
def gpu_timer(name, stream=None):
    """A GPU timer (CUDA events) around the work a block queues on stream
    (a cudaStream_t as an int, e.g. torch.cuda.current_stream().cuda_stream)."""
    if _lib is None:
        yield
        return
    s = _lib.gp_gpu_timer_begin(_timer_handle(name, True), stream)
    try:
        yield
    finally:
        _lib.gp_timer_end(ctypes.byref(s))


def timer_stats(name, gpu=False):
    """A dict (count, total_ns, min_ns, max_ns, avg_ns, stddev_ns), or None."""
    if _lib is None:
        return None
    st = _TimerStats(sz=ctypes.sizeof(_TimerStats))
    if _lib.gp_timer_stats(_b(name), 1 if gpu else 0, ctypes.byref(st)) != 0:
        return None
    return {k: getattr(st, k) for k, _ in _TimerStats._fields_ if k != "sz"}


def timer_report(file=None, format="table"):
    """Writes every timer's statistics (table or csv) to file (default stdout)."""
    if _lib is None:
        return
    if format not in ("table", "csv"):
        raise ValueError("format must be 'table' or 'csv'")
    fmt = 1 if format == "csv" else 0
    # The C library writes to a FILE*; Python owns `file`: go through a
    # temporary file.
    libc = ctypes.CDLL(None)
    libc.fdopen.restype = ctypes.c_void_p
    libc.fdopen.argtypes = [ctypes.c_int, ctypes.c_char_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    report = _lib.gp_timer_report
    report.argtypes = [ctypes.c_void_p, ctypes.c_int]
    with tempfile.TemporaryFile() as tmp:
        fp = libc.fdopen(os.dup(tmp.fileno()), b"w")
        if not fp:
            raise OSError("fdopen failed")
        report(fp, fmt)
        libc.fclose(fp)
        tmp.seek(0)
        text = tmp.read().decode("utf-8", "replace")
    (file or sys.stdout).write(text)


def timer_reset():
    if _lib is not None:
        _lib.gp_timer_reset_all()


# ---- profiler capture range -------------------------------------------------

def profiler_start():
    """cudaProfilerStart (nsys --capture-range=cudaProfilerApi); False
    without CUDA."""
    return _lib is not None and _lib.gp_profiler_start() == 0


def profiler_stop():
    return _lib is not None and _lib.gp_profiler_stop() == 0


@contextlib.contextmanager
def profiler():
    """The profiler's capture range around a block; harmless without CUDA."""
    profiler_start()
    try:
        yield
    finally:
        profiler_stop()


def cuda_available():
    return _lib is not None and _lib.gp_cuda_available() == 1


def shutdown():
    """Writes the recording now (GPUPROF_RECORD); also happens at exit."""
    if _lib is not None:
        _lib.gp_shutdown()


def _at_exit():
    # Python callbacks must not outlive the interpreter: the C library's own
    # exit handler (which writes the recording) runs after Python is gone.
    if _lib is not None and _sync_hook is not None:
        set_sync_hook(None)


import atexit  # noqa: E402

atexit.register(_at_exit)
