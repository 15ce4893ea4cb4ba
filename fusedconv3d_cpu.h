/* fusedconv3d_cpu.h - plain C99 reference implementation of fusedconv3d plans, in double.

   Do this:
       #define FUSEDCONV3D_CPU_IMPLEMENTATION
   before you include this file in *one* C or C++ file. Define FUSEDCONV3D_CPU_STATIC as well to
   make every symbol file-local.

   This is the oracle the GPU library is tested against. It shares only the *declarations* of
   fusedconv3d.cuh (the desc types, so one desc drives both), and none of its code: it computes the
   output shape, the defaults and every op itself, straight from PyTorch's definitions, with every
   sum accumulated in double. It is written for clarity, not speed.

   Conventions:
   - Every tensor is double, contiguous, in the *logical* NCDHW order: desc->layout, desc->dtype and
     desc->math are ignored (layouts and element types are storage questions for the GPU side).
   - x: N x C_in x D x H x W.  weight: C_in x C_out/groups x kD x kH x kW.  bias: C_out or NULL.
   - y: the plan's output: N x C_out x Do x Ho x Wo, or N x C_out x 1 x 1 x 1 after a pool.
   - ops[i] carries the same tensors as fc3d_op_tensors, in double; running statistics are updated
     in place exactly as PyTorch does (momentum, unbiased variance).
   - The desc must be valid (fc3d_plan_init accepts it); fc3d_cpu_run checks only what it needs to
     stay memory-safe and returns -1 otherwise.
*/
#ifndef FUSEDCONV3D_CPU_H
#define FUSEDCONV3D_CPU_H

#include "fusedconv3d.cuh"

#if defined(FUSEDCONV3D_CPU_STATIC) && defined(__GNUC__)
#define FC3D_CPU_API static __attribute__((unused)) /* a test may call only some of them */
#elif defined(FUSEDCONV3D_CPU_STATIC)
#define FC3D_CPU_API static
#else
#define FC3D_CPU_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fc3d_cpu_op_tensors {
    const double* weight;
    const double* bias;
    double* running_mean;
    double* running_var;
    double* save_mean;
    double* save_invstd;
} fc3d_cpu_op_tensors;

/* Logical dims N, C, D, H, W of the plan's output y (after a pool: D = H = W = 1) and of the
   convolution output (conv_dims, may be NULL). Returns 0, or -1 if the desc gives no valid shape. */
FC3D_CPU_API int fc3d_cpu_output_dims(const fc3d_plan_desc* desc, int64_t y_dims[5],
                                      int64_t conv_dims[5]);

/* Runs the whole plan: conv_transpose3d then ops[0 .. num_ops-1]. ops may be NULL when no op
   needs a tensor. Returns 0, or -1 (nothing written) if the desc or a needed pointer is bad. */
FC3D_CPU_API int fc3d_cpu_run(const fc3d_plan_desc* desc, const double* x, const double* weight,
                              const double* bias, const fc3d_cpu_op_tensors* ops, double* y);

/* Storage helpers for tests: IEEE binary16 and bfloat16 bits <-> double (round to nearest even). */
FC3D_CPU_API double fc3d_cpu_f16_to_double(uint16_t bits);
FC3D_CPU_API uint16_t fc3d_cpu_double_to_f16(double v);
FC3D_CPU_API double fc3d_cpu_bf16_to_double(uint16_t bits);
FC3D_CPU_API uint16_t fc3d_cpu_double_to_bf16(double v);

#ifdef __cplusplus
}
#endif

#endif /* FUSEDCONV3D_CPU_H */

/* ================================================================================================
   Implementation
   ================================================================================================ */
#if defined(FUSEDCONV3D_CPU_IMPLEMENTATION) && !defined(FUSEDCONV3D_CPU_IMPLEMENTED_)
#define FUSEDCONV3D_CPU_IMPLEMENTED_

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's limit on the elements of one tensor; it also keeps every product of sizes below
   (and every index exact in) int64. */
