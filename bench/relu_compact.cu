// Standalone measurement (not the library): what L2/61's GroupNorm read-back would cost if its
// intermediate (the convolution after the ReLU, about half exact zeros) were stored compacted.
//
// y: 16 x 128 x (34 x 34 x 34) floats, values with a random sign and the ReLU applied (exact +0 for
// the negatives). Segments: 256 consecutive spatial positions of one (n, c) (the haloed tiles' runs
// of 256 virtual rows on L2/61's shape), 154 a (n, c), the last one partial. A compacted segment
// keeps its nonzero values, in row order i-major (row 32 i + lane), at the start of its own place in
// y, and 8 mask words (bit lane of word i: row 32 i + lane is nonzero) in a separate buffer.
//
// Timed, each after an L2 flush, median of RUNS (CUDA events):
//   dense    the read-back as the library runs it: y read, normalised per (n, group), written in place
//            (16-byte loads and stores)
//   compact  the compaction itself, from a dense copy (a stand-in for what the convolution's
//            epilogue would write instead of y: the compacted values and the masks)
//   expand   the read-back from the compacted form: masks and nonzero values read, every value
//            normalised and written in place (a warp a segment, its values read before it writes)
//   expand16 the same, a lane's eight rows contiguous and stored as two 16-byte stores
//   dense_gs the dense read-back on a fixed grid, grid-stride (as the library's streamed pass)
// The expanded output is compared bit for bit with the dense one.
//
// Build: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a bench/relu_compact.cu -o build/relu_compact
// Run:   build/relu_compact [RUNS]
#include <cuda_runtime.h>
#include "standalone.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>


static const int N = 16, C = 128, G = 8, S = 34 * 34 * 34, SEG = 256;
static const int NSEG = (S + SEG - 1) / SEG;

// a hash of the index: the sign and size of each value
__global__ void fill(float* y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 2654435761u;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        const float v = ((int)(h & 0xffffff) - 0x800000) * (1.0f / 0x800000);
        y[i] = v > 0.f ? v : 0.f;
    }
}

__global__ void flush(float* b, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        b[i] = (float)i;
}

// (n, c) -> (mean, 1/std) of its group, and the channel's affine
struct Norm {
    const float2* stat; // per (n, group)
    const float* gamma;
    const float* beta;
};

// the (n, c) slab's normalisation as one FMA: v a + b
__device__ __forceinline__ void affine_of(const Norm& q, long long nc, float* a, float* b) {
    const float2 st = q.stat[(int)(nc / C) * G + (int)(nc % C) / (C / G)];
    *a = st.y * q.gamma[nc % C];
    *b = q.beta[nc % C] - st.x * *a;
}

__device__ __forceinline__ float4 norm4(float4 v, float a, float b) {
    return make_float4(fmaf(v.x, a, b), fmaf(v.y, a, b), fmaf(v.z, a, b), fmaf(v.w, a, b));
}

// a warp's segment: its place in y, its mask words (lane i < 8 holds word i), its normalisation
struct Seg {
    float* o;
    int s0, lane;
    uint32_t mw;
    float a, b;
};

__device__ __forceinline__ bool seg_of(float* y, const uint32_t* mask, const Norm& q, Seg* g) {
    const long long seg = blockIdx.x * 8LL + threadIdx.x / 32;
    if (seg >= (long long)N * C * NSEG) return false;
    g->lane = threadIdx.x % 32;
    const long long nc = seg / NSEG;
    g->s0 = (int)(seg % NSEG) * SEG;
    g->o = y + nc * S + g->s0;
    g->mw = g->lane < 8 ? mask[seg * 8 + g->lane] : 0u;
    affine_of(q, nc, &g->a, &g->b);
    return true;
}

// dense: a block per (n, c) slab chunk, 16-byte accesses where the slab allows (S is a multiple of 4)
__global__ void __launch_bounds__(256) dense(float* y, Norm q) {
    const int nc = blockIdx.y;
    float4* p = reinterpret_cast<float4*>(y + (long long)nc * S);
    const int n4 = S / 4;
    float a, b;
    affine_of(q, nc, &a, &b);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) p[i] = norm4(p[i], a, b);
}

