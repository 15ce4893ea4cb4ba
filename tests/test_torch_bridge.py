#!/usr/bin/env python3
"""test_torch_bridge.py - the PyTorch bridge (examples/pytorch/fusedconv3d_torch.py) against
PyTorch itself.

    python3 tests/test_torch_bridge.py

Every numeric check runs a FusedConvTranspose3d and, as its reference, the same PyTorch modules it
was built from, deep-copied to float64 (.double()) and run unfused on the float64 input, under
torch.no_grad(). Sections:
    1. every epilogue kind alone, after a ConvTranspose3d with stride, padding, output_padding,
       dilation and groups all non-trivial;
    2. chains: the five PROBLEMS.md workloads at small sizes and longer mixed chains (one of
       MAX_OPS entries);
    3. layouts and dtypes: channels_last_3d, float16 / bfloat16 models, math modes, unbatched input;
    4. BatchNorm state: running statistics and num_batches_tracked after fused forwards, momentum
       None / 0.0, eval mode, track_running_stats=False, shared parameters;
    5. errors: FusedConv3dError with a message naming the problem (and the library's own errors
       with their nonzero .code);
    6. determinism: bitwise-equal outputs of two forwards;
    7. streams: a non-default torch.cuda.Stream;
    8. math follows PyTorch: with math=None the mode follows torch.backends.cudnn.allow_tf32 at each
       call (bitwise equal to forcing "tf32" when it is true, "fp32" when false); an explicit math
       wins over it;
    9. engines: each engine the compiled header defines, forced through engine=, runs (or refuses
       with the library's ENGINE_REFUSED code), is correct and is reported in last_engine; the
       automatic choice reports an engine and equals forcing that engine bitwise.

Modules built without math= follow PyTorch's TF32 setting; sections 1-7 run with
torch.backends.cudnn.allow_tf32 = False, so they hold the accurate bound unless they name a mode.

Bounds: relative L2, ||fused - ref|| / ||ref||, against the float64 reference. A reference with RMS
below 1e-6 (zero in exact arithmetic) is compared by the RMS of the difference instead, against the
same bound, as tests/gpu_util.h does. NaN or inf in either tensor never passes.
    math "fp32", float32 tensors    1e-5
    math "tf32"                     2e-3
    math "half"                     1e-2   (the library's own bound for that mode, tests/test_gpu.cu)
    float16 tensors                 at least 2e-3
    bfloat16 tensors                at least 1e-2
BatchNorm running statistics are held to the same bound as the output of their run;
num_batches_tracked must be equal exactly.

Output: one line per check, "ok <name>" or "FAIL <name>: <detail>", notes starting with "# ", and
the last line "<N> passed, <M> failed"; exit status 1 if any failed. Without torch or without a
CUDA device it prints "bridge tests skipped: <reason>" and "0 passed, 0 failed" and exits 0.
The first run compiles the extension (torch.utils.cpp_extension.load; TORCH_EXTENSIONS_DIR chooses
the cache).
"""
import copy
import inspect
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BRIDGE_DIR = os.path.join(ROOT, "examples", "pytorch")
SEED = 1234

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    _TORCH_ERROR = None
except Exception as _e:  # not installed, or a broken install
    torch = nn = F = None
    _TORCH_ERROR = _e

fc = None              # the bridge module, imported by main()
DEV = None             # the CUDA device
DEGENERATE_RMS = 1e-6  # below this RMS a reference is zero in exact arithmetic (tests/gpu_util.h)
WORST = {}             # (math, dtype) -> largest relative error seen, printed at the end


# ---- check bookkeeping ----------------------------------------------------------------------------

class CheckFailure(Exception):
    pass


def require(cond, detail):
    if not cond:
        raise CheckFailure(detail)


CHECKS = []


def add(name, fn, *args):
    CHECKS.append((name, fn, args))


def one_line(e, limit=300):
    s = f"{type(e).__name__}: {e}".replace("\n", " | ")
    return s if len(s) <= limit else s[:limit] + "..."


# ---- numerics -------------------------------------------------------------------------------------

def bound_for(math_mode, dtype):
    b = {"fp32": 1e-5, "tf32": 2e-3, "half": 1e-2}[math_mode]
    if dtype == torch.float16:
        b = max(b, 2e-3)
    if dtype == torch.bfloat16:
        b = max(b, 1e-2)
    return b


def rel_l2(a, ref):
    """||a - ref|| / ||ref|| in float64 (the RMS of the difference for a degenerate reference);
    inf when a shape differs or anything is NaN or infinite."""
    a = a.detach().to(device="cpu", dtype=torch.float64)
    ref = ref.detach().to(device="cpu", dtype=torch.float64)
    if a.shape != ref.shape:
        return math.inf
    n = a.numel()
    if n == 0:
        return 0.0
    if not bool(torch.isfinite(a).all()) or not bool(torch.isfinite(ref).all()):
        return math.inf
    num = float((a - ref).pow(2).sum().sqrt())
    den = float(ref.pow(2).sum().sqrt())
    if den / math.sqrt(n) < DEGENERATE_RMS:
        return num / math.sqrt(n)
    return num / den


def note_error(math_mode, dtype, err):
    key = (math_mode, str(dtype).replace("torch.", ""))
    if not (WORST.get(key, -1.0) >= err):
        WORST[key] = err


def require_close(y, ref, bound, what="output", math_mode=None):
    err = rel_l2(y, ref)
    if math_mode is not None:
        note_error(math_mode, y.dtype, err)
    require(err <= bound, f"{what}: rel-L2 {err:.3g} > bound {bound:g} (shape {tuple(y.shape)})")
    return err


# ---- building blocks ------------------------------------------------------------------------------

def rnd(*shape, dtype=None):
    return torch.randn(*shape, device=DEV, dtype=dtype or torch.float32)


def randomize(m):
    """Random affine parameters and running statistics, so no check runs on PyTorch's trivial
    defaults (weight 1, bias 0, mean 0, var 1)."""
    with torch.no_grad():
        if isinstance(m, (nn.BatchNorm3d, nn.GroupNorm, nn.LayerNorm)):
            if getattr(m, "weight", None) is not None:
                m.weight.copy_(1.0 + 0.3 * torch.randn_like(m.weight))
            if getattr(m, "bias", None) is not None:
                m.bias.copy_(0.2 * torch.randn_like(m.bias))
        if isinstance(m, nn.BatchNorm3d) and m.running_mean is not None:
            m.running_mean.copy_(0.3 * torch.randn_like(m.running_mean))
            m.running_var.copy_(0.5 + torch.rand_like(m.running_var))
    return m


def prep(entries, device=True):
    """Epilogue entries on the device (modules moved in place), norm state randomized."""
    out = []
    for e in entries:
        if isinstance(e, nn.Module):
            if device:
                e = e.to(DEV)
            randomize(e)
        out.append(e)
    return out


def conv_a():
    """ConvTranspose3d(4 -> 6) with every parameter non-trivial; x_a() (2,4,3,3,3) gives
    D = 2*2-2+2+1+1 = 6, H = 2*1-0+2+1+1 = 6, W = 2*2-2+2+0+1 = 5: y is (2, 6, 6, 6, 5)."""
    return nn.ConvTranspose3d(4, 6, (3, 2, 3), stride=(2, 1, 2), padding=(1, 0, 1), output_padding=(1, 1, 0),
                              dilation=(1, 2, 1), groups=2).to(DEV)


def x_a(dtype=None):
    return rnd(2, 4, 3, 3, 3, dtype=dtype)


def apply_entry(e, y):
    if isinstance(e, (int, float)) and not isinstance(e, bool):
        return y * e
    return e(y)


def ref_copy(conv, entries):
    """float64 deep copies of the conv and the module entries, taken now (before any fused run
    changes running statistics); functions and numbers are kept as they are."""
    c = copy.deepcopy(conv).double()
    es = [copy.deepcopy(e).double() if isinstance(e, nn.Module) else e for e in entries]
    return c, es


def ref_run(ref, x):
    c, es = ref
    with torch.no_grad():
        y = c(x.detach().double())
        for e in es:
            y = apply_entry(e, y)
    return y


def bn_pairs(entries, ref):
    return [(o, r) for o, r in zip(entries, ref[1]) if isinstance(o, nn.BatchNorm3d)]


