#!/usr/bin/env python3
"""bench.py - fusedconv3d against PyTorch on the PROBLEMS.md workloads, in one process.

    make bench [ARGS="--quick --only L2/61 --out FILE --plot FILE --json FILE --reps N"]
    python3 bench/bench.py [--quick] [--only L2/15,L2/77] [--out bench/bench_tables.md]
                           [--plot bench/speed.png] [--json FILE] [--reps N]

Needs a CUDA GPU and PyTorch (the extension in examples/pytorch compiles on first use); without them
it says so and exits with status 2. Workloads: the five of PROBLEMS.md at full size and, unless
--quick, the three at KernelBench's older sizes (workloads.OLDER_SIZES). --only keeps the named
workload ids (both sizes of each).

Per workload, with the reference module and the drop-in built from the same seed, training mode,
under torch.no_grad(), on one torch.rand input:
    fc3d tf32 / fp32 / half   the drop-in, math fixed to that mode, engine chosen by the library
                              (fp32 is the accurate mode)
    fc3d tf32 direct          the drop-in in tf32 with the direct engine forced (so the engines
                              compare; the same numbers when the library chose it anyway)
    eager                     the reference in PyTorch's default precision (cuDNN TF32)
    eager TF32 off            torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32
                              = False
    torch.compile             torch.compile(reference), default mode, compiled once per workload
                              ("failed" if it raises)
    cuDNN convT alone         F.conv_transpose3d with the reference's parameters (default precision)
and the convolution alone through the library (a plan with no ops, each math mode), with useful
TFLOP/s = plan flops / time; then the fc3d tf32 chain and its convolution alone once more, timed
alternately run by run, for the ratio of the two (what the chain costs beyond its convolution).
fc3d tf32, its convolution alone, eager and torch.compile are also timed with the GPU kept busy
through the call's host work (the flush written BUSY_WRITES times before the start event instead of
once): the timed window then holds the GPU's work alone, where the ordinary run also holds any host
work before the first launch that outlasts one flush.

Timing: CUDA events around one forward, 2 warm-up runs (compile excluded), a 256 MiB buffer written
before every timed run (flushes the 50 MB L2), median of --reps runs (20 by default, 10 with --quick).
The systems of a workload's time table but the direct engine (whose one run outlasts a round of all
the others) are timed in one rotation, and the convolution alone's three math modes in another:
each of the --reps rounds runs every system once, the first of the round moving on by one each
round, so that the clock and temperature a heavy series leaves behind fall on every system alike
(timed one series after the other, L2/77's half convolution alone ran 7 % slower after the 3xTF32
series than before it, and TF32 likewise); each timed run follows an untimed one of the same system,
which keeps the host's caches warm for it as a series does.
floor = max(least bytes / 2945 GB/s, FLOPs / 403 TFLOP/s) as PROBLEMS.md defines it: least bytes =
input, parameters and buffers read once plus the final output written once, float32; FLOPs =
2 * multiply-adds of the dense transposed convolution. Each library output is also compared with the
TF32-off eager output (relative L2), so a wrong result cannot pass as a fast one.

Writes the markdown tables to --out (ready for bench/RESULTS.md, which it does not touch), the plot
of time / floor per workload and system (log scale) to --plot, raw numbers to --json if given.
Exit status 1 if a library run failed.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BRIDGE_DIR = os.path.join(ROOT, "examples", "pytorch")

COPY_GBS = 2945.0    # device copy, bytes read + written (PROBLEMS.md)
TF32_TFLOPS = 403.0  # cuBLAS TF32 GEMM (PROBLEMS.md)
FLUSH_BYTES = 256 << 20
BUSY_WRITES = 4  # the flush written this many times before a "busy" run's start event (~0.35 ms of GPU work)
MATHS = ("tf32", "fp32", "half")

# (key, column header); the library systems first
LIB_SYSTEMS = [("fc3d_tf32", "fc3d tf32"), ("fc3d_fp32", "fc3d fp32"), ("fc3d_half", "fc3d half"),
               ("fc3d_tf32_direct", "fc3d tf32 direct")]
TORCH_SYSTEMS = [("eager", "eager"), ("eager_notf32", "eager TF32 off"), ("compile", "torch.compile"),
                 ("cudnn_conv", "cuDNN convT alone")]
SYSTEMS = LIB_SYSTEMS + TORCH_SYSTEMS


# ---- numbers from shapes (no torch needed) -------------------------------------------------------

def prod(v):
    r = 1
    for a in v:
        r *= int(a)
    return r


def conv_flops(x_shape, out_channels, groups, kernel):
    """2 * multiply-adds of the dense transposed convolution: every input element meets every
    kernel tap of every output channel of its group."""
    return 2.0 * prod(x_shape) * (out_channels // groups) * prod(kernel)


def floor_ms(least_bytes, flops):
    return max(least_bytes / (COPY_GBS * 1e9), flops / (TF32_TFLOPS * 1e12)) * 1e3


# ---- formatting ----------------------------------------------------------------------------------

def fmt_ms(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:.3f}" if v < 10 else f"{v:.2f}" if v < 100 else f"{v:.1f}"


def fmt_x(v):
    if v is None or isinstance(v, str):
        return "-" if v is None else v
    return f"{v:.2f}" if v < 10 else f"{v:.1f}" if v < 100 else f"{v:.0f}"


def ratio(a, b):
    """a / b for two times, None where either is missing."""
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or b <= 0:
        return None
    return a / b


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def markdown(res):
    """The tables for bench/RESULTS.md from the results dict that main() builds."""
    meta, W = res["meta"], res["workloads"]
    lines = [f"Measured {meta['date']} on {meta['device']}, torch {meta['torch']}, CUDA {meta['cuda']}, "
             f"cuDNN {meta['cudnn']}; library engines: {', '.join(meta['engines'])}. "
             f"Median of {meta['reps']} runs, L2 flushed (256 MiB written) before each; "
             f"`bench/bench.py{(' ' + meta['args']) if meta['args'] else ''}`.",
             "",
             f"floor = max(least bytes / {COPY_GBS:g} GB/s, FLOPs / {TF32_TFLOPS:g} TFLOP/s) (PROBLEMS.md): least "
             "bytes = input, parameters and buffers read once and the final output written once (float32); "
             "FLOPs = the dense transposed convolution. fc3d = fusedconv3d through its PyTorch drop-in, "
             "engine chosen by the library unless named; fp32 is its accurate mode. eager = PyTorch's "
             "default (cuDNN TF32).", ""]
    names = [lab for _, lab in SYSTEMS]
    lines += ["### Time (ms)", "",
              table(["workload", "GFLOP", "floor"] + names,
                    [[w["label"], f"{w['flops'] / 1e9:.1f}", fmt_ms(w["floor_ms"])] +
                     [fmt_ms(w["ms"].get(k)) for k, _ in SYSTEMS] for w in W]), ""]
    lines += ["### Time / floor", "",
              table(["workload"] + names,
                    [[w["label"]] + [fmt_x(ratio(w["ms"].get(k), w["floor_ms"])) for k, _ in SYSTEMS]
                     for w in W]), ""]
    rows = []
    for w in W:
        for k, lab in LIB_SYSTEMS:
            t = w["ms"].get(k)
            rows.append([w["label"], lab, w["engine"].get(k, "-")] +
                        [fmt_x(ratio(w["ms"].get(tk), t)) for tk, _ in TORCH_SYSTEMS])
    lines += ["### Speedup of fusedconv3d (PyTorch time / fusedconv3d time)", "",
              table(["workload", "fc3d", "engine"] + ["vs " + lab for _, lab in TORCH_SYSTEMS], rows), ""]
    rows = []
    for w in W:
        c = w["conv_alone"]
        cud = w["ms"].get("cudnn_conv")
        row = [w["label"], f"{w['flops'] / 1e9:.1f}", fmt_ms(cud), fmt_x(tflops(w["flops"], cud))]
        for m in MATHS:
            cm = c.get(m, {})
            t = cm.get("ms")
            row += [fmt_ms(t), fmt_x(tflops(cm.get("flops", w["flops"]), t)), cm.get("engine", "-")]
        rows.append(row)
    hdr = ["workload", "GFLOP", "cuDNN ms", "cuDNN TFLOP/s"]
    for m in MATHS:
        hdr += [f"fc3d {m} ms", "TFLOP/s", "engine"]
    lines += ["### The convolution alone (useful TFLOP/s = FLOPs / time)", "", table(hdr, rows), ""]
    rows = []
    for w in W:
        pr = w.get("paired", {})
        tc, ta = pr.get("chain"), pr.get("conv")
        rows.append([w["label"], fmt_ms(tc), fmt_ms(ta), fmt_x(ratio(tc, ta)), fmt_x(ratio(tc, w["floor_ms"]))])
    lines += ["### What the chain costs beyond its convolution (fc3d tf32; the chain and the convolution alone "
              "timed alternately, run by run)", "",
              table(["workload", "chain ms", "conv alone ms", "chain / conv alone", "chain / floor"], rows), ""]
    rows = []
    for w in W:
        b = w.get("busy", {})
        ca = w["conv_alone"].get("tf32", {})
        row = [w["label"]]
        for t, tb in ((w["ms"].get("fc3d_tf32"), b.get("fc3d_tf32")), (ca.get("ms"), ca.get("busy_ms")),
                      (w["ms"].get("eager"), b.get("eager")), (w["ms"].get("compile"), b.get("compile"))):
            d = t - tb if isinstance(t, (int, float)) and isinstance(tb, (int, float)) else None
            row += [fmt_ms(t), fmt_ms(tb), "-" if d is None else f"{d:+.3f}"]
        rows.append(row)
    hdr = ["workload"]
    for lab in ("fc3d tf32", "fc3d tf32 conv alone", "eager", "torch.compile"):
        hdr += [f"{lab} ms", "GPU kept busy", "difference"]
    lines += [f"### Host work inside the timed window: each time again with the GPU kept busy through the call's "
              f"host work (the flush written {BUSY_WRITES} times before the start event, not once)", "",
              table(hdr, rows), ""]
    lines += ["### Check: relative L2 of each fusedconv3d output against eager TF32 off", "",
              table(["workload"] + [lab for _, lab in LIB_SYSTEMS],
                    [[w["label"]] + [f"{w['rel_l2'][k]:.1e}" if isinstance(w["rel_l2"].get(k), float) else "-"
                                     for k, _ in LIB_SYSTEMS] for w in W]), ""]
    fails = [f"{w['label']} {k}: {msg}" for w in W for k, msg in w["errors"].items()]
    if fails:
        lines += ["Failed: " + "; ".join(fails), ""]
    return "\n".join(lines)


def tflops(flops, ms):
    if not isinstance(ms, (int, float)) or ms <= 0:
        return None
    return flops / (ms * 1e-3) / 1e12


def plot(res, path):
    """Grouped bars: time / floor per workload (groups) and system (bars), log-scale y."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    W = res["workloads"]
    fig, ax = plt.subplots(figsize=(max(8.0, 1.5 * len(W) + 3), 5.4))
    n = len(SYSTEMS)
    width = 0.8 / n
    cmap = plt.get_cmap("tab10")
    for j, (k, lab) in enumerate(SYSTEMS):
        xs, ys = [], []
        for i, w in enumerate(W):
            r = ratio(w["ms"].get(k), w["floor_ms"])
            if r is not None:
                xs.append(i - 0.4 + (j + 0.5) * width)
                ys.append(r)
        ax.bar(xs, ys, width, label=lab, color=cmap(j % 10), hatch="//" if j >= len(LIB_SYSTEMS) else None,
               edgecolor="white" if j < len(LIB_SYSTEMS) else "black", linewidth=0.3)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(W)))
    ax.set_xticklabels([w["label"].replace(" (", "\n(") for w in W], fontsize=8)
    ax.set_ylabel("time / floor (lower is better; 1 = floor)")
    meta = res["meta"]
    ax.set_title(f"fusedconv3d vs PyTorch, {meta['device']}, median of {meta['reps']} runs, L2 flushed", fontsize=9)
    ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.14), frameon=False)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fig.savefig(path, dpi=130)
    plt.close(fig)


