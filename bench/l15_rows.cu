// l15_rows.cu - L2/15's transposed convolution by whole output rows a warp, measured standalone.
//
// L2/15 (x 16 x 16 x 16 x 32 x 32, C_out 32, k 3, s 2, p 1, bias; y 16 x 32 x 31 x 63 x 63) writes
// 252 MB for 7.2 GFLOP: its floor is y's bytes. The library's block loop reaches 0.161 ms (1.76x the
// floor) latency-bound at ~54 M warp instructions, ~1,700 an output row of 32 channels x 63
// positions. Here the same convolution is computed with far fewer instructions a row, specialised
// to the shape (every tap of every output lands inside the input, so no test of a bound):
//   prep_x     x rounded as the library's TF32 mode rounds it (nearest, ties to even, 10 bits),
//              times 2^4, to f16 (exact: the same 11-bit significand), laid out [n][d][h][w][ci]
//              so that a position's 16 channels are 32 contiguous bytes.
//   prep_w     the weight likewise, times 2^12, [tap][co][ci].
//   conv_rows  persistent CTAs of 8 warps, two an SM; a CTA takes a contiguous range of the
//              31,248 output rows (n, od, oh), a warp a whole row: both W phases (32 positions
//              each) x 32 channels in 64 accumulators. A row's (d, h) taps (1, 2 or 4) run
//              4 ldmatrix.x4 of x (positions m and m + 1, two m16 tiles), 6 of the weight
//              (W taps 1, 0, 2) and 24 mma.sync m16n8k16 (f16 operands, FP32 accumulation); the
//              bias enters as the first MMAs' C operand. The x planes a CTA's rows read (one or
//              two a row) sit in two shared buffers by cp.async, the next one loaded while the
//              rows of the plane before it compute; the weight (27 KB) is staged once.
//              The epilogue scales back by 2^-16 (MODE 0) or applies a per-(n, c) map a v + b
//              (MODE 1: the chain's storing pass once its statistics are known) and stores each
//              channel row as 8-byte pairs of (even, odd) positions where the row starts on an
//              8-byte boundary, else as pairs (odd, even) with the odd value shuffled from the
//              lane of the position before; the row's lone end value a 4-byte store. MODE 2
//              stores nothing (a checksum a warp: what the MMAs and loads cost alone). MODE 3
//              stores nothing but each (n, c)'s sum and sum of squares (a lane's over the rows of a
//              segment (n, od) in registers, then over the warp's lanes, to a slot per segment, piece
//              and warp): L2/15's statistics pass. STAGE (modes 0 and 1, one CTA an SM): the row
//              through a staging of the warp's own ([co][ow], 68 floats a channel: its 8-byte
//              writes on 32 banks), then a store instruction a channel row (8-byte pairs as the row's
//              alignment allows, the odd value of a pair shuffled from the lane before).
//   -DL15_NT=512: CTAs of 16 warps, one an SM (the staging then half a row's channels at a time,
//              so that it fits); 256 (default): 8 warps, two CTAs an SM, the staged pass one.
//   finalize   the chain's statistics (BatchNorm's per-channel mean and variance over the batch,
//              the per-(n, c) mean) from the slots in double, in a fixed order, and the storing
//              pass's map gamma invstd (v - mean_nc): with MODE 3 before it and MODE 1 after, the
//              library's recompute / moments plan of L2/15 on these kernels.
// Shared memory: x planes as [h][w][ci] rows of 33 positions (the 33rd zero: the odd phase's
// last position, which no output keeps, reads it), a position's two 16-byte halves swapped where
// bit 2 of w is set, the weight as [tap][co][ci] with the halves swapped where bit 2 of co is set:
// every ldmatrix phase touches 32 distinct banks.
// Checked against a direct FP32 convolution of the same rounded operands (every output, relative
// L2 and largest error), which is checked in turn against a double computation on the host at
// 4,096 random outputs; the chain's sums and output against double computations from it. Timed with CUDA events, L2 flushed, median of runs, beside a memset of y
// (the bytes alone) in the same run.
//
// Build and run from the repo root (sm_80 and up):
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ibench bench/l15_rows.cu -o build/l15_rows && build/l15_rows [runs]
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

