// xgram.cu - what a training BatchNorm's per-channel sum of squares of a transposed convolution
// costs when it is taken from the input alone (no pass over the convolution), measured standalone.
//
// The convolution's output at phase r (o = s q + r per dim) is sum_{ci, t in T(r)} w[ci, c, t]
// x[ci, q + a_t], so
//   sum_{n, o} conv[n, c, o]^2 = sum_r sum_{t, t' in T(r)} sum_{ci, cj} w[ci, c, t] w[cj, c, t'] G
//   G = sum_n sum_{q in Q(r)} x[n, ci, q + a_t] x[n, cj, q + a_t']
// and G is x's correlation at shift a_t' - a_t over a box of input positions. Per dim the box is
// the whole input less a few boundary positions; in 3D, by inclusion-exclusion, the correlation
// over the whole volume (one pass over x for every shift and channel pair) plus correlations over
// boundary faces, edges and corners (a few percent of the volume). The sum over the channel pairs
// and tap pairs is a small contraction. Everything in a fixed order: bitwise deterministic.
// The correlations run on tensor cores (mma.sync m16n8k8, TF32 operands rounded to nearest, each
// box's sums in the MMA's float accumulators, then double); the float64 reference computes the
// convolution itself. A prototype for one shape family: C_in 16, H = W = 32, shifts within +-1,
// boxes that leave out at most the first and the last position per dim (the program says so and
// stops otherwise).
//
// Build and run from the repo root (sm_80 and up):
//   nvcc -std=c++17 -O3 -arch=sm_90 bench/xgram.cu -o build/xgram && build/xgram [runs]
// Switches (the defaults are the measured best; bench/RESULTS.md, fifteenth entry of 2026-11-27):
//   -DXG_RH=rows -DXG_NG=samples -DXG_NBUF=1|2   fixed whole-plane boxes: rows, samples, staging buffers
//   -DXG_SLIDE=0|1 -DXG_SD=planes                whole-plane boxes that slide along d, and their planes
//   -DXG_PAIRS=0|1                               8-byte fragment pairs
//   -DXG_TD=planes -DXG_CMIN=blocks              boundary boxes: planes, column blocks an SM at least
//   -DXG_SHIFT0=0|1                              boundary boxes at the shifts their terms use only
//   -DXG_PREROUNDED=0|1                          x read already rounded to TF32
//   -DXG_FUSED=0|1                               the sliding boxes sum the boundary classes too
// Prints each stage's time (CUDA events, L2 flushed before each run, median) and the relative error
// of the sums of squares and of the variance against a float64 direct computation.
// The shape is L2/15's (bench/RESULTS.md; ../shared/PROBLEMS.md): x (16, 16, 16, 32, 32), C_out 32,
// k 3, s 2, p 1, no bias (a bias adds 2 b S1 + M b^2, linear terms the library has already).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <random>
#include <cuda_runtime.h>
#include "standalone.h"


constexpr int CI = 16;           // input channels (the fragments' blocking assumes 16)
#ifndef XG_RH
#define XG_RH 8
#endif
#ifndef XG_NG
#define XG_NG 4
#endif
#ifndef XG_PREROUNDED
#define XG_PREROUNDED 0 /* 1: the correlations read a copy of x already rounded to TF32 (as a prep pass would write it) */
#endif
#ifndef XG_CMIN
#define XG_CMIN 1
#endif
#ifndef XG_TD
#define XG_TD 4
#endif
#ifndef XG_FUSED
#define XG_FUSED 1 /* 1: the sliding boxes sum the boundary classes too (no boundary boxes) */
#endif
#ifndef XG_SLIDE
#define XG_SLIDE 1 /* 1: the whole-plane term in boxes that slide along d (slide_kernel) */
#endif
#ifndef XG_SD
#define XG_SD 4 /* planes a sliding box */
#endif
#ifndef XG_SHIFT0
#define XG_SHIFT0 1 /* boundary rows only at dh = 0, columns at dw = 0, corner lines at both (what the terms use) */
#endif
#ifndef XG_PAIRS
#define XG_PAIRS 1
#endif
#ifndef XG_NBUF
#define XG_NBUF 1
#endif
constexpr int RH = XG_RH;        // input rows (h) of a whole-plane box
static_assert(RH + 2 != 3, "the row boxes are told apart by their 3 staged rows");
static_assert(!XG_FUSED || XG_SLIDE, "the boundary classes are fused into the sliding boxes");
constexpr int NBUF = XG_NBUF;    // staging buffers: 2 stages a tile while the one before computes
struct Shape { int n, co, in[3], k[3], s[3], p[3], out[3]; };

// ---------------------------------------------------------------------------------------------
// float64 reference: conv without bias, per channel sum and sum of squares (atomics: a reference)
__global__ void ref_kernel(Shape S, const float* x, const float* w, double* s1, double* s2)
{
    const int64_t spat = (int64_t)S.out[0] * S.out[1] * S.out[2];
    __shared__ double b1[32], b2[32];
    if (threadIdx.x < 32) b1[threadIdx.x] = b2[threadIdx.x] = 0;
    __syncthreads();
    // a block: 256 positions of one (n, c); the block's sums in 32 shared slots, then one atomic each
    const int64_t nblk_per_c = (int64_t)S.n * ((spat + 255) / 256);
    const int c = (int)(blockIdx.x / nblk_per_c);
    const int64_t rest = blockIdx.x - c * nblk_per_c;
    const int n = (int)(rest / ((spat + 255) / 256));
    const int64_t o = (rest % ((spat + 255) / 256)) * 256 + threadIdx.x;
    double v = 0;
    if (o < spat && c < S.co) {
        const int od = (int)(o / ((int64_t)S.out[1] * S.out[2])), oh = (int)(o / S.out[2] % S.out[1]), ow = (int)(o % S.out[2]);
        for (int td = 0; td < S.k[0]; ++td) {
            const int nd = od + S.p[0] - td; if (nd < 0 || nd % S.s[0]) continue; const int id = nd / S.s[0]; if (id >= S.in[0]) continue;
            for (int th = 0; th < S.k[1]; ++th) {
                const int nh = oh + S.p[1] - th; if (nh < 0 || nh % S.s[1]) continue; const int ih = nh / S.s[1]; if (ih >= S.in[1]) continue;
                for (int tw = 0; tw < S.k[2]; ++tw) {
                    const int nw = ow + S.p[2] - tw; if (nw < 0 || nw % S.s[2]) continue; const int iw = nw / S.s[2]; if (iw >= S.in[2]) continue;
                    for (int ci = 0; ci < CI; ++ci)
                        v += (double)x[((((int64_t)n * CI + ci) * S.in[0] + id) * S.in[1] + ih) * S.in[2] + iw] *
                             (double)w[(((int64_t)ci * S.co + c) * S.k[0] + td) * S.k[1] * S.k[2] + th * S.k[2] + tw];
                }
            }
        }
    }
    atomicAdd(&b1[threadIdx.x & 31], v);
    atomicAdd(&b2[threadIdx.x & 31], v * v);
    __syncthreads();
    if (threadIdx.x < 32 && c < S.co) { atomicAdd(&s1[c], b1[threadIdx.x]); atomicAdd(&s2[c], b2[threadIdx.x]); }
}

