// halo_loop.cu - a standalone sm_90a main loop for the implicit-GEMM engine's next step, measured
// against the library's own loops in the same process (the library is the reference and the
// baseline; this file is not part of the library and no test depends on it).
//
// Build and run from the repo root (sm_90a: an H100):
//   nvcc -std=c++17 -O2 -I. -Iexamples -gencode arch=compute_90a,code=sm_90a bench/halo_loop.cu -o build/halo_loop
//   build/halo_loop [RUNS [IDS]]      IDS: any of L2/15,L2/77,L2/34,L2/61,L1/77,S5,S3 (f32 NCDHW)
//   HX_PP=1 build/halo_loop ...       the ping-pong form (hx_pp) beside the loop, at C_out 128 only
// Prints, per configuration: median ms of the whole convolution (x and weight preparation + main
// kernel) and of the main kernel alone, useful TFLOP/s (the plan's scatter FLOPs), the library's
// implicit_gemm time in the same math mode (AUTO loop: wgmma in this sm_90a build), and rel-L2
// against the library's FP32 (3xTF32) output. L2 flushed before each timed run (256 MiB memset).
//
// The loop. Each stride phase is a dense correlation of the input with the phase's taps. The input
// is copied once per run into a zero-padded, channel-grouped operand copy
//   xp [n][C / KG][Dp * Hp * Wp + slack][KG]   (KG = 16 bytes of channels: 4 TF32-rounded floats
//                                               or 8 halves; Dp/Hp/Wp: the input padded so that
//                                               every tap of every phase lands inside)
// and the output positions of a phase are numbered as "virtual rows" v = (qd * Hp + qh) * Wp + qw
// over the whole padded plane (qh < Hp, qw < Wp). Then the input row that tap (cd, ch, cw) of
// virtual row v reads is v + ((cd + pd) * Hp + ch + ph) * Wp + cw + pw: a constant offset per tap.
// A tile is NR consecutive virtual rows; per channel block (KC channels) and d tap, the rows all
// its (h, w) taps read form one contiguous range of xp per channel group: R = NR + (h, w) halo
// rows, one bulk copy (cp.async.bulk) each into shared memory in the K-major core-matrix layout
// (8 rows x 16 bytes). Every (h, w) tap then is a shared-memory descriptor at a different start
// row: no gather, no per-tap copy; rows past the phase's extent (qh >= Q1 or qw >= Q2, a
// (Q1 Q2) / (Hp Wp) share: 89 % on L2/61, 81 % on L2/77) are computed and dropped.
// The GEMM is transposed: M = 64 output channels per consumer warpgroup (A = the weight piece of
// one tap, K-major), N = NR rows (B = the input segment), so one wgmma m64nNRk8 (TF32) or k16
// (f16) reads NR rows of input for 64 channels and a 128-channel CTA issues two per step.
// A producer warp (one lane) issues the bulk copies on two mbarrier rings (input segments: NA
// stages; weight pieces: NB) and the consumer warpgroups release each slot once the MMAs that read
// it are done (wgmma.wait_group 1). d taps that no row of the tile can reach are skipped.
// The epilogue here stores y (bias only), enough to check and time the loop.
#include "examples/example_common.h"
#include <cuda_fp16.h>
#include <chrono>

#define HX_MAXPH 8

struct hx_phase {
    int r[3], Q[3], nt[3], t0[3], tstep[3], c0[3], cstep[3];
    int64_t tiles, tile0;
};
struct hx_kp {
    int n, cin, cout, cin_g, cout_g, ntn, groups, ncb, KT;
    int I[3], O[3], k[3], s[3];
    int plo[3], Dp, Hp, Wp;
    int64_t PS; /* rows of one (n, channel group) padded volume incl. slack */
    int nph;
    hx_phase ph[HX_MAXPH];
    int Rmax;
    int64_t tiles;
};

static __device__ __forceinline__ void mb_init(uint64_t* b, unsigned c)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(_fc3d_tc_smem(b)), "r"(c) : "memory");
}
static __device__ __forceinline__ void mb_arrive(uint64_t* b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(_fc3d_tc_smem(b)) : "memory");
}
static __device__ __forceinline__ void mb_expect(uint64_t* b, uint32_t tx)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(_fc3d_tc_smem(b)), "r"(tx) : "memory");
}
static __device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n}\n" ::"r"(_fc3d_tc_smem(b)),
                 "r"(parity)
                 : "memory");
}
static __device__ __forceinline__ void bulk_g2s(void* dst, const void* src, uint32_t bytes, uint64_t* b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                     _fc3d_tc_smem(dst)),
                 "l"(src), "r"(bytes), "r"(_fc3d_tc_smem(b))
                 : "memory");
}

#define L16 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15"
#define L32 L16 ",%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define L64 L32 ",%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
                "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define O4(b) "+f"(d[(b)]), "+f"(d[(b) + 1]), "+f"(d[(b) + 2]), "+f"(d[(b) + 3])
#define O16(b) O4(b), O4((b) + 4), O4((b) + 8), O4((b) + 12)
#define O32(b) O16(b), O16((b) + 16)
#define O64 O32(0), O32(32)
#define SSFN(NAME, KIND, DL, DO, DA, DB, SC, TAIL)                                                     \
    static __device__ __forceinline__ void NAME(float* d, uint64_t da, uint64_t db, int sc)             \
    {                                                                                                  \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" SC ", 0;\n"                                  \
                     "wgmma.mma_async.sync.aligned." KIND " {" DL "}, %" DA ", %" DB ", p, 1, 1" TAIL ";\n}\n" \
                     : DO                                                                              \
                     : "l"(da), "l"(db), "r"(sc));                                                     \
    }
SSFN(ss_tf32_n64, "m64n64k8.f32.tf32.tf32", L32, O32(0), "32", "33", "34", "")
SSFN(ss_tf32_n128, "m64n128k8.f32.tf32.tf32", L64, O64, "64", "65", "66", "")
SSFN(ss_f16_n64, "m64n64k16.f32.f16.f16", L32, O32(0), "32", "33", "34", ", 0, 0")
SSFN(ss_f16_n128, "m64n128k16.f32.f16.f16", L64, O64, "64", "65", "66", ", 0, 0")
#define L128 L64 ",%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87," \
  "%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111," \
  "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