using SH = conv_shape<16, 16, 32, 16, 32, 32, 3, 2, 1>; // L2/15
constexpr int N = SH::N, CI = SH::CI, CO = SH::CO, D = SH::D, H = SH::H, W = SH::W, K = SH::K, S = SH::S, P = SH::P;
constexpr int OD = SH::OD, OH = SH::OH, OW = SH::OW, KT = SH::KT;
constexpr int ROWS = N * OD * OH;                  // output rows (n, od, oh), all channels each
constexpr int XW = W + 1;                          // staged positions a row; the last one zero
constexpr int XROW_B = XW * CI * 2;                // 1,056 bytes
constexpr int PLANE_B = H * XROW_B;                // 33,792 bytes
constexpr int TAP_B = CO * CI * 2;                 // 1,024 bytes
constexpr int WT_B = KT * TAP_B;                   // 27,648 bytes
constexpr int SMEM_B = WT_B + 2 * PLANE_B + CO * 12; // 95,616 bytes: two CTAs an SM
#ifndef L15_NT
#define L15_NT 256 /* threads a CTA: 256 (two CTAs an SM; the staged pass one) or 512 (one CTA of 16 warps) */
#endif
constexpr int NT = L15_NT, NWARP = NT / 32, CTAS_SM = NT == 256 ? 2 : 1;
static_assert(NT == 256 || NT == 512, "8 or 16 warps a CTA");
constexpr float XSCALE = 16.f, WSCALE = 4096.f;    // powers of two: exact, and f16-normal operands
constexpr int STAGE_W = 68;                        // a staged channel row: 64 + 4 floats (conflict-free v2 stores)
constexpr int STAGE_CH = NT == 256 ? CO : CO / 2;  // channels staged at a time: the whole row, or half at 16 warps
constexpr int STAGE_B = STAGE_CH * STAGE_W * 4;    // 8,704 / 4,352 bytes a warp
constexpr int STAGE_OFF = SMEM_B;                  // after the rest
constexpr int SMEM_STAGED_B = SMEM_B + NWARP * STAGE_B; // 165,248 bytes either way: one CTA an SM
static_assert(OD == 31 && OH == 63 && OW == 63, "L2/15's output");
static_assert(W == 32 && CI == 16 && CO == 32 && K == 3 && S == 2 && P == 1, "the kernel is written for this shape");

// ---- the row kernel --------------------------------------------------------------------------
// a plane of xh (n, id: [h][w][ci], 32 KB) into a staging buffer, 8 cp.async a thread
__device__ __forceinline__ void load_plane(uint32_t buf, const __half* __restrict__ xh, int plane) {
    const __half* src = xh + (int64_t)plane * (H * W * CI);
#pragma unroll
    for (int j = 0; j < H * W * 2 / NT; j++) {
        const int c = threadIdx.x + j * NT, h = c >> 6, w = (c >> 1) & 31, hf = c & 1;
        cp16(buf + h * XROW_B + w * 32 + ((hf ^ ((w >> 2) & 1)) << 4), src + (int64_t)c * 8);
    }
}

// one (d, h) tap of a row: 24 MMAs. acc[phase][mt][nt]; FIRST takes the bias as C.
template <bool FIRST>
__device__ __forceinline__ void row_tap(float (&acc)[2][2][4][4], const float (&cb)[4][4], uint32_t xrow,
                                        uint32_t wtap, const uint32_t (&aoff)[2], const uint32_t (&boff)[2]) {
    uint32_t a0[2][4], a1[2][4];
#pragma unroll
    for (int mt = 0; mt < 2; mt++) ldm4(xrow + aoff[0] + mt * 512, a0[mt]); // positions 16 mt + r: iw = m
    // W tap 1: the even phase (ow = 2 m), iw = m
    wtap_mma<FIRST>(acc[0], a0, wtap + 1 * TAP_B, boff, 0, cb);
    // W tap 0: the odd phase (ow = 2 m + 1), iw = m + 1
#pragma unroll
    for (int mt = 0; mt < 2; mt++) ldm4(xrow + aoff[1] + mt * 512, a1[mt]);
    wtap_mma<FIRST>(acc[1], a1, wtap + 0 * TAP_B, boff, 0, cb);
    // W tap 2: the odd phase, iw = m
    wtap_mma(acc[1], a0, wtap + 2 * TAP_B, boff, 0);
}

__device__ __forceinline__ void st2(float* p, float a, float b) { *reinterpret_cast<float2*>(p) = make_float2(a, b); }

