// bench/standalone_mma.h - what the row-kernel measurements share (bench/l15_rows.cu,
// bench/l34_rows.cu; no library code): TF32 rounding as the library's TF32 mode rounds (nearest,
// ties to even, 10 mantissa bits), cp.async, ldmatrix and mma.sync m16n8k16 on f16 operands, a W
// tap's MMAs; the operands' prep, the FP32 reference convolution and the checks against it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "standalone.h" /* CK */

__host__ __device__ inline float tf32(float v) {
    uint32_t r;
    memcpy(&r, &v, 4);
    if ((r & 0x7f800000u) != 0x7f800000u) r = (r + 0xfffu + ((r >> 13) & 1u)) & 0xffffe000u;
    float f;
    memcpy(&f, &r, 4);
    return f;
}

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp16(uint32_t s, const void* g) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }
__device__ __forceinline__ void cp_wait_but_last() { asm volatile("cp.async.wait_group 1;\n" ::: "memory"); }
// four 8x8 b16 matrices: lane l gives the address of row l & 7 of matrix l >> 3 and receives, of
// each matrix i in r[i], row l / 4, elements 2 (l % 4) and + 1
__device__ __forceinline__ void ldm4(uint32_t a, uint32_t (&r)[4]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
}
// d = a b + c, m16n8k16, f16 operands, FP32 accumulation
__device__ __forceinline__ void mma16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1, const float (&c)[4]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
                   "f"(c[3]));
}

// the 16 MMAs of one W tap of a k-step: acc[mt][nt] = A[mt] B(nt) + C, the two n-tile pairs of B by
// ldmatrix.x4 at wb + (boff[p] ^ ksx); C the accumulators, or with BIAS the bias cb[nt]
template <bool BIAS = false>
__device__ __forceinline__ void wtap_mma(float (&acc)[2][4][4], const uint32_t (&a)[2][4], uint32_t wb,
                                         const uint32_t (&boff)[2], uint32_t ksx, const float (*cb)[4] = nullptr) {
    uint32_t b[2][4];
    ldm4(wb + (boff[0] ^ ksx), b[0]);
    ldm4(wb + (boff[1] ^ ksx), b[1]);
#pragma unroll
    for (int mt = 0; mt < 2; mt++)
#pragma unroll
        for (int nt = 0; nt < 4; nt++) {
            if constexpr (BIAS) mma16(acc[mt][nt], a[mt], b[nt >> 1][(nt & 1) * 2], b[nt >> 1][(nt & 1) * 2 + 1], cb[nt]);
            else mma16(acc[mt][nt], a[mt], b[nt >> 1][(nt & 1) * 2], b[nt >> 1][(nt & 1) * 2 + 1], acc[mt][nt]);
        }
}

// ---- what the row programs share on the host side and for their checks ------------------------
// A transposed convolution's shape (dilation 1, groups 1, no output padding); x [N][CI][D][H][W],
// the weight [CI][CO][K][K][K], y [N][CO][OD][OH][OW]
template <int N_, int CI_, int CO_, int D_, int H_, int W_, int K_, int S_, int P_>
struct conv_shape {
    static constexpr int N = N_, CI = CI_, CO = CO_, D = D_, H = H_, W = W_, K = K_, S = S_, P = P_;
    static constexpr int OD = (D - 1) * S - 2 * P + K, OH = (H - 1) * S - 2 * P + K, OW = (W - 1) * S - 2 * P + K;
    static constexpr int KT = K * K * K;
    static constexpr int64_t NX = (int64_t)N * CI * D * H * W, NW = (int64_t)CI * CO * KT,
                             NY = (int64_t)N * CO * OD * OH * OW;
};