def require_bn_state(entries, ref, bound):
    """Every BatchNorm3d with running statistics: running_mean / running_var within `bound` of the
    float64 reference copy's, num_batches_tracked equal."""
    for i, (o, r) in enumerate(bn_pairs(entries, ref)):
        if o.running_mean is None:
            require(r.running_mean is None, f"BatchNorm #{i}: running_mean disappeared")
            continue
        require_close(o.running_mean, r.running_mean, bound, f"BatchNorm #{i} running_mean")
        require_close(o.running_var, r.running_var, bound, f"BatchNorm #{i} running_var")
        a, b = int(o.num_batches_tracked), int(r.num_batches_tracked)
        require(a == b, f"BatchNorm #{i} num_batches_tracked {a}, PyTorch {b}")


def compare(conv, entries, x, math_mode="fp32", fused=None, expect_format=None):
    """Runs the fused module once on x and the float64 PyTorch reference once; checks dtype, shape,
    the output bound, BatchNorm state, that no running statistic changed dtype, and (if given) the
    memory format of y. Returns (y, ref_y, fused)."""
    if fused is None:
        fused = fc.FusedConvTranspose3d(conv, *entries, math=math_mode)
    ref = ref_copy(conv, entries)
    stat_dtypes = [(o.running_mean.dtype, o.running_var.dtype) for o, _ in bn_pairs(entries, ref)
                   if o.running_mean is not None]
    with torch.no_grad():
        y = fused(x)
    torch.cuda.synchronize()
    r = ref_run(ref, x)
    require(y.dtype == x.dtype, f"y is {y.dtype}, x is {x.dtype}")
    require(tuple(y.shape) == tuple(r.shape), f"y shape {tuple(y.shape)}, PyTorch gives {tuple(r.shape)}")
    require(y.device == x.device, f"y on {y.device}, x on {x.device}")
    if expect_format is not None:
        require(y.is_contiguous(memory_format=expect_format), f"y is not {expect_format} (strides {y.stride()})")
    require(fused.last_math in fc.MATH_MODES, f"last_math is {fused.last_math!r} after a call")
    bound = bound_for(fused.last_math, x.dtype)
    require_close(y, r, bound, "output", fused.last_math)
    require_bn_state(entries, ref, bound)
    after = [(o.running_mean.dtype, o.running_var.dtype) for o, _ in bn_pairs(entries, ref)
             if o.running_mean is not None]
    require(after == stat_dtypes, f"running statistics changed dtype: {stat_dtypes} -> {after}")
    return y, r, fused


# ---- 1. every epilogue kind alone ---------------------------------------------------------------

def layernorm_has_bias_arg():
    try:
        return "bias" in inspect.signature(nn.LayerNorm.__init__).parameters
    except (TypeError, ValueError):
        return False


def single_epilogues():
    """(name, factory of the entry list) for conv_a's output (2, 6, 6, 6, 5)."""
    C = 6
    ln_shapes = {1: (5,), 2: (6, 5), 3: (6, 6, 5), 4: (C, 6, 6, 5)}
    cases = [
        ("relu", lambda: [nn.ReLU()]),
        ("relu_inplace", lambda: [nn.ReLU(inplace=True)]),
        ("F.relu", lambda: [F.relu]),
        ("torch.relu", lambda: [torch.relu]),
        ("gelu_erf", lambda: [nn.GELU()]),
        ("gelu_tanh", lambda: [nn.GELU(approximate="tanh")]),
        ("F.gelu", lambda: [F.gelu]),
        ("scale", lambda: [fc.Scale(0.75)]),
        ("scale_negative", lambda: [fc.Scale(-1.25)]),
        ("plain_float", lambda: [-0.5]),
        ("plain_int", lambda: [3]),
        ("add_channel", lambda: [fc.AddChannel(torch.randn(C))]),
        ("add_channel_constant", lambda: [fc.AddChannel(torch.randn(C), requires_grad=False)]),
        ("sub_spatial_mean", lambda: [fc.SubtractSpatialMean()]),
        ("pool_1", lambda: [nn.AdaptiveAvgPool3d(1)]),
        ("pool_111", lambda: [nn.AdaptiveAvgPool3d((1, 1, 1))]),
        ("batchnorm_train", lambda: [nn.BatchNorm3d(C)]),
        ("batchnorm_train_eps_momentum", lambda: [nn.BatchNorm3d(C, eps=1e-3, momentum=0.3)]),
        ("batchnorm_train_no_affine", lambda: [nn.BatchNorm3d(C, affine=False)]),
        ("batchnorm_train_untracked", lambda: [nn.BatchNorm3d(C, track_running_stats=False)]),
        ("batchnorm_eval", lambda: [nn.BatchNorm3d(C).eval()]),
        ("batchnorm_eval_no_affine", lambda: [nn.BatchNorm3d(C, affine=False, eps=1e-2).eval()]),
        ("groupnorm_affine", lambda: [nn.GroupNorm(3, C)]),
        ("groupnorm_no_affine", lambda: [nn.GroupNorm(2, C, affine=False)]),
        ("groupnorm_1_group", lambda: [nn.GroupNorm(1, C, eps=1e-3)]),
        ("groupnorm_C_groups", lambda: [nn.GroupNorm(C, C)]),
    ]
    for nd, shape in ln_shapes.items():
        cases.append((f"layernorm_{nd}d_affine", lambda s=shape: [nn.LayerNorm(s)]))
        cases.append((f"layernorm_{nd}d_no_affine", lambda s=shape: [nn.LayerNorm(s, elementwise_affine=False)]))
    cases.append(("layernorm_1d_eps", lambda: [nn.LayerNorm(5, eps=0.1)]))
    if layernorm_has_bias_arg():
        cases.append(("layernorm_1d_no_bias", lambda: [nn.LayerNorm(5, bias=False)]))
        cases.append(("layernorm_3d_no_bias", lambda: [nn.LayerNorm((6, 6, 5), bias=False)]))
    return cases


def check_single(factory):
    conv = conv_a()
    entries = prep(factory())
    compare(conv, entries, x_a())


# ---- 2. chains ------------------------------------------------------------------------------------

def check_chain(make_conv, make_entries, x_shape, math_mode="fp32"):
    conv = make_conv().to(DEV)
    entries = prep(make_entries())
    compare(conv, entries, rnd(*x_shape), math_mode=math_mode)


CHAINS = [
    # PROBLEMS.md workloads, small: same structure and conv hyper-parameters, fewer channels / voxels
    ("L2_15_bn_train_sub_mean", lambda: nn.ConvTranspose3d(4, 8, 3, stride=2, padding=1),
     lambda: [nn.BatchNorm3d(8), fc.SubtractSpatialMean()], (2, 4, 3, 3, 3)),
    ("L2_77_scale_bn_pool", lambda: nn.ConvTranspose3d(4, 8, 3),
     lambda: [fc.Scale(2.0), nn.BatchNorm3d(8, eps=1e-5, momentum=0.1), nn.AdaptiveAvgPool3d((1, 1, 1))],
     (2, 4, 3, 3, 3)),
    # LayerNorm(out_channels) normalizes W, which equals out_channels (6) after the conv
    ("L2_34_layernorm_gelu_scale", lambda: nn.ConvTranspose3d(4, 6, 4, stride=2, padding=1),
     lambda: [nn.LayerNorm(6, eps=1e-5), F.gelu, 1.0], (2, 4, 2, 3, 3)),
    ("L2_61_relu_groupnorm", lambda: nn.ConvTranspose3d(4, 8, 3, bias=False),
     lambda: [nn.ReLU(), nn.GroupNorm(4, 8, eps=1e-5)], (2, 4, 3, 3, 3)),
    ("L1_77_conv_dilation2", lambda: nn.ConvTranspose3d(4, 8, 3, stride=2, padding=1, dilation=2, bias=False),
     lambda: [], (2, 4, 3, 3, 3)),
    # mixed
    ("mixed_8_ops", conv_a,
     lambda: [fc.AddChannel(torch.randn(6)), nn.GELU(approximate="tanh"), nn.BatchNorm3d(6), nn.ReLU(),
              nn.GroupNorm(3, 6), 0.5, nn.LayerNorm(5), fc.SubtractSpatialMean()], (2, 4, 3, 3, 3)),
    ("mixed_7_ops_pool", conv_a,
     lambda: [nn.BatchNorm3d(6).eval(), F.gelu, nn.LayerNorm((6, 6, 5)), fc.Scale(3.0), torch.relu,
              nn.GroupNorm(2, 6, affine=False), nn.AdaptiveAvgPool3d(1)], (2, 4, 3, 3, 3)),
    ("mixed_two_batchnorms", lambda: nn.ConvTranspose3d(4, 8, 2, stride=2),
     lambda: [nn.BatchNorm3d(8, momentum=0.2), torch.relu, nn.BatchNorm3d(8, momentum=None), nn.GELU()],
     (2, 4, 2, 3, 3)),
]