#define O128 O32(0), O32(32), O32(64), O32(96)
SSFN(ss_tf32_n256, "m64n256k8.f32.tf32.tf32", L128, O128, "128", "129", "130", "")
SSFN(ss_f16_n256, "m64n256k16.f32.f16.f16", L128, O128, "128", "129", "130", ", 0, 0")
template <int BN, int HF> static __device__ __forceinline__ void ss_mma(float* d, uint64_t da, uint64_t db, int sc)
{
    if (HF) {
        if (BN == 256) ss_f16_n256(d, da, db, sc); else if (BN == 128) ss_f16_n128(d, da, db, sc); else ss_f16_n64(d, da, db, sc);
    } else {
        if (BN == 256) ss_tf32_n256(d, da, db, sc); else if (BN == 128) ss_tf32_n128(d, da, db, sc); else ss_tf32_n64(d, da, db, sc);
    }
}
template <int N> static __device__ __forceinline__ void keep(float* d)
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}


/* x (NCDHW f32) -> xp [n][C/KG][PS][KG], zero padded, operand format */
template <int HF>
static __global__ void hx_prep_x(hx_kp P, const float* __restrict__ x, void* __restrict__ xp)
{
    constexpr int KG = HF ? 8 : 4;
    const int64_t total = (int64_t)P.n * (P.cin / KG) * P.PS;
    const int64_t HpWp = (int64_t)P.Hp * P.Wp, vol = HpWp * P.Dp;
    const int64_t idhw = (int64_t)P.I[0] * P.I[1] * P.I[2];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t pos = i % P.PS;
        const int64_t ng = i / P.PS;
        const int cg = (int)(ng % (P.cin / KG));
        const int64_t n = ng / (P.cin / KG);
        float v[KG];
        bool in = pos < vol;
        int64_t src = 0;
        if (in) {
            const int pd = (int)(pos / HpWp), rem = (int)(pos % HpWp);
            const int ph = rem / P.Wp, pw = rem % P.Wp;
            const int id = pd - P.plo[0], ih = ph - P.plo[1], iw = pw - P.plo[2];
            in = id >= 0 && id < P.I[0] && ih >= 0 && ih < P.I[1] && iw >= 0 && iw < P.I[2];
            src = ((n * P.cin + (int64_t)cg * KG) * P.I[0] + id) * P.I[1] * P.I[2] + (int64_t)ih * P.I[2] + iw;
        }
#pragma unroll
        for (int k = 0; k < KG; ++k) v[k] = in ? x[src + k * idhw] : 0.f;
        if (HF) {
            uint4 o;
            __half2 h0 = __floats2half2_rn(v[0], v[1]), h1 = __floats2half2_rn(v[2 % KG], v[3 % KG]);
            __half2 h2 = __floats2half2_rn(v[4 % KG], v[5 % KG]), h3 = __floats2half2_rn(v[6 % KG], v[7 % KG]);
            o.x = *reinterpret_cast<uint32_t*>(&h0); o.y = *reinterpret_cast<uint32_t*>(&h1);
            o.z = *reinterpret_cast<uint32_t*>(&h2); o.w = *reinterpret_cast<uint32_t*>(&h3);
            reinterpret_cast<uint4*>(xp)[i] = o;
        } else {
            reinterpret_cast<uint4*>(xp)[i] =
                make_uint4(_fc3d_tc_round(v[0]), _fc3d_tc_round(v[1 % KG]), _fc3d_tc_round(v[2 % KG]), _fc3d_tc_round(v[3 % KG]));
        }
    }
}

/* w [cin][cout_g][kd][kh][kw] -> wp [g][ntile][cb][tap][BN/8][KC/KG][8][KG] */
template <int HF, int BN, int KC>
static __global__ void hx_prep_w(hx_kp P, const float* __restrict__ w, void* __restrict__ wp)
{
    constexpr int KG = HF ? 8 : 4;
    const int64_t piece = (int64_t)BN * KC;
    const int64_t total = (int64_t)P.groups * P.ntn * P.ncb * P.KT * piece;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t r = i;
        const int kk = (int)(r % KG); r /= KG;
        const int c8 = (int)(r % 8); r /= 8;
        const int kgi = (int)(r % (KC / KG)); r /= (KC / KG);
        const int co8 = (int)(r % (BN / 8)); r /= (BN / 8);
        const int tap = (int)(r % P.KT); r /= P.KT;
        const int cb = (int)(r % P.ncb); r /= P.ncb;
        const int nt = (int)(r % P.ntn); r /= P.ntn;
        const int g = (int)r;
        const int ci = g * P.cin_g + cb * KC + kgi * KG + kk;
        const int co = nt * BN + co8 * 8 + c8;
        float v = co < P.cout_g ? w[((int64_t)ci * P.cout_g + co) * P.KT + tap] : 0.f;
        if (HF) reinterpret_cast<__half*>(wp)[i] = __float2half_rn(v);
        else reinterpret_cast<uint32_t*>(wp)[i] = _fc3d_tc_round(v);
    }
}



/* Transposed tile: M = 64 output channels per consumer warpgroup (A = weight piece), N = NR
   virtual rows (B = input segment). Units: (channel block cb, d segment sg); taps (h, w) inside. */
template <int HF, int NWG, int NR, int KC, int NA, int NB>
struct hx_cfg {
    static constexpr int BN = 64 * NWG;
    static constexpr int EB = HF ? 2 : 4, KG = 16 / EB, KS = HF ? 16 : 8;
    static constexpr int NKG = KC / KG;
    static constexpr int PIECE = BN * KC * EB;
    static constexpr int NT = 32 * (4 * NWG + 1);
};

