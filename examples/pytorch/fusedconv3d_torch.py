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

The CUDA extension is compiled on first use by torch.utils.cpp_extension.load from two translation
units, built side by side: fc3d_impl.cu (the library's implementation from ../../fusedconv3d.cuh, by
nvcc) and fc3d_ext.cpp (the binding, by the host compiler from PyTorch's headers). Set
TORCH_EXTENSIONS_DIR to choose where the build is cached.

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
import subprocess
import threading
import time
import warnings

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


def build_lock_message(build_dir):
    """The warning for a build lock left in build_dir, or None. torch's load() waits while the file
    `lock` exists in the extension's build directory (another process is building it); a build
    that was killed (a timeout, Ctrl+C, the OOM killer) leaves the file behind, and every later
    load() then waits forever without a word."""
    path = os.path.join(build_dir, "lock")
    try:
        age = time.time() - os.path.getmtime(path)
    except OSError:
        return None
    return (f"{path} exists ({age:.0f} s old): another process is building the fusedconv3d extension, "
            "or a build was interrupted and left it; if no build runs, delete it, else loading waits forever")


def _split_compile_flags():
    """nvcc flags that let the compiler's optimizer (cicc) and ptxas work on every CPU at once
    (`--split-compile=0`), where the toolkit's nvcc has the option, else none. ptxas compiles each
    kernel on its own either way; of an sm_90a build's 197 kernels 194 came out as the same machine
    code and the direct engine's three generic passes as code of the same size. The extension's
    one sm_90a image on 16 cores: 442 s to build without it, 188 s with it (310 s with ptxas split
    alone), 104 s with the implementation in a translation unit of its own beside the binding's
    (98 s for the kernels, 23 s for the binding, side by side)."""
    try:
        from torch.utils.cpp_extension import CUDA_HOME
        nvcc = os.path.join(CUDA_HOME, "bin", "nvcc") if CUDA_HOME else "nvcc"
        out = subprocess.run([nvcc, "--help"], capture_output=True, text=True, timeout=60).stdout
    except Exception:
        return []
    return ["--split-compile=0"] if "--split-compile" in out else []


def load_extension(verbose=False):
    """Compiles (first time) and returns the extension module. Warns first where a build lock
    is in the way (build_lock_message)."""
    global _ext
    with _ext_lock:
        if _ext is None:
            from torch.utils.cpp_extension import load
            try:  # (a private helper of torch's; where it is missing, no warning)
                from torch.utils.cpp_extension import _get_build_directory
                msg = build_lock_message(_get_build_directory("fusedconv3d_ext", False))
            except Exception:
                msg = None
            if msg:
                warnings.warn(msg, RuntimeWarning, stacklevel=2)
            here = os.path.dirname(os.path.abspath(__file__))
            root = os.path.dirname(os.path.dirname(here))
            cuda_flags = ["-O2", "-std=c++17"]
            if torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0):
                # Hopper's own image beside PyTorch's sm_90 one: the runtime loads it, and it
                # carries the wgmma main loop; nvcc compiles the two images side by side
                # (--threads 0: one thread per image, up to the CPUs). Where
                # TORCH_CUDA_ARCH_LIST already names 9.0a, nvcc builds the one image once.
                cuda_flags += ["-gencode=arch=compute_90a,code=sm_90a", "--threads=0"]
            cuda_flags += _split_compile_flags()
            # two translation units, which ninja builds at once: the kernels (nvcc, no PyTorch
            # header) and the binding (the host compiler, PyTorch's headers)
            _ext = load(name="fusedconv3d_ext",
                        sources=[os.path.join(here, "fc3d_impl.cu"), os.path.join(here, "fc3d_ext.cpp")],
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


# The module types whose parameters and buffers are read straight from their dicts (_member).
_PLAIN_TYPES = frozenset((nn.ConvTranspose3d, nn.BatchNorm3d, nn.GroupNorm, nn.LayerNorm, AddChannel))


def _member(m, name):
    """m.name for a parameter or buffer of m. nn.Module keeps those in dicts that ordinary attribute
    lookup does not search: m.name first fails inside, then nn.Module.__getattr__ finds it, several
    microseconds a name on the host, all of it before the first launch of a call. For torch's own
    module types and AddChannel (no class attribute shadows a parameter there) the dicts are read
    directly; any other type (a subclass may define a property of that name) goes through getattr."""
    if type(m) in _PLAIN_TYPES:
        d = m.__dict__
        p = d["_parameters"]
        if name in p:
            return p[name]
        b = d["_buffers"]
        if name in b:
            return b[name]
    return getattr(m, name)


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
    state_dict() and train()/eval() reach them. The module keeps a plan per input shape, dtype,
    layout, math and epilogue state (at most 65), and each plan keeps the device workspace of its
    last call (plan.workspace_bytes) for the next call on the same stream: the workspace is not
    allocated again before each call's first launch."""

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
        self.last_main_loop = None  # its tensor-core main loop ("halo", "wgmma", "warp_rows", "block", "mma.sync"; "" for direct)

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
        """(op tuples for the plan, the ops' tensors, batch counters): one op tuple per epilogue
        module, reflecting the modules' current state (training flag, momentum, eps, affine); six
        tensors or None per op in fc3d_op_tensors' order (weight, bias, running_mean, running_var,
        save_mean, save_invstd); the num_batches_tracked tensors a successful run counts a batch in."""
        ops, tensors, counters = [], [], []
        C = conv_dims[1]
        for i, e in enumerate(self._modules["epilogue"]):
            flags, value, eps, momentum, groups, nd = 0, 0.0, 0.0, 0.0, 0, 0
            bound = (None,) * 6
            if isinstance(e, nn.ReLU):
                kind = ext.OP_RELU
            elif isinstance(e, nn.GELU):
                kind = ext.OP_GELU if e.approximate == "none" else ext.OP_GELU_TANH
            elif isinstance(e, Scale):
                kind, value = ext.OP_SCALE, e.value
            elif isinstance(e, AddChannel):
                kind = ext.OP_ADD_CHANNEL
                bound = (None, _member(e, "vector"), None, None, None, None)
            elif isinstance(e, SubtractSpatialMean):
                kind = ext.OP_SUB_SPATIAL_MEAN
            elif _is_pool(e):
                kind = ext.OP_GLOBAL_AVG_POOL
            elif isinstance(e, nn.BatchNorm3d):
                kind, eps, flags, momentum, bound = self._lower_batchnorm(ext, i, e, counters)
            elif isinstance(e, nn.GroupNorm):
                kind, groups, eps = ext.OP_GROUPNORM, e.num_groups, self._eps(i, e.eps)
                if e.num_channels != C:
                    raise FusedConv3dError(f"epilogue[{i}]: GroupNorm has {e.num_channels} channels, the "
                                           f"convolution gives {C}")
                if e.affine:
                    flags |= ext.AFFINE
                    bound = (_member(e, "weight"), _member(e, "bias"), None, None, None, None)
            elif isinstance(e, nn.LayerNorm):
                shape = tuple(e.normalized_shape)
                nd = len(shape)
                if not 1 <= nd <= 4 or shape != tuple(conv_dims[5 - nd:]):
                    raise FusedConv3dError(f"epilogue[{i}]: LayerNorm{shape} does not match the trailing dims "
                                           f"of the convolution output {tuple(conv_dims)}")
                kind, eps = ext.OP_LAYERNORM, self._eps(i, e.eps)
                if e.elementwise_affine:
                    flags |= ext.AFFINE
                    lw, lb = _member(e, "weight"), _member(e, "bias")
                    bound = (lw, lb if lb is not None else self._zeros_like(lw), None, None, None, None)
            else:  # unreachable: _normalize_entry admits nothing else
                raise FusedConv3dError(f"epilogue[{i}]: {_describe_entry(e)} cannot be lowered")
            ops.append((kind, value, eps, momentum, groups, nd, flags))
            tensors.extend(bound)
        return ops, tensors, counters

    @staticmethod
    def _eps(i, eps):
        if not eps > 0:
            raise FusedConv3dError(f"epilogue[{i}]: eps must be > 0 (got {eps})")
        return float(eps)

    def _lower_batchnorm(self, ext, i, bn, counters):
        """BatchNorm3d as PyTorch's _BatchNorm.forward decides it: batch statistics in training or
        when no running statistics are tracked; running-stat update only in training with tracked
        statistics, where num_batches_tracked counts the batch (into counters)."""
        eps = self._eps(i, bn.eps)
        weight = bias = None
        flags = 0
        if bn.affine:
            flags |= ext.AFFINE
            weight, bias = _member(bn, "weight"), _member(bn, "bias")
        rm, rv = _member(bn, "running_mean"), _member(bn, "running_var")
        tracked = rm is not None and rv is not None
        if not bn.training and tracked:
            return ext.OP_BATCHNORM_INFER, eps, flags, 0.0, (weight, bias, rm, rv, None, None)
        momentum = 0.0
        if bn.training and tracked:
            # num_batches_tracked is counted after a successful run; momentum settled at run time
            nbt = _member(bn, "num_batches_tracked")
            if nbt is not None:
                counters.append(nbt)
            momentum = self._bn_momentum(bn, peek=True)
            if momentum != 0.0:  # at 0.0 PyTorch leaves the statistics unchanged: no update at all
                flags |= ext.UPDATE_RUNNING_STATS
                return ext.OP_BATCHNORM_TRAIN, eps, flags, momentum, (weight, bias, rm, rv, None, None)
        return ext.OP_BATCHNORM_TRAIN, eps, flags, momentum, (weight, bias, None, None, None, None)

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
        for i, e in enumerate(self._modules["epilogue"]):
            if not isinstance(e, (nn.ReLU, nn.GELU, Scale, nn.LayerNorm)) and not _is_pool(e):
                raise FusedConv3dError(f"unbatched (4D) input: epilogue[{i}] ({type(e).__name__}) has no "
                                       "unbatched meaning in PyTorch; pass a 5D batch (x.unsqueeze(0))")

    def _plan_for(self, x):
        """(plan entry, the ops' tensors, batch counters, math mode) for a 5D x; no side effects.
        The plan entry is (plan, y in channels_last_3d, engine name); plans are cached by
        everything they depend on, so a repeated call does the checks and the lowering only."""
        conv = self._modules["conv"]
        w, b = _member(conv, "weight"), _member(conv, "bias")
        if x.dim() != 5:
            raise FusedConv3dError(f"x must be 4D or 5D (N, C, D, H, W), got shape {tuple(x.shape)}")
        if not x.is_cuda:
            raise FusedConv3dError(f"x must be on a CUDA device, got {x.device}")
        dev = x.device
        if w.device != dev or (b is not None and b.device != dev):
            raise FusedConv3dError(f"conv parameters are on {w.device}, x is on {dev}")
        dtype = x.dtype
        if dtype not in _DTYPES:
            raise FusedConv3dError(f"x has dtype {dtype}; supported: float32, float16, bfloat16")
        if w.dtype != dtype or (b is not None and b.dtype != dtype):
            raise FusedConv3dError(f"conv parameters are {w.dtype}, x is {dtype}: they must match")
        shape = x.shape
        if shape[1] != conv.in_channels:
            raise FusedConv3dError(f"x has {shape[1]} channels, conv expects {conv.in_channels}")
        if x.is_contiguous():
            channels_last = False
        elif x.is_contiguous(memory_format=torch.channels_last_3d):
            channels_last = True
        else:
            raise FusedConv3dError("x must be contiguous (NCDHW) or channels_last_3d (NDHWC); call "
                                   ".contiguous() first")
        ext = _ext or load_extension()
        k, s, p = _triple(conv.kernel_size), _triple(conv.stride), _triple(conv.padding)
        op_, dl = _triple(conv.output_padding), _triple(conv.dilation)
        N, _, D, H, W = shape
        conv_dims = [N, conv.out_channels] + [(i - 1) * st - 2 * pd + d * (kk - 1) + o + 1
                                              for i, st, pd, d, kk, o in zip((D, H, W), s, p, dl, k, op_)]
        ops, tensors, counters = self._lower_ops(ext, conv_dims)
        math = self._math if self._math is not None else pytorch_math()
        key = (tuple(shape), conv.in_channels, conv.out_channels, k, s, p, op_, dl, conv.groups, b is not None,
               channels_last, dtype, math, self._engine, tuple(ops), x.device.index)
        entry = self._plans.get(key)
        if entry is None:
            conv_vals = [N, conv.in_channels, conv.out_channels, D, H, W, *k, *s, *p, *op_, *dl, conv.groups,
                         int(b is not None)]
            layout = ext.LAYOUT_NDHWC if channels_last else ext.LAYOUT_NCDHW
            # planned for x's device: its shared memory a block (desc.smem_per_block)
            plan = ext.Plan(conv_vals, layout, getattr(ext, _DTYPES[dtype]), getattr(ext, _MATH[math]), ops,
                            _engine_id(ext, self._engine), -1 if x.device.index is None else x.device.index)
            if plan.result != ext.SUCCESS:
                raise FusedConv3dError(plan.message, plan.result)
            if len(self._plans) > 64:
                self._plans.clear()
            entry = self._plans[key] = (plan, channels_last, plan.engine_name)
        return entry, tensors, counters, math

    def _forward5d(self, x):
        (plan, channels_last, engine_name), tensors, counters, math = self._plan_for(x)
        conv = self._modules["conv"]
        # the rest of the call is one extension call: the ops' tensors checked and bound (float32
        # copies of any that are not float32 and contiguous, running statistics written back), y
        # allocated and the workspace (the plan's own, kept from its last run on the same stream),
        # the plan run on the current stream, the batch counted
        code, message, y = _ext.forward(plan, x, _member(conv, "weight"), _member(conv, "bias"), tensors, counters,
                                        channels_last)
        if y is None:
            raise FusedConv3dError(message, code)
        self.last_math, self.last_engine = math, engine_name
        self.last_main_loop = plan.main_loop_now  # "halo", "wgmma", "warp_rows", "block", "mma.sync" or "" (direct engine)
        return y

    def plan_description(self, x):
        """The text fc3d_plan_describe gives for the plan that forward(x) would run (nothing runs)."""
        if x.dim() == 4:
            self._check_unbatched()
            x = x.unsqueeze(0)
        return self._plan_for(x)[0][0].describe()

    def plan_info(self, x):
        """What the plan for forward(x) would be, as a dict (nothing runs): engine (its name), math,
        flops (2 * multiply-adds of the convolution, dense count), num_passes, workspace_bytes,
        y_dims."""
        if x.dim() == 4:
            self._check_unbatched()
            x = x.unsqueeze(0)
        (plan, _, _), _, _, math = self._plan_for(x)
        return {"engine": plan.engine_name, "math": math, "flops": plan.flops, "num_passes": plan.num_passes,
                "workspace_bytes": plan.workspace_bytes, "y_dims": tuple(plan.y_dims)}
