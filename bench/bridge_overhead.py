"""bench/bridge_overhead.py - how much of the PyTorch drop-in's timed call is host work.

Times the L2/15 and L1/77 drop-ins (examples/pytorch/workloads.py, full size, TF32 as PyTorch's
default) the way bench/bench.py does - CUDA events around the call, a 256 MiB buffer written just
before the start event - once with that one write before the start event and once with four, which
keep the GPU busy until the drop-in has enqueued its kernels; also the host time of the call itself.
With one write, host work after the write ends is inside the timed window; with four it is not.
GPU + PyTorch. Run: python3 bench/bridge_overhead.py  (results: bench/RESULTS.md, tenth and eleventh entries)
"""
import os
import statistics
import sys
import time

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(here), "examples", "pytorch"))
import fusedconv3d_torch as fc  # noqa: E402
import workloads as W  # noqa: E402


def main():
    t0 = time.time()
    fc.load_extension()
    print(f"# extension ready in {time.time() - t0:.0f} s", flush=True)
    buf = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    cases = [("L2/15", W.L2_15, (16, 32, 3, 2, 1), (16, 16, 16, 32, 32)),
             ("L1/77", W.L1_77, (32, 64, 3, 2, 1, 2), (16, 32, 16, 32, 32))]
    for wid, cls, init, shape in cases:
        m = cls(*init).cuda()
        x = torch.rand(*shape, device="cuda")
        with torch.no_grad():
            for _ in range(5):
                m(x)
            torch.cuda.synchronize()
            for writes in (1, 4):
                ev, host = [], []
                for i in range(30):
                    for k in range(writes):
                        buf.fill_((i + k) & 0x7F)
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record()
                    h0 = time.perf_counter()
                    m(x)
                    h1 = time.perf_counter()
                    e.record()
                    e.synchronize()
                    ev.append(s.elapsed_time(e))
                    host.append((h1 - h0) * 1e3)
                print(f"{wid}: {writes} buffer write(s) before the start event: {statistics.median(ev):.3f} ms "
                      f"(median of 30); the call's host time {statistics.median(host):.3f} ms", flush=True)


if __name__ == "__main__":
    main()