template <int HF, int NWG, int NR, int KC, int NA, int NB>
static __global__ void __launch_bounds__(32 * (4 * NWG + 1), 1)
hx_main(hx_kp P, const void* __restrict__ xp, const void* __restrict__ wp, const float* __restrict__ bias,
        float* __restrict__ y, int astage)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    typedef hx_cfg<HF, NWG, NR, KC, NA, NB> C;
    constexpr int BN = C::BN;
    extern __shared__ __align__(128) unsigned char sm[];
    unsigned char* As = sm;
    unsigned char* Bs = As + (size_t)NA * astage;
    const size_t ring = (size_t)NA * astage + NB * C::PIECE, epib = (size_t)BN * (NR + 4) * 4;
    unsigned char* tail = sm + (ring > epib ? ring : epib);
    float* Cs = reinterpret_cast<float*>(sm);
    uint64_t* bars = reinterpret_cast<uint64_t*>(tail);
    uint64_t *fullA = bars, *emptyA = bars + NA, *fullB = bars + 2 * NA, *emptyB = bars + 2 * NA + NB;
    int2* TT = reinterpret_cast<int2*>(tail + 512); /* per (h, w) tap: {weight tap (h, w part), row byte offset} */

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int64_t tile = blockIdx.x;
    const int ntile = blockIdx.y % P.ntn, gi = blockIdx.y / P.ntn;
    const int64_t n = blockIdx.z;
    int ph = 0;
    while (ph + 1 < P.nph && tile >= P.ph[ph + 1].tile0) ++ph;
    const hx_phase& F = P.ph[ph];
    const int64_t v0 = (tile - F.tile0) * NR;
    const int64_t HpWp = (int64_t)P.Hp * P.Wp;
    const int qd_lo = (int)(v0 / HpWp), qd_hi = (int)((v0 + NR - 1) / HpWp);
    int jlo = F.nt[0], jhi = -1;
    for (int j = 0; j < F.nt[0]; ++j) {
        const int c = F.c0[0] - j * F.cstep[0];
        if (qd_hi + c >= 0 && qd_lo + c <= P.I[0] - 1) { if (j < jlo) jlo = j; jhi = j; }
    }
    const int nseg = jhi >= jlo ? jhi - jlo + 1 : 0;
    const int T = F.nt[1] * F.nt[2]; /* taps of a unit */
    const int nunits = T > 0 ? nseg * P.ncb : 0; /* a phase with no (h, w) taps has nothing to multiply */
    const int chmin = F.c0[1] - (F.nt[1] - 1) * F.cstep[1], cwmin = F.c0[2] - (F.nt[2] - 1) * F.cstep[2];
    const int offmin = (chmin + P.plo[1]) * P.Wp + (cwmin + P.plo[2]);
    const int offmax = (F.c0[1] + P.plo[1]) * P.Wp + (F.c0[2] + P.plo[2]);
    const int R = NR + offmax - offmin;
    const uint32_t unitB = (uint32_t)C::NKG * R * 16;
    if (tid < T) {
        const int jh = tid / F.nt[2], jw = tid % F.nt[2];
        const int th = F.t0[1] + jh * F.tstep[1], tw = F.t0[2] + jw * F.tstep[2];
        const int ch = F.c0[1] - jh * F.cstep[1], cw = F.c0[2] - jw * F.cstep[2];
        const int off = (ch + P.plo[1]) * P.Wp + (cw + P.plo[2]) - offmin;
        TT[tid] = make_int2(th * P.k[2] + tw, off * 16);
    }
    if (tid == 0) {
        for (int i = 0; i < NA; ++i) { mb_init(fullA + i, 1); mb_init(emptyA + i, NWG); }
        for (int i = 0; i < NB; ++i) { mb_init(fullB + i, 1); mb_init(emptyB + i, NWG); }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();

    if (warp == 4 * NWG) { /* producer */
        if (lane == 0 && nunits > 0) {
            const unsigned char* xb = reinterpret_cast<const unsigned char*>(xp);
            const unsigned char* wb = reinterpret_cast<const unsigned char*>(wp);
            const int64_t cgrp0 = (n * P.cin + (int64_t)gi * P.cin_g) / C::KG;
            const int KHW = P.k[1] * P.k[2];
            auto loadA = [&](int u) {
                const int s = u % NA, cb = u / nseg, sg = u % nseg;
                mb_wait(emptyA + s, ((u / NA) & 1) ^ 1);
                mb_expect(fullA + s, unitB);
                unsigned char* dst = As + (size_t)s * astage;
                const int cd = F.c0[0] - (jlo + sg) * F.cstep[0];
                const int64_t row = v0 + (int64_t)(cd + P.plo[0]) * HpWp + offmin;
                for (int k = 0; k < C::NKG; ++k) {
                    const int64_t cgi = cgrp0 + (int64_t)cb * C::NKG + k;
                    bulk_g2s(dst + (size_t)k * R * 16, xb + (cgi * P.PS + row) * 16, (uint32_t)R * 16, fullA + s);
                }
            };
            int it = 0;
            auto loadB = [&](int u, int i) {
                const int s = it % NB, cb = u / nseg, sg = u % nseg;
                const int td = F.t0[0] + (jlo + sg) * F.tstep[0];
                mb_wait(emptyB + s, ((it / NB) & 1) ^ 1);
                mb_expect(fullB + s, C::PIECE);
                const int64_t pc = (((int64_t)gi * P.ntn + ntile) * P.ncb + cb) * P.KT + td * KHW + TT[i].x;
                bulk_g2s(Bs + (size_t)s * C::PIECE, wb + pc * C::PIECE, C::PIECE, fullB + s);
                ++it;
            };
            loadA(0);
            const int pre = T < NB ? T : NB;
            for (int u = 0; u < nunits; ++u) {
                for (int i = 0; i < pre; ++i) loadB(u, i);
                if (u + 1 < nunits) loadA(u + 1);
                for (int i = pre; i < T; ++i) loadB(u, i);
            }
        }
        return;
    }

    const int wg = warp >> 2;
    float acc[NR / 2];
#pragma unroll
    for (int i = 0; i < NR / 2; ++i) acc[i] = 0.f;
    if (nunits > 0) {
        const uint32_t a0 = _fc3d_tc_smem(As), b0 = _fc3d_tc_smem(Bs);
        int it = 0, prevB = -1, prevA = -1;
        for (int u = 0; u < nunits; ++u) {
            const int sa = u % NA;
            mb_wait(fullA + sa, (u / NA) & 1);
            const uint32_t xbase = a0 + sa * astage;
            for (int i = 0; i < T; ++i) {
                const int sb = it % NB;
                mb_wait(fullB + sb, (it / NB) & 1);
                const uint32_t xx = xbase + TT[i].y;
                const uint32_t ww = b0 + sb * C::PIECE + wg * 8 * C::NKG * 128;
                asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                for (int kk = 0; kk < KC / C::KS; ++kk) {
                    const uint64_t dw = _fc3d_wg_desc(ww + kk * 256, 128, C::NKG * 128);
                    const uint64_t dx = _fc3d_wg_desc(xx + kk * 2 * R * 16, R * 16, 128);
                    ss_mma<NR, HF>(acc, dw, dx, 1);
                }
                asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
                if (prevB >= 0 && (tid & 127) == 0) mb_arrive(emptyB + prevB);
                if (prevA >= 0 && (tid & 127) == 0) mb_arrive(emptyA + prevA);
                prevB = sb;
                prevA = (i == T - 1) ? sa : -1;
                ++it;
            }
        }
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        keep<NR / 2>(acc);
    }
    asm volatile("bar.sync 1, %0;\n" ::"n"(128 * NWG) : "memory");
    constexpr int CS = NR + 4;
    {
        const int w4 = warp & 3, g = lane >> 2, t = lane & 3;
        const int co = wg * 64 + w4 * 16 + g;
#pragma unroll
        for (int ni = 0; ni < NR / 8; ++ni) {
            const int m = ni * 8 + 2 * t;
            *reinterpret_cast<float2*>(Cs + co * CS + m) = make_float2(acc[ni * 4 + 0], acc[ni * 4 + 1]);
            *reinterpret_cast<float2*>(Cs + (co + 8) * CS + m) = make_float2(acc[ni * 4 + 2], acc[ni * 4 + 3]);
        }
    }
    asm volatile("bar.sync 1, %0;\n" ::"n"(128 * NWG) : "memory");
    const int nvalid = P.cout_g - ntile * BN < BN ? P.cout_g - ntile * BN : BN;
    int64_t ospat[NR / 32];
#pragma unroll
    for (int i = 0; i < NR / 32; ++i) {
        const int64_t v = v0 + lane + 32 * i;
        const int qd = (int)(v / HpWp), rem = (int)(v % HpWp), qh = rem / P.Wp, qw = rem % P.Wp;
        const bool ok = qd < F.Q[0] && qh < F.Q[1] && qw < F.Q[2];
        ospat[i] = ok ? (((int64_t)P.s[0] * qd + F.r[0]) * P.O[1] + (P.s[1] * qh + F.r[1])) * P.O[2] + P.s[2] * qw + F.r[2]
                      : -1;
    }
    const int64_t odhw = (int64_t)P.O[0] * P.O[1] * P.O[2];
    for (int cl = warp; cl < nvalid; cl += 4 * NWG) {
        const int64_t cg = (int64_t)gi * P.cout_g + ntile * BN + cl;
        const float bv = bias ? bias[cg] : 0.f;
        float* yb = y + (n * P.cout + cg) * odhw;
#pragma unroll
        for (int i = 0; i < NR / 32; ++i)
            if (ospat[i] >= 0) yb[ospat[i]] = Cs[cl * CS + lane + 32 * i] + bv;
    }
#endif
}
/* Ping-pong (measurement): a persistent CTA walks pairs of work items, each item 64 output channels
   x NR virtual rows of one tile; consumer warpgroup w takes the w-th item of every pair, so one
   warpgroup's epilogue runs while the other's MMAs do. The producer feeds both warpgroups' units
   and 64-channel weight pieces through the same rings in item order (each slot released by the
   warpgroup that read it). Stride-1 phases whose padded rows are even-sized only (L2/61, L2/77):
   the epilogue stores each thread's row pairs straight from its accumulators (float2, no staging).
   TF32. The two warpgroups' mainloops take turns (turn[]), as an mbarrier's parity tells one
   phase only. Measured (H100, bench/RESULTS.md 2026-11-27 fourteenth): slower than hx_main's two
   warpgroups on one tile's 128 channels (main kernel L2/61 0.882 -> 1.01-1.03 ms, L2/77 1.98 ->
   2.88): one warpgroup's MMAs at a time do not keep the tensor pipe busy, and every unit is copied
   once per 64 channels. */
