"""KernelBench-style check of the five PROBLEMS.md workloads, PyTorch's own modules as the judge.

    python3 examples/pytorch/check_workloads.py [--modes fp32,tf32] [--workloads L2/15,...]
                                                [--trials 5] [--reps 10] [--no-compile]
                                                [--no-kernelbench] [--json FILE]

For each workload and each library math mode:
  - the reference module and the drop-in are built from the same seed (their parameters are checked
    equal), both in training mode, everything under torch.no_grad();
  - 5 trials, each on a fresh torch.rand input: the drop-in's output is compared with the reference
    run three ways - as PyTorch runs by default (cuDNN with TF32), with TF32 off, and in float64
    (a float64 copy of the module, input upcast) - by max abs error and relative L2;
  - after the trials, the BatchNorm running statistics (which every trial updates) are compared with
    the float64 model's, and num_batches_tracked must be equal;
  - times (CUDA events around the forward, 3 warm-ups, L2 flushed by a 256 MiB memset before each
    timed run, median of --reps): the drop-in, PyTorch eager, and torch.compile of the reference.
Pass: relative L2 against float64 <= 1e-5 in mode fp32, <= 2e-3 in mode tf32, on every trial, and
running statistics within the same bound.

Then, per workload, KernelBench's own criterion (unless --no-kernelbench): the reference module in
PyTorch's default precision (cuDNN TF32 allowed) and the drop-in in its default math (which follows
that setting, so TF32), built from the same seed, --trials trials of fresh torch.rand inputs, each
passing only if the shapes match and torch.allclose(ref, new, atol=1e-4, rtol=1e-4); reported with
the max abs difference and the worst |new - ref| / (atol + rtol * |ref|) (allclose needs <= 1).

Exit status 1 if any workload fails either check.
"""
import argparse
import copy
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads  # noqa: E402

BOUND = {"fp32": 1e-5, "tf32": 2e-3, "half": 1e-2}


def rel_l2(a, ref):
    a, ref = a.double(), ref.double()
    if not torch.isfinite(a).all():
        return float("inf")
    return ((a - ref).norm() / ref.norm()).item()


def max_abs(a, ref):
    return (a.double() - ref.double()).abs().max().item()


def bn_modules(model):
    return [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm3d)]


class cudnn_tf32:
    """cuDNN's TF32 switch set to `allowed` (float32 matmuls never use TF32), restored on exit.
    cudnn_tf32(True) is PyTorch's default precision."""

    def __init__(self, allowed):
        self.allowed = allowed

    def __enter__(self):
        self.saved = (torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32)
        torch.backends.cudnn.allow_tf32 = self.allowed
        torch.backends.cuda.matmul.allow_tf32 = False

    def __exit__(self, *exc):
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = self.saved


def bench(fn, x, reps, warmup=3):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=x.device)
    for _ in range(warmup):
        fn(x)
    times = []
    for _ in range(reps):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(x)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def check(wid, mode, args, seed=1234):
    ref_cls, new_cls, init, shape = workloads.SIZES[wid]
    torch.manual_seed(seed)
    ref = ref_cls(*init).cuda()
    torch.manual_seed(seed)
    new = new_cls(*init, math=mode).cuda()
    same_params = all(torch.equal(a, b) for a, b in zip(ref.state_dict().values(), new.state_dict().values())) \
        and list(ref.state_dict()) == list(new.state_dict())
    ref_notf = copy.deepcopy(ref)
    ref64 = copy.deepcopy(ref).double()
    row = {"workload": wid, "mode": mode, "same_init": same_params, "trials": []}
    with torch.no_grad():
        for t in range(args.trials):
            torch.manual_seed(seed + 1 + t)
            x = torch.rand(*shape, device="cuda")
            y_new = new(x)
            y_ref = ref(x)                 # PyTorch as it runs by default (cuDNN TF32 allowed)
            with cudnn_tf32(False):
                y_notf = ref_notf(x)
            y64 = ref64(x.double())
            torch.cuda.synchronize()
            row["trials"].append({
                "vs_default": (max_abs(y_new, y_ref), rel_l2(y_new, y_ref)),
                "vs_tf32_off": (max_abs(y_new, y_notf), rel_l2(y_new, y_notf)),
                "vs_float64": (max_abs(y_new, y64), rel_l2(y_new, y64)),
                "default_vs_float64": rel_l2(y_ref, y64),
            })
            del y_new, y_ref, y_notf, y64
        stats = []
        for bn_new, bn64 in zip(bn_modules(new), bn_modules(ref64)):
            stats.append({
                "running_mean": rel_l2(bn_new.running_mean, bn64.running_mean),
                "running_var": rel_l2(bn_new.running_var, bn64.running_var),
                "num_batches_tracked": (int(bn_new.num_batches_tracked), int(bn64.num_batches_tracked)),
            })
        row["running_stats"] = stats
        del ref64, ref_notf
        torch.cuda.empty_cache()
        bound = BOUND[mode]
        worst = max(tr["vs_float64"][1] for tr in row["trials"])
        stats_ok = all(s["running_mean"] <= bound and s["running_var"] <= bound and
                       s["num_batches_tracked"][0] == s["num_batches_tracked"][1] for s in stats)
        row["pass"] = bool(same_params and worst <= bound and stats_ok)
        row["worst_vs_float64"] = worst

        if args.reps > 0:
            torch.manual_seed(seed)
            x = torch.rand(*shape, device="cuda")
            row["ms_library"] = bench(new, x, args.reps)
            row["ms_eager"] = bench(ref, x, args.reps)
            if not args.no_compile:
                t0 = time.time()
                compiled = torch.compile(ref)
                compiled(x)
                row["compile_s"] = time.time() - t0
                row["ms_compile"] = bench(compiled, x, args.reps)
                del compiled
            del x
    torch.cuda.empty_cache()
    return row


