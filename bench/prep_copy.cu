// bench/prep_copy.cu - the haloed loop's operand copy of x (_fc3d_hx_prep_x_run), measured standalone on
// L2/61's shape in TF32: x [16][64][32][32][32] float32 NCDHW -> xp [16][16 channel groups][43,284
// padded rows][4 channels], each value rounded to TF32 (nearest, ties to even), zero where the
// padded position holds no input (padded planes of 34 x 34, 36 of them and one of slack, 512
// slack rows; the input at offset 2 in every dim). In the library's run this is 122 us of L2/61's
// chain (ncu, bench/RESULTS.md seventeenth entry): 134 MB read, 177 MB written, 2.56 TB/s.
//
//   V0  the library's form: a thread per 16-byte group (4 channels of one padded position),
//       4 scalar loads, one 16-byte store, the position decoded with 64-bit divisions
//   V1  a thread per 4 consecutive padded positions of one group: 16 scalar loads in flight,
//       four 16-byte stores (64 contiguous bytes), the decoding in 32 bits once per thread
//   V2  a warp per padded row (34 positions of one (n, group, plane, row)): lanes 0-31 take input
//       columns 0-31 (4 coalesced 128-byte loads), lanes 0 and 1 also the row's 2 halo positions,
//       the row's coordinates decoded once per warp
//   V3  V0 with one thread a group and no grid-stride loop
//   V4  two groups a thread (a block's 512 contiguous), both groups' loads before the stores
// and, for the rate, cudaMemcpyAsync of as many bytes (the copy's, read and written).
// Every output is compared bit for bit with V0's. Time: CUDA events, L2 flushed, median.
//
// Build: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a bench/prep_copy.cu -o build/prep_copy
// Run:   build/prep_copy [runs=20]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "standalone.h"

static const int NB = 16, CIN = 64, ID = 32, IH = 32, IW = 32, KG = 4, NG = CIN / KG;
static const int PD = 36, PH = 34, PW = 34, LO = 2, HPWP = PH * PW, PS = (PD + 1) * HPWP + 512;
static const long long IDHW = (long long)ID * IH * IW;

__device__ __forceinline__ uint32_t rnd(float v) { /* TF32, nearest, ties to even (as _fc3d_tc_round) */
    uint32_t r = __float_as_uint(v);
    if ((r & 0x7f800000u) != 0x7f800000u) r = (r + 0xfffu + ((r >> 13) & 1u)) & 0xffffe000u;
    return r;
}

/* the library's form at group i (V0, V3, V4) */
__device__ __forceinline__ uint4 group_at(const float* __restrict__ x, int64_t i) {
    const int64_t vol = (int64_t)HPWP * PD;
    const int64_t pos = i % PS, ng = i / PS, cg = ng % NG, n = ng / NG;
    bool in = pos < vol;
    int64_t src = 0;
    if (in) {
        const int64_t pd = pos / HPWP, rem = pos - pd * HPWP;
        const int64_t id = pd - LO, ih = rem / PW - LO, iw = rem % PW - LO;
        in = id >= 0 && id < ID && ih >= 0 && ih < IH && iw >= 0 && iw < IW;
        src = (n * CIN + cg * KG) * IDHW + (id * IH + ih) * IW + iw;
    }
    uint4 o;
    o.x = in ? rnd(x[src]) : 0u;
    o.y = in ? rnd(x[src + IDHW]) : 0u;
    o.z = in ? rnd(x[src + 2 * IDHW]) : 0u;
    o.w = in ? rnd(x[src + 3 * IDHW]) : 0u;
    return o;
}
__global__ void v0(const float* __restrict__ x, uint4* __restrict__ xp) {
    const int64_t total = (int64_t)NB * NG * PS;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x)
        xp[i] = group_at(x, i);
}

/* PS is a multiple of 4: a thread's 4 positions are one group's */
__global__ void v1(const float* __restrict__ x, uint4* __restrict__ xp) {
    const uint32_t quads = (uint32_t)NB * NG * (PS / 4);
    for (uint32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < quads; q += gridDim.x * blockDim.x) {
        const uint32_t ng = q / (PS / 4), pos0 = (q - ng * (PS / 4)) * 4;
        const float* xs = x + (size_t)ng * KG * IDHW; /* (n, group): channels ng*4 .. ng*4+3 */
        uint32_t v[4][4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const uint32_t pos = pos0 + j, pd = pos / HPWP, rem = pos - pd * HPWP, ph = rem / PW, pw = rem - ph * PW;
            const int id = (int)pd - LO, ih = (int)ph - LO, iw = (int)pw - LO;
            const bool in = pos < (uint32_t)HPWP * PD && id >= 0 && id < ID && ih >= 0 && ih < IH && iw >= 0 && iw < IW;
            const int s = in ? (id * IH + ih) * IW + iw : 0;
#pragma unroll
            for (int c = 0; c < 4; ++c) v[j][c] = in ? rnd(__ldg(xs + c * IDHW + s)) : 0u;
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) xp[(size_t)q * 4 + j] = make_uint4(v[j][0], v[j][1], v[j][2], v[j][3]);
    }
}