static const int64_t _fc3d_cpu_max_elements = (int64_t)1 << 53;

/* The convolution desc with every default filled in, widened to int64, plus its output size. */
typedef struct _fc3d_cpu_conv {
    int64_t batch, in_channels, out_channels, groups;
    int64_t in_size[3], kernel[3], stride[3], padding[3], output_padding[3], dilation[3];
    int64_t out_size[3];
    int has_bias;
} _fc3d_cpu_conv;

/* Product of n sizes, or -1 once it would exceed the element limit. */
static int64_t _fc3d_cpu_count(const int64_t* sizes, int n)
{
    int64_t product = 1;
    int i;
    for (i = 0; i < n; ++i) {
        if (sizes[i] <= 0 || sizes[i] > _fc3d_cpu_max_elements / product) return -1;
        product *= sizes[i];
    }
    return product;
}

/* Fills c from d (defaults applied) and validates it as PyTorch would. Returns 0 or -1. */
static int _fc3d_cpu_conv_setup(const fc3d_conv_desc* d, _fc3d_cpu_conv* c)
{
    int64_t sizes[5];
    int i;
    c->batch = d->batch;
    c->in_channels = d->in_channels;
    c->out_channels = d->out_channels;
    c->groups = d->groups ? d->groups : 1;
    c->has_bias = d->bias != 0;
    if (c->batch <= 0 || c->in_channels <= 0 || c->out_channels <= 0 || c->groups <= 0) return -1;
    if (c->in_channels % c->groups != 0 || c->out_channels % c->groups != 0) return -1;
    for (i = 0; i < 3; ++i) {
        int64_t span_in, span_k;
        c->in_size[i] = d->in_size[i];
        c->kernel[i] = d->kernel[i];
        c->stride[i] = d->stride[i] ? d->stride[i] : 1;
        c->padding[i] = d->padding[i];
        c->output_padding[i] = d->output_padding[i];
        c->dilation[i] = d->dilation[i] ? d->dilation[i] : 1;
        if (c->in_size[i] <= 0 || c->kernel[i] <= 0 || c->stride[i] <= 0 || c->dilation[i] <= 0 ||
            c->padding[i] < 0 || c->output_padding[i] < 0)
            return -1;
        /* PyTorch refuses output_padding >= max(stride, dilation). */
        if (c->output_padding[i] >= c->stride[i] && c->output_padding[i] >= c->dilation[i])
            return -1;
        /* Each term is below 2^62; one above 2^60 already makes the output too large, and
           rejecting it first keeps the sum below from overflowing. */
        span_in = (c->in_size[i] - 1) * c->stride[i];
        span_k = c->dilation[i] * (c->kernel[i] - 1);
        if (span_in > ((int64_t)1 << 60) || span_k > ((int64_t)1 << 60)) return -1;
        c->out_size[i] = span_in - 2 * c->padding[i] + span_k + c->output_padding[i] + 1;
        if (c->out_size[i] <= 0) return -1;
    }
    /* x, weight and the convolution output must each fit the element limit. */
    sizes[0] = c->batch;
    sizes[1] = c->in_channels;
    memcpy(sizes + 2, c->in_size, sizeof c->in_size);
    if (_fc3d_cpu_count(sizes, 5) < 0) return -1;
    sizes[0] = c->in_channels;
    sizes[1] = c->out_channels / c->groups;
    memcpy(sizes + 2, c->kernel, sizeof c->kernel);
    if (_fc3d_cpu_count(sizes, 5) < 0) return -1;
    sizes[0] = c->batch;
    sizes[1] = c->out_channels;
    memcpy(sizes + 2, c->out_size, sizeof c->out_size);
    if (_fc3d_cpu_count(sizes, 5) < 0) return -1;
    return 0;
}

