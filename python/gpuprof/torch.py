"""PyTorch helpers for libgpuprof.

annotate_model(model): every module's forward becomes a PyProf layer range
("layer:conv1" inside "layer:layer1" inside "layer:ResNet"), so gpuprof
report names the layer of each kernel.

marked_optimizer(opt, model, sync=True, sync_level=1): chainer_profutil's
create_marked_profile_optimizer for PyTorch: iteration, forward, backward
and update ranges with a sync level::

    model = gpuprof.torch.annotate_model(model)
    opt = gpuprof.torch.marked_optimizer(torch.optim.SGD(...), model, sync_level=2)
    for x, y in loader:
        loss = criterion(model(x), y)      # iteration + forward begin/end
        opt.zero_grad()
        opt.backward(loss)                 # loss.backward() in a backward range
        opt.step()                         # update range; the iteration ends

torch itself is only imported to synchronize (torch.cuda.synchronize);
everything works with objects that look like torch modules/optimizers.
"""

import gpuprof as _gp

__all__ = ["annotate_model", "marked_optimizer", "MarkedOptimizer"]


class _Handles(list):
    """Hook handles; remove() takes the annotations off again."""

    def remove(self):
        for h in self:
            h.remove()
        del self[:]


def _register(module, hook, post, first=False):
    """Registers a forward pre-hook (post=False) or hook (post=True).
    first=True puts it before the module's other hooks (prepend, torch >=
    2.0): on the model both helpers annotate, marked_optimizer's pre-hook
    comes first and annotate_model's post-hook too, so "iteration" and
    "forward" enclose "layer:Model" whichever helper was applied first (the
    ranges are a stack: a wrong order closes the wrong one).  always_call
    (torch >= 2.0) closes the range even when forward raises."""
    reg = module.register_forward_hook if post else module.register_forward_pre_hook
    tries = [{"prepend": True}, {}] if first else [{}]
    if post:
        tries = [dict(t, always_call=True) for t in tries] + tries
    for kw in tries[:-1]:
        try:
            return reg(hook, **kw)
        except TypeError:
            pass
    return reg(hook, **tries[-1])


def annotate_model(model, name=None):
    """Makes each module's forward a "layer:NAME" range, NAME being its
    attribute name (the root: name, or its class name).  Nested modules give
    nested ranges, hence PyProf's layer path.  Returns model; the hook
    handles are in model._gpuprof_handles (call .remove() to undo)."""
    handles = _Handles()
    for qualname, module in model.named_modules():
        local = qualname.rsplit(".", 1)[-1] if qualname else (name or type(model).__name__)
        label = _gp._b(local)

        def pre(mod, inputs, _label=label):
            if _gp._lib is not None:
                _gp._lib.gp_layer_push(_label)

        def post(mod, inputs, output):
            _gp.pop()

        handles.append(_register(module, pre, post=False))
        handles.append(_register(module, post, post=True, first=True))
    old = getattr(model, "_gpuprof_handles", None)
    if old is not None:
        old.remove()
    model._gpuprof_handles = handles
    return model


def _default_sync():
    try:
        import torch
    except ImportError:
        return None
    if torch.cuda.is_available():
        return torch.cuda.synchronize
    return None


class MarkedOptimizer:
    """Wraps an optimizer: step() is an "update" range and ends the
    iteration; backward(loss) runs loss.backward() in a "backward" range;
    with a model, its forward opens the iteration (if none is open) and is a
    "forward" range.  Other attributes are the wrapped optimizer's."""

    def __init__(self, optimizer, model=None, sync=True, sync_level=1, sync_fn=None):
        if sync and sync_level not in (1, 2, 3):
            raise ValueError("sync_level must be 1, 2 or 3")
        self._opt = optimizer
        self._in_iteration = False
        self._handles = _Handles()
        _gp.set_sync_level(sync_level if sync else 0)
        if sync:
            _gp.set_sync_hook(sync_fn or _default_sync())
        if model is not None:
            self._handles.append(_register(model, self._forward_pre, post=False, first=True))
            self._handles.append(_register(model, self._forward_post, post=True))

    def __getattr__(self, name):
        return getattr(self._opt, name)

    def _begin_iteration(self):
        if not self._in_iteration:
            _gp.phase_begin(_gp.ITERATION)
            self._in_iteration = True

    def _forward_pre(self, module, inputs):
        self._begin_iteration()
        _gp.phase_begin(_gp.FORWARD)

    def _forward_post(self, module, inputs, output):
        _gp.phase_end(_gp.FORWARD)

    def backward(self, loss, *args, **kwargs):
        """loss.backward(*args, **kwargs) inside a "backward" range."""
        self._begin_iteration()
        _gp.phase_begin(_gp.BACKWARD)
        try:
            return loss.backward(*args, **kwargs)
        finally:
            _gp.phase_end(_gp.BACKWARD)

    def step(self, *args, **kwargs):
        """The wrapped step() inside an "update" range; ends the iteration."""
        self._begin_iteration()
        _gp.phase_begin(_gp.UPDATE)
        try:
            return self._opt.step(*args, **kwargs)
        finally:
            _gp.phase_end(_gp.UPDATE)
            _gp.phase_end(_gp.ITERATION)
            self._in_iteration = False

    def remove(self):
        """Takes the model hooks off again."""
        self._handles.remove()


def marked_optimizer(optimizer, model=None, sync=True, sync_level=1, sync_fn=None):
    """chainer_profutil's create_marked_profile_optimizer for PyTorch (see
    MarkedOptimizer).  sync_level 1 synchronizes around iterations, 2 also
    around forward/backward/update, 3 around every range (process-wide);
    sync=False never synchronizes.  sync_fn defaults to
    torch.cuda.synchronize when CUDA is available."""
    return MarkedOptimizer(optimizer, model, sync, sync_level, sync_fn)