// ---------------------------------------------------------------------------------------------
// The correlations, over boxes of input positions: R[delta][ci][cj] = sum over the box's positions i
// (and its samples) of x[ci, i] x[cj, i + delta], delta in {-1, 0, 1}^3, x zero outside, on tensor
// cores (mma.sync m16n8k8, TF32 operands rounded to nearest): R[delta] = X X_delta^T with the box's
// positions as K. A block takes one box: planes d0 .. d0 + nd, rows h0 .. h0 + nh, columns w0 ..
// w0 + nw, samples n0 .. n0 + nn; its planes are summed apart by class (the first plane, the
// interior ones, the last: part[((block * 3 + class) * 3 + 0)]). Per plane and sample it stages 3
// planes x (nh + 2) rows x the box's columns and their halo of every channel, rounded once.
// Boxes: whole planes in blocks of rows (the main term); over all planes, the first and the last
// row, the first and the last column (whose first and last rows, the corner lines, go to
// part[... + 1 + end]).
struct Box { int d0, nd, h0, nh, w0, nw, n0, nn; };
constexpr int NG = XG_NG;            // samples a whole-plane box
constexpr int TD = XG_TD;            // planes a boundary box
constexpr int SD = XG_SD;            // planes a sliding whole-plane box
constexpr int MAXR = 34, MAXW = 34;  // staged rows and columns at most
// Warp v takes the shift pair (dd, dh) = v and the three dw: 3 x 2 (cj halves) m16n8 accumulators,
// no cross-warp sum. A k-step is 8 of the
// box's positions (row-major over rows x columns, past the end zero): the A fragment (16 ci x 8
// positions) is read once for the three dw, a B fragment (8 positions x 8 cj) per dw and half.
__device__ __forceinline__ uint32_t tf32_rn(float v)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
    return r;
}
__device__ __forceinline__ void mma_tf32(float* c, const uint32_t* a, const uint32_t* b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
// One row's four k-steps with 8-byte fragment pairs: k index t <-> position 2t, t + 4 <-> 2t + 1
// (any order of K serves, the same for A and B), so a lane's two positions are adjacent (one 8-byte
// load) and the three dw of a B fragment come from that pair and its two neighbours. pa, pb: the
// lane's first A and B positions (channel g, 2 t); cs: the channel stride.
// With COLS, the row's first and last columns (positions 0 and 31: k index 0 of lane t = 0 in the
// first k-step, k index 7 of lane t = 3 in the last) also go, at dw = 0, into cacc[0] and cacc[1]
// by MMAs with every other k zeroed.
template <bool COLS = false>
__device__ __forceinline__ void pairs_row(const float* pa, const float* pb, int cs, float (&acc)[3][2][4],
                                          float (*cacc)[2][4] = nullptr)
{
    const int tq = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
        const float2 a0 = *reinterpret_cast<const float2*>(pa + 8 * kk);
        const float2 a1 = *reinterpret_cast<const float2*>(pa + 8 * cs + 8 * kk);
        const uint32_t af[4] = {__float_as_uint(a0.x), __float_as_uint(a1.x), __float_as_uint(a0.y), __float_as_uint(a1.y)};
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float* q = pb + 8 * h * cs + 8 * kk;
            const float2 v = *reinterpret_cast<const float2*>(q);
            const float xm = q[-1], xp = q[2];
            const uint32_t b0[2] = {__float_as_uint(xm), __float_as_uint(v.x)};
            const uint32_t b1[2] = {__float_as_uint(v.x), __float_as_uint(v.y)};
            const uint32_t b2[2] = {__float_as_uint(v.y), __float_as_uint(xp)};
            mma_tf32(acc[0][h], af, b0);
            mma_tf32(acc[1][h], af, b1);
            mma_tf32(acc[2][h], af, b2);
            if (COLS && kk == 0) {
                const bool on = tq == 0;
                const uint32_t ca[4] = {on ? af[0] : 0u, on ? af[1] : 0u, 0u, 0u}, cb[2] = {on ? b1[0] : 0u, 0u};
                mma_tf32(cacc[0][h], ca, cb);
            }
            if (COLS && kk == 3) {
                const bool on = tq == 3;
                const uint32_t ca[4] = {0u, 0u, on ? af[2] : 0u, on ? af[3] : 0u}, cb[2] = {0u, on ? b1[1] : 0u};
                mma_tf32(cacc[1][h], ca, cb);
            }
        }
    }
}
__device__ __forceinline__ void zero_acc(float (&acc)[3][2][4])
{
#pragma unroll
    for (int a = 0; a < 3; ++a)
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[a][h][i] = 0.f;
}
// four staged values rounded to TF32 in place
__device__ __forceinline__ void round4(float* p)
{
    float4* q = reinterpret_cast<float4*>(p);
    float4 v = *q;
    v.x = __uint_as_float(tf32_rn(v.x)); v.y = __uint_as_float(tf32_rn(v.y));
    v.z = __uint_as_float(tf32_rn(v.z)); v.w = __uint_as_float(tf32_rn(v.w));
    *q = v;
}
// Warp (dd, dh)'s accumulators into a box's partial o[27][16 ci][16 cj] (its three dw)
__device__ __forceinline__ void store_acc(float* o, int warp, int g, int tq, const float (&acc)[3][2][4])
{
#pragma unroll
    for (int a = 0; a < 3; ++a)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float* od = o + (warp * 3 + a) * 256;
            od[g * 16 + 8 * h + 2 * tq] = acc[a][h][0];
            od[g * 16 + 8 * h + 2 * tq + 1] = acc[a][h][1];
            od[(g + 8) * 16 + 8 * h + 2 * tq] = acc[a][h][2];
            od[(g + 8) * 16 + 8 * h + 2 * tq + 1] = acc[a][h][3];
        }
}
// a column's accumulators (dw = 0 only) into a box's partial, the other two dw zero
__device__ __forceinline__ void store_acc0(float* o, int warp, int g, int tq, const float (&c)[2][4])
{
    float z[3][2][4];
    zero_acc(z);
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int i = 0; i < 4; ++i) z[1][h][i] = c[h][i];
    store_acc(o, warp, g, tq, z);
}
// RPC, NWC: the staged rows (nh + 2) and the box's columns where known at compile time (0: not);
// NWC = 32 (whole rows of W = 32): 16-byte copies, column w staged at w + 4 (row stride 40, the
// halo columns 3 and 36 zeroed once); else 4-byte copies, column w at w + 1 (row stride nw + 2).
template <int RPC, int NWC>
__global__ void __launch_bounds__(288, NWC == 1 ? XG_CMIN : 2) box_tc_kernel(Shape S, const float* __restrict__ x, const Box* __restrict__ boxes, int base,
                                                        float* __restrict__ part)
{
    extern __shared__ float sx[];
    const int bi = base + blockIdx.x;
    const Box B = boxes[bi];
    constexpr int C0 = NWC == 32 ? 4 : 1;
    const int D = S.in[0], H = S.in[1], W = S.in[2], WP = NWC == 32 ? 40 : NWC ? NWC + 2 : B.nw + 2, RP = RPC ? RPC : B.nh + 2;
    const int NW = NWC ? NWC : B.nw;
    /* channel stride: 4 mod 32 words (lane (g, t) reads word 4 g + t: 32 banks), 8 mod 32 with the
       8-byte pairs (a half-warp's 16 lanes read words 8 g + 2 t, + 1: 32 banks) */
    constexpr int CSM = XG_PAIRS && NWC == 32 ? 8 : 4;
    const int CS = 3 * RP * WP + ((CSM - (3 * RP * WP) % 32) + 32) % 32;
    if (NWC == 32)
        for (int row = threadIdx.x; row < NBUF * CI * 3 * RP; row += blockDim.x) { /* every buffer */
            float* r = sx + (row / (3 * RP)) * CS + (row % (3 * RP)) * WP;
            r[3] = 0.f;
            r[36] = 0.f;
        }
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = lane >> 2, tq = lane & 3;
    const int dd = warp / 3 - 1, dh = warp % 3 - 1;
    const int npos = B.nh * B.nw;
    for (int dc = 0; dc < 3; ++dc) {
        const int slo = dc == 0 ? 0 : dc == 1 ? 1 : D - 1, shi = dc == 0 ? 1 : dc == 1 ? D - 1 : D;
        const int lo = max(slo, B.d0), hi = min(shi, B.d0 + B.nd);
        if (lo >= hi) continue;
        float acc[3][2][4];
        zero_acc(acc);
        /* column boxes (NWC = 1): the corner lines, its first and last rows, on the side */
        constexpr int NCOR = NWC == 1 ? 2 : 0;
        float cacc[NCOR > 0 ? NCOR : 1][3][2][4];
#pragma unroll
        for (int c = 0; c < NCOR; ++c) zero_acc(cacc[c]);
        /* the block's (sample, plane) tiles of this class in turn, each staged while the one before computes */
        const int nds = hi - lo, T = B.nn * nds;
        auto stage = [&](int i, int buf) {
            const int n = B.n0 + i / nds, d = lo + i % nds;
            float* sb = sx + buf * CI * CS;
            if (NWC == 32) { /* a row in 8 copies of 16 bytes */
                for (int e = threadIdx.x; e < CI * 3 * RP * 8; e += blockDim.x) {
                    const int row = e >> 3, c4 = (e & 7) * 4;
                    const int rr = row % RP, pl = row / RP % 3, ci = row / RP / 3;
                    const int gd = d + pl - 1, gh = B.h0 + rr - 1;
                    const bool ok = gd >= 0 && gd < D && gh >= 0 && gh < H;
                    const float* src = ok ? x + ((((int64_t)n * CI + ci) * D + gd) * H + gh) * W + c4 : x;
                    const unsigned sa = (unsigned)__cvta_generic_to_shared(sb + ci * CS + (pl * RP + rr) * WP + 4 + c4);
                    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(src), "r"(ok ? 16 : 0) : "memory");
                }
            } else { /* an element a thread */
                for (int e = threadIdx.x; e < CI * 3 * RP * WP; e += blockDim.x) {
                    const int row = e / WP, ww = e - row * WP;
                    const int rr = row % RP, pl = row / RP % 3, ci = row / RP / 3;
                    const int gd = d + pl - 1, gh = B.h0 + rr - 1, gw = B.w0 + ww - 1;
                    const bool ok = gd >= 0 && gd < D && gh >= 0 && gh < H && gw >= 0 && gw < W;
                    const float* src = ok ? x + ((((int64_t)n * CI + ci) * D + gd) * H + gh) * W + gw : x;
                    const unsigned sa = (unsigned)__cvta_generic_to_shared(sb + ci * CS + (pl * RP + rr) * WP + ww);
                    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(sa), "l"(src), "r"(ok ? 4 : 0) : "memory");
                }
            }
            asm volatile("cp.async.commit_group;\n" ::: "memory");
        };
        /* each thread rounds what it copied to TF32 once (the fragments then read bits) */
        auto round_own = [&](int buf) {
            float* sb = sx + buf * CI * CS;
            if (NWC == 32)
                for (int e = threadIdx.x; e < CI * 3 * RP * 8; e += blockDim.x) {
                    const int row = e >> 3, c4 = (e & 7) * 4;
                    round4(sb + (row / (3 * RP)) * CS + (row % (3 * RP)) * WP + 4 + c4);
                }
            else
                for (int e = threadIdx.x; e < CI * 3 * RP * WP; e += blockDim.x) {
                    const int row = e / WP, ww = e - row * WP;
                    float* q = sb + (row / (3 * RP)) * CS + (row % (3 * RP)) * WP + ww;
                    *q = __uint_as_float(tf32_rn(*q));
                }
        };
        __syncthreads(); /* the previous class's reads of the buffers are done */
        if (NBUF == 2) stage(0, 0);
        for (int i = 0; i < T; ++i) {
            const int buf = NBUF == 2 ? i & 1 : 0;
            if (NBUF == 1) {
                stage(i, 0);
                asm volatile("cp.async.wait_group 0;\n" ::: "memory");
            } else if (i + 1 < T) {
                stage(i + 1, (i + 1) & 1);
                asm volatile("cp.async.wait_group 1;\n" ::: "memory");
            } else
                asm volatile("cp.async.wait_group 0;\n" ::: "memory");
            if (!XG_PREROUNDED) round_own(buf);
            __syncthreads();
            const float* st = sx + buf * CI * CS;
                if (XG_PAIRS && NWC == 32 && warp < 9 && (!(XG_SHIFT0 && RPC == 3) || dh == 0)) {
                    for (int r = 0; r < B.nh; ++r) /* whole rows, 8-byte fragment pairs */
                        pairs_row(st + g * CS + (RP + r + 1) * WP + C0 + 2 * tq,
                                  st + g * CS + ((1 + dd) * RP + r + 1 + dh) * WP + C0 + 2 * tq, CS, acc);
                } else if (NWC == 32 && warp < 9 && (!(XG_SHIFT0 && RPC == 3) || dh == 0)) { /* whole rows: a row's 4 k-steps at fixed offsets, no position past the end */
                    for (int r = 0; r < B.nh; ++r) {
                        const float* pa = st + g * CS + (RP + r + 1) * WP + C0 + tq;
                        const float* pb = st + g * CS + ((1 + dd) * RP + r + 1 + dh) * WP + C0 + tq - 1;
#pragma unroll
                        for (int kk = 0; kk < 4; ++kk) {
                            const uint32_t af[4] = {__float_as_uint(pa[8 * kk]), __float_as_uint(pa[8 * CS + 8 * kk]),
                                                    __float_as_uint(pa[8 * kk + 4]), __float_as_uint(pa[8 * CS + 8 * kk + 4])};
#pragma unroll
                            for (int a = 0; a < 3; ++a)
#pragma unroll
                                for (int h = 0; h < 2; ++h) {
                                    const uint32_t bf[2] = {__float_as_uint(pb[8 * h * CS + 8 * kk + a]),
                                                            __float_as_uint(pb[8 * h * CS + 8 * kk + 4 + a])};
                                    mma_tf32(acc[a][h], af, bf);
                                }
                        }
                    }
                } else if (warp < 9)
#pragma unroll 4
                    for (int k0 = 0; k0 < npos; k0 += 8) {
                        int oa[2], ob[2];
                        bool ok[2];
#pragma unroll
                        for (int u = 0; u < 2; ++u) {
                            const int p = k0 + tq + 4 * u, r = p / NW, w = p - r * NW;
                            ok[u] = p < npos;
                            oa[u] = (RP + r + 1) * WP + w + C0;
                            ob[u] = ((1 + dd) * RP + r + 1 + dh) * WP + w + C0;
                        }
                        uint32_t af[4];
                        af[0] = ok[0] ? __float_as_uint(st[g * CS + oa[0]]) : 0u;
                        af[1] = ok[0] ? __float_as_uint(st[(g + 8) * CS + oa[0]]) : 0u;
                        af[2] = ok[1] ? __float_as_uint(st[g * CS + oa[1]]) : 0u;
                        af[3] = ok[1] ? __float_as_uint(st[(g + 8) * CS + oa[1]]) : 0u;
#pragma unroll
                        for (int a = 0; a < 3; ++a)
#pragma unroll
                            for (int h = 0; h < 2; ++h) {
                                uint32_t bf[2];
                                if (XG_SHIFT0 && NWC == 1 && a != 1) continue; /* columns: dw = 0 only */
                                bf[0] = ok[0] ? __float_as_uint(st[(g + 8 * h) * CS + ob[0] + a - 1]) : 0u;
                                bf[1] = ok[1] ? __float_as_uint(st[(g + 8 * h) * CS + ob[1] + a - 1]) : 0u;
                                mma_tf32(acc[a][h], af, bf);
                            }
                    }
                if (warp < 9 && (!XG_SHIFT0 || dh == 0))
#pragma unroll
                    for (int c = 0; c < NCOR; ++c) { /* one position, k index 0 (corner lines: dh = dw = 0 only) */
                        const int r = c ? B.nh - 1 : 0;
                        const bool ok0 = tq == 0;
                        const int oa = (RP + r + 1) * WP + C0, ob = ((1 + dd) * RP + r + 1 + dh) * WP + C0;
                        uint32_t af[4] = {ok0 ? __float_as_uint(st[g * CS + oa]) : 0u, ok0 ? __float_as_uint(st[(g + 8) * CS + oa]) : 0u, 0u, 0u};
#pragma unroll
                        for (int a = 0; a < 3; ++a)
#pragma unroll
                            for (int h = 0; h < 2; ++h) {
                                if (XG_SHIFT0 && a != 1) continue;
                                uint32_t bf[2] = {ok0 ? __float_as_uint(st[(g + 8 * h) * CS + ob + a - 1]) : 0u, 0u};
                                mma_tf32(cacc[c][a][h], af, bf);
                            }
                    }
            __syncthreads(); /* before the tile after next is staged into this buffer */
        }
        if (warp < 9)
