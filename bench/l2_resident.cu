// bench/l2_resident.cu - what a GroupNorm read-back costs when the slab it normalises is still in L2.
//
// L2/61's chain stores y (16 samples x 128 channels x 34^3 floats, 20.1 MB a sample) with the
// GroupNorm partials, then a streamed pass reads y back and normalises it in place: 644 MB of DRAM
// traffic, 216 us under ncu, after the convolution has finished. A sample is smaller than the
// H100's 50 MB L2, so a pass that normalised each sample right after its last tile was stored
// would find it in L2. This program measures that bound with stand-ins, no library code: a
// "store" kernel writes a sample's slab (as the GEMM step's epilogue does), a "normalise" kernel
// reads and rewrites it with a per-channel affine map (as the streamed pass does), 16-byte
// accesses, grid-stride, one block of 256 threads per 1/8 SM-wave.
//
//   A  store every sample                                   (the GEMM step's stores alone)
//   B  store every sample, then normalise every sample      (today's plan)
//   C  per sample: store it, normalise it                   (normalised from L2)
//   D  per sample: store it, normalise the one before       (a sample behind: two in L2)
//   F  per sample: store it, an empty launch                (C's and D's launches, no work)
// B - A is the read-back as planned today; C - F and D - F what it would cost from L2.
// Every y is checked against the same values computed on the host (a sample of elements).
//
// Build: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a bench/l2_resident.cu -o build/l2_resident
// Run:   build/l2_resident [runs=20]
#include <algorithm>
#include <functional>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "standalone.h"

static const int N = 16, C = 128;
static const long long DHW = 34LL * 34 * 34, SLAB = C * DHW; /* floats a sample */

__host__ __device__ __forceinline__ float val(long long i) { return (float)((i * 2654435761LL) & 0xffff) * (1.0f / 65536.0f) - 0.25f; }

__global__ void store_k(float4* __restrict__ y, long long n0, long long count4) {
    for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < count4; q += (long long)gridDim.x * blockDim.x) {
        const long long i = n0 * SLAB + 4 * q;
        y[n0 * SLAB / 4 + q] = make_float4(val(i), val(i + 1), val(i + 2), val(i + 3));
    }
}

__global__ void norm_k(float4* __restrict__ y, const float2* __restrict__ ab, long long n0, long long count4) {
    for (long long q = blockIdx.x * (long long)blockDim.x + threadIdx.x; q < count4; q += (long long)gridDim.x * blockDim.x) {
        const long long e = 4 * q, c = e / DHW; /* DHW is a multiple of 4: a quad is one channel's */
        const float2 m = __ldg(&ab[c]);
        float4 v = y[n0 * SLAB / 4 + q];
        v.x = fmaf(v.x, m.x, m.y); v.y = fmaf(v.y, m.x, m.y); v.z = fmaf(v.z, m.x, m.y); v.w = fmaf(v.w, m.x, m.y);
        y[n0 * SLAB / 4 + q] = v;
    }
}

__global__ void empty_k() {}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float* y = nullptr;
    float2* ab = nullptr;
    char* flush = nullptr;
    const size_t ybytes = (size_t)N * SLAB * 4, fbytes = 256u << 20;
    CK(cudaMalloc(&y, ybytes));
    CK(cudaMalloc(&ab, C * sizeof(float2)));
    CK(cudaMalloc(&flush, fbytes));
    std::vector<float2> hab(C);
    for (int c = 0; c < C; c++) hab[c] = make_float2(1.0f + c * 0.01f, -0.5f + c * 0.002f);
    CK(cudaMemcpy(ab, hab.data(), C * sizeof(float2), cudaMemcpyHostToDevice));
    const int grid = sms * 8, block = 256;
    const long long c4 = SLAB / 4;
    auto store = [&](int n) { store_k<<<grid, block>>>((float4*)y, n, c4); };
    auto norm = [&](int n) { norm_k<<<grid, block>>>((float4*)y, ab, n, c4); };
    auto sA = [&]() { for (int n = 0; n < N; n++) store(n); };
    auto sB = [&]() { for (int n = 0; n < N; n++) store(n); for (int n = 0; n < N; n++) norm(n); };
    auto sC = [&]() { for (int n = 0; n < N; n++) { store(n); norm(n); } };
    auto sD = [&]() { for (int n = 0; n < N; n++) { store(n); if (n) norm(n - 1); } norm(N - 1); };
    auto sF = [&]() { for (int n = 0; n < N; n++) { store(n); empty_k<<<1, 32>>>(); } };
    auto check = [&](bool normalised) {
        std::vector<float> h(ybytes / 4);
        CK(cudaMemcpy(h.data(), y, ybytes, cudaMemcpyDeviceToHost));
        long long bad = 0;
        for (long long i = 0; i < (long long)h.size(); i += 997) {
            const long long c = (i % SLAB) / DHW;
            const float want = normalised ? fmaf(val(i), hab[c].x, hab[c].y) : val(i);
            bad += h[i] != want;
        }
        return bad;
    };
    const char* names[5] = {"A store", "B store all, normalise all", "C store n, normalise n", "D store n, normalise n-1",
                            "F store n, empty launch"};
    std::function<void()> fs[5] = {sA, sB, sC, sD, sF};
    const bool normd[5] = {false, true, true, true, false};
    double med[5];
    for (int k = 0; k < 5; k++) {
        med[k] = standalone_median_ms(runs, flush, fbytes, [&] { CK(cudaMemset(y, 0xff, ybytes)); /* poison */ }, fs[k]);
        const long long bad = check(normd[k]);
        printf("%-30s %.4f ms (median of %d)  %s\n", names[k], med[k], runs, bad ? "WRONG" : "checked");
        if (bad) return 1;
    }
    printf("read-back from DRAM (B - A): %.4f ms; from L2 right after the store (C - F): %.4f ms; a sample behind (D - F): %.4f ms\n",
           med[1] - med[0], med[2] - med[4], med[3] - med[4]);
    return 0;
}