# ---- measuring (torch from here on) --------------------------------------------------------------

class Precision:
    """Sets cuDNN's and matmul's TF32 flags inside, restores them after."""

    def __init__(self, tf32):
        self.tf32 = tf32

    def __enter__(self):
        import torch
        self.saved = (torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32)
        if self.tf32:  # PyTorch's defaults: cuDNN may use TF32, float32 matmuls do not
            torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = True, False
        else:
            torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = False, False

    def __exit__(self, *exc):
        import torch
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = self.saved


class Timer:
    def __init__(self, torch, reps, warmup):
        self.torch, self.reps, self.warmup = torch, reps, warmup
        self.flush = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device="cuda")

    def once(self, fn, i, busy=False):
        """One timed run of fn (ms), the L2 flushed before it (BUSY_WRITES times where busy, so that the
        GPU is still writing when the host has enqueued fn's work)."""
        torch = self.torch
        for k in range(BUSY_WRITES if busy else 1):
            self.flush.fill_((i + k) & 0x7F)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    def __call__(self, fn, busy=False):
        for _ in range(self.warmup):
            fn()
        self.torch.cuda.synchronize()
        return statistics.median([self.once(fn, i, busy) for i in range(self.reps)])

    def rotate(self, fns):
        """The callables of fns timed in rotation (their medians, in order): each of --reps rounds
        runs every one once, flushed before each, the first of the round moving on by one from round
        to round. Every series then sees the same mix of the machine's states: the clock and the
        temperature that a heavy series leaves behind (L2/77's half convolution alone ran 7 % slower
        right after its 3xTF32 series, and TF32 likewise, than both had before it) fall on all of
        them alike, and a ratio of two of them does not see the machine drift between series. Each
        timed run comes right after an untimed one of the same callable, as in a series: the host's
        caches and PyTorch's allocator are then warm for it (without that, the host work of a call
        right after another system's outlasted the flush: fc3d tf32 0.08-0.23 ms more per call, and
        torch.compile 0.23-0.45)."""
        for f in fns:
            for _ in range(self.warmup):
                f()
        self.torch.cuda.synchronize()
        ts = [[] for _ in fns]
        n = len(fns)
        for i in range(self.reps):
            for j in range(n):
                k = (i + j) % n
                fns[k]()
                ts[k].append(self.once(fns[k], i))
        return [statistics.median(t) for t in ts]

    def pair(self, fa, fb):
        """fa and fb timed alternately (rotate; which goes first alternates): their medians."""
        return tuple(self.rotate([fa, fb]))