/* Validates the conv and the op count / pool position; fills c and the dims. Returns 0 or -1. */
static int _fc3d_cpu_shape(const fc3d_plan_desc* desc, _fc3d_cpu_conv* c, int64_t y_dims[5],
                           int64_t conv_dims[5])
{
    int i;
    if (!desc || _fc3d_cpu_conv_setup(&desc->conv, c) != 0) return -1;
    if (desc->num_ops < 0 || desc->num_ops > FC3D_MAX_OPS) return -1;
    for (i = 0; i + 1 < desc->num_ops; ++i)
        if (desc->ops[i].kind == FC3D_OP_GLOBAL_AVG_POOL) return -1; /* the pool must be last */
    conv_dims[0] = c->batch;
    conv_dims[1] = c->out_channels;
    memcpy(conv_dims + 2, c->out_size, sizeof c->out_size);
    memcpy(y_dims, conv_dims, 5 * sizeof *conv_dims);
    if (desc->num_ops > 0 && desc->ops[desc->num_ops - 1].kind == FC3D_OP_GLOBAL_AVG_POOL)
        y_dims[2] = y_dims[3] = y_dims[4] = 1;
    return 0;
}

/* Checks that op can run on a conv output of conv_dims: its own fields, and every tensor it
   reads or writes is bound. Returns 0 or -1. */
static int _fc3d_cpu_check_op(const fc3d_op* op, const fc3d_cpu_op_tensors* t,
                              const int64_t conv_dims[5])
{
    const int affine = (op->flags & FC3D_OP_AFFINE) != 0;
    if (affine && (op->kind == FC3D_OP_BATCHNORM_TRAIN || op->kind == FC3D_OP_BATCHNORM_INFER ||
                   op->kind == FC3D_OP_GROUPNORM || op->kind == FC3D_OP_LAYERNORM) &&
        (!t->weight || !t->bias))
        return -1;
    switch (op->kind) {
    case FC3D_OP_SCALE:
    case FC3D_OP_RELU:
    case FC3D_OP_GELU:
    case FC3D_OP_GELU_TANH:
    case FC3D_OP_SUB_SPATIAL_MEAN:
    case FC3D_OP_GLOBAL_AVG_POOL:
        return 0;
    case FC3D_OP_ADD_CHANNEL:
        return t->bias ? 0 : -1;
    case FC3D_OP_BATCHNORM_TRAIN:
        /* PyTorch refuses a single value per channel (the unbiased variance divides by n - 1). */
        if (conv_dims[0] * conv_dims[2] * conv_dims[3] * conv_dims[4] <= 1) return -1;
        if ((op->flags & FC3D_OP_UPDATE_RUNNING_STATS) && (!t->running_mean || !t->running_var))
            return -1;
        if ((op->flags & FC3D_OP_SAVE_BATCH_STATS) && (!t->save_mean || !t->save_invstd)) return -1;
        return 0;
    case FC3D_OP_BATCHNORM_INFER:
        return t->running_mean && t->running_var ? 0 : -1;
    case FC3D_OP_GROUPNORM:
        return op->groups > 0 && conv_dims[1] % op->groups == 0 ? 0 : -1;
    case FC3D_OP_LAYERNORM:
        return op->norm_dims >= 1 && op->norm_dims <= 4 ? 0 : -1;
    default:
        return -1; /* FC3D_OP_NONE or not an op kind */
    }
}

/* Mean of segments * len values: `segments` runs of `len` contiguous values, `stride` apart. */
static double _fc3d_cpu_mean(const double* p, int64_t segments, int64_t len, int64_t stride)
{
    double sum = 0.0;
    int64_t s, i;
    for (s = 0; s < segments; ++s)
        for (i = 0; i < len; ++i) sum += p[s * stride + i];
    return sum / (double)(segments * len);
}

/* Biased variance of the same values around their mean (the second of two passes, which avoids
   the cancellation of E[x^2] - E[x]^2). */
