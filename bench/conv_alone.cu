// conv_alone.cu - the convolution alone (a plan with no ops) per math mode, timed, and checked
// against the direct engine. No PyTorch needed: the quick loop for work on the implicit-GEMM engine.
//
// Build: make build/conv_alone   (or: nvcc -std=c++17 -O2 -I. -arch=sm_90 bench/conv_alone.cu -o build/conv_alone)
// Run:   build/conv_alone [RUNS [IDS [MATHS [CHECK]]]]
//          RUNS   timed runs, median reported (default 20)
//          IDS    comma-separated: L2/15,L2/77,L2/34,L2/61,L1/77 (PROBLEMS.md full sizes, NCDHW, f32)
//                 and S1..S6 (small odd-sized cases, both layouts; default: the five workloads)
//          MATHS  comma-separated: tf32,fp32,half (default all three)
//          CHECK  1 (default): compare each output with the direct engine's FP32 output (relative L2)
// Timing: CUDA events around fc3d_plan_run alone, one warm-up run, a 256 MiB buffer written before
// every timed run (flushes the 50 MB L2). TFLOP/s = plan.flops / time. Inputs are uniform [-1, 1)
// from a hash of the index; outputs are poisoned with NaN bytes before the checked run.
// Prints one line per (workload, math): id, layout, math, median ms, TFLOP/s, rel-L2 against direct.
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CA_CHECK(call)                                                                             \
    do {                                                                                           \
        const cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct ca_case {
    const char* id;
    int n, cin, cout, d, h, w, k, s, p, dil, bias;
    fc3d_layout layout;
};
static const ca_case ca_cases[] = {
    {"L2/15", 16, 16, 32, 16, 32, 32, 3, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/77", 16, 64, 128, 16, 32, 32, 5, 1, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/34", 32, 32, 64, 16, 32, 32, 4, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/61", 16, 64, 128, 32, 32, 32, 3, 1, 0, 1, 0, FC3D_LAYOUT_NCDHW},
    {"L1/77", 16, 32, 64, 16, 32, 32, 3, 2, 1, 2, 0, FC3D_LAYOUT_NCDHW},
    {"S1", 2, 24, 40, 5, 9, 11, 3, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S2", 2, 24, 40, 5, 9, 11, 3, 2, 1, 1, 1, FC3D_LAYOUT_NDHWC},
    {"S3", 2, 72, 136, 4, 7, 9, 4, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S4", 2, 72, 136, 4, 7, 9, 4, 2, 1, 1, 1, FC3D_LAYOUT_NDHWC},
    {"S5", 3, 40, 20, 6, 5, 7, 3, 1, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S6", 3, 40, 20, 6, 5, 7, 3, 1, 0, 1, 1, FC3D_LAYOUT_NDHWC},
};

static __global__ void ca_fill(float* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t z = (uint32_t)i * 2654435761u ^ seed;
        z ^= z >> 15; z *= 2246822519u; z ^= z >> 13; z *= 3266489917u; z ^= z >> 16;
        p[i] = (float)(z >> 8) * (1.0f / 16777216.0f) * 2.f - 1.f;
    }
}

static bool ca_listed(const char* list, const char* name) { /* exact item of a comma-separated list */
    const size_t n = strlen(name);
    for (const char* q = list; (q = strstr(q, name)) != nullptr; q += n)
        if ((q == list || q[-1] == ',') && (q[n] == 0 || q[n] == ',')) return true;
    return false;
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    const char* ids = argc > 2 ? argv[2] : "L2/15,L2/77,L2/34,L2/61,L1/77";
    const char* maths = argc > 3 ? argv[3] : "tf32,fp32,half";
    const int check = argc > 4 ? atoi(argv[4]) : 1;
    if (runs < 1) {
        fprintf(stderr, "usage: %s [RUNS [IDS [MATHS [CHECK]]]]\n", argv[0]);
        return 2;
    }
    const size_t flush_bytes = (size_t)256 << 20;
    void* flush = nullptr;
    CA_CHECK(cudaMalloc(&flush, flush_bytes));
    cudaEvent_t e0, e1;
    CA_CHECK(cudaEventCreate(&e0));
    CA_CHECK(cudaEventCreate(&e1));
    static const char* const math_names[3] = {"tf32", "fp32", "half"};
    static const fc3d_math math_modes[3] = {FC3D_MATH_TF32, FC3D_MATH_FP32, FC3D_MATH_HALF};
    int status = 0;
    void* ws = nullptr; /* the workspace of the plan being timed */
    for (const ca_case& c : ca_cases) {
        if (!ca_listed(ids, c.id)) continue;
        fc3d_plan_desc d;
        memset(&d, 0, sizeof d);
        d.conv.batch = c.n; d.conv.in_channels = c.cin; d.conv.out_channels = c.cout;
        d.conv.in_size[0] = c.d; d.conv.in_size[1] = c.h; d.conv.in_size[2] = c.w;
        for (int i = 0; i < 3; ++i) {
            d.conv.kernel[i] = c.k; d.conv.stride[i] = c.s; d.conv.padding[i] = c.p; d.conv.dilation[i] = c.dil;
        }
        d.conv.bias = c.bias;
        d.layout = c.layout;
        d.engine = FC3D_ENGINE_DIRECT;
        d.math = FC3D_MATH_FP32;
        fc3d_plan ref;
        if (fc3d_plan_init(&ref, &d) != FC3D_SUCCESS) {
            fprintf(stderr, "%s: %s\n", c.id, ref.message);
            return 1;
        }
        const size_t nx = (size_t)c.n * c.cin * c.d * c.h * c.w, nw = (size_t)c.cin * c.cout * c.k * c.k * c.k;
        const size_t ny = (size_t)ref.y_elements;
        float *x = nullptr, *w = nullptr, *b = nullptr, *y = nullptr, *yr = nullptr;
        CA_CHECK(cudaMalloc(&x, nx * 4)); CA_CHECK(cudaMalloc(&w, nw * 4)); CA_CHECK(cudaMalloc(&b, c.cout * 4));
        CA_CHECK(cudaMalloc(&y, ny * 4)); CA_CHECK(cudaMalloc(&yr, ny * 4));
        ca_fill<<<1024, 256>>>(x, nx, 1);
        ca_fill<<<1024, 256>>>(w, nw, 2);
        ca_fill<<<1, 256>>>(b, c.cout, 3);
        CA_CHECK(cudaGetLastError());
        fc3d_run_args a;
        memset(&a, 0, sizeof a);
        a.x = x; a.weight = w; a.bias = c.bias ? b : nullptr;
        std::vector<float> hr, hy;
        if (check) {
            a.y = yr;
            if (fc3d_plan_run(&ref, &a, nullptr) != FC3D_SUCCESS) { fprintf(stderr, "%s: direct run failed\n", c.id); return 1; }
            CA_CHECK(cudaDeviceSynchronize());
            hr.resize(ny); hy.resize(ny);
            CA_CHECK(cudaMemcpy(hr.data(), yr, ny * 4, cudaMemcpyDeviceToHost));
        }
        for (int mi = 0; mi < 3; ++mi) {
            if (!ca_listed(maths, math_names[mi])) continue;
            d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
            d.math = math_modes[mi];
            fc3d_plan p;
            if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS) { fprintf(stderr, "%s: %s\n", c.id, p.message); return 1; }
            CA_CHECK(cudaFree(ws));
            ws = nullptr;
            if (p.workspace_bytes) CA_CHECK(cudaMalloc(&ws, p.workspace_bytes));
            a.y = y; a.workspace = ws; a.workspace_bytes = p.workspace_bytes;
            CA_CHECK(cudaMemset(y, 0xff, ny * 4)); /* NaN */
            fc3d_message msg;
            if (fc3d_plan_run(&p, &a, &msg) != FC3D_SUCCESS) { fprintf(stderr, "%s: %s\n", c.id, msg.text); return 1; }
            CA_CHECK(cudaDeviceSynchronize());
            double err = -1.0;
            if (check) {
                CA_CHECK(cudaMemcpy(hy.data(), y, ny * 4, cudaMemcpyDeviceToHost));
                double num = 0.0, den = 0.0;
                for (size_t i = 0; i < ny; ++i) {
                    const double dd = (double)hy[i] - hr[i];
                    num += dd * dd; den += (double)hr[i] * hr[i];
                }
                err = std::isfinite(num) && den > 0.0 ? sqrt(num / den) : INFINITY;
                const double bound = mi == 1 ? 1e-5 : 2e-3; /* FP32 (3xTF32); TF32 and HALF operands */
                if (!(err <= bound)) status = 1;
            }
            std::vector<float> t;
            for (int r = 0; r < runs; ++r) {
                CA_CHECK(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
                CA_CHECK(cudaEventRecord(e0));
                if (fc3d_plan_run(&p, &a, nullptr) != FC3D_SUCCESS) { fprintf(stderr, "%s: run failed\n", c.id); return 1; }
                CA_CHECK(cudaEventRecord(e1));
                CA_CHECK(cudaEventSynchronize(e1));
                float ms = 0.f;
                CA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            const float med = t[t.size() / 2];
            printf("%-6s %s %-5s %8.3f ms %7.1f TFLOP/s  rel-L2 vs direct %s%.2e\n", c.id,
                   c.layout == FC3D_LAYOUT_NCDHW ? "ncdhw" : "ndhwc", math_names[mi], med, p.flops / med / 1e9,
                   check ? "" : "(unchecked) ", err);
        }
        CA_CHECK(cudaFree(x)); CA_CHECK(cudaFree(w)); CA_CHECK(cudaFree(b));
        CA_CHECK(cudaFree(y)); CA_CHECK(cudaFree(yr));
    }
    CA_CHECK(cudaFree(ws));
    CA_CHECK(cudaFree(flush));
    if (status) fprintf(stderr, "a checked output exceeded its bound (fp32 1e-5, tf32/half 2e-3)\n");
    return status;
}