def max_ops_chain():
    """MAX_OPS entries, ending in a pool."""
    pool = nn.AdaptiveAvgPool3d(1)
    # ordered so that the pooled values depend on the whole chain: the op before the pool is a
    # nonlinearity (a pool right after a per-(n, c) normalization gives its bias, after a mean
    # subtraction zero)
    body = [nn.ReLU(), nn.BatchNorm3d(6), fc.Scale(1.5), nn.GELU(), nn.GroupNorm(3, 6),
            fc.AddChannel(torch.randn(6)), nn.LayerNorm(5), F.relu, 0.9, nn.BatchNorm3d(6).eval(),
            nn.LayerNorm((6, 5), elementwise_affine=False), fc.SubtractSpatialMean(), fc.Scale(-1.0),
            nn.GroupNorm(6, 6), nn.GELU(approximate="tanh"), nn.BatchNorm3d(6, momentum=None),
            nn.LayerNorm((6, 6, 6, 5)), torch.relu]
    n = fc.load_extension().MAX_OPS
    require(len(body) >= n - 1, f"the test's chain is shorter than MAX_OPS = {n}")
    return body[:n - 1] + [pool]


def check_max_ops():
    conv = conv_a()
    entries = prep(max_ops_chain())
    require(len(entries) == fc.load_extension().MAX_OPS, "chain length")
    compare(conv, entries, x_a())


# ---- 3. layouts and dtypes ----------------------------------------------------------------------

CL = None  # torch.channels_last_3d, set in main


def check_channels_last_input(make_entries, pool=False):
    conv = conv_a()
    entries = prep(make_entries())
    x = x_a().contiguous(memory_format=CL)
    require(x.is_contiguous(memory_format=CL) and not x.is_contiguous(), "test setup: x is not channels_last_3d")
    y, _, _ = compare(conv, entries, x, expect_format=CL)
    if not pool:
        require(not y.is_contiguous(), "y is NCDHW-contiguous, expected channels_last_3d strides")


def check_channels_last_model():
    """The usual idiom: model.to(memory_format=channels_last_3d) (the conv weight becomes a
    channels_last tensor) and a channels_last input."""
    conv = conv_a()
    entries = prep([nn.BatchNorm3d(6), nn.ReLU(), nn.GroupNorm(3, 6), nn.LayerNorm(5)])
    fused = fc.FusedConvTranspose3d(conv, *entries).to(memory_format=CL)
    require(not conv.weight.is_contiguous(), "test setup: the conv weight stayed contiguous")
    x = x_a().contiguous(memory_format=CL)
    compare(conv, entries, x, fused=fused, expect_format=CL)


def check_model_dtype(dtype, make_entries, math_mode="fp32", memory_format=None):
    """model.half() / model.bfloat16() through the fused module: conv parameters and every floating
    tensor of the epilogue modules take the dtype, as PyTorch's Module.half() does."""
    conv = conv_a()
    entries = prep(make_entries())
    fused = fc.FusedConvTranspose3d(conv, *entries, math=math_mode).to(dtype)
    require(conv.weight.dtype == dtype, f"test setup: conv weight is {conv.weight.dtype}")
    x = x_a(dtype)
    if memory_format is not None:
        x = x.contiguous(memory_format=memory_format)
    compare(conv, entries, x, fused=fused, expect_format=memory_format)


def check_half_conv_float_norms():
    """Mixed: conv in float16, BatchNorm / GroupNorm / AddChannel left in float32 (their float32
    tensors are bound without copies)."""
    conv = conv_a().half()
    entries = prep([nn.BatchNorm3d(6), fc.AddChannel(torch.randn(6)), nn.GroupNorm(2, 6)])
    bn = entries[0]
    require(bn.running_mean.dtype == torch.float32, "test setup: running_mean not float32")
    compare(conv, entries, x_a(torch.float16))


def check_math_mode(math_mode, dtype=None):
    dtype = dtype or torch.float32
    conv = conv_a()
    entries = prep([nn.BatchNorm3d(6), nn.GELU(), nn.GroupNorm(3, 6), fc.SubtractSpatialMean()])
    fused = fc.FusedConvTranspose3d(conv, *entries, math=math_mode).to(dtype)
    compare(conv, entries, x_a(dtype), fused=fused)


def check_math_setter():
    """fused.math switches between cached plans: tf32 then fp32 again must give the fp32 bound."""
    conv = conv_a()
    entries = prep([nn.ReLU(), nn.GroupNorm(3, 6), nn.LayerNorm(5)])
    fused = fc.FusedConvTranspose3d(conv, *entries)
    x = x_a()
    compare(conv, entries, x, fused=fused)
    fused.math = "tf32"
    require(fused.math == "tf32", "the math setter did not take")
    compare(conv, entries, x, fused=fused)
    fused.math = "fp32"
    compare(conv, entries, x, fused=fused)


def check_unbatched_elementwise():
    """4D (C, D, H, W) input: PyTorch's own modules take it unbatched, so the reference runs on the
    4D tensor itself."""
    conv = conv_a()
    entries = prep([nn.ReLU(), fc.Scale(1.5), nn.LayerNorm(5), nn.GELU(), nn.AdaptiveAvgPool3d(1)])
    x = rnd(4, 3, 3, 3)
    y, r, _ = compare(conv, entries, x)
    require(y.dim() == 4, f"y has {y.dim()} dims for a 4D input")


def check_unbatched_statistics():
    """4D input with ops PyTorch reads differently unbatched (GroupNorm takes a 4D tensor as
    (N, C, L); BatchNorm3d and SubtractSpatialMean need 5D): refused with the entry named, and the
    running statistics untouched. LayerNorm over C,D,H,W means the same unbatched and runs."""
    conv, bn = bn_model()
    nbt = int(bn.num_batches_tracked)
    rm = bn.running_mean.clone()
    x = rnd(4, 3, 3, 3)
    for entries, name in (([nn.GroupNorm(3, 6)], "GroupNorm"), ([bn], "BatchNorm3d"),
                          ([fc.SubtractSpatialMean()], "SubtractSpatialMean")):
        # bn is already prepared: preparing it again would re-randomize its running statistics
        fused = fc.FusedConvTranspose3d(conv, *(entries if entries[0] is bn else prep(entries)))
        expect_error(lambda: fused(x), name)
    require(int(bn.num_batches_tracked) == nbt and torch.equal(bn.running_mean, rm),
            "a refused unbatched call changed the running statistics")
    conv = conv_a()
    entries = prep([nn.LayerNorm((6, 6, 6, 5)), nn.GELU()])
    y, r, _ = compare(conv, entries, rnd(4, 3, 3, 3))
    require(y.dim() == 4, f"y has {y.dim()} dims for a 4D input")


def check_cuda_after_construction():
    """Built from CPU modules, then fused.cuda(): the original modules move with it (shared)."""
    conv = nn.ConvTranspose3d(4, 6, 3, stride=2, padding=1, output_padding=1)
    bn = randomize(nn.BatchNorm3d(6))
    entries = [bn, nn.GELU()]
    fused = fc.FusedConvTranspose3d(conv, *entries).cuda()
    require(conv.weight.is_cuda and bn.running_mean.is_cuda, "fused.cuda() did not move the original modules")
    compare(conv, entries, rnd(2, 4, 2, 3, 2), fused=fused)


# ---- 4. BatchNorm training state ----------------------------------------------------------------

BN_SHAPES = [(2, 4, 3, 3, 3), (1, 4, 2, 3, 3), (2, 4, 3, 2, 3)]  # the plan changes between forwards


def bn_model(**bn_kwargs):
    conv = nn.ConvTranspose3d(4, 8, 3, stride=2, padding=1).to(DEV)
    bn = prep([nn.BatchNorm3d(8, **bn_kwargs)])[0]
    return conv, bn


def forward_bn_shapes(fused, ref):
    """One fused forward per BN_SHAPES input, each output against the float64 reference."""
    for i, shape in enumerate(BN_SHAPES):
        x = rnd(*shape)
        with torch.no_grad():
            y = fused(x)
        require_close(y, ref_run(ref, x), 1e-5, f"forward {i + 1}", "fp32")