static double _fc3d_cpu_variance(const double* p, int64_t segments, int64_t len, int64_t stride,
                                 double mean)
{
    double sum = 0.0;
    int64_t s, i;
    for (s = 0; s < segments; ++s)
        for (i = 0; i < len; ++i) {
            const double d = p[s * stride + i] - mean;
            sum += d * d;
        }
    return sum / (double)(segments * len);
}

/* Adds the contribution of one kernel tap (kd, kh, kw) = tap, weight value w, of one input
   channel plane xin to one output channel plane yout: output position o = i*stride - padding +
   tap*dilation per dim, where it lands inside the output. */
static void _fc3d_cpu_add_tap(const _fc3d_cpu_conv* c, const double* xin, double w,
                              const int64_t tap[3], double* yout)
{
    const int64_t H = c->in_size[1], W = c->in_size[2];
    const int64_t Do = c->out_size[0], Ho = c->out_size[1], Wo = c->out_size[2];
    int64_t off[3], id, ih, iw;
    int i;
    for (i = 0; i < 3; ++i) off[i] = tap[i] * c->dilation[i] - c->padding[i];
    for (id = 0; id < c->in_size[0]; ++id) {
        const int64_t od = id * c->stride[0] + off[0];
        if (od < 0 || od >= Do) continue;
        for (ih = 0; ih < H; ++ih) {
            const int64_t oh = ih * c->stride[1] + off[1];
            if (oh < 0 || oh >= Ho) continue;
            for (iw = 0; iw < W; ++iw) {
                const int64_t ow = iw * c->stride[2] + off[2];
                if (ow < 0 || ow >= Wo) continue;
                yout[(od * Ho + oh) * Wo + ow] += xin[(id * H + ih) * W + iw] * w;
            }
        }
    }
}

/* out (N x C_out x Do x Ho x Wo) = conv_transpose3d(x, weight, bias), in scatter form: every input
   value, times every weight of its group, adds into the outputs it reaches. */
static void _fc3d_cpu_conv_transpose(const _fc3d_cpu_conv* c, const double* x, const double* weight,
                                     const double* bias, double* out)
{
    const int64_t cig = c->in_channels / c->groups, cog = c->out_channels / c->groups;
    const int64_t in_plane = c->in_size[0] * c->in_size[1] * c->in_size[2];
    const int64_t out_plane = c->out_size[0] * c->out_size[1] * c->out_size[2];
    const int64_t taps = c->kernel[0] * c->kernel[1] * c->kernel[2];
    int64_t n, g, ci, co, i, tap[3];

    for (n = 0; n < c->batch; ++n)
        for (co = 0; co < c->out_channels; ++co)
            for (i = 0; i < out_plane; ++i)
                out[(n * c->out_channels + co) * out_plane + i] = c->has_bias ? bias[co] : 0.0;

    for (n = 0; n < c->batch; ++n)
        for (g = 0; g < c->groups; ++g)
            for (ci = 0; ci < cig; ++ci) {
                const int64_t cin = g * cig + ci;
                const double* xin = x + (n * c->in_channels + cin) * in_plane;
                for (co = 0; co < cog; ++co) {
                    const double* w = weight + (cin * cog + co) * taps;
                    double* yout = out + (n * c->out_channels + g * cog + co) * out_plane;
                    for (tap[0] = 0; tap[0] < c->kernel[0]; ++tap[0])
                        for (tap[1] = 0; tap[1] < c->kernel[1]; ++tap[1])
                            for (tap[2] = 0; tap[2] < c->kernel[2]; ++tap[2])
                                _fc3d_cpu_add_tap(
                                    c, xin,
                                    w[(tap[0] * c->kernel[1] + tap[1]) * c->kernel[2] + tap[2]],
                                    tap, yout);
                }
            }
}