// compact: a warp a segment, from a dense source into y's own places and the masks
__global__ void __launch_bounds__(256) compact(const float* src, float* y, uint32_t* mask) {
    const long long seg = blockIdx.x * 8LL + threadIdx.x / 32;
    if (seg >= (long long)N * C * NSEG) return;
    const int lane = threadIdx.x % 32;
    const long long nc = seg / NSEG;
    const int t = (int)(seg % NSEG), s0 = t * SEG;
    const float* a = src + nc * S + s0;
    float* o = y + nc * S + s0;
    const unsigned lt = (1u << lane) - 1;
    int base = 0;
#pragma unroll
    for (int i = 0; i < SEG / 32; i++) {
        const int r = 32 * i + lane;
        const float v = s0 + r < S ? a[r] : 0.f;
        const bool nz = __float_as_uint(v) != 0u;
        const unsigned m = __ballot_sync(0xffffffffu, nz);
        if (nz) o[base + __popc(m & lt)] = v;
        if (lane == i) mask[seg * 8 + i] = m;
        base += __popc(m);
    }
}

// expand: a warp a segment; the nonzero values read first (they sit where the segment's outputs go)
__global__ void __launch_bounds__(256) expand(float* y, const uint32_t* mask, Norm q) {
    Seg g;
    if (!seg_of(y, mask, q, &g)) return;
    const int lane = g.lane, s0 = g.s0;
    float* const o = g.o;
    const unsigned lt = (1u << lane) - 1;
    float v[SEG / 32];
    int base = 0;
#pragma unroll
    for (int i = 0; i < SEG / 32; i++) {
        const unsigned m = __shfl_sync(0xffffffffu, g.mw, i);
        v[i] = (m >> lane) & 1u ? o[base + __popc(m & lt)] : 0.f;
        base += __popc(m);
    }
    __syncwarp();
#pragma unroll
    for (int i = 0; i < SEG / 32; i++) {
        const int r = 32 * i + lane;
        if (s0 + r < S) o[r] = fmaf(v[i], g.a, g.b);
    }
}

// expand16: the same read-back with a lane's eight rows contiguous (8 lane .. 8 lane + 7: the
// compacted order is row order in both forms), its place among the segment's values from the mask
// words' popcounts, its two 16-byte stores
__global__ void __launch_bounds__(256) expand16(float* y, const uint32_t* mask, Norm q) {
    Seg g;
    if (!seg_of(y, mask, q, &g)) return;
    const int lane = g.lane, s0 = g.s0;
    float* const o = g.o;
    const int w = lane / 4, sh = 8 * (lane % 4);
    int base = 0;
    uint32_t mine = 0;
#pragma unroll
    for (int i = 0; i < SEG / 32; i++) {
        const uint32_t m = __shfl_sync(0xffffffffu, g.mw, i);
        if (i < w) base += __popc(m);
        if (i == w) { base += __popc(m & ((1u << sh) - 1u)); mine = (m >> sh) & 0xffu; }
    }
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; k++) v[k] = (mine >> k) & 1u ? o[base + __popc(mine & ((1u << k) - 1u))] : 0.f;
    __syncwarp();
    const int r = 8 * lane;
    if (s0 + r + 4 <= S) *reinterpret_cast<float4*>(o + r) = norm4(make_float4(v[0], v[1], v[2], v[3]), g.a, g.b);
    if (s0 + r + 8 <= S) *reinterpret_cast<float4*>(o + r + 4) = norm4(make_float4(v[4], v[5], v[6], v[7]), g.a, g.b);
}