#pragma unroll
            for (int c = 0; c < NCOR; ++c) {
                store_acc(part + (((size_t)bi * 3 + dc) * 3 + 1 + c) * 27 * 256, warp, g, tq, cacc[c]);
            }
        if (warp < 9) store_acc(part + ((size_t)bi * 3 + dc) * 3 * 27 * 256, warp, g, tq, acc);
    }
}

// The whole-plane term with a box that slides along d (XG_SLIDE): a box is nd planes of RH rows of
// one sample; each plane of x is staged once (into a ring of 4 plane slots, the next one copied
// two planes ahead of the one that computes) instead of three times. Same warps, fragments (8-byte pairs) and
// classes as box_tc_kernel's whole rows; the channel stride in a slot is 8 mod 32 words.
// FUSED: the box also sums its boundary classes itself (no boundary boxes): the first or last row
// of the input where the box holds it (racc, its MMAs kept apart from acc's), the first and last
// columns of every row at dw = 0 (cacc) and where they cross that row (kacc); per class of planes
// it writes part[((block * 3 + class) * 6 + which)]: which 0 the whole box (acc + racc), 1 the row,
// 2 + e column e (cacc + kacc), 4 + e the corner line of column e.
template <bool FUSED>
__global__ void __launch_bounds__(288, 2) slide_kernel(Shape S, const float* __restrict__ x, const Box* __restrict__ boxes,
                                                      float* __restrict__ part)
{
    extern __shared__ float sx[];
    const int bi = blockIdx.x;
    const Box B = boxes[bi];
    constexpr int RP = RH + 2, WP = 40, C0 = 4;
    constexpr int CSP = RP * WP + ((8 - (RP * WP) % 32) + 32) % 32, SLOT = CI * CSP;
    const int D = S.in[0], H = S.in[1], W = S.in[2], n = B.n0;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = lane >> 2, tq = lane & 3;
    const int dd = warp / 3 - 1, dh = warp % 3 - 1;
    for (int row = threadIdx.x; row < 4 * CI * RP; row += blockDim.x) { /* the halo columns of every slot */
        float* r = sx + (row / (CI * RP)) * SLOT + (row / RP % CI) * CSP + (row % RP) * WP;
        r[3] = 0.f;
        r[36] = 0.f;
    }
    auto stage = [&](int pd) { /* plane pd (-1 .. D: zeros outside) into slot (pd + 4) % 4 */
        float* sb = sx + ((pd + 4) & 3) * SLOT;
        for (int e = threadIdx.x; e < CI * RP * 8; e += blockDim.x) {
            const int row = e >> 3, c4 = (e & 7) * 4, rr = row % RP, ci = row / RP;
            const int gh = B.h0 + rr - 1;
            const bool ok = pd >= 0 && pd < D && gh >= 0 && gh < H;
            const float* src = ok ? x + ((((int64_t)n * CI + ci) * D + pd) * H + gh) * W + c4 : x;
            const unsigned sa = (unsigned)__cvta_generic_to_shared(sb + ci * CSP + rr * WP + C0 + c4);
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa), "l"(src), "r"(ok ? 16 : 0) : "memory");
        }
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    };
    auto round_own = [&](int pd) {
        float* sb = sx + ((pd + 4) & 3) * SLOT;
        for (int e = threadIdx.x; e < CI * RP * 8; e += blockDim.x) {
            const int row = e >> 3, c4 = (e & 7) * 4;
            round4(sb + (row / RP) * CSP + (row % RP) * WP + C0 + c4);
        }
    };
    float acc[3][2][4];
    float racc[3][2][4], cacc[2][2][4], kacc[2][2][4]; /* (unused without FUSED) */
    const int rb = !FUSED ? -1 : B.h0 == 0 ? 0 : B.h0 + RH == H ? RH - 1 : -1; /* the box's boundary row */
    auto clear = [&]() {
        zero_acc(acc);
        if (FUSED) {
            zero_acc(racc);
#pragma unroll
            for (int c = 0; c < 2; ++c)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int i = 0; i < 4; ++i) cacc[c][h][i] = kacc[c][h][i] = 0.f;
        }
    };
    auto flush = [&](int dc) {
        if (!FUSED) {
            store_acc(part + ((size_t)bi * 3 + dc) * 3 * 27 * 256, warp, g, tq, acc);
            return;
        }
        float* o = part + ((size_t)bi * 3 + dc) * 6 * 27 * 256;
        if (rb >= 0) {
            store_acc(o + 1 * 27 * 256, warp, g, tq, racc);
#pragma unroll
            for (int a = 0; a < 3; ++a)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int i = 0; i < 4; ++i) acc[a][h][i] += racc[a][h][i];
#pragma unroll
            for (int c = 0; c < 2; ++c) {
                store_acc0(o + (4 + c) * 27 * 256, warp, g, tq, kacc[c]);
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int i = 0; i < 4; ++i) cacc[c][h][i] += kacc[c][h][i];
            }
        }
        store_acc(o, warp, g, tq, acc);
