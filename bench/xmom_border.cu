// xmom_border.cu - the per-(n, c) sums of squares of a transposed convolution taken from x alone, in
// the form that needs no boundary boxes, measured standalone on L2/15's shape.
//
// Before the padding crops it, the transposed convolution's output at f = s i + dl t (per dim, f in
// [0, F), F = (I - 1) s + dl (k - 1) + 1) is a sum over every tap of every input, so over that whole
// uncropped output
//   sum_f conv[n, c, f]^2 = sum over tap pairs (t, u), (t - u) dl divisible by s in every dim, of
//                           sum_{ci, cj} w[ci, c, t] T_n(lag)[ci][cj] w[cj, c, u],
//   T_n(lag)[ci][cj] = sum_j x[n, ci, j] x[n, cj, j + lag],  lag = (t - u) dl / s per dim,
// x zero outside the input and j over the whole input: no box ends but the input's. T(-lag) is
// T(lag) transposed, so half the lags are computed. The kept output (o = f - p in [0, O)) is the
// uncropped one less the cropped border, whose values are computed directly:
//   sum_o conv^2 = sum_f conv^2 - sum_{f cropped} conv^2.
// The identity holds for any kernel, stride, padding, output padding, dilation and groups (checked
// in double against the convolution on random descs by bench/xmom_border_check.c). Where the
// border is a large share of the squares the difference cancels: L2/15 crops 6,146 of 35,937
// uncropped outputs a (n, c) (17 %).
//
// Here, on L2/15's shape (x 16 x 16 x 16 x 32 x 32, C_out 32, k 3, s 2, p 1; no bias: a bias adds
// the linear terms the library has already):
//   lag_kernel     T over the whole input, the 14 lags of {-1, 0, 1}^3 that are >= 0 in
//                  lexicographic order, on tensor cores (mma.sync m16n8k8, TF32 operands rounded to
//                  nearest, ties to even, as the library's TF32 mode rounds them): a block per
//                  (sample, plane) stages that plane and the next (zero halo) once, 8 warps over its
//                  32 rows, each k-step's A fragment read once for the 14 lags; the block's 8 warps
//                  summed in a fixed order into one float partial.
//   reduce_kernel  a sample's 16 plane partials summed in double, in plane order.
//   border_kernel  the cropped outputs' values and squares, each output computed by gathering its taps (FP32
//                  products of the rounded operands), a block per (n, c), summed in double.
//   contract_kernel a warp per (n, c): the 125 tap pairs' terms, less the border; the sum too, from
//                  x's channel sums (the lag kernel's, per plane) and the weight's tap sums, less the
//                  border's (every tap reaches the uncropped output whole).
// Every sum in a fixed order: bitwise deterministic. Checked against a float64 direct computation
// of the convolution from the same rounded operands (per (n, c) relative error of the sum of
// squares, and per channel of the training BatchNorm's variance with the float64 mean).
//
// Build and run from the repo root (sm_80 and up):
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ibench bench/xmom_border.cu -o build/xmom_border && build/xmom_border [runs]
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cmath>
#include <vector>
#include <random>
#include "standalone.h"

constexpr int N = 16, CI = 16, CO = 32, D = 16, H = 32, W = 32, K = 3, S = 2, P = 1;
constexpr int OD = (D - 1) * S - 2 * P + K, OH = (H - 1) * S - 2 * P + K, OW = (W - 1) * S - 2 * P + K;
constexpr int FD = (D - 1) * S + K, FH = (H - 1) * S + K, FW = (W - 1) * S + K; // uncropped
constexpr int KT = K * K * K;
constexpr int NL = 14;               // lags computed: {-1, 0, 1}^3, lexicographically >= 0
// lag l: (0, 0, 0), (0, 0, 1), (0, 1, -1 .. 1), then (1, -1 .. 1, -1 .. 1)
__host__ __device__ constexpr int lag_d(int l) { return l < 5 ? 0 : 1; }
__host__ __device__ constexpr int lag_h(int l) { return l < 2 ? 0 : l < 5 ? 1 : (l - 5) / 3 - 1; }
__host__ __device__ constexpr int lag_w(int l) { return l < 2 ? l : l < 5 ? l - 3 : (l - 5) % 3 - 1; }
// staging: [ci][plane d, d + 1][row h = -1 .. H][col w = -1 .. W], channel stride = 4 mod 32 words so
// that a fragment's 32 lanes (channel g = lane / 4, position t = lane % 4) hit 32 banks
constexpr int SR = H + 2, SC = W + 2, PLANE = SR * SC;
constexpr int CS = (2 * PLANE - 4 + 31) / 32 * 32 + 4;
static_assert(CS % 32 == 4 && CS >= 2 * PLANE, "channel stride");
constexpr int WARPS = 8, ROWS_PER_WARP = H / WARPS, KSTEPS = W / 8;
constexpr int ACC = NL * 2 * 4;      // a lane's accumulators: lags x two n8 halves x 4
constexpr int PART = ACC * 32;       // floats of a block's lag sums, in fragment order
constexpr int PARTX = PART + CI;     // then the plane's sum of x per channel
static_assert(H % WARPS == 0 && W % 8 == 0, "blocking");
__host__ __device__ constexpr int lag_off(int l) { return lag_d(l) * PLANE + lag_h(l) * SC + lag_w(l); }