/* Applies one op (any kind but the pool) in place to v, a tensor of dims N x C x D x H x W. */
static void _fc3d_cpu_apply_op(const fc3d_op* op, const fc3d_cpu_op_tensors* t, double* v,
                               const int64_t dims[5])
{
    const int64_t N = dims[0], C = dims[1], S = dims[2] * dims[3] * dims[4];
    const int64_t total = N * C * S;
    const int affine = (op->flags & FC3D_OP_AFFINE) != 0;
    const double eps = op->eps != 0.0f ? (double)op->eps : 1e-5;
    const double momentum = op->momentum != 0.0f ? (double)op->momentum : 0.1;
    int64_t i, n, c, s;

    switch (op->kind) {
    case FC3D_OP_SCALE:
        for (i = 0; i < total; ++i) v[i] *= (double)op->value;
        break;
    case FC3D_OP_ADD_CHANNEL:
        for (n = 0; n < N; ++n)
            for (c = 0; c < C; ++c)
                for (s = 0; s < S; ++s) v[(n * C + c) * S + s] += t->bias[c];
        break;
    case FC3D_OP_RELU:
        for (i = 0; i < total; ++i)
            if (v[i] < 0.0) v[i] = 0.0; /* a NaN stays NaN, as in PyTorch */
        break;
    case FC3D_OP_GELU:
        for (i = 0; i < total; ++i) v[i] = 0.5 * v[i] * (1.0 + erf(v[i] / sqrt(2.0)));
        break;
    case FC3D_OP_GELU_TANH: {
        const double k = sqrt(2.0 / 3.14159265358979323846);
        for (i = 0; i < total; ++i) {
            const double y = v[i];
            v[i] = 0.5 * y * (1.0 + tanh(k * (y + 0.044715 * y * y * y)));
        }
        break;
    }
    case FC3D_OP_BATCHNORM_TRAIN:
    case FC3D_OP_BATCHNORM_INFER:
        for (c = 0; c < C; ++c) {
            /* Channel c is N runs of S values, one per sample, C*S apart. */
            double* first = v + c * S;
            double mean, var, invstd;
            if (op->kind == FC3D_OP_BATCHNORM_TRAIN) {
                const int64_t count = N * S;
                mean = _fc3d_cpu_mean(first, N, S, C * S);
                var = _fc3d_cpu_variance(first, N, S, C * S, mean);
                if (op->flags & FC3D_OP_UPDATE_RUNNING_STATS) {
                    /* The running variance takes the unbiased estimate. */
                    t->running_mean[c] = (1.0 - momentum) * t->running_mean[c] + momentum * mean;
                    t->running_var[c] = (1.0 - momentum) * t->running_var[c] +
                                        momentum * var * (double)count / (double)(count - 1);
                }
            } else {
                mean = t->running_mean[c];
                var = t->running_var[c];
            }
            invstd = 1.0 / sqrt(var + eps);
            if (op->kind == FC3D_OP_BATCHNORM_TRAIN && (op->flags & FC3D_OP_SAVE_BATCH_STATS)) {
                t->save_mean[c] = mean;
                t->save_invstd[c] = invstd;
            }
            for (n = 0; n < N; ++n)
                for (s = 0; s < S; ++s) {
                    double* p = first + n * C * S + s;
                    *p = (*p - mean) * invstd;
                    if (affine) *p = *p * t->weight[c] + t->bias[c];
                }
        }
        break;
    case FC3D_OP_GROUPNORM: {
        /* The channels of one group are adjacent, so (n, g) is one contiguous block. */
        const int64_t cg = C / op->groups, block = cg * S;
        int64_t g;
        for (n = 0; n < N; ++n)
            for (g = 0; g < op->groups; ++g) {
                double* p = v + (n * C + g * cg) * S;
                const double mean = _fc3d_cpu_mean(p, 1, block, block);
                const double var = _fc3d_cpu_variance(p, 1, block, block, mean);
                const double invstd = 1.0 / sqrt(var + eps);
                for (i = 0; i < block; ++i) {
                    p[i] = (p[i] - mean) * invstd;
                    if (affine) {
                        c = g * cg + i / S;
                        p[i] = p[i] * t->weight[c] + t->bias[c];
                    }
                }
            }
        break;
    }
    case FC3D_OP_LAYERNORM: {
        /* The trailing norm_dims dims form contiguous blocks; weight and bias follow the position
           inside a block. */
        int64_t block = 1, b;
        int d;
        for (d = 5 - op->norm_dims; d < 5; ++d) block *= dims[d];
        for (b = 0; b < total / block; ++b) {
            double* p = v + b * block;
            const double mean = _fc3d_cpu_mean(p, 1, block, block);
            const double var = _fc3d_cpu_variance(p, 1, block, block, mean);
            const double invstd = 1.0 / sqrt(var + eps);
            for (i = 0; i < block; ++i) {
                p[i] = (p[i] - mean) * invstd;
                if (affine) p[i] = p[i] * t->weight[i] + t->bias[i];
            }
        }
        break;
    }
    case FC3D_OP_SUB_SPATIAL_MEAN:
        for (i = 0; i < N * C; ++i) {
            double* p = v + i * S;
            const double mean = _fc3d_cpu_mean(p, 1, S, S);
            for (s = 0; s < S; ++s) p[s] -= mean;
        }
        break;
    default: /* the pool is applied by fc3d_cpu_run; the rest were refused by _fc3d_cpu_check_op */
        break;
    }
}

