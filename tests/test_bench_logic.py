#!/usr/bin/env python3
"""test_bench_logic.py - bench/bench.py's timing and bookkeeping, without a GPU or PyTorch.

bench.py runs only where there is a GPU and PyTorch, so its Python is checked here on a stand-in
for torch: CUDA events that read a clock which each timed callable advances by its own duration,
modules that record their calls and fail where told to. Checked: the order of the rotation (every
system once a round, the first moving on by one, each timed run right after an untimed one of the
same system), the medians going to the right system, a system that fails recorded and the others
still timed, the direct engine outside the rotation, the tables rendering every case, and the
FLOP and floor figures against PROBLEMS.md's. Prints "ok name" / "FAIL name: why" and
"N passed, M failed".
"""
import contextlib
import os
import sys
import types
from types import SimpleNamespace as NS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

passed = failed = 0


def check(name, cond, why=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {why}")


# ---- the stand-in for torch ----------------------------------------------------------------------

class Clock:
    now = 0.0


class Event:
    def __init__(self, enable_timing=True):
        self.t = None

    def record(self):
        self.t = Clock.now

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return end.t - self.t


class Tensor:
    def __init__(self, shape):
        self.shape = tuple(shape)

    def float(self):
        return self

    def fill_(self, v):
        return self

    def all(self):
        return True

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def is_floating_point(self):
        return True

    def __sub__(self, other):
        return self


def make_torch():
    t = types.ModuleType("torch")
    t.uint8, t.float64 = "uint8", "float64"
    t.empty = lambda *a, **k: Tensor((1,))
    t.rand = lambda *shape, **k: Tensor(shape)
    t.manual_seed = lambda s: None
    t.no_grad = contextlib.nullcontext
    t.isfinite = lambda a: a
    t.linalg = NS(vector_norm=lambda a, dtype=None: NS(item=lambda: 1.0))
    t.cuda = NS(Event=Event, synchronize=lambda: None, empty_cache=lambda: None)
    t.backends = NS(cudnn=NS(allow_tf32=True), cuda=NS(matmul=NS(allow_tf32=False)))
    t._dynamo = NS(reset=lambda: None)
    return t


torch = make_torch()
sys.modules["torch"] = torch  # bench.py's Precision imports torch itself
sys.path.insert(0, os.path.join(ROOT, "bench"))
import bench as B  # noqa: E402  (after the stand-in is in place)

log = []


def timed(name, ms):
    """A callable that logs its name and takes ms on the stand-in clock."""
    def f():
        log.append(name)
        Clock.now += ms
        return Tensor((1,))
    return f


# ---- Timer.rotate --------------------------------------------------------------------------------

def test_rotate():
    reps, warm = 4, 1
    timer = B.Timer(torch, reps, warmup=warm)
    log.clear()
    durs = {"a": 1.0, "b": 2.5, "c": 0.25}
    got = timer.rotate([timed(k, v) for k, v in durs.items()])
    check("rotate/medians", got == [1.0, 2.5, 0.25], f"got {got}")
    names = list(durs)
    want = [k for k in names for _ in range(warm)]
    for i in range(reps):
        for j in range(3):
            k = names[(i + j) % 3]
            want += [k, k]  # untimed, then timed
    check("rotate/order", log == want, f"calls {log} want {want}")
    log.clear()
    ta, tb = timer.pair(timed("x", 3.0), timed("y", 0.5))
    check("pair/medians", (ta, tb) == (3.0, 0.5), f"got {(ta, tb)}")
    check("pair/alternates", log[2:6] == ["x", "x", "y", "y"] and log[6:10] == ["y", "y", "x", "x"],
          f"calls {log}")


def test_rotate_median():
    """The median of each system's own runs, whatever the others take."""
    timer = B.Timer(torch, 5, warmup=0)
    n = {"v": 0}

    def varying():  # 1, 2, ..., one value a call: timed runs are the even calls
        n["v"] += 1
        Clock.now += float(n["v"])
    got = timer.rotate([varying, timed("k", 7.0)])
    # calls of varying: untimed 1, timed 2, untimed 3, timed 4, ... timed 10: median of 2,4,6,8,10
    check("rotate/median_of_own_runs", got == [6.0, 7.0], f"got {got}")


# ---- bench_workload on stand-in modules ------------------------------------------------------------

conv = NS(out_channels=4, groups=1, kernel_size=(3, 3, 3), weight=None, bias=None, stride=(1, 1, 1),
          padding=(0, 0, 0), output_padding=(0, 0, 0), dilation=(1, 1, 1))


class Ref:
    def __init__(self, *a):
        pass

    def cuda(self):
        return self

    def parameters(self):
        return [Tensor((3,))]

    def buffers(self):
        return [Tensor((2,))]

    def __call__(self, x):
        tf32 = torch.backends.cudnn.allow_tf32
        log.append("eager" if tf32 else "eager_notf32")
        Clock.now += 5.0 if tf32 else 9.0
        return Tensor((2, 4))


def new_class(auto_engine="implicit_gemm", fail_math=None, fail_from=1):
    """The drop-in: "lib <math> forced" / "lib <math> auto" logged at each call; in fail_math it
    raises from its fail_from-th call in that math on."""
    class New:
        def __init__(self, *a):
            self.fused = NS(conv=conv)
            self.math = self.engine = None
            self.calls = {}

        def cuda(self):
            return self

        def __call__(self, x):
            log.append(f"lib {self.math} {'forced' if self.engine == 'direct' else 'auto'}")
            self.calls[self.math] = self.calls.get(self.math, 0) + 1
            if self.math == fail_math and self.engine is None and self.calls[self.math] >= fail_from:
                raise RuntimeError(f"no plan in {self.math}")
            direct = self.engine == "direct" or auto_engine == "direct"
            Clock.now += {"tf32": 1.0, "fp32": 2.0, "half": 0.5}[self.math] * (40 if self.engine == "direct" else 1)
            self.last_engine = "direct" if direct else auto_engine
            self.last_main_loop = "" if direct else "halo"
            return Tensor((2, 4))
    return New


def alone_class(fail_math=None, fail_from_call=None):
    """The convolution alone: plan_info raises in fail_math, or, with fail_from_call, its calls in
    fail_math raise from that call on."""
    class Alone:
        def __init__(self, c, math):
            self.m = math
            self.calls = 0

        def plan_info(self, x):
            if self.m == fail_math and fail_from_call is None:
                raise RuntimeError("no plan")
            return {"flops": B.conv_flops((2,), 4, 1, (3, 3, 3))}

        def __call__(self, x):
            log.append(f"alone {self.m}")
            self.calls += 1
            if self.m == fail_math and fail_from_call is not None and self.calls >= fail_from_call:
                raise RuntimeError("lost the device")
            Clock.now += {"tf32": 0.75, "fp32": 1.5, "half": 0.375}[self.m]
            self.last_engine, self.last_main_loop = "implicit_gemm", "halo"
            return Tensor((2, 4))
    return Alone


def compile_ok(ref):
    def run(x):
        log.append("compile")
        Clock.now += 3.0
        return Tensor((2, 4))
    return run


def run_workload(new_cls, alone_cls, compile_fn=compile_ok):
    torch.compile = compile_fn
    F = NS(conv_transpose3d=lambda *a, **k: (log.append("cudnn"), setattr(Clock, "now", Clock.now + 4.0),
                                             Tensor((1,)))[-1])
    fc = NS(FusedConvTranspose3d=alone_cls)
    timer = B.Timer(torch, 3, warmup=1)
    log.clear()
    return B.bench_workload(torch, F, fc, timer, "T", "T", Ref, new_cls, (), (2,))


def test_workload():
    w = run_workload(new_class(), alone_class())
    want = {"fc3d_tf32": 1.0, "fc3d_fp32": 2.0, "fc3d_half": 0.5, "eager": 5.0, "eager_notf32": 9.0,
            "compile": 3.0, "cudnn_conv": 4.0, "fc3d_tf32_direct": 40.0}
    check("workload/times", w["ms"] == want, f"ms {w['ms']}")
    check("workload/no_errors", not w["errors"], f"errors {w['errors']}")
    ca = {m: w["conv_alone"][m]["ms"] for m in B.MATHS}
    check("workload/conv_alone", ca == {"tf32": 0.75, "fp32": 1.5, "half": 0.375}, f"conv alone {ca}")
    check("workload/paired", w["paired"] == {"chain": 1.0, "conv": 0.75}, f"paired {w['paired']}")
    check("workload/busy", w["busy"] == {"fc3d_tf32": 1.0, "eager": 5.0, "compile": 3.0}, f"busy {w['busy']}")
    check("workload/engines", w["engine"]["fc3d_tf32"] == "implicit_gemm (halo)" and
          w["engine"]["fc3d_tf32_direct"] == "direct", f"engines {w['engine']}")
    # the direct engine ran outside the rotation: no direct call between the rotation's first and last
    first = log.index("cudnn")
    last = len(log) - 1 - log[::-1].index("cudnn")
    check("workload/direct_outside_rotation", not any("forced" in c for c in log[first:last + 1]) and
          any("forced" in c for c in log), "a direct run inside the rotation, or none at all")
    # the eager systems ran with PyTorch's flags as they name them, and the flags were restored
    check("workload/flags_restored", torch.backends.cudnn.allow_tf32 is True and
          torch.backends.cuda.matmul.allow_tf32 is False, "TF32 flags left changed")
    md = B.markdown({"meta": {"device": "stand-in", "torch": "-", "cuda": "-", "cudnn": "-", "engines": ["direct"],
                              "reps": 3, "date": "-", "args": ""}, "workloads": [w]})
    check("workload/markdown", "| T |" in md and "### The convolution alone" in md, "tables missing")


def test_workload_failures():
    w = run_workload(new_class(fail_math="fp32"), alone_class(fail_math="half"))
    check("failure/library_system_recorded", w["ms"].get("fc3d_fp32") == "failed" and "fc3d_fp32" in w["errors"],
          f"ms {w['ms']} errors {w['errors']}")
    check("failure/others_timed", w["ms"]["fc3d_tf32"] == 1.0 and w["ms"]["fc3d_half"] == 0.5 and
          w["ms"]["eager"] == 5.0, f"ms {w['ms']}")
    check("failure/failed_system_not_timed", log.count("lib fp32 auto") == 1,
          f"fp32 called {log.count('lib fp32 auto')} times")
    check("failure/conv_alone_recorded", w["conv_alone"]["half"] == {"ms": "failed"} and
          "conv_alone_half" in w["errors"] and w["conv_alone"]["tf32"]["ms"] == 0.75, f"{w['conv_alone']}")

    def compile_fails(ref):
        raise RuntimeError("no compiler")
    w = run_workload(new_class(), alone_class(), compile_fn=compile_fails)
    check("failure/compile_recorded", w["ms"]["compile"] == "failed" and "compile_error" in w and
          "compile" not in w["busy"] and w["ms"]["cudnn_conv"] == 4.0, f"ms {w['ms']}")
    md = B.markdown({"meta": {"device": "stand-in", "torch": "-", "cuda": "-", "cudnn": "-", "engines": ["direct"],
                              "reps": 3, "date": "-", "args": ""}, "workloads": [w]})
    check("failure/markdown", "failed" in md, "the failed cell is not shown")


def test_direct_is_auto():
    w = run_workload(new_class(auto_engine="direct"), alone_class())
    check("direct_auto/shared", w["ms"]["fc3d_tf32_direct"] == w["ms"]["fc3d_tf32"] and
          w["engine"]["fc3d_tf32_direct"] == "direct (= auto)", f"ms {w['ms']} engine {w['engine']}")
    check("direct_auto/not_run_again", not any("forced" in c for c in log), "the direct engine forced anyway")


def test_rotation_failure():
    """A system whose first run passed and a later one raises: the rotation is recorded as failed,
    then every system is timed on its own, the failing one marked failed."""
    w = run_workload(new_class(fail_math="half", fail_from=3), alone_class())
    check("rotation_failure/recorded", "rotation" in w["errors"], f"errors {w['errors']}")
    check("rotation_failure/others_timed", w["ms"]["fc3d_tf32"] == 1.0 and w["ms"]["eager_notf32"] == 9.0 and
          w["ms"]["cudnn_conv"] == 4.0 and w["ms"]["fc3d_half"] == "failed" and "fc3d_half" in w["errors"],
          f"ms {w['ms']}")
    w = run_workload(new_class(), alone_class(fail_math="fp32", fail_from_call=3))
    ca = w["conv_alone"]
    check("rotation_failure/conv_alone", "conv_alone_rotation" in w["errors"] and "conv_alone_fp32" in w["errors"]
          and ca["fp32"]["ms"] == "failed" and ca["tf32"]["ms"] == 0.75 and ca["half"]["ms"] == 0.375, f"{ca}")


# ---- figures ---------------------------------------------------------------------------------------

def test_figures():
    # PROBLEMS.md: L2/77 537 GFLOP, floor 1.32 ms (FLOPs / 403 TFLOP/s); L2/61 232 GFLOP
    f77 = B.conv_flops((16, 64, 16, 32, 32), 128, 1, (5, 5, 5))
    check("figures/l2_77_flops", abs(f77 / 1e9 - 536.9) < 0.1, f"{f77 / 1e9:.2f} GFLOP")
    check("figures/l2_77_floor", abs(B.floor_ms(1e6, f77) - 1.332) < 0.001, f"{B.floor_ms(1e6, f77):.4f} ms")
    f61 = B.conv_flops((16, 64, 32, 32, 32), 128, 1, (3, 3, 3))
    check("figures/l2_61_flops", abs(f61 / 1e9 - 231.9) < 0.1, f"{f61 / 1e9:.2f} GFLOP")
    # a bytes-bound floor: 2945 GB/s
    check("figures/bytes_floor", abs(B.floor_ms(2945e6, 0.0) - 1.0) < 1e-12, f"{B.floor_ms(2945e6, 0.0)}")


for t in (test_rotate, test_rotate_median, test_workload, test_workload_failures, test_direct_is_auto,
          test_rotation_failure, test_figures):
    try:
        t()
    except Exception as e:  # a crash in a test is a failure of that test
        failed += 1
        print(f"FAIL {t.__name__}: {type(e).__name__}: {e}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