#pragma unroll
        for (int c = 0; c < 2; ++c) store_acc0(o + (2 + c) * 27 * 256, warp, g, tq, cacc[c]);
    };
    clear();
    stage(B.d0 - 1);
    stage(B.d0);
    stage(B.d0 + 1);
    int cls = B.d0 == 0 ? 0 : B.d0 == D - 1 ? 2 : 1;
    for (int d = B.d0; d < B.d0 + B.nd; ++d) {
        if (d + 2 <= B.d0 + B.nd) stage(d + 2); /* copied while plane d computes */
        else asm volatile("cp.async.commit_group;\n" ::: "memory"); /* (an empty group: the count below holds) */
        asm volatile("cp.async.wait_group 1;\n" ::: "memory"); /* planes .. d + 1 are in */
        if (!XG_PREROUNDED) {
            if (d == B.d0) { round_own(d - 1); round_own(d); }
            round_own(d + 1);
        }
        __syncthreads();
        const int dcl = d == 0 ? 0 : d == D - 1 ? 2 : 1;
        if (dcl != cls) { flush(cls); clear(); cls = dcl; }
        const float* sa = sx + ((d + 4) & 3) * SLOT, * sbp = sx + ((d + dd + 4) & 3) * SLOT;
        for (int r = 0; r < RH; ++r) {
            const float* pa = sa + g * CSP + (r + 1) * WP + C0 + 2 * tq;
            const float* pb = sbp + g * CSP + (r + 1 + dh) * WP + C0 + 2 * tq;
            if (!FUSED) pairs_row(pa, pb, CSP, acc);
            else if (r != rb) pairs_row<true>(pa, pb, CSP, acc, cacc);
            else pairs_row<true>(pa, pb, CSP, racc, kacc);
        }
        __syncthreads(); /* before plane d + 3 is staged into plane d - 1's slot */
    }
    flush(cls);
}