def check_bn_forwards(momentum, affine=True):
    """3 fused forwards in train() against 3 forwards of a float64 copy: each output, then the
    running statistics and num_batches_tracked."""
    conv, bn = bn_model(momentum=momentum, affine=affine)
    entries = [bn, nn.ReLU()]
    ref = ref_copy(conv, entries)
    forward_bn_shapes(fc.FusedConvTranspose3d(conv, *entries), ref)
    require(int(bn.num_batches_tracked) == 3, f"num_batches_tracked {int(bn.num_batches_tracked)}, expected 3")
    require_bn_state(entries, ref, 1e-5)


def check_bn_momentum_zero():
    conv, bn = bn_model(momentum=0.0)
    rm0, rv0 = bn.running_mean.clone(), bn.running_var.clone()
    entries = [bn]
    ref = ref_copy(conv, entries)
    forward_bn_shapes(fc.FusedConvTranspose3d(conv, *entries), ref)
    require(torch.equal(bn.running_mean, rm0) and torch.equal(bn.running_var, rv0),
            "momentum=0.0 changed the running statistics")
    require(int(bn.num_batches_tracked) == 3, f"num_batches_tracked {int(bn.num_batches_tracked)}, expected 3")
    require_bn_state(entries, ref, 1e-5)


def check_bn_eval_keeps_stats():
    conv, bn = bn_model()
    with torch.no_grad():
        bn.num_batches_tracked.fill_(5)
    bn.eval()
    rm0, rv0 = bn.running_mean.clone(), bn.running_var.clone()
    entries = [bn, fc.SubtractSpatialMean()]
    fused = fc.FusedConvTranspose3d(conv, *entries)
    ref = ref_copy(conv, entries)
    for i, shape in enumerate(BN_SHAPES[:2]):
        x = rnd(*shape)
        with torch.no_grad():
            y = fused(x)
        require_close(y, ref_run(ref, x), 1e-5, f"forward {i + 1}", "fp32")
    require(torch.equal(bn.running_mean, rm0) and torch.equal(bn.running_var, rv0),
            "eval() changed the running statistics")
    require(int(bn.num_batches_tracked) == 5, f"eval() changed num_batches_tracked to {int(bn.num_batches_tracked)}")


def check_bn_untracked_eval():
    """track_running_stats=False: eval() still normalizes with batch statistics."""
    conv, bn = bn_model(track_running_stats=False)
    bn.eval()
    require(bn.running_mean is None, "test setup: running_mean exists")
    y, r, _ = compare(conv, [bn, nn.GELU()], rnd(2, 4, 3, 3, 3))
    # batch statistics: per-channel mean of the BN output (before GELU) would be bn.bias; check the
    # result differs from what PyTorch gives with default running stats (0, 1)
    c2 = copy.deepcopy(conv).double()
    b2 = nn.BatchNorm3d(8).to(DEV).double().eval()
    with torch.no_grad():
        b2.weight.copy_(bn.weight)
        b2.bias.copy_(bn.bias)
    x = rnd(2, 4, 3, 3, 3)
    with torch.no_grad():
        y = fc.FusedConvTranspose3d(conv, bn)(x)
        wrong = b2(c2(x.double()))
    require(rel_l2(y, wrong) > 1e-2, "output looks normalized with running statistics (0, 1)")


def check_fused_shares_parameters():
    """The fused module holds the user's modules: in-place edits of bn.weight / bn.bias / conv.weight
    show in the next fused output, and state_dict() exposes the same storage."""
    conv, bn = bn_model()
    bn.eval()
    entries = [bn, nn.ReLU()]
    fused = fc.FusedConvTranspose3d(conv, *entries)
    x = rnd(2, 4, 3, 3, 3)
    y1, _, _ = compare(conv, entries, x, fused=fused)
    with torch.no_grad():
        bn.weight.mul_(-1.5)
        bn.bias.add_(0.3)
        conv.weight.mul_(0.5)
    y2, _, _ = compare(conv, entries, x, fused=fused)
    require(not torch.equal(y1, y2), "output unchanged after editing bn.weight, bn.bias and conv.weight")
    sd = fused.state_dict()
    require(sd["epilogue.0.weight"].data_ptr() == bn.weight.data_ptr(), "state_dict epilogue.0.weight is a copy")
    require(sd["conv.weight"].data_ptr() == conv.weight.data_ptr(), "state_dict conv.weight is a copy")


def check_train_eval_propagates():
    """fused.eval() / fused.train() reach the BatchNorm, and the next forward follows."""
    conv, bn = bn_model()
    entries = [bn, nn.GELU()]
    fused = fc.FusedConvTranspose3d(conv, *entries)
    fused.eval()
    require(not bn.training, "fused.eval() did not reach the BatchNorm")
    nbt = int(bn.num_batches_tracked)
    compare(conv, entries, rnd(2, 4, 3, 3, 3), fused=fused)
    require(int(bn.num_batches_tracked) == nbt, "eval forward counted a batch")
    fused.train()
    require(bn.training, "fused.train() did not reach the BatchNorm")
    compare(conv, entries, rnd(2, 4, 3, 3, 3), fused=fused)
    require(int(bn.num_batches_tracked) == nbt + 1, "train forward did not count a batch")


def check_inference_mode():
    """torch.inference_mode() works as torch.no_grad() does, running-stat update included."""
    conv, bn = bn_model()
    entries = [bn, nn.GroupNorm(4, 8)]
    prep(entries[1:])
    fused = fc.FusedConvTranspose3d(conv, *entries)
    ref = ref_copy(conv, entries)
    x = rnd(2, 4, 3, 3, 3)
    with torch.inference_mode():
        y = fused(x)
    require_close(y, ref_run(ref, x), 1e-5, "output", "fp32")
    require_bn_state(entries, ref, 1e-5)


def check_no_grad_not_needed_when_frozen():
    """With every parameter frozen and x not requiring grad, no no_grad() is needed."""
    conv = conv_a()
    entries = prep([nn.GroupNorm(3, 6), nn.ReLU()])
    fused = fc.FusedConvTranspose3d(conv, *entries)
    for p in fused.parameters():
        p.requires_grad_(False)
    ref = ref_copy(conv, entries)
    x = x_a()
    require(torch.is_grad_enabled(), "test setup: grad mode is off")
    y = fused(x)
    require_close(y, ref_run(ref, x), 1e-5, "output", "fp32")


def check_plan_description():
    conv, bn = bn_model()
    fused = fc.FusedConvTranspose3d(conv, bn, fc.SubtractSpatialMean())
    nbt = int(bn.num_batches_tracked)
    x = rnd(1, 4, 3, 3, 3)
    with torch.no_grad():
        text = fused.plan_description(x)
        plain = fc.FusedConvTranspose3d(conv, nn.ReLU())
        require(plain.plan_description(x) == plain.plan_description(x[0]),
                "plan_description differs between a 5D input and the same 4D input unbatched")
    require(isinstance(text, str) and len(text.strip()) > 0, f"plan_description gave {text!r}")
    require(int(bn.num_batches_tracked) == nbt, "plan_description counted a batch")


# ---- 5. errors ------------------------------------------------------------------------------------

def expect_error(fn, substrings, library_code=False, grad=False):
    """fn() must raise FusedConv3dError whose message contains every substring (case-insensitive);
    library_code: its .code must be the library's (nonzero), else 0 (a Python-side check)."""
    if isinstance(substrings, str):
        substrings = [substrings]
    try:
        if grad:
            fn()
        else:
            with torch.no_grad():
                fn()
        torch.cuda.synchronize()
    except fc.FusedConv3dError as e:
        msg = str(e)
        for s in substrings:
            require(s.lower() in msg.lower(), f"message {msg!r} lacks {s!r}")
        code = getattr(e, "code", None)
        if library_code:
            require(isinstance(code, int) and code != 0, f"code {code!r}, expected the library's nonzero code")
        else:
            require(code == 0, f"code {code!r} for a Python-side check, expected 0")
        return e
    except CheckFailure:
        raise
    except Exception as e:
        raise CheckFailure(f"expected FusedConv3dError, got {one_line(e)}")
    raise CheckFailure("no error raised")


def fused_a(*entries, **kw):
    return fc.FusedConvTranspose3d(conv_a(), *prep(entries), **kw)