def least_bytes(ref, x_shape, y_shape):
    """Input, every floating parameter and buffer read once, final output written once, float32."""
    el = prod(x_shape) + prod(y_shape)
    el += sum(p.numel() for p in ref.parameters())
    el += sum(b.numel() for b in ref.buffers() if b.is_floating_point())
    return 4 * el


def rel_l2(torch, a, ref):
    a = a.float()
    ref = ref.float()
    if a.shape != ref.shape or not bool(torch.isfinite(a).all()):
        return float("inf")
    num = torch.linalg.vector_norm(a - ref, dtype=torch.float64).item()
    den = torch.linalg.vector_norm(ref, dtype=torch.float64).item()
    return num / den if den > 0 else num


def err_text(e):
    """One line for an exception, as the tables and the errors dict hold it."""
    return f"{type(e).__name__}: {e}".splitlines()[0][:300]


def engine_label(mod):
    """The engine a drop-in's last call ran, with its main loop where it has one."""
    return mod.last_engine + (f" ({mod.last_main_loop})" if mod.last_main_loop else "")


def time_rotation(timer, fns, errors, what):
    """{name: median ms} for the callables of the dict fns, timed in one rotation. Where a run fails
    inside it, the failure is recorded under errors[what] and each is timed on its own as it can
    ("failed" and errors[name] for those that fail again)."""
    names = list(fns)
    try:
        return dict(zip(names, timer.rotate([fns[k] for k in names])))
    except Exception as e:
        errors[what] = err_text(e)
    out = {}
    for k in names:
        try:
            out[k] = timer(fns[k])
        except Exception as e:
            out[k], errors[k] = "failed", err_text(e)
    return out