FC3D_CPU_API int fc3d_cpu_output_dims(const fc3d_plan_desc* desc, int64_t y_dims[5],
                                      int64_t conv_dims[5])
{
    _fc3d_cpu_conv c;
    int64_t y[5], conv[5];
    if (!y_dims || _fc3d_cpu_shape(desc, &c, y, conv) != 0) return -1;
    memcpy(y_dims, y, sizeof y);
    if (conv_dims) memcpy(conv_dims, conv, sizeof conv);
    return 0;
}

FC3D_CPU_API int fc3d_cpu_run(const fc3d_plan_desc* desc, const double* x, const double* weight,
                              const double* bias, const fc3d_cpu_op_tensors* ops, double* y)
{
    _fc3d_cpu_conv c;
    fc3d_cpu_op_tensors tensors[FC3D_MAX_OPS]; /* ops, or all NULL where ops is NULL */
    int64_t y_dims[5], conv_dims[5], conv_elements, i;
    int num_ops, pooled, k;
    double* v;

    if (!x || !weight || !y || _fc3d_cpu_shape(desc, &c, y_dims, conv_dims) != 0) return -1;
    if (c.has_bias && !bias) return -1;
    num_ops = desc->num_ops;
    memset(tensors, 0, sizeof tensors);
    if (ops) memcpy(tensors, ops, (size_t)num_ops * sizeof *ops);
    /* Check every op before anything is written, running statistics included. */
    for (k = 0; k < num_ops; ++k)
        if (_fc3d_cpu_check_op(&desc->ops[k], &tensors[k], conv_dims) != 0) return -1;

    conv_elements = conv_dims[0] * conv_dims[1] * conv_dims[2] * conv_dims[3] * conv_dims[4];
    if ((uint64_t)conv_elements > SIZE_MAX / sizeof(double)) return -1;
    v = (double*)malloc((size_t)conv_elements * sizeof(double));
    if (!v) return -1;

    _fc3d_cpu_conv_transpose(&c, x, weight, bias, v);
    pooled = num_ops > 0 && desc->ops[num_ops - 1].kind == FC3D_OP_GLOBAL_AVG_POOL;
    for (k = 0; k < num_ops - pooled; ++k)
        _fc3d_cpu_apply_op(&desc->ops[k], &tensors[k], v, conv_dims);
    if (pooled) {
        const int64_t plane = conv_dims[2] * conv_dims[3] * conv_dims[4];
        for (i = 0; i < conv_dims[0] * conv_dims[1]; ++i)
            y[i] = _fc3d_cpu_mean(v + i * plane, 1, plane, plane);
    } else {
        memcpy(y, v, (size_t)conv_elements * sizeof(double));
    }
    free(v);
    return 0;
}