def err_grad_params():
    f = fused_a(nn.ReLU())
    require(f.conv.weight.requires_grad, "test setup: conv weight does not require grad")
    expect_error(lambda: f(x_a()), ["forward pass only"], grad=True)


def err_grad_input():
    f = fused_a(nn.ReLU())
    for p in f.parameters():
        p.requires_grad_(False)
    x = x_a().requires_grad_(True)
    expect_error(lambda: f(x), ["forward pass only"], grad=True)


def err_bn_count():
    """Training BatchNorm with one value per channel: the library refuses, and nothing changes."""
    conv = nn.ConvTranspose3d(4, 4, 1).to(DEV)
    bn = prep([nn.BatchNorm3d(4)])[0]
    f = fc.FusedConvTranspose3d(conv, bn)
    rm0 = bn.running_mean.clone()
    expect_error(lambda: f(rnd(1, 4, 1, 1, 1)), ["more than one value"], library_code=True)
    require(int(bn.num_batches_tracked) == 0, "a refused call counted a batch")
    require(torch.equal(bn.running_mean, rm0), "a refused call changed running_mean")


def error_cases():
    E = []
    E.append(("cpu_input", lambda: expect_error(lambda: fused_a(nn.ReLU())(torch.randn(2, 4, 3, 3, 3)),
                                                "must be on a CUDA device")))
    E.append(("cpu_conv", lambda: expect_error(
        lambda: fc.FusedConvTranspose3d(nn.ConvTranspose3d(4, 6, 3))(x_a()), "conv parameters are on")))
    E.append(("float64_input", lambda: expect_error(lambda: fused_a(nn.ReLU())(x_a(torch.float64)),
                                                    ["float64", "supported"])))
    E.append(("non_contiguous_transpose", lambda: expect_error(
        lambda: fused_a(nn.ReLU())(rnd(2, 4, 3, 4, 5).transpose(3, 4)), "must be contiguous")))
    E.append(("non_contiguous_channel_slice", lambda: expect_error(
        lambda: fused_a(nn.ReLU())(rnd(2, 8, 3, 3, 3)[:, ::2]), "must be contiguous")))
    E.append(("wrong_channel_count", lambda: expect_error(lambda: fused_a(nn.ReLU())(rnd(2, 3, 3, 3, 3)),
                                                          "conv expects 4")))
    E.append(("input_3d", lambda: expect_error(lambda: fused_a()(rnd(4, 3, 3)), "4D or 5D")))
    E.append(("unsupported_dropout", lambda: expect_error(lambda: fused_a(nn.ReLU(), nn.Dropout()),
                                                          ["epilogue[1]", "Dropout", "not a supported epilogue"])))
    E.append(("unsupported_sigmoid", lambda: expect_error(lambda: fused_a(nn.Sigmoid()),
                                                          ["Sigmoid", "not a supported epilogue"])))
    E.append(("unsupported_function", lambda: expect_error(lambda: fused_a(torch.sigmoid),
                                                           ["sigmoid", "not a supported epilogue"])))
    E.append(("unsupported_pool_size_2", lambda: expect_error(lambda: fused_a(nn.AdaptiveAvgPool3d(2)),
                                                              "not a supported epilogue")))
    E.append(("bool_entry", lambda: expect_error(lambda: fused_a(True), "bool")))
    E.append(("conv3d_not_transposed", lambda: expect_error(
        lambda: fc.FusedConvTranspose3d(nn.Conv3d(4, 6, 3)), "must be an nn.ConvTranspose3d")))
    E.append(("pool_not_last", lambda: expect_error(lambda: fused_a(nn.AdaptiveAvgPool3d(1), nn.ReLU()),
                                                    ["epilogue[0]", "last"])))
    E.append(("layernorm_shape_length", lambda: expect_error(lambda: fused_a(nn.LayerNorm(7))(x_a()),
                                                             "does not match the trailing dims")))
    E.append(("layernorm_shape_order", lambda: expect_error(lambda: fused_a(nn.LayerNorm((5, 6)))(x_a()),
                                                            "does not match the trailing dims")))
    E.append(("layernorm_5_dims", lambda: expect_error(
        lambda: fused_a(nn.LayerNorm((2, 6, 6, 6, 5)))(x_a()), "does not match the trailing dims")))
    E.append(("groupnorm_channels", lambda: expect_error(lambda: fused_a(nn.ReLU(), nn.GroupNorm(2, 8))(x_a()),
                                                         ["epilogue[1]", "GroupNorm has 8 channels"])))
    E.append(("batchnorm_channels", lambda: expect_error(lambda: fused_a(nn.BatchNorm3d(8))(x_a()),
                                                         "the plan needs 6")))
    E.append(("add_channel_length", lambda: expect_error(lambda: fused_a(fc.AddChannel(torch.randn(5)))(x_a()),
                                                         "the plan needs 6")))
    E.append(("op_tensor_on_cpu", lambda: expect_error(
        lambda: fc.FusedConvTranspose3d(conv_a(), fc.AddChannel(torch.randn(6)))(x_a()), "is on cpu")))
    E.append(("batchnorm_eps_0", lambda: expect_error(lambda: fused_a(nn.BatchNorm3d(6, eps=0.0))(x_a()),
                                                      "eps must be > 0")))
    E.append(("batchnorm_eval_eps_0", lambda: expect_error(
        lambda: fused_a(nn.BatchNorm3d(6, eps=0.0).eval())(x_a()), "eps must be > 0")))
    E.append(("layernorm_eps_0", lambda: expect_error(lambda: fused_a(nn.LayerNorm(5, eps=0.0))(x_a()),
                                                      "eps must be > 0")))
    E.append(("grad_enabled_params", err_grad_params))
    E.append(("grad_enabled_input", err_grad_input))
    E.append(("math_fp64_construction", lambda: expect_error(lambda: fused_a(nn.ReLU(), math="fp64"),
                                                             "math must be one of")))
    E.append(("math_fp64_setter", lambda: expect_error(lambda: setattr(fused_a(), "math", "fp64"),
                                                       "math must be one of")))
    E.append(("engine_unknown_name", lambda: expect_error(lambda: fused_a(nn.ReLU(), engine="nope")(x_a()),
                                                          ["engine must be", "direct", "nope"])))
    E.append(("engine_not_a_name", lambda: expect_error(lambda: fused_a(nn.ReLU(), engine=1),
                                                        "engine must be None or an engine name")))
    E.append(("conv_float32_x_float16", lambda: expect_error(lambda: fused_a(nn.ReLU())(x_a(torch.float16)),
                                                             "must match")))
    E.append(("conv_float16_x_float32", lambda: expect_error(lambda: fused_a(nn.ReLU()).half()(x_a()),
                                                             "must match")))
    # the library's own refusals, with fc3d_result codes
    E.append(("library_output_size", lambda: expect_error(
        lambda: fc.FusedConvTranspose3d(nn.ConvTranspose3d(4, 4, 1, padding=1).to(DEV))(rnd(1, 4, 1, 1, 1)),
        "output size", library_code=True)))
    E.append(("library_too_many_ops", lambda: expect_error(
        lambda: fused_a(*[nn.ReLU() for _ in range(fc.load_extension().MAX_OPS + 1)])(x_a()),
        "num_ops", library_code=True)))
    E.append(("library_momentum_above_1", lambda: expect_error(
        lambda: fused_a(nn.BatchNorm3d(6, momentum=1.5))(x_a()), "momentum", library_code=True)))
    E.append(("library_scale_inf", lambda: expect_error(lambda: fused_a(math.inf)(x_a()), "finite",
                                                        library_code=True)))
    E.append(("library_batchnorm_count", err_bn_count))
    return E


# ---- 6. determinism -------------------------------------------------------------------------------

def check_determinism(make_entries, dtype=None, memory_format=None):
    dtype = dtype or torch.float32
    conv = conv_a()
    entries = prep(make_entries())
    fused = fc.FusedConvTranspose3d(conv, *entries).to(dtype)
    x = x_a(dtype)
    if memory_format is not None:
        x = x.contiguous(memory_format=memory_format)
    with torch.no_grad():
        y1 = fused(x)
        y1 = y1.clone()
        y2 = fused(x)
    torch.cuda.synchronize()
    require(bool(torch.isfinite(y1.float()).all()), "non-finite output")
    require(torch.equal(y1, y2), f"two forwards differ (rel-L2 {rel_l2(y2, y1):.3g})")


# ---- 7. streams -----------------------------------------------------------------------------------

