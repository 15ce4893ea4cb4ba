/* example_common.h - what the five workload examples (examples/l*.cu) share.

   Each workload file builds two descs of one chain - a reduced one, small enough for the double
   CPU reference to run in well under a second, and the full KernelBench size - and calls ex_main:

     1. verify: the reduced desc, FP32 math, on the GPU (y poisoned with NaN bytes first) and through
        fc3d_cpu_run; relative L2 error ||gpu - cpu|| / ||cpu|| of y and of every op statistic the run
        writes (updated running mean/var, saved batch statistics), each bounded by EX_BOUND = 1e-5;
     2. time: the full desc, one warm-up run (y poisoned first, then checked to hold no NaN/Inf),
        then the median of `runs` timed runs, CUDA events around fc3d_plan_run alone, with the L2
        cache flushed before each by a cudaMemset of a 256 MiB scratch buffer;
     3. report: one human line and one `RESULT <id> <PASS|FAIL> err=<rel_l2> ms=<median>
        tflops=<x> gbs=<y> passes=<n> ws=<bytes> math=<m>` line for examples/demo.sh
        (with --check-only: ms, tflops and gbs are "-").

   TFLOP/s = plan.flops / time (the dense convolution count PyTorch and cuDNN report).
   GB/s    = (x + weight + conv bias + y) elements x element size / time: every tensor read or
             written once, the least traffic any implementation needs (op parameters are ignored).

   Options: [--check-only] [--json] [--digest] [--runs N | N] [--seed S] [--tf32 | --half | --fp32]
            [--materialize | --recompute] [--per-op | --moments]
     --check-only  verify only, skip the full-size run
     --json        also print the result as one JSON object
     --digest      print a 64-bit FNV-1a digest of the full-size warm-up run's y bytes (two builds or
                   plans that should agree bitwise print the same digest)
     --runs N      timed runs (default 5; a bare number works too)
     --tf32        time the full size with FC3D_MATH_TF32 (PyTorch's default for cuDNN convs); the
                   reduced check is FP32 whatever this says
     --half        time the full size with FC3D_MATH_HALF (16-bit operands, FP32 accumulation)
     --fp32        time the full size with FC3D_MATH_FP32 (the default: 3xTF32 on tensor cores)
     --materialize, --recompute, --per-op, --moments
                   force desc.strategy / desc.stats_plan in both runs (a chain that cannot take one
                   fails to plan and says why); default: the planner's choice
   Exit status: 0 verified (and, when run, the full-size output is finite), 1 on a verification
   failure or any CUDA or library error (its message is printed), 2 on a bad command line.

   The examples are one translation unit each, so this header carries both implementations: include
   it from one .cu file only. bench/conv_alone.cu uses its helpers without ex_main. */
#ifndef FC3D_EXAMPLE_COMMON_H
#define FC3D_EXAMPLE_COMMON_H

#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"
#define FUSEDCONV3D_CPU_IMPLEMENTATION
#include "fusedconv3d_cpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define EX_BOUND 1e-5                      /* relative L2, FP32 math, vs the double reference */
#define EX_FLUSH_BYTES ((size_t)256 << 20) /* > 5x the 50 MB L2 of an H100 */

#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        const cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* ---- command line ---------------------------------------------------------------------------- */
struct ex_options {
    int check_only = 0;
    int json = 0;
    int digest = 0;
    int runs = 5;
    uint64_t seed = 1;
    fc3d_math math = FC3D_MATH_FP32; /* of the full-size run */
    fc3d_strategy strategy = FC3D_STRATEGY_NONE;    /* forced for both runs; NONE: the planner's */
    fc3d_stats_plan stats_plan = FC3D_STATS_PLAN_AUTO;
};