/* Rounds q >= 0 (below 2^52) to the nearest integer, ties to even, whatever the FPU's mode. */
static double _fc3d_cpu_round_even(double q)
{
    double f = floor(q);
    const double r = q - f; /* exact */
    if (r > 0.5 || (r == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    return f;
}

/* Decodes a binary format of 1 sign, exp_bits exponent and man_bits mantissa bits (binary16: 5,
   10; bfloat16: 8, 7), IEEE-style: biased exponent, subnormals, all-ones exponent = inf / NaN. */
static double _fc3d_cpu_bits_to_double(uint16_t bits, int exp_bits, int man_bits)
{
    const int bias = (1 << (exp_bits - 1)) - 1;
    const int exp_all_ones = (1 << exp_bits) - 1;
    const int exp_field = (bits >> man_bits) & exp_all_ones;
    const int man = bits & ((1 << man_bits) - 1);
    double mag;
    if (exp_field == exp_all_ones)
        mag = man ? (double)NAN : (double)INFINITY;
    else if (exp_field == 0)
        mag = ldexp((double)man, 1 - bias - man_bits); /* zero or subnormal: no implicit 1 */
    else
        mag = ldexp((double)(man | (1 << man_bits)), exp_field - bias - man_bits);
    return (bits >> (exp_bits + man_bits)) ? -mag : mag;
}

/* Encodes v in the same format, rounding to nearest even; too large a magnitude becomes inf, a
   NaN becomes the quiet NaN of its sign. */
static uint16_t _fc3d_cpu_double_to_bits(double v, int exp_bits, int man_bits)
{
    const int bias = (1 << (exp_bits - 1)) - 1;
    const int64_t inf = (int64_t)((1 << exp_bits) - 1) << man_bits;
    const int64_t sign = signbit(v) ? (int64_t)1 << (exp_bits + man_bits) : 0;
    const double a = fabs(v);
    int64_t mag;
    if (isnan(v)) {
        mag = inf | ((int64_t)1 << (man_bits - 1));
    } else if (isinf(v)) {
        mag = inf;
    } else if (a < ldexp(1.0, 1 - bias)) {
        /* Subnormal range, in units of the smallest subnormal; rounding up to 2^man_bits units
           gives exactly the encoding of the smallest normal. */
        mag = (int64_t)_fc3d_cpu_round_even(ldexp(a, bias - 1 + man_bits));
    } else {
        /* a = f * 2^e, f in [0.5, 1): a has exponent e - 1. Scaled to man_bits + 1 integer bits,
           the rounded significand may reach 2^(man_bits + 1); adding it to the exponent field
           then carries into the next binade (or to inf) by itself. */
        int e;
        (void)frexp(a, &e);
        mag = ((int64_t)(e - 1 + bias) << man_bits) +
              (int64_t)_fc3d_cpu_round_even(ldexp(a, man_bits - (e - 1))) -
              ((int64_t)1 << man_bits);
        if (mag > inf) mag = inf;
    }
    return (uint16_t)(sign | mag);
}

FC3D_CPU_API double fc3d_cpu_f16_to_double(uint16_t bits)
{
    return _fc3d_cpu_bits_to_double(bits, 5, 10);
}

FC3D_CPU_API uint16_t fc3d_cpu_double_to_f16(double v)
{
    return _fc3d_cpu_double_to_bits(v, 5, 10);
}

FC3D_CPU_API double fc3d_cpu_bf16_to_double(uint16_t bits)
{
    return _fc3d_cpu_bits_to_double(bits, 8, 7);
}

FC3D_CPU_API uint16_t fc3d_cpu_double_to_bf16(double v)
{
    return _fc3d_cpu_double_to_bits(v, 8, 7);
}

#ifdef __cplusplus
}
#endif

#endif /* FUSEDCONV3D_CPU_IMPLEMENTATION */