def bench_workload(torch, F, fc, timer, wid, label, ref_cls, new_cls, init, shape, seed=1234):
    torch.manual_seed(seed)
    ref = ref_cls(*init).cuda()
    torch.manual_seed(seed)
    new = new_cls(*init).cuda()
    torch.manual_seed(seed + 1)
    x = torch.rand(*shape, device="cuda")
    conv = new.fused.conv
    w = {"id": wid, "label": label, "init": list(init), "shape": list(shape), "ms": {}, "engine": {},
         "rel_l2": {}, "errors": {}, "conv_alone": {}, "busy": {}}
    flops = conv_flops(shape, conv.out_channels, conv.groups, conv.kernel_size)

    with torch.no_grad():
        with Precision(tf32=False):
            y_ref = ref(x)  # the accurate reference for the check column
        torch.cuda.synchronize()
        w["y_shape"] = list(y_ref.shape)
        w["least_bytes"] = least_bytes(ref, shape, y_ref.shape)
        w["flops"] = flops
        w["floor_ms"] = floor_ms(w["least_bytes"], flops)

        # the library, through the drop-in: each system run once (its engine, its error), timed below
        def lib_run(math_mode, engine):
            new.math, new.engine = math_mode, engine
            return new(x)

        def first_lib_run(key, math_mode, engine):
            """The system's first run: its engine and its error recorded; False where it failed
            (recorded, the run goes on)."""
            try:
                y = lib_run(math_mode, engine)
                torch.cuda.synchronize()
                w["engine"][key] = engine_label(new)
                w["rel_l2"][key] = rel_l2(torch, y, y_ref)
                return True
            except Exception as e:
                w["ms"][key], w["errors"][key] = "failed", err_text(e)
                return False

        rot = {}  # system key -> callable, timed in one rotation
        for key, _ in LIB_SYSTEMS:
            if key.endswith("_direct"):
                continue  # (below, a series of its own: one run of it outlasts a round of the others)
            math_mode = key.split("_")[1]
            if first_lib_run(key, math_mode, None):
                rot[key] = (lambda m=math_mode: lib_run(m, None))

        # PyTorch
        def eager(tf32):
            with Precision(tf32=tf32):
                return ref(x)

        rot["eager"] = lambda: eager(True)
        rot["eager_notf32"] = lambda: eager(False)
        compiled = None
        with Precision(tf32=True):
            try:
                torch._dynamo.reset()
                compiled = torch.compile(ref)
                t0 = time.time()
                compiled(x)
                torch.cuda.synchronize()
                w["compile_s"] = time.time() - t0
            except Exception as e:
                w["ms"]["compile"] = "failed"
                w["compile_error"] = err_text(e)
                compiled = None
        if compiled is not None:
            def run_compiled():
                with Precision(tf32=True):
                    return compiled(x)
            rot["compile"] = run_compiled
        cw, cb = conv.weight, conv.bias
        args = dict(stride=conv.stride, padding=conv.padding, output_padding=conv.output_padding,
                    groups=conv.groups, dilation=conv.dilation)

        def cudnn_conv():
            with Precision(tf32=True):
                return F.conv_transpose3d(x, cw, cb, **args)
        rot["cudnn_conv"] = cudnn_conv

        w["ms"].update(time_rotation(timer, rot, w["errors"], "rotation"))
        # the series of their own: the GPU kept busy, and the direct engine
        if "fc3d_tf32" in rot:
            w["busy"]["fc3d_tf32"] = timer(rot["fc3d_tf32"], busy=True)
        w["busy"]["eager"] = timer(rot["eager"], busy=True)
        if "compile" in rot:
            w["busy"]["compile"] = timer(rot["compile"], busy=True)
        key = "fc3d_tf32_direct"
        if w["engine"].get("fc3d_tf32") == "direct" and "fc3d_tf32" in w["ms"]:
            w["ms"][key], w["engine"][key] = w["ms"]["fc3d_tf32"], "direct (= auto)"
            w["rel_l2"][key] = w["rel_l2"].get("fc3d_tf32")
        elif first_lib_run(key, "tf32", "direct"):
            try:
                w["ms"][key] = timer(lambda: lib_run("tf32", "direct"))
            except Exception as e:
                w["ms"][key], w["errors"][key] = "failed", err_text(e)
        del y_ref
        compiled = rot = None

        # the convolution alone through the library, the math modes in one rotation
        alone = {}
        for m in MATHS:
            a_m = fc.FusedConvTranspose3d(conv, math=m)
            try:
                info = a_m.plan_info(x)
                a_m(x)
                torch.cuda.synchronize()
                w["conv_alone"][m] = {"flops": info["flops"], "engine": engine_label(a_m)}
                if abs(info["flops"] - flops) > 1e-6 * flops:
                    w["errors"][f"conv_alone_{m}_flops"] = f"plan flops {info['flops']:.4g} != {flops:.4g}"
                alone[m] = a_m
            except Exception as e:
                w["conv_alone"][m] = {"ms": "failed"}
                w["errors"][f"conv_alone_{m}"] = err_text(e)
        errs = {}
        for m, t in time_rotation(timer, {m: (lambda a_m=a_m: a_m(x)) for m, a_m in alone.items()}, errs,
                                  "rotation").items():
            w["conv_alone"][m]["ms"] = t
        w["errors"].update({f"conv_alone_{k}": v for k, v in errs.items()})
        if "tf32" in alone:
            w["conv_alone"]["tf32"]["busy_ms"] = timer(lambda: alone["tf32"](x), busy=True)
        del alone

        # what the chain costs beyond its convolution (TF32): the two timed alternately
        alone = fc.FusedConvTranspose3d(conv, math="tf32")
        new.math, new.engine = "tf32", None
        try:
            new(x)
            alone(x)
            torch.cuda.synchronize()
            tc, ta = timer.pair(lambda: new(x), lambda: alone(x))
            w["paired"] = {"chain": tc, "conv": ta}
        except Exception as e:
            w["paired"] = {}
            w["errors"]["paired"] = err_text(e)
        del alone
    del ref, new, x
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    return w


