"""fusedconv3d_torch - run fusedconv3d plans on PyTorch tensors.

    import fusedconv3d_torch as fc
    conv = nn.ConvTranspose3d(16, 32, 3, stride=2, padding=1)
    bn = nn.BatchNorm3d(32)
    fused = fc.FusedConvTranspose3d(conv, bn, fc.SubtractSpatialMean()).cuda()
    with torch.no_grad():
        y = fused(x)          # = x -> conv -> bn -> x - x.mean((2,3,4), keepdim=True)

The fused module shares the parameters and buffers of the modules it was built from and follows
their train()/eval() state exactly: a BatchNorm3d in training mode normalizes with batch statistics
and updates running_mean, running_var and num_batches_tracked as PyTorch does.

The CUDA extension (fc3d_ext.cu, which includes ../../fusedconv3d.cuh) is compiled on first use by
torch.utils.cpp_extension.load; set TORCH_EXTENSIONS_DIR to choose where the build is cached.

Supported epilogue entries, in any order (a pool only last), at most MAX_OPS of them:
    nn.ReLU, F.relu, torch.relu            nn.GELU() / nn.GELU(approximate="tanh"), F.gelu
    nn.BatchNorm3d (train and eval)        nn.GroupNorm
    nn.LayerNorm over 1..4 trailing dims   Scale(v), or a plain int/float v: x * v
    AddChannel(vector)                     SubtractSpatialMean()
    nn.AdaptiveAvgPool3d(1)
Tensors: float32, float16 or bfloat16, contiguous (NCDHW) or channels_last_3d, on a CUDA device;
a 4D (C, D, H, W) input runs as a batch of one when every epilogue entry means the same unbatched.
BatchNorm with momentum=None reads num_batches_tracked on the host, as PyTorch does (a sync).
Forward only: call it under torch.no_grad() or torch.inference_mode().
Anything else raises FusedConv3dError with the reason (the library's own message where it has one).

Math: by default (math=None) the module follows PyTorch's own setting for convolutions at each call,
as a drop-in should: TF32 operands when torch.backends.cudnn.allow_tf32 is true (PyTorch's
default), the accurate FP32 mode otherwise. math="fp32" / "tf32" / "half" fixes the mode.
Engine: engine=None lets the library choose; engine="direct" (or any name in engine_names()) forces
one. After a call, module.last_engine, module.last_main_loop and module.last_math say what ran.
"""
import os
import threading

import torch
import torch.nn as nn
import torch.nn.functional as F

__all__ = ["FusedConv3dError", "FusedConvTranspose3d", "Scale", "AddChannel", "SubtractSpatialMean",
           "load_extension", "MATH_MODES", "engine_names", "pytorch_math"]

MATH_MODES = ("fp32", "tf32", "half")


def pytorch_math():
    """The math mode that follows PyTorch's own setting for convolutions now: "tf32" when
    torch.backends.cudnn.allow_tf32 is true (PyTorch's default), else "fp32"."""
    return "tf32" if torch.backends.cudnn.allow_tf32 else "fp32"


class FusedConv3dError(RuntimeError):
    """An input the library cannot run. `code` is the library's fc3d_result (0 for checks made
    on the Python side before the library is called)."""

    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code


_ext = None
_ext_lock = threading.Lock()


def load_extension(verbose=False):
    """Compiles (first time) and returns the extension module."""
    global _ext
    with _ext_lock:
        if _ext is None:
            from torch.utils.cpp_extension import load
            here = os.path.dirname(os.path.abspath(__file__))
            root = os.path.dirname(os.path.dirname(here))
            cuda_flags = ["-O2", "-std=c++17"]
            if torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0):
                # Hopper's own image beside PyTorch's sm_90 one: the runtime loads it, and it
                # carries the wgmma main loop
                cuda_flags.append("-gencode=arch=compute_90a,code=sm_90a")
            _ext = load(name="fusedconv3d_ext", sources=[os.path.join(here, "fc3d_ext.cu")],
                        extra_include_paths=[root], extra_cuda_cflags=cuda_flags,
                        extra_cflags=["-O2"], verbose=verbose)
        return _ext


def engine_names():
    """The names of the library's engines (without "auto"), in the order of their ids, as the
    compiled header defines them. Loads (and on first use compiles) the extension."""
    ext = load_extension()
    return tuple(ext.engine_name(e) for e in range(ext.ENGINE_AUTO + 1, ext.ENGINE_COUNT))


def _engine_id(ext, name):
    if name is None or name == "auto":
        return ext.ENGINE_AUTO
    for e in range(ext.ENGINE_AUTO + 1, ext.ENGINE_COUNT):
        if ext.engine_name(e) == name:
            return e
    raise FusedConv3dError(f"engine must be None, 'auto' or one of {engine_names()}, got {name!r}")


