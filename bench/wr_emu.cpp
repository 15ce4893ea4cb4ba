// bench/wr_emu.cpp - a host emulation of fusedconv3d.cuh's warp-row loop kernel (_fc3d_wr_main), for checking
// it where no GPU is at hand: its shared-memory layouts, offsets, segment and buffer logic, epilogue and
// stores transcribed line by line, ldmatrix, mma.sync m16n8k16 and the shuffles emulated per the PTX ISA's
// fragment layouts (a transcription: keep it in step with the kernel). Random descs within the loop's
// limits, every CTA of a random grid; each output against a double convolution of the f16 operands and
// written exactly once, each statistics slot against double sums and written once.
// Build and run: g++ -O2 -std=c++17 bench/wr_emu.cpp -o build/wr_emu && build/wr_emu [SEED [CASES [NB_STORE]]]
// (NB_STORE: the storing pass's plane buffers, _FC3D_WR_NB_STORE: 2, or 3 with units of two segments)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <random>
#include <vector>
#include <set>
#include <algorithm>

static float tf32(float v) {
    uint32_t r; memcpy(&r, &v, 4);
    if ((r & 0x7f800000u) != 0x7f800000u) r = (r + 0xfffu + ((r >> 13) & 1u)) & 0xffffe000u;
    float f; memcpy(&f, &r, 4); return f;
}
// float -> f16 round to nearest even (normal and subnormal; no overflow here)
static uint16_t f2h(float f) {
    uint32_t x; memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    float a = std::fabs(f);
    if (a == 0.f) return (uint16_t)sign;
    int e;
    (void)std::frexp(a, &e); // a = m 2^e, m in [0.5, 1)
    // f16: value = 1.f x 2^(E-15), E in 1..30; subnormal 0.f x 2^-14
    int E = e - 1 + 15;
    if (E >= 1) {
        double q = std::ldexp((double)a, -(e - 1)) * 1024.0; // in [1024, 2048)
        double r = std::nearbyint(q); // ties to even under the default rounding mode
        if (r == 2048.0) { r = 1024.0; E++; }
        if (E >= 31) { fprintf(stderr, "overflow\n"); exit(1); }
        return (uint16_t)(sign | (E << 10) | ((uint32_t)r - 1024));
    }
    double q = std::nearbyint(std::ldexp((double)a, 24)); // subnormal units of 2^-24
    return (uint16_t)(sign | (uint32_t)q);
}
static float h2f(uint16_t h) {
    int E = (h >> 10) & 31, M = h & 1023; float v;
    if (E == 0) v = std::ldexp((float)M, -24); else v = std::ldexp((float)(M + 1024), E - 25);
    return (h & 0x8000) ? -v : v;
}

static float lo(uint32_t v) { return h2f((uint16_t)(v & 0xffff)); }
static float hi(uint32_t v) { return h2f((uint16_t)(v >> 16)); }
// mma m16n8k16 row.col f16 -> f32: A 16x16 (a0: row g cols 2t,2t+1; a1: row g+8; a2: row g cols
// 2t+8,+9; a3: row g+8 cols 2t+8,+9), B 16x8 (b0: rows 2t,2t+1 col g; b1: rows 2t+8,+9), C/D
// (c0: g,2t; c1: g,2t+1; c2: g+8,2t; c3: g+8,2t+1)
static void mma(float (&d)[32][4], const uint32_t (&a)[32][4], const uint32_t (&b0)[32], const uint32_t (&b1)[32],
                const float (&c)[32][4]) {
    double A[16][16], B[16][8], C[16][8];
    for (int l = 0; l < 32; l++) {
        const int g = l / 4, t = l % 4;
        A[g][2 * t] = lo(a[l][0]); A[g][2 * t + 1] = hi(a[l][0]);
        A[g + 8][2 * t] = lo(a[l][1]); A[g + 8][2 * t + 1] = hi(a[l][1]);
        A[g][2 * t + 8] = lo(a[l][2]); A[g][2 * t + 9] = hi(a[l][2]);
        A[g + 8][2 * t + 8] = lo(a[l][3]); A[g + 8][2 * t + 9] = hi(a[l][3]);
        B[2 * t][g] = lo(b0[l]); B[2 * t + 1][g] = hi(b0[l]);
        B[2 * t + 8][g] = lo(b1[l]); B[2 * t + 9][g] = hi(b1[l]);
        C[g][2 * t] = c[l][0]; C[g][2 * t + 1] = c[l][1]; C[g + 8][2 * t] = c[l][2]; C[g + 8][2 * t + 1] = c[l][3];
    }
    for (int l = 0; l < 32; l++) {
        const int g = l / 4, t = l % 4;
        const int rr[4] = {g, g, g + 8, g + 8}, cc[4] = {2 * t, 2 * t + 1, 2 * t, 2 * t + 1};
        for (int i = 0; i < 4; i++) {
            double s = C[rr[i]][cc[i]];
            for (int k = 0; k < 16; k++) s += A[rr[i]][k] * B[k][cc[i]];
            d[l][i] = (float)s;
        }
    }
}