def check_stream():
    """On a non-default stream, behind a long kernel that also writes x's values: a bridge that
    launched elsewhere than the current stream would read x before it is written."""
    conv = conv_a()
    entries = prep([nn.BatchNorm3d(6).eval(), nn.GELU(), nn.GroupNorm(3, 6), fc.SubtractSpatialMean()])
    fused = fc.FusedConvTranspose3d(conv, *entries)
    ref = ref_copy(conv, entries)
    x = x_a()
    with torch.no_grad():
        y0 = fused(x)
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        if hasattr(torch.cuda, "_sleep"):
            torch.cuda._sleep(100_000_000)  # ~50 ms of GPU time on s
        xs = torch.zeros_like(x)
        xs.copy_(x)
        with torch.no_grad():
            y1 = fused(xs)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    require_close(y1, ref_run(ref, x), 1e-5, "output on the stream", "fp32")
    require(torch.equal(y0, y1), f"stream result differs from the default-stream result (rel-L2 {rel_l2(y1, y0):.3g})")


def check_stream_bn_train():
    """Running-statistics update on a non-default stream."""
    conv, bn = bn_model()
    entries = [bn, fc.SubtractSpatialMean()]
    fused = fc.FusedConvTranspose3d(conv, *entries)
    ref = ref_copy(conv, entries)
    x = rnd(2, 4, 3, 3, 3)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        with torch.no_grad():
            y = fused(x)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    require_close(y, ref_run(ref, x), 1e-5, "output", "fp32")
    require_bn_state(entries, ref, 1e-5)


def check_workspace_kept():
    """A plan keeps its workspace for the next call on the same stream and takes its own on another
    stream; every output bitwise the one a fresh module (fresh plan, fresh workspace) gives on the
    same input, also after the workspace held another input's partials."""
    conv = conv_a()
    entries = prep([nn.BatchNorm3d(6).eval(), nn.GELU(), nn.GroupNorm(3, 6), fc.SubtractSpatialMean()])
    fused = fc.FusedConvTranspose3d(conv, *entries)
    x1, x2 = x_a(), x_a()
    with torch.no_grad():
        fused(x1)
        plan = fused._plan_for(x2)[0][0]
        require(plan.workspace_bytes > 0, "the chain's plan has no workspace")
        kept = plan.kept_workspace
        require(kept != 0, "no workspace kept after a call")
        y2 = fused(x2)
        require(plan.kept_workspace == kept, "a second call on the same stream took another workspace")
        want = fc.FusedConvTranspose3d(conv, *entries)(x2)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            y3 = fused(x2)
        torch.cuda.current_stream().wait_stream(s)
        require(plan.kept_workspace not in (0, kept), "a call on another stream kept the first stream's workspace")
    torch.cuda.synchronize()
    require(bool(torch.isfinite(want).all()), "non-finite output")
    require(torch.equal(y2, want), f"the kept workspace's output differs (rel-L2 {rel_l2(y2, want):.3g})")
    require(torch.equal(y3, want), f"the other stream's output differs (rel-L2 {rel_l2(y3, want):.3g})")


def check_cuda_graph(make_entries, make_conv=None, x_shape=None, tf32=False):
    """A forward captured by torch.cuda.graph (the bridge's y and workspace from the graph's pool,
    the plan's launches recorded) and replayed twice, x refilled in place before each replay:
    bitwise equal to an eager forward of the same module on the same input (stateless chains, so
    every forward sees the same state)."""
    conv = (make_conv or conv_a)()
    entries = prep(make_entries())
    fused = fc.FusedConvTranspose3d(conv, *entries, math="tf32" if tf32 else "fp32")
    x = x_a() if x_shape is None else rnd(*x_shape)
    static_x = x.clone()
    with torch.no_grad():
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):  # warm-up outside the graph: the plan and the extension ready
            fused(static_x)
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            static_y = fused(static_x)
        want = fused(x).clone()
        for rep in range(2):
            static_x.copy_(torch.rand_like(x))  # other values first: the replay must read the refill
            g.replay()
            static_x.copy_(x)
            static_y.fill_(float("nan"))
            g.replay()
            torch.cuda.synchronize()
            require(torch.equal(static_y, want),
                    f"replay {rep}: differs from the eager forward (rel-L2 {rel_l2(static_y, want):.3g})")


# ---- 8. math follows PyTorch ----------------------------------------------------------------------

class cudnn_tf32:
    """torch.backends.cudnn.allow_tf32 = on inside, restored after."""

    def __init__(self, on):
        self.on = on

    def __enter__(self):
        self.saved = torch.backends.cudnn.allow_tf32
        torch.backends.cudnn.allow_tf32 = self.on

    def __exit__(self, *exc):
        torch.backends.cudnn.allow_tf32 = self.saved


def follow_case():
    """A stateless chain (so repeated forwards see the same state) with enough products per output
    that TF32 and FP32 operands give different bits."""
    conv = nn.ConvTranspose3d(8, 16, 3, stride=2, padding=1).to(DEV)
    entries = prep([nn.ReLU(), nn.GroupNorm(4, 16), nn.LayerNorm(7)])
    return conv, entries, rnd(2, 8, 3, 4, 4)


def forward_as(fused, x, tf32_on):
    with cudnn_tf32(tf32_on), torch.no_grad():
        y = fused(x)
    torch.cuda.synchronize()
    return y, fused.last_math


def check_math_follows_pytorch():
    conv, entries, x = follow_case()
    ref = ref_copy(conv, entries)
    auto = fc.FusedConvTranspose3d(conv, *entries)
    require(auto.math is None, f"default math is {auto.math!r}, expected None (follow PyTorch)")
    y_tf32, _ = forward_as(fc.FusedConvTranspose3d(conv, *entries, math="tf32"), x, True)
    y_fp32, _ = forward_as(fc.FusedConvTranspose3d(conv, *entries, math="fp32"), x, False)
    require(not torch.equal(y_tf32, y_fp32), "tf32 and fp32 gave equal bits: the check below would prove nothing")
    for on, expect, y_expect in ((True, "tf32", y_tf32), (False, "fp32", y_fp32), (True, "tf32", y_tf32)):
        with cudnn_tf32(on):
            require(auto.math_now() == expect, f"allow_tf32={on}: math_now() {auto.math_now()!r}, expected {expect!r}")
        y, used = forward_as(auto, x, on)
        require(used == expect, f"allow_tf32={on}: last_math {used!r}, expected {expect!r}")
        require(torch.equal(y, y_expect), f"allow_tf32={on}: differs from math={expect!r} "
                f"(rel-L2 {rel_l2(y, y_expect):.3g})")
        require_close(y, ref_run(ref, x), bound_for(expect, x.dtype), f"allow_tf32={on} output", expect)


def check_explicit_math_wins():
    conv, entries, x = follow_case()
    ref = ref_copy(conv, entries)
    for mode in fc.MATH_MODES:
        fused = fc.FusedConvTranspose3d(conv, *entries, math=mode)
        y_on, m_on = forward_as(fused, x, True)
        y_off, m_off = forward_as(fused, x, False)
        require(m_on == mode and m_off == mode, f"math={mode!r}: last_math {m_on!r} / {m_off!r}")
        require(torch.equal(y_on, y_off), f"math={mode!r}: allow_tf32 changed the output "
                f"(rel-L2 {rel_l2(y_off, y_on):.3g})")
        require_close(y_on, ref_run(ref, x), bound_for(mode, x.dtype), f"math={mode!r} output", mode)
    # the setter back to None follows PyTorch again
    fused.math = None
    require(forward_as(fused, x, False)[1] == "fp32" and forward_as(fused, x, True)[1] == "tf32",
            "math=None set after construction does not follow allow_tf32")


def check_dropin_default_follows():
    """The workload drop-ins default to following PyTorch too: under PyTorch's default setting the
    L2/15 drop-in equals one built with math="tf32"."""
    import workloads
    outs = []
    for math_mode in (None, "tf32"):
        torch.manual_seed(SEED)
        m = workloads.L2_15(4, 8, 3, 2, 1, math=math_mode).to(DEV)
        torch.manual_seed(SEED + 1)
        y, used = forward_as(m, torch.rand(2, 4, 3, 3, 3, device=DEV), True)
        require(used == "tf32" and m.last_engine, f"math={math_mode!r}: last_math {used!r}, "
                f"last_engine {m.last_engine!r}")
        outs.append(y)
    require(torch.equal(outs[0], outs[1]), f"drop-in default differs from math='tf32' (rel-L2 "
            f"{rel_l2(outs[0], outs[1]):.3g})")