// x rounded as the library's TF32 mode rounds it, times a power of two, to f16, [n][d][h][w][ci]
template <class C>
__global__ void prep_x(const float* __restrict__ x, __half* __restrict__ xh, float scale) {
    constexpr int SP = C::D * C::H * C::W;
    const int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; // position (n, d, h, w)
    if (p >= (int64_t)C::N * SP) return;
    const int64_t n = p / SP, s = p % SP;
    __align__(16) __half v[C::CI];
#pragma unroll
    for (int ci = 0; ci < C::CI; ci++) v[ci] = __float2half_rn(tf32(x[(n * C::CI + ci) * SP + s]) * scale);
    uint4* dst = reinterpret_cast<uint4*>(xh + p * C::CI);
#pragma unroll
    for (int q = 0; q < C::CI / 8; q++) dst[q] = reinterpret_cast<const uint4*>(v)[q];
}

// the weight likewise, [tap][co][ci]
template <class C>
__global__ void prep_w(const float* __restrict__ w, __half* __restrict__ wh, float scale) {
    const int e = blockIdx.x * blockDim.x + threadIdx.x; // (tap, co, ci)
    if (e >= C::KT * C::CO * C::CI) return;
    const int tap = e / (C::CO * C::CI), co = e / C::CI % C::CO, ci = e % C::CI;
    wh[e] = __float2half_rn(tf32(w[(ci * C::CO + co) * C::KT + tap]) * scale);
}

// a direct FP32 convolution (the reference the row kernels are checked against), a thread an output
template <class C>
__global__ void ref_conv(const float* __restrict__ xr, const float* __restrict__ wr, const float* __restrict__ bias,
                         float* __restrict__ y) {
    const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= C::NY) return;
    const int ow = e % C::OW, oh = e / C::OW % C::OH, od = e / (C::OW * C::OH) % C::OD;
    const int co = e / ((int64_t)C::OW * C::OH * C::OD) % C::CO, n = (int)(e / ((int64_t)C::OW * C::OH * C::OD * C::CO));
    float s = bias[co];
    for (int ci = 0; ci < C::CI; ci++)
        for (int td = 0; td < C::K; td++) {
            const int fd = od + C::P - td;
            if (fd < 0 || fd % C::S || fd / C::S >= C::D) continue;
            for (int th = 0; th < C::K; th++) {
                const int fh = oh + C::P - th;
                if (fh < 0 || fh % C::S || fh / C::S >= C::H) continue;
                for (int tw = 0; tw < C::K; tw++) {
                    const int fw = ow + C::P - tw;
                    if (fw < 0 || fw % C::S || fw / C::S >= C::W) continue;
                    s = fmaf(xr[((((int64_t)n * C::CI + ci) * C::D + fd / C::S) * C::H + fh / C::S) * C::W + fw / C::S],
                             wr[(ci * C::CO + co) * C::KT + (td * C::K + th) * C::K + tw], s);
                }
            }
        }
    y[e] = s;
}

// one output in double on the host
template <class C>
static double host_ref(const std::vector<float>& xr, const std::vector<float>& wr, const std::vector<float>& b, int64_t e) {
    const int ow = e % C::OW, oh = e / C::OW % C::OH, od = e / (C::OW * C::OH) % C::OD;
    const int co = e / ((int64_t)C::OW * C::OH * C::OD) % C::CO, n = (int)(e / ((int64_t)C::OW * C::OH * C::OD * C::CO));
    double s = b[co];
    for (int ci = 0; ci < C::CI; ci++)
        for (int td = 0; td < C::K; td++)
            for (int th = 0; th < C::K; th++)
                for (int tw = 0; tw < C::K; tw++) {
                    const int fd = od + C::P - td, fh = oh + C::P - th, fw = ow + C::P - tw;
                    if (fd < 0 || fh < 0 || fw < 0 || fd % C::S || fh % C::S || fw % C::S) continue;
                    if (fd / C::S >= C::D || fh / C::S >= C::H || fw / C::S >= C::W) continue;
                    s += (double)xr[((((int64_t)n * C::CI + ci) * C::D + fd / C::S) * C::H + fh / C::S) * C::W + fw / C::S] *
                         (double)wr[(ci * C::CO + co) * C::KT + (td * C::K + th) * C::K + tw];
                }
    return s;
}