# ---- epilogue modules that PyTorch lacks (each also runs unfused, for reference) ---------------

class Scale(nn.Module):
    """x * value."""

    def __init__(self, value):
        super().__init__()
        self.value = float(value)

    def forward(self, x):
        return x * self.value

    def extra_repr(self):
        return f"value={self.value}"


class AddChannel(nn.Module):
    """x + vector.view(1, C, 1, 1, 1). `vector` becomes a parameter (pass requires_grad=False for
    a buffer-like constant)."""

    def __init__(self, vector, requires_grad=True):
        super().__init__()
        self.vector = nn.Parameter(torch.as_tensor(vector).detach().clone().reshape(-1), requires_grad=requires_grad)

    def forward(self, x):
        return x + self.vector.view(1, -1, 1, 1, 1)


class SubtractSpatialMean(nn.Module):
    """x - x.mean(dim=(2, 3, 4), keepdim=True)."""

    def forward(self, x):
        return x - x.mean(dim=(2, 3, 4), keepdim=True)


# ---- the fused module -------------------------------------------------------------------------

_DTYPES = {torch.float32: "DTYPE_F32", torch.float16: "DTYPE_F16", torch.bfloat16: "DTYPE_BF16"}
_MATH = {"fp32": "MATH_FP32", "tf32": "MATH_TF32", "half": "MATH_HALF"}


def _triple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v, v)


def _is_pool(m):
    if not isinstance(m, nn.AdaptiveAvgPool3d):
        return False
    size = m.output_size if isinstance(m.output_size, (tuple, list)) else (m.output_size,) * 3
    return all(s == 1 for s in size)


def _describe_entry(e):
    return type(e).__name__ if isinstance(e, nn.Module) else getattr(e, "__name__", repr(e))


def _normalize_entry(i, e):
    """An epilogue entry as a module this file knows how to lower; raises for anything else."""
    if isinstance(e, bool):
        raise FusedConv3dError(f"epilogue[{i}]: a bool is not a scale factor")
    if isinstance(e, (int, float)):
        return Scale(e)
    if e is F.relu or e is torch.relu:
        return nn.ReLU()
    if e is F.gelu:
        return nn.GELU()
    if isinstance(e, (nn.ReLU, nn.GELU, nn.BatchNorm3d, nn.GroupNorm, nn.LayerNorm, Scale, AddChannel,
                      SubtractSpatialMean)) or _is_pool(e):
        if isinstance(e, nn.GELU) and e.approximate not in ("none", "tanh"):
            raise FusedConv3dError(f"epilogue[{i}]: GELU approximate={e.approximate!r} is not supported")
        return e
    raise FusedConv3dError(f"epilogue[{i}]: {_describe_entry(e)} is not a supported epilogue "
                           "(ReLU, GELU, BatchNorm3d, GroupNorm, LayerNorm, Scale, AddChannel, "
                           "SubtractSpatialMean, AdaptiveAvgPool3d(1))")