template <int NR, int KC, int NA, int NB>
static __global__ void __launch_bounds__(288, 1)
hx_pp(hx_kp P, const void* __restrict__ xp, const void* __restrict__ wp, const float* __restrict__ bias,
      float* __restrict__ y, int astage, int64_t npairs)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    typedef hx_cfg<0, 1, NR, KC, NA, NB> C; /* BN 64 pieces */
    extern __shared__ __align__(128) unsigned char sm[];
    unsigned char* As = sm;
    unsigned char* Bs = As + (size_t)NA * astage;
    uint64_t* bars = reinterpret_cast<uint64_t*>(Bs + (size_t)NB * C::PIECE);
    uint64_t *fullA = bars, *emptyA = bars + NA, *fullB = bars + 2 * NA, *emptyB = bars + 2 * NA + NB;
    /* turn[w]: warpgroup w may start its next item's MMAs (the other one has every slot of its own
       item): the mainloops alternate, so no warpgroup waits on a ring slot more than one phase
       ahead (an mbarrier's parity tells only one phase) */
    uint64_t* turn = bars + 2 * NA + 2 * NB;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const hx_phase& F = P.ph[0];
    const int64_t HpWp = (int64_t)P.Hp * P.Wp;
    const int T = F.nt[1] * F.nt[2];
    const int chmin = F.c0[1] - (F.nt[1] - 1) * F.cstep[1], cwmin = F.c0[2] - (F.nt[2] - 1) * F.cstep[2];
    const int offmin = (chmin + P.plo[1]) * P.Wp + (cwmin + P.plo[2]);
    const int offmax = (F.c0[1] + P.plo[1]) * P.Wp + (F.c0[2] + P.plo[2]);
    const int R = NR + offmax - offmin;
    const uint32_t unitB = (uint32_t)C::NKG * R * 16;
    if (tid == 0) {
        for (int i = 0; i < NA; ++i) { mb_init(fullA + i, 1); mb_init(emptyA + i, 1); }
        for (int i = 0; i < NB; ++i) { mb_init(fullB + i, 1); mb_init(emptyB + i, 1); }
        mb_init(turn, 1);
        mb_init(turn + 1, 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    /* the d taps of tile t (its rows' planes) */
    auto dseg = [&](int64_t t, int& jlo, int& nseg) {
        const int64_t v0 = t * NR;
        const int qd_lo = (int)(v0 / HpWp), qd_hi = (int)((v0 + NR - 1) / HpWp);
        int lo = F.nt[0], hi = -1;
        for (int j = 0; j < F.nt[0]; ++j) {
            const int c = F.c0[0] - j * F.cstep[0];
            if (qd_hi + c >= 0 && qd_lo + c <= P.I[0] - 1) { if (j < lo) lo = j; hi = j; }
        }
        jlo = lo;
        nseg = hi >= lo ? hi - lo + 1 : 0;
    };
    if (warp == 8) { /* producer */
        if (lane == 0) {
            const unsigned char* xb = reinterpret_cast<const unsigned char*>(xp);
            const unsigned char* wb = reinterpret_cast<const unsigned char*>(wp);
            const int KHW = P.k[1] * P.k[2];
            int64_t qa = 0, qb = 0;
            for (int64_t pr = blockIdx.x; pr < npairs; pr += gridDim.x) {
                const int64_t n = pr / F.tiles, t = pr - n * F.tiles;
                int jlo, nseg;
                dseg(t, jlo, nseg);
                const int nunits = T > 0 ? nseg * P.ncb : 0;
                const int64_t v0 = t * NR;
                for (int half = 0; half < 2; ++half)
                    for (int u = 0; u < nunits; ++u) {
                        const int sa = (int)(qa % NA), cb = u / nseg, sg = u % nseg;
                        mb_wait(emptyA + sa, (uint32_t)(((qa / NA) & 1) ^ 1));
                        mb_expect(fullA + sa, unitB);
                        const int cd = F.c0[0] - (jlo + sg) * F.cstep[0];
                        const int64_t row = v0 + (int64_t)(cd + P.plo[0]) * HpWp + offmin;
                        for (int k = 0; k < C::NKG; ++k) {
                            const int64_t cgi = (n * P.cin) / C::KG + (int64_t)cb * C::NKG + k;
                            bulk_g2s(As + (size_t)sa * astage + (size_t)k * R * 16, xb + (cgi * P.PS + row) * 16,
                                     (uint32_t)R * 16, fullA + sa);
                        }
                        ++qa;
                        const int td = F.t0[0] + (jlo + sg) * F.tstep[0];
                        for (int i = 0; i < T; ++i) {
                            const int sb = (int)(qb % NB);
                            mb_wait(emptyB + sb, (uint32_t)(((qb / NB) & 1) ^ 1));
                            mb_expect(fullB + sb, C::PIECE);
                            const int jh = i / F.nt[2], jw = i % F.nt[2];
                            const int wt = (F.t0[1] + jh * F.tstep[1]) * P.k[2] + F.t0[2] + jw * F.tstep[2];
                            const int64_t pc = (((int64_t)half * P.ncb + cb) * P.KT) + td * KHW + wt;
                            bulk_g2s(Bs + (size_t)sb * C::PIECE, wb + pc * C::PIECE, C::PIECE, fullB + sb);
                            ++qb;
                        }
                    }
            }
        }
        return;
    }
    const int wg = warp >> 2, w4 = warp & 3, g = lane >> 2, tq = lane & 3;
    const uint32_t a0 = _fc3d_tc_smem(As), b0 = _fc3d_tc_smem(Bs);
    int64_t qa = 0, qb = 0;
    int item = 0; /* this warpgroup's items so far */
    float acc[NR / 2];
    for (int64_t pr = blockIdx.x; pr < npairs; pr += gridDim.x, ++item) {
        const int64_t n = pr / F.tiles, t = pr - n * F.tiles;
        int jlo, nseg;
        dseg(t, jlo, nseg);
        const int nunits = T > 0 ? nseg * P.ncb : 0;
        if (wg == 1) { qa += nunits; qb += (int64_t)nunits * T; } /* the first item of the pair is warpgroup 0's */
#pragma unroll
        for (int i = 0; i < NR / 2; ++i) acc[i] = 0.f;
        if (wg == 1 || item > 0) mb_wait(turn + wg, (uint32_t)((wg == 1 ? item : item - 1) & 1));
        int prevB = -1, prevA = -1;
        for (int u = 0; u < nunits; ++u) {
            const int sa = (int)(qa % NA);
            mb_wait(fullA + sa, (uint32_t)((qa / NA) & 1));
            const uint32_t xbase = a0 + sa * astage;
            for (int i = 0; i < T; ++i) {
                const int sb = (int)(qb % NB);
                mb_wait(fullB + sb, (uint32_t)((qb / NB) & 1));
                const int jh = i / F.nt[2], jw = i % F.nt[2];
                const int ch = F.c0[1] - jh * F.cstep[1], cw = F.c0[2] - jw * F.cstep[2];
                const uint32_t xx = xbase + (uint32_t)(((ch + P.plo[1]) * P.Wp + (cw + P.plo[2]) - offmin) * 16);
                const uint32_t ww = b0 + sb * C::PIECE;
                asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                for (int kk = 0; kk < KC / 8; ++kk) {
                    const uint64_t dw = _fc3d_wg_desc(ww + kk * 256, 128, C::NKG * 128);
                    const uint64_t dx = _fc3d_wg_desc(xx + kk * 2 * R * 16, R * 16, 128);
                    ss_mma<NR, 0>(acc, dw, dx, 1);
                }
                asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
                if ((tid & 127) == 0) {
                    if (prevB >= 0) mb_arrive(emptyB + prevB);
                    if (prevA >= 0) mb_arrive(emptyA + prevA);
                }
                prevB = sb;
                prevA = i == T - 1 ? sa : -1;
                ++qb;
            }
            ++qa;
        }
        if ((tid & 127) == 0) mb_arrive(turn + (wg ^ 1)); /* every slot of this item acquired: the other's turn */
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        keep<NR / 2>(acc);
        if ((tid & 127) == 0) {
            if (prevB >= 0) mb_arrive(emptyB + prevB);
            if (prevA >= 0) mb_arrive(emptyA + prevA);
        }
        if (wg == 0) { qa += nunits; qb += (int64_t)nunits * T; } /* the pair's second item is warpgroup 1's */
        /* epilogue: rows 8 ni + 2 tq (+1) of channels co, co + 8, straight to y */
        const int co = wg * 64 + w4 * 16 + g;
        const float bv0 = bias ? bias[co] : 0.f, bv1 = bias ? bias[co + 8] : 0.f;
        const int64_t odhw = (int64_t)P.O[0] * P.O[1] * P.O[2];
        float* y0 = y + (n * P.cout + co) * odhw;
        float* y1 = y0 + 8 * odhw;
        const int64_t v0 = t * NR;
#pragma unroll
        for (int ni = 0; ni < NR / 8; ++ni) {
            const int64_t v = v0 + ni * 8 + 2 * tq;
            const int qd = (int)(v / HpWp), rem = (int)(v - qd * HpWp), qh = rem / P.Wp, qw = rem - qh * P.Wp;
            if (qd < F.Q[0] && qh < F.Q[1] && qw < F.Q[2]) {
                const int64_t o = ((int64_t)qd * P.O[1] + qh) * P.O[2] + qw;
                *reinterpret_cast<float2*>(y0 + o) = make_float2(acc[ni * 4] + bv0, acc[ni * 4 + 1] + bv0);
                *reinterpret_cast<float2*>(y1 + o) = make_float2(acc[ni * 4 + 2] + bv1, acc[ni * 4 + 3] + bv1);
            }
        }
    }
#endif
}

/* ------------------------------------------------------------------ host */
static int hx_plan(hx_kp* P, int n, int cin, int cout, int groups, const int* I, int k, int s, int p, int dl, int BN,
                   int KC, int NR)
{
    memset(P, 0, sizeof *P);
    P->n = n; P->cin = cin; P->cout = cout; P->groups = groups;
    P->cin_g = cin / groups; P->cout_g = cout / groups;
    P->ntn = (P->cout_g + BN - 1) / BN;
    P->ncb = P->cin_g / KC;
    for (int d = 0; d < 3; ++d) {
        P->I[d] = I[d]; P->k[d] = k; P->s[d] = s;
        P->O[d] = (I[d] - 1) * s - 2 * p + dl * (k - 1) + 1;
    }
    P->KT = k * k * k;
    int plo[3] = {0, 0, 0}, phi[3] = {0, 0, 0};
    P->nph = s * s * s;
    if (P->nph > HX_MAXPH) return 1;
    for (int d = 0; d < 3; ++d)
        for (int r = 0; r < s; ++r) {
            int nt, t0, c0, ts, cs;
            _fc3d_tc_dim_taps(r, k, s, p, dl, &nt, &t0, &c0, &ts, &cs);
            const int Q = (P->O[d] - r + s - 1) / s;
            if (nt == 0) continue;
            const int cmin = c0 - (nt - 1) * cs;
            if (-cmin > plo[d]) plo[d] = -cmin;
            const int hi = Q - 1 + c0 - (I[d] - 1);
            if (hi > phi[d]) phi[d] = hi;
        }
    for (int d = 0; d < 3; ++d) P->plo[d] = plo[d];
    P->Dp = plo[0] + I[0] + phi[0];
    P->Hp = plo[1] + I[1] + phi[1];
    P->Wp = plo[2] + I[2] + phi[2];
    P->PS = (int64_t)(P->Dp + 1) * P->Hp * P->Wp + 256;
    int64_t t0 = 0;
    P->Rmax = 0;
    for (int ph = 0; ph < P->nph; ++ph) {
        hx_phase& F = P->ph[ph];
        int rr[3] = {ph / (s * s), (ph / s) % s, ph % s};
        for (int d = 0; d < 3; ++d) {
            F.r[d] = rr[d];
            F.Q[d] = (P->O[d] - rr[d] + s - 1) / s;
            _fc3d_tc_dim_taps(rr[d], k, s, p, dl, &F.nt[d], &F.t0[d], &F.c0[d], &F.tstep[d], &F.cstep[d]);
        }
        if (F.Q[1] > P->Hp || F.Q[2] > P->Wp) return 2;
        F.tiles = ((int64_t)F.Q[0] * P->Hp * P->Wp + NR - 1) / NR;
        F.tile0 = t0;
        t0 += F.tiles;
        if (F.nt[0] * F.nt[1] * F.nt[2] > 0) {
            const int chmin = F.c0[1] - (F.nt[1] - 1) * F.cstep[1], cwmin = F.c0[2] - (F.nt[2] - 1) * F.cstep[2];
            const int R = NR + (F.c0[1] - chmin) * P->Wp + (F.c0[2] - cwmin);
            if (R > P->Rmax) P->Rmax = R;
            if (F.nt[0] * F.nt[1] * F.nt[2] > 256) return 3;
        }
    }
    P->tiles = t0;
    return 0;
}

struct hx_case { const char* id; int n, cin, cout, d, h, w, k, s, p, dil, bias; };
static const hx_case cases[] = {
    {"L2/15", 16, 16, 32, 16, 32, 32, 3, 2, 1, 1, 1},
    {"L2/77", 16, 64, 128, 16, 32, 32, 5, 1, 0, 1, 1},
    {"L2/34", 32, 32, 64, 16, 32, 32, 4, 2, 1, 1, 1},
    {"L2/61", 16, 64, 128, 32, 32, 32, 3, 1, 0, 1, 0},
    {"L1/77", 16, 32, 64, 16, 32, 32, 3, 2, 1, 2, 0},
    {"S5", 3, 32, 64, 6, 5, 7, 3, 1, 0, 1, 1},
    {"S3", 2, 64, 128, 4, 7, 9, 4, 2, 1, 1, 1},
};

static __global__ void fillk(float* p, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t z = (uint32_t)i * 2654435761u ^ seed;
        z ^= z >> 15; z *= 2246822519u; z ^= z >> 13; z *= 3266489917u; z ^= z >> 16;
        p[i] = (float)(z >> 8) * (1.0f / 16777216.0f) * 2.f - 1.f;
    }
}


