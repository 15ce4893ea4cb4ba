// l34_rows.cu - L2/34's transposed convolution and its chain (LayerNorm over W, exact GELU, x 1.0)
// by whole output rows a warp, measured standalone.
//
// L2/34 (x 32 x 32 x 16 x 32 x 32, C_out 64, k 4, s 2, p 1, bias; y 32 x 64 x 32 x 64 x 64, 1.07 GB)
// is bound by y's bytes and its 137 GFLOP. The library runs it on the haloed wgmma row tiles
// (convolution alone 0.488 ms, the chain 0.747: the row program on one epilogue warpgroup bounds
// it). Here every warp computes its own rows and runs their epilogue itself, so the chain's
// per-value work spreads over all the SM's warps, and the MMAs run on f16 operands (the TF32 values
// times a power of two: exact), twice TF32's rate:
//   prep_x     x rounded as the library's TF32 mode rounds it, times 2^4, to f16, [n][d][h][w][ci]
//   prep_w     the weight likewise, times 2^12, [tap][co][ci]
//   conv_rows  one persistent CTA of 16 warps an SM. The outputs fall in four classes by the
//              parity of (od, oh); a CTA takes one class (its 16 taps' weights, 64 KB, staged once)
//              and a contiguous range of that class's segments: (n, od, 8 rows oh of the class).
//              A segment's x (two planes x 9 rows x 34 positions x 32 channels, f16, the end
//              positions zero) comes by cp.async into one of two buffers while the other computes.
//              Warp 2 j + h takes row j of the segment, output channels 32 h .. 32 h + 31, both W
//              phases (32 positions each) in 64 accumulators; each in-range (d, h) tap runs, a
//              k-step of 16 channels, ldmatrix.x4 of x at the shifts -1, 0, +1 and of the four W
//              taps' weights, and 32 mma.sync m16n8k16.
//              MODE 0 stores the convolution; MODE 1 the chain: a channel's 64 values of the row
//              (8 a lane) summed over the lanes by shuffles, centred, their variance likewise,
//              then the LayerNorm's affine by W position, the exact GELU (erff) and the scale, all
//              in registers; MODE 2 stores nothing (a checksum: the MMAs and loads alone).
//              Stores: 8-byte (even, odd) pairs; a row starts on 256 bytes.
// Shared memory: a position's 64 bytes of channels as four 16-byte chunks, chunk c at c ^ (pos / 2
// % 4); a weight row (co) likewise at c ^ (co / 2 % 4): every ldmatrix phase on 32 banks.
// Checked against a direct FP32 convolution of the same rounded operands (every output), which is
// checked against double on the host at 4,096 outputs; the chain against double computed from it.
// Timed with CUDA events, L2 flushed, median of runs, beside a memset of y in the same run.
//
// Build and run from the repo root (sm_80 and up):
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ibench bench/l34_rows.cu -o build/l34_rows && build/l34_rows [runs]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <random>
#include <vector>
#include <cuda_fp16.h>
#include "standalone.h"
#include "standalone_mma.h"

using SH = conv_shape<32, 32, 64, 16, 32, 32, 4, 2, 1>; // L2/34
constexpr int N = SH::N, CI = SH::CI, CO = SH::CO, D = SH::D, H = SH::H, W = SH::W, K = SH::K, S = SH::S, P = SH::P;
constexpr int OD = SH::OD, OH = SH::OH, OW = SH::OW, KT = SH::KT;
constexpr int XP = W + 2;                      // staged positions a row: iw = -1 .. W, the ends zero
constexpr int XROW_B = XP * CI * 2;            // 2,176 bytes
constexpr int SROWS = 9;                       // staged rows a plane: 8 output rows of a class
constexpr int PL_B = SROWS * XROW_B;           // 19,584 bytes
constexpr int BUF_B = 2 * PL_B;                // two planes
constexpr int TAP_B = CO * CI * 2;             // 4,096 bytes
constexpr int CTAPS = 16;                      // a class's taps: 2 (d) x 2 (h) x 4 (w)
constexpr int WT_B = CTAPS * TAP_B;            // 65,536 bytes
constexpr int SMEM_B = WT_B + 2 * BUF_B + 3 * 64 * 4; // + LayerNorm weight, bias (by W), conv bias
constexpr int NT = 512; // 16 warps: 8 rows x 2 channel halves a segment
constexpr int NSEG = N * (OD / 2) * (OH / 2 / 8); // segments of a class: 2,048
constexpr float XSCALE = 16.f, WSCALE = 4096.f, INV = 1.f / (XSCALE * WSCALE);
static_assert(OD == 32 && OH == 64 && OW == 64, "L2/34's output");
static_assert(W == 32 && CI == 32 && CO == 64 && K == 4 && S == 2 && P == 1, "the kernel is written for this shape");