template <int MODE, bool STAGE = false>
__global__ void __launch_bounds__(NT, CTAS_SM)
    conv_rows(const __half* __restrict__ xh, const __half* __restrict__ wh, const float* __restrict__ bias,
              const float2* __restrict__ aff, float* __restrict__ y, float* __restrict__ sink, float2* __restrict__ part) {
    extern __shared__ __align__(128) uint8_t sm[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    const uint32_t sw = smem_u32(sm), sp0 = sw + WT_B, sp1 = sw + WT_B + PLANE_B;
    for (int c = tid; c < KT * CO * 2; c += NT) { // the weight, 16-byte halves of (tap, co)
        const int tap = c >> 6, co = (c >> 1) & 31, hf = c & 1;
        cp16(sw + tap * TAP_B + co * 32 + ((hf ^ ((co >> 2) & 1)) << 4), wh + (int64_t)c * 8);
    }
    if (tid < 2 * H * 2) { // the zero position w = 32 of every staged row, both buffers
        const int b = tid / (2 * H), h = (tid >> 1) % H, hf = tid & 1;
        *reinterpret_cast<uint4*>(sm + WT_B + b * PLANE_B + h * XROW_B + W * 32 + hf * 16) = make_uint4(0, 0, 0, 0);
    }
    cp_commit();
    // a lane's ldmatrix offsets: A rows (positions) r = lane & 7 | 8 (lane >> 3 & 1), half lane >> 4
    // (the m16 tile at 16 positions on is 512 bytes on: bit 2 of w, the swizzle's, is the same)
    uint32_t aoff[2], boff[2];
#pragma unroll
    for (int sh = 0; sh < 2; sh++) {
        const int iw = sh + (lane & 7) + 8 * ((lane >> 3) & 1), hf = lane >> 4;
        aoff[sh] = iw * 32 + ((hf ^ ((iw >> 2) & 1)) << 4);
    }
#pragma unroll
    for (int p = 0; p < 2; p++) { // B: matrices (n tile 2 p, half 0), (2 p, 1), (2 p + 1, 0), (2 p + 1, 1)
        const int q = lane >> 3, co = 8 * (2 * p + (q >> 1)) + (lane & 7), hf = q & 1;
        boff[p] = co * 32 + ((hf ^ ((co >> 2) & 1)) << 4);
    }
    float* sbias = reinterpret_cast<float*>(sm + WT_B + 2 * PLANE_B + CO * 8); // scaled: the first MMAs' C
    if (tid < CO) sbias[tid] = bias[tid] * (XSCALE * WSCALE);
    const int r0 = (int)((int64_t)blockIdx.x * ROWS / gridDim.x), r1 = (int)((int64_t)(blockIdx.x + 1) * ROWS / gridDim.x);
    int tag0 = -1, tag1 = -1; // which plane (n D + id) each buffer holds (or is loading)
    float2* saf = reinterpret_cast<float2*>(sm + WT_B + 2 * PLANE_B); // MODE 1: the sample's map, a channel
    float chk = 0.f;
    for (int r = r0; r < r1;) {
        const int seg = r / OH, n = seg / OD, od = seg - n * OD, rend = min(r1, (seg + 1) * OH);
        const int pa = n * D + (od >> 1), pb = (od & 1) ? pa + 1 : -1; // planes id = od >> 1 and, od odd, + 1
        __syncthreads(); // every warp done with the previous segment's rows
#pragma unroll
        for (int q = 0; q < 2; q++) {
            const int p = q ? pb : pa;
            if (p < 0 || p == tag0 || p == tag1) continue;
            if (tag0 == pa || tag0 == pb) { load_plane(sp1, xh, p); tag1 = p; } // buffer 0 holds the other one
            else { load_plane(sp0, xh, p); tag0 = p; }
        }
        cp_commit();
        if (MODE == 1 && tid < CO) saf[tid] = make_float2(aff[n * CO + tid].x * (1.f / (XSCALE * WSCALE)), aff[n * CO + tid].y);
        cp_wait_all();
        __syncthreads();
        const uint32_t ba = tag0 == pa ? sp0 : sp1, bb = tag0 == pb ? sp0 : sp1; // bb: od odd only
        if (rend == (seg + 1) * OH && rend < r1) { // the next segment's missing plane into the free buffer
            const int s2 = seg + 1, n2 = s2 / OD, od2 = s2 - n2 * OD;
            const int qa = n2 * D + (od2 >> 1), qb = (od2 & 1) ? qa + 1 : -1;
            const bool use0 = !(tag0 == pa || tag0 == pb), use1 = !use0 && !(tag1 == pa || tag1 == pb);
            bool free_ = use0 || use1; // a buffer this segment does not read
#pragma unroll
            for (int q = 0; q < 2; q++) {
                const int p = q ? qb : qa;
                if (p < 0 || p == tag0 || p == tag1 || !free_) continue; // else loaded at that segment's start
                if (use0) { load_plane(sp0, xh, p); tag0 = p; }
                else { load_plane(sp1, xh, p); tag1 = p; }
                free_ = false;
            }
            cp_commit();
        }
        const int cnt = rend - r, oh0 = r - seg * OH;
        float ssum[4][2], ssq[4][2]; // MODE 3: the lane's sums over the segment's rows, a channel it holds
#pragma unroll
        for (int nt = 0; nt < 4; nt++) ssum[nt][0] = ssum[nt][1] = ssq[nt][0] = ssq[nt][1] = 0.f;
        // D taps: od odd: td 0 at id = (od + 1) / 2 (plane pb), td 2 at (od - 1) / 2 (pa); even: td 1 at od / 2 (pa)
        const int nd = (od & 1) ? 2 : 1, td0 = (od & 1) ? 0 : 1;
        const uint32_t xd0 = (od & 1) ? bb : ba;
        for (int k = 0; k * NWARP < cnt; k++) {
            const int j = k * NWARP + ((k & 1) ? NWARP - 1 - warp : warp); // alternate, so that both parities share a warp
            if (j >= cnt) continue;
            const int oh = oh0 + j;
            const int nh = (oh & 1) ? 2 : 1, th0 = (oh & 1) ? 0 : 1, ih0 = (oh + 1) >> 1;
            float acc[2][2][4][4], cb[4][4]; // the bias as C: columns 2t, 2t + 1 of each n tile
#pragma unroll
            for (int nt = 0; nt < 4; nt++) {
                const float2 b2 = *reinterpret_cast<const float2*>(sbias + 8 * nt + 2 * t);
                cb[nt][0] = cb[nt][2] = b2.x;
                cb[nt][1] = cb[nt][3] = b2.y;
            }
            row_tap<true>(acc, cb, xd0 + ih0 * XROW_B, sw + (td0 * 9 + th0 * 3) * TAP_B, aoff, boff);
            if (nh == 2) row_tap<false>(acc, cb, xd0 + (ih0 - 1) * XROW_B, sw + (td0 * 9 + 2 * 3) * TAP_B, aoff, boff);
            if (nd == 2) {
                row_tap<false>(acc, cb, ba + ih0 * XROW_B, sw + (2 * 9 + th0 * 3) * TAP_B, aoff, boff);
                if (nh == 2) row_tap<false>(acc, cb, ba + (ih0 - 1) * XROW_B, sw + (2 * 9 + 2 * 3) * TAP_B, aoff, boff);
            }
            if (MODE == 2) {
#pragma unroll
                for (int i = 0; i < 64; i++) chk += (&acc[0][0][0][0])[i];
                continue;
            }
            if (MODE == 3) { // the values' sums and sums of squares; the odd phase's position 31 is no output
#pragma unroll
                for (int nt = 0; nt < 4; nt++)
#pragma unroll
                    for (int s = 0; s < 4; s++)
#pragma unroll
                        for (int cp = 0; cp < 2; cp++) {
                            const int mt = s >> 1, i = 2 * (s & 1) + cp;
                            const float ev = acc[0][mt][nt][i] * (1.f / (XSCALE * WSCALE));
                            const float ov = (s == 3 && g == 7) ? 0.f : acc[1][mt][nt][i] * (1.f / (XSCALE * WSCALE));
                            ssum[nt][cp] += ev + ov;
                            ssq[nt][cp] = fmaf(ev, ev, fmaf(ov, ov, ssq[nt][cp]));
                        }
                continue;
            }
            // y[n][co][od][oh][ow]: the row of channel co starts at rb + co * OD * OH * OW, whose parity
            // is (co + od + oh) & 1 (OD * OH * OW and OW odd)
            const int64_t rb = (((int64_t)n * CO * OD + od) * OH + oh) * OW;
            const int par = (od + oh) & 1;
            if constexpr (STAGE) { // through the warp's staging: a store instruction a channel row
                float* st = reinterpret_cast<float*>(sm + STAGE_OFF + warp * STAGE_B);
#pragma unroll
                for (int hh = 0; hh < CO / STAGE_CH; hh++) { // STAGE_CH channels at a time
                    __syncwarp(); // the previous reads of the staging done
#pragma unroll
                    for (int cp = 0; cp < 2; cp++)
#pragma unroll
                        for (int nt = hh * (STAGE_CH / 8); nt < (hh + 1) * (STAGE_CH / 8); nt++) {
                            const int co = 8 * nt + 2 * t + cp, cl = co - hh * STAGE_CH;
                            const float2 m_ = MODE == 1 ? saf[co] : make_float2(1.f / (XSCALE * WSCALE), 0.f);
#pragma unroll
                            for (int s = 0; s < 4; s++) {
                                const int mt = s >> 1, i = 2 * (s & 1) + cp, m = 8 * s + g;
                                *reinterpret_cast<float2*>(st + cl * STAGE_W + 2 * m) = make_float2(
                                    fmaf(acc[0][mt][nt][i], m_.x, m_.y), fmaf(acc[1][mt][nt][i], m_.x, m_.y));
                            }
                        }
                    __syncwarp();
#pragma unroll 4
                    for (int cl = 0; cl < STAGE_CH; cl++) {
                        const int co = hh * STAGE_CH + cl;
                        float* yr = y + rb + (int64_t)co * (OD * OH * OW);
                        const float2 v = *reinterpret_cast<const float2*>(st + cl * STAGE_W + 2 * lane); // ow 2 lane, + 1
                        if (((co + par) & 1) == 0) { // the row on 8 bytes: pairs (2 l, 2 l + 1), ow 62 alone
                            if (lane < 31) st2(yr + 2 * lane, v.x, v.y);
                            else yr[62] = v.x;
                        } else { // pairs (2 l - 1, 2 l), ow 0 alone
                            const float pv = __shfl_up_sync(0xffffffffu, v.y, 1);
                            if (lane > 0) st2(yr + 2 * lane - 1, pv, v.x);
                            else yr[0] = v.x;
                        }
                    }
                }
            } else {
#pragma unroll
                for (int cp = 0; cp < 2; cp++) {
                    const bool aligned = ((cp + par) & 1) == 0;
#pragma unroll
                    for (int nt = 0; nt < 4; nt++) {
                        const int co = 8 * nt + 2 * t + cp;
                        float* yr = y + rb + (int64_t)co * (OD * OH * OW);
                        const float2 m_ = MODE == 1 ? saf[co] : make_float2(1.f / (XSCALE * WSCALE), 0.f);
                        const float sa = m_.x, sb = m_.y;
#pragma unroll
                        for (int s = 0; s < 4; s++) {
                            const int mt = s >> 1, i = 2 * (s & 1) + cp, m = 8 * s + g;
                            const float ev = fmaf(acc[0][mt][nt][i], sa, sb), ov = fmaf(acc[1][mt][nt][i], sa, sb);
                            if (aligned) {
                                if (m < 31) st2(yr + 2 * m, ev, ov);
                                else yr[2 * m] = ev;
                            } else {
                                const int sp_ = s > 0 ? s - 1 : 0;
                                const float pv = fmaf(acc[1][sp_ >> 1][nt][2 * (sp_ & 1) + cp], sa, sb);
                                const float recv = __shfl_sync(0xffffffffu, g == 7 ? pv : ov, (lane + 28) & 31);
                                if (m > 0) st2(yr + 2 * m - 1, recv, ev);
                                else yr[0] = ev;
                            }
                        }
                    }
                }
            }
        }
        if (MODE == 3) { // the warp's sums over its lanes of a channel (g), to slot (segment, piece, warp)
#pragma unroll
            for (int nt = 0; nt < 4; nt++)
#pragma unroll
                for (int cp = 0; cp < 2; cp++)
#pragma unroll
                    for (int m = 4; m < 32; m <<= 1) {
                        ssum[nt][cp] += __shfl_xor_sync(0xffffffffu, ssum[nt][cp], m);
                        ssq[nt][cp] += __shfl_xor_sync(0xffffffffu, ssq[nt][cp], m);
                    }
            if (g == 0) {
                float2* slot = part + ((int64_t)(seg * 2 + (r == seg * OH ? 0 : 1)) * NWARP + warp) * CO;
#pragma unroll
                for (int nt = 0; nt < 4; nt++)
#pragma unroll
                    for (int cp = 0; cp < 2; cp++) slot[8 * nt + 2 * t + cp] = make_float2(ssum[nt][cp], ssq[nt][cp]);
            }
        }
        r = rend;
    }
    cp_wait_all();
    if (MODE == 2 && chk == 12345.f) sink[blockIdx.x * NT + tid] = chk; // keeps the MMAs alive
}

// the chain's statistics (training BatchNorm over (n, spatial) a channel, then the mean over
// space a (n, c) subtracted): a block a channel, a sample a thread, the slots summed in double in a
// fixed order; writes the storing pass's map a v + b = gamma invstd (v - mean_nc) and the sums
__global__ void finalize(const float2* __restrict__ part, const float* __restrict__ gamma, float2* __restrict__ aff,
                         double2* __restrict__ stats) {
    __shared__ double sh[2][N];
    const int c = blockIdx.x, n = threadIdx.x;
    double s = 0, q = 0;
    if (n < N)
        for (int od = 0; od < OD; od++)
            for (int piece = 0; piece < 2; piece++)
                for (int w = 0; w < NWARP; w++) {
                    const float2 v = part[((int64_t)((n * OD + od) * 2 + piece) * NWARP + w) * CO + c];
                    s += v.x;
                    q += v.y;
                }
    if (n < N) { sh[0][n] = s; sh[1][n] = q; }
    __syncthreads();
    if (n < N) {
        double S = 0, Q = 0;
        for (int i = 0; i < N; i++) { S += sh[0][i]; Q += sh[1][i]; }
        const double cnt = (double)N * OD * OH * OW, mean = S / cnt, var = Q / cnt - mean * mean;
        const double a = gamma[c] / sqrt(var + 1e-5);
        aff[n * CO + c] = make_float2((float)a, (float)(-a * (s / (cnt / N))));
        stats[n * CO + c] = make_double2(s, q);
    }
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    int dev = 0, sms = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int64_t nx = SH::NX, ny = SH::NY;
    conv_operands<SH> op; // x, the weight, the bias
    std::mt19937& rng = op.rng;
    std::uniform_real_distribution<float> uw(-op.bound, op.bound), ua(0.5f, 2.f);
    std::vector<float2> haff(N * CO);
    for (int i = 0; i < N * CO; i++) haff[i] = make_float2(ua(rng), uw(rng));
    std::vector<float> hgamma(CO);
    for (int i = 0; i < CO; i++) hgamma[i] = ua(rng);
    float *dx = op.dx, *dw = op.dw, *db = op.db, *dy, *dsink, *flush, *dgamma;
    float2 *daff, *dpart, *dchain_aff;
    double2* dstats;
    const size_t part_bytes = (size_t)N * OD * 2 * NWARP * CO * sizeof(float2);
    __half *dxh, *dwh;
    const size_t flush_bytes = (size_t)256 << 20;
    CK(cudaMalloc(&dy, ny * 4));
    CK(cudaMalloc(&dsink, (size_t)4 * sms * NT * 4));
    CK(cudaMalloc(&daff, N * CO * sizeof(float2)));
    CK(cudaMalloc(&dchain_aff, N * CO * sizeof(float2)));
    CK(cudaMalloc(&dpart, part_bytes));
    CK(cudaMalloc(&dstats, N * CO * sizeof(double2)));
    CK(cudaMalloc(&dgamma, CO * 4));
    CK(cudaMemcpy(dgamma, hgamma.data(), CO * 4, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dxh, nx * 2));
    CK(cudaMalloc(&dwh, SH::NW * 2));
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMemcpy(daff, haff.data(), N * CO * sizeof(float2), cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(conv_rows<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    CK(cudaFuncSetAttribute(conv_rows<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    CK(cudaFuncSetAttribute(conv_rows<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    CK(cudaFuncSetAttribute(conv_rows<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_B));
    CK(cudaFuncSetAttribute(conv_rows<0, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_STAGED_B));
    CK(cudaFuncSetAttribute(conv_rows<1, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_STAGED_B));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, conv_rows<0>, NT, SMEM_B));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, conv_rows<0>));
    printf("l15_rows: %d SMs, conv_rows %d registers, %zu bytes local, %d B shared, %d CTAs an SM\n", sms, fa.numRegs,
           (size_t)fa.localSizeBytes, SMEM_B, per_sm);

    auto px = [&] { prep_x<SH><<<(N * D * H * W + 255) / 256, 256>>>(dx, dxh, XSCALE); };
    auto pw = [&] { prep_w<SH><<<(KT * CO * CI + 255) / 256, 256>>>(dw, dwh, WSCALE); };
    auto rows = [&](int mode, int grid) {
        if (mode == 0) conv_rows<0><<<grid, NT, SMEM_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        if (mode == 1) conv_rows<1><<<grid, NT, SMEM_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        if (mode == 2) conv_rows<2><<<grid, NT, SMEM_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        if (mode == 3) conv_rows<3><<<grid, NT, SMEM_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        if (mode == 4) conv_rows<0, true><<<grid, NT, SMEM_STAGED_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        if (mode == 5) conv_rows<1, true><<<grid, NT, SMEM_STAGED_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
    };
    auto poison = [&] { CK(cudaMemsetAsync(dy, 0xff, ny * 4)); }; // NaN
    // L2/15's chain on the rows (recompute / moments): the statistics pass (no store), the
    // finalize, the storing pass with the map (the slots of pieces no CTA has are zero)
    auto chain = [&] {
        CK(cudaMemsetAsync(dpart, 0, part_bytes));
        conv_rows<3><<<CTAS_SM * sms, NT, SMEM_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        finalize<<<CO, 32>>>(dpart, dgamma, dchain_aff, dstats);
        conv_rows<1><<<CTAS_SM * sms, NT, SMEM_B>>>(dxh, dwh, db, dchain_aff, dy, dsink, dpart);
    };
    auto chain_staged = [&] { // the same with the storing pass through the warps' staging
        CK(cudaMemsetAsync(dpart, 0, part_bytes));
        conv_rows<3><<<CTAS_SM * sms, NT, SMEM_B>>>(dxh, dwh, db, daff, dy, dsink, dpart);
        finalize<<<CO, 32>>>(dpart, dgamma, dchain_aff, dstats);
        conv_rows<1, true><<<sms, NT, SMEM_STAGED_B>>>(dxh, dwh, db, dchain_aff, dy, dsink, dpart);
    };
    if (ROWS / (CTAS_SM * sms) < OH) { printf("l15_rows: %d SMs: a CTA's rows fewer than a segment's (two pieces a segment at most)\n", sms); return 1; }

    // correctness: the reference against double at random points, then every output against it
    int fails = 0;
    const std::vector<float> ref = op.reference(&fails);
    std::vector<float> got(ny);
    px();
    pw();
    for (int mode : {0, 1, 4, 5}) {
        poison();
        rows(mode, mode >= 4 ? sms : CTAS_SM * sms);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
        std::vector<float> want = ref;
        if (mode == 1 || mode == 5)
            for (int64_t e = 0; e < ny; e++) {
                const int nc = (int)(e / ((int64_t)OD * OH * OW));
                want[e] = (float)((double)ref[e] * haff[nc].x + haff[nc].y);
            }
        compare(mode == 0 ? "rows, the convolution" : mode == 1 ? "rows, a v + b per (n, c)" : mode == 4 ? "staged rows, the convolution" : "staged rows, a v + b", got, want, 1e-5, &fails);
    }
    { // the chain (both storing passes): its sums per (n, c) and its output against double from the FP32 reference
        const int64_t sp = (int64_t)OD * OH * OW;
        std::vector<double> S(N * CO, 0), Q(N * CO, 0);
        for (int64_t e = 0; e < ny; e++) { S[e / sp] += ref[e]; Q[e / sp] += (double)ref[e] * ref[e]; }
        std::vector<float> want(ny);
        for (int c = 0; c < CO; c++) {
            double Sc = 0, Qc = 0;
            for (int n = 0; n < N; n++) { Sc += S[n * CO + c]; Qc += Q[n * CO + c]; }
            const double cnt = (double)N * sp, mean = Sc / cnt, var = Qc / cnt - mean * mean, a = hgamma[c] / std::sqrt(var + 1e-5);
            for (int n = 0; n < N; n++) {
                const double mnc = S[n * CO + c] / sp;
                for (int64_t e = (int64_t)(n * CO + c) * sp; e < (int64_t)(n * CO + c + 1) * sp; e++) want[e] = (float)(a * (ref[e] - mnc));
            }
        }
        for (int staged = 0; staged < 2; staged++) {
            poison();
            if (staged) chain_staged();
            else chain();
            CK(cudaDeviceSynchronize());
            std::vector<double2> st(N * CO);
            CK(cudaMemcpy(st.data(), dstats, N * CO * sizeof(double2), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(got.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
            double ws = 0, wq = 0;
            for (int i = 0; i < N * CO; i++) {
                ws = std::max(ws, std::fabs(st[i].x - S[i]) / std::sqrt(Q[i] / sp) / sp); // against the values' rms
                wq = std::max(wq, std::fabs(st[i].y - Q[i]) / Q[i]);
            }
            const bool sok = ws <= 1e-5 && wq <= 1e-5;
            printf("  chain statistics: sums %.3e of the rms, sums of squares %.3e relative (bound 1e-5 each): %s\n", ws, wq,
                   sok ? "ok" : "FAILED");
            if (!sok) fails++;
            compare(staged ? "chain, staged storing pass" : "chain: BatchNorm, less the mean", got, want, 1e-5, &fails);
        }
    }
    { // bitwise the same across two runs
        std::vector<float> again(ny);
        poison();
        rows(0, CTAS_SM * sms);
        CK(cudaMemcpy(got.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
        poison();
        rows(0, CTAS_SM == 2 ? sms : sms - 1); // another grid: another split of the rows, the same values
        CK(cudaMemcpy(again.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
        const bool same = memcmp(got.data(), again.data(), ny * 4) == 0;
        printf("  two runs (grids %d and %d) bitwise equal: %s\n", CTAS_SM * sms, CTAS_SM == 2 ? sms : sms - 1, same ? "ok" : "FAILED");
        if (!same) fails++;
    }

    // timing
    const double tm = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { CK(cudaMemsetAsync(dy, 0, ny * 4)); });
    const double tpx = standalone_median_ms(runs, flush, flush_bytes, [] {}, px);
    const double tpw = standalone_median_ms(runs, flush, flush_bytes, [] {}, pw);
    const double t0 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(0, CTAS_SM * sms); });
    const double t0a = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { px(); pw(); rows(0, CTAS_SM * sms); });
    const double t01 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(0, sms); });
    const double t1 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(1, CTAS_SM * sms); });
    const double t2 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(2, CTAS_SM * sms); });
    const double t3 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(3, CTAS_SM * sms); });
    const double tch = standalone_median_ms(runs, flush, flush_bytes, [] {}, chain);
    const double tcha = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { px(); pw(); chain(); });
    const double t4 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(4, sms); });
    const double t5 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(5, sms); });
    const double t31 = standalone_median_ms(runs, flush, flush_bytes, [] {}, [&] { rows(3, sms); });
    const double tchs = standalone_median_ms(runs, flush, flush_bytes, [] {}, chain_staged);
    const double ybytes = (double)ny * 4;
    printf("L2/15 by rows (median of %d, L2 flushed, ms): memset of y %.4f (%.0f GB/s); prep_x %.4f, prep_w %.4f; "
           "rows %.4f (%.0f GB/s of y), with both preps %.4f; rows on %d CTAs %.4f; rows a v + b %.4f; rows without "
           "stores %.4f; statistics pass %.4f; the chain (statistics, finalize, storing pass) %.4f, with both preps %.4f\n",
           runs, tm, ybytes / tm * 1e-6, tpx, tpw, t0, ybytes / t0 * 1e-6, t0a, sms, t01, t1, t2, t3, tch, tcha);
    printf("L2/15 by rows, staged stores (one CTA an SM): rows %.4f (%.0f GB/s of y), a v + b %.4f; statistics pass on %d "
           "CTAs %.4f; the chain with the staged storing pass %.4f\n",
           t4, ybytes / t4 * 1e-6, t5, sms, t31, tchs);
    printf("l15_rows: %s (%d failed)\n", fails ? "FAILED" : "all checks passed", fails);
    return fails ? 1 : 0;
}