// each slot's partials (a list of part indices, slot by slot) summed in double in list order, in two
// levels: runs of RUN partials (R1[slot][run]), then the runs
constexpr int RUN = 16, MAXRUN = 32;
__global__ void reduce_kernel(const float* __restrict__ part, const int* __restrict__ slot_start, const int* __restrict__ plist,
                              double* __restrict__ R1)
{
    const int slot = blockIdx.y, run = blockIdx.z, e = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (e >= 27 * 256) return;
    const int k0 = slot_start[slot] + run * RUN, k1 = min(k0 + RUN, slot_start[slot + 1]);
    if (k0 >= k1) return;
    double s[4] = {0, 0, 0, 0};
    for (int k = k0; k < k1; ++k) {
        const float4 v = *reinterpret_cast<const float4*>(part + (size_t)plist[k] * 27 * 256 + e);
        s[0] += v.x; s[1] += v.y; s[2] += v.z; s[3] += v.w;
    }
    double* o = R1 + ((size_t)slot * MAXRUN + run) * 27 * 256 + e;
    o[0] = s[0]; o[1] = s[1]; o[2] = s[2]; o[3] = s[3];
}
__global__ void reduce2_kernel(const double* __restrict__ R1, const int* __restrict__ slot_start, double* __restrict__ R)
{
    const int slot = blockIdx.y, e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= 27 * 256) return;
    const int nrun = (slot_start[slot + 1] - slot_start[slot] + RUN - 1) / RUN;
    double s = 0;
    for (int r = 0; r < nrun; ++r) s += R1[((size_t)slot * MAXRUN + r) * 27 * 256 + e];
    R[(size_t)slot * 27 * 256 + e] = s;
}

// ---------------------------------------------------------------------------------------------
// a term (a phase's tap pair): the shift, the taps, and its box as signed slots: sum_k sign_k R[slot_k]
constexpr int MAXS = 27;
struct Term { int dl, t, t2, ns; int slot[MAXS]; signed char sign[MAXS]; };
__global__ void term_kernel(const double* __restrict__ R, const Term* __restrict__ terms, double* __restrict__ RT)
{
    const Term& T = terms[blockIdx.x];
    double s = 0;
    for (int k = 0; k < T.ns; ++k) s += (double)T.sign[k] * R[((size_t)T.slot[k] * 27 + T.dl) * 256 + threadIdx.x];
    RT[(size_t)blockIdx.x * 256 + threadIdx.x] = s;
}
// S2[c] = sum_terms sum_{ci, cj} w[ci, c, t] w[cj, c, t2] RT[term][ci][cj]: a block per (c, chunk of terms)
constexpr int CHUNKS = 32;
__global__ void contract_kernel(Shape S, const float* __restrict__ w, const double* __restrict__ RT, const Term* __restrict__ terms,
                                int nterms, double* __restrict__ partc)
{
    const int c = blockIdx.x, ch = blockIdx.y, ci = threadIdx.x / 16, cj = threadIdx.x % 16;
    const int kt = S.k[0] * S.k[1] * S.k[2];
    __shared__ float ws[CI * 27]; /* w[:, c, :] (k^3 <= 27) */
    __shared__ int tt[2 * 64];
    for (int e = threadIdx.x; e < CI * kt; e += blockDim.x) ws[e] = w[((int64_t)(e / kt) * S.co + c) * kt + e % kt];
    for (int e = threadIdx.x; e < 64; e += blockDim.x) {
        const int k = ch + e * CHUNKS;
        tt[2 * e] = k < nterms ? terms[k].t : 0;
        tt[2 * e + 1] = k < nterms ? terms[k].t2 : 0;
    }
    __syncthreads();
    double acc = 0;
    for (int k = ch, e = 0; k < nterms; k += CHUNKS, ++e)
        acc += (double)ws[ci * kt + tt[2 * e]] * (double)ws[cj * kt + tt[2 * e + 1]] * RT[(size_t)k * 256 + threadIdx.x];
    __shared__ double red[256];
    red[threadIdx.x] = acc;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) red[threadIdx.x] += red[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) partc[c * CHUNKS + ch] = red[0];
}
__global__ void final_kernel(int co, const double* __restrict__ partc, double* __restrict__ s2)
{
    const int c = threadIdx.x;
    if (c >= co) return;
    double s = 0;
    for (int k = 0; k < CHUNKS; ++k) s += partc[c * CHUNKS + k];
    s2[c] = s;
}

