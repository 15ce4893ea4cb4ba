#!/usr/bin/env python3
"""make_goldens.py - golden data for fusedconv3d, computed by PyTorch itself.

    python3 tests/golden/make_goldens.py OUTDIR          # writes OUTDIR/<case>.fc3d and OUTDIR/MANIFEST
    python3 tests/golden/make_goldens.py --dry-run       # lists the cases and their exact file sizes;
                                                         # needs no torch

Every case is a real torch.nn.ConvTranspose3d (default init) followed by real PyTorch modules for
the epilogue chain, all in float64 on the CPU, seeded per case (torch.manual_seed of the name's
CRC-32), so the expected values are PyTorch's own, not a re-derivation. tests/golden/README.md
documents the file format and the case list.

Every float parameter (SCALE's value, eps, momentum) is rounded to float32 *before* PyTorch sees
it: fc3d_op holds them as float, and the reference compared against these files at 1e-10 must run
with exactly the value PyTorch ran with (0.1 and its float32 rounding differ by 1.5e-9 relative,
which would show in the running statistics).
"""

import os
import re
import struct
import sys
import zlib
import random
from dataclasses import dataclass, field
from typing import List, Tuple

# fc3d_op_kind (fusedconv3d.cuh); checked against the header below when it can be found.
SCALE = 1
ADD_CHANNEL = 2
RELU = 3
GELU = 4
GELU_TANH = 5
BATCHNORM_TRAIN = 6
BATCHNORM_INFER = 7
GROUPNORM = 8
LAYERNORM = 9
SUB_SPATIAL_MEAN = 10
GLOBAL_AVG_POOL = 11

KIND_NAMES = {
    SCALE: "SCALE", ADD_CHANNEL: "ADD_CHANNEL", RELU: "RELU", GELU: "GELU",
    GELU_TANH: "GELU_TANH", BATCHNORM_TRAIN: "BATCHNORM_TRAIN",
    BATCHNORM_INFER: "BATCHNORM_INFER", GROUPNORM: "GROUPNORM", LAYERNORM: "LAYERNORM",
    SUB_SPATIAL_MEAN: "SUB_SPATIAL_MEAN", GLOBAL_AVG_POOL: "GLOBAL_AVG_POOL",
}

# fc3d_op.flags
AFFINE = 1
UPDATE = 2
SAVE = 4

MAGIC = b"FC3DGLD1"
NAME_BYTES = 32
CONV_INTS = 23
OP_STRUCT = "<4i3d"  # kind, groups, norm_dims, flags; value, eps, momentum
MAX_OPS = 16
BUDGET_BYTES = 8 * 1000 * 1000

# Largest x + weight + y (elements) of a randomly drawn convolution; keeps the set small.
RANDOM_CONV_BUDGET = 16000
RANDOM_CHAIN_BUDGET = 8000