// ---- host emulation of fusedconv3d.cuh's _fc3d_wr_main (STORE and/or STATS, the map path:
// bias and the scales, no ops), transcribed line by line, generic in N, D, H, W, output padding, C_out, y's
// address parity; every CTA of the grid emulated; checked against a double convolution of the f16 operands,
// every output written once, the statistics partials against double sums.
static int D, H, W, OD, OH, OW, NB, COUT, PLB, SMEM;
constexpr int CO = 32, XROW = 33 * 32, TAP = 1024, WB = 27 * TAP, NW = 8, STCH = 16, STW = 68;
static std::vector<uint16_t> xh, wh;
static std::vector<float> bias, ybuf;
static std::vector<int> writes;
static int64_t yshift = 0;
static std::vector<double> psum, psq; // [n][c][od]
static std::vector<int> pset;
static int fails = 0;
static int NB_STORE = 2;                  // the kernel's _FC3D_WR_NB_STORE (argv[3])
static long long prefetched = 0, missed = 0; // planes loaded a unit ahead, and those a unit's start loaded
static int nbuf(bool store) { return store ? NB_STORE : 2; }
struct Smem { std::vector<uint8_t> b; Smem() : b(SMEM, 0x7E) {} };
static void cp16(Smem& s, uint32_t off, const uint16_t* src) {
    if (off % 16 || off + 16 > (uint32_t)SMEM) { printf("cp16 bad offset %u\n", off); exit(1); }
    memcpy(&s.b[off], src, 16);
}
static void ldm4(const Smem& s, const uint32_t (&addr)[32], uint32_t (&r)[32][4]) {
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < 4; i++) {
            const uint32_t a = addr[8 * i + l / 4] + 4 * (l % 4);
            if (addr[8 * i + l / 4] % 16 || a + 4 > (uint32_t)SMEM) { printf("ldm bad\n"); exit(1); }
            memcpy(&r[l][i], &s.b[a], 4);
        }
}
typedef float Acc[2][2][4][32][4];
static void wtap(const Smem& s, float (&acc)[2][4][32][4], uint32_t (&a)[2][32][4], uint32_t wb, const uint32_t (&boff)[32][2], bool first) {
    uint32_t b[2][32][4], ad[32];
    for (int p = 0; p < 2; p++) { for (int l = 0; l < 32; l++) ad[l] = wb + boff[l][p]; ldm4(s, ad, b[p]); }
    for (int mt = 0; mt < 2; mt++)
        for (int nt = 0; nt < 4; nt++) {
            uint32_t bb0[32], bb1[32];
            for (int l = 0; l < 32; l++) { bb0[l] = b[nt >> 1][l][(nt & 1) * 2]; bb1[l] = b[nt >> 1][l][(nt & 1) * 2 + 1]; }
            float c[32][4];
            for (int l = 0; l < 32; l++) for (int i = 0; i < 4; i++) c[l][i] = first ? 0.f : acc[mt][nt][l][i];
            mma(acc[mt][nt], a[mt], bb0, bb1, c);
        }
}
static void tap(const Smem& s, Acc& acc, bool first, uint32_t xrow, uint32_t wt, const uint32_t (&aoff)[32][2], const uint32_t (&boff)[32][2]) {
    uint32_t a0[2][32][4], a1[2][32][4], ad[32];
    for (int mt = 0; mt < 2; mt++) { for (int l = 0; l < 32; l++) ad[l] = xrow + aoff[l][0] + mt * 512; ldm4(s, ad, a0[mt]); }
    wtap(s, acc[0], a0, wt + 1 * TAP, boff, first);
    for (int mt = 0; mt < 2; mt++) { for (int l = 0; l < 32; l++) ad[l] = xrow + aoff[l][1] + mt * 512; ldm4(s, ad, a1[mt]); }
    wtap(s, acc[1], a1, wt + 0 * TAP, boff, first);
    wtap(s, acc[1], a0, wt + 2 * TAP, boff, false);
}
static void store(int64_t idx, float v) {
    if (idx < 0 || idx >= (int64_t)writes.size()) { printf("store out of range %lld\n", (long long)idx); fails++; return; }
    ybuf[idx + yshift] = v; writes[idx]++;
}
static void cta(int blk, int grid, bool STORE, bool STATS, float msc, bool two, float sc1) {
    Smem s;
    const uint32_t sw = 0, pl0 = WB;
    for (int c = 0; c < 27 * CO * 2; c++) { const int tp = c >> 6, co = (c >> 1) & 31, hf = c & 1; cp16(s, sw + tp * TAP + co * 32 + ((hf ^ ((co >> 2) & 1)) << 4), &wh[(int64_t)c * 8]); }
    const int zp = 33 - W;
    for (int i = 0; i < nbuf(STORE) * H * zp * 2; i++) {
        const int hf = i & 1, r = i >> 1, pos = W + r % zp, row = r / zp;
        memset(&s.b[pl0 + (row / H) * PLB + (row % H) * XROW + pos * 32 + hf * 16], 0, 16);
    }
    uint32_t aoff[32][2], boff[32][2];
    for (int lane = 0; lane < 32; lane++) {
        for (int sh = 0; sh < 2; sh++) { const int iw = sh + (lane & 7) + 8 * ((lane >> 3) & 1), hf = lane >> 4; aoff[lane][sh] = iw * 32 + ((hf ^ ((iw >> 2) & 1)) << 4); }
        for (int p = 0; p < 2; p++) { const int q = lane >> 3, co = 8 * (2 * p + (q >> 1)) + (lane & 7), hf = q & 1; boff[lane][p] = co * 32 + ((hf ^ ((co >> 2) & 1)) << 4); }
    }
    auto load_plane = [&](uint32_t buf, int plane) {
        const uint16_t* src = &xh[(int64_t)plane * H * W * 16];
        for (int c = 0; c < H * W * 2; c++) { const int hw = c >> 1, h = hw / W, w = hw - h * W, hf = c & 1; cp16(s, buf + h * XROW + w * 32 + ((hf ^ ((w >> 2) & 1)) << 4), src + (int64_t)c * 8); }
    };
    const int64_t S = (int64_t)NB * OD, R = S * OH;
    const int r0 = (int)(STATS ? (int64_t)blk * S / grid * OH : (int64_t)blk * R / grid);
    const int r1 = (int)(STATS ? ((int64_t)blk + 1) * S / grid * OH : ((int64_t)blk + 1) * R / grid);
    const int ne = (OW + 1) >> 1, no = OW >> 1;
    const int NBUF = nbuf(STORE), SPAN = STORE && !STATS && NBUF == 3 ? 2 : 1;
    auto unit = [&](int r, int& rend, int& lo, int& hi) {
        const int seg = r / OH, n = seg / OD, se = std::min(seg + SPAN - 1, n * OD + OD - 1);
        rend = std::min(r1, (se + 1) * OH);
        const int od0 = seg - n * OD, od1 = (rend - 1) / OH - n * OD;
        lo = n * D + (od0 >> 1); hi = n * D + std::min((od1 + 1) >> 1, D - 1);
    };
    int tag[3] = {-1, -1, -1};
    // the kernel's fetch: p, unless held, into the first buffer outside [a0, a1] and [b0, b1]; whether p is held after
    auto fetch = [&](int p, int a0, int a1, int b0, int b1) {
        bool have = false; for (int i = 0; i < NBUF; i++) have |= tag[i] == p;
        for (int i = 0; i < NBUF; i++)
            if (!have && (tag[i] < a0 || tag[i] > a1) && (tag[i] < b0 || tag[i] > b1)) { load_plane(pl0 + i * PLB, p); tag[i] = p; have = true; }
        return have;
    };
    float Map[CO][2];
    for (int r = r0; r < r1;) {
        int rend, lo, hi;
        unit(r, rend, lo, hi);
        const int n = r / OH / OD, odu = r / OH - n * OD;
        for (int p = lo; p <= hi; p++) fetch(p, lo, hi, lo, hi);
        for (int c = 0; c < CO; c++) { Map[c][0] = c < COUT ? msc : 0.f; Map[c][1] = c < COUT ? bias[c] : 0.f; }
        uint32_t xlo = 0, xhi = 0; bool flo = false, fhi = false;
        for (int i = 0; i < NBUF; i++) { if (tag[i] == lo) { xlo = pl0 + i * PLB; flo = true; } if (tag[i] == hi) { xhi = pl0 + i * PLB; fhi = true; } }
        if (!flo || !fhi) { printf("a unit's plane not resident\n"); fails++; return; }
        // the planes the unit reads, from the copy of x (the prefetch below must not touch them)
        for (int p = lo; p <= hi; p++) {
            const uint32_t buf = p == lo ? xlo : xhi;
            for (int h = 0; h < H; h++) for (int w = 0; w < W; w++) for (int hf = 0; hf < 2; hf++)
                if (memcmp(&s.b[buf + h * XROW + w * 32 + ((hf ^ ((w >> 2) & 1)) << 4)], &xh[((int64_t)p * H * W + h * W + w) * 16 + hf * 8], 16)) {
                    printf("a unit's plane holds the wrong data\n"); fails++; return; }
        }
        std::vector<uint8_t> snapA(&s.b[xlo], &s.b[xlo] + PLB), snapB(&s.b[xhi], &s.b[xhi] + PLB);
        if (rend < r1) {
            int rn, lo2, hi2;
            unit(rend, rn, lo2, hi2);
            for (int p = lo2; p <= hi2; p++) {
                bool had = false; for (int i = 0; i < NBUF; i++) had |= tag[i] == p;
                if (had) continue;
                if (fetch(p, lo, hi, lo2, hi2)) prefetched++; else missed++;
            }
        }
        if (memcmp(snapA.data(), &s.b[xlo], PLB) || memcmp(snapB.data(), &s.b[xhi], PLB)) { printf("prefetch overwrote\n"); fails++; return; }
        const int cnt = rend - r;
        float ssum[NW][32][4][2] = {}, ssq[NW][32][4][2] = {};
        for (int warp = 0; warp < NW; warp++)
            for (int k = 0; k * NW < cnt; k++) {
                const int j = k * NW + ((k & 1) ? NW - 1 - warp : warp);
                if (j >= cnt) continue;
                const int rs = (r + j) / OH, od = rs - n * OD, oh = r + j - rs * OH;
                const bool dB = (od & 1) && (od >> 1) + 1 < D;
                const int tdA = (od & 1) ? 2 : 1;
                const uint32_t ba = n * D + (od >> 1) == lo ? xlo : xhi, bb = xhi;
                const int thA = (oh & 1) ? 2 : 1, ih = oh >> 1;
                const bool hB = (oh & 1) && ih + 1 < H;
                static Acc acc;
                for (int ph = 0; ph < 2; ph++) for (int mt = 0; mt < 2; mt++) for (int nt = 0; nt < 4; nt++) for (int l = 0; l < 32; l++) for (int i = 0; i < 4; i++) acc[ph][mt][nt][l][i] = NAN;
                tap(s, acc, true, ba + ih * XROW, sw + (tdA * 9 + thA * 3) * TAP, aoff, boff);
                if (hB) tap(s, acc, false, ba + (ih + 1) * XROW, sw + (tdA * 9) * TAP, aoff, boff);
                if (dB) { tap(s, acc, false, bb + ih * XROW, sw + (thA * 3) * TAP, aoff, boff); if (hB) tap(s, acc, false, bb + (ih + 1) * XROW, sw, aoff, boff); }
                if (two) for (int ph = 0; ph < 2; ph++) for (int mt = 0; mt < 2; mt++) for (int nt = 0; nt < 4; nt++) for (int l = 0; l < 32; l++) for (int i = 0; i < 4; i++) acc[ph][mt][nt][l][i] *= sc1;
                const int64_t yrow = (((int64_t)n * COUT * OD + od) * OH + oh) * OW;
                for (int hh = 0; hh < CO / STCH; hh++) {
                    std::vector<float> st(STCH * STW, NAN);
                    for (int lane = 0; lane < 32; lane++) {
                        const int g = lane >> 2, t = lane & 3;
                        for (int nt = hh * (STCH / 8); nt < (hh + 1) * (STCH / 8); nt++)
                            for (int cp = 0; cp < 2; cp++) {
                                const int co = 8 * nt + 2 * t + cp;
                                float v[8];
                                for (int s4 = 0; s4 < 4; s4++) {
                                    v[s4] = std::fma(acc[0][s4 >> 1][nt][lane][2 * (s4 & 1) + cp], Map[co][0], Map[co][1]);
                                    v[4 + s4] = std::fma(acc[1][s4 >> 1][nt][lane][2 * (s4 & 1) + cp], Map[co][0], Map[co][1]);
                                }
                                if (STATS) for (int s4 = 0; s4 < 4; s4++) {
                                    const float e = 8 * s4 + g < ne ? v[s4] : 0.f, o = 8 * s4 + g < no ? v[4 + s4] : 0.f;
                                    ssum[warp][lane][nt][cp] += e + o;
                                    ssq[warp][lane][nt][cp] = std::fma(e, e, std::fma(o, o, ssq[warp][lane][nt][cp]));
                                }
                                if (STORE) for (int s4 = 0; s4 < 4; s4++) { const int w = (co - hh * STCH) * STW + 2 * (8 * s4 + g); st[w] = v[s4]; st[w + 1] = v[4 + s4]; }
                            }
                    }
                    if (STORE) {
                        // the kernel's unrolled form: the first staged row's alignment, flipped each
                        // channel where odhw is odd; the row stepped by the channel stride
                        const int cb = hh * STCH;
                        const int64_t odhw = (int64_t)OD * OH * OW, yb = yrow + (int64_t)cb * odhw;
                        const bool al0 = ((yb + yshift) & 1) == 0, flip = (odhw & 1) != 0;
                        for (int cl = 0; cl < STCH; cl++) {
                            float vx[32], vy[32];
                            for (int l = 0; l < 32; l++) { vx[l] = st[cl * STW + 2 * l]; vy[l] = st[cl * STW + 2 * l + 1]; }
                            if (cb + cl >= COUT) break;
                            const int64_t yr = yb + (int64_t)cl * odhw;
                            const bool al = al0 != (flip && (cl & 1));
                            for (int lane = 0; lane < 32; lane++) {
                                const int p0 = 2 * lane;
                                if (al) { if (p0 + 1 < OW) { if ((yr + yshift + p0) & 1) { printf("misaligned pair\n"); fails++; } store(yr + p0, vx[lane]); store(yr + p0 + 1, vy[lane]); } else if (p0 < OW) store(yr + p0, vx[lane]); }
                                else {
                                    const float pv = lane > 0 ? vy[lane - 1] : vy[0];
                                    if (lane == 0) store(yr, vx[lane]);
                                    else if (p0 < OW) { if ((yr + yshift + p0 - 1) & 1) { printf("misaligned pair\n"); fails++; } store(yr + p0 - 1, pv); store(yr + p0, vx[lane]); }
                                    else if (p0 - 1 < OW) store(yr + p0 - 1, pv);
                                    if (lane == 31 && p0 + 1 < OW) store(yr + p0 + 1, vy[lane]);
                                }
                            }
                        }
                    }
                }
            }
        if (STATS) {
            double red[NW][CO][2];
            for (int w = 0; w < NW; w++) for (int lane = 0; lane < 32; lane++) {
                const int g = lane >> 2, t = lane & 3; if (g) continue;
                for (int nt = 0; nt < 4; nt++) for (int cp = 0; cp < 2; cp++) {
                    double ds = 0, dq = 0; for (int gg = 0; gg < 8; gg++) { ds += ssum[w][gg * 4 + t][nt][cp]; dq += ssq[w][gg * 4 + t][nt][cp]; }
                    red[w][8 * nt + 2 * t + cp][0] = ds; red[w][8 * nt + 2 * t + cp][1] = dq; }
            }
            for (int c = 0; c < COUT; c++) { double ds = 0, dq = 0; for (int w = 0; w < NW; w++) { ds += red[w][c][0]; dq += red[w][c][1]; }
                const int64_t i = ((int64_t)n * COUT + c) * OD + odu; psum[i] = ds; psq[i] = dq; pset[i]++; }
        }
        r = rend;
    }
}
int main(int argc, char** argv) {
    std::mt19937 rng(argc > 1 ? atoi(argv[1]) : 7);
    const int cases = argc > 2 ? atoi(argv[2]) : 12;
    NB_STORE = argc > 3 ? atoi(argv[3]) : 2;
    for (int cs = 0; cs < cases; cs++) {
        auto ri = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
        NB = ri(1, 2); D = ri(1, 5); H = cs % 3 == 0 ? 32 : ri(1, 9); W = cs % 4 == 0 ? 32 : ri(1, 32); COUT = cs % 2 ? 32 : ri(1, 32);
        const int opd = ri(0, 1), oph = ri(0, 1), opw = ri(0, 1);
        OD = 2 * D - 1 + opd; OH = 2 * H - 1 + oph; OW = 2 * W - 1 + opw;
        PLB = ((H * XROW) + 127) & ~127; SMEM = WB + 3 * PLB;
        const bool STORE = cs % 3 != 1, STATS = cs % 3 != 0;
        const int grid = ri(1, 20);
        yshift = cs % 2;
        const int64_t nx = (int64_t)NB * 16 * D * H * W, nw = 16LL * COUT * 27, ny = (int64_t)NB * COUT * OD * OH * OW;
        std::vector<float> hx(nx), hw(nw);
        std::uniform_real_distribution<float> ux(0.f, 1.f), uw(-0.1f, 0.1f);
        const int smode = cs % 5 == 3 ? 1 : cs % 5 == 4 ? 2 : 0; /* x at 2^-12 (x's power of two); and a weight at 2^-97 (two) */
        for (auto& v : hx) v = tf32(ux(rng)) * (smode ? 0x1p-12f : 1.f);
        for (auto& v : hw) v = tf32(uw(rng)) * (smode == 2 ? 0x1p-97f : 1.f);
        bias.assign(CO, 0.f); for (int c = 0; c < COUT; c++) bias[c] = smode == 2 ? 0.f : uw(rng);
        float wmax = 0; for (auto v : hw) wmax = std::max(wmax, std::fabs(v));
        float xmax = 0; for (auto v : hx) xmax = std::max(xmax, std::fabs(v));
        int e; std::frexp(wmax, &e); const int ew = 14 - (e - 1); // the power of two that puts wmax in [2^14, 2^15)
        int ex2; std::frexp(xmax, &ex2);
        const bool asis = xmax == 0.f || (xmax >= 0.0625f && xmax < 32768.f);
        const int ex = asis ? 0 : 14 - (ex2 - 1), et = ex + ew;
        const bool two = et > 126 || et < -126;
        const float wsc = std::ldexp(1.f, ew), xsc = std::ldexp(1.f, ex);
        const float msc = (float)std::ldexp(1.0, two ? -ew : -et), sc1 = std::ldexp(1.f, -ex);
        xh.assign(nx, 0); wh.assign(27 * 32 * 16, 0);
        for (int64_t p = 0; p < (int64_t)NB * D * H * W; p++) { const int64_t n = p / (D * H * W), sp = p % (D * H * W);
            for (int ci = 0; ci < 16; ci++) xh[p * 16 + ci] = f2h(hx[(n * 16 + ci) * (D * H * W) + sp] * xsc); }
        for (int ee = 0; ee < 27 * 32 * 16; ee++) { const int tp = ee >> 9, co = (ee >> 4) & 31, ci = ee & 15;
            wh[ee] = co < COUT ? f2h(hw[((int64_t)ci * COUT + co) * 27 + tp] * wsc) : 0; }
        ybuf.assign(ny + 1, NAN); writes.assign(ny, 0);
        psum.assign((size_t)NB * COUT * OD, 0); psq = psum; pset.assign(psum.size(), 0);
        for (int b = 0; b < grid; b++) cta(b, grid, STORE, STATS, msc, two, sc1);
        // reference
        std::vector<double> ref(ny);
        for (int n = 0; n < NB; n++) for (int co = 0; co < COUT; co++) for (int od = 0; od < OD; od++) for (int oh = 0; oh < OH; oh++) for (int ow = 0; ow < OW; ow++) {
            double sref = bias[co];
            for (int ci = 0; ci < 16; ci++) for (int td = 0; td < 3; td++) for (int th = 0; th < 3; th++) for (int tw = 0; tw < 3; tw++) {
                const int fd = od + 1 - td, fh = oh + 1 - th, fw = ow + 1 - tw;
                if (fd < 0 || fh < 0 || fw < 0 || fd % 2 || fh % 2 || fw % 2 || fd / 2 >= D || fh / 2 >= H || fw / 2 >= W) continue;
                sref += (double)hx[((((int64_t)n * 16 + ci) * D + fd / 2) * H + fh / 2) * W + fw / 2] * (double)hw[((int64_t)ci * COUT + co) * 27 + (td * 3 + th) * 3 + tw];
            }
            ref[((((int64_t)n * COUT + co) * OD + od) * OH + oh) * OW + ow] = sref;
        }
        double num = 0, den = 0; int64_t badw = 0;
        if (STORE) for (int64_t i = 0; i < ny; i++) { if (writes[i] != 1) badw++; const double d = ybuf[i + yshift] - ref[i]; num += d * d; den += ref[i] * ref[i]; }
        else for (int64_t i = 0; i < ny; i++) if (writes[i] != 0) badw++;
        double sworst = 0; int64_t badset = 0;
        if (STATS) for (int n = 0; n < NB; n++) for (int c = 0; c < COUT; c++) for (int od = 0; od < OD; od++) {
            const int64_t i = ((int64_t)n * COUT + c) * OD + od; if (pset[i] != 1) badset++;
            double s1 = 0, s2 = 0; for (int oh = 0; oh < OH; oh++) for (int ow = 0; ow < OW; ow++) { const double v = ref[((((int64_t)n * COUT + c) * OD + od) * OH + oh) * OW + ow]; s1 += v; s2 += v * v; }
            const double q2 = s2 > 0 ? s2 : 1.0; /* (two: the squares, under 1e-60, underflow float's per-lane sums) */
            sworst = std::max(sworst, std::max(std::fabs(psum[i] - s1) / std::sqrt(q2), two ? 0.0 : std::fabs(psq[i] - s2) / q2));
        }
        const double rel = STORE ? std::sqrt(num / den) : 0;
        const bool ok = badw == 0 && badset == 0 && rel < 1e-6 && std::isfinite(rel) && sworst < 1e-5;
        printf("scales x 2^%d, weight 2^%d%s; ", ex, ew, two ? " (two)" : "");
        printf("case %d: N %d D %d H %d W %d op %d%d%d C_out %d store %d stats %d grid %d shift %lld: rel-L2 %.2e, stats %.2e, bad writes %lld, slots %lld: %s\n",
               cs, NB, D, H, W, opd, oph, opw, COUT, STORE, STATS, grid, (long long)yshift, rel, sworst, (long long)badw, (long long)badset, ok ? "ok" : "FAILED");
        if (!ok) fails++;
    }
    printf("planes loaded a unit ahead %lld, at a unit's start %lld\n", prefetched, missed);
    printf("%s\n", fails ? "FAILED" : "all ok");
    return fails != 0;
}