__global__ void v2(const float* __restrict__ x, uint4* __restrict__ xp) {
    const int lane = threadIdx.x & 31;
    const uint32_t rows = (uint32_t)NB * NG * (PS / PW + 1); /* rows of PW positions, the slack included */
    for (uint32_t r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < rows; r += (gridDim.x * blockDim.x) >> 5) {
        const uint32_t per = PS / PW + 1, ng = r / per, rr = r - ng * per, pd = rr / PH, ph = rr - pd * PH;
        const int id = (int)pd - LO, ih = (int)ph - LO;
        const bool rin = pd < (uint32_t)PD && id >= 0 && id < ID && ih >= 0 && ih < IH;
        uint4* out = xp + (size_t)ng * PS + (size_t)rr * PW;
        const uint32_t room = PS - rr * PW; /* positions of this group left (the last row is cut) */
        const float* xs = x + (size_t)ng * KG * IDHW + (rin ? (id * IH + ih) * IW : 0);
        uint4 o = make_uint4(0u, 0u, 0u, 0u);
        if (rin) o = make_uint4(rnd(__ldg(xs + lane)), rnd(__ldg(xs + IDHW + lane)), rnd(__ldg(xs + 2 * IDHW + lane)),
                                rnd(__ldg(xs + 3 * IDHW + lane)));
        if ((uint32_t)(LO + lane) < room) out[LO + lane] = o;
        if (lane < LO && (uint32_t)lane < room) out[lane] = make_uint4(0u, 0u, 0u, 0u);
    }
}

/* V3: V0 on a grid of one thread a group (no grid-stride loop) */
__global__ void v3(const float* __restrict__ x, uint4* __restrict__ xp) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (int64_t)NB * NG * PS) xp[i] = group_at(x, i);
}
/* V4: two groups a thread, a block's 512 groups contiguous (both loads batches before the stores) */
__global__ void v4(const float* __restrict__ x, uint4* __restrict__ xp) {
    const int64_t total = (int64_t)NB * NG * PS;
    for (int64_t b = (int64_t)blockIdx.x * 2 * blockDim.x; b < total; b += (int64_t)gridDim.x * 2 * blockDim.x) {
        const int64_t i0 = b + threadIdx.x, i1 = i0 + blockDim.x;
        const uint4 a = i0 < total ? group_at(x, i0) : make_uint4(0u, 0u, 0u, 0u);
        const uint4 c = i1 < total ? group_at(x, i1) : make_uint4(0u, 0u, 0u, 0u);
        if (i0 < total) xp[i0] = a;
        if (i1 < total) xp[i1] = c;
    }
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t xn = (size_t)NB * CIN * IDHW, pn = (size_t)NB * NG * PS;
    float* x = nullptr;
    uint4 *p0 = nullptr, *p1 = nullptr;
    char* flush = nullptr;
    CK(cudaMalloc(&x, xn * 4));
    CK(cudaMalloc(&p0, pn * 16));
    CK(cudaMalloc(&p1, pn * 16));
    CK(cudaMalloc(&flush, 256u << 20));
    {
        std::vector<float> h(xn);
        uint64_t s = 12345;
        for (size_t i = 0; i < xn; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            h[i] = (float)((s >> 40) & 0xffffff) / 16777216.0f - 0.5f;
        }
        CK(cudaMemcpy(x, h.data(), xn * 4, cudaMemcpyHostToDevice));
    }
    const char* names[5] = {"V0 a thread per 16-byte group (the library's)", "V1 a thread per 4 positions",
                            "V2 a warp per padded row", "V3 V0 with a thread a group, no loop",
                            "V4 two groups a thread, loads first"};
    std::vector<char> ref(pn * 16), got(pn * 16);
    for (int k = 0; k < 5; k++) {
        uint4* out = k == 0 ? p0 : p1;
        const double med = standalone_median_ms(
            runs, flush, 256u << 20, [&] { CK(cudaMemset(out, 0xff, pn * 16)); /* poison */ }, [&] {
                if (k == 0) v0<<<(unsigned)std::min<size_t>((pn + 255) / 256, 8192), 256>>>(x, out);
                else if (k == 1) v1<<<(unsigned)std::min<size_t>((pn / 4 + 255) / 256, (size_t)sms * 8), 256>>>(x, out);
                else if (k == 2) v2<<<(unsigned)sms * 8, 256>>>(x, out);
                else if (k == 3) v3<<<(unsigned)((pn + 255) / 256), 256>>>(x, out);
                else v4<<<(unsigned)std::min<size_t>((pn + 511) / 512, 4096), 256>>>(x, out);
            });
        CK(cudaMemcpy(k == 0 ? ref.data() : got.data(), out, pn * 16, cudaMemcpyDeviceToHost));
        const bool same = k == 0 || memcmp(ref.data(), got.data(), pn * 16) == 0;
        printf("%-48s %.4f ms  %.2f TB/s (x read + copy written)  %s\n", names[k], med,
               (xn * 4.0 + pn * 16.0) / (med * 1e-3) / 1e12, same ? (k ? "bitwise V0's" : "reference") : "DIFFERS");
        if (!same) return 1;
    }
    { /* the device's own copy of as many bytes (a read and a write of pn * 16), for the rate */
        const double med = standalone_median_ms(
            runs, flush, 256u << 20, [&] {}, [&] { CK(cudaMemcpyAsync(p1, p0, pn * 16, cudaMemcpyDeviceToDevice)); });
        printf("%-48s %.4f ms  %.2f TB/s (read + written)\n", "cudaMemcpy of the copy's bytes", med,
               2.0 * pn * 16.0 / (med * 1e-3) / 1e12);
    }
    return 0;
}
