"""The five reference workloads of PROBLEMS.md: each PyTorch reference module, and a drop-in
replacement with the same constructor signature, the same submodules (so the same seed gives the
same weights and state_dicts load both ways) and a forward computed by one fusedconv3d plan.

    model = L2_15(16, 32, 3, 2, 1).cuda()                  # was: Model(16, 32, 3, 2, 1)
    with torch.no_grad():
        y = model(x)

Each drop-in takes keyword-only `math` (None, the default, follows PyTorch's
torch.backends.cudnn.allow_tf32 at each call, as the reference's cuDNN convolution does; or "fp32",
"tf32", "half") and `engine` (None: the library chooses; or an engine name), settable later as
model.math and model.engine; model.last_math, model.last_engine and model.last_main_loop say what the
last call ran.
SIZES holds each workload's constructor arguments and input shape at full size, OLDER_SIZES the same
problems at KernelBench's older sizes.
"""
import torch
import torch.nn as nn

from fusedconv3d_torch import FusedConvTranspose3d, Scale, SubtractSpatialMean


# ---- references: the PyTorch modules as PROBLEMS.md defines them ------------------------------

class RefL2_15(nn.Module):
    """ConvTranspose3d -> BatchNorm3d -> subtract the spatial mean."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bias=True):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, bias=bias)
        self.batch_norm = nn.BatchNorm3d(out_channels)

    def forward(self, x):
        x = self.batch_norm(self.conv_transpose(x))
        return x - torch.mean(x, dim=(2, 3, 4), keepdim=True)


class RefL2_77(nn.Module):
    """ConvTranspose3d -> x * scale -> BatchNorm3d -> AdaptiveAvgPool3d(1)."""

    def __init__(self, in_channels, out_channels, kernel_size, scale_factor, eps=1e-5, momentum=0.1):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size)
        self.scale_factor = scale_factor
        self.batch_norm = nn.BatchNorm3d(out_channels, eps=eps, momentum=momentum)
        self.global_avg_pool = nn.AdaptiveAvgPool3d((1, 1, 1))

    def forward(self, x):
        return self.global_avg_pool(self.batch_norm(self.conv_transpose(x) * self.scale_factor))


class RefL2_34(nn.Module):
    """ConvTranspose3d -> LayerNorm(out_channels) (over W, which equals out_channels) -> GELU -> x * s."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bias=True, eps=1e-5,
                 scaling_factor=1.0):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, bias=bias)
        self.layer_norm = nn.LayerNorm(out_channels, eps=eps)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return torch.nn.functional.gelu(self.layer_norm(self.conv_transpose(x))) * self.scaling_factor


class RefL2_61(nn.Module):
    """ConvTranspose3d (no bias) -> ReLU -> GroupNorm."""

    def __init__(self, in_channels, out_channels, kernel_size, groups, bias=False):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, bias=bias)
        self.relu = nn.ReLU()
        self.group_norm = nn.GroupNorm(num_groups=groups, num_channels=out_channels)

    def forward(self, x):
        return self.group_norm(self.relu(self.conv_transpose(x)))