def write(res, args, plot_too=False):
    """The tables to args.out (and the raw numbers to args.json, the plot to args.plot if plot_too);
    returns the tables."""
    md = markdown(res)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(md + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    if plot_too:
        try:
            plot(res, args.plot)
        except Exception:
            pass  # reported by the final attempt
    return md


def selected(args, workloads):
    """[(id, label, ref class, drop-in class, constructor args, input shape)] in run order."""
    only = [s.strip() for s in args.only.split(",")] if args.only else None
    known = set(workloads.SIZES)
    if only:
        bad = [s for s in only if s not in known]
        if bad:
            raise SystemExit(f"bench: unknown workload {', '.join(bad)} (known: {', '.join(workloads.SIZES)})")
    out = []
    for wid, (rc, nc, init, shape) in workloads.SIZES.items():
        if not only or wid in only:
            out.append((wid, wid, rc, nc, init, shape))
    if not args.quick:
        for wid, (rc, nc, init, shape, what) in workloads.OLDER_SIZES.items():
            if not only or wid in only:
                out.append((wid + "-old", f"{wid} ({what})", rc, nc, init, shape))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="full sizes only, fewer runs")
    ap.add_argument("--only", default="", help="comma-separated workload ids, e.g. L2/61")
    ap.add_argument("--out", default=os.path.join("bench", "bench_tables.md"))
    ap.add_argument("--plot", default=os.path.join("bench", "speed.png"))
    ap.add_argument("--json", default="")
    ap.add_argument("--reps", type=int, default=0, help="timed runs per measurement (default 20, --quick 10)")
    args = ap.parse_args()
    reps = args.reps or (10 if args.quick else 20)

    try:
        import torch
        import torch.nn.functional as F
    except Exception as e:
        print(f"bench: needs PyTorch with a CUDA GPU; torch cannot be imported ({type(e).__name__}: {e})")
        return 2
    if not torch.cuda.is_available():
        print(f"bench: needs a CUDA GPU; torch {torch.__version__} sees none (torch.cuda.is_available() is False)")
        return 2
    sys.path.insert(0, BRIDGE_DIR)
    import fusedconv3d_torch as fc
    import workloads

    t_start = time.time()
    chosen = selected(args, workloads)
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"cuDNN {torch.backends.cudnn.version()}; {len(chosen)} workloads, median of {reps} runs", flush=True)
    t0 = time.time()
    fc.load_extension()
    engines = list(fc.engine_names())
    print(f"# extension ready in {time.time() - t0:.1f} s; engines: {', '.join(engines)}", flush=True)
    res = {"meta": {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
                    "cudnn": torch.backends.cudnn.version(), "engines": engines, "reps": reps,
                    "date": time.strftime("%Y-%m-%d"), "host": platform.node(),
                    "args": " ".join((["--quick"] if args.quick else []) + (["--only", args.only] if args.only else [])
                                     + (["--reps", str(args.reps)] if args.reps else []))},
           "workloads": []}
    timer = Timer(torch, reps, warmup=2)
    for wid, label, rc, nc, init, shape in chosen:
        t0 = time.time()
        w = bench_workload(torch, F, fc, timer, wid, label, rc, nc, init, shape)
        res["workloads"].append(w)
        ms = "  ".join(f"{lab} {fmt_ms(w['ms'].get(k))}" for k, lab in SYSTEMS)
        print(f"{label}: floor {w['floor_ms']:.3f} ms | {ms} | compile {w.get('compile_s', 0):.0f} s | "
              f"{time.time() - t0:.0f} s", flush=True)
        for k, msg in w["errors"].items():
            print(f"  FAILED {k}: {msg}", flush=True)
        if "compile_error" in w:
            print(f"  torch.compile failed: {w['compile_error']}", flush=True)
        write(res, args, plot_too=True)  # after every workload: an interrupted run keeps what it measured

    md = write(res, args)
    print()
    print(md)
    print(f"# tables written to {args.out}")
    try:
        plot(res, args.plot)
        print(f"# plot written to {args.plot}")
    except Exception as e:
        print(f"# plot not written: {type(e).__name__}: {e}")
    print(f"# total {time.time() - t_start:.0f} s")
    lib_failed = any(isinstance(w["ms"].get(k), str) for w in res["workloads"] for k, _ in LIB_SYSTEMS) or \
        any(isinstance(c.get("ms"), str) for w in res["workloads"] for c in w["conv_alone"].values())
    return 1 if lib_failed else 0


if __name__ == "__main__":
    sys.exit(main())
