"""bench/bridge_overhead.py - how much of the PyTorch drop-in's timed call is host work.

For each of the five workloads (examples/pytorch/workloads.py, full size, TF32 as PyTorch's
default), its drop-in and the convolution alone (FusedConvTranspose3d without an epilogue):
- the call timed the way bench/bench.py times it - CUDA events around the call, a 256 MiB buffer
  written just before the start event - once with that one write and once with four, which keep
  the GPU busy until the call has enqueued its kernels (bench.py's own Timer, median of 30): with
  one write, host work before the first launch that outlasts the write is inside the timed window;
  with four it is not;
- the host time of the call and of its pieces (the drop-in's call, the fused module's call, its
  _forward5d, _plan_for and the lowering in it, the extension's forward, a torch.empty of y), each
  with a 1.5 ms sleep kernel ahead of it so that no launch waits, median of 40.
The write alone is timed first. GPU + PyTorch. Run: python3 bench/bridge_overhead.py
(results: bench/RESULTS.md, tenth, eleventh and thirty-third entries)
"""
import os
import statistics
import sys
import time

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(here), "examples", "pytorch"))
sys.path.insert(0, here)
import bench as B  # noqa: E402  (its Timer: the bench's own timing)
import fusedconv3d_torch as fc  # noqa: E402
import workloads as W  # noqa: E402


def windows(timer, m, x):
    """The bench's timed window (bench.Timer: median of its runs) with one buffer write before the
    start event, and with four (bench.BUSY_WRITES)."""
    return {1: timer(lambda: m(x)), B.BUSY_WRITES: timer(lambda: m(x), busy=True)}


def host_us(fn, n=40):
    """Median host time of fn (us), a sleep kernel ahead of each call so that no launch waits."""
    hs = []
    for _ in range(n):
        torch.cuda._sleep(3_000_000)  # ~1.5 ms at 2 GHz
        h0 = time.perf_counter()
        fn()
        h1 = time.perf_counter()
        hs.append((h1 - h0) * 1e6)
        torch.cuda.synchronize()
    return statistics.median(hs)


def main():
    t0 = time.time()
    fc.load_extension()
    print(f"# extension ready in {time.time() - t0:.0f} s", flush=True)
    timer = B.Timer(torch, 30, warmup=2)  # its 256 MiB buffer is the write timed first
    ts = []
    for i in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        timer.flush.fill_(i & 0x7F)
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    print(f"the 256 MiB write alone: {statistics.median(ts):.4f} ms", flush=True)
    ext = fc._ext
    for wid in ("L2/15", "L1/77", "L2/34", "L2/61", "L2/77"):
        _, cls, init, shape = W.SIZES[wid]
        torch.manual_seed(1)
        dropin = cls(*init).cuda()
        x = torch.rand(*shape, device="cuda")
        alone = fc.FusedConvTranspose3d(dropin.fused.conv, math="tf32")
        for name, m, f in ((wid, dropin, dropin.fused), (wid + " conv alone", alone, alone)):
            with torch.no_grad():
                for _ in range(3):
                    m(x)
                torch.cuda.synchronize()
                w = windows(timer, m, x)
                (plan, cl, _), tensors, counters, _ = f._plan_for(x)
                conv = f.conv
                dims = [x.shape[0], conv.out_channels] + list(plan.conv_size)
                h = {"call": host_us(lambda: m(x)), "fused": host_us(lambda: f(x)),
                     "_forward5d": host_us(lambda: f._forward5d(x)), "_plan_for": host_us(lambda: f._plan_for(x)),
                     "lowering": host_us(lambda: f._lower_ops(ext, dims)),
                     "ext.forward": host_us(lambda: ext.forward(plan, x, conv.weight, conv.bias, tensors, counters, cl)),
                     "torch.empty(y)": host_us(lambda: torch.empty(tuple(plan.y_dims), device="cuda"))}
            print(f"{name}: 1 write {w[1]:.4f} ms, {B.BUSY_WRITES} writes {w[B.BUSY_WRITES]:.4f} ms (host work in "
                  f"the window {w[1] - w[B.BUSY_WRITES]:+.4f}); host us: " + ", ".join(f"{k} {v:.1f}" for k, v in h.items()), flush=True)


if __name__ == "__main__":
    main()