static ex_options ex_parse(int argc, char** argv) {
    ex_options o;
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        char* end = nullptr;
        if (!strcmp(a, "--check-only")) o.check_only = 1;
        else if (!strcmp(a, "--json")) o.json = 1;
        else if (!strcmp(a, "--digest")) o.digest = 1;
        else if (!strcmp(a, "--tf32")) o.math = FC3D_MATH_TF32;
        else if (!strcmp(a, "--half")) o.math = FC3D_MATH_HALF;
        else if (!strcmp(a, "--fp32")) o.math = FC3D_MATH_FP32;
        else if (!strcmp(a, "--materialize")) o.strategy = FC3D_STRATEGY_MATERIALIZE;
        else if (!strcmp(a, "--recompute")) o.strategy = FC3D_STRATEGY_RECOMPUTE;
        else if (!strcmp(a, "--per-op")) o.stats_plan = FC3D_STATS_PLAN_PER_OP;
        else if (!strcmp(a, "--moments")) o.stats_plan = FC3D_STATS_PLAN_MOMENTS;
        else if (!strcmp(a, "--runs") && i + 1 < argc) o.runs = (int)strtol(argv[++i], &end, 10);
        else if (!strcmp(a, "--seed") && i + 1 < argc) o.seed = strtoull(argv[++i], &end, 10);
        else if (a[0] >= '0' && a[0] <= '9') o.runs = (int)strtol(a, &end, 10);
        else {
            fprintf(stderr,
                    "usage: %s [--check-only] [--json] [--digest] [--runs N | N] [--seed S] [--tf32 | --half | --fp32] "
                    "[--materialize | --recompute] [--per-op | --moments]\n",
                    argv[0]);
            exit(2);
        }
        if ((end && *end) || o.runs < 1) {
            fprintf(stderr, "%s: bad number in '%s'\n", argv[0], argv[i]);
            exit(2);
        }
    }
    return o;
}

/* Whether name is an exact item of the comma-separated list (the bench programs' id and mode lists). */
static inline bool ex_listed(const char* list, const char* name) {
    const size_t n = strlen(name);
    for (const char* q = list; (q = strstr(q, name)) != nullptr; q += n)
        if ((q == list || q[-1] == ',') && (q[n] == 0 || q[n] == ',')) return true;
    return false;
}

/* ---- descs ------------------------------------------------------------------------------------ */
/* torch.nn.ConvTranspose3d(cin, cout, k, stride=s, padding=p, dilation=dil, bias=bias) applied to
   an n x cin x d x h x w input: the same value in every spatial dimension, as in all five
   workloads. */
static fc3d_conv_desc ex_conv(int n, int cin, int cout, int d, int h, int w, int k, int s, int p, int dil,
                              int bias) {
    fc3d_conv_desc c;
    memset(&c, 0, sizeof c);
    c.batch = n;
    c.in_channels = cin;
    c.out_channels = cout;
    c.in_size[0] = d;
    c.in_size[1] = h;
    c.in_size[2] = w;
    for (int i = 0; i < 3; i++) {
        c.kernel[i] = k;
        c.stride[i] = s;
        c.padding[i] = p;
        c.dilation[i] = dil;
    }
    c.bias = bias;
    return c;
}

/* The epilogue chains of L2/34 (LayerNorm over W with its affine, the exact GELU, x 1.0) and L2/61
   (ReLU, GroupNorm of 8 groups with its affine), as the bench programs run them; the examples
   spell theirs out. */
static inline void ex_ops_l2_34(fc3d_plan_desc* d) {
    d->ops[0].kind = FC3D_OP_LAYERNORM;
    d->ops[0].norm_dims = 1;
    d->ops[0].eps = 1e-5f;
    d->ops[0].flags = FC3D_OP_AFFINE;
    d->ops[1].kind = FC3D_OP_GELU;
    d->ops[2].kind = FC3D_OP_SCALE;
    d->ops[2].value = 1.0f;
    d->num_ops = 3;
}
static inline void ex_ops_l2_61(fc3d_plan_desc* d) {
    d->ops[0].kind = FC3D_OP_RELU;
    d->ops[1].kind = FC3D_OP_GROUPNORM;
    d->ops[1].groups = 8;
    d->ops[1].eps = 1e-5f;
    d->ops[1].flags = FC3D_OP_AFFINE;
    d->num_ops = 2;
}

