/* gpu_util.h - host helpers shared by the GPU tests and the examples: storage conversion between
   logical double tensors and device tensors of any layout/dtype, bound op tensors, relative-L2
   error. Include after fusedconv3d.cuh (implementation) and fusedconv3d_cpu.h (implementation). */
#ifndef FC3D_GPU_UTIL_H
#define FC3D_GPU_UTIL_H

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_OK(call)                                                                                \
    do {                                                                                             \
        const cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                                     \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));   \
            exit(2);                                                                                 \
        }                                                                                            \
    } while (0)

static size_t dtype_bytes(fc3d_dtype t) { return t == FC3D_DTYPE_F16 || t == FC3D_DTYPE_BF16 ? 2 : 4; }

/* v as the storage type holds it (what the GPU will read back). */
static double storage_round(double v, fc3d_dtype t) {
    if (t == FC3D_DTYPE_F16) return fc3d_cpu_f16_to_double(fc3d_cpu_double_to_f16(v));
    if (t == FC3D_DTYPE_BF16) return fc3d_cpu_bf16_to_double(fc3d_cpu_double_to_bf16(v));
    return (double)(float)v;
}

/* Storage offset of logical (n, c, d, h, w) in a 5D tensor of logical dims[5]. */
static int64_t storage_index(const int64_t* dims, fc3d_layout layout, int64_t n, int64_t c, int64_t d, int64_t h,
                             int64_t w) {
    if (layout == FC3D_LAYOUT_NDHWC) return (((n * dims[2] + d) * dims[3] + h) * dims[4] + w) * dims[1] + c;
    return (((n * dims[1] + c) * dims[2] + d) * dims[3] + h) * dims[4] + w;
}

/* Between a logical double tensor and a host buffer in a storage layout and type:
   to_storage = 1 packs `logical` into `storage`, 0 unpacks `storage` into `logical`. */
static void convert_5d(double* logical, const int64_t* dims, fc3d_layout layout, fc3d_dtype t, void* storage,
                       int to_storage) {
    int64_t i = 0;
    for (int64_t n = 0; n < dims[0]; n++)
        for (int64_t c = 0; c < dims[1]; c++)
            for (int64_t d = 0; d < dims[2]; d++)
                for (int64_t h = 0; h < dims[3]; h++)
                    for (int64_t w = 0; w < dims[4]; w++, i++) {
                        const int64_t o = storage_index(dims, layout, n, c, d, h, w);
                        uint16_t* s16 = (uint16_t*)storage;
                        if (to_storage) {
                            if (t == FC3D_DTYPE_F16) s16[o] = fc3d_cpu_double_to_f16(logical[i]);
                            else if (t == FC3D_DTYPE_BF16) s16[o] = fc3d_cpu_double_to_bf16(logical[i]);
                            else ((float*)storage)[o] = (float)logical[i];
                        } else {
                            if (t == FC3D_DTYPE_F16) logical[i] = fc3d_cpu_f16_to_double(s16[o]);
                            else if (t == FC3D_DTYPE_BF16) logical[i] = fc3d_cpu_bf16_to_double(s16[o]);
                            else logical[i] = ((const float*)storage)[o];
                        }
                    }
}

static void pack(const double* src, const int64_t* dims, fc3d_layout layout, fc3d_dtype t, void* dst) {
    convert_5d((double*)src, dims, layout, t, dst, 1); /* read only when packing */
}

static void unpack(const void* src, const int64_t* dims, fc3d_layout layout, fc3d_dtype t, double* dst) {
    convert_5d(dst, dims, layout, t, (void*)src, 0); /* read only when unpacking */
}

/* Below this RMS a reference tensor is zero in exact arithmetic (a pool after a mean subtraction,
   the batch mean of an already normalised tensor): what the float64 reference holds there is
   rounding noise, so a relative error means nothing. Every input here is O(1). */
#define DEGENERATE_RMS 1e-6

/* ||a - ref|| / ||ref||, or, for a degenerate reference (RMS below DEGENERATE_RMS), the RMS of
   a - ref: the absolute error on data of unit scale. Infinite if anything is NaN or infinite. */
