"""tf32_rounding.py - which TF32 operand rounding cuDNN's convolution uses, on this GPU.

    python3 bench/tf32_rounding.py

For each PROBLEMS.md workload's convolution (batch cut to fit a float64 reference in seconds), runs
PyTorch's default TF32 convolution (cuDNN, torch.backends.cudnn.allow_tf32 = True) and compares it
with float64 convolutions of the same x and weight rounded to TF32 (10 explicit mantissa bits) in
several ways: to nearest with ties to even, to nearest with ties away from zero (cvt.rna),
truncation, and mixes. The rounding whose float64 result lies within FP32 accumulation noise of
cuDNN's output (rel-L2 ~1e-7, as the TF32-off convolution lies from float64) is the one cuDNN
applies; the library's TF32 mode rounds that way (fusedconv3d.cuh, _fc3d_tc_round).
Needs a CUDA device and PyTorch; no part of the library.
"""
import torch
import torch.nn.functional as F


def rna(t):
    i = t.contiguous().view(torch.int32)
    return ((i + 0x1000) & ~0x1FFF).view(torch.float32)


def rne(t):
    i = t.contiguous().view(torch.int32)
    return ((i + 0xFFF + ((i >> 13) & 1)) & ~0x1FFF).view(torch.float32)


def trunc(t):
    i = t.contiguous().view(torch.int32)
    return (i & ~0x1FFF).view(torch.float32)


def keep(t):
    return t


# id: C_in, C_out, k, stride, padding, dilation, input shape (batch cut), bias
WORKLOADS = {
    "L2/15": (16, 32, 3, 2, 1, 1, (4, 16, 16, 32, 32), True),
    "L2/77": (64, 128, 5, 1, 0, 1, (1, 64, 16, 32, 32), True),
    "L2/34": (32, 64, 4, 2, 1, 1, (2, 32, 16, 32, 32), True),
    "L2/61": (64, 128, 3, 1, 0, 1, (1, 64, 32, 32, 32), False),
    "L1/77": (32, 64, 3, 2, 1, 2, (2, 32, 16, 32, 32), False),
}
WAYS = [("ties even", rne, rne), ("ties away", rna, rna), ("x even, w away", rne, rna),
        ("x away, w even", rna, rne), ("truncated", trunc, trunc), ("x away, w unrounded", rna, keep),
        ("x unrounded, w away", keep, rna)]


def main():
    torch.manual_seed(0)
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    print("# rel-L2 (max abs) of PyTorch's TF32 convolution against float64 of TF32-rounded operands")
    print("| workload | " + " | ".join(w[0] for w in WAYS) + " | TF32 off vs f64 |")
    print("|---|" + "---|" * (len(WAYS) + 1))
    for wid, (ci, co, k, s, p, dl, shp, hb) in WORKLOADS.items():
        m = torch.nn.ConvTranspose3d(ci, co, k, stride=s, padding=p, dilation=dl, bias=hb).cuda()
        x = torch.rand(*shp, device="cuda")
        w, b = m.weight.data, (m.bias.data if hb else None)
        conv = lambda xx, ww, bb: F.conv_transpose3d(xx, ww, bb, stride=s, padding=p, dilation=dl)
        with torch.no_grad():
            torch.backends.cudnn.allow_tf32 = True
            y = conv(x, w, b).double()
            torch.backends.cudnn.allow_tf32 = False
            y32 = conv(x, w, b).double()
            torch.backends.cudnn.allow_tf32 = True
            b64 = b.double() if hb else None
            cells = []
            for _, fx, fw in WAYS:
                r = conv(fx(x).double(), fw(w).double(), b64)
                d = y - r
                cells.append(f"{(d.norm() / r.norm()).item():.2e} ({d.abs().max().item():.1e})")
            r = conv(x.double(), w.double(), b64)
            cells.append(f"{((y32 - r).norm() / r.norm()).item():.2e}")
        print(f"| {wid} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