/* The plan of desc; prints the library's message and exits 1 when the desc is refused. */
static fc3d_plan ex_plan(const fc3d_plan_desc& desc) {
    fc3d_plan plan;
    if (fc3d_plan_init(&plan, &desc) != FC3D_SUCCESS) {
        fprintf(stderr, "fc3d_plan_init: %s\n", plan.message);
        exit(1);
    }
    return plan;
}

/* ---- host tensors ----------------------------------------------------------------------------- */
/* splitmix64: reproducible from the seed, fast enough for the 33 M values of the largest input. */
struct ex_rng {
    uint64_t s;
    explicit ex_rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull) {}
    double unit() { /* uniform [0, 1) */
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
    }
    float uniform(double lo, double hi) { return (float)(lo + (hi - lo) * unit()); }
};

/* fc3d_op_tensors as an array: weight, bias, running_mean, running_var, save_mean, save_invstd. */
enum { EX_T_WEIGHT, EX_T_BIAS, EX_T_RMEAN, EX_T_RVAR, EX_T_SMEAN, EX_T_SINVSTD, EX_T_COUNT };
static const char* const ex_tensor_name[EX_T_COUNT] = {"weight",      "bias",      "running_mean",
                                                       "running_var", "save_mean", "save_invstd"};

/* Elements of each tensor op i binds, 0 where it binds none: the plan says (fc3d_plan.op_tensors). */
static void ex_op_tensor_sizes(const fc3d_plan& p, int i, int64_t n[EX_T_COUNT]) {
    const fc3d_op_tensor_sizes& t = p.op_tensors[i];
    n[EX_T_WEIGHT] = t.weight;
    n[EX_T_BIAS] = t.bias;
    n[EX_T_RMEAN] = t.running_mean;
    n[EX_T_RVAR] = t.running_var;
    n[EX_T_SMEAN] = t.save_mean;
    n[EX_T_SINVSTD] = t.save_invstd;
}

/* Everything one run reads, float32, logical NCDHW (the examples use the NCDHW f32 default, so
   this is also the device storage). */
struct ex_host {
    std::vector<float> x, w, b;
    std::vector<float> op[FC3D_MAX_OPS][EX_T_COUNT];
};

/* PyTorch-like values: x uniform [0, 1) (torch.rand); conv weight and bias uniform in
   +-1/sqrt(fan_in), fan_in = C_out/groups * kD*kH*kW for a transposed conv (PyTorch's default
   init); norm weights in [0.5, 1.5), biases in [-0.5, 0.5), running means in [-0.2, 0.2) and
   running variances in [0.5, 1.5) (not PyTorch's 0 and 1, so that the update is tested on values
   that are not round). Saved statistics are outputs: left empty here. */
static void ex_fill(const fc3d_plan& p, uint64_t seed, ex_host* h) {
    const fc3d_conv_desc& c = p.desc.conv;
    ex_rng r(seed);
    const double fan_in = (double)(c.out_channels / c.groups) * c.kernel[0] * c.kernel[1] * c.kernel[2];
    const double bound = 1.0 / std::sqrt(fan_in);
    h->x.resize((size_t)p.x_elements);
    for (float& v : h->x) v = r.uniform(0.0, 1.0);
    h->w.resize((size_t)p.weight_elements);
    for (float& v : h->w) v = r.uniform(-bound, bound);
    h->b.assign(c.bias ? (size_t)c.out_channels : 0, 0.0f);
    for (float& v : h->b) v = r.uniform(-bound, bound);
    for (int i = 0; i < p.desc.num_ops; i++) {
        int64_t n[EX_T_COUNT];
        ex_op_tensor_sizes(p, i, n);
        static const double lo[EX_T_COUNT] = {0.5, -0.5, -0.2, 0.5, 0, 0}, hi[EX_T_COUNT] = {1.5, 0.5, 0.2, 1.5, 0, 0};
        for (int t = 0; t < EX_T_COUNT; t++) {
            h->op[i][t].assign((size_t)n[t], 0.0f);
            if (t < EX_T_SMEAN)
                for (float& v : h->op[i][t]) v = r.uniform(lo[t], hi[t]);
        }
    }
}