/* One configuration: y poisoned, prep() and kern() once (checked against ref, 8 s at most), then
   runs timed (L2 flushed before each; the whole convolution and the main kernel alone), one line. */
template <typename Prep, typename Kern>
static void time_variant(const char* what, const hx_case& c, int runs, float* y, size_t ny, const std::vector<double>& ref,
                         double base_ms, double flops, Prep prep, Kern kern)
{
    CUDA_OK(cudaMemset(y, 0xff, ny * 4));
    prep();
    kern();
    CUDA_OK(cudaGetLastError());
    {
        const auto t0 = std::chrono::steady_clock::now();
        while (cudaStreamQuery(0) == cudaErrorNotReady) {
            if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(8)) { printf("%s: no completion after 8 s\n", c.id); exit(3); }
        }
    }
    CUDA_OK(cudaDeviceSynchronize());
    const double err = ex_rel_l2(ex_download(y, ny), ref);
    void* scratch = nullptr;
    CUDA_OK(cudaMalloc(&scratch, EX_FLUSH_BYTES));
    cudaEvent_t e0, e1, e2;
    cudaEventCreate(&e0); cudaEventCreate(&e1); cudaEventCreate(&e2);
    std::vector<double> tt, tk;
    for (int i = 0; i < runs; ++i) {
        CUDA_OK(cudaMemsetAsync(scratch, i & 0xff, EX_FLUSH_BYTES));
        cudaEventRecord(e0);
        prep();
        cudaEventRecord(e1);
        kern();
        cudaEventRecord(e2);
        cudaEventSynchronize(e2);
        float a = 0, k2 = 0;
        cudaEventElapsedTime(&a, e0, e2);
        cudaEventElapsedTime(&k2, e1, e2);
        tt.push_back(a); tk.push_back(k2);
    }
    std::sort(tt.begin(), tt.end()); std::sort(tk.begin(), tk.end());
    printf("%-6s %s: total %.3f ms (main %.3f) %6.1f TFLOP/s (main %6.1f) | lib %.3f -> x%.2f | rel-L2 %.2e\n", c.id, what,
           tt[runs / 2], tk[runs / 2], flops / tt[runs / 2] / 1e9, flops / tk[runs / 2] / 1e9, base_ms, base_ms / tt[runs / 2], err);
    cudaEventDestroy(e0); cudaEventDestroy(e1); cudaEventDestroy(e2);
    CUDA_OK(cudaFree(scratch));
}