__host__ __device__ inline uint32_t tf32_bits(float v) {
    uint32_t r;
    memcpy(&r, &v, 4);
    if ((r & 0x7f800000u) != 0x7f800000u) r = (r + 0xfffu + ((r >> 13) & 1u)) & 0xffffe000u;
    return r;
}
__host__ __device__ inline float tf32(float v) { uint32_t r = tf32_bits(v); float f; memcpy(&f, &r, 4); return f; }

__device__ __forceinline__ void mma_tf32(float* c, const uint32_t* a, const uint32_t* b) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void __launch_bounds__(WARPS * 32, 1) lag_kernel(const float* __restrict__ x, float* __restrict__ part) {
    extern __shared__ uint32_t sx[];
    const int n = blockIdx.x / D, d = blockIdx.x % D;
    for (int e = threadIdx.x; e < CI * 2 * PLANE; e += blockDim.x) {
        const int ci = e / (2 * PLANE), q = e / PLANE % 2, r = e / SC % SR, c = e % SC;
        const int dd = d + q, hh = r - 1, ww = c - 1;
        float v = 0.f;
        if (dd < D && hh >= 0 && hh < H && ww >= 0 && ww < W) v = x[((((int64_t)n * CI + ci) * D + dd) * H + hh) * W + ww];
        sx[ci * CS + q * PLANE + r * SC + c] = tf32_bits(v);
    }
    __syncthreads();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    for (int ci = warp; ci < CI; ci += WARPS) { /* the plane's sum of x per channel: a warp a channel */
        float s = 0.f;
        for (int e = lane; e < H * W; e += 32) s += __uint_as_float(sx[ci * CS + (e / W + 1) * SC + e % W + 1]);
        for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffffu, s, m);
        if (lane == 0) part[(int64_t)blockIdx.x * PARTX + PART + ci] = s;
    }
    float acc[ACC];
#pragma unroll
    for (int i = 0; i < ACC; i++) acc[i] = 0.f;
    for (int i = 0; i < ROWS_PER_WARP; i++) {
        const int h = warp + WARPS * i;
#pragma unroll
        for (int ks = 0; ks < KSTEPS; ks++) {
            const int pa = (h + 1) * SC + ks * 8 + 1 + t; // position t of the k-step, plane d
            uint32_t a[4];
            a[0] = sx[g * CS + pa];
            a[1] = sx[(g + 8) * CS + pa];
            a[2] = sx[g * CS + pa + 4];
            a[3] = sx[(g + 8) * CS + pa + 4];
#pragma unroll
            for (int l = 0; l < NL; l++) {
                const int pb = lag_off(l) + pa;
#pragma unroll
                for (int nt = 0; nt < 2; nt++) {
                    uint32_t b[2];
                    b[0] = sx[(g + 8 * nt) * CS + pb];
                    b[1] = sx[(g + 8 * nt) * CS + pb + 4];
                    mma_tf32(&acc[(l * 2 + nt) * 4], a, b);
                }
            }
        }
    }
    __syncthreads(); // the staging is read no more: the warps' accumulators go there
    float* red = reinterpret_cast<float*>(sx);
#pragma unroll
    for (int i = 0; i < ACC; i++) red[(warp * ACC + i) * 32 + lane] = acc[i];
    __syncthreads();
    for (int e = threadIdx.x; e < PART; e += blockDim.x) {
        float s = 0.f;
        for (int wv = 0; wv < WARPS; wv++) s += red[wv * PART + e];
        part[(int64_t)blockIdx.x * PARTX + e] = s;
    }
}