/* ---- device buffers --------------------------------------------------------------------------- */
struct ex_device {
    void *x = nullptr, *w = nullptr, *b = nullptr, *y = nullptr, *ws = nullptr;
    float* op[FC3D_MAX_OPS][EX_T_COUNT] = {};
    size_t y_bytes = 0;
};

static size_t ex_elem_bytes(const fc3d_plan& p) { return p.desc.dtype == FC3D_DTYPE_F32 ? 4 : 2; }

template <typename T>
static T* ex_to_device(const std::vector<float>& h) {
    if (h.empty()) return nullptr;
    void* d = nullptr;
    CUDA_OK(cudaMalloc(&d, h.size() * sizeof(float)));
    CUDA_OK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    return (T*)d;
}

/* Device copies of h, plus y and the workspace the plan asks for. */
static ex_device ex_upload(const fc3d_plan& p, const ex_host& h) {
    if (p.desc.dtype != FC3D_DTYPE_F32 || p.desc.layout != FC3D_LAYOUT_NCDHW) {
        fprintf(stderr, "the examples keep tensors as f32 NCDHW\n");
        exit(1);
    }
    ex_device d;
    d.x = ex_to_device<void>(h.x);
    d.w = ex_to_device<void>(h.w);
    d.b = ex_to_device<void>(h.b);
    for (int i = 0; i < p.desc.num_ops; i++)
        for (int t = 0; t < EX_T_COUNT; t++) d.op[i][t] = ex_to_device<float>(h.op[i][t]);
    d.y_bytes = (size_t)p.y_elements * ex_elem_bytes(p);
    CUDA_OK(cudaMalloc(&d.y, d.y_bytes));
    if (p.workspace_bytes) CUDA_OK(cudaMalloc(&d.ws, p.workspace_bytes));
    return d;
}

static fc3d_run_args ex_args(const fc3d_plan& p, const ex_device& d, cudaStream_t stream) {
    fc3d_run_args a;
    memset(&a, 0, sizeof a);
    a.x = d.x;
    a.weight = d.w;
    a.bias = d.b;
    a.y = d.y;
    for (int i = 0; i < p.desc.num_ops; i++) {
        a.ops[i].weight = d.op[i][EX_T_WEIGHT];
        a.ops[i].bias = d.op[i][EX_T_BIAS];
        a.ops[i].running_mean = d.op[i][EX_T_RMEAN];
        a.ops[i].running_var = d.op[i][EX_T_RVAR];
        a.ops[i].save_mean = d.op[i][EX_T_SMEAN];
        a.ops[i].save_invstd = d.op[i][EX_T_SINVSTD];
    }
    a.workspace = d.ws;
    a.workspace_bytes = p.workspace_bytes;
    a.stream = (void*)stream;
    return a;
}

static void ex_free(ex_device* d) {
    CUDA_OK(cudaFree(d->x));
    CUDA_OK(cudaFree(d->w));
    CUDA_OK(cudaFree(d->b));
    CUDA_OK(cudaFree(d->y));
    CUDA_OK(cudaFree(d->ws));
    for (auto& op : d->op)
        for (float* t : op) CUDA_OK(cudaFree(t));
    *d = ex_device();
}

/* fc3d_plan_run; prints the library's message and exits 1 on an error. */
static void ex_run(const fc3d_plan& p, const fc3d_run_args& a) {
    fc3d_message msg;
    if (fc3d_plan_run(&p, &a, &msg) != FC3D_SUCCESS) {
        fprintf(stderr, "fc3d_plan_run: %s\n", msg.text);
        exit(1);
    }
}