template <int HF, int NWG, int NR, int KC, int NA, int NB>
static void run_case(const hx_case& c, int runs, const float* x, const float* w, const float* b, float* y,
                     const std::vector<double>& ref, double base_ms, double flops)
{
    typedef hx_cfg<HF, NWG, NR, KC, NA, NB> C;
    constexpr int BN = C::BN;
    hx_kp P;
    const int I[3] = {c.d, c.h, c.w};
    if (hx_plan(&P, c.n, c.cin, c.cout, 1, I, c.k, c.s, c.p, c.dil, BN, KC, NR)) { printf("%s: plan refused\n", c.id); return; }
    if (P.cin_g % KC) { printf("%s: KC\n", c.id); return; }
    const int astage = C::NKG * P.Rmax * 16;
    size_t smem = (size_t)NA * astage + NB * C::PIECE;
    const size_t epi = (size_t)BN * (NR + 4) * 4;
    if (smem < epi) smem = epi;
    smem += 512 + 256 * 8;
    if (smem > 227 * 1024) { printf("%s %s BN%d NR%d KC%d NA%d NB%d: smem %zu too big\n", c.id, HF ? "half" : "tf32", BN, NR, KC, NA, NB, smem); return; }
    auto kern = hx_main<HF, NWG, NR, KC, NA, NB>;
    CUDA_OK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int occ = 0;
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, C::NT, smem));
    const size_t xpb = (size_t)P.n * (P.cin / C::KG) * P.PS * 16;
    const size_t wpb = (size_t)P.groups * P.ntn * P.ncb * P.KT * C::PIECE;
    void *xp = nullptr, *wp = nullptr;
    CUDA_OK(cudaMalloc(&xp, xpb)); CUDA_OK(cudaMalloc(&wp, wpb));
    dim3 grid((unsigned)P.tiles, P.ntn * P.groups, P.n);
    char what[128];
    snprintf(what, sizeof what, "%s BN%d NR%d KC%d NA%d NB%d smem %6zu occ %d", HF ? "half" : "tf32", BN, NR, KC, NA, NB,
             smem, occ);
    time_variant(what, c, runs, y, (size_t)P.n * P.cout * P.O[0] * P.O[1] * P.O[2], ref, base_ms, flops,
                 [&] {
                     hx_prep_x<HF><<<2048, 256>>>(P, x, xp);
                     hx_prep_w<HF, BN, KC><<<512, 256>>>(P, w, wp);
                 },
                 [&] { kern<<<grid, C::NT, smem>>>(P, xp, wp, b, y, astage); });
    CUDA_OK(cudaFree(xp)); CUDA_OK(cudaFree(wp));
}

