/* xmom_border_check.c - checks, in double, the identity bench/xmom_border.cu computes L2/15's sums
   of squares by: for a 3D transposed convolution of any kernel, stride, padding, output padding,
   dilation and groups,
     sum over the kept output of conv[n, c]^2
       = sum over tap pairs (t, u) with (t - u) dl divisible by s in every dim of
         w[., c, t]^T T_n((t - u) dl / s) w[., c, u]   -   sum over the cropped outputs of conv^2,
   T_n(lag)[ci][cj] = sum over the whole input of x[n, ci, j] x[n, cj, j + lag] (x zero outside),
   against the convolution computed directly, on random descs (inputs of 1 to 6 per dim, kernels of
   1 to 5, strides 1 to 3, dilations 1 and 2, any padding up to the kernel's extent, groups 1 and 2).
   Build and run: cc -O2 -std=c11 bench/xmom_border_check.c -o build/xmom_border_check -lm &&
   build/xmom_border_check (exit status 0 when every desc matches to 1e-10). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <math.h>
static double urand(void) { return rand() / (double)RAND_MAX; }
int main(void) {
    int trial, bad = 0, ran = 0;
    double border_frac_max = 0;
    srand(11);
    for (trial = 0; trial < 600; trial++) {
        int k[3], s[3], p[3], dl[3], op[3], a;
        int64_t I[3], O[3], F[3];
        int groups = 1 + rand() % 2, cig = 1 + rand() % 3, cog = 1 + rand() % 2, N = 2;
        for (a = 0; a < 3; a++) {
            k[a] = 1 + rand() % 5; s[a] = 1 + rand() % 3; dl[a] = 1 + rand() % 2;
            p[a] = rand() % (k[a] * dl[a] + 1);
            op[a] = rand() % (s[a] > dl[a] ? s[a] : dl[a]);
            I[a] = 1 + rand() % 6;
            O[a] = (I[a] - 1) * s[a] - 2 * p[a] + dl[a] * (k[a] - 1) + op[a] + 1;
            F[a] = (I[a] - 1) * s[a] + dl[a] * (k[a] - 1) + 1; /* uncropped: o + p in [0, F) */
        }
        if (O[0] < 1 || O[1] < 1 || O[2] < 1) continue;
        ran++;
        const int ci_n = groups * cig, co_n = groups * cog, kv = k[0] * k[1] * k[2];
        const int64_t vin = I[0] * I[1] * I[2], vf = F[0] * F[1] * F[2];
        double* x = malloc(sizeof(double) * N * ci_n * vin);
        double* w = malloc(sizeof(double) * ci_n * cog * kv);
        double* yf = calloc(N * co_n * vf, sizeof(double)); /* uncropped, index o + p */
        for (int64_t q = 0; q < N * ci_n * vin; q++) x[q] = urand();
        for (int64_t q = 0; q < ci_n * cog * kv; q++) w[q] = urand() * 2 - 1;
        for (int n = 0; n < N; n++) for (int ci = 0; ci < ci_n; ci++)
        for (int64_t id = 0; id < I[0]; id++) for (int64_t ih = 0; ih < I[1]; ih++) for (int64_t iw = 0; iw < I[2]; iw++)
        for (int td = 0; td < k[0]; td++) for (int th = 0; th < k[1]; th++) for (int tw = 0; tw < k[2]; tw++) {
            int64_t fd = id * s[0] + dl[0] * td, fh = ih * s[1] + dl[1] * th, fw = iw * s[2] + dl[2] * tw;
            int g = ci / cig;
            for (int cc = 0; cc < cog; cc++)
                yf[((int64_t)(n * co_n + g * cog + cc) * F[0] + fd) * F[1] * F[2] + fh * F[2] + fw] +=
                    x[((int64_t)(n * ci_n + ci) * I[0] + id) * I[1] * I[2] + ih * I[2] + iw] *
                    w[((int64_t)ci * cog + cc) * kv + (td * k[1] + th) * k[2] + tw];
        }
        /* lags per dim: (t - u) dl / s over compatible pairs; range [-L, L] */
        int L[3];
        for (a = 0; a < 3; a++) L[a] = (k[a] - 1) * dl[a] / s[a];
        const int nl = (2 * L[0] + 1) * (2 * L[1] + 1) * (2 * L[2] + 1);
        double* T = calloc((size_t)N * groups * nl * cig * cig, sizeof(double));
        for (int n = 0; n < N; n++) for (int g = 0; g < groups; g++)
        for (int ld = -L[0]; ld <= L[0]; ld++) for (int lh = -L[1]; lh <= L[1]; lh++) for (int lw = -L[2]; lw <= L[2]; lw++) {
            double* t = T + (((size_t)(n * groups + g) * nl) + ((ld + L[0]) * (2 * L[1] + 1) + lh + L[1]) * (2 * L[2] + 1) + lw + L[2]) * cig * cig;
            for (int64_t jd = 0; jd < I[0]; jd++) for (int64_t jh = 0; jh < I[1]; jh++) for (int64_t jw = 0; jw < I[2]; jw++) {
                int64_t kd = jd + ld, kh = jh + lh, kw = jw + lw;
                if (kd < 0 || kd >= I[0] || kh < 0 || kh >= I[1] || kw < 0 || kw >= I[2]) continue;
                for (int a1 = 0; a1 < cig; a1++) for (int b1 = 0; b1 < cig; b1++)
                    t[a1 * cig + b1] += x[((int64_t)(n * ci_n + g * cig + a1) * I[0] + jd) * I[1] * I[2] + jh * I[2] + jw] *
                                        x[((int64_t)(n * ci_n + g * cig + b1) * I[0] + kd) * I[1] * I[2] + kh * I[2] + kw];
            }
        }
        double worst = 0;
        for (int n = 0; n < N; n++) for (int co = 0; co < co_n; co++) {
            const int g = co / cog, cc = co % cog;
            double ref = 0, full = 0, border = 0, acc = 0;
            for (int64_t fd = 0; fd < F[0]; fd++) for (int64_t fh = 0; fh < F[1]; fh++) for (int64_t fw = 0; fw < F[2]; fw++) {
                double v = yf[((int64_t)(n * co_n + co) * F[0] + fd) * F[1] * F[2] + fh * F[2] + fw];
                int64_t od = fd - p[0], oh = fh - p[1], ow = fw - p[2];
                full += v * v;
                if (od >= 0 && od < O[0] && oh >= 0 && oh < O[1] && ow >= 0 && ow < O[2]) ref += v * v;
                else border += v * v;
            }
            for (int t = 0; t < kv; t++) for (int u = 0; u < kv; u++) {
                int td = t / (k[1] * k[2]), th = t / k[2] % k[1], tw = t % k[2];
                int ud = u / (k[1] * k[2]), uh = u / k[2] % k[1], uw = u % k[2];
                if ((td - ud) * dl[0] % s[0] || (th - uh) * dl[1] % s[1] || (tw - uw) * dl[2] % s[2]) continue;
                int ld = (td - ud) * dl[0] / s[0], lh = (th - uh) * dl[1] / s[1], lw = (tw - uw) * dl[2] / s[2];
                /* i_u = i_t + (t - u) dl / s: the pair's sum is x[j] (tap t) times x[j + lag] (tap u) */
                const double* tt = T + (((size_t)(n * groups + g) * nl) + ((ld + L[0]) * (2 * L[1] + 1) + lh + L[1]) * (2 * L[2] + 1) + lw + L[2]) * cig * cig;
                for (int a1 = 0; a1 < cig; a1++) for (int b1 = 0; b1 < cig; b1++)
                    acc += w[((int64_t)(g * cig + a1) * cog + cc) * kv + t] * tt[a1 * cig + b1] * w[((int64_t)(g * cig + b1) * cog + cc) * kv + u];
            }
            double e1 = fabs(acc - full) / (full > 0 ? full : 1), e2 = fabs(acc - border - ref) / (ref > 0 ? ref : 1);
            if (e1 > worst) worst = e1;
            if (ref > 1e-9 && e2 > worst) worst = e2;
            if (full > 0 && border / full > border_frac_max) border_frac_max = border / full;
        }
        if (worst > 1e-10) { bad++; printf("MISMATCH trial %d: %.3g\n", trial, worst); }
        free(x); free(w); free(yf); free(T);
    }
    printf("%d descs checked, %d mismatched (largest cropped share of the squares %.2f)\n", ran, bad, border_frac_max);
    /* L2/15 */
    {
        double full = 33.0 * 33 * 33, kept = 31.0 * 31 * 31;
        printf("L2/15: uncropped outputs %.0f, kept %.0f, cropped %.0f per (n, c) (%.1f %%)\n", full, kept, full - kept, 100 * (full - kept) / full);
    }
    return bad != 0;
}