/* ---- verification ----------------------------------------------------------------------------- */
/* ||a - ref|| / ||ref||, infinite when anything is NaN or infinite (a poisoned element that the run
   did not write); the absolute norm when ref is all zeros. */
static double ex_rel_l2(const std::vector<double>& a, const std::vector<double>& ref) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < ref.size(); i++) {
        if (!std::isfinite(a[i]) || !std::isfinite(ref[i])) return INFINITY;
        num += (a[i] - ref[i]) * (a[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return den > 0.0 ? std::sqrt(num / den) : std::sqrt(num);
}

static std::vector<double> ex_download(const void* d, size_t n) {
    std::vector<float> h(n);
    if (n) CUDA_OK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return std::vector<double>(h.begin(), h.end());
}

struct ex_check_result {
    int pass;
    double err;       /* the largest of the errors below */
    double err_y;
    double err_stats; /* largest over the op statistics the run writes; 0 when there are none */
};

/* Runs desc (forced to FP32 math) on the GPU and through the CPU reference, and compares. */
static ex_check_result ex_check(fc3d_plan_desc desc, uint64_t seed) {
    desc.math = FC3D_MATH_FP32;
    const fc3d_plan p = ex_plan(desc);
    const fc3d_conv_desc& c = desc.conv;
    ex_host h;
    ex_fill(p, seed, &h);
    ex_device d = ex_upload(p, h);

    CUDA_OK(cudaMemset(d.y, 0xff, d.y_bytes)); /* NaN: an element the run does not write fails */
    for (int i = 0; i < desc.num_ops; i++)
        for (int t = EX_T_SMEAN; t < EX_T_COUNT; t++)
            if (d.op[i][t]) CUDA_OK(cudaMemset(d.op[i][t], 0xff, h.op[i][t].size() * sizeof(float)));
    ex_run(p, ex_args(p, d, 0));
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<double> gpu_y = ex_download(d.y, (size_t)p.y_elements);

    /* The reference starts from the same float values, widened to double. */
    std::vector<double> x(h.x.begin(), h.x.end()), w(h.w.begin(), h.w.end()), b(h.b.begin(), h.b.end());
    std::vector<double> t[FC3D_MAX_OPS][EX_T_COUNT];
    fc3d_cpu_op_tensors ops[FC3D_MAX_OPS];
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < desc.num_ops; i++) {
        for (int k = 0; k < EX_T_COUNT; k++) t[i][k].assign(h.op[i][k].begin(), h.op[i][k].end());
        double* ptr[EX_T_COUNT];
        for (int k = 0; k < EX_T_COUNT; k++) ptr[k] = t[i][k].empty() ? nullptr : t[i][k].data();
        ops[i].weight = ptr[EX_T_WEIGHT];
        ops[i].bias = ptr[EX_T_BIAS];
        ops[i].running_mean = ptr[EX_T_RMEAN];
        ops[i].running_var = ptr[EX_T_RVAR];
        ops[i].save_mean = ptr[EX_T_SMEAN];
        ops[i].save_invstd = ptr[EX_T_SINVSTD];
    }
    std::vector<double> ref_y((size_t)p.y_elements);
    if (fc3d_cpu_run(&desc, x.data(), w.data(), c.bias ? b.data() : nullptr, ops, ref_y.data()) != 0) {
        fprintf(stderr, "fc3d_cpu_run refused the desc\n");
        exit(1);
    }

    ex_check_result r;
    r.err_y = ex_rel_l2(gpu_y, ref_y);
    r.err_stats = 0.0;
    int stats = 0;
    for (int i = 0; i < desc.num_ops; i++)
        for (int k = EX_T_RMEAN; k < EX_T_COUNT; k++)
            if (!t[i][k].empty()) {
                const double e = ex_rel_l2(ex_download(d.op[i][k], t[i][k].size()), t[i][k]);
                printf("  ops[%d].%s rel_l2 %.3e\n", i, ex_tensor_name[k], e);
                stats++;
                if (!(e <= r.err_stats)) r.err_stats = e; /* NaN sticks */
            }
    r.err = std::max(r.err_y, r.err_stats);
    r.pass = r.err <= EX_BOUND;
    char stat_text[64] = "no op statistics";
    if (stats) snprintf(stat_text, sizeof stat_text, "op statistics %.3e", r.err_stats);
    printf("verify (reduced, fp32): x %dx%dx%dx%dx%d -> y %lldx%lldx%lldx%lldx%lld: rel_l2 y %.3e, %s (bound %.0e): "
           "%s\n",
           c.batch, c.in_channels, c.in_size[0], c.in_size[1], c.in_size[2], (long long)p.y_dims[0],
           (long long)p.y_dims[1], (long long)p.y_dims[2], (long long)p.y_dims[3], (long long)p.y_dims[4], r.err_y,
           stat_text, EX_BOUND, r.pass ? "PASS" : "FAIL");
    ex_free(&d);
    return r;
}

/* ---- timing ----------------------------------------------------------------------------------- */
static __global__ void ex_count_nonfinite(const float* y, int64_t n, unsigned long long* count) {
    unsigned long long mine = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        if (!isfinite(y[i])) mine++;
    if (mine) atomicAdd(count, mine);
}

/* Elements of the f32 tensor y that are NaN or infinite. */
static unsigned long long ex_nonfinite(const void* y, int64_t n) {
    unsigned long long* d = nullptr;
    unsigned long long h = 0;
    CUDA_OK(cudaMalloc((void**)&d, sizeof h));
    CUDA_OK(cudaMemset(d, 0, sizeof h));
    ex_count_nonfinite<<<1024, 256>>>((const float*)y, n, d);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(d));
    return h;
}