// the FP32 reference against double at 4,096 random outputs; returns 1 where it fails its bound
template <class C>
static int check_reference(const std::vector<float>& xr, const std::vector<float>& wr, const std::vector<float>& b,
                           const std::vector<float>& ref) {
    std::mt19937_64 pick(99);
    double num = 0, den = 0;
    for (int i = 0; i < 4096; i++) {
        const int64_t e = (int64_t)(pick() % (uint64_t)C::NY);
        const double h = host_ref<C>(xr, wr, b, e);
        num += (ref[e] - h) * (ref[e] - h);
        den += h * h;
    }
    const double rel = std::sqrt(num / den);
    printf("  the FP32 reference against double at 4,096 outputs: rel-L2 %.3e (bound 1e-6): %s\n", rel,
           rel <= 1e-6 ? "ok" : "FAILED");
    return rel > 1e-6;
}

// every output against a reference: relative L2, the largest error, non-finite values; counts a failure
static void compare(const char* what, const std::vector<float>& got, const std::vector<float>& ref, double bound,
                    int* fails) {
    double num = 0, den = 0, worst = 0;
    int64_t nonfinite = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        if (!std::isfinite(got[i])) { nonfinite++; continue; }
        const double d = (double)got[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
        worst = std::max(worst, std::fabs(d));
    }
    const double rel = std::sqrt(num / den);
    const bool ok = nonfinite == 0 && rel <= bound;
    printf("  %-34s rel-L2 %.3e (bound %.0e), largest |error| %.3e, non-finite %lld: %s\n", what, rel, bound, worst,
           (long long)nonfinite, ok ? "ok" : "FAILED");
    if (!ok) ++*fails;
}

// The operands of a shape as the row programs draw them (x uniform in [0, 1) as torch.rand, the
// weight and bias in PyTorch's default init bound), x and the weight also rounded as TF32 (what
// the reference convolves), each on the host and on the device. The engine is left for the
// program's own draws after these.
template <class C>
struct conv_operands {
    std::mt19937 rng{1234};
    const float bound = 1.f / sqrtf((float)C::CO * C::KT);
    std::vector<float> x, w, b, xr, wr;
    float *dx = nullptr, *dw = nullptr, *db = nullptr, *dxr = nullptr, *dwr = nullptr;
    conv_operands() : x(C::NX), w(C::NW), b(C::CO), xr(C::NX), wr(C::NW) {
        std::uniform_real_distribution<float> ux(0.f, 1.f), uw(-bound, bound);
        for (int64_t i = 0; i < C::NX; i++) { x[i] = ux(rng); xr[i] = tf32(x[i]); }
        for (int64_t i = 0; i < C::NW; i++) { w[i] = uw(rng); wr[i] = tf32(w[i]); }
        for (int i = 0; i < C::CO; i++) b[i] = uw(rng);
        upload(dx, x);
        upload(dw, w);
        upload(db, b);
        upload(dxr, xr);
        upload(dwr, wr);
    }
    // the FP32 reference convolution of the rounded operands, on the host, checked against double
    // at 4,096 outputs (a failure adds one to *fails)
    std::vector<float> reference(int* fails) const {
        float* dref;
        CK(cudaMalloc(&dref, C::NY * 4));
        ref_conv<C><<<(unsigned)((C::NY + 255) / 256), 256>>>(dxr, dwr, db, dref);
        CK(cudaGetLastError());
        std::vector<float> ref(C::NY);
        CK(cudaMemcpy(ref.data(), dref, C::NY * 4, cudaMemcpyDeviceToHost));
        CK(cudaFree(dref));
        *fails += check_reference<C>(xr, wr, b, ref);
        return ref;
    }
    static void upload(float*& d, const std::vector<float>& h) {
        CK(cudaMalloc(&d, h.size() * 4));
        CK(cudaMemcpy(d, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    }
};