def f32(v: float) -> float:
    """v rounded to the nearest float32, as a Python float (exact)."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


EPS_DEFAULT = f32(1e-5)
EPS_LARGE = f32(1e-3)
MOMENTUM_DEFAULT = f32(0.1)
MOMENTUM_LARGE = f32(0.3)


@dataclass
class Conv:
    n: int
    cin: int
    cout: int
    size: Tuple[int, int, int]
    k: Tuple[int, int, int]
    s: Tuple[int, int, int] = (1, 1, 1)
    p: Tuple[int, int, int] = (0, 0, 0)
    op: Tuple[int, int, int] = (0, 0, 0)
    d: Tuple[int, int, int] = (1, 1, 1)
    g: int = 1
    bias: bool = True

    def out_size(self) -> Tuple[int, int, int]:
        return tuple((self.size[i] - 1) * self.s[i] - 2 * self.p[i] + self.d[i] * (self.k[i] - 1)
                     + self.op[i] + 1 for i in range(3))

    def out_dims(self) -> Tuple[int, int, int, int, int]:
        return (self.n, self.cout) + self.out_size()

    def problems(self) -> List[str]:
        """Why PyTorch (or fc3d_plan_init) would refuse this conv; empty when valid."""
        why = []
        if min(self.n, self.cin, self.cout) < 1:
            why.append("batch and channels must be > 0")
        if min(self.size) < 1 or min(self.k) < 1 or min(self.s) < 1 or min(self.d) < 1:
            why.append("sizes, kernel, stride and dilation must be > 0")
        if min(self.p) < 0 or min(self.op) < 0:
            why.append("padding and output_padding must be >= 0")
        for i in range(3):
            if self.op[i] >= max(self.s[i], self.d[i]):
                why.append("output_padding[%d] must be < max(stride, dilation)" % i)
        if self.g < 1 or self.cin % self.g or self.cout % self.g:
            why.append("groups must divide both channel counts")
        if min(self.out_size()) < 1:
            why.append("output size %s <= 0" % (self.out_size(),))
        return why

    def elements(self) -> int:
        x = self.n * self.cin * prod(self.size)
        w = self.cin * (self.cout // self.g) * prod(self.k)
        y = prod(self.out_dims())
        return x + w + y + (self.cout if self.bias else 0)


@dataclass
class Op:
    kind: int
    value: float = 0.0
    eps: float = 0.0
    momentum: float = 0.0
    groups: int = 0
    norm_dims: int = 0
    flags: int = 0


@dataclass
class Case:
    name: str
    conv: Conv
    ops: List[Op] = field(default_factory=list)
    randn: bool = False  # input from torch.randn instead of torch.rand


def prod(xs) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


# ---- op constructors: each fills exactly the fields its kind uses (fc3d_op: others must be 0) ----

def scale(v):
    return Op(SCALE, value=f32(v))


def add_channel():
    return Op(ADD_CHANNEL)


def relu():
    return Op(RELU)


def gelu():
    return Op(GELU)


def gelu_tanh():
    return Op(GELU_TANH)


def bn_train(flags=AFFINE | UPDATE, eps=EPS_DEFAULT, momentum=MOMENTUM_DEFAULT):
    return Op(BATCHNORM_TRAIN, eps=eps, momentum=momentum, flags=flags)


def bn_infer(affine=True, eps=EPS_DEFAULT):
    return Op(BATCHNORM_INFER, eps=eps, flags=AFFINE if affine else 0)


def group_norm(groups, affine=True, eps=EPS_DEFAULT):
    return Op(GROUPNORM, eps=eps, groups=groups, flags=AFFINE if affine else 0)


def layer_norm(k, affine=True, eps=EPS_DEFAULT):
    return Op(LAYERNORM, eps=eps, norm_dims=k, flags=AFFINE if affine else 0)


def sub_mean():
    return Op(SUB_SPATIAL_MEAN)


def pool():
    return Op(GLOBAL_AVG_POOL)


# ---- cancellation guards ---------------------------------------------------------------------
# A result that is mathematically zero comes out of float64 as rounding noise (~1e-17); a
# relative-error test against it is meaningless. These predicates keep such chains out of the
# set; encode_case() also refuses any expected tensor whose RMS is below 1e-9 (unless it is
# exactly zero, as after SCALE by 0, which every implementation reproduces exactly).

def _last_non_scale(ops):
    for op in reversed(ops):
        if op.kind != SCALE:
            return op
    return None


def per_nc_mean_zero(ops, c, n):
    """True when the spatial mean of every (n, c) of the chain's result is exactly zero."""
    op = _last_non_scale(ops)
    if op is None:
        return False
    affine = op.flags & AFFINE
    return (op.kind == SUB_SPATIAL_MEAN
            or (op.kind == LAYERNORM and not affine and op.norm_dims <= 3)
            or (op.kind == GROUPNORM and not affine and op.groups == c)
            or (op.kind == BATCHNORM_TRAIN and not affine and n == 1))


def per_c_mean_zero(ops, c, n):
    """True when the batch mean of every channel of the chain's result is exactly zero."""
    op = _last_non_scale(ops)
    if op is not None and op.kind == BATCHNORM_TRAIN and not (op.flags & AFFINE):
        return True
    return per_nc_mean_zero(ops, c, n)


def pool_ok(ops, c, n):
    return not per_nc_mean_zero(ops, c, n)


def save_ok(ops, c, n):
    return not per_c_mean_zero(ops, c, n)


# ---- the cases -------------------------------------------------------------------------------