template <int NR, int KC, int NA, int NB>
static void run_pp(const hx_case& c, int runs, const float* x, const float* w, const float* b, float* y,
                   const std::vector<double>& ref, double base_ms, double flops)
{
    typedef hx_cfg<0, 1, NR, KC, NA, NB> C;
    hx_kp P;
    const int I[3] = {c.d, c.h, c.w};
    if (hx_plan(&P, c.n, c.cin, c.cout, 1, I, c.k, c.s, c.p, c.dil, 64, KC, NR) || P.nph != 1 || P.Wp % 2 ||
        P.O[2] % 2 || c.cout != 128) { printf("%s: ping-pong refuses\n", c.id); return; }
    const int astage = C::NKG * P.Rmax * 16;
    const size_t smem = (size_t)NA * astage + NB * C::PIECE + 256;
    if (smem > 227 * 1024) { printf("%s pp NA%d NB%d: smem %zu too big\n", c.id, NA, NB, smem); return; }
    auto kern = hx_pp<NR, KC, NA, NB>;
    CUDA_OK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t xpb = (size_t)P.n * (P.cin / C::KG) * P.PS * 16;
    const size_t wpb = (size_t)P.ntn * P.ncb * P.KT * C::PIECE;
    void *xp = nullptr, *wp = nullptr;
    CUDA_OK(cudaMalloc(&xp, xpb)); CUDA_OK(cudaMalloc(&wp, wpb));
    const int64_t npairs = P.ph[0].tiles * P.n;
    char what[128];
    snprintf(what, sizeof what, "tf32 ping-pong NR%d KC%d NA%d NB%d smem %6zu", NR, KC, NA, NB, smem);
    time_variant(what, c, runs, y, (size_t)P.n * P.cout * P.O[0] * P.O[1] * P.O[2], ref, base_ms, flops,
                 [&] {
                     hx_prep_x<0><<<2048, 256>>>(P, x, xp);
                     hx_prep_w<0, 64, KC><<<512, 256>>>(P, w, wp);
                 },
                 [&] { kern<<<sms, 288, smem>>>(P, xp, wp, b, y, astage, npairs); });
    CUDA_OK(cudaFree(xp)); CUDA_OK(cudaFree(wp));
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    const char* ids = argc > 2 ? argv[2] : "L2/77,L2/34,L2/61";
    for (const hx_case& c : cases) {
        if (!strstr(ids, c.id)) continue;
        fc3d_plan_desc d;
        memset(&d, 0, sizeof d);
        d.conv = ex_conv(c.n, c.cin, c.cout, c.d, c.h, c.w, c.k, c.s, c.p, c.dil, c.bias);
        d.layout = FC3D_LAYOUT_NCDHW;
        d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d.math = FC3D_MATH_FP32;
        const fc3d_plan ref = ex_plan(d);
        d.math = FC3D_MATH_TF32;
        const fc3d_plan lt = ex_plan(d);
        d.math = FC3D_MATH_HALF;
        const fc3d_plan lh = ex_plan(d);
        const size_t nx = (size_t)c.n * c.cin * c.d * c.h * c.w, nw = (size_t)c.cin * c.cout * c.k * c.k * c.k;
        const size_t ny = (size_t)ref.y_elements;
        float *x, *w, *b, *y;
        void* ws = nullptr;
        size_t wsb = std::max(std::max(ref.workspace_bytes, lt.workspace_bytes), lh.workspace_bytes);
        CUDA_OK(cudaMalloc(&x, nx * 4)); CUDA_OK(cudaMalloc(&w, nw * 4)); CUDA_OK(cudaMalloc(&b, c.cout * 4));
        CUDA_OK(cudaMalloc(&y, ny * 4));
        if (wsb) CUDA_OK(cudaMalloc(&ws, wsb));
        fillk<<<1024, 256>>>(x, nx, 1); fillk<<<1024, 256>>>(w, nw, 2); fillk<<<1, 256>>>(b, c.cout, 3);
        fc3d_run_args a;
        memset(&a, 0, sizeof a);
        a.x = x; a.weight = w; a.bias = c.bias ? b : nullptr; a.y = y; a.workspace = ws; a.workspace_bytes = wsb;
        ex_run(ref, a);
        const std::vector<double> hr = ex_download(y, ny);
        const double tl = ex_time_ms(lt, a, runs), th = ex_time_ms(lh, a, runs);
        const float* bb = c.bias ? b : nullptr;
#define RC(HF, NWG, NR, KC, NA, NB) run_case<HF, NWG, NR, KC, NA, NB>(c, runs, x, w, bb, y, hr, HF ? th : tl, ref.flops)
        if (getenv("HX_PP")) { /* the ping-pong form only, beside the standalone loop's best */
            if (c.cout >= 128) {
                RC(0, 2, 256, 32, 2, 4);
                run_pp<256, 32, 2, 4>(c, runs, x, w, bb, y, hr, tl, ref.flops);
                run_pp<256, 32, 2, 8>(c, runs, x, w, bb, y, hr, tl, ref.flops);
                run_pp<256, 32, 3, 6>(c, runs, x, w, bb, y, hr, tl, ref.flops);
            }
        } else if (c.cout >= 128) {
            RC(0, 2, 256, 32, 2, 4);
            RC(0, 2, 256, 32, 2, 6);
            RC(0, 2, 256, 32, 3, 4);
            RC(1, 2, 256, 64, 2, 4);
            RC(1, 2, 256, 64, 2, 6);
        } else if (c.cin % 32 == 0) {
            RC(0, 1, 256, 32, 2, 4);
            RC(0, 1, 128, 32, 2, 6);
            RC(1, 1, 128, 32, 2, 6);
            RC(1, 1, 256, 64, 2, 4);
        } else {
            RC(0, 1, 128, 16, 3, 6);
            RC(1, 1, 128, 16, 3, 6);
        }
        cudaFree(x); cudaFree(w); cudaFree(b); cudaFree(y); cudaFree(ws);
    }
    return 0;
}