// T[n][lag][ci][cj] and X[n][ci] in double: a sample's plane partials in plane order
__global__ void reduce_kernel(const float* __restrict__ part, double* __restrict__ T, double* __restrict__ X) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (int64_t)N * PARTX) return;
    const int n = (int)(i / PARTX), e = (int)(i % PARTX);
    double s = 0.0;
    for (int d = 0; d < D; d++) s += part[((int64_t)n * D + d) * PARTX + e];
    if (e >= PART) { X[n * CI + e - PART] = s; return; }
    const int lane = e % 32, a = e / 32, r = a % 4, nt = a / 4 % 2, l = a / 8, g = lane / 4, t = lane % 4;
    const int ci = g + 8 * (r / 2), cj = 8 * nt + 2 * t + r % 2;
    T[(((int64_t)n * NL + l) * CI + ci) * CI + cj] = s;
}

// the cropped outputs' sum and sum of squares: a block per (n, c), fixed-order sums
__global__ void __launch_bounds__(256) border_kernel(const float* __restrict__ xr, const float* __restrict__ wr, double2* __restrict__ border) {
    const int n = blockIdx.x / CO, c = blockIdx.x % CO;
    __shared__ double red[256], red1[256];
    double sq = 0.0, s1 = 0.0;
    for (int f = threadIdx.x; f < FD * FH * FW; f += blockDim.x) {
        const int fd = f / (FH * FW), fh = f / FW % FH, fw = f % FW;
        const int od = fd - P, oh = fh - P, ow = fw - P;
        if (od >= 0 && od < OD && oh >= 0 && oh < OH && ow >= 0 && ow < OW) continue;
        float v = 0.f;
        for (int td = 0; td < K; td++) {
            const int nd = fd - td;
            if (nd < 0 || nd % S || nd / S >= D) continue;
            for (int th = 0; th < K; th++) {
                const int nh = fh - th;
                if (nh < 0 || nh % S || nh / S >= H) continue;
                for (int tw = 0; tw < K; tw++) {
                    const int nw = fw - tw;
                    if (nw < 0 || nw % S || nw / S >= W) continue;
                    const int tap = (td * K + th) * K + tw;
                    for (int ci = 0; ci < CI; ci++)
                        v = fmaf(xr[((((int64_t)n * CI + ci) * D + nd / S) * H + nh / S) * W + nw / S], wr[(ci * CO + c) * KT + tap], v);
                }
            }
        }
        sq += (double)v * v;
        s1 += v;
    }
    red[threadIdx.x] = sq;
    red1[threadIdx.x] = s1;
    __syncthreads();
    for (int m = blockDim.x / 2; m > 0; m /= 2) {
        if (threadIdx.x < m) { red[threadIdx.x] += red[threadIdx.x + m]; red1[threadIdx.x] += red1[threadIdx.x + m]; }
        __syncthreads();
    }
    if (threadIdx.x == 0) border[blockIdx.x] = make_double2(red1[0], red[0]);
}

// a warp per (n, c): the sum (x's channel sums times the weight's tap sums) and the sum of squares
// (the tap pairs' terms), each less the border's
__global__ void __launch_bounds__(256) contract_kernel(const double* __restrict__ T, const double* __restrict__ X, const float* __restrict__ wr,
                                                       const double2* __restrict__ border, double2* __restrict__ s12) {
    const int wid = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (wid >= N * CO) return;
    const int n = wid / CO, c = wid % CO;
    double acc = 0.0, lin = 0.0;
    for (int ci = lane; ci < CI; ci += 32) {
        double ws = 0.0;
        for (int tp = 0; tp < KT; tp++) ws += (double)wr[(ci * CO + c) * KT + tp];
        lin += X[n * CI + ci] * ws;
    }
    for (int tp = 0; tp < KT; tp++)
        for (int up = 0; up < KT; up++) {
            const int t3[3] = {tp / 9, tp / 3 % 3, tp % 3}, u3[3] = {up / 9, up / 3 % 3, up % 3};
            int lg[3], ok = 1;
            for (int a = 0; a < 3; a++) {
                const int df = t3[a] - u3[a];
                if (df % S) ok = 0;
                lg[a] = df / S;
            }
            if (!ok) continue;
            /* T(lag) for lags >= 0 in lexicographic order, else T(-lag) transposed */
            int tr = 0;
            if (lg[0] < 0 || (lg[0] == 0 && (lg[1] < 0 || (lg[1] == 0 && lg[2] < 0)))) {
                tr = 1;
                lg[0] = -lg[0]; lg[1] = -lg[1]; lg[2] = -lg[2];
            }
            const int l = lg[0] == 0 ? (lg[1] == 0 ? lg[2] : 3 + lg[2]) : 5 + (lg[1] + 1) * 3 + lg[2] + 1;
            const double* Tl = T + ((int64_t)n * NL + l) * CI * CI;
            for (int e = lane; e < CI * CI; e += 32) {
                const int ci = e / CI, cj = e % CI;
                acc += (double)wr[(ci * CO + c) * KT + tp] * (tr ? Tl[cj * CI + ci] : Tl[ci * CI + cj]) * (double)wr[(cj * CO + c) * KT + up];
            }
        }
    for (int m = 16; m > 0; m /= 2) {
        acc += __shfl_xor_sync(0xffffffffu, acc, m);
        lin += __shfl_xor_sync(0xffffffffu, lin, m);
    }
    if (lane == 0) s12[wid] = make_double2(lin - border[wid].x, acc - border[wid].y);
}