def random_conv(rng, budget, min_out=1):
    while True:
        g = rng.choice([1, 1, 1, 2, 3, 4])
        conv = Conv(
            n=rng.randint(1, 3),
            cin=g * rng.randint(1, 8 // g),
            cout=g * rng.randint(1, 8 // g),
            size=tuple(rng.randint(1, 6) for _ in range(3)),
            k=tuple(rng.randint(1, 5) for _ in range(3)),
            s=tuple(rng.randint(1, 3) for _ in range(3)),
            d=tuple(rng.randint(1, 3) for _ in range(3)),
            g=g,
            bias=rng.random() < 0.6,
        )
        # Padding beyond the kernel's reach (p > d*(k-1)) is legal in PyTorch but crops a
        # bias-only border; the explicit edge cases cover it, the random ones stay within reach.
        conv.p = tuple(rng.randint(0, min(2, conv.d[i] * (conv.k[i] - 1))) for i in range(3))
        conv.op = tuple(rng.randint(0, max(conv.s[i], conv.d[i]) - 1) for i in range(3))
        if conv.problems() or conv.elements() > budget or min(conv.out_size()) < min_out:
            continue
        return conv


def conv_cases():
    cases = []
    rng = random.Random(20251122)
    for i in range(25):
        cases.append(Case("conv_%03d" % i, random_conv(rng, RANDOM_CONV_BUDGET), randn=(i % 4 == 3)))
    edge = [
        ("conv_edge_unit", Conv(1, 1, 1, (3, 4, 5), (2, 3, 1), s=(1, 2, 3), bias=True)),
        ("conv_edge_cin1", Conv(2, 1, 8, (2, 3, 3), (3, 3, 2), s=(2, 1, 2), p=(1, 1, 0), bias=False)),
        ("conv_edge_cout1", Conv(2, 7, 1, (3, 3, 3), (2, 2, 2), s=(2, 2, 2), op=(1, 0, 1), bias=True)),
        ("conv_edge_k111_s2", Conv(2, 3, 2, (3, 3, 3), (1, 1, 1), s=(2, 2, 3), op=(1, 0, 2), bias=True)),
        ("conv_edge_k111_crop", Conv(2, 3, 2, (4, 4, 5), (1, 1, 1), p=(1, 1, 2), bias=True)),
        ("conv_edge_pad_beyond_kernel", Conv(1, 2, 3, (4, 5, 6), (2, 3, 2), s=(2, 1, 3),
                                             p=(2, 2, 2), bias=True)),
        ("conv_edge_in1", Conv(2, 3, 2, (1, 1, 1), (3, 4, 5), s=(2, 2, 2), p=(0, 1, 2), bias=True)),
        ("conv_edge_depthwise", Conv(2, 4, 4, (3, 4, 3), (3, 3, 3), s=(2, 1, 2), p=(1, 1, 1), g=4,
                                     bias=True)),
        ("conv_edge_groups4_x2", Conv(1, 4, 8, (3, 3, 4), (2, 3, 2), s=(1, 2, 2), d=(2, 1, 1), g=4,
                                      bias=False)),
        ("conv_edge_outpad_dilation", Conv(2, 2, 3, (3, 3, 3), (2, 2, 2), s=(1, 1, 2), op=(2, 1, 1),
                                           d=(3, 2, 1), bias=True)),
        ("conv_edge_same", Conv(2, 3, 4, (4, 4, 4), (5, 5, 5), p=(2, 2, 2), bias=True)),
    ]
    for name, conv in edge:
        cases.append(Case(name, conv))
    return cases


# The small conv every single-op case runs first: output (2, 6, 6, 5, 7), all dims distinct so a
# LayerNorm over the wrong dims cannot pass by accident.
def op_base():
    return Conv(2, 3, 6, (3, 3, 4), (3, 2, 3), s=(2, 1, 2), p=(1, 0, 1), op=(1, 0, 0), d=(1, 2, 1),
                bias=True)


def op_cases():
    c = op_base().cout
    ops = [
        ("op_scale", [scale(0.75)]),
        ("op_scale_neg", [scale(-1.7)]),
        ("op_scale_zero", [scale(0.0)]),
        ("op_add_channel", [add_channel()]),
        ("op_relu", [relu()]),
        ("op_gelu", [gelu()]),
        ("op_gelu_tanh", [gelu_tanh()]),
        ("op_bn_train", [bn_train(0)]),
        ("op_bn_train_affine", [bn_train(AFFINE)]),
        ("op_bn_train_update", [bn_train(UPDATE)]),
        ("op_bn_train_save", [bn_train(SAVE)]),
        ("op_bn_train_affine_update", [bn_train(AFFINE | UPDATE)]),
        ("op_bn_train_affine_save", [bn_train(AFFINE | SAVE)]),
        ("op_bn_train_update_save", [bn_train(UPDATE | SAVE)]),
        ("op_bn_train_all", [bn_train(AFFINE | UPDATE | SAVE)]),
        ("op_bn_train_eps1e3", [bn_train(AFFINE | UPDATE | SAVE, eps=EPS_LARGE)]),
        ("op_bn_train_momentum03", [bn_train(AFFINE | UPDATE | SAVE, momentum=MOMENTUM_LARGE)]),
        ("op_bn_infer", [bn_infer(affine=False)]),
        ("op_bn_infer_affine", [bn_infer(affine=True)]),
        ("op_bn_infer_eps1e3", [bn_infer(affine=True, eps=EPS_LARGE)]),
        ("op_gn_g1", [group_norm(1, affine=False)]),
        ("op_gn_g2", [group_norm(2, affine=False)]),
        ("op_gn_gc", [group_norm(c, affine=False)]),
        ("op_gn_g1_affine", [group_norm(1)]),
        ("op_gn_g3_affine", [group_norm(3)]),
        ("op_gn_gc_affine", [group_norm(c)]),
        ("op_gn_eps1e3", [group_norm(2, eps=EPS_LARGE)]),
    ]
    for k in (1, 2, 3, 4):
        ops.append(("op_ln_k%d" % k, [layer_norm(k, affine=False)]))
        ops.append(("op_ln_k%d_affine" % k, [layer_norm(k)]))
    ops += [
        ("op_ln_eps1e3", [layer_norm(2, eps=EPS_LARGE)]),
        ("op_sub_spatial_mean", [sub_mean()]),
        ("op_pool", [pool()]),
    ]
    cases = [Case(name, op_base(), chain) for name, chain in ops]
    # Single-batch training BatchNorm: statistics over D*H*W only.
    conv1 = op_base()
    conv1.n = 1
    cases.append(Case("op_bn_train_n1", conv1, [bn_train(AFFINE | UPDATE | SAVE)]))
    # GELU around zero, where erf and tanh forms differ most: a randn input.
    cases.append(Case("op_gelu_randn", op_base(), [gelu()], randn=True))
    return cases


def random_op(rng, c):
    kind = rng.choice([SCALE, ADD_CHANNEL, RELU, GELU, GELU_TANH, BATCHNORM_TRAIN,
                       BATCHNORM_TRAIN, BATCHNORM_INFER, GROUPNORM, LAYERNORM, SUB_SPATIAL_MEAN])
    eps = rng.choice([EPS_DEFAULT, EPS_DEFAULT, EPS_LARGE])
    affine = rng.random() < 0.6
    if kind == SCALE:
        return scale(rng.choice([2.0, 0.5, -1.3, 1.0, 3.1]))
    if kind == BATCHNORM_TRAIN:
        return bn_train(rng.randint(0, 7), eps, rng.choice([MOMENTUM_DEFAULT, MOMENTUM_LARGE]))
    if kind == BATCHNORM_INFER:
        return bn_infer(affine, eps)
    if kind == GROUPNORM:
        return group_norm(rng.choice([g for g in range(1, c + 1) if c % g == 0]), affine, eps)
    if kind == LAYERNORM:
        return layer_norm(rng.randint(1, 4), affine, eps)
    return Op(kind)


def chain_cases():
    fixed = [
        # two statistics ops in a row, then a third
        ("chain_bn_gn", Conv(2, 3, 4, (3, 3, 3), (3, 3, 3), s=(2, 2, 2), p=(1, 1, 1)),
         [bn_train(AFFINE | UPDATE | SAVE), group_norm(2)]),
        ("chain_gelu_bn", Conv(2, 3, 4, (3, 4, 3), (2, 3, 3), s=(2, 1, 2), p=(0, 1, 1)),
         [gelu(), bn_train(AFFINE | UPDATE | SAVE)]),
        ("chain_ln_pool", Conv(2, 2, 4, (3, 3, 4), (3, 3, 3), s=(1, 2, 2), p=(1, 1, 1)),
         [layer_norm(2), pool()]),
        ("chain_sub_bn", Conv(3, 2, 3, (3, 3, 3), (3, 2, 3), s=(2, 2, 1), p=(1, 0, 0)),
         [sub_mean(), bn_train(UPDATE), relu()]),
        ("chain_six", Conv(2, 4, 4, (2, 3, 3), (3, 3, 3), s=(2, 2, 2), p=(1, 1, 1), g=2),
         [scale(1.5), add_channel(), gelu_tanh(), bn_infer(True), layer_norm(3), pool()]),
        ("chain_three_stats", Conv(2, 3, 6, (2, 3, 3), (3, 3, 3), s=(2, 2, 2), p=(1, 1, 1)),
         [group_norm(6), layer_norm(4, affine=False), bn_train(AFFINE | UPDATE | SAVE, eps=EPS_LARGE,
                                                               momentum=MOMENTUM_LARGE)]),
        ("chain_sub_sub", Conv(2, 2, 3, (3, 3, 3), (2, 2, 2), s=(2, 2, 2)),
         [sub_mean(), scale(2.0), sub_mean(), add_channel()]),
        ("chain_bn_bn_pool", Conv(2, 3, 4, (3, 3, 3), (3, 3, 3), s=(2, 2, 2), p=(1, 1, 1)),
         [bn_train(UPDATE), bn_train(AFFINE | UPDATE), gelu(), pool()]),
    ]
    cases = [Case(name, conv, ops) for name, conv, ops in fixed]
    rng = random.Random(77015)
    for i in range(8):
        conv = random_conv(rng, RANDOM_CHAIN_BUDGET, min_out=2)
        c, n = conv.cout, conv.n
        want = rng.randint(2, 6)
        pool_last = rng.random() < 0.35
        ops = []
        while len(ops) < want - (1 if pool_last else 0):
            op = random_op(rng, c)
            if op.kind == BATCHNORM_TRAIN and (op.flags & SAVE) and not save_ok(ops, c, n):
                op.flags &= ~SAVE
            ops.append(op)
        if pool_last:
            ops.append(pool() if pool_ok(ops, c, n) else relu())
        cases.append(Case("chain_%03d" % i, conv, ops, randn=(i % 3 == 2)))
    return cases


def workload_cases():
    """PROBLEMS.md's five workloads, exact chains, reduced sizes."""
    return [
        Case("wl_l2_15", Conv(2, 3, 4, (3, 4, 4), (3, 3, 3), s=(2, 2, 2), p=(1, 1, 1), bias=True),
             [bn_train(AFFINE | UPDATE), sub_mean()]),
        Case("wl_l2_77", Conv(2, 3, 4, (3, 4, 4), (5, 5, 5), bias=True),
             [scale(2.0), bn_train(AFFINE | UPDATE), pool()]),
        Case("wl_l2_77_k3", Conv(2, 4, 3, (3, 3, 4), (3, 3, 3), bias=True),
             [scale(2.0), bn_train(AFFINE | UPDATE), pool()]),
        Case("wl_l2_34", Conv(2, 3, 4, (2, 3, 4), (4, 4, 4), s=(2, 2, 2), p=(1, 1, 1), bias=True),
             [layer_norm(1), gelu(), scale(1.0)]),
        Case("wl_l2_61", Conv(2, 4, 16, (2, 3, 3), (3, 3, 3), bias=False),
             [relu(), group_norm(8)]),
        Case("wl_l1_77", Conv(2, 3, 4, (3, 4, 4), (3, 3, 3), s=(2, 2, 2), p=(1, 1, 1), d=(2, 2, 2),
                              bias=False), []),
    ]


def all_cases():
    return conv_cases() + op_cases() + chain_cases() + workload_cases()


# ---- validation and sizes --------------------------------------------------------------------

def case_problems(case):
    why = ["conv: " + w for w in case.conv.problems()]
    dims = case.conv.out_dims()
    n, c = dims[0], dims[1]
    if len(case.ops) > MAX_OPS:
        why.append("more than %d ops" % MAX_OPS)
    for i, op in enumerate(case.ops):
        if op.kind not in KIND_NAMES:
            why.append("op%d: unknown kind %d" % (i, op.kind))
            continue
        uses = {
            "value": op.kind == SCALE,
            "eps": op.kind in (BATCHNORM_TRAIN, BATCHNORM_INFER, GROUPNORM, LAYERNORM),
            "momentum": op.kind == BATCHNORM_TRAIN,
            "groups": op.kind == GROUPNORM,
            "norm_dims": op.kind == LAYERNORM,
        }
        for f, used in uses.items():
            v = getattr(op, f)
            if not used and v != 0:
                why.append("op%d: %s set but unused by %s" % (i, f, KIND_NAMES[op.kind]))
            if used and f in ("eps", "momentum") and not v > 0:
                why.append("op%d: %s must be the real value, not 0" % (i, f))
            if isinstance(v, float) and f32(v) != v:
                why.append("op%d: %s = %r is not a float32 value" % (i, f, v))
        allowed = {BATCHNORM_TRAIN: AFFINE | UPDATE | SAVE, BATCHNORM_INFER: AFFINE,
                   GROUPNORM: AFFINE, LAYERNORM: AFFINE}.get(op.kind, 0)
        if op.flags & ~allowed:
            why.append("op%d: flags %d not taken by %s" % (i, op.flags, KIND_NAMES[op.kind]))
        if op.kind == GLOBAL_AVG_POOL and i != len(case.ops) - 1:
            why.append("op%d: pool must be last" % i)
        if op.kind == GROUPNORM and (op.groups < 1 or c % op.groups):
            why.append("op%d: groups %d must divide %d" % (i, op.groups, c))
        if op.kind == LAYERNORM and op.norm_dims not in (1, 2, 3, 4):
            why.append("op%d: norm_dims must be 1..4" % i)
        if op.kind == BATCHNORM_TRAIN and n * prod(dims[2:]) <= 1:
            why.append("op%d: training BatchNorm needs N*D*H*W > 1" % i)
    if case.ops and case.ops[-1].kind == GLOBAL_AVG_POOL and not pool_ok(case.ops[:-1], c, n):
        why.append("pool of a chain whose per-(n,c) mean is exactly zero")
    for i, op in enumerate(case.ops):
        if op.kind == BATCHNORM_TRAIN and (op.flags & SAVE) and not save_ok(case.ops[:i], c, n):
            why.append("op%d: saved batch mean of a zero-mean input" % i)
    return why


def tensor_shapes(case):
    """(name, dims) of every tensor the file holds, in file order."""
    conv = case.conv
    dims = conv.out_dims()
    c = conv.cout
    shapes = [("x", (conv.n, conv.cin) + tuple(conv.size)),
              ("weight", (conv.cin, conv.cout // conv.g) + tuple(conv.k))]
    if conv.bias:
        shapes.append(("bias", (c,)))
    outs = []
    for i, op in enumerate(case.ops):
        p = "op%d." % i
        if op.kind == ADD_CHANNEL:
            shapes.append((p + "bias", (c,)))
        if op.kind in (BATCHNORM_TRAIN, BATCHNORM_INFER, GROUPNORM, LAYERNORM) and op.flags & AFFINE:
            pshape = tuple(dims[5 - op.norm_dims:]) if op.kind == LAYERNORM else (c,)
            shapes.append((p + "weight", pshape))
            shapes.append((p + "bias", pshape))
        if op.kind == BATCHNORM_INFER or (op.kind == BATCHNORM_TRAIN and op.flags & UPDATE):
            shapes.append((p + "running_mean", (c,)))
            shapes.append((p + "running_var", (c,)))
        if op.kind == BATCHNORM_TRAIN and op.flags & UPDATE:
            outs.append((p + "running_mean_out", (c,)))
            outs.append((p + "running_var_out", (c,)))
        if op.kind == BATCHNORM_TRAIN and op.flags & SAVE:
            outs.append((p + "save_mean", (c,)))
            outs.append((p + "save_invstd", (c,)))
    ydims = dims
    if case.ops and case.ops[-1].kind == GLOBAL_AVG_POOL:
        ydims = (dims[0], dims[1], 1, 1, 1)
    return shapes + [("y", ydims)] + outs


def file_bytes(case):
    size = len(MAGIC) + 4 * CONV_INTS + 4 + struct.calcsize(OP_STRUCT) * len(case.ops) + 4
    for _, dims in tensor_shapes(case):
        size += NAME_BYTES + 4 + 8 * len(dims) + 8 * prod(dims)
    return size


def describe(case):
    c = case.conv
    conv = "N%d %d->%d in%s k%s s%s p%s op%s d%s g%d%s" % (
        c.n, c.cin, c.cout, list(c.size), list(c.k), list(c.s), list(c.p), list(c.op), list(c.d),
        c.g, " bias" if c.bias else "")
    ops = []
    for op in case.ops:
        s = KIND_NAMES[op.kind].lower()
        extra = []
        if op.kind == SCALE:
            extra.append("%g" % op.value)
        if op.kind == GROUPNORM:
            extra.append("G%d" % op.groups)
        if op.kind == LAYERNORM:
            extra.append("k%d" % op.norm_dims)
        if op.flags:
            extra.append("".join(f for b, f in ((AFFINE, "A"), (UPDATE, "U"), (SAVE, "S"))
                                 if op.flags & b))
        if op.eps and op.eps != EPS_DEFAULT:
            extra.append("eps%.0e" % op.eps)
        if op.momentum and op.momentum != MOMENTUM_DEFAULT:
            extra.append("m%.1f" % op.momentum)
        ops.append(s + ("(" + ",".join(extra) + ")" if extra else ""))
    return "%s -> %s%s" % (conv, " -> ".join(ops) if ops else "(no ops)",
                           " [randn]" if case.randn else "")


def check_header_enum():
    """Fails if fc3d_op_kind in fusedconv3d.cuh no longer numbers the kinds as above."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "fusedconv3d.cuh")
    if not os.path.exists(path):
        return
    with open(path) as f:
        text = f.read()
    m = re.search(r"typedef enum fc3d_op_kind \{(.*?)\} fc3d_op_kind;", text, re.S)
    if not m:
        sys.exit("make_goldens: cannot find fc3d_op_kind in %s" % path)
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    names = [e.split("=")[0].strip() for e in body.split(",") if e.strip()]
    want = ["FC3D_OP_NONE"] + ["FC3D_OP_" + KIND_NAMES[k] for k in range(1, 12)] + \
           ["FC3D_OP_KIND_COUNT_"]
    if names != want:
        sys.exit("make_goldens: fc3d_op_kind in %s is %s, this script expects %s"
                 % (path, names, want))
    for flag, bit in (("FC3D_OP_AFFINE", AFFINE), ("FC3D_OP_UPDATE_RUNNING_STATS", UPDATE),
                      ("FC3D_OP_SAVE_BATCH_STATS", SAVE)):
        if not re.search(r"\b%s\s*=\s*%d\b" % (flag, bit), text):
            sys.exit("make_goldens: %s is not %d in %s" % (flag, bit, path))


# ---- running PyTorch -------------------------------------------------------------------------

def run_case(torch, case):
    """Builds the modules, runs them, returns {name: float64 tensor} for every tensor of the file."""
    nn = torch.nn
    f64 = torch.float64
    conv_d = case.conv
    torch.manual_seed(zlib.crc32(case.name.encode("ascii")) & 0x7FFFFFFF)
    conv = nn.ConvTranspose3d(conv_d.cin, conv_d.cout, tuple(conv_d.k), stride=tuple(conv_d.s),
                              padding=tuple(conv_d.p), output_padding=tuple(conv_d.op),
                              groups=conv_d.g, bias=conv_d.bias, dilation=tuple(conv_d.d), dtype=f64)
    xshape = (conv_d.n, conv_d.cin) + tuple(conv_d.size)
    x = torch.randn(xshape, dtype=f64) if case.randn else torch.rand(xshape, dtype=f64)
    t = {"x": x, "weight": conv.weight}
    if conv_d.bias:
        t["bias"] = conv.bias
    dims = conv_d.out_dims()
    c = conv_d.cout

    def randomize_affine(m, prefix, shape):
        m.weight.copy_(1.0 + 0.2 * torch.randn(shape, dtype=f64))
        m.bias.copy_(0.2 * torch.randn(shape, dtype=f64))
        t[prefix + "weight"] = m.weight.clone()
        t[prefix + "bias"] = m.bias.clone()

    def random_running_stats(m, prefix):
        m.running_mean.copy_(0.2 * torch.randn(c, dtype=f64))
        m.running_var.copy_(0.5 + torch.rand(c, dtype=f64))
        t[prefix + "running_mean"] = m.running_mean.clone()
        t[prefix + "running_var"] = m.running_var.clone()

    steps = []  # callables, applied in order to the conv output
    for i, op in enumerate(case.ops):
        p = "op%d." % i
        affine = bool(op.flags & AFFINE)
        if op.kind == SCALE:
            steps.append(lambda y, v=op.value: y * v)
        elif op.kind == ADD_CHANNEL:
            v = 0.5 * torch.randn(c, dtype=f64)
            t[p + "bias"] = v
            steps.append(lambda y, v=v: y + v.view(1, c, 1, 1, 1))
        elif op.kind == RELU:
            steps.append(nn.ReLU())
        elif op.kind == GELU:
            steps.append(nn.GELU())
        elif op.kind == GELU_TANH:
            steps.append(nn.GELU(approximate="tanh"))
        elif op.kind == BATCHNORM_TRAIN:
            update = bool(op.flags & UPDATE)
            m = nn.BatchNorm3d(c, eps=op.eps, momentum=op.momentum, affine=affine,
                               track_running_stats=update, dtype=f64)
            m.train()
            if affine:
                randomize_affine(m, p, (c,))
            if update:
                random_running_stats(m, p)
            steps.append(lambda y, m=m, p=p, op=op, update=update, affine=affine:
                         bn_train_step(torch, t, y, m, p, op, update, affine))
        elif op.kind == BATCHNORM_INFER:
            m = nn.BatchNorm3d(c, eps=op.eps, affine=affine, track_running_stats=True, dtype=f64)
            m.eval()
            if affine:
                randomize_affine(m, p, (c,))
            random_running_stats(m, p)
            steps.append(m)
        elif op.kind == GROUPNORM:
            m = nn.GroupNorm(op.groups, c, eps=op.eps, affine=affine, dtype=f64)
            if affine:
                randomize_affine(m, p, (c,))
            steps.append(m)
        elif op.kind == LAYERNORM:
            shape = tuple(dims[5 - op.norm_dims:])
            m = nn.LayerNorm(shape, eps=op.eps, elementwise_affine=affine, dtype=f64)
            if affine:
                randomize_affine(m, p, shape)
            steps.append(m)
        elif op.kind == SUB_SPATIAL_MEAN:
            steps.append(lambda y: y - y.mean(dim=(2, 3, 4), keepdim=True))
        elif op.kind == GLOBAL_AVG_POOL:
            steps.append(nn.AdaptiveAvgPool3d(1))
        else:
            raise AssertionError("unknown op kind %d" % op.kind)

    y = conv(x)
    if tuple(y.shape) != dims:
        raise AssertionError("%s: conv output %s, formula says %s" % (case.name, tuple(y.shape), dims))
    for step in steps:
        y = step(y)
    t["y"] = y
    return t


def bn_train_step(torch, t, y, m, p, op, update, affine):
    """Training BatchNorm through the module; with SAVE, also torch.native_batch_norm on the same
    input and copies of the same running statistics, for the saved mean and inverse std."""
    if op.flags & SAVE:
        rm = m.running_mean.clone() if update else None
        rv = m.running_var.clone() if update else None
        w = m.weight if affine else None
        b = m.bias if affine else None
        out_n, save_mean, save_invstd = torch.native_batch_norm(y, w, b, rm, rv, True, op.momentum,
                                                                 op.eps)
    out = m(y)
    if op.flags & SAVE:
        if not torch.allclose(out_n, out, rtol=1e-12, atol=1e-12):
            raise AssertionError("native_batch_norm and BatchNorm3d disagree")
        if update and not (torch.allclose(rm, m.running_mean, rtol=1e-12, atol=1e-12)
                           and torch.allclose(rv, m.running_var, rtol=1e-12, atol=1e-12)):
            raise AssertionError("native_batch_norm and BatchNorm3d update differently")
        t[p + "save_mean"] = save_mean
        t[p + "save_invstd"] = save_invstd
    if update:
        t[p + "running_mean_out"] = m.running_mean.clone()
        t[p + "running_var_out"] = m.running_var.clone()
    return out


def encode_case(torch, case, tensors):
    shapes = tensor_shapes(case)
    names = [n for n, _ in shapes]
    if sorted(names) != sorted(tensors):
        raise AssertionError("%s: tensors %s, format expects %s" % (case.name, sorted(tensors),
                                                                   sorted(names)))
    c = case.conv
    out = bytearray(MAGIC)
    ints = [c.n, c.cin, c.cout, *c.size, *c.k, *c.s, *c.p, *c.op, *c.d, c.g, 1 if c.bias else 0]
    assert len(ints) == CONV_INTS
    out += struct.pack("<%di" % CONV_INTS, *ints)
    out += struct.pack("<i", len(case.ops))
    for op in case.ops:
        out += struct.pack(OP_STRUCT, op.kind, op.groups, op.norm_dims, op.flags,
                           op.value, op.eps, op.momentum)
    out += struct.pack("<i", len(shapes))
    for name, dims in shapes:
        v = tensors[name].detach().to(torch.float64).contiguous()
        if tuple(v.shape) != tuple(dims):
            raise AssertionError("%s: %s has shape %s, expected %s" % (case.name, name,
                                                                     tuple(v.shape), dims))
        if not bool(torch.isfinite(v).all()):
            raise AssertionError("%s: %s is not finite" % (case.name, name))
        if name == "y" or name.endswith(("_out", "save_mean", "save_invstd")):
            rms = float(v.pow(2).mean().sqrt())
            if not (rms > 1e-9 or bool((v == 0).all())):
                raise AssertionError("%s: %s has RMS %g: a zero result would make the relative "
                                     "error test meaningless" % (case.name, name, rms))
        raw = name.encode("ascii")
        assert len(raw) < NAME_BYTES
        out += raw.ljust(NAME_BYTES, b"\0")
        out += struct.pack("<i", len(dims))
        out += struct.pack("<%dq" % len(dims), *dims)
        flat = v.reshape(-1).tolist()
        out += struct.pack("<%dd" % len(flat), *flat)
    if len(out) != file_bytes(case):
        raise AssertionError("%s: %d bytes, expected %d" % (case.name, len(out), file_bytes(case)))
    return bytes(out)


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main(argv):
    dry = "--dry-run" in argv
    args = [a for a in argv[1:] if a != "--dry-run"]
    if (not dry and len(args) != 1) or (dry and args):
        sys.exit("usage: make_goldens.py OUTDIR | make_goldens.py --dry-run")
    check_header_enum()
    cases = all_cases()
    seen = set()
    bad = []
    for case in cases:
        if case.name in seen:
            bad.append("%s: duplicate name" % case.name)
        seen.add(case.name)
        bad += ["%s: %s" % (case.name, w) for w in case_problems(case)]
    if bad:
        sys.exit("make_goldens: invalid cases:\n  " + "\n  ".join(bad))

    total = 0
    if dry:
        for case in cases:
            size = file_bytes(case)
            total += size
            print("%-30s %8d bytes  %s" % (case.name, size, describe(case)))
    else:
        import torch
        torch.set_num_threads(1)  # one summation order, so a rerun reproduces the files bitwise
        outdir = args[0]
        os.makedirs(outdir, exist_ok=True)
        with torch.no_grad():
            for case in cases:
                data = encode_case(torch, case, run_case(torch, case))
                write_atomic(os.path.join(outdir, case.name + ".fc3d"), data)
                total += len(data)
                print("%-30s %8d bytes  %s" % (case.name, len(data), describe(case)))
        write_atomic(os.path.join(outdir, "MANIFEST"),
                     "".join(case.name + "\n" for case in cases).encode("ascii"))
        stale = sorted(f for f in os.listdir(outdir)
                       if f.endswith(".fc3d") and f[:-5] not in seen)
        if stale:
            print("warning: files not in this set (delete them): %s" % " ".join(stale))
    print("%d cases, %d bytes%s" % (len(cases), total, "" if dry else " written to " + args[0]))
    if total > BUDGET_BYTES:
        sys.exit("make_goldens: %d bytes is over the %d-byte budget" % (total, BUDGET_BYTES))


if __name__ == "__main__":
    main(sys.argv)
