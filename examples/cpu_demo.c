/* cpu_demo.c - the L2/15 chain at a tiny size through the CPU reference alone: no GPU, no CUDA.
   Build (from the repo root): mkdir -p build &&
     gcc -std=c99 -O2 -I. examples/cpu_demo.c -lm -o build/cpu_demo
   examples/demo.sh runs it when no GPU is present.

     conv = nn.ConvTranspose3d(3, 4, kernel_size=3, stride=2, padding=1, bias=True)
     bn = nn.BatchNorm3d(4)                        # training mode, affine, running stats updated
     y = bn(conv(x)); y = y - y.mean(dim=(2, 3, 4), keepdim=True)
     x: 2 x 3 x 3 x 4 x 5  ->  y: 2 x 4 x 5 x 7 x 9

   fc3d_plan_init and fc3d_plan_describe live in the CUDA implementation, so a C-only build cannot
   show the plan; the desc below is the same one a GPU program would hand to fc3d_plan_init. */
#define FUSEDCONV3D_CPU_IMPLEMENTATION
#include "fusedconv3d_cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C_IN 3
#define C_OUT 4

static uint64_t rng_state = 1;
static double rng_unit(void) { /* splitmix64, uniform [0, 1) */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static void mean_std(const double* v, int64_t n, int64_t stride, int64_t runs, int64_t run_stride, double* mean,
                     double* std) {
    double s = 0.0, s2 = 0.0;
    int64_t r, i;
    for (r = 0; r < runs; r++)
        for (i = 0; i < n; i++) s += v[r * run_stride + i * stride];
    *mean = s / (double)(n * runs);
    for (r = 0; r < runs; r++)
        for (i = 0; i < n; i++) {
            const double d = v[r * run_stride + i * stride] - *mean;
            s2 += d * d;
        }
    *std = sqrt(s2 / (double)(n * runs));
}

int main(void) {
    fc3d_plan_desc desc;
    fc3d_cpu_op_tensors ops[2];
    double gamma[C_OUT], beta[C_OUT], rmean[C_OUT], rvar[C_OUT], bias[C_OUT];
    double *x, *w, *y, mean, std, bound;
    int64_t y_dims[5], x_n, w_n, y_n, plane, i;
    int c;

    memset(&desc, 0, sizeof desc); /* zero = default: dilation 1, groups 1, eps 1e-5, momentum 0.1 */
    desc.conv.batch = 2;
    desc.conv.in_channels = C_IN;
    desc.conv.out_channels = C_OUT;
    desc.conv.in_size[0] = 3;
    desc.conv.in_size[1] = 4;
    desc.conv.in_size[2] = 5;
    for (c = 0; c < 3; c++) {
        desc.conv.kernel[c] = 3;
        desc.conv.stride[c] = 2;
        desc.conv.padding[c] = 1;
    }
    desc.conv.bias = 1;
    desc.ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
    desc.ops[0].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
    desc.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
    desc.num_ops = 2;

    if (fc3d_cpu_output_dims(&desc, y_dims, NULL) != 0) {
        fprintf(stderr, "invalid desc\n");
        return 1;
    }
    x_n = (int64_t)desc.conv.batch * C_IN * desc.conv.in_size[0] * desc.conv.in_size[1] * desc.conv.in_size[2];
    w_n = (int64_t)C_IN * C_OUT * 27;
    y_n = y_dims[0] * y_dims[1] * y_dims[2] * y_dims[3] * y_dims[4];
    plane = y_dims[2] * y_dims[3] * y_dims[4];
    x = (double*)malloc((size_t)x_n * sizeof *x);
    w = (double*)malloc((size_t)w_n * sizeof *w);
    y = (double*)malloc((size_t)y_n * sizeof *y);
    if (!x || !w || !y) return 1;

    /* x like torch.rand; weight and bias uniform in +-1/sqrt(fan_in), fan_in = C_out * 27, as
       PyTorch initialises a transposed conv; BN weight/bias arbitrary; running stats as PyTorch starts. */
    bound = 1.0 / sqrt((double)C_OUT * 27);
    for (i = 0; i < x_n; i++) x[i] = rng_unit();
    for (i = 0; i < w_n; i++) w[i] = (2.0 * rng_unit() - 1.0) * bound;
    for (c = 0; c < C_OUT; c++) {
        bias[c] = (2.0 * rng_unit() - 1.0) * bound;
        gamma[c] = 0.5 + rng_unit();
        beta[c] = rng_unit() - 0.5;
        rmean[c] = 0.0;
        rvar[c] = 1.0;
    }
    memset(ops, 0, sizeof ops);
    ops[0].weight = gamma;
    ops[0].bias = beta;
    ops[0].running_mean = rmean;
    ops[0].running_var = rvar;

    if (fc3d_cpu_run(&desc, x, w, bias, ops, y) != 0) {
        fprintf(stderr, "fc3d_cpu_run failed\n");
        return 1;
    }

    printf("L2/15 chain on the CPU reference (double): ConvTranspose3d(%d, %d, 3, stride 2, padding 1)"
           " -> BatchNorm3d(%d), training -> y - y.mean((2,3,4))\n", C_IN, C_OUT, C_OUT);
    printf("x %d x %d x %d x %d x %d -> y %lld x %lld x %lld x %lld x %lld\n", desc.conv.batch, C_IN,
           desc.conv.in_size[0], desc.conv.in_size[1], desc.conv.in_size[2], (long long)y_dims[0],
           (long long)y_dims[1], (long long)y_dims[2], (long long)y_dims[3], (long long)y_dims[4]);
    printf("y[0, 0, 0, 0, 0:6] =");
    for (i = 0; i < 6; i++) printf(" %+.6f", y[i]);
    printf("\n");
    mean_std(y, y_n, 1, 1, 0, &mean, &std);
    printf("y: mean %+.3e, std %.6f\n", mean, std);
    printf("per channel, over N, D, H, W: the spatial-mean subtraction zeroes every mean; BN makes the std"
           " |gamma| and the subtraction can only lower it\n");
    for (c = 0; c < C_OUT; c++) {
        mean_std(y + c * plane, plane, 1, y_dims[0], C_OUT * plane, &mean, &std);
        printf("  c %d: mean %+.3e, std %.6f, gamma %.6f | running_mean 0 -> %+.6f, running_var 1 -> %.6f\n", c,
               mean, std, gamma[c], rmean[c], rvar[c]);
    }
    printf("(the GPU plan for this desc - passes, workspace - needs the CUDA build: see build/quickstart)\n");
    free(x);
    free(w);
    free(y);
    return 0;
}