// float64 reference: the convolution (no bias) from the same rounded operands, per (n, c) sum and
// sum of squares (atomics: a reference)
__global__ void ref_kernel(const float* __restrict__ xr, const float* __restrict__ wr, double* s1, double* s2) {
    const int64_t spat = (int64_t)OD * OH * OW, per = (spat + 255) / 256;
    const int nc = (int)(blockIdx.x / per), n = nc / CO, c = nc % CO;
    const int64_t o = (blockIdx.x % per) * 256 + threadIdx.x;
    double v = 0.0;
    if (o < spat) {
        const int od = (int)(o / ((int64_t)OH * OW)), oh = (int)(o / OW % OH), ow = (int)(o % OW);
        for (int td = 0; td < K; td++) {
            const int nd = od + P - td;
            if (nd < 0 || nd % S || nd / S >= D) continue;
            for (int th = 0; th < K; th++) {
                const int nh = oh + P - th;
                if (nh < 0 || nh % S || nh / S >= H) continue;
                for (int tw = 0; tw < K; tw++) {
                    const int nw = ow + P - tw;
                    if (nw < 0 || nw % S || nw / S >= W) continue;
                    for (int ci = 0; ci < CI; ci++)
                        v += (double)xr[((((int64_t)n * CI + ci) * D + nd / S) * H + nh / S) * W + nw / S] *
                             (double)wr[(ci * CO + c) * KT + (td * K + th) * K + tw];
                }
            }
        }
    }
    __shared__ double b1[256], b2[256];
    b1[threadIdx.x] = v;
    b2[threadIdx.x] = v * v;
    __syncthreads();
    for (int m = 128; m > 0; m /= 2) {
        if (threadIdx.x < m) { b1[threadIdx.x] += b1[threadIdx.x + m]; b2[threadIdx.x] += b2[threadIdx.x + m]; }
        __syncthreads();
    }
    if (threadIdx.x == 0) { atomicAdd(&s1[nc], b1[0]); atomicAdd(&s2[nc], b2[0]); }
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    const int64_t nx = (int64_t)N * CI * D * H * W, nw = (int64_t)CI * CO * KT;
    std::vector<float> hx(nx), hw(nw), hxr(nx), hwr(nw);
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> ux(0.f, 1.f);                 // torch.rand inputs
    const float bound = 1.f / sqrtf((float)CO * KT);                    // PyTorch's default init bound
    std::uniform_real_distribution<float> uw(-bound, bound);
    for (int64_t i = 0; i < nx; i++) { hx[i] = ux(rng); hxr[i] = tf32(hx[i]); }
    for (int64_t i = 0; i < nw; i++) { hw[i] = uw(rng); hwr[i] = tf32(hw[i]); }
    float *dx, *dxr, *dwr, *dpart, *flush;
    double *dT, *dX, *dr1, *dr2;
    double2 *dborder, *ds2;
    const size_t flush_bytes = (size_t)256 << 20;
    CK(cudaMalloc(&dx, nx * 4));
    CK(cudaMalloc(&dxr, nx * 4));
    CK(cudaMalloc(&dwr, nw * 4));
    CK(cudaMalloc(&dpart, (size_t)N * D * PARTX * 4));
    CK(cudaMalloc(&dT, (size_t)N * NL * CI * CI * 8));
    CK(cudaMalloc(&dX, (size_t)N * CI * 8));
    CK(cudaMalloc(&dborder, (size_t)N * CO * 16));
    CK(cudaMalloc(&ds2, (size_t)N * CO * 16));
    CK(cudaMalloc(&dr1, (size_t)N * CO * 8));
    CK(cudaMalloc(&dr2, (size_t)N * CO * 8));
    CK(cudaMalloc(&flush, flush_bytes));
    CK(cudaMemcpy(dx, hx.data(), nx * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dxr, hxr.data(), nx * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dwr, hwr.data(), nw * 4, cudaMemcpyHostToDevice));
    const int smem = CI * CS * 4;
    static_assert(WARPS * PART <= CI * CS, "the reduction fits in the staging");
    CK(cudaFuncSetAttribute(lag_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));

    auto lag = [&] { lag_kernel<<<N * D, WARPS * 32, smem>>>(dx, dpart); };
    auto red = [&] { reduce_kernel<<<(N * PARTX + 255) / 256, 256>>>(dpart, dT, dX); };
    auto bor = [&] { border_kernel<<<N * CO, 256>>>(dxr, dwr, dborder); };
    auto con = [&] { contract_kernel<<<(N * CO * 32 + 255) / 256, 256>>>(dT, dX, dwr, dborder, ds2); };
    auto all = [&] { lag(); red(); bor(); con(); };
    auto poison = [&] { CK(cudaMemsetAsync(ds2, 0xff, (size_t)N * CO * 16)); };

    /* correctness and determinism first */
    poison();
    all();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double2> s2a(N * CO), s2b(N * CO);
    std::vector<double> r1(N * CO), r2(N * CO);
    CK(cudaMemcpy(s2a.data(), ds2, N * CO * 16, cudaMemcpyDeviceToHost));
    poison();
    all();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(s2b.data(), ds2, N * CO * 16, cudaMemcpyDeviceToHost));
    CK(cudaMemset(dr1, 0, N * CO * 8));
    CK(cudaMemset(dr2, 0, N * CO * 8));
    const int64_t per = ((int64_t)OD * OH * OW + 255) / 256;
    ref_kernel<<<(unsigned)(N * CO * per), 256>>>(dxr, dwr, dr1, dr2);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(r1.data(), dr1, N * CO * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r2.data(), dr2, N * CO * 8, cudaMemcpyDeviceToHost));
    double worst = 0.0, num = 0.0, den = 0.0, vworst = 0.0, num1 = 0.0, den1 = 0.0;
    int finite = 1;
    for (int i = 0; i < N * CO; i++) {
        if (!std::isfinite(s2a[i].x) || !std::isfinite(s2a[i].y)) finite = 0;
        worst = std::max(worst, fabs(s2a[i].y - r2[i]) / fabs(r2[i]));
        num += (s2a[i].y - r2[i]) * (s2a[i].y - r2[i]);
        den += r2[i] * r2[i];
        num1 += (s2a[i].x - r1[i]) * (s2a[i].x - r1[i]);
        den1 += r1[i] * r1[i];
    }
    const double M = (double)N * OD * OH * OW;
    for (int c = 0; c < CO; c++) {
        double m1 = 0, q = 0, qr = 0;
        for (int n = 0; n < N; n++) { m1 += r1[n * CO + c]; q += s2a[n * CO + c].y; qr += r2[n * CO + c]; }
        const double mean = m1 / M, var = q / M - mean * mean, vref = qr / M - mean * mean;
        vworst = std::max(vworst, fabs(var - vref) / vref);
    }
    const int bitwise = memcmp(s2a.data(), s2b.data(), N * CO * 16) == 0;
    printf("xmom_border L2/15: per-(n, c) sum rel-L2 %.3g, sum of squares rel-L2 %.3g (largest %.3g), channel variance largest "
           "rel. error %.3g, finite %s, two runs bitwise %s\n", sqrt(num1 / den1), sqrt(num / den), worst, vworst, finite ? "yes" : "NO",
           bitwise ? "equal" : "DIFFERENT");

    /* times */
    const double tl = standalone_median_ms(runs, flush, flush_bytes, [] {}, lag);
    const double tr = standalone_median_ms(runs, flush, flush_bytes, [] {}, red);
    const double tb = standalone_median_ms(runs, flush, flush_bytes, [] {}, bor);
    const double tc = standalone_median_ms(runs, flush, flush_bytes, [] {}, con);
    const double ta = standalone_median_ms(runs, flush, flush_bytes, poison, all);
    printf("xmom_border L2/15 (median of %d, L2 flushed, ms): lags %.4f, reduce %.4f, border %.4f, contract %.4f, all four %.4f\n", runs,
           tl, tr, tb, tc, ta);
    printf("  lags: %.3f GMAC on tensor cores, %.1f TFLOP/s\n", (double)N * D * H * W * NL * CI * CI / 1e9,
           2.0 * N * D * H * W * NL * CI * CI / (tl * 1e-3) / 1e12);
    return (finite && bitwise && sqrt(num / den) < 1e-5 && sqrt(num1 / den1) < 1e-5) ? 0 : 1;
}