// ---------------------------------------------------------------------------------------------
// host: per dim, per phase, the taps and their input offsets
struct Tap { int t, a; };
static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    Shape S = {16, 32, {16, 32, 32}, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0}};
    for (int d = 0; d < 3; ++d) S.out[d] = (S.in[d] - 1) * S.s[d] - 2 * S.p[d] + S.k[d];
    if (S.in[1] % RH || S.in[1] + 2 > MAXR || S.in[2] + 2 > MAXW || S.in[0] < 3) { fprintf(stderr, "shape outside this program's blocking\n"); return 1; }
    const int64_t nx = (int64_t)S.n * CI * S.in[0] * S.in[1] * S.in[2];
    const int kt = S.k[0] * S.k[1] * S.k[2];
    const int64_t nw = (int64_t)CI * S.co * kt;
    std::vector<float> hx(nx), hw(nw);
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> ux(0.f, 1.f);                         // torch.rand inputs
    const float bound = 1.f / sqrtf((float)S.co * kt);                            // PyTorch's default init bound
    std::uniform_real_distribution<float> uw(-bound, bound);
    for (auto& v : hx) v = ux(rng);
    for (auto& v : hw) v = uw(rng);
    const int D = S.in[0], H = S.in[1], W = S.in[2], NGR = (S.n + NG - 1) / NG;

    // slots: whole planes M[dc] (0-2), first / last rows Rw[dc][eh] (3-8), first / last columns
    // Cw[dc][ew] (9-14), corners P[dc][eh][ew] (15-26); dc the plane's class (first, interior, last)
    std::vector<Box> boxes;
    std::vector<int> kind; // 0 planes, 1 first / last row, 2 first / last column, 3 corner line; with which end(s)
    std::vector<int> endh, endw;
    if (XG_SLIDE) /* a sample's planes d0 .. d0 + SD of RH rows */
        for (int n = 0; n < S.n; ++n)
            for (int d0 = 0; d0 < D; d0 += SD)
                for (int hb = 0; hb < H / RH; ++hb) {
                    boxes.push_back({d0, std::min(SD, D - d0), hb * RH, RH, 0, W, n, 1});
                    kind.push_back(0); endh.push_back(-1); endw.push_back(-1);
                }
    else
        for (int d = 0; d < D; ++d)
            for (int g = 0; g < NGR; ++g)
                for (int hb = 0; hb < H / RH; ++hb) {
                    boxes.push_back({d, 1, hb * RH, RH, 0, W, g * NG, std::min(NG, S.n - g * NG)});
                    kind.push_back(0); endh.push_back(-1); endw.push_back(-1);
                }
    for (int k = 1; k <= (XG_FUSED ? 0 : 2); ++k)
        for (int n = 0; n < S.n; ++n)
            for (int d0 = 0; d0 < D; d0 += TD)
                for (int e = 0; e < 2; ++e) {
                    const int nd = std::min(TD, D - d0);
                    if (k == 1) { boxes.push_back({d0, nd, e ? H - 1 : 0, 1, 0, W, n, 1}); kind.push_back(1); endh.push_back(e); endw.push_back(-1); }
                    if (k == 2) { boxes.push_back({d0, nd, 0, H, e ? W - 1 : 0, 1, n, 1}); kind.push_back(2); endh.push_back(-1); endw.push_back(e); }
                }
    std::vector<int> slot_start, plist;
    for (int slot = 0; slot < 27; ++slot) {
        slot_start.push_back((int)plist.size());
        int k, dc, eh = -1, ew = -1;
        if (slot < 3) { k = 0; dc = slot; }
        else if (slot < 9) { k = 1; dc = (slot - 3) / 2; eh = (slot - 3) % 2; }
        else if (slot < 15) { k = 2; dc = (slot - 9) / 2; ew = (slot - 9) % 2; }
        else { k = 3; dc = (slot - 15) / 4; eh = (slot - 15) / 2 % 2; ew = (slot - 15) % 2; }
        if (XG_FUSED) { /* every slot from the sliding boxes' partials (slide_kernel<true>) */
            for (size_t b = 0; b < boxes.size(); ++b) {
                const Box& X = boxes[b];
                const int lo = std::max(dc == 0 ? 0 : dc == 1 ? 1 : D - 1, X.d0), hi = std::min(dc == 0 ? 1 : dc == 1 ? D - 1 : D, X.d0 + X.nd);
                if (lo >= hi) continue;
                const int brow = X.h0 == 0 ? 0 : X.h0 + RH == H ? 1 : -1;
                int which = -1;
                if (k == 0) which = 0;
                else if (k == 1) which = brow == eh ? 1 : -1;
                else if (k == 2) which = 2 + ew;
                else which = brow == eh ? 4 + ew : -1;
                if (which >= 0) plist.push_back(((int)b * 3 + dc) * 6 + which);
            }
        } else
        for (size_t b = 0; b < boxes.size(); ++b) {
            /* a corner line comes from the column box of its column (which 1 + eh), the rest from their own boxes */
            if (k == 3 ? (kind[b] != 2 || endw[b] != ew) : (kind[b] != k || endh[b] != eh || endw[b] != ew)) continue;
            const int lo = std::max(dc == 0 ? 0 : dc == 1 ? 1 : D - 1, boxes[b].d0);
            const int hi = std::min(dc == 0 ? 1 : dc == 1 ? D - 1 : D, boxes[b].d0 + boxes[b].nd);
            if (lo < hi) plist.push_back(((int)b * 3 + dc) * 3 + (k == 3 ? 1 + eh : 0));
        }
    }
    slot_start.push_back((int)plist.size());
    for (int s = 0; s < 27; ++s)
        if (slot_start[s + 1] - slot_start[s] > RUN * MAXRUN) { fprintf(stderr, "slot %d: too many partials\n", s); return 1; }

    // the terms: per phase (per dim residue), per tap pair
    std::vector<Tap> taps[3][8];
    int Q[3][8];
    for (int d = 0; d < 3; ++d)
        for (int r = 0; r < S.s[d]; ++r) {
            Q[d][r] = r < S.out[d] ? (S.out[d] - r + S.s[d] - 1) / S.s[d] : 0;
            for (int t = 0; t < S.k[d]; ++t) {
                const int num = r + S.p[d] - t;
                if (((num % S.s[d]) + S.s[d]) % S.s[d] == 0) taps[d][r].push_back({t, num >= 0 ? num / S.s[d] : -((-num) / S.s[d])});
            }
        }
    std::vector<Term> terms;
    for (int r0 = 0; r0 < S.s[0]; ++r0) for (int r1 = 0; r1 < S.s[1]; ++r1) for (int r2 = 0; r2 < S.s[2]; ++r2) {
        const int rr[3] = {r0, r1, r2};
        for (const Tap& A0 : taps[0][r0]) for (const Tap& A1 : taps[1][r1]) for (const Tap& A2 : taps[2][r2])
        for (const Tap& B0 : taps[0][r0]) for (const Tap& B1 : taps[1][r1]) for (const Tap& B2 : taps[2][r2]) {
            const Tap A[3] = {A0, A1, A2}, B[3] = {B0, B1, B2};
            bool ex[3][2], empty = false; // per dim: the first / last input position left out of the box
            int dl[3];
            for (int d = 0; d < 3; ++d) {
                dl[d] = B[d].a - A[d].a;
                if (dl[d] < -1 || dl[d] > 1) { fprintf(stderr, "shift %d past this program's +-1\n", dl[d]); return 1; }
                const int in = S.in[d], nlo = std::max(0, -dl[d]), nhi = std::min(in, in - dl[d]);
                const int lo = std::max(A[d].a, nlo), hi = std::min(A[d].a + Q[d][rr[d]], nhi);
                if (hi <= lo) { empty = true; break; }
                if (lo > 1 || hi < in - 1) { fprintf(stderr, "a box leaves out more than a boundary position\n"); return 1; }
                ex[d][0] = lo > 0 && nlo == 0;   // position 0 could contribute and is left out
                ex[d][1] = hi < in && nhi == in; // position in - 1 likewise
            }
            if (empty) continue;
            if (XG_SHIFT0 && (((ex[1][0] || ex[1][1]) && dl[1] != 0) || ((ex[2][0] || ex[2][1]) && dl[2] != 0))) {
                fprintf(stderr, "a boundary row or column at a shift the boundary boxes skip (build with -DXG_SHIFT0=0)\n");
                return 1;
            }
            Term T;
            T.dl = ((dl[0] + 1) * 3 + dl[1] + 1) * 3 + dl[2] + 1;
            T.t = (A[0].t * S.k[1] + A[1].t) * S.k[2] + A[2].t;
            T.t2 = (B[0].t * S.k[1] + B[1].t) * S.k[2] + B[2].t;
            T.ns = 0;
            for (int dc = 0; dc < 3; ++dc) {
                if ((dc == 0 && ex[0][0]) || (dc == 2 && ex[0][1])) continue;
                T.slot[T.ns] = dc; T.sign[T.ns++] = 1;
                for (int e = 0; e < 2; ++e) {
                    if (ex[1][e]) { T.slot[T.ns] = 3 + dc * 2 + e; T.sign[T.ns++] = -1; }
                    if (ex[2][e]) { T.slot[T.ns] = 9 + dc * 2 + e; T.sign[T.ns++] = -1; }
                }
                for (int eh = 0; eh < 2; ++eh)
                    for (int ew = 0; ew < 2; ++ew)
                        if (ex[1][eh] && ex[2][ew]) { T.slot[T.ns] = 15 + dc * 4 + eh * 2 + ew; T.sign[T.ns++] = 1; }
            }
            terms.push_back(T);
        }
    }
    printf("L2/15 shape: x (%d, %d, %d, %d, %d), C_out %d, k %d, s %d, p %d; output (%d, %d, %d)\n", S.n, CI, S.in[0], S.in[1], S.in[2],
           S.co, S.k[0], S.s[0], S.p[0], S.out[0], S.out[1], S.out[2]);
    int64_t pos_main = 0, pos_edge = 0;
    for (size_t b = 0; b < boxes.size(); ++b) {
        const int64_t v = (int64_t)boxes[b].nd * boxes[b].nh * boxes[b].nw * boxes[b].nn;
        (kind[b] == 0 ? pos_main : pos_edge) += v;
    }
    printf("terms %zu; boxes %zu: %lld positions in whole planes, %lld in boundary rows, columns and corners\n", terms.size(), boxes.size(),
           (long long)pos_main, (long long)pos_edge);

    float *dx, *dw, *dpart, *flush;
    double *dR, *dR1, *dRT, *dpc, *ds2, *r1, *r2;
    Box* dbox; Term* dterms; int *dss, *dpl;
    size_t smem = 0;
    for (const Box& b : boxes) smem = std::max(smem, (size_t)NBUF * CI * (3 * (b.nh + 2) * (b.nw == 32 ? 40 : b.nw + 2) + 31) * sizeof(float));
    smem = std::max(smem, (size_t)144 * 48 * sizeof(float));
    CK(cudaMalloc(&dx, nx * 4)); CK(cudaMalloc(&dw, nw * 4));
    CK(cudaMalloc(&dpart, boxes.size() * (XG_FUSED ? 18 : 9) * 27 * 256 * 4)); CK(cudaMalloc(&dpl, plist.size() * sizeof(int))); CK(cudaMalloc(&dR, 27 * 27 * 256 * 8)); CK(cudaMalloc(&dR1, (size_t)27 * MAXRUN * 27 * 256 * 8));
    CK(cudaMalloc(&dRT, terms.size() * 256 * 8)); CK(cudaMalloc(&dpc, S.co * CHUNKS * 8)); CK(cudaMalloc(&ds2, S.co * 8));
    CK(cudaMalloc(&r1, S.co * 8)); CK(cudaMalloc(&r2, S.co * 8));
    CK(cudaMalloc(&dbox, boxes.size() * sizeof(Box))); CK(cudaMalloc(&dterms, terms.size() * sizeof(Term)));
    CK(cudaMalloc(&dss, slot_start.size() * sizeof(int)));
    CK(cudaMalloc(&flush, 256 << 20));
    CK(cudaMemcpy(dx, hx.data(), nx * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dw, hw.data(), nw * 4, cudaMemcpyHostToDevice));
    float* dxg = dx; /* what the correlations read */
    if (XG_PREROUNDED) { /* x rounded to TF32 (nearest, ties away, as cvt.rna) on the host, once */
        std::vector<float> hr(hx);
        for (auto& v : hr) { uint32_t b; memcpy(&b, &v, 4); b = (b + 0x1000u) & 0xffffe000u; memcpy(&v, &b, 4); }
        CK(cudaMalloc(&dxg, nx * 4));
        CK(cudaMemcpy(dxg, hr.data(), nx * 4, cudaMemcpyHostToDevice));
    }
    CK(cudaMemcpy(dbox, boxes.data(), boxes.size() * sizeof(Box), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dterms, terms.data(), terms.size() * sizeof(Term), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dss, slot_start.data(), slot_start.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dpl, plist.data(), plist.size() * sizeof(int), cudaMemcpyHostToDevice));

    // reference
    CK(cudaMemset(r1, 0, S.co * 8)); CK(cudaMemset(r2, 0, S.co * 8));
    const int64_t spat = (int64_t)S.out[0] * S.out[1] * S.out[2];
    ref_kernel<<<(unsigned)((int64_t)S.co * S.n * ((spat + 255) / 256)), 256>>>(S, dx, dw, r1, r2);
    CK(cudaGetLastError());
    std::vector<double> h1(S.co), h2(S.co);
    CK(cudaMemcpy(h1.data(), r1, S.co * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(h2.data(), r2, S.co * 8, cudaMemcpyDeviceToHost));

    cudaEvent_t ev[7];
    const size_t nmain = (size_t)std::count(kind.begin(), kind.end(), 0);
    for (auto& e : ev) CK(cudaEventCreate(&e));
    CK(cudaFuncSetAttribute(box_tc_kernel<RH + 2, 32>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(box_tc_kernel<3, 32>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(box_tc_kernel<34, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    const size_t nrows = (size_t)std::count(kind.begin(), kind.end(), 1);
    if (kt > 27 || (int)terms.size() > 64 * CHUNKS) { fprintf(stderr, "kernel or terms past the contraction's tables\n"); return 1; }
    if (W != 32 || H != 32) { fprintf(stderr, "the boxes' kernels are instantiated for H = W = 32\n"); return 1; }
    {
    auto kern = box_tc_kernel<RH + 2, 32>;
    const size_t smem_slide = (size_t)4 * CI * ((RH + 2) * 40 + ((8 - ((RH + 2) * 40) % 32) + 32) % 32) * sizeof(float);
    CK(cudaFuncSetAttribute(slide_kernel<XG_FUSED != 0>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_slide));
    auto kern_rows = box_tc_kernel<3, 32>;
    auto kern_rest = box_tc_kernel<34, 1>;
    std::vector<float> tb, tr, tt, tc, ta, tm, trw;
    std::vector<double> first(S.co), got(S.co);
    bool same = true;
    for (int it = 0; it < runs + 2; ++it) {
        CK(cudaMemset(flush, it, 256 << 20));
        CK(cudaMemset(ds2, 0xff, S.co * 8)); // poison
        CK(cudaEventRecord(ev[0]));
        if (XG_SLIDE) slide_kernel<XG_FUSED != 0><<<(unsigned)nmain, 288, smem_slide>>>(S, dxg, dbox, dpart);
        else kern<<<(unsigned)nmain, 288, smem>>>(S, dxg, dbox, 0, dpart);
        CK(cudaPeekAtLastError());
        CK(cudaEventRecord(ev[5]));
        if (nrows) kern_rows<<<(unsigned)nrows, 288, smem>>>(S, dxg, dbox, (int)nmain, dpart);
        CK(cudaPeekAtLastError());
        CK(cudaEventRecord(ev[6]));
        if (boxes.size() > nmain + nrows)
            kern_rest<<<(unsigned)(boxes.size() - nmain - nrows), 288, smem>>>(S, dxg, dbox, (int)(nmain + nrows), dpart);
        CK(cudaPeekAtLastError());
        CK(cudaEventRecord(ev[1]));
        reduce_kernel<<<dim3(27 / 4 + 1, 27, MAXRUN), 256>>>(dpart, dss, dpl, dR1);
        CK(cudaPeekAtLastError());
        reduce2_kernel<<<dim3(27, 27), 256>>>(dR1, dss, dR);
        CK(cudaPeekAtLastError());
        CK(cudaEventRecord(ev[2]));
        term_kernel<<<(unsigned)terms.size(), 256>>>(dR, dterms, dRT);
        CK(cudaPeekAtLastError());
        CK(cudaEventRecord(ev[3]));
        contract_kernel<<<dim3(S.co, CHUNKS), 256>>>(S, dw, dRT, dterms, (int)terms.size(), dpc);
        CK(cudaPeekAtLastError());
        final_kernel<<<1, 256>>>(S.co, dpc, ds2);
        CK(cudaPeekAtLastError());
        CK(cudaEventRecord(ev[4]));
        CK(cudaEventSynchronize(ev[4]));
        float a, b, c, d, e, m;
        CK(cudaEventElapsedTime(&m, ev[0], ev[5]));
        float mr;
        CK(cudaEventElapsedTime(&mr, ev[5], ev[6]));
        CK(cudaEventElapsedTime(&a, ev[0], ev[1])); CK(cudaEventElapsedTime(&b, ev[1], ev[2])); CK(cudaEventElapsedTime(&c, ev[2], ev[3]));
        CK(cudaEventElapsedTime(&d, ev[3], ev[4])); CK(cudaEventElapsedTime(&e, ev[0], ev[4]));
        CK(cudaMemcpy(got.data(), ds2, S.co * 8, cudaMemcpyDeviceToHost));
        if (it == 0) first = got;
        else same = same && !memcmp(first.data(), got.data(), S.co * 8);
        if (it >= 2) { trw.push_back(mr); tm.push_back(m); tb.push_back(a); tr.push_back(b); tt.push_back(c); tc.push_back(d); ta.push_back(e); }
    }
    const double M = (double)S.n * spat;
    double e2n = 0, e2d = 0, evn = 0, evd = 0, emax = 0, ratio = 0;
    for (int c = 0; c < S.co; ++c) {
        e2n += (got[c] - h2[c]) * (got[c] - h2[c]); e2d += h2[c] * h2[c];
        const double mu = h1[c] / M, vr = h2[c] / M - mu * mu, vg = got[c] / M - mu * mu;
        evn += (vg - vr) * (vg - vr); evd += vr * vr;
        emax = std::max(emax, fabs(vg - vr) / vr);
        ratio = std::max(ratio, mu * mu / vr);
    }
    printf("  sum of squares per channel: rel-L2 %.3e against float64; variance rel-L2 %.3e, largest %.3e (largest mean^2 / var %.3f)\n",
           sqrt(e2n / e2d), sqrt(evn / evd), emax, ratio);
    printf("  bitwise the same in every run: %s\n", same ? "yes" : "NO");
    printf("  median of %d (ms): whole planes %.4f, first / last rows %.4f of the correlations\n", runs, median(tm), median(trw));
    printf("  median of %d (ms): correlations %.4f, their reduction %.4f, terms %.4f, contraction %.4f, all %.4f\n", runs, median(tb),
           median(tr), median(tt), median(tc), median(ta));
    const double macs = 27.0 * 256 * (double)(pos_main + pos_edge);
    printf("  correlations: %.2f GMAC, %.1f TFLOP/s; whole planes %.2f GMAC, %.1f TFLOP/s\n", macs * 1e-9,
           2 * macs / (median(tb) * 1e-3) * 1e-12, 27.0 * 256 * pos_main * 1e-9, 2 * 27.0 * 256 * pos_main / (median(tm) * 1e-3) * 1e-12);
    }
    return 0;
}
