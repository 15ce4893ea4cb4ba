#!/usr/bin/env python3
"""conv_alone_torch.py - the convolution alone through the PyTorch drop-in, timed as build/conv_alone
times the library, and as bench.py does, in one process: what separates the two tools' figures.

    python3 bench/conv_alone_torch.py [--only L2/77,L2/61] [--maths tf32,half] [--reps 20] [--rounds 2]

Needs a CUDA GPU and PyTorch (the extension in examples/pytorch compiles on first use). Per workload
and math mode, fusedconv3d.FusedConvTranspose3d over the workload's module (workloads.SIZES, seed
1234 as bench.py), on one torch.rand input, median of --reps timed runs (CUDA events around the
call), after 3 warm-up runs, each timed run preceded by an L2 flush of 256 MiB:
    series, memset flush   the runs back to back, the flush by cudaMemsetAsync (Tensor.zero_), as
                           build/conv_alone
    series, fill flush     the same with the flush by a fill kernel (Tensor.fill_), bench.py's Timer
    rotation, fill flush   tf32, fp32 and half in rotation by bench.py's Timer.rotate (each timed run
                           right after an untimed one of the same mode, the first mode of a round moving
                           on by one)
    after 8 flushes        one call, and 10 calls back to back (per call), between two events recorded
                           after 8 flushes (the GPU busy through the host work)
and, per workload, the inputs of build/conv_alone (x, weight and bias uniform in [-1, 1)) in the first
form. Prints one line per (workload, math, round). The order matters on L2/77, whose convolution runs
the tensor cores at their f16 rate: a series right after the 3xTF32 rotation, or 10 calls back to
back, times 5-7 % slower than the first calls of a cool GPU (bench/RESULTS.md, seventy-fourth entry).
"""
import argparse
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="L2/77,L2/61")
    ap.add_argument("--maths", default="tf32,half")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    try:
        import torch
    except Exception as e:
        print(f"conv_alone_torch: needs PyTorch with a CUDA GPU ({type(e).__name__}: {e})")
        return 2
    if not torch.cuda.is_available():
        print("conv_alone_torch: needs a CUDA GPU")
        return 2
    sys.path.insert(0, os.path.join(ROOT, "examples", "pytorch"))
    import fusedconv3d_torch as fc
    import workloads

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import bench  # its Timer: the fill flush, the series and the rotation exactly as bench.py times them

    timer = bench.Timer(torch, args.reps, 3)
    flush = timer.flush

    def memset_series(fn):
        """timer(fn) with the flush by cudaMemsetAsync (Tensor.zero_), as build/conv_alone flushes"""
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        ts = []
        for _ in range(args.reps):
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            ts.append(start.elapsed_time(end))
        return statistics.median(ts)

    def back_to_back(fn, calls):
        """calls runs of fn between two events after 8 flushes (the GPU busy through the host work), per
        run, median of --reps"""
        out = []
        for i in range(args.reps):
            for k in range(8):
                flush.fill_((i + k) % 100 + 1)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(calls):
                fn()
            end.record()
            end.synchronize()
            out.append(start.elapsed_time(end) / calls)
        return statistics.median(out)

    maths = [m.strip() for m in args.maths.split(",") if m.strip()]
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}; median of {args.reps}, ms", flush=True)
    with torch.no_grad():
        for wid in [s.strip() for s in args.only.split(",") if s.strip()]:
            _, new_cls, init, shape = workloads.SIZES[wid]
            torch.manual_seed(1234)
            new = new_cls(*init).cuda()
            torch.manual_seed(1235)
            x = torch.rand(*shape, device="cuda")
            conv = new.fused.conv
            rot_maths = ["tf32", "fp32", "half"]
            mods = {m: fc.FusedConvTranspose3d(conv, math=m) for m in rot_maths}
            for m in rot_maths:
                mods[m](x)
            torch.cuda.synchronize()
            # the inputs of build/conv_alone: x, weight and bias uniform in [-1, 1)
            xu = torch.rand(*shape, device="cuda") * 2 - 1
            cu = torch.nn.ConvTranspose3d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                                          conv.padding, conv.output_padding, conv.groups, conv.bias is not None,
                                          conv.dilation).cuda()
            cu.weight.uniform_(-1, 1)
            if cu.bias is not None:
                cu.bias.uniform_(-1, 1)
            mods_u = {m: fc.FusedConvTranspose3d(cu, math=m) for m in maths}
            for r in range(args.rounds):
                rot = dict(zip(rot_maths, timer.rotate([lambda m=m: mods[m](x) for m in rot_maths])))
                for m in maths:
                    a = memset_series(lambda: mods[m](x))
                    b = timer(lambda: mods[m](x))
                    u = memset_series(lambda: mods_u[m](xu))
                    c1 = back_to_back(lambda: mods[m](x), 1)
                    c10 = back_to_back(lambda: mods[m](x), 10)
                    print(f"{wid:6s} {m:5s} round {r + 1}: series, memset flush {a:.3f}; series, fill flush {b:.3f}; "
                          f"rotation, fill flush {rot[m]:.3f}; conv_alone's inputs, memset flush {u:.3f}; "
                          f"after 8 flushes, one call {c1:.3f}, 10 calls back to back, each {c10:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