static double rel_l2(const double* a, const double* ref, int64_t n) {
    double num = 0.0, den = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(ref[i])) return INFINITY;
        num += (a[i] - ref[i]) * (a[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    if (n == 0) return 0.0;
    return sqrt(den / (double)n) < DEGENERATE_RMS ? sqrt(num / (double)n) : sqrt(num / den);
}

static double max_abs_diff(const double* a, const double* ref, int64_t n) {
    double m = 0.0;
    for (int64_t i = 0; i < n; i++) {
        const double e = fabs(a[i] - ref[i]);
        if (!(e <= m)) m = e; /* NaN sticks */
    }
    return m;
}

/* Host-side tensors of one case in logical order, double, plus everything the ops bind. Inputs
   are held already rounded to the storage type, so the CPU reference sees exactly what the GPU
   reads. */
typedef struct host_case {
    fc3d_plan_desc desc;
    fc3d_plan plan;
    int64_t conv_dims[5];
    double *x, *w, *b;
    double* op_t[FC3D_MAX_OPS][6]; /* weight, bias, running_mean, running_var, save_mean, save_invstd */
    int64_t op_n[FC3D_MAX_OPS][6];
} host_case;

static const char* const op_tensor_name[6] = {"weight", "bias", "running_mean", "running_var", "save_mean",
                                              "save_invstd"};

/* Which of an op's six tensors it binds, and their lengths. Same rules as the library's op table,
   written here independently (the test must not take them from the code it checks). */
static void op_tensor_shapes(const fc3d_plan* p, int i, int64_t n[6]) {
    const fc3d_op* op = &p->desc.ops[i];
    const int64_t C = p->desc.conv.out_channels;
    for (int t = 0; t < 6; t++) n[t] = 0;
    const int affine = (op->flags & FC3D_OP_AFFINE) != 0;
    switch (op->kind) {
    case FC3D_OP_ADD_CHANNEL: n[1] = C; break;
    case FC3D_OP_BATCHNORM_TRAIN:
        if (affine) n[0] = n[1] = C;
        if (op->flags & FC3D_OP_UPDATE_RUNNING_STATS) n[2] = n[3] = C;
        if (op->flags & FC3D_OP_SAVE_BATCH_STATS) n[4] = n[5] = C;
        break;
    case FC3D_OP_BATCHNORM_INFER:
        if (affine) n[0] = n[1] = C;
        n[2] = n[3] = C;
        break;
    case FC3D_OP_GROUPNORM:
        if (affine) n[0] = n[1] = C;
        break;
    case FC3D_OP_LAYERNORM:
        if (affine) {
            int64_t e = 1;
            const int64_t dims[5] = {p->desc.conv.batch, C, p->conv_size[0], p->conv_size[1], p->conv_size[2]};
            for (int k = 5 - op->norm_dims; k < 5; k++) e *= dims[k];
            n[0] = n[1] = e;
        }
        break;
    default: break;
    }
}

static void host_case_free(host_case* hc) {
    free(hc->x);
    free(hc->w);
    free(hc->b);
    for (int i = 0; i < FC3D_MAX_OPS; i++)
        for (int t = 0; t < 6; t++) free(hc->op_t[i][t]);
    memset(hc, 0, sizeof *hc);
}

/* Device copies of a host_case, with y and the workspace poisoned (all-ones bytes: NaN in every
   type) and a poisoned guard after y that must survive the run. */
#define Y_GUARD_BYTES 4096
typedef struct device_case {
    void *x, *w, *b, *y, *ws;
    float* op_t[FC3D_MAX_OPS][6];
    size_t y_bytes;
} device_case;

static void* upload_5d(const double* src, const int64_t* dims, fc3d_layout layout, fc3d_dtype t) {
    const int64_t n = dims[0] * dims[1] * dims[2] * dims[3] * dims[4];
    void* h = malloc((size_t)n * dtype_bytes(t));
    void* d = NULL;
    pack(src, dims, layout, t, h);
    CUDA_OK(cudaMalloc(&d, (size_t)n * dtype_bytes(t)));
    CUDA_OK(cudaMemcpy(d, h, (size_t)n * dtype_bytes(t), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static float* upload_f32(const double* src, int64_t n) {
    float* h = (float*)malloc((size_t)n * sizeof(float));
    float* d = NULL;
    for (int64_t i = 0; i < n; i++) h[i] = (float)src[i];
    CUDA_OK(cudaMalloc((void**)&d, (size_t)n * sizeof(float)));
    CUDA_OK(cudaMemcpy(d, h, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static void download_f32(const float* d, int64_t n, double* dst) {
    float* h = (float*)malloc((size_t)n * sizeof(float));
    CUDA_OK(cudaMemcpy(h, d, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i < n; i++) dst[i] = h[i];
    free(h);
}

static void device_case_upload(const host_case* hc, device_case* dc) {
    const fc3d_plan* p = &hc->plan;
    const fc3d_conv_desc* c = &p->desc.conv;
    const int64_t xd[5] = {c->batch, c->in_channels, c->in_size[0], c->in_size[1], c->in_size[2]};
    const int64_t wd[5] = {c->in_channels, c->out_channels / c->groups, c->kernel[0], c->kernel[1], c->kernel[2]};
    const int64_t bd[5] = {1, c->out_channels, 1, 1, 1};
    memset(dc, 0, sizeof *dc);
    dc->x = upload_5d(hc->x, xd, p->desc.layout, p->desc.dtype);
    dc->w = upload_5d(hc->w, wd, FC3D_LAYOUT_NCDHW, p->desc.dtype);
    if (c->bias) dc->b = upload_5d(hc->b, bd, FC3D_LAYOUT_NCDHW, p->desc.dtype);
    for (int i = 0; i < p->desc.num_ops; i++)
        for (int t = 0; t < 6; t++)
            if (hc->op_n[i][t]) dc->op_t[i][t] = upload_f32(hc->op_t[i][t], hc->op_n[i][t]);
    dc->y_bytes = (size_t)p->y_elements * dtype_bytes(p->desc.dtype);
    CUDA_OK(cudaMalloc(&dc->y, dc->y_bytes + Y_GUARD_BYTES));
    if (p->workspace_bytes) CUDA_OK(cudaMalloc(&dc->ws, p->workspace_bytes));
}

/* Before each run: poison y, its guard, the workspace and the saved statistics; restore the
   running statistics (a training BatchNorm updates them in place). */
static void device_case_poison(const host_case* hc, device_case* dc) {
    for (int i = 0; i < hc->plan.desc.num_ops; i++)
        for (int t = 2; t < 4; t++)
            if (dc->op_t[i][t]) {
                float* h = (float*)malloc((size_t)hc->op_n[i][t] * sizeof(float));
                for (int64_t k = 0; k < hc->op_n[i][t]; k++) h[k] = (float)hc->op_t[i][t][k];
                CUDA_OK(cudaMemcpy(dc->op_t[i][t], h, (size_t)hc->op_n[i][t] * sizeof(float), cudaMemcpyHostToDevice));
                free(h);
            }
    CUDA_OK(cudaMemset(dc->y, 0xff, dc->y_bytes + Y_GUARD_BYTES));
    if (dc->ws) CUDA_OK(cudaMemset(dc->ws, 0xff, hc->plan.workspace_bytes));
    for (int i = 0; i < hc->plan.desc.num_ops; i++)
        for (int t = 4; t < 6; t++)
            if (dc->op_t[i][t]) CUDA_OK(cudaMemset(dc->op_t[i][t], 0xff, (size_t)hc->op_n[i][t] * sizeof(float)));
    /* The memsets run on the legacy default stream, which a stream created non-blocking (the
       graph-capture test's) does not wait for: done before the caller launches
       anything, or a run on such a stream could start before its outputs are poisoned and have
       them poisoned after it wrote them (seen under load: 1 of 2 graph launches bitwise equal) */
    CUDA_OK(cudaDeviceSynchronize());
}

/* 1 if the guard bytes after y are still all-ones. */
static int device_case_guard_intact(const device_case* dc) {
    unsigned char g[Y_GUARD_BYTES];
    CUDA_OK(cudaMemcpy(g, (char*)dc->y + dc->y_bytes, Y_GUARD_BYTES, cudaMemcpyDeviceToHost));
    for (int i = 0; i < Y_GUARD_BYTES; i++)
        if (g[i] != 0xff) return 0;
    return 1;
}

static fc3d_run_args device_case_args(const host_case* hc, const device_case* dc, cudaStream_t stream) {
    fc3d_run_args a;
    memset(&a, 0, sizeof a);
    a.x = dc->x;
    a.weight = dc->w;
    a.bias = dc->b;
    a.y = dc->y;
    a.workspace = dc->ws;
    a.workspace_bytes = hc->plan.workspace_bytes;
    a.stream = (void*)stream;
    for (int i = 0; i < hc->plan.desc.num_ops; i++) {
        a.ops[i].weight = dc->op_t[i][0];
        a.ops[i].bias = dc->op_t[i][1];
        a.ops[i].running_mean = dc->op_t[i][2];
        a.ops[i].running_var = dc->op_t[i][3];
        a.ops[i].save_mean = dc->op_t[i][4];
        a.ops[i].save_invstd = dc->op_t[i][5];
    }
    return a;
}

static void device_case_free(device_case* dc) {
    cudaFree(dc->x);
    cudaFree(dc->w);
    cudaFree(dc->b);
    cudaFree(dc->y);
    cudaFree(dc->ws);
    for (int i = 0; i < FC3D_MAX_OPS; i++)
        for (int t = 0; t < 6; t++) cudaFree(dc->op_t[i][t]);
    memset(dc, 0, sizeof *dc);
}

#endif