// ---- the row kernel --------------------------------------------------------------------------
// a segment's x: planes id = idlo, idlo + 1; rows ih = ihlo .. ihlo + 8; out-of-range ones not loaded
// (no tap of the segment reads them)
__device__ __forceinline__ void load_segment(uint32_t buf, const __half* __restrict__ xh, int n, int idlo, int ihlo) {
    for (int e = threadIdx.x; e < 2 * SROWS * W * 4; e += NT) {
        const int c = e & 3, iw = (e >> 2) & 31, rr = e >> 7, pl = rr / SROWS, r = rr - pl * SROWS;
        const int id = idlo + pl, ih = ihlo + r, pos = iw + 1;
        if (id < 0 || id >= D || ih < 0 || ih >= H) continue;
        cp16(buf + pl * PL_B + r * XROW_B + pos * 64 + ((c ^ ((pos >> 1) & 3)) << 4),
             xh + ((((int64_t)n * D + id) * H + ih) * W + iw) * CI + c * 8);
    }
}

__device__ __forceinline__ void st2(float* p, float a, float b) { *reinterpret_cast<float2*>(p) = make_float2(a, b); }
__device__ __forceinline__ float gelu(float u) { return 0.5f * u * (1.f + erff(u * 0.70710678118654752f)); }

template <int MODE>
__global__ void __launch_bounds__(NT, 1)
    conv_rows(const __half* __restrict__ xh, const __half* __restrict__ wh, const float* __restrict__ bias,
              const float* __restrict__ lnw, const float* __restrict__ lnb, float* __restrict__ y, float* __restrict__ sink) {
    extern __shared__ __align__(128) uint8_t sm[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    const int cls = blockIdx.x & 3, pd = cls >> 1, ph = cls & 1;
    const int ncta = ((int)gridDim.x - cls + 3) >> 2, ic = blockIdx.x >> 2;
    const int s0 = (int)((int64_t)ic * NSEG / ncta), s1 = (int)((int64_t)(ic + 1) * NSEG / ncta);
    const uint32_t sw = smem_u32(sm), sbuf0 = sw + WT_B; // buffer b at sbuf0 + b BUF_B
    float* slnw = reinterpret_cast<float*>(sm + WT_B + 2 * BUF_B);
    float* slnb = slnw + 64;
    float* sbias = slnw + 128;
    // the class's weights: tap (pl, hs, tw) = (pl 2 + hs) 4 + tw, td = pl ? 1 - pd : 3 - pd, th likewise
    for (int e = tid; e < CTAPS * CO * 4; e += NT) {
        const int c = e & 3, co = (e >> 2) & 63, tp = e >> 8, pl = tp >> 3, hs = (tp >> 2) & 1, tw = tp & 3;
        const int gt = (((pl ? 1 - pd : 3 - pd) * K + (hs ? 1 - ph : 3 - ph)) * K) + tw;
        cp16(sw + tp * TAP_B + co * 64 + ((c ^ ((co >> 1) & 3)) << 4), wh + ((int64_t)gt * CO + co) * CI + c * 8);
    }
    if (tid < 64) { slnw[tid] = lnw[tid]; slnb[tid] = lnb[tid]; sbias[tid] = bias[tid] * (XSCALE * WSCALE); }
    if (tid < 2 * 2 * SROWS * 2 * 4) { // the zero end positions (iw = -1, W) of every staged row, both buffers
        const int c = tid & 3, end = (tid >> 2) & 1, rr = tid >> 3, b = rr / (2 * SROWS), pr = rr % (2 * SROWS);
        *reinterpret_cast<uint4*>(sm + WT_B + b * BUF_B + pr * XROW_B + (end ? XP - 1 : 0) * 64 + c * 16) =
            make_uint4(0, 0, 0, 0);
    }
    auto seg_of = [&](int s, int& n, int& a, int& bb) { n = s >> 6; a = (s >> 2) & 15; bb = s & 3; };
    if (s0 < s1) {
        int n, a, bb;
        seg_of(s0, n, a, bb);
        load_segment(sbuf0, xh, n, a - 1 + pd, 8 * bb - 1 + ph);
    }
    cp_commit(); // the weights and the first segment
    // lane offsets: A rows r = lane & 7 | 8 (lane >> 3 & 1), chunk lane >> 4 (+ 2 at k-step 1: offset ^ 32);
    // shift sh - 1, position 16 mt + r + sh (the m16 tile 16 positions on: + 1024, the same swizzle)
    uint32_t aoff[3], boff[2];
#pragma unroll
    for (int sh = 0; sh < 3; sh++) {
        const int pos = (lane & 7) + 8 * ((lane >> 3) & 1) + sh, c = lane >> 4;
        aoff[sh] = pos * 64 + ((c ^ ((pos >> 1) & 3)) << 4);
    }
    const int hf = warp & 1, j = warp >> 1; // channels 32 hf .., row j of the segment
#pragma unroll
    for (int p = 0; p < 2; p++) { // B: (n tile 2 p, chunk 0), (2 p, 1), (2 p + 1, 0), (2 p + 1, 1)
        const int q = lane >> 3, co = 32 * hf + 8 * (2 * p + (q >> 1)) + (lane & 7), c = q & 1;
        boff[p] = co * 64 + ((c ^ ((co >> 1) & 3)) << 4);
    }
    float chk = 0.f;
    for (int s = s0; s < s1; s++) {
        const int k = s - s0;
        int n, a, bb;
        seg_of(s, n, a, bb);
        __syncthreads(); // every warp done with segment s - 1: its buffer is free
        if (s + 1 < s1) {
            int n2, a2, bb2;
            seg_of(s + 1, n2, a2, bb2);
            load_segment(sbuf0 + ((k + 1) & 1) * BUF_B, xh, n2, a2 - 1 + pd, 8 * bb2 - 1 + ph);
        }
        cp_commit();
        cp_wait_but_last(); // segment s (and the weights) landed
        __syncthreads();
        const uint32_t buf = sbuf0 + (k & 1) * BUF_B;
        const int idlo = a - 1 + pd, ihlo = 8 * bb - 1 + ph, od = 2 * a + pd, oh = 2 * (8 * bb + j) + ph;
        float acc[2][2][4][4];
#pragma unroll
        for (int nt = 0; nt < 4; nt++) {
            const float2 b2 = *reinterpret_cast<const float2*>(sbias + 32 * hf + 8 * nt + 2 * t);
#pragma unroll
            for (int q = 0; q < 2; q++)
#pragma unroll
                for (int mt = 0; mt < 2; mt++) {
                    acc[q][mt][nt][0] = acc[q][mt][nt][2] = b2.x;
                    acc[q][mt][nt][1] = acc[q][mt][nt][3] = b2.y;
                }
        }
#pragma unroll 1
        for (int dh = 0; dh < 4; dh++) {
            const int pl = dh >> 1, hs = dh & 1, r = j + hs;
            if (idlo + pl < 0 || idlo + pl >= D || ihlo + r < 0 || ihlo + r >= H) continue;
            const uint32_t xrow = buf + pl * PL_B + r * XROW_B, wt = sw + (dh * 4) * TAP_B;
#pragma unroll
            for (int ks = 0; ks < 2; ks++) {
                const uint32_t ksx = ks * 32;
                uint32_t ax[2][4];
                // shift 0: the even phase's W tap 1 and the odd phase's W tap 2
#pragma unroll
                for (int mt = 0; mt < 2; mt++) ldm4(xrow + (aoff[1] ^ ksx) + mt * 1024, ax[mt]);
                wtap_mma(acc[0], ax, wt + 1 * TAP_B, boff, ksx);
                wtap_mma(acc[1], ax, wt + 2 * TAP_B, boff, ksx);
                // shift -1: the even phase's W tap 3
#pragma unroll
                for (int mt = 0; mt < 2; mt++) ldm4(xrow + (aoff[0] ^ ksx) + mt * 1024, ax[mt]);
                wtap_mma(acc[0], ax, wt + 3 * TAP_B, boff, ksx);
                // shift +1: the odd phase's W tap 0
#pragma unroll
                for (int mt = 0; mt < 2; mt++) ldm4(xrow + (aoff[2] ^ ksx) + mt * 1024, ax[mt]);
                wtap_mma(acc[1], ax, wt + 0 * TAP_B, boff, ksx);
            }
        }
        if (MODE == 2) {
#pragma unroll
            for (int i = 0; i < 64; i++) chk += (&acc[0][0][0][0])[i];
            continue;
        }
        // y[n][co][od][oh][ow]; lane (g, t) holds ow = 2 m, 2 m + 1 for m = 8 s + g, s = 0 .. 3
        const int64_t rb = ((((int64_t)n * CO + 32 * hf) * OD + od) * OH + oh) * OW;
#pragma unroll
        for (int nt = 0; nt < 4; nt++)
#pragma unroll
            for (int cp = 0; cp < 2; cp++) {
                const int col = 8 * nt + 2 * t + cp;
                float* yr = y + rb + col * (OD * OH * OW); // an int: 31 x 2^17 at most
                if constexpr (MODE == 0) {
#pragma unroll
                    for (int s4 = 0; s4 < 4; s4++)
                        st2(yr + 2 * (8 * s4 + g), acc[0][s4 >> 1][nt][2 * (s4 & 1) + cp] * INV,
                            acc[1][s4 >> 1][nt][2 * (s4 & 1) + cp] * INV);
                } else {
                    float v[4][2];
#pragma unroll
                    for (int s4 = 0; s4 < 4; s4++) {
                        v[s4][0] = acc[0][s4 >> 1][nt][2 * (s4 & 1) + cp] * INV;
                        v[s4][1] = acc[1][s4 >> 1][nt][2 * (s4 & 1) + cp] * INV;
                    }
                    // LayerNorm over the row's 64 W positions (8 a lane, the lanes of a t), GELU, x 1.0
                    float sum = 0.f;
#pragma unroll
                    for (int s4 = 0; s4 < 4; s4++) sum += v[s4][0] + v[s4][1];
                    sum += __shfl_xor_sync(0xffffffffu, sum, 4);
                    sum += __shfl_xor_sync(0xffffffffu, sum, 8);
                    sum += __shfl_xor_sync(0xffffffffu, sum, 16);
                    const float mean = sum * (1.f / OW);
                    float sq = 0.f;
#pragma unroll
                    for (int s4 = 0; s4 < 4; s4++) {
                        v[s4][0] -= mean;
                        v[s4][1] -= mean;
                        sq = fmaf(v[s4][0], v[s4][0], fmaf(v[s4][1], v[s4][1], sq));
                    }
                    sq += __shfl_xor_sync(0xffffffffu, sq, 4);
                    sq += __shfl_xor_sync(0xffffffffu, sq, 8);
                    sq += __shfl_xor_sync(0xffffffffu, sq, 16);
                    const float rstd = rsqrtf(sq * (1.f / OW) + 1e-5f);
#pragma unroll
                    for (int s4 = 0; s4 < 4; s4++) {
                        const int m = 8 * s4 + g;
                        const float2 lw = *reinterpret_cast<const float2*>(slnw + 2 * m);
                        const float2 lb = *reinterpret_cast<const float2*>(slnb + 2 * m);
                        st2(yr + 2 * m, gelu(fmaf(v[s4][0] * rstd, lw.x, lb.x)) * 1.0f,
                            gelu(fmaf(v[s4][1] * rstd, lw.y, lb.y)) * 1.0f);
                    }
                }
            }
    }
    cp_wait_all();
    if (MODE == 2 && chk == 12345.f) sink[blockIdx.x * NT + tid] = chk; // keeps the MMAs alive
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    int dev = 0, sms = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int64_t nx = SH::NX, ny = SH::NY;
    conv_operands<SH> op; // x, the weight, the bias
    std::uniform_real_distribution<float> ua(0.5f, 1.5f), ub(-0.5f, 0.5f);
    std::vector<float> hlw(OW), hlb(OW);
    for (int i = 0; i < OW; i++) { hlw[i] = ua(op.rng); hlb[i] = ub(op.rng); }
    float *dx = op.dx, *dw = op.dw, *db = op.db, *dy, *dsink, *dlw, *dlb, *flush;
    __half *dxh, *dwh;
    const size_t flush_bytes = (size_t)256 << 20;
    CK(cudaMalloc(&dlw, OW * 4));
    CK(cudaMalloc(&dlb, OW * 4));
    CK(cudaMalloc(&dy, ny * 4));
    CK(cudaMalloc(&dsink, (size_t)sms * NT * 4));
    CK(cudaMalloc(&dxh, nx * 2));
    CK(cudaMalloc(&dwh, SH::NW * 2));
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMemcpy(dlw, hlw.data(), OW * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dlb, hlb.data(), OW * 4, cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(conv_rows<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    CK(cudaFuncSetAttribute(conv_rows<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    CK(cudaFuncSetAttribute(conv_rows<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, conv_rows<1>, NT, SMEM_B));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, conv_rows<1>));
    printf("l34_rows: %d SMs, conv_rows<1> %d registers, %zu bytes local, %d B shared, %d CTAs an SM\n", sms, fa.numRegs,
           (size_t)fa.localSizeBytes, SMEM_B, per_sm);
    if (sms < 4) { printf("l34_rows: fewer than 4 SMs\n"); return 1; }

    auto px = [&] { prep_x<SH><<<(unsigned)((N * D * H * W + 255) / 256), 256>>>(dx, dxh, XSCALE); };
    auto pw = [&] { prep_w<SH><<<(KT * CO * CI + 255) / 256, 256>>>(dw, dwh, WSCALE); };
    auto rows = [&](int mode, int grid) {
        if (mode == 0) conv_rows<0><<<grid, NT, SMEM_B>>>(dxh, dwh, db, dlw, dlb, dy, dsink);
        if (mode == 1) conv_rows<1><<<grid, NT, SMEM_B>>>(dxh, dwh, db, dlw, dlb, dy, dsink);
        if (mode == 2) conv_rows<2><<<grid, NT, SMEM_B>>>(dxh, dwh, db, dlw, dlb, dy, dsink);
    };
    auto poison = [&] { CK(cudaMemsetAsync(dy, 0xff, ny * 4)); }; // NaN

    int fails = 0;
    const std::vector<float> ref = op.reference(&fails);
    std::vector<float> got(ny);
    px();
    pw();
    poison();
    rows(0, sms);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
    compare("rows, the convolution", got, ref, 1e-5, &fails);
    {
        std::vector<float> want(ny);
        for (int64_t rb = 0; rb < ny; rb += OW) { // each (n, c, od, oh) row: LayerNorm over W, GELU, x 1.0, in double
            double m = 0, q = 0;
            for (int i = 0; i < OW; i++) m += ref[rb + i];
            m /= OW;
            for (int i = 0; i < OW; i++) q += (ref[rb + i] - m) * (ref[rb + i] - m);
            const double rs = 1.0 / std::sqrt(q / OW + 1e-5);
            for (int i = 0; i < OW; i++) {
                const double u = (ref[rb + i] - m) * rs * hlw[i] + hlb[i];
                want[rb + i] = (float)(0.5 * u * (1.0 + std::erf(u / std::sqrt(2.0))));
            }
        }
        poison();
        rows(1, sms);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
        compare("rows, the chain", got, want, 1e-5, &fails);
        std::vector<float> again(ny);
        poison();
        rows(1, sms - 1); // another split of the segments, the same values
        CK(cudaMemcpy(again.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
        const bool same = memcmp(got.data(), again.data(), ny * 4) == 0;
        printf("  the chain on grids %d and %d bitwise equal: %s\n", sms, sms - 1, same ? "ok" : "FAILED");
        if (!same) fails++;
    }

    const double tm = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { CK(cudaMemsetAsync(dy, 0, ny * 4)); });
    const double tpx = standalone_median_ms(runs, flush, flush_bytes, [] {}, px);
    const double tpw = standalone_median_ms(runs, flush, flush_bytes, [] {}, pw);
    const double t0 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(0, sms); });
    const double t1 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(1, sms); });
    const double t1a = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { px(); pw(); rows(1, sms); });
    const double t2 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(2, sms); });
    const double ybytes = (double)ny * 4, flops = 137.4e9;
    printf("L2/34 by rows (median of %d, L2 flushed, ms): memset of y %.4f (%.0f GB/s); prep_x %.4f, prep_w %.4f; "
           "convolution %.4f (%.0f GB/s of y, %.0f useful TFLOP/s); chain %.4f, with both preps %.4f; without stores "
           "%.4f\n",
           runs, tm, ybytes / tm * 1e-6, tpx, tpw, t0, ybytes / t0 * 1e-6, flops / t0 * 1e-9, t1, t1a, t2);
    printf("l34_rows: %s (%d failed)\n", fails ? "FAILED" : "all checks passed", fails);
    return fails ? 1 : 0;
}