class FusedConvTranspose3d(nn.Module):
    """conv followed by the epilogue, computed by one fusedconv3d plan.

    conv: an nn.ConvTranspose3d (padding_mode 'zeros'); its weight and bias are used as they are.
    epilogue: modules / functions / numbers, see the module docstring.
    math: None (default: follow torch.backends.cudnn.allow_tf32 at each call, see pytorch_math()),
    "fp32" (accurate), "tf32" (operands rounded to TF32, as cuDNN by default) or "half" (operands
    rounded to 16 bits). An explicit mode wins over PyTorch's setting.
    engine: None (the library chooses) or an engine name from engine_names(), forcing that engine;
    an engine that cannot implement the problem raises FusedConv3dError with the library's reason.
    After a call, last_math and last_engine hold the math mode and the engine that ran.
    The modules are registered as submodules (conv, epilogue.0, ...), so .cuda(), .to(),
    state_dict() and train()/eval() reach them."""

    def __init__(self, conv, *epilogue, math=None, engine=None):
        super().__init__()
        if not isinstance(conv, nn.ConvTranspose3d):
            raise FusedConv3dError(f"conv must be an nn.ConvTranspose3d, got {_describe_entry(conv)}")
        if conv.padding_mode != "zeros":
            raise FusedConv3dError(f"conv.padding_mode {conv.padding_mode!r} is not supported (only 'zeros')")
        if isinstance(conv.padding, str):
            raise FusedConv3dError(f"conv.padding {conv.padding!r} is not supported (give numbers)")
        entries = [_normalize_entry(i, e) for i, e in enumerate(epilogue)]
        for i, e in enumerate(entries):
            if _is_pool(e) and i != len(entries) - 1:
                raise FusedConv3dError(f"epilogue[{i}]: AdaptiveAvgPool3d(1) must be the last entry")
        self.conv = conv
        self.epilogue = nn.ModuleList(entries)
        self.math = math
        self.engine = engine
        self._plans = {}
        self._zero_bias = {}
        self.last_math = None    # the math mode of the last successful call
        self.last_engine = None  # the engine name of the last successful call
        self.last_main_loop = None  # its tensor-core main loop ("halo", "wgmma", "mma.sync"; "" for direct)

    @property
    def math(self):
        """The math setting: None (follows PyTorch, see pytorch_math()) or a mode of MATH_MODES."""
        return self._math

    @math.setter
    def math(self, value):
        if value is not None and value not in MATH_MODES:
            raise FusedConv3dError(f"math must be one of {MATH_MODES} or None, got {value!r}")
        self._math = value

    def math_now(self):
        """The math mode a call would use now: the explicit one, or PyTorch's current setting."""
        return self._math if self._math is not None else pytorch_math()

    @property
    def engine(self):
        """The engine setting: None (the library chooses) or an engine name (checked at the call)."""
        return self._engine

    @engine.setter
    def engine(self, value):
        if value == "auto":
            value = None
        if value is not None and not isinstance(value, str):
            raise FusedConv3dError(f"engine must be None or an engine name (str), got {value!r}")
        self._engine = value

    def extra_repr(self):
        return f"math={self._math!r}, engine={self._engine!r}"

    # -- lowering ---------------------------------------------------------------------------------
    def _lower_ops(self, ext, conv_dims):
        """(op tuples for the plan, tensor binders): one entry per epilogue module, reflecting the
        modules' current state (training flag, momentum, eps, affine)."""
        ops, binders = [], []
        C = conv_dims[1]
        for i, e in enumerate(self.epilogue):
            flags, value, eps, momentum, groups, nd = 0, 0.0, 0.0, 0.0, 0, 0
            bind = {}
            if isinstance(e, nn.ReLU):
                kind = ext.OP_RELU
            elif isinstance(e, nn.GELU):
                kind = ext.OP_GELU if e.approximate == "none" else ext.OP_GELU_TANH
            elif isinstance(e, Scale):
                kind, value = ext.OP_SCALE, e.value
            elif isinstance(e, AddChannel):
                kind = ext.OP_ADD_CHANNEL
                bind["bias"] = e.vector
            elif isinstance(e, SubtractSpatialMean):
                kind = ext.OP_SUB_SPATIAL_MEAN
            elif _is_pool(e):
                kind = ext.OP_GLOBAL_AVG_POOL
            elif isinstance(e, nn.BatchNorm3d):
                kind, eps, flags, momentum, bind = self._lower_batchnorm(ext, i, e)
            elif isinstance(e, nn.GroupNorm):
                kind, groups, eps = ext.OP_GROUPNORM, e.num_groups, self._eps(i, e.eps)
                if e.num_channels != C:
                    raise FusedConv3dError(f"epilogue[{i}]: GroupNorm has {e.num_channels} channels, the "
                                           f"convolution gives {C}")
                if e.affine:
                    flags |= ext.AFFINE
                    bind = {"weight": e.weight, "bias": e.bias}
            elif isinstance(e, nn.LayerNorm):
                shape = tuple(e.normalized_shape)
                nd = len(shape)
                if not 1 <= nd <= 4 or shape != tuple(conv_dims[5 - nd:]):
                    raise FusedConv3dError(f"epilogue[{i}]: LayerNorm{shape} does not match the trailing dims "
                                           f"of the convolution output {tuple(conv_dims)}")
                kind, eps = ext.OP_LAYERNORM, self._eps(i, e.eps)
                if e.elementwise_affine:
                    flags |= ext.AFFINE
                    bind = {"weight": e.weight, "bias": e.bias if e.bias is not None else self._zeros_like(e.weight)}
            else:  # unreachable: _normalize_entry admits nothing else
                raise FusedConv3dError(f"epilogue[{i}]: {_describe_entry(e)} cannot be lowered")
            ops.append((kind, value, eps, momentum, groups, nd, flags))
            binders.append(bind)
        return ops, binders

    @staticmethod
    def _eps(i, eps):
        if not eps > 0:
            raise FusedConv3dError(f"epilogue[{i}]: eps must be > 0 (got {eps})")
        return float(eps)

    def _lower_batchnorm(self, ext, i, bn):
        """BatchNorm3d as PyTorch's _BatchNorm.forward decides it: batch statistics in training or
        when no running statistics are tracked; running-stat update (and num_batches_tracked) only
        in training with tracked statistics."""
        eps = self._eps(i, bn.eps)
        bind, flags = {}, 0
        if bn.affine:
            flags |= ext.AFFINE
            bind = {"weight": bn.weight, "bias": bn.bias}
        tracked = bn.running_mean is not None and bn.running_var is not None
        if not bn.training and tracked:
            bind.update(running_mean=bn.running_mean, running_var=bn.running_var)
            return ext.OP_BATCHNORM_INFER, eps, flags, 0.0, bind
        momentum = 0.0
        if bn.training and tracked:
            bind["_bn_update"] = bn  # num_batches_tracked and momentum are settled at run time
            flags |= ext.UPDATE_RUNNING_STATS
            bind.update(running_mean=bn.running_mean, running_var=bn.running_var)
            momentum = self._bn_momentum(bn, peek=True)
            if momentum == 0.0:  # PyTorch leaves the statistics unchanged: no update at all
                flags &= ~ext.UPDATE_RUNNING_STATS
                del bind["running_mean"], bind["running_var"]
        return ext.OP_BATCHNORM_TRAIN, eps, flags, momentum, bind

    @staticmethod
    def _bn_momentum(bn, peek):
        if bn.momentum is not None:
            return float(bn.momentum)
        tracked = int(bn.num_batches_tracked.item()) if bn.num_batches_tracked is not None else 0
        return 1.0 / float(tracked + 1 if peek else tracked)  # cumulative moving average

    def _zeros_like(self, t):
        key = (t.device, t.numel())
        z = self._zero_bias.get(key)
        if z is None:
            z = self._zero_bias[key] = torch.zeros(t.numel(), device=t.device, dtype=torch.float32)
        return z

    # -- forward ----------------------------------------------------------------------------------
    def forward(self, x):
        if torch.is_grad_enabled() and (x.requires_grad or any(p.requires_grad for p in self.parameters())):
            raise FusedConv3dError("fusedconv3d computes the forward pass only: call it under torch.no_grad() "
                                   "or torch.inference_mode()")
        unbatched = x.dim() == 4
        if unbatched:
            self._check_unbatched()
            x = x.unsqueeze(0)
        y = self._forward5d(x)
        return y.squeeze(0) if unbatched else y

    def _check_unbatched(self):
        """A 4D (C, D, H, W) input runs as a batch of one only where PyTorch's own modules give that
        meaning to a 4D tensor too; BatchNorm3d, GroupNorm, AddChannel and SubtractSpatialMean
        reject it or read it differently there, so they refuse it here as well."""
        for i, e in enumerate(self.epilogue):
            if not isinstance(e, (nn.ReLU, nn.GELU, Scale, nn.LayerNorm)) and not _is_pool(e):
                raise FusedConv3dError(f"unbatched (4D) input: epilogue[{i}] ({type(e).__name__}) has no "
                                       "unbatched meaning in PyTorch; pass a 5D batch (x.unsqueeze(0))")

    def _plan_for(self, x):
        """(plan, memory format of y, per-op tensor binders, math mode) for a 5D x; no side effects."""
        conv = self.conv
        w, b = conv.weight, conv.bias
        if x.dim() != 5:
            raise FusedConv3dError(f"x must be 4D or 5D (N, C, D, H, W), got shape {tuple(x.shape)}")
        if not x.is_cuda:
            raise FusedConv3dError(f"x must be on a CUDA device, got {x.device}")
        if w.device != x.device or (b is not None and b.device != x.device):
            raise FusedConv3dError(f"conv parameters are on {w.device}, x is on {x.device}")
        if x.dtype not in _DTYPES:
            raise FusedConv3dError(f"x has dtype {x.dtype}; supported: float32, float16, bfloat16")
        if w.dtype != x.dtype or (b is not None and b.dtype != x.dtype):
            raise FusedConv3dError(f"conv parameters are {w.dtype}, x is {x.dtype}: they must match")
        if x.shape[1] != conv.in_channels:
            raise FusedConv3dError(f"x has {x.shape[1]} channels, conv expects {conv.in_channels}")
        if x.is_contiguous():
            layout, fmt = "LAYOUT_NCDHW", torch.contiguous_format
        elif x.is_contiguous(memory_format=torch.channels_last_3d):
            layout, fmt = "LAYOUT_NDHWC", torch.channels_last_3d
        else:
            raise FusedConv3dError("x must be contiguous (NCDHW) or channels_last_3d (NDHWC); call "
                                   ".contiguous() first")
        ext = load_extension()
        N, _, D, H, W = x.shape
        k, s, p = _triple(conv.kernel_size), _triple(conv.stride), _triple(conv.padding)
        op_, dl = _triple(conv.output_padding), _triple(conv.dilation)
        conv_vals = [N, conv.in_channels, conv.out_channels, D, H, W, *k, *s, *p, *op_, *dl, conv.groups,
                     int(b is not None)]
        conv_dims = [N, conv.out_channels] + [(i - 1) * st - 2 * pd + d * (kk - 1) + o + 1
                                              for i, st, pd, d, kk, o in zip((D, H, W), s, p, dl, k, op_)]
        ops, binders = self._lower_ops(ext, conv_dims)
        math = self.math_now()
        engine = _engine_id(ext, self._engine)
        key = (tuple(conv_vals), layout, x.dtype, math, engine, tuple(ops))
        plan = self._plans.get(key)
        if plan is None:
            plan = ext.Plan(conv_vals, getattr(ext, layout), getattr(ext, _DTYPES[x.dtype]),
                            getattr(ext, _MATH[math]), ops, engine)
            if plan.result != ext.SUCCESS:
                raise FusedConv3dError(plan.message, plan.result)
            if len(self._plans) > 64:
                self._plans.clear()
            self._plans[key] = plan
        return plan, fmt, binders, math

    def _forward5d(self, x):
        plan, fmt, binders, math = self._plan_for(x)
        ext = load_extension()
        w, b = self.conv.weight, self.conv.bias
        # every op tensor float32, contiguous, on x's device; running statistics that are not are
        # updated through a copy and written back
        names = ("weight", "bias", "running_mean", "running_var", "save_mean", "save_invstd")
        op_tensors, write_back, bn_updates = [], [], []
        for i, bind in enumerate(binders):
            sizes = plan.op_tensor_sizes(i)
            row = []
            for t, name in enumerate(names):
                src = bind.get(name)
                if sizes[t] == 0:
                    row.append(None)
                    continue
                if src is None or src.numel() != sizes[t]:
                    raise FusedConv3dError(f"epilogue[{i}].{name} has {0 if src is None else src.numel()} "
                                           f"elements, the plan needs {sizes[t]}")
                if src.device != x.device:
                    raise FusedConv3dError(f"epilogue[{i}].{name} is on {src.device}, x is on {x.device}")
                ok = src.dtype == torch.float32 and src.is_contiguous()
                dev = src.detach() if ok else src.detach().float().contiguous()
                if not ok and name.startswith("running"):
                    write_back.append((src, dev))
                row.append(dev)
            op_tensors.append(row)
            if "_bn_update" in bind:
                bn_updates.append(bind["_bn_update"])

        y = torch.empty(plan.y_dims, dtype=x.dtype, device=x.device, memory_format=fmt)
        ws = torch.empty(plan.workspace_bytes, dtype=torch.uint8, device=x.device) if plan.workspace_bytes else None
        wc = w.detach() if w.is_contiguous() else w.detach().contiguous()
        code, message = ext.run(plan, x.detach(), wc, None if b is None else b.detach(), op_tensors, y, ws)
        if code != ext.SUCCESS:
            raise FusedConv3dError(message, code)
        # PyTorch counts the batch before it reads the momentum; the plan already took the momentum
        # as of the count after this batch, so counting only after a successful run is the same
        for bn in bn_updates:
            if bn.num_batches_tracked is not None:
                bn.num_batches_tracked.add_(1)
        for src, dev in write_back:
            src.copy_(dev)
        self.last_math, self.last_engine = math, plan.engine_name
        self.last_main_loop = plan.main_loop_now  # "halo", "wgmma", "mma.sync" or "" (direct engine)
        return y

    def plan_description(self, x):
        """The text fc3d_plan_describe gives for the plan that forward(x) would run (nothing runs)."""
        if x.dim() == 4:
            self._check_unbatched()
            x = x.unsqueeze(0)
        return self._plan_for(x)[0].describe()

    def plan_info(self, x):
        """What the plan for forward(x) would be, as a dict (nothing runs): engine (its name), math,
        flops (2 * multiply-adds of the convolution, dense count), num_passes, workspace_bytes,
        y_dims."""
        if x.dim() == 4:
            self._check_unbatched()
            x = x.unsqueeze(0)
        plan, _, _, math = self._plan_for(x)
        return {"engine": plan.engine_name, "math": math, "flops": plan.flops, "num_passes": plan.num_passes,
                "workspace_bytes": plan.workspace_bytes, "y_dims": tuple(plan.y_dims)}