KB_ATOL = KB_RTOL = 1e-4


def kernelbench(wid, trials, seed=1234):
    """KernelBench's correctness check for one workload (see the module docstring)."""
    ref_cls, new_cls, init, shape = workloads.SIZES[wid]
    torch.manual_seed(seed)
    ref = ref_cls(*init).cuda()
    torch.manual_seed(seed)
    new = new_cls(*init).cuda()  # default math: follows torch.backends.cudnn.allow_tf32
    row = {"workload": wid, "mode": "kernelbench", "trials": [], "atol": KB_ATOL, "rtol": KB_RTOL}
    with cudnn_tf32(True), torch.no_grad():
        for t in range(trials):
            torch.manual_seed(seed + 1000 + t)
            x = torch.rand(*shape, device="cuda")
            y_ref = ref(x)
            y_new = new(x)
            same_shape = tuple(y_ref.shape) == tuple(y_new.shape)
            tr = {"same_shape": same_shape}
            if same_shape:
                d = (y_new.double() - y_ref.double()).abs()
                tr["max_abs"] = d.max().item()
                tr["worst_ratio"] = (d / (KB_ATOL + KB_RTOL * y_ref.double().abs())).max().item()
                tr["allclose"] = bool(torch.allclose(y_ref, y_new, atol=KB_ATOL, rtol=KB_RTOL))
            else:
                tr.update(max_abs=float("inf"), worst_ratio=float("inf"), allclose=False)
            row["trials"].append(tr)
            del x, y_ref, y_new
        row["math"], row["engine"] = new.last_math, new.last_engine
    del ref, new
    torch.cuda.empty_cache()
    row["pass"] = all(tr["allclose"] for tr in row["trials"])
    row["max_abs"] = max(tr["max_abs"] for tr in row["trials"])
    row["worst_ratio"] = max(tr["worst_ratio"] for tr in row["trials"])
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--modes", default="fp32,tf32")
    ap.add_argument("--workloads", default=",".join(workloads.SIZES))
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-kernelbench", action="store_true", help="skip KernelBench's allclose criterion")
    ap.add_argument("--json")
    args = ap.parse_args()
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
          f"cudnn.allow_tf32={torch.backends.cudnn.allow_tf32}")
    rows = []
    for mode in [m for m in args.modes.split(",") if m]:
        for wid in args.workloads.split(","):
            row = check(wid, mode, args)
            rows.append(row)
            tr = row["trials"]
            print(f"{wid:6s} {mode:5s} {'PASS' if row['pass'] else 'FAIL'} same_init={row['same_init']} "
                  f"vs_f64 relL2 max {row['worst_vs_float64']:.2e} "
                  f"(maxabs {max(t['vs_float64'][0] for t in tr):.2e}); "
                  f"vs_default relL2 max {max(t['vs_default'][1] for t in tr):.2e} "
                  f"(maxabs {max(t['vs_default'][0] for t in tr):.2e}); "
                  f"vs_tf32_off relL2 max {max(t['vs_tf32_off'][1] for t in tr):.2e} "
                  f"(maxabs {max(t['vs_tf32_off'][0] for t in tr):.2e}); "
                  f"pytorch_default_vs_f64 {max(t['default_vs_float64'] for t in tr):.2e}", flush=True)
            for s in row["running_stats"]:
                print(f"       running stats vs f64: mean {s['running_mean']:.2e} var {s['running_var']:.2e} "
                      f"num_batches_tracked {s['num_batches_tracked']}", flush=True)
            if "ms_library" in row:
                comp = row.get("ms_compile")
                print(f"       ms: library {row['ms_library']:.3f}  eager {row['ms_eager']:.3f}"
                      + (f"  compile {comp:.3f}" if comp else "")
                      + f"  speedup vs eager {row['ms_eager'] / row['ms_library']:.3f}x"
                      + (f", vs compile {comp / row['ms_library']:.3f}x" if comp else ""), flush=True)
    if not args.no_kernelbench:
        print(f"# KernelBench criterion: reference in PyTorch's default precision, drop-in in its default math, "
              f"{args.trials} trials of torch.rand inputs, torch.allclose(atol={KB_ATOL:g}, rtol={KB_RTOL:g})")
        for wid in args.workloads.split(","):
            row = kernelbench(wid, args.trials)
            rows.append(row)
            ok = sum(tr["allclose"] for tr in row["trials"])
            print(f"{wid:6s} kernelbench {'PASS' if row['pass'] else 'FAIL'} "
                  f"{ok}/{len(row['trials'])} trials allclose; "
                  f"max abs diff {row['max_abs']:.2e}; worst |d|/(atol+rtol|ref|) {row['worst_ratio']:.3g}; "
                  f"math {row['math']}, engine {row['engine']}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    failed = [f"{r['workload']}/{r['mode']}" for r in rows if not r["pass"]]
    print(f"{len(rows) - len(failed)} passed, {len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