// dense, grid-stride over the whole tensor (a fixed grid, as the library's streamed pass runs)
__global__ void __launch_bounds__(256) dense_gs(float* y, Norm q) {
    float4* p = reinterpret_cast<float4*>(y);
    const long long n4 = (long long)N * C * S / 4;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        float a, b;
        affine_of(q, i * 4 / S, &a, &b);
        p[i] = norm4(p[i], a, b);
    }
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    const long long n = (long long)N * C * S, nseg = (long long)N * C * NSEG;
    const long long fl = 64LL << 20; // 256 MiB flush
    float *y, *src, *ref, *fb;
    uint32_t* mask;
    float2* stat;
    float *gamma, *beta;
    CK(cudaMalloc(&y, n * 4));
    CK(cudaMalloc(&src, n * 4));
    CK(cudaMalloc(&ref, n * 4));
    CK(cudaMalloc(&fb, fl * 4));
    CK(cudaMalloc(&mask, nseg * 8 * 4));
    CK(cudaMalloc(&stat, N * G * sizeof(float2)));
    CK(cudaMalloc(&gamma, C * 4));
    CK(cudaMalloc(&beta, C * 4));
    {
        std::vector<float2> hs(N * G);
        for (int i = 0; i < N * G; i++) hs[i] = make_float2(0.25f + 0.001f * i, 2.5f - 0.003f * i);
        std::vector<float> hg(C), hb(C);
        for (int c = 0; c < C; c++) { hg[c] = 1.0f + 0.01f * c; hb[c] = 0.02f * c - 1.0f; }
        CK(cudaMemcpy(stat, hs.data(), hs.size() * sizeof(float2), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(gamma, hg.data(), C * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(beta, hb.data(), C * 4, cudaMemcpyHostToDevice));
    }
    const Norm q = {stat, gamma, beta};
    fill<<<132 * 16, 256>>>(src, n);
    CK(cudaGetLastError());
    // the dense reference output
    CK(cudaMemcpy(ref, src, n * 4, cudaMemcpyDeviceToDevice));
    dense<<<dim3(8, N * C), 256>>>(ref, q);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> td, tc, te, t16, tg;
    float* y16;
    CK(cudaMalloc(&y16, n * 4));
    const unsigned sgrid = (unsigned)((nseg + 7) / 8);
    // one timed launch after an L2 flush; kept past the two warm-up rounds
    auto timed = [&](std::vector<float>& t, int r, auto launch) {
        float ms;
        flush<<<132 * 8, 256>>>(fb, fl);
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        CK(cudaGetLastError());
        if (r >= 2) t.push_back(ms);
    };
    for (int r = 0; r < runs + 2; r++) {
        CK(cudaMemcpy(y, src, n * 4, cudaMemcpyDeviceToDevice));
        timed(td, r, [&] { dense<<<dim3(8, N * C), 256>>>(y, q); });
        CK(cudaMemset(y, 0xff, n * 4)); // poison: every output must be written by the expansion
        timed(tc, r, [&] { compact<<<sgrid, 256>>>(src, y, mask); });
        timed(te, r, [&] { expand<<<sgrid, 256>>>(y, mask, q); });
        // the 16-byte expansion from the same compacted form (compacted again first)
        CK(cudaMemset(y, 0xff, n * 4));
        compact<<<sgrid, 256>>>(src, y, mask);
        timed(t16, r, [&] { expand16<<<sgrid, 256>>>(y, mask, q); });
        if (r == runs + 1) CK(cudaMemcpy(y16, y, n * 4, cudaMemcpyDeviceToDevice));
        CK(cudaMemcpy(y, src, n * 4, cudaMemcpyDeviceToDevice));
        timed(tg, r, [&] { dense_gs<<<132 * 8, 256>>>(y, q); });
        if (r == runs + 1) { // expand's output kept for the check
            CK(cudaMemset(y, 0xff, n * 4));
            compact<<<sgrid, 256>>>(src, y, mask);
            expand<<<sgrid, 256>>>(y, mask, q);
        }
    }
    // checks: the expanded output bitwise the dense one; the nonzero count
    std::vector<float> hy(n), hr(n), hsrc(n);
    CK(cudaMemcpy(hy.data(), y, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hr.data(), ref, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hsrc.data(), src, n * 4, cudaMemcpyDeviceToHost));
    long long bad = 0, bad16 = 0, nz = 0;
    for (long long i = 0; i < n; i++) {
        if (memcmp(&hy[i], &hr[i], 4) != 0) bad++;
        if (hsrc[i] != 0.f) nz++;
    }
    CK(cudaMemcpy(hy.data(), y16, n * 4, cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; i++)
        if (memcmp(&hy[i], &hr[i], 4) != 0) bad16++;
    auto med = [](std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    const double mb = n * 4 / 1e6, nzmb = nz * 4 / 1e6, maskmb = nseg * 32 / 1e6;
    printf("y %.1f MB, nonzero %.1f %% (%.1f MB), masks %.1f MB; median of %d runs, L2 flushed\n", mb,
           100.0 * nz / n, nzmb, maskmb, runs);
    printf("dense read-back     %.4f ms (%.1f MB moved, %.0f GB/s)\n", med(td), 2 * mb, 2 * mb / med(td));
    printf("compaction          %.4f ms (%.1f MB read, %.1f MB written)\n", med(tc), mb, nzmb + maskmb);
    printf("compacted read-back %.4f ms (%.1f MB moved, %.0f GB/s)\n", med(te), nzmb + maskmb + mb,
           (nzmb + maskmb + mb) / med(te));
    printf("compacted read-back, 16-byte stores %.4f ms (%.0f GB/s)\n", med(t16), (nzmb + maskmb + mb) / med(t16));
    printf("dense read-back, grid-stride %.4f ms (%.0f GB/s)\n", med(tg), 2 * mb / med(tg));
    printf("expanded outputs against the dense one: %lld and %lld of %lld values differ bitwise: %s\n", bad, bad16, n,
           bad || bad16 ? "FAIL" : "ok");
    return bad || bad16 ? 1 : 0;
}