/* Median milliseconds of `runs` runs of a on its stream, each after an L2 flush. */
static double ex_time_ms(const fc3d_plan& p, const fc3d_run_args& a, int runs) {
    const cudaStream_t s = (cudaStream_t)a.stream;
    void* scratch = nullptr;
    cudaEvent_t start, stop;
    std::vector<double> ms;
    CUDA_OK(cudaMalloc(&scratch, EX_FLUSH_BYTES));
    CUDA_OK(cudaEventCreate(&start));
    CUDA_OK(cudaEventCreate(&stop));
    for (int i = 0; i < runs; i++) {
        float t = 0.0f;
        CUDA_OK(cudaMemsetAsync(scratch, i & 0xff, EX_FLUSH_BYTES, s));
        CUDA_OK(cudaEventRecord(start, s));
        ex_run(p, a);
        CUDA_OK(cudaEventRecord(stop, s));
        CUDA_OK(cudaEventSynchronize(stop));
        CUDA_OK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    CUDA_OK(cudaEventDestroy(start));
    CUDA_OK(cudaEventDestroy(stop));
    CUDA_OK(cudaFree(scratch));
    std::sort(ms.begin(), ms.end());
    return runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
}

/* ---- the whole example ------------------------------------------------------------------------ */
static const char* ex_math_name(fc3d_math m) {
    return m == FC3D_MATH_TF32 ? "tf32" : m == FC3D_MATH_HALF ? "half" : "fp32";
}

[[maybe_unused]] static int ex_main(int argc, char** argv, const char* id, fc3d_plan_desc reduced,
                                    fc3d_plan_desc full) {
    const ex_options o = ex_parse(argc, argv);
    reduced.strategy = full.strategy = o.strategy;
    reduced.stats_plan = full.stats_plan = o.stats_plan;
    int dev = 0;
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaGetDeviceProperties(&prop, dev));
    printf("== %s on %s (sm_%d%d)\n", id, prop.name, prop.major, prop.minor);

    const ex_check_result v = ex_check(reduced, o.seed);
    int pass = v.pass;
    double ms = NAN, tflops = NAN, gbs = NAN;
    full.math = o.math;
    const fc3d_plan p = ex_plan(full);

    if (!o.check_only) {
        char text[4096];
        fc3d_plan_describe(&p, text, sizeof text);
        printf("full size plan:\n%s", text);
        ex_host h;
        ex_fill(p, o.seed + 1, &h);
        ex_device d = ex_upload(p, h);
        cudaStream_t s;
        CUDA_OK(cudaStreamCreate(&s));
        const fc3d_run_args a = ex_args(p, d, s);
        CUDA_OK(cudaMemset(d.y, 0xff, d.y_bytes));
        ex_run(p, a); /* warm-up: module load, first-touch of every buffer */
        CUDA_OK(cudaStreamSynchronize(s));
        const unsigned long long bad = ex_nonfinite(d.y, p.y_elements);
        if (bad) {
            printf("full size: %llu of %lld elements of y are NaN or infinite: FAIL\n", bad, (long long)p.y_elements);
            pass = 0;
        }
        if (o.digest) {
            std::vector<unsigned char> hy(d.y_bytes);
            CUDA_OK(cudaMemcpy(hy.data(), d.y, d.y_bytes, cudaMemcpyDeviceToHost));
            uint64_t fnv = 14695981039346656037ull;
            for (unsigned char b : hy) fnv = (fnv ^ b) * 1099511628211ull;
            printf("full size: y digest %016llx (%zu bytes, FNV-1a)\n", (unsigned long long)fnv, hy.size());
        }
        ms = ex_time_ms(p, a, o.runs);
        const double bytes =
            (double)(p.x_elements + p.weight_elements + (p.desc.conv.bias ? p.desc.conv.out_channels : 0) +
                     p.y_elements) * (double)ex_elem_bytes(p);
        tflops = p.flops / (ms * 1e-3) / 1e12;
        gbs = bytes / (ms * 1e-3) / 1e9;
        CUDA_OK(cudaStreamDestroy(s));
        ex_free(&d);
    }

    printf("%s: verified %s (rel_l2 %.2e, bound %.0e)", id, pass ? "PASS" : "FAIL", v.err, EX_BOUND);
    if (!o.check_only)
        printf(", full size %s: median %.3f ms of %d, %.2f TFLOP/s, %.1f GB/s", ex_math_name(p.desc.math), ms,
               o.runs, tflops, gbs);
    printf(", %d pass%s, workspace %zu bytes\n", p.num_passes, p.num_passes == 1 ? "" : "es", p.workspace_bytes);
    if (o.check_only)
        printf("RESULT %s %s err=%.3e ms=- tflops=- gbs=-", id, pass ? "PASS" : "FAIL", v.err);
    else
        printf("RESULT %s %s err=%.3e ms=%.4f tflops=%.4f gbs=%.2f", id, pass ? "PASS" : "FAIL", v.err, ms, tflops,
               gbs);
    printf(" passes=%d ws=%zu math=%s\n", p.num_passes, p.workspace_bytes, ex_math_name(p.desc.math));
    if (o.json) {
        char t[4][32] = {"null", "null", "null", "null"};
        if (std::isfinite(v.err)) snprintf(t[3], sizeof t[3], "%.3e", v.err);
        if (!o.check_only) {
            snprintf(t[0], sizeof t[0], "%.4f", ms);
            snprintf(t[1], sizeof t[1], "%.4f", tflops);
            snprintf(t[2], sizeof t[2], "%.2f", gbs);
        }
        printf("{\"id\": \"%s\", \"verified\": %s, \"err\": %s, \"bound\": %.0e, \"ms\": %s, \"tflops\": %s, "
               "\"gbs\": %s, \"runs\": %d, \"passes\": %d, \"workspace_bytes\": %zu, \"math\": \"%s\", "
               "\"device\": \"%s\"}\n",
               id, pass ? "true" : "false", t[3], EX_BOUND, t[0], t[1], t[2], o.runs, p.num_passes,
               p.workspace_bytes, ex_math_name(p.desc.math), prop.name);
    }
    return pass ? 0 : 1;
}

#endif /* FC3D_EXAMPLE_COMMON_H */