def check_main_loop_reported():
    """A call whose in_channels is a multiple of 16 reports the main loop it ran: wgmma on an sm_90
    device (the extension is built with sm_90a code there), mma.sync elsewhere, in the TF32 and the
    FP32 (3xTF32) mode alike; and the TF32 output matches the FP32 mode's within TF32's bound. With
    in_channels 64 and 1728 products an output, both modes run the haloed loop there; at L2/15's
    shape (in_channels 16, out_channels 32), TF32 runs the block loop, and half math too (its f16
    kernels, x and the weight rounded to f16 as they are)."""
    torch.manual_seed(SEED)
    conv = nn.ConvTranspose3d(32, 24, 3, stride=2, padding=1).to(DEV)
    x = torch.rand(2, 32, 5, 6, 7, device=DEV)
    m = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="tf32")
    m32 = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="fp32")
    with torch.no_grad():
        y = m(x)
        y32 = m32(x)
    want = "wgmma" if torch.cuda.get_device_capability(DEV) == (9, 0) else "mma.sync"
    require(m.last_main_loop == want, f"tf32: last_main_loop {m.last_main_loop!r}, want {want!r}")
    require(m32.last_main_loop == want, f"fp32: last_main_loop {m32.last_main_loop!r}, want {want!r}")
    require_close(y, y32, bound_for("tf32", x.dtype), "tf32 (main loop) against fp32", "tf32")
    # in_channels 64, k3 s1: 1728 products an output, so TF32 and FP32 (3xTF32) math take the
    # haloed loop on sm_90
    conv = nn.ConvTranspose3d(64, 24, 3).to(DEV)
    x = torch.rand(2, 64, 5, 6, 7, device=DEV)
    m = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="tf32")
    m32 = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="fp32")
    with torch.no_grad():
        y = m(x)
        y32 = m32(x)
    sm90 = torch.cuda.get_device_capability(DEV) == (9, 0)
    require(m.last_main_loop == ("halo" if sm90 else "mma.sync"), f"tf32, C_in 64: last_main_loop {m.last_main_loop!r}")
    require(m32.last_main_loop == ("halo" if sm90 else "mma.sync"),
            f"fp32, C_in 64: last_main_loop {m32.last_main_loop!r}")
    require_close(y, y32, bound_for("tf32", x.dtype), "tf32 (haloed loop) against fp32", "tf32")
    # L2/15's shape (in_channels 16, out_channels 32, k3 s2 p1): TF32 and half math take the
    # warp-row loop on every sm_80+ device (FP32 math stays on wgmma / mma.sync), and the block loop
    # where the input W is past 32
    conv = nn.ConvTranspose3d(16, 32, 3, stride=2, padding=1).to(DEV)
    x = torch.rand(2, 16, 5, 6, 7, device=DEV)
    m = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="tf32")
    mh = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="half")
    m32 = fc.FusedConvTranspose3d(conv, nn.ReLU(), math="fp32")
    with torch.no_grad():
        y = m(x)
        yh = mh(x)
        y32 = m32(x)
    require(m.last_main_loop == "warp_rows", f"tf32, L2/15's shape: last_main_loop {m.last_main_loop!r}")
    require(mh.last_main_loop == "warp_rows", f"half, L2/15's shape: last_main_loop {mh.last_main_loop!r}")
    require(m32.last_main_loop == want, f"fp32, L2/15's shape: last_main_loop {m32.last_main_loop!r}")
    require_close(y, y32, bound_for("tf32", x.dtype), "tf32 (warp-row loop) against fp32", "tf32")
    require_close(yh, y32, bound_for("half", x.dtype), "half (warp-row loop) against fp32", "half")
    xw = torch.rand(2, 16, 3, 4, 40, device=DEV)  # input W 40: the block loop
    with torch.no_grad():
        yw = m(xw)
        yw32 = m32(xw)
    require(m.last_main_loop == "block", f"tf32, L2/15's shape at W 40: last_main_loop {m.last_main_loop!r}")
    require_close(yw, yw32, bound_for("tf32", x.dtype), "tf32 (block loop) against fp32", "tf32")


# ---- 9. engines -----------------------------------------------------------------------------------

def engine_cases():
    """(name, conv factory, entries factory, x shape): the five workloads' structures at sizes a
    tensor-core engine can take (channels multiples of 16)."""
    return [
        ("L2_15", lambda: nn.ConvTranspose3d(16, 32, 3, stride=2, padding=1),
         lambda: [nn.BatchNorm3d(32), fc.SubtractSpatialMean()], (2, 16, 4, 6, 6)),
        ("L2_77", lambda: nn.ConvTranspose3d(32, 64, 5),
         lambda: [fc.Scale(2.0), nn.BatchNorm3d(64), nn.AdaptiveAvgPool3d(1)], (2, 32, 4, 6, 6)),
        ("L2_34", lambda: nn.ConvTranspose3d(32, 64, 4, stride=2, padding=1),
         lambda: [nn.LayerNorm(16), F.gelu, 1.0], (2, 32, 3, 5, 8)),
        ("L2_61", lambda: nn.ConvTranspose3d(64, 128, 3, bias=False),
         lambda: [nn.ReLU(), nn.GroupNorm(8, 128)], (2, 64, 4, 4, 4)),
        ("L1_77", lambda: nn.ConvTranspose3d(32, 64, 3, stride=2, padding=1, dilation=2, bias=False),
         lambda: [], (2, 32, 3, 6, 6)),
    ]


def run_forced(conv, entries, x, engine, math_mode):
    """compare() with engine forced; None when the library refuses the engine for this desc."""
    fused = fc.FusedConvTranspose3d(conv, *entries, math=math_mode, engine=engine)
    require(fused.engine == engine, f"engine setting {fused.engine!r}")
    try:
        y, _, _ = compare(conv, entries, x, fused=fused)
    except fc.FusedConv3dError as e:
        if e.code == fc.load_extension().ERROR_ENGINE_REFUSED:
            return None, str(e)
        raise CheckFailure(f"engine {engine}, math {math_mode}: {one_line(e)}")
    require(fused.last_engine == engine, f"forced {engine!r}, last_engine {fused.last_engine!r}")
    return y, None


def check_engine_forced(engine):
    """Every case in math fp32 and tf32 with the engine forced. The direct engine takes every desc;
    another engine may refuse some (with the library's code and reason), but not all."""
    ran, refused = 0, []
    for name, mk_conv, mk_entries, shape in engine_cases():
        for math_mode in ("fp32", "tf32"):
            conv = mk_conv().to(DEV)
            entries = prep(mk_entries())
            _, why = run_forced(conv, entries, rnd(*shape), engine, math_mode)
            if why is None:
                ran += 1
            else:
                refused.append(f"{name}/{math_mode}: {why}")
    if refused:
        print(f"# engine {engine} refused {len(refused)} of {ran + len(refused)}: " + "; ".join(refused[:3]))
    require(engine != "direct" or not refused, "the direct engine refused: " + "; ".join(refused[:2]))
    require(ran > 0, f"engine {engine} refused every case: " + "; ".join(refused[:2]))


def check_engine_auto_matches_forced():
    """The automatic choice reports a known engine, and forcing that engine gives the same bits."""
    names = fc.engine_names()
    for name, mk_conv, mk_entries, shape in engine_cases():
        conv = mk_conv().to(DEV)
        entries = prep([e for e in mk_entries() if not isinstance(e, nn.BatchNorm3d)] or [nn.ReLU()])
        x = rnd(*shape)
        auto = fc.FusedConvTranspose3d(conv, *entries, math="tf32")
        require(auto.engine is None and auto.last_engine is None, "engine state before the first call")
        y_auto, _, _ = compare(conv, entries, x, fused=auto)
        require(auto.last_engine in names, f"{name}: last_engine {auto.last_engine!r} not in {names}")
        y_forced, why = run_forced(conv, entries, x, auto.last_engine, "tf32")
        require(why is None, f"{name}: forcing the engine auto chose ({auto.last_engine}) was refused: {why}")
        require(torch.equal(y_auto, y_forced), f"{name}: auto ({auto.last_engine}) and forced differ "
                f"(rel-L2 {rel_l2(y_forced, y_auto):.3g})")


# ---- registry and main ----------------------------------------------------------------------------