class RefL1_77(nn.Module):
    """ConvTranspose3d alone (square kernel, padded, dilated, strided)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, bias=False):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(in_channels, out_channels, (kernel_size,) * 3, stride=stride,
                                                   padding=padding, dilation=dilation, bias=bias)

    def forward(self, x):
        return self.conv_transpose3d(x)


# ---- drop-in replacements ---------------------------------------------------------------------

class _DropIn:
    """Mixin: holds the fused module outside the registered submodules, so state_dict() and
    named_parameters() match the reference exactly; the fused module refers to the same conv and
    norm modules, which .cuda()/.to()/train()/eval() reach through the drop-in itself."""

    def _fuse(self, conv, *epilogue, math, engine):
        self.__dict__["_fused"] = FusedConvTranspose3d(conv, *epilogue, math=math, engine=engine)

    @property
    def math(self):
        return self.__dict__["_fused"].math

    @math.setter
    def math(self, value):
        self.__dict__["_fused"].math = value

    @property
    def engine(self):
        return self.__dict__["_fused"].engine

    @engine.setter
    def engine(self, value):
        self.__dict__["_fused"].engine = value

    @property
    def last_math(self):
        return self.__dict__["_fused"].last_math

    @property
    def last_engine(self):
        return self.__dict__["_fused"].last_engine

    @property
    def last_main_loop(self):
        return self.__dict__["_fused"].last_main_loop

    @property
    def fused(self):
        """The FusedConvTranspose3d that computes the forward."""
        return self.__dict__["_fused"]

    def forward(self, x):
        return self.__dict__["_fused"](x)


class L2_15(_DropIn, RefL2_15):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bias=True, *, math=None,
                 engine=None):
        RefL2_15.__init__(self, in_channels, out_channels, kernel_size, stride, padding, bias)
        self._fuse(self.conv_transpose, self.batch_norm, SubtractSpatialMean(), math=math, engine=engine)


class L2_77(_DropIn, RefL2_77):
    def __init__(self, in_channels, out_channels, kernel_size, scale_factor, eps=1e-5, momentum=0.1, *,
                 math=None, engine=None):
        RefL2_77.__init__(self, in_channels, out_channels, kernel_size, scale_factor, eps, momentum)
        self._fuse(self.conv_transpose, Scale(scale_factor), self.batch_norm, self.global_avg_pool, math=math,
                   engine=engine)


class L2_34(_DropIn, RefL2_34):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, bias=True, eps=1e-5,
                 scaling_factor=1.0, *, math=None, engine=None):
        RefL2_34.__init__(self, in_channels, out_channels, kernel_size, stride, padding, bias, eps, scaling_factor)
        self._fuse(self.conv_transpose, self.layer_norm, nn.GELU(), Scale(scaling_factor), math=math,
                   engine=engine)


class L2_61(_DropIn, RefL2_61):
    def __init__(self, in_channels, out_channels, kernel_size, groups, bias=False, *, math=None,
                 engine=None):
        RefL2_61.__init__(self, in_channels, out_channels, kernel_size, groups, bias)
        self._fuse(self.conv_transpose, self.relu, self.group_norm, math=math, engine=engine)


class L1_77(_DropIn, RefL1_77):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, bias=False, *,
                 math=None, engine=None):
        RefL1_77.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, bias)
        self._fuse(self.conv_transpose3d, math=math, engine=engine)


# id: (reference class, drop-in class, constructor args, input shape) at PROBLEMS.md's full size
SIZES = {
    "L2/15": (RefL2_15, L2_15, (16, 32, 3, 2, 1), (16, 16, 16, 32, 32)),
    "L2/77": (RefL2_77, L2_77, (64, 128, 5, 2.0), (16, 64, 16, 32, 32)),
    "L2/34": (RefL2_34, L2_34, (32, 64, 4, 2, 1, True, 1e-5, 1.0), (32, 32, 16, 32, 32)),
    "L2/61": (RefL2_61, L2_61, (64, 128, 3, 8, False), (16, 64, 32, 32, 32)),
    "L1/77": (RefL1_77, L1_77, (32, 64, 3, 2, 1, 2), (16, 32, 16, 32, 32)),
}

# the same problems at KernelBench's older sizes (PROBLEMS.md), keyed by the workload they vary:
# id: (reference class, drop-in class, constructor args, input shape, what differs)
OLDER_SIZES = {
    "L2/77": (RefL2_77, L2_77, (64, 32, 3, 2.0), (16, 64, 16, 32, 32), "C_out 32, k3"),
    "L2/34": (RefL2_34, L2_34, (32, 64, 4, 2, 1, True, 1e-5, 1.0), (128, 32, 16, 32, 32), "N 128"),
    "L2/61": (RefL2_61, L2_61, (64, 128, 3, 8, False), (16, 64, 8, 16, 16), "D,H,W 8,16,16"),
}