def register():
    for name, factory in single_epilogues():
        add(f"epilogue/{name}", check_single, factory)

    for name, mk_conv, mk_entries, shape in CHAINS:
        add(f"chain/{name}", check_chain, mk_conv, mk_entries, shape)
    add("chain/L2_15_tf32", check_chain, CHAINS[0][1], CHAINS[0][2], CHAINS[0][3], "tf32")
    add("chain/L2_34_tf32", check_chain, CHAINS[2][1], CHAINS[2][2], CHAINS[2][3], "tf32")
    add("chain/L1_77_tf32", check_chain, CHAINS[4][1], CHAINS[4][2], CHAINS[4][3], "tf32")
    add("chain/max_ops", check_max_ops)

    stats_chain = lambda: [nn.BatchNorm3d(6), nn.GELU(), nn.GroupNorm(3, 6), nn.LayerNorm(5),  # noqa: E731
                           fc.AddChannel(torch.randn(6)), fc.SubtractSpatialMean()]
    pool_chain = lambda: [fc.Scale(2.0), nn.BatchNorm3d(6), nn.ReLU(), nn.AdaptiveAvgPool3d(1)]  # noqa: E731
    ln_chain = lambda: [nn.LayerNorm((6, 6, 6, 5)), nn.GELU(approximate="tanh"), nn.BatchNorm3d(6).eval(),  # noqa: E731
                        nn.LayerNorm((6, 5), elementwise_affine=False)]
    add("layout/channels_last_input", check_channels_last_input, stats_chain)
    add("layout/channels_last_input_layernorm", check_channels_last_input, ln_chain)
    add("layout/channels_last_input_pool", check_channels_last_input, pool_chain, True)
    add("layout/channels_last_input_conv_only", check_channels_last_input, lambda: [])
    add("layout/channels_last_model", check_channels_last_model)
    for dt, tag in ((torch.float16, "float16"), (torch.bfloat16, "bfloat16")):
        add(f"dtype/{tag}_model_stats_chain", check_model_dtype, dt, stats_chain)
        add(f"dtype/{tag}_model_layernorm_chain", check_model_dtype, dt, ln_chain)
        add(f"dtype/{tag}_model_pool", check_model_dtype, dt, pool_chain)
        add(f"dtype/{tag}_model_channels_last", check_model_dtype, dt, stats_chain, "fp32", CL)
        add(f"dtype/{tag}_math_half", check_math_mode, "half", dt)
    add("dtype/float16_conv_float32_norms", check_half_conv_float_norms)
    add("math/tf32", check_math_mode, "tf32")
    add("math/half_on_float32", check_math_mode, "half")
    add("math/setter_switches_plans", check_math_setter)
    add("layout/unbatched_4d", check_unbatched_elementwise)
    add("layout/unbatched_4d_statistics", check_unbatched_statistics)
    add("module/cuda_after_construction", check_cuda_after_construction)
    add("module/plan_description", check_plan_description)

    add("batchnorm/train_3_forwards_momentum_0.1", check_bn_forwards, 0.1)
    add("batchnorm/train_3_forwards_momentum_0.5_no_affine", check_bn_forwards, 0.5, False)
    add("batchnorm/train_3_forwards_momentum_None", check_bn_forwards, None)
    add("batchnorm/momentum_0_keeps_stats_counts_batches", check_bn_momentum_zero)
    add("batchnorm/eval_uses_and_keeps_running_stats", check_bn_eval_keeps_stats)
    add("batchnorm/untracked_eval_uses_batch_stats", check_bn_untracked_eval)
    add("batchnorm/shares_parameters", check_fused_shares_parameters)
    add("batchnorm/train_eval_propagate", check_train_eval_propagates)
    add("batchnorm/inference_mode", check_inference_mode)
    add("module/no_grad_not_needed_when_frozen", check_no_grad_not_needed_when_frozen)

    for name, fn in error_cases():
        add(f"error/{name}", fn)

    add("determinism/groupnorm_chain", check_determinism,
        lambda: [nn.ReLU(), nn.GroupNorm(3, 6), nn.LayerNorm(5), fc.SubtractSpatialMean()])
    add("determinism/batchnorm_train_pool", check_determinism,
        lambda: [nn.BatchNorm3d(6), nn.GroupNorm(2, 6), nn.AdaptiveAvgPool3d(1)])
    add("determinism/bfloat16_channels_last_groupnorm", check_determinism,
        lambda: [nn.GroupNorm(3, 6), nn.GELU(), nn.LayerNorm((6, 5))], torch.bfloat16, CL)
    add("stream/non_default_stream", check_stream)
    add("stream/batchnorm_train_on_stream", check_stream_bn_train)
    add("stream/workspace_kept_per_stream", check_workspace_kept)
    add("stream/cuda_graph_groupnorm_gelu", check_cuda_graph, lambda: [nn.ReLU(), nn.GroupNorm(3, 6), nn.GELU()])
    add("stream/cuda_graph_bn_eval_submean", check_cuda_graph,
        lambda: [nn.BatchNorm3d(6).eval(), fc.SubtractSpatialMean()])
    add("stream/cuda_graph_l2_61_like_tf32", check_cuda_graph, lambda: [nn.ReLU(), nn.GroupNorm(8, 64)],
        lambda: nn.ConvTranspose3d(32, 64, 3).to(DEV), (2, 32, 4, 5, 6), True)

    add("extension/build_lock_message", check_build_lock_message)
    add("math/follows_cudnn_allow_tf32", check_math_follows_pytorch)
    add("math/explicit_wins_over_pytorch", check_explicit_math_wins)
    add("math/dropin_default_follows", check_dropin_default_follows)
    add("math/main_loop_reported", check_main_loop_reported)
    names = fc.engine_names()
    print(f"# engines: {', '.join(names)}")
    for name in names:
        add(f"engine/forced_{name}", check_engine_forced, name)
    add("engine/auto_matches_forced", check_engine_auto_matches_forced)


def check_build_lock_message():
    """A build lock left in the build directory is named by the warning load_extension gives;
    none without it."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        require(fc.build_lock_message(d) is None, "a message without a lock file")
        path = os.path.join(d, "lock")
        open(path, "w").close()
        msg = fc.build_lock_message(d)
        require(msg is not None and path in msg and "delete it" in msg, f"message {msg!r} for {path}")


def skip(reason):
    print(f"bridge tests skipped: {reason}")
    print("0 passed, 0 failed")
    return 0


def main():
    global fc, DEV, CL
    if torch is None:
        return skip(f"torch cannot be imported ({one_line(_TORCH_ERROR)})")
    if not torch.cuda.is_available():
        return skip(f"torch {torch.__version__}: torch.cuda.is_available() is False")
    DEV = torch.device("cuda", torch.cuda.current_device())
    CL = torch.channels_last_3d
    print(f"# torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(DEV)}")

    sys.path.insert(0, BRIDGE_DIR)
    try:
        import fusedconv3d_torch
        fc = fusedconv3d_torch
    except Exception as e:
        print(f"FAIL import_bridge: {one_line(e)}")
        print("0 passed, 1 failed")
        return 1
    t0 = time.time()
    try:
        fc.load_extension()
    except Exception as e:
        print(f"FAIL extension_build: {one_line(e, 2000)}")
        print("0 passed, 1 failed")
        return 1
    print("ok extension_build")
    print(f"# extension ready in {time.time() - t0:.1f} s")

    # sections 1-7 hold the accurate bound for modules built without math=, which follow this
    torch.backends.cudnn.allow_tf32 = False
    print("# torch.backends.cudnn.allow_tf32 = False for the checks (math=None follows it)")
    passed, failed = 1, 0
    register()
    t0 = time.time()
    for i, (name, fn, args) in enumerate(CHECKS):
        torch.manual_seed(SEED + i)  # each check its own fixed stream of fresh random values
        try:
            fn(*args)
            torch.cuda.synchronize()
        except CheckFailure as e:
            print(f"FAIL {name}: {e}")
            failed += 1
        except Exception as e:
            print(f"FAIL {name}: unexpected {one_line(e)}")
            failed += 1
        else:
            print(f"ok {name}")
            passed += 1
        sys.stdout.flush()
    print(f"# {len(CHECKS)} checks in {time.time() - t0:.1f} s")
    for (m, d), err in sorted(WORST.items()):
        print(f"# worst rel-L2, math {m}, {d}: {err:.3g} (bound {bound_for(m, getattr(torch, d)):g})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
