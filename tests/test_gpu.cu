/* test_gpu.cu - the GPU engines against their oracles. Parts 1 to 3 run once per engine of the
   library's engine table, with the engine forced (descs an engine refuses are counted and printed).
     1. every PyTorch golden, in both layouts (f32, FP32-accurate mode);
     2. randomized descs (conv parameters x op chains drawn from the whole op table x layouts x
        dtypes x math modes) against the CPU reference, fresh random inputs per case;
     3. bitwise determinism: two runs of one plan give identical bytes;
   then
     3a. engines against each other: the automatic choice against the direct engine on random descs
         (within twice the math mode's bound, bitwise where both are the same engine);
     3b. a CUDA error left pending by an earlier call makes a run refuse to start, writing nothing;
     4. 64-bit offsets: an output of more than 2^31 elements, on every engine.
   Before every run y (plus a guard after it), the workspace and saved statistics are poisoned
   with all-ones bytes (NaN in every type): an element the run fails to write fails the check, and
   a write past y shows in the guard.

   Relative-L2 bounds, ||gpu - ref|| / ||ref|| against the float64 CPU reference:
     math FP32  1e-5     math TF32  2e-3     math HALF  1e-2
   and, where y is stored in 16 bits, at least the storage's own rounding: f16 2e-3, bf16 1e-2.
   A reference that is zero in exact arithmetic (RMS < 1e-6, e.g. a pool after a mean subtraction)
   is compared by the RMS of the difference instead, against the same bound (gpu_util.h).

   Usage: test_gpu [golden_dir] [--cases N] [--seed S] [--quick] [--moments-tail] [--halo-row-prog]
   (--quick: a subset, for the sanitizers; --moments-tail, --halo-row-prog: that test alone) */
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"
#define FUSEDCONV3D_CPU_IMPLEMENTATION
#include "fusedconv3d_cpu.h"
#include "check.h"
#include "golden_io.h"
#include "gpu_util.h"

#include <thread>

static double bound_for(fc3d_math m, fc3d_dtype t) {
    double b = m == FC3D_MATH_TF32 ? 2e-3 : m == FC3D_MATH_HALF ? 1e-2 : 1e-5;
    if (t == FC3D_DTYPE_F16 && b < 2e-3) b = 2e-3;
    if (t == FC3D_DTYPE_BF16 && b < 1e-2) b = 1e-2;
    return b;
}

static double worst[4][4]; /* largest error seen, [math][dtype] */

/* Every test below runs once per engine of the library's engine table, with the engine forced;
   descs an engine refuses are counted and reported, never silently dropped. */
static fc3d_engine engine_under_test = FC3D_ENGINE_DIRECT;
static int refused_by_engine = 0;

/* splitmix64: every case draws fresh values from one seeded stream */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng_u64(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double rng_unit(void) { return (double)(rng_u64() >> 11) * (1.0 / 9007199254740992.0); }
static int rng_int(int lo, int hi) { return lo + (int)(rng_u64() % (uint64_t)(hi - lo + 1)); }

static double* alloc_fill(int64_t n, double lo, double hi, fc3d_dtype storage) {
    double* v = (double*)malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    for (int64_t i = 0; i < n; i++) v[i] = storage_round(lo + (hi - lo) * rng_unit(), storage);
    return v;
}

/* Runs hc on the GPU (poisoned first) and compares y, running and saved statistics with the CPU
   reference `ref_y` / `ref_ops`. Returns 1 when everything is within `bound`. */
static int run_and_compare(const char* name, host_case* hc, const double* ref_y, double* const ref_ops[][6],
                           double bound, int* guard_ok) {
    device_case dc;
    fc3d_message msg;
    const fc3d_plan* p = &hc->plan;
    device_case_upload(hc, &dc);
    device_case_poison(hc, &dc);
    const fc3d_run_args a = device_case_args(hc, &dc, 0);
    const fc3d_result r = fc3d_plan_run(p, &a, &msg);
    CUDA_OK(cudaDeviceSynchronize());
    if (r != FC3D_SUCCESS) {
        check(0, name, "run failed: %s", msg.text);
        device_case_free(&dc);
        return 0;
    }
    const int64_t n = p->y_elements;
    void* hy = malloc((size_t)n * dtype_bytes(p->desc.dtype));
    double* gy = (double*)malloc((size_t)n * sizeof(double));
    CUDA_OK(cudaMemcpy(hy, dc.y, (size_t)n * dtype_bytes(p->desc.dtype), cudaMemcpyDeviceToHost));
    unpack(hy, p->y_dims, p->desc.layout, p->desc.dtype, gy);
    double err = rel_l2(gy, ref_y, n), err_stats = 0.0;
    const char* worst_what = "y";
    for (int i = 0; i < p->desc.num_ops; i++)
        for (int t = 2; t < 6; t++)
            if (ref_ops[i][t] && hc->op_n[i][t] && (p->desc.ops[i].kind == FC3D_OP_BATCHNORM_TRAIN)) {
                double* g = (double*)malloc((size_t)hc->op_n[i][t] * sizeof(double));
                download_f32(dc.op_t[i][t], hc->op_n[i][t], g);
                const double e = rel_l2(g, ref_ops[i][t], hc->op_n[i][t]);
                if (!(e <= err_stats)) {
                    err_stats = e;
                    worst_what = op_tensor_name[t];
                }
                free(g);
            }
    *guard_ok = device_case_guard_intact(&dc);
    const double e = err > err_stats || !(err_stats == err_stats) ? (err_stats == err_stats ? err : err_stats)
                                                                   : err_stats;
    double* w = &worst[p->desc.math][p->desc.dtype];
    if (!(e <= *w)) *w = e;
    const int ok = err <= bound && err_stats <= bound && *guard_ok;
    check(ok, name, "rel-L2 y %.3g, stats %.3g (%s), bound %.1g, max|diff| %.3g, guard %s", err, err_stats,
          worst_what, bound, max_abs_diff(gy, ref_y, n), *guard_ok ? "intact" : "WRITTEN");
    free(hy);
    free(gy);
    device_case_free(&dc);
    return ok;
}

/* ---- 1. goldens -------------------------------------------------------------------------------- */
static void test_goldens(const char* dir, int quick) {
    golden_manifest m;
    char err[GOLDEN_ERROR_LEN];
    if (golden_read_manifest(dir, &m, err, sizeof err) != 0 || m.count == 0) {
        check(0, "golden.manifest", "%s", m.count == 0 ? "no cases" : err);
        return;
    }
    for (int k = 0; k < m.count; k += quick ? 6 : 1) {
        char path[4096];
        golden_case gc;
        golden_case_path(dir, m.names[k], path, sizeof path);
        if (golden_load(path, &gc, err, sizeof err) != 0) {
            check(0, m.names[k], "%s", err);
            continue;
        }
        for (int layout = FC3D_LAYOUT_NCDHW; layout <= FC3D_LAYOUT_NDHWC; layout++) {
            host_case hc;
            char name[300];
            memset(&hc, 0, sizeof hc);
            hc.desc = gc.desc;
            hc.desc.layout = (fc3d_layout)layout;
            hc.desc.engine = engine_under_test;
            snprintf(name, sizeof name, "%s.golden.%s.%s", fc3d_engine_name(engine_under_test), m.names[k],
                     layout == FC3D_LAYOUT_NCDHW ? "ncdhw" : "ndhwc");
            const fc3d_result pr = fc3d_plan_init(&hc.plan, &hc.desc);
            if (pr == FC3D_ERROR_ENGINE_REFUSED) {
                printf("# %s not run: %s\n", name, hc.plan.message);
                refused_by_engine++;
                continue;
            }
            if (pr != FC3D_SUCCESS) {
                check(0, name, "plan: %s", hc.plan.message);
                continue;
            }
            const golden_tensor* x = golden_find(&gc, "x");
            const golden_tensor* w = golden_find(&gc, "weight");
            const golden_tensor* b = golden_find(&gc, "bias");
            const golden_tensor* y = golden_find(&gc, "y");
            /* the host case borrows the golden's arrays; host_case_free is not called on it */
            hc.x = x->data;
            hc.w = w->data;
            hc.b = b ? b->data : NULL;
            double* ref_ops[FC3D_MAX_OPS][6];
            memset(ref_ops, 0, sizeof ref_ops);
            int missing = 0;
            for (int i = 0; i < hc.desc.num_ops; i++) {
                op_tensor_shapes(&hc.plan, i, hc.op_n[i]);
                for (int t = 0; t < 6; t++) {
                    if (!hc.op_n[i][t]) continue;
                    const golden_tensor* gt = golden_find_op(&gc, i, op_tensor_name[t]);
                    if (t < 4 && (!gt || gt->count != hc.op_n[i][t])) missing = 1;
                    else if (t < 4) hc.op_t[i][t] = gt->data;
                    /* expected outputs: updated running statistics, saved statistics */
                    char outname[32];
                    snprintf(outname, sizeof outname, t < 4 ? "%s_out" : "%s", op_tensor_name[t]);
                    const golden_tensor* go = (t >= 2) ? golden_find_op(&gc, i, outname) : NULL;
                    if (t >= 2 && hc.desc.ops[i].kind == FC3D_OP_BATCHNORM_TRAIN) {
                        if (!go || go->count != hc.op_n[i][t]) missing = 1;
                        else ref_ops[i][t] = go->data;
                    }
                }
            }
            if (missing || y->count != hc.plan.y_elements) {
                check(0, name, "golden lacks a tensor the plan binds, or y has %lld elements, plan %lld",
                      (long long)y->count, (long long)hc.plan.y_elements);
                continue;
            }
            /* save_mean/save_invstd are outputs: give them host storage so upload allocates them */
            double* save_buf[FC3D_MAX_OPS][2];
            memset(save_buf, 0, sizeof save_buf);
            for (int i = 0; i < hc.desc.num_ops; i++)
                for (int t = 4; t < 6; t++)
                    if (hc.op_n[i][t]) hc.op_t[i][t] = save_buf[i][t - 4] = (double*)calloc((size_t)hc.op_n[i][t], 8);
            int guard;
            run_and_compare(name, &hc, y->data, ref_ops, bound_for(FC3D_MATH_FP32, FC3D_DTYPE_F32), &guard);
            for (int i = 0; i < hc.desc.num_ops; i++) free(save_buf[i][0]), free(save_buf[i][1]);
        }
        golden_free(&gc);
    }
    golden_manifest_free(&m);
}

/* ---- 2. randomized ----------------------------------------------------------------------------- */
/* 1: channels per group a multiple of 16 (small sizes, the wgmma loop's weight pieces); 2: of 32
   (the haloed loop's); 3: as 2 with W stride 2 (the haloed row tiles', with a LayerNorm over W);
   else the usual draw */
static int wide_hint = -1;
/* 1: within the block loop's limits (groups 1, in_channels 8 to 32 in steps of 8, out_channels to
   64, kernels to 3); 2: as 1 at sizes with several blocks a sample */
static int block_hint = 0;
static int block_taps_hint = 0; /* with block_hint 3: the unrolled W taps and the near-full epilogue, not drawn */
static int block_half_hint = 0; /* with block_hint: half math (the block loop's f16 operands) */
static int random_conv(fc3d_conv_desc* c, int big_plane) {
    memset(c, 0, sizeof *c);
    const int g = rng_int(1, 3);
    c->groups = g == 1 && rng_int(0, 1) ? 0 : g; /* 0 exercises the default */
    c->batch = rng_int(1, 3);
    c->in_channels = g * rng_int(1, 4);
    c->out_channels = g * rng_int(1, 4);
    c->bias = rng_int(0, 1);
    for (int i = 0; i < 3; i++) {
        c->in_size[i] = rng_int(1, 6);
        c->kernel[i] = rng_int(1, 4);
        c->stride[i] = rng_int(0, 3); /* 0 = default 1 */
        c->dilation[i] = rng_int(0, 3);
        c->padding[i] = rng_int(0, 2);
        const int s = c->stride[i] ? c->stride[i] : 1, dl = c->dilation[i] ? c->dilation[i] : 1;
        c->output_padding[i] = rng_int(0, (s > dl ? s : dl) - 1);
    }
    if (!big_plane && wide_hint >= 1) {
        /* channels per group a multiple of 16 (the wgmma loop's weight pieces; 16 and 48: a chunk's
           two pieces from two taps), small sizes */
        c->in_channels = g * 16 * rng_int(1, 4);
        c->out_channels = g * rng_int(1, 24);
        if (wide_hint >= 2) { /* and output channels past one 64- or 128-wide tile */
            c->in_channels = g * 32 * rng_int(1, 2);
            c->out_channels = g * rng_int(1, 140);
        }
        c->batch = rng_int(1, 2);
        for (int i = 0; i < 3; i++) {
            c->in_size[i] = rng_int(1, 4);
            c->kernel[i] = rng_int(1, 3);
        }
        if (wide_hint == 3) { /* two W phases, rows up to 16 wide, kernels to 4 (phases with 1 or 2 taps) */
            c->stride[2] = 2;
            c->dilation[2] = rng_int(0, 1);
            c->output_padding[2] = rng_int(0, 1);
            c->in_size[2] = rng_int(1, 8);
            c->kernel[2] = rng_int(1, 4);
        }
    }
    if (!big_plane && block_hint) {
        c->groups = rng_int(0, 1); /* 0: the default, 1 */
        c->in_channels = 8 * rng_int(1, 4);
        c->out_channels = rng_int(1, 64);
        for (int i = 0; i < 3; i++) {
            c->in_size[i] = rng_int(1, 5);
            c->kernel[i] = rng_int(1, 3);
            c->stride[i] = rng_int(1, 3);
            c->dilation[i] = rng_int(1, 2);
            c->padding[i] = rng_int(0, 2);
            const int s = c->stride[i], dl = c->dilation[i];
            c->output_padding[i] = rng_int(0, (s > dl ? s : dl) - 1);
        }
        if (block_hint == 3) { /* W stride 2 and at most 32 output channels: units of both W phases */
            c->stride[2] = 2;
            c->output_padding[2] = rng_int(0, 1);
            c->out_channels = rng_int(1, 32);
            /* W taps (1, 2), (2, 1), (2, 2) or (1, 1) at C_in 16 or 32: the unrolled taps */
            if (block_taps_hint || rng_int(0, 1)) {
                c->in_channels = 16 * rng_int(1, 2);
                c->dilation[2] = 1;
                c->kernel[2] = rng_int(2, 4);
                c->padding[2] = rng_int(0, 2);
                c->output_padding[2] = rng_int(0, 1);
                /* 32 channels, rows of 27 to 80: units of the near-full epilogue */
                if (block_taps_hint || rng_int(0, 1)) {
                    c->out_channels = 32;
                    c->in_size[2] = rng_int(14, 40);
                    c->in_size[0] = rng_int(1, 2);
                    c->in_size[1] = rng_int(1, 3);
                }
            }
        }
        if (block_hint == 2) {
            c->batch = rng_int(1, 2);
            c->in_size[0] = rng_int(2, 4);
            c->in_size[1] = rng_int(6, 20);
            c->in_size[2] = rng_int(5, 40);
        }
    }
    if (big_plane) { /* planes past one statistics unit (4096 elements), so units split rows */
        c->batch = 1;
        c->in_channels = c->out_channels = g;
        c->in_size[0] = rng_int(1, 2);
        c->in_size[1] = rng_int(40, 70);
        c->in_size[2] = rng_int(40, 70);
        c->stride[1] = c->stride[2] = 2;
        c->output_padding[1] = c->output_padding[2] = 0;
    }
    return 0;
}

/* A random chain of 0..5 ops drawn from the whole op table (an op appended to the table is drawn
   too): each op's flags are a random subset of those it takes and its fields are drawn by the
   table's field columns; a draw the validation refuses (e.g. a reduction that is not last) is
   drawn again. */
static void random_ops(fc3d_plan_desc* d, const int64_t cd[5]) {
    const int n = rng_int(0, 5);
    d->num_ops = 0;
    while (d->num_ops < n) {
        const int i = d->num_ops;
        fc3d_op* op = &d->ops[i];
        memset(op, 0, sizeof *op);
        const int kind = rng_int(FC3D_OP_NONE + 1, FC3D_OP_KIND_COUNT_ - 1);
        const _fc3d_op_info* info = _fc3d_op_info_at(kind);
        op->kind = (fc3d_op_kind)kind;
        op->flags = (unsigned)rng_int(0, 7) & info->flags_taken;
        if (info->fields & _FC3D_F_VALUE) op->value = (float)(rng_unit() * 4.0 - 2.0);
        if (info->fields & _FC3D_F_EPS) op->eps = rng_int(0, 1) ? 0.0f : 1e-3f;
        if (info->fields & _FC3D_F_MOMENTUM) op->momentum = rng_int(0, 1) ? 0.0f : 0.3f;
        if (info->fields & _FC3D_F_NDIMS) op->norm_dims = rng_int(1, 4);
        if (info->fields & _FC3D_F_GROUPS) {
            do op->groups = rng_int(1, (int)cd[1]);
            while (cd[1] % op->groups);
        }
        d->num_ops = n; /* validated as a member of the full-length chain (a reduction must be last) */
        fc3d_plan_desc filled = fc3d_plan_desc_defaults(d);
        const int ok = _fc3d_validate_op(&filled, cd, i, NULL) == FC3D_SUCCESS;
        d->num_ops = ok ? i + 1 : i;
    }
}

/* A chain whose statistics can come from per-(n, c) moments (FC3D_STATS_PLAN_MOMENTS): 0..2
   elementwise ops of any kind, then 2..4 ops drawn from the affine-per-(n, c) kinds with at least
   two statistics ops among them, and a pool at the end half the time; a third of the time a chain
   of affine ops and spatial means only, whose statistics are linear in x (FC3D_STATS_PLAN_LINEAR).
   Redrawn until valid. */
static int chain_hint = -1; /* test_random's: 0 a moments chain, 1 a linear one, else drawn */
static int npre_hint = -1;   /* moments_ops: this many ops before the statistics ops, else drawn */
static int strategy_hint = -1; /* make_random_case: this strategy forced, else drawn */
static void moments_ops(fc3d_plan_desc* d, const int64_t cd[5]) {
    static const fc3d_op_kind pre[5] = {FC3D_OP_SCALE, FC3D_OP_ADD_CHANNEL, FC3D_OP_RELU, FC3D_OP_GELU, FC3D_OP_GELU_TANH};
    static const fc3d_op_kind aff[6] = {FC3D_OP_SCALE, FC3D_OP_ADD_CHANNEL, FC3D_OP_BATCHNORM_INFER,
                                        FC3D_OP_BATCHNORM_TRAIN, FC3D_OP_GROUPNORM, FC3D_OP_SUB_SPATIAL_MEAN};
    static const fc3d_op_kind lin[4] = {FC3D_OP_SCALE, FC3D_OP_ADD_CHANNEL, FC3D_OP_BATCHNORM_INFER,
                                        FC3D_OP_SUB_SPATIAL_MEAN};
    const int draw = rng_int(0, 2) == 0;
    const int linear = chain_hint == 1 || (chain_hint != 0 && draw); /* only affine ops and means: FC3D_STATS_PLAN_LINEAR */
    for (;;) {
        const int npre_drawn = rng_int(0, 2); /* drawn either way: the hint keeps the sequence of cases */
        const int npre = linear ? 0 : npre_hint >= 0 ? npre_hint : npre_drawn;
        const int naff = rng_int(linear ? 1 : 2, 4), pool = rng_int(0, 1);
        int nstat = 0;
        d->num_ops = 0;
        for (int i = 0; i < npre + naff + pool; i++) {
            fc3d_op* op = &d->ops[i];
            memset(op, 0, sizeof *op);
            op->kind = i < npre ? pre[rng_int(0, 4)]
                       : i < npre + naff ? (linear ? lin[rng_int(0, 3)] : aff[rng_int(0, 5)])
                                         : FC3D_OP_GLOBAL_AVG_POOL;
            const _fc3d_op_info* info = _fc3d_op_info_at((int)op->kind);
            nstat += i >= npre && info->stats != _FC3D_ST_NONE;
            op->flags = (unsigned)rng_int(0, 7) & info->flags_taken;
            if (info->fields & _FC3D_F_VALUE) op->value = (float)(rng_unit() * 4.0 - 2.0);
            if (info->fields & _FC3D_F_EPS) op->eps = rng_int(0, 1) ? 0.0f : 1e-3f;
            if (info->fields & _FC3D_F_MOMENTUM) op->momentum = rng_int(0, 1) ? 0.0f : 0.3f;
            if (info->fields & _FC3D_F_GROUPS) {
                do op->groups = rng_int(1, (int)cd[1]);
                while (cd[1] % op->groups);
            }
        }
        d->num_ops = npre + naff + pool;
        fc3d_plan_desc filled = fc3d_plan_desc_defaults(d);
        int ok = linear ? nstat + pool >= 1 : nstat + pool >= 2;
        for (int i = 0; ok && i < d->num_ops; i++) ok = _fc3d_validate_op(&filled, cd, i, NULL) == FC3D_SUCCESS;
        if (ok) return;
    }
}

/* Fills every op tensor of hc with plausible random values (positive variances). */
static double op_bias_offset = 0.0; /* random_op_tensors: added to op 0's bias (an AddChannel's vector) */
static void random_op_tensors(host_case* hc) {
    for (int i = 0; i < hc->plan.desc.num_ops; i++) {
        op_tensor_shapes(&hc->plan, i, hc->op_n[i]);
        for (int t = 0; t < 6; t++) {
            if (!hc->op_n[i][t]) continue;
            const double off = i == 0 && t == 1 ? op_bias_offset : 0.0;
            const double lo = (t == 0 ? 0.5 : t == 3 ? 0.2 : -0.5) + off, hi = (t == 0 ? 1.5 : t == 3 ? 2.0 : 0.5) + off;
            hc->op_t[i][t] = alloc_fill(hc->op_n[i][t], lo, hi, FC3D_DTYPE_F32);
        }
    }
}

/* A convolution operand as the math mode gives it to the multiplier: TF32 rounds to nearest, ties
   to even, HALF rounds f32 data to f16; 16-bit data is exact in every mode. */
static double math_operand(double v, fc3d_math math, fc3d_dtype dt) {
    const float f = (float)v;
    if (math == FC3D_MATH_TF32) {
        uint32_t b;
        memcpy(&b, &f, 4);
        if ((b & 0x7f800000u) != 0x7f800000u) b = (b + 0xfffu + ((b >> 13) & 1u)) & 0xffffe000u;
        float r;
        memcpy(&r, &b, 4);
        return (double)r;
    }
    if (math == FC3D_MATH_HALF && (dt == FC3D_DTYPE_F32 || dt == 0)) return (double)__half2float(__float2half_rn(f));
    return v;
}

/* Runs the CPU reference for hc; ref_ops gets copies of the running statistics it updated and the
   saved statistics it wrote. The reference is float64 throughout, on the convolution operands the
   math mode multiplies (x and the weight rounded as math_operand says): what a TF32 or HALF run
   differs from it by is then the engine's own error (accumulation order, epilogue), and a chain
   that amplifies the operands' rounding (a normalisation over a few values of small variance)
   does not read as one. FP32 math compares with the exact operands. */
static double* cpu_reference(const host_case* hc, double* ref_ops[][6]) {
    const fc3d_math math = hc->plan.desc.math;
    double *xr = NULL, *wr = NULL;
    if (math == FC3D_MATH_TF32 || math == FC3D_MATH_HALF) {
        xr = (double*)malloc((size_t)hc->plan.x_elements * sizeof(double));
        wr = (double*)malloc((size_t)hc->plan.weight_elements * sizeof(double));
        for (int64_t i = 0; i < hc->plan.x_elements; i++) xr[i] = math_operand(hc->x[i], math, hc->plan.desc.dtype);
        for (int64_t i = 0; i < hc->plan.weight_elements; i++)
            wr[i] = math_operand(hc->w[i], math, hc->plan.desc.dtype);
    }
    fc3d_cpu_op_tensors ops[FC3D_MAX_OPS];
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < hc->plan.desc.num_ops; i++) {
        for (int t = 2; t < 6; t++) {
            ref_ops[i][t] = NULL;
            if (!hc->op_n[i][t]) continue;
            ref_ops[i][t] = (double*)malloc((size_t)hc->op_n[i][t] * sizeof(double));
            memcpy(ref_ops[i][t], hc->op_t[i][t], (size_t)hc->op_n[i][t] * sizeof(double));
        }
        ops[i].weight = hc->op_t[i][0];
        ops[i].bias = hc->op_t[i][1];
        ops[i].running_mean = ref_ops[i][2];
        ops[i].running_var = ref_ops[i][3];
        ops[i].save_mean = ref_ops[i][4];
        ops[i].save_invstd = ref_ops[i][5];
    }
    double* y = (double*)malloc((size_t)hc->plan.y_elements * sizeof(double));
    const int rc = fc3d_cpu_run(&hc->desc, xr ? xr : hc->x, wr ? wr : hc->w, hc->b, ops, y);
    free(xr);
    free(wr);
    if (rc != 0) {
        free(y);
        return NULL;
    }
    return y;
}

/* hc run (run_and_compare) against the float64 CPU reference within `bound`, the reference freed
   after; 1 when within it. */
static int check_vs_cpu(const char* name, host_case* hc, double bound) {
    double* ref_ops[FC3D_MAX_OPS][6];
    int guard = 0, ok = 0;
    memset(ref_ops, 0, sizeof ref_ops);
    double* ref = cpu_reference(hc, ref_ops);
    if (!ref) check(0, name, "the CPU reference refused the desc");
    else ok = run_and_compare(name, hc, ref, ref_ops, bound, &guard);
    free(ref);
    for (int i = 0; i < FC3D_MAX_OPS; i++)
        for (int t = 0; t < 6; t++) free(ref_ops[i][t]);
    return ok;
}

/* x as torch.rand (as the workloads), the weight and bias as PyTorch's default init draws them,
   the ops' tensors (random_op_tensors), for hc's planned desc */
static void fill_case_tensors(host_case* hc) {
    const fc3d_plan* p = &hc->plan;
    const fc3d_dtype st = p->desc.dtype;
    hc->x = alloc_fill(p->x_elements, 0.0, 1.0, st);
    const double bound = 1.0 / sqrt((double)p->weight_elements / p->desc.conv.in_channels + 1.0);
    hc->w = alloc_fill(p->weight_elements, -bound, bound, st);
    hc->b = p->desc.conv.bias ? alloc_fill(p->desc.conv.out_channels, -bound, bound, st) : NULL;
    random_op_tensors(hc);
}

/* -1: draw desc.main_loop at random; else force it (a loop the desc or the run cannot take falls
   back to the planner's choice) */
static int loop_hint = -1;
static int row_hint = 0;   /* 1: a LayerNorm over W put first in the chain */
static int loop_force = -1; /* --loop N: every case asks for main loop N (0 auto, 1 mma.sync, 2 wgmma, 3 halo, 4 block) */
static void make_random_case(host_case* hc, int big_plane) {
    for (;;) {
        memset(hc, 0, sizeof *hc);
        random_conv(&hc->desc.conv, big_plane);
        hc->desc.layout = (fc3d_layout)rng_int(0, 2);
        hc->desc.dtype = (fc3d_dtype)rng_int(0, 3);
        hc->desc.math = (fc3d_math)rng_int(0, 3);
        if (wide_hint >= 2) { /* what the haloed loop takes: float32 tensors, any math (FP32 not on row tiles) */
            static const fc3d_math maths[3] = {FC3D_MATH_TF32, FC3D_MATH_HALF, FC3D_MATH_FP32};
            hc->desc.dtype = FC3D_DTYPE_F32;
            hc->desc.math = maths[rng_int(0, row_hint ? 1 : 2)];
        }
        if (block_hint) { /* what the block loop takes: float32 NCDHW tensors, TF32 math (or half) */
            hc->desc.dtype = FC3D_DTYPE_F32;
            hc->desc.layout = FC3D_LAYOUT_NCDHW;
            hc->desc.math = block_half_hint ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        }
        hc->desc.engine = engine_under_test;
        const fc3d_result r = fc3d_plan_init(&hc->plan, &hc->desc);
        if (r == FC3D_ERROR_ENGINE_REFUSED) refused_by_engine++;
        if (r != FC3D_SUCCESS) continue; /* e.g. output size <= 0, or a desc the engine refuses */
        const int64_t cd[5] = {hc->plan.y_dims[0], hc->plan.y_dims[1], hc->plan.conv_size[0], hc->plan.conv_size[1],
                               hc->plan.conv_size[2]};
        random_ops(&hc->desc, cd);
        if (rng_int(0, 2) == 0 || chain_hint == 0 || chain_hint == 1) moments_ops(&hc->desc, cd);
        if (row_hint && hc->desc.num_ops < FC3D_MAX_OPS) { /* a LayerNorm over W first: whole-row tiles */
            fc3d_plan_desc t = hc->desc;
            memmove(&t.ops[1], &t.ops[0], (size_t)t.num_ops * sizeof t.ops[0]);
            memset(&t.ops[0], 0, sizeof t.ops[0]);
            t.ops[0].kind = FC3D_OP_LAYERNORM;
            t.ops[0].norm_dims = 1;
            t.ops[0].flags = rng_int(0, 1) ? (unsigned)FC3D_OP_AFFINE : 0u;
            t.num_ops++;
            const fc3d_plan_desc filled = fc3d_plan_desc_defaults(&t);
            int ok = 1;
            for (int i = 0; ok && i < t.num_ops; i++) ok = _fc3d_validate_op(&filled, cd, i, NULL) == FC3D_SUCCESS;
            if (ok) hc->desc = t;
        }
        /* every strategy and statistics plan the chain allows, forced at random; one it cannot take
           is refused (tests/test_plan.cu checks the refusals) and the planner chooses instead */
        hc->desc.strategy = (fc3d_strategy)rng_int(0, 2);
        hc->desc.stats_plan = (fc3d_stats_plan)rng_int(0, 3);
        if (strategy_hint >= 0) hc->desc.strategy = (fc3d_strategy)strategy_hint;
        if (chain_hint == 0) hc->desc.stats_plan = FC3D_STATS_PLAN_MOMENTS;
        if (chain_hint == 1) {
            hc->desc.strategy = FC3D_STRATEGY_NONE;
            hc->desc.stats_plan = FC3D_STATS_PLAN_LINEAR;
        }
        /* and the main loop, where the engine has one: wgmma where the plan allows it and this
           binary has sm_90a code for the device, else the planner's */
        if (engine_under_test != FC3D_ENGINE_DIRECT) {
            const int drawn = rng_int(0, 3); /* drawn either way: --loop keeps the sequence of cases */
            hc->desc.main_loop = (fc3d_main_loop)(loop_hint >= 0 ? loop_hint : loop_force >= 0 ? loop_force : drawn);
        } else {
            hc->desc.main_loop = FC3D_MAIN_LOOP_AUTO;
        }
        fc3d_result r2 = fc3d_plan_init(&hc->plan, &hc->desc);
        for (int tries = 0; tries < 2; tries++) {
            if (r2 == FC3D_ERROR_STRATEGY || r2 == FC3D_ERROR_STATS_PLAN) {
                hc->desc.strategy = FC3D_STRATEGY_NONE;
                hc->desc.stats_plan = FC3D_STATS_PLAN_AUTO;
                r2 = fc3d_plan_init(&hc->plan, &hc->desc);
            }
            if (r2 == FC3D_ERROR_MAIN_LOOP ||
                (r2 == FC3D_SUCCESS &&
                 (hc->desc.main_loop == FC3D_MAIN_LOOP_WGMMA || hc->desc.main_loop == FC3D_MAIN_LOOP_HALO) &&
                 fc3d_plan_main_loop(&hc->plan) != hc->desc.main_loop)) {
                hc->desc.main_loop = FC3D_MAIN_LOOP_AUTO;
                r2 = fc3d_plan_init(&hc->plan, &hc->desc);
            }
        }
        if (r2 == FC3D_ERROR_ENGINE_REFUSED) {
            refused_by_engine++;
            continue;
        }
        if (r2 != FC3D_SUCCESS) {
            fprintf(stderr, "generator made an invalid desc: %s\n", hc->plan.message);
            exit(2);
        }
        break;
    }
    fill_case_tensors(hc);
}

static void describe_case(const host_case* hc, char* buf, size_t n) {
    static const char* const lay[] = {"ncdhw", "ncdhw", "ndhwc"};
    static const char* const ty[] = {"f32", "f32", "f16", "bf16"};
    static const char* const ma[] = {"fp32", "fp32", "tf32", "half"};
    const fc3d_plan* p = &hc->plan;
    int k = snprintf(buf, n, "%s.%s.%s.n%dc%dx%dg%d.k%d%d%d.s%d%d%d.ops", lay[p->desc.layout], ty[p->desc.dtype],
                     ma[p->desc.math], p->desc.conv.batch, p->desc.conv.in_channels, p->desc.conv.out_channels,
                     p->desc.conv.groups, p->desc.conv.kernel[0], p->desc.conv.kernel[1], p->desc.conv.kernel[2],
                     p->desc.conv.stride[0], p->desc.conv.stride[1], p->desc.conv.stride[2]);
    for (int i = 0; i < p->desc.num_ops && k > 0 && (size_t)k < n; i++)
        k += snprintf(buf + k, n - (size_t)k, "-%d", (int)p->desc.ops[i].kind);
}

/* Random cases whose plan has a GEMM step with whole-row tiles (a LayerNorm over W taking its
   statistics from the rows in the epilogue): the engine's row path is exercised, not assumed. */
static int row_tile_cases = 0, halo_row_cases = 0;
static int uses_row_tiles(const fc3d_plan* p) {
    for (int i = 0; i < p->_private.num_steps; i++)
        if (p->_private.steps[i].kind == _FC3D_STEP_TC_CONV && p->_private.steps[i].arg[3]) return 1;
    return 0;
}

/* Random cases with a streamed read-back step (a pass of (n, c)-fixed ops in NCDHW:
   _fc3d_stream_pass_kernel): its head, vector and tail paths are exercised, not assumed. */
static int streamed_cases = 0, streamed_gather_cases = 0;
static int uses_streamed_pass(const fc3d_plan* p, int gathering) {
    for (int i = 0; i < p->_private.num_steps; i++)
        if (p->_private.steps[i].kind == _FC3D_STEP_DIRECT_PASS && p->_private.steps[i].arg[7] &&
            (!gathering || p->_private.steps[i].stat_op >= 0))
            return 1;
    return 0;
}

/* Of those, the ones whose streamed pass has only ops affine in the value, which the kernel
   composes into one a v + b per block (scale, add_channel, inference BatchNorm, normalisations and
   mean subtractions by (n, c)-fixed statistics; a reduction applies nothing): both forms are
   exercised. Of the composed ones, those with an inference BatchNorm are counted too (printed). */
static int streamed_composed_cases = 0, streamed_composed_bn_infer = 0;
static int streamed_pass_composed(const fc3d_plan* p) {
    for (int i = 0; i < p->_private.num_steps; i++) {
        const fc3d_step_* s = &p->_private.steps[i];
        if (s->kind != _FC3D_STEP_DIRECT_PASS || !s->arg[7]) continue;
        const fc3d_pass* ps = &p->passes[s->pass];
        int bn_infer = 0;
        for (int o = ps->op_begin; o < ps->op_end; o++) {
            const fc3d_op_kind k = p->desc.ops[o].kind;
            if (!(k == FC3D_OP_SCALE || k == FC3D_OP_ADD_CHANNEL || k == FC3D_OP_BATCHNORM_INFER ||
                  k == FC3D_OP_BATCHNORM_TRAIN || k == FC3D_OP_GROUPNORM || k == FC3D_OP_LAYERNORM ||
                  k == FC3D_OP_SUB_SPATIAL_MEAN || k == FC3D_OP_GLOBAL_AVG_POOL))
                return 0;
            bn_infer |= k == FC3D_OP_BATCHNORM_INFER;
        }
        streamed_composed_bn_infer += bn_infer;
        return ps->op_end > ps->op_begin;
    }
    return 0;
}

/* Random cases per (strategy, statistics plan) the plan ran with: [materialize, recompute] x [per op, moments]. */
/* Cases whose convolving step zero-fills y and skips the tiles of its tap-less phases
   (_fc3d_tc_zero_fill), and of those the ones on the haloed loop. */
static int zero_fill_cases = 0, zero_fill_halo_cases = 0;
static void count_zero_fill(const fc3d_plan* p) {
    for (int k = 0; k < p->_private.num_steps; k++)
        if (p->_private.steps[k].kind == _FC3D_STEP_TC_CONV && p->_private.steps[k].arg[5]) {
            zero_fill_cases++;
            zero_fill_halo_cases += fc3d_plan_main_loop(p) == FC3D_MAIN_LOOP_HALO;
            return;
        }
}
static int strategy_cases[2][2], linear_cases = 0;
static void count_strategy(const fc3d_plan* p) {
    int stats = 0;
    for (int i = 0; i < p->num_passes; i++) stats |= p->passes[i].stat_op >= 0;
    if (p->stats_plan == FC3D_STATS_PLAN_LINEAR) linear_cases++;
    else if (stats) strategy_cases[p->strategy == FC3D_STRATEGY_RECOMPUTE][p->stats_plan == FC3D_STATS_PLAN_MOMENTS]++;
}

/* Random cases per main loop a run of the plan takes (implicit_gemm plans that convolve):
   [mma.sync with C_in / groups a multiple of 16, mma.sync otherwise, wgmma, haloed wgmma, block]. */
static int loop_cases[5];
static int wgmma_math_cases[4]; /* wgmma cases per math mode (FC3D_MATH_FP32 .. HALF) */
static int halo_math_cases[4];  /* haloed-loop cases per math mode */
static void count_loop(const fc3d_plan* p) {
    int conv = 0;
    for (int i = 0; i < p->num_passes; i++) conv |= p->passes[i].source == FC3D_SOURCE_CONV;
    if (p->engine != FC3D_ENGINE_IMPLICIT_GEMM || !conv) return;
    const int cin_g = p->desc.conv.in_channels / (p->desc.conv.groups ? p->desc.conv.groups : 1);
    const int mi = p->desc.math >= FC3D_MATH_FP32 && p->desc.math <= FC3D_MATH_HALF ? p->desc.math : 0;
    const int loop = fc3d_plan_main_loop(p);
    if (loop == FC3D_MAIN_LOOP_WGMMA) {
        loop_cases[2]++;
        wgmma_math_cases[mi]++;
    } else if (loop == FC3D_MAIN_LOOP_HALO) {
        loop_cases[3]++;
        halo_math_cases[mi]++;
    } else if (loop == FC3D_MAIN_LOOP_BLOCK) {
        loop_cases[4]++;
    } else if (loop == FC3D_MAIN_LOOP_WARP_ROWS) {
        /* (test_warp_rows counts its own) */
    } else loop_cases[cin_g % 16 == 0 ? 0 : 1]++;
}
/* Whether this binary runs the wgmma loops on the current device (a TF32 plan that allows them:
   AUTO gives it the haloed loop). */
static int wgmma_here(void) {
    fc3d_plan_desc d;
    memset(&d, 0, sizeof d);
    d.conv.batch = 1;
    d.conv.in_channels = 32;
    d.conv.out_channels = 8;
    d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 2;
    d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 2;
    d.math = FC3D_MATH_TF32;
    d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
    fc3d_plan p;
    return fc3d_plan_init(&p, &d) == FC3D_SUCCESS && fc3d_plan_main_loop(&p) >= FC3D_MAIN_LOOP_WGMMA;
}

static void test_random(int cases, int big_cases) {
    for (int k = 0; k < cases + big_cases; k++) {
        host_case hc;
        char desc[200], name[260];
        chain_hint = k % 6; /* every sixth case a moments chain, every sixth a linear one, every sixth
                               one with channels for the wgmma loop, half of those for the haloed
                               loop (the --quick subset that the sanitizers run included) */
        wide_hint = k % 12 == 2 ? 1 : k % 12 == 8 ? 2 : k % 12 == 9 ? 3 : 0; /* and one for the haloed row tiles */
        row_hint = k % 12 == 3 || k % 12 == 9;
        make_random_case(&hc, k >= cases);
        row_hint = 0;
        chain_hint = -1;
        wide_hint = -1;
        row_tile_cases += uses_row_tiles(&hc.plan);
        halo_row_cases += uses_row_tiles(&hc.plan) && fc3d_plan_main_loop(&hc.plan) == FC3D_MAIN_LOOP_HALO;
        streamed_cases += uses_streamed_pass(&hc.plan, 0);
        streamed_gather_cases += uses_streamed_pass(&hc.plan, 1);
        streamed_composed_cases += streamed_pass_composed(&hc.plan);
        count_strategy(&hc.plan);
        count_loop(&hc.plan);
        count_zero_fill(&hc.plan);
        describe_case(&hc, desc, sizeof desc);
        snprintf(name, sizeof name, "%s.random.%03d.%s", fc3d_engine_name(engine_under_test), k, desc);
        check_vs_cpu(name, &hc, bound_for(hc.plan.desc.math, hc.plan.desc.dtype));
        host_case_free(&hc);
    }
}

/* ---- 3. determinism ---------------------------------------------------------------------------- */
/* Two runs of one plan on one input give the same bytes in y and in every statistic written. */
static void test_determinism(int cases) {
    int done = 0;
    while (done < cases) {
        host_case hc;
        wide_hint = done % 6 == 1 ? 1 : done % 6 == 4 ? 2 : 0; /* a third with channels for the wgmma loops */
        make_random_case(&hc, done % 3 == 0);
        wide_hint = -1;
        int stats = 0;
        for (int i = 0; i < hc.plan.desc.num_ops; i++) stats |= hc.plan.passes[0].stat_op >= 0;
        if (!stats) { /* only chains with reductions are interesting here */
            host_case_free(&hc);
            continue;
        }
        device_case dc;
        device_case_upload(&hc, &dc);
        const size_t yb = dc.y_bytes;
        unsigned char* out[2];
        size_t stat_bytes = 0;
        for (int i = 0; i < hc.plan.desc.num_ops; i++)
            for (int t = 2; t < 6; t++) stat_bytes += (size_t)hc.op_n[i][t] * sizeof(float);
        for (int run = 0; run < 2; run++) {
            fc3d_message msg;
            device_case_poison(&hc, &dc);
            const fc3d_run_args a = device_case_args(&hc, &dc, 0);
            if (fc3d_plan_run(&hc.plan, &a, &msg) != FC3D_SUCCESS) fprintf(stderr, "%s\n", msg.text);
            out[run] = (unsigned char*)malloc(yb + stat_bytes);
            CUDA_OK(cudaMemcpy(out[run], dc.y, yb, cudaMemcpyDeviceToHost));
            size_t at = yb;
            for (int i = 0; i < hc.plan.desc.num_ops; i++)
                for (int t = 2; t < 6; t++)
                    if (hc.op_n[i][t]) {
                        CUDA_OK(cudaMemcpy(out[run] + at, dc.op_t[i][t], (size_t)hc.op_n[i][t] * 4,
                                           cudaMemcpyDeviceToHost));
                        at += (size_t)hc.op_n[i][t] * 4;
                    }
        }
        char desc[200], name[260];
        describe_case(&hc, desc, sizeof desc);
        snprintf(name, sizeof name, "%s.determinism.%02d.%s", fc3d_engine_name(engine_under_test), done, desc);
        check(memcmp(out[0], out[1], yb + stat_bytes) == 0, name, "two runs differ");
        free(out[0]);
        free(out[1]);
        device_case_free(&dc);
        host_case_free(&hc);
        done++;
    }
}

/* ---- 3a. engines against each other ------------------------------------------------------------ */
/* Runs the desc of hc on engines a and b, on the same device inputs, and compares their y and
   written statistics: rel-L2 within `bound`, or bitwise equal when both names are one engine
   (automatic choice included). Returns 1 when the two agree; -1 when an engine refuses the desc. */
static int prep_wide_b = 0; /* compare_engines: plan b's prep step forced onto its 64-bit decoding (kp.hx_wide) */
/* compare_engines binds y this many bytes (a multiple of the element size) past its allocation's
   start in both runs (0: y as allocated) */
static int cmp_y_shift = 0;
/* compare_engines where the input holds an infinity: a value non-finite in one output must be
   non-finite in the other (as a count: cmp_nonfinite_seen), the rel-L2 is taken over the rest */
static int cmp_nonfinite = 0;
static int64_t cmp_nonfinite_seen = 0;
/* What a failed comparison prints after its line, so that the case can be rebuilt and read without
   the run that drew it: every field of the desc, both plans' descriptions, and the largest
   differences with their (n, c, d, h, w) and both values. */
static void dump_mismatch(const host_case* hc, const fc3d_plan* pl, const double* a, const double* b, int64_t n) {
    const fc3d_plan_desc* d = &hc->desc;
    const fc3d_conv_desc* c = &d->conv;
    printf("#   desc: batch %d in %d out %d in_size %d %d %d kernel %d %d %d stride %d %d %d padding %d %d %d "
           "output_padding %d %d %d dilation %d %d %d groups %d bias %d layout %d dtype %d math %d strategy %d "
           "stats_plan %d smem_per_block %d\n",
           c->batch, c->in_channels, c->out_channels, c->in_size[0], c->in_size[1], c->in_size[2], c->kernel[0],
           c->kernel[1], c->kernel[2], c->stride[0], c->stride[1], c->stride[2], c->padding[0], c->padding[1],
           c->padding[2], c->output_padding[0], c->output_padding[1], c->output_padding[2], c->dilation[0],
           c->dilation[1], c->dilation[2], c->groups, c->bias, (int)d->layout, (int)d->dtype, (int)d->math,
           (int)d->strategy, (int)d->stats_plan, d->smem_per_block);
    for (int i = 0; i < d->num_ops; i++)
        printf("#   op %d: kind %d value %g eps %g momentum %g groups %d norm_dims %d flags %u\n", i,
               (int)d->ops[i].kind, (double)d->ops[i].value, (double)d->ops[i].eps, (double)d->ops[i].momentum,
               d->ops[i].groups, d->ops[i].norm_dims, d->ops[i].flags);
    static char text[1 << 15];
    for (int k = 0; k < 2; k++) {
        fc3d_plan_describe(&pl[k], text, sizeof text);
        printf("#   plan %d:\n", k);
        for (char *line = text, *e; *line; line = e) {
            e = strchr(line, '\n');
            const int len = e ? (int)(e - line) : (int)strlen(line);
            printf("#     %.*s\n", len, line);
            e = e ? e + 1 : line + len;
        }
    }
    const int64_t* yd = hc->plan.y_dims; /* (n, c, d, h, w) as unpack orders them */
    int64_t worst[4] = {-1, -1, -1, -1};
    for (int64_t i = 0; i < n; i++) {
        const double e = fabs(a[i] - b[i]);
        for (int k = 0; k < 4; k++)
            if (worst[k] < 0 || !(e <= fabs(a[worst[k]] - b[worst[k]]))) {
                for (int j = 3; j > k; j--) worst[j] = worst[j - 1];
                worst[k] = i;
                break;
            }
    }
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) bad += !(fabs(a[i] - b[i]) <= 1e-3 * (1.0 + fabs(a[i])));
    printf("#   %lld of %lld outputs differ by more than 1e-3 relative; the largest:\n", (long long)bad, (long long)n);
    for (int k = 0; k < 4 && worst[k] >= 0; k++) {
        int64_t r = worst[k], co[5];
        for (int j = 4; j >= 0; j--) {
            co[j] = r % yd[j];
            r /= yd[j];
        }
        printf("#     (n %lld, c %lld, d %lld, h %lld, w %lld): %.9g vs %.9g\n", (long long)co[0], (long long)co[1],
               (long long)co[2], (long long)co[3], (long long)co[4], a[worst[k]], b[worst[k]]);
    }
}

static int compare_engines(const char* name, host_case* hc, fc3d_engine ea, fc3d_engine eb, double bound,
                           fc3d_main_loop la = FC3D_MAIN_LOOP_AUTO, fc3d_main_loop lb = FC3D_MAIN_LOOP_AUTO) {
    fc3d_plan pl[2];
    const fc3d_engine e[2] = {ea, eb};
    const fc3d_main_loop l[2] = {la, lb};
    for (int k = 0; k < 2; k++) {
        fc3d_plan_desc d = hc->desc;
        d.engine = e[k];
        d.main_loop = l[k];
        if (fc3d_plan_init(&pl[k], &d) != FC3D_SUCCESS) return -1;
        if (k == 1 && prep_wide_b && pl[1].engine == FC3D_ENGINE_IMPLICIT_GEMM)
            ((_fc3d_tc_plan*)pl[1]._private.engine_data.bytes)->kp.hx_wide = 1;
    }
    device_case dc;
    device_case_upload(hc, &dc);
    /* the engines' workspaces differ (whole-row tiles need no partials for a row op): one buffer
       large enough for both, each run told its own plan's size */
    const size_t ws_need = pl[0].workspace_bytes > pl[1].workspace_bytes ? pl[0].workspace_bytes : pl[1].workspace_bytes;
    if (ws_need > hc->plan.workspace_bytes) {
        if (dc.ws) CUDA_OK(cudaFree(dc.ws));
        CUDA_OK(cudaMalloc(&dc.ws, ws_need));
        CUDA_OK(cudaMemset(dc.ws, 0xff, ws_need));
    }
    const int64_t n = hc->plan.y_elements;
    double* out[2];
    for (int k = 0; k < 2; k++) {
        fc3d_message msg;
        device_case_poison(hc, &dc);
        fc3d_run_args a = device_case_args(hc, &dc, 0);
        a.workspace = dc.ws;
        a.workspace_bytes = pl[k].workspace_bytes;
        void* ybuf = nullptr;
        if (cmp_y_shift) { /* y past its allocation's start, poisoned as device_case_poison does */
            CUDA_OK(cudaMalloc(&ybuf, dc.y_bytes + cmp_y_shift));
            CUDA_OK(cudaMemset(ybuf, 0xff, dc.y_bytes + cmp_y_shift));
            a.y = (char*)ybuf + cmp_y_shift;
        }
        const fc3d_result r = fc3d_plan_run(&pl[k], &a, &msg);
        CUDA_OK(cudaDeviceSynchronize());
        out[k] = (double*)malloc((size_t)n * sizeof(double));
        void* hy = malloc(dc.y_bytes);
        CUDA_OK(cudaMemcpy(hy, a.y, dc.y_bytes, cudaMemcpyDeviceToHost));
        if (ybuf) CUDA_OK(cudaFree(ybuf));
        unpack(hy, hc->plan.y_dims, hc->plan.desc.layout, hc->plan.desc.dtype, out[k]);
        free(hy);
        if (r != FC3D_SUCCESS) {
            for (int64_t i = 0; i < n; i++) out[k][i] = NAN;
            printf("# %s: engine %s failed: %s\n", name, fc3d_engine_name(e[k]), msg.text);
        }
    }
    static const char* const loop_name[5] = {"", "/mma.sync", "/wgmma", "/halo", "/block"};
    const int la_run = fc3d_plan_main_loop(&pl[0]), lb_run = fc3d_plan_main_loop(&pl[1]);
    const int same = pl[0].engine == pl[1].engine && la_run == lb_run;
    int64_t nf_mismatch = 0;
    if (cmp_nonfinite) { /* the non-finite positions of both alike, then left out (zeroed in both) */
        cmp_nonfinite_seen = 0;
        for (int64_t i = 0; i < n; i++) {
            const int f0 = isfinite(out[0][i]), f1 = isfinite(out[1][i]);
            if (f0 != f1) nf_mismatch++;
            if (!f0 || !f1) {
                cmp_nonfinite_seen++;
                out[0][i] = out[1][i] = 0.0;
            }
        }
    }
    const double err = nf_mismatch ? INFINITY : rel_l2(out[1], out[0], n);
    const int ok = same ? memcmp(out[0], out[1], (size_t)n * sizeof(double)) == 0 : err <= bound;
    check(ok, name, "%s%s vs %s%s: rel-L2 %.3g, bound %s", fc3d_engine_name(pl[0].engine),
          la_run >= 1 && la_run <= 4 ? loop_name[la_run] : "", fc3d_engine_name(pl[1].engine),
          lb_run >= 1 && lb_run <= 4 ? loop_name[lb_run] : "", err, same ? "bitwise" : "math mode's");
    if (!ok) dump_mismatch(hc, pl, out[0], out[1], n);
    free(out[0]);
    free(out[1]);
    device_case_free(&dc);
    return ok;
}

/* Every engine against the direct one on random descs; the automatic choice against the direct
   engine where that choice is the direct engine itself (bitwise). */
static void test_cross_engine(int cases) {
    const fc3d_engine keep = engine_under_test;
    engine_under_test = FC3D_ENGINE_AUTO;
    for (int k = 0; k < cases; k++) {
        host_case hc;
        char desc[200], name[300];
        make_random_case(&hc, k % 4 == 3);
        describe_case(&hc, desc, sizeof desc);
        snprintf(name, sizeof name, "cross_engine.%03d.%s", k, desc);
        compare_engines(name, &hc, FC3D_ENGINE_DIRECT, hc.plan.engine,
                        2.0 * bound_for(hc.plan.desc.math, hc.plan.desc.dtype), FC3D_MAIN_LOOP_AUTO,
                        hc.plan.engine == FC3D_ENGINE_DIRECT ? FC3D_MAIN_LOOP_AUTO : hc.desc.main_loop);
        host_case_free(&hc);
    }
    engine_under_test = keep;
}

/* The main loops against mma.sync on random descs, where this binary runs wgmma on the device,
   within twice the math mode's bound: even cases wgmma (C_in / groups a multiple of 16; FP32, TF32,
   HALF in turn), odd cases the haloed loop (float32 tensors, C_in / groups a multiple of 32, every
   other one with a LayerNorm over W first at W stride 2: the row tiles, in TF32 and HALF in turn;
   the others in FP32, TF32 and HALF in turn; a desc it refuses is drawn again). */
static void test_cross_loop(int cases) {
    if (!wgmma_here()) {
        printf("# cross_loop skipped: this binary has no sm_90a code for this device (the wgmma loop cannot run)\n");
        return;
    }
    const fc3d_engine keep = engine_under_test;
    engine_under_test = FC3D_ENGINE_IMPLICIT_GEMM;
    for (int k = 0; k < cases; k++) {
        host_case hc;
        char desc[200], name[300];
        const int halo = k % 2;
        wide_hint = halo ? (k % 4 == 3 ? 3 : 2) : 1;
        row_hint = k % 4 == 3;
        loop_hint = FC3D_MAIN_LOOP_AUTO;
        make_random_case(&hc, 0);
        wide_hint = -1;
        row_hint = 0;
        loop_hint = -1;
        const fc3d_math math = halo && k % 4 == 3 ? (fc3d_math)(FC3D_MATH_TF32 + (k / 4) % 2)
                                                : (fc3d_math)(FC3D_MATH_FP32 + (k / 2) % 3);
        hc.desc.math = math;
        if (halo) {
            hc.desc.dtype = FC3D_DTYPE_F32;
            fc3d_plan_desc t = hc.desc;
            fc3d_plan tp;
            t.main_loop = FC3D_MAIN_LOOP_HALO;
            if (fc3d_plan_init(&tp, &t) != FC3D_SUCCESS) { /* refused (the reason is the plan tests') */
                host_case_free(&hc);
                --k;
                continue;
            }
        }
        if (fc3d_plan_init(&hc.plan, &hc.desc) != FC3D_SUCCESS) {
            host_case_free(&hc);
            --k;
            continue;
        }
        describe_case(&hc, desc, sizeof desc);
        snprintf(name, sizeof name, "cross_loop.%03d.%s", k, desc);
        const int r = compare_engines(name, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM,
                                      2.0 * bound_for(math, hc.plan.desc.dtype), FC3D_MAIN_LOOP_MMA_SYNC,
                                      halo ? FC3D_MAIN_LOOP_HALO : FC3D_MAIN_LOOP_WGMMA);
        if (r == -1) check(0, name, "a loop refused the desc");
        host_case_free(&hc);
    }
    engine_under_test = keep;
}

/* ---- 3a. zero fill -------------------------------------------------------------------------------- */
/* Tap-less phases stored by a zero fill of y (_fc3d_tc_zero_fill): L1/77's pattern (kernel 3,
   stride 2, padding 1, dilation 2: only odd coordinates get taps) at odd sizes with partial tiles
   and channel tiles, no ops, a ReLU, or a GELU then a scale; both layouts, TF32 / half / FP32 math
   on float32 and a float16 case; half the cases at padding 0 (only even coordinates get taps, the
   output's last position among them). Each plan is checked to take
   the fill, then each main loop this device runs is compared with the direct engine within twice
   the math mode's bound (y poisoned before every run: a position neither the fill nor a tile
   stores stays NaN). Two more cases (12, 13) dilate D by 4 or 6 over one or two input planes: a
   tapped D residue has planes no input reaches, whose tiles have no tap (behind the fill they
   store nothing; with no fill they store their zeros). On the haloed loop the NCDHW float32 cases
   take no fill (_fc3d_hx_zc_dims: every dim of stride 2 has one tapped residue), each tile storing
   its block of y, zeros included, and each plan is checked to say so; case 14 has D at stride 1
   (no fill either), case 15 H at kernel 4 (both H residues tapped: the fill again); case 16 is
   L1/77 at one sample and two input planes, whose TF32 tiles take one weight slot fewer
   (_FC3D_HX_ZC_NB: two CTAs an SM), checked to. */
static void test_zero_fill(void) {
    static const fc3d_main_loop loops[3] = {FC3D_MAIN_LOOP_MMA_SYNC, FC3D_MAIN_LOOP_WGMMA, FC3D_MAIN_LOOP_HALO};
    static const char* const loop_nm[3] = {"mma_sync", "wgmma", "halo"};
    const int wg = wgmma_here();
    int halo_runs = 0, nofill_runs = 0, sector_runs = 0;
    for (int k = 0; k < 17; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        d->conv.batch = 2;
        d->conv.in_channels = 32;
        d->conv.out_channels = k % 3 == 0 ? 70 : 24;
        d->conv.in_size[0] = 3 + k % 2;
        d->conv.in_size[1] = 5;
        d->conv.in_size[2] = 7 + k % 3;
        for (int i = 0; i < 3; i++) {
            d->conv.kernel[i] = 3;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = k >= 6 ? 0 : 1;
            d->conv.dilation[i] = 2;
        }
        d->layout = k % 4 == 3 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        d->dtype = k == 11 ? FC3D_DTYPE_F16 : FC3D_DTYPE_F32;
        d->math = k % 3 == 0 ? FC3D_MATH_TF32 : k % 3 == 1 ? FC3D_MATH_HALF : FC3D_MATH_FP32;
        if (k % 3 >= 1) {
            d->ops[0].kind = (k / 3) % 2 ? FC3D_OP_GELU : FC3D_OP_RELU;
            d->num_ops = 1;
        }
        if (k % 3 == 2) {
            d->ops[1].kind = FC3D_OP_SCALE;
            d->ops[1].value = 0.5f;
            d->num_ops = 2;
        }
        if (k == 12 || k == 13) { /* D: kernel 3, padding 0, dilation 4 over one input plane (output planes 2 and 6 of
                          residue 0's 0, 2, .., 8 out of any input's reach) or 6 over two (planes 4
                          and 10 of 0, 2, .., 14) */
            d->conv.in_size[0] = k - 11;
            d->conv.in_size[1] = 16;
            d->conv.in_size[2] = 40;
            d->conv.dilation[0] = k == 12 ? 4 : 6;
            d->conv.padding[0] = 0;
            d->layout = FC3D_LAYOUT_NCDHW;
            d->dtype = FC3D_DTYPE_F32;
            d->math = k == 12 ? FC3D_MATH_TF32 : FC3D_MATH_HALF;
            d->num_ops = k == 12 ? 0 : 1; /* (k 13: its ReLU from above) */
        }
        if (k == 14 || k == 15) { /* 14: D at stride 1 (kernel 3, padding 1); 15: H at kernel 4, padding 1, dilation 1
                          (both H residues tapped: a quarter of y tapped, the fill stays) */
            const int dim = k == 14 ? 0 : 1;
            d->conv.kernel[dim] = k == 14 ? 3 : 4;
            d->conv.stride[dim] = k == 14 ? 1 : 2;
            d->conv.padding[dim] = 1;
            d->conv.dilation[dim] = 1;
            d->conv.in_size[2] = 11;
            d->layout = FC3D_LAYOUT_NCDHW;
            d->dtype = FC3D_DTYPE_F32;
            d->math = k == 14 ? FC3D_MATH_TF32 : FC3D_MATH_FP32;
        }
        if (k == 16) { /* L1/77 (PROBLEMS.md) at N 1, D 2 */
            d->conv.batch = 1;
            d->conv.out_channels = 64;
            d->conv.in_size[0] = 2;
            d->conv.in_size[1] = d->conv.in_size[2] = 32;
            for (int i = 0; i < 3; i++) d->conv.padding[i] = 1;
            d->layout = FC3D_LAYOUT_NCDHW;
            d->dtype = FC3D_DTYPE_F32;
            d->math = FC3D_MATH_TF32;
            d->num_ops = 0;
        }
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        char name[160];
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            snprintf(name, sizeof name, "zero_fill.%02d.plan", k);
            check(0, name, "%s", hc.plan.message);
            continue;
        }
        int zf = 0;
        for (int i = 0; i < hc.plan._private.num_steps; i++)
            zf |= hc.plan._private.steps[i].kind == _FC3D_STEP_TC_CONV && hc.plan._private.steps[i].arg[5] != 0;
        snprintf(name, sizeof name, "zero_fill.%02d.planned", k);
        check(zf, name, "the plan does not zero-fill its tap-less phases");
        if (k == 12 || k == 13) { /* the haloed tiles of its tapped phases include some that no tap reaches */
            fc3d_plan_desc dh = *d;
            dh.main_loop = FC3D_MAIN_LOOP_HALO;
            fc3d_plan ph;
            int idle = -1;
            if (fc3d_plan_init(&ph, &dh) == FC3D_SUCCESS) {
                const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)ph._private.engine_data.bytes;
                if (tp->hx_ok) {
                    _fc3d_tc_kparams P = _fc3d_hx_run<float>::params(tp, tp->kp, 0);
                    P.skip0 = 1;
                    idle = 0;
                    for (int64_t t = 0; t < P.hx_zcls_start[8]; t++) idle += _fc3d_hx_tile_of(P, t).nseg == 0;
                }
            }
            snprintf(name, sizeof name, "zero_fill.%02d.idle_tiles", k);
            check(idle > 0, name, "%d of the tapped phases' haloed tiles reach no input (-1: no haloed plan)", idle);
        }
        int nofill = 0, sectors = 0;
        if (d->layout == FC3D_LAYOUT_NCDHW && d->dtype == FC3D_DTYPE_F32) { /* the haloed plan takes no fill */
            fc3d_plan_desc dh = *d;
            dh.main_loop = FC3D_MAIN_LOOP_HALO;
            fc3d_plan ph;
            int got = -1;
            if (fc3d_plan_init(&ph, &dh) == FC3D_SUCCESS) {
                const _fc3d_tc_kparams& kp = ((const _fc3d_tc_plan*)ph._private.engine_data.bytes)->kp;
                got = _fc3d_hx_zc_geom(kp);
                /* and its tiles' runs in whole sectors (_fc3d_zero_run_sectors: H stride 2 with odd
                   rows tapped, W of 8 or more) */
                sectors = got == 1 && kp.s[1] == 2 && (kp.rtap[1] & 3u) == 2u && kp.out[2] >= 8;
            }
            nofill = k != 15;
            snprintf(name, sizeof name, "zero_fill.%02d.%s", k, nofill ? "no_fill" : "fill");
            check(got == nofill, name, "the haloed plan's tiles store the tap-less positions: %d (-1: no haloed plan)", got);
            if (k == 16 && wg && got == 1) { /* the weight slots its launch takes */
                const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)ph._private.engine_data.bytes;
                _fc3d_tc_kparams P = _fc3d_hx_run<float>::params(tp, tp->kp, 0);
                P.skip0 = P.hx_zc = 1;
                int nb = 0;
                snprintf(name, sizeof name, "zero_fill.%02d.weight_slots", k);
#if _FC3D_HX_TF32_F16
                /* TF32 runs the half kernels (_FC3D_HX_TF32_F16), whose operands take half the
                   shared memory: the launch takes one slot fewer only where that lets a second
                   CTA onto the SM; either way two CTAs an SM */
                typedef _fc3d_hx_cfg<_FC3D_TC_HALF, 64, 32> HC;
                cudaError_t e = _fc3d_hx_run<float>::slots<_FC3D_TC_HALF, 64, 32>(P, &nb);
                auto k4 = _fc3d_hx_main<float, _FC3D_TC_HALF, 64, 32, false, _fc3d_tc_epi>;
                auto k3 = _fc3d_hx_main<float, _FC3D_TC_HALF, 64, 32, false, _fc3d_tc_epi, _FC3D_HX_ZC_NB>;
                int occ = 0;
                if (e == cudaSuccess)
                    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, nb == _FC3D_HX_ZC_NB ? k3 : k4, HC::NT,
                                                                      _fc3d_hx_smem(P, _FC3D_TC_HALF, 32, 64, 0, nb));
                check(e == cudaSuccess && _fc3d_hx_math(tp) == _FC3D_TC_HALF && tp->hx_bn == 64 && P.hx_kc == 32 &&
                          (nb == _FC3D_HX_ZC_NB || nb == _FC3D_HX_NB) && occ >= 2,
                      name, "%d weight slots (%s), %d CTAs an SM, %d-channel tiles, units of %d", nb,
                      cudaGetErrorString(e), occ, tp->hx_bn, P.hx_kc);
#else
                const cudaError_t e = _fc3d_hx_run<float>::slots<_FC3D_TC_TF32, 64, 32>(P, &nb);
                check(e == cudaSuccess && tp->hx_bn == 64 && P.hx_kc == 32 && nb == _FC3D_HX_ZC_NB, name,
                      "%d weight slots (%s), %d-channel tiles, units of %d", nb, cudaGetErrorString(e), tp->hx_bn, P.hx_kc);
#endif
            }
        }
        const fc3d_plan* p = &hc.plan;
        hc.x = alloc_fill(p->x_elements, 0.0, 1.0, d->dtype);
        const double bound = 1.0 / sqrt((double)p->weight_elements / d->conv.in_channels + 1.0);
        hc.w = alloc_fill(p->weight_elements, -bound, bound, d->dtype);
        random_op_tensors(&hc);
        for (int l = 0; l < 3; l++) {
            if (l > 0 && !wg) continue;
            if (l == 2 && d->dtype != FC3D_DTYPE_F32) continue; /* the haloed loop's */
            snprintf(name, sizeof name, "zero_fill.%02d.%s.%s.%s.ops%d", k, loop_nm[l],
                     d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw", d->dtype == FC3D_DTYPE_F16 ? "f16" : "f32",
                     d->num_ops);
            const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                          2.0 * bound_for(d->math, d->dtype), FC3D_MAIN_LOOP_AUTO, loops[l]);
            if (r == -1) check(0, name, "the loop refused the desc");
            halo_runs += l == 2;
            nofill_runs += l == 2 && nofill;
            if (l == 2 && nofill && sectors && r == 1) {
                /* again with y 4 bytes past its allocation's start, so that its first run starts
                   inside a sector and its last ends inside one */
                sector_runs++;
                snprintf(name, sizeof name, "zero_fill.%02d.halo.sectors.y_shift4", k);
                cmp_y_shift = 4;
                compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                2.0 * bound_for(d->math, d->dtype), FC3D_MAIN_LOOP_AUTO, loops[l]);
                cmp_y_shift = 0;
            }
        }
        host_case_free(&hc);
    }
    if (wg) check(halo_runs >= 4, "zero_fill.halo_exercised", "%d cases on the haloed loop", halo_runs);
    if (wg) check(nofill_runs >= 8, "zero_fill.no_fill_exercised", "%d cases on the haloed loop with no fill", nofill_runs);
    if (wg) check(sector_runs >= 3, "zero_fill.sectors_exercised", "%d cases on the haloed loop storing whole sectors",
                  sector_runs);
}

/* A planned case (hc->plan from hc->desc) with x uniform [x_lo, x_hi) (default [0, 1)), PyTorch's
   default weight init times w_scale, a bias in the same bound times x_hi, and random op tensors,
   forced onto the haloed loop and compared with the direct engine within twice the math mode's
   bound. 1 where the haloed loop ran it (a refusal is a failure). */
static int halo_vs_direct(const char* name, host_case* hc, double x_lo = 0.0, double x_hi = 1.0, double w_scale = 1.0) {
    const fc3d_plan* p = &hc->plan;
    const fc3d_plan_desc* d = &hc->desc;
    hc->x = alloc_fill(p->x_elements, x_lo, x_hi, d->dtype);
    const double bound = 1.0 / sqrt((double)p->weight_elements / d->conv.in_channels + 1.0) * w_scale;
    hc->w = alloc_fill(p->weight_elements, -bound, bound, d->dtype);
    if (d->conv.bias) hc->b = alloc_fill(d->conv.out_channels, -bound * x_hi, bound * x_hi, d->dtype);
    random_op_tensors(hc);
    const int r = compare_engines(name, hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                  2.0 * bound_for(d->math, d->dtype), FC3D_MAIN_LOOP_AUTO, FC3D_MAIN_LOOP_HALO);
    if (r == -1) check(0, name, "the haloed loop refused the desc");
    return r != -1;
}

/* L2/61's convolution at a small size (2 samples, 32 input channels, kernel 3, stride 1, no padding),
   cout output channels, input D x H x W: the haloed loop takes it in every math mode */
static void halo_small_conv(fc3d_plan_desc* d, int cout, int in_d, int in_h, int in_w) {
    d->conv.batch = 2;
    d->conv.in_channels = 32;
    d->conv.out_channels = cout;
    d->conv.in_size[0] = in_d;
    d->conv.in_size[1] = in_h;
    d->conv.in_size[2] = in_w;
    for (int i = 0; i < 3; i++) {
        d->conv.kernel[i] = 3;
        d->conv.stride[i] = d->conv.dilation[i] = 1;
    }
}

/* Whether the haloed loop is missing on this device with this binary (test `name` says it skips) */
static int no_halo(const char* name) {
    if (wgmma_here()) return 0;
    printf("# %s: skipped, no haloed loop on this device with this binary\n", name);
    return 1;
}

/* L2/34's pattern at a small size (2 samples, 32 -> 64 channels, kernel 4, stride 2, padding 1,
   input 4 x 5 x 16 -> W 32): the haloed loop's warp-specialized row tiles take it (TF32, half) */
static void halo_row_conv(fc3d_plan_desc* d) {
    d->conv.batch = 2;
    d->conv.in_channels = 32;
    d->conv.out_channels = 64;
    for (int i = 0; i < 3; i++) {
        d->conv.in_size[i] = i == 2 ? 16 : 4 + i;
        d->conv.kernel[i] = 4;
        d->conv.stride[i] = 2;
        d->conv.padding[i] = d->conv.dilation[i] = 1;
    }
}

/* ---- 3a'. statistics after elementwise ops on the haloed loop ----------------------------------- */
/* L2/61's pattern (kernel 3, stride 1, no padding; ReLU then GroupNorm) at small sizes with partial
   tiles: the haloed NCDHW epilogue gathers the statistics of the ops before the cut, one lone ReLU
   taking the epilogue's straight path and (ReLU, scale) the op loop; GroupNorm and a training
   BatchNorm, 48 and 128 channels, FP32, TF32 and half math, each plan forced onto the haloed loop,
   materializing with statistics per op, against the direct engine within twice the math mode's
   bound (y poisoned before every run). Needs the haloed loop: nothing runs where this binary or
   device has none (the count line says so). */
static void test_halo_stats_ops(void) {
    if (no_halo("halo_stats_ops")) return;
    int runs = 0;
    for (int k = 0; k < 8; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        halo_small_conv(d, k % 2 ? 128 : 48, 4 + k % 2, 6, 7 + k % 3);
        d->conv.bias = k % 4 == 1;
        d->math = (fc3d_math)(FC3D_MATH_FP32 + k % 3);
        int o = 0;
        d->ops[o++].kind = FC3D_OP_RELU;
        if (k >= 4) {
            d->ops[o].kind = FC3D_OP_SCALE;
            d->ops[o++].value = 0.5f;
        }
        if (k % 3 == 2) {
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
            d->ops[o].momentum = 0.1f;
        } else {
            d->ops[o].kind = FC3D_OP_GROUPNORM;
            d->ops[o].groups = 8;
            d->ops[o].flags = FC3D_OP_AFFINE;
        }
        d->ops[o++].eps = 1e-5f;
        d->num_ops = o;
        d->strategy = FC3D_STRATEGY_MATERIALIZE;
        d->stats_plan = FC3D_STATS_PLAN_PER_OP;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        char name[160];
        snprintf(name, sizeof name, "halo_stats_ops.%d.%s.c%d.%s%s", k,
                 d->math == FC3D_MATH_HALF ? "half" : d->math == FC3D_MATH_FP32 ? "fp32" : "tf32",
                 d->conv.out_channels, o == 3 ? "relu_scale_" : "relu_", k % 3 == 2 ? "bn_train" : "groupnorm");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        runs += halo_vs_direct(name, &hc);
        host_case_free(&hc);
    }
    check(runs == 8, "halo_stats_ops.exercised", "%d of 8 cases ran on the haloed loop", runs);
}

/* ---- 3a''. FP32 and TF32 math on the haloed loop at extreme magnitudes ----------------------- */
/* The haloed loop holds 3xTF32's big and small parts as f16, and TF32's operands too (its f16 path,
   _FC3D_HX_TF32_F16), x and the weight each scaled by a power of two per run so that its largest
   finite magnitude lands in [2^14, 2^15) (_fc3d_hx_x3_scales). Unscaled, these inputs would
   overflow f16 (x up to 4e5), fall below its normal range (x under 1e-6, weights near 1e-6) or
   both (x near 1e-20 with weights near 1e+20); the convolution alone (any scale left in the sums
   shows), with and without a bias, NCDHW and NDHWC, FP32 and TF32 math forced onto the haloed
   loop's phase tiles, and for TF32 two convolutions alone at W stride 2 on its warp-specialized
   row tiles (_fc3d_hx_ws_takes: the other kernel that unscales). TF32 holds x as it is where its
   largest magnitude lies in [2^-4, 2^15) (_fc3d_hx_x_as_is): four more TF32 cases on either side
   of both ends, x in [0, 1.2e4) and [-0.07, 0.07) held as they are (3xTF32's scale would be 2 and
   2^18: a scale left in the sums shows), [0, 4e4) and [0, 0.05) copied again at their scales.
   Every case against the direct engine within twice the math mode's bound (y poisoned before
   every run). Needs the haloed loop. */
static void test_halo_fp32_range(void) {
    if (no_halo("halo_fp32_range")) return;
    static const double xs[4] = {4e5, 1e-6, 1e-20, 1.0}, ws[4] = {1.0, 1e-3, 1e20, 1e4};
    /* the ends of the range TF32 holds as it is: x's (lo, hi) */
    static const double edge[4][2] = {{0.0, 1.2e4}, {-0.07, 0.07}, {0.0, 4e4}, {0.0, 0.05}};
    int runs = 0, rows = 0;
    for (int k = 0; k < 14; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int j = k % 4, row = k == 8 || k == 9, tf32 = k >= 4, ed = k >= 10;
        const double x_lo = ed ? edge[k - 10][0] : j == 2 ? -xs[j] : 0.0, x_hi = ed ? edge[k - 10][1] : xs[j],
                     w_sc = ed ? 1.0 : ws[j];
        if (row) {
            halo_row_conv(d);
        } else {
            halo_small_conv(d, j % 2 ? 128 : 48, 4, 6 + j % 2, 9);
        }
        d->conv.bias = j % 2 == 0;
        d->layout = j >= 2 && !row ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        d->math = tf32 ? FC3D_MATH_TF32 : FC3D_MATH_FP32;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        char name[160];
        snprintf(name, sizeof name, "halo_%s_range.%d.x%.1e.w%.0e.c%d%s.%s%s", tf32 ? "tf32" : "fp32", k, x_hi, w_sc,
                 d->conv.out_channels, d->conv.bias ? ".bias" : "", d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw",
                 row ? ".row_tiles" : "");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        if (tf32) check(tp->kp.hx_t32 == _FC3D_HX_TF32_F16, name, "TF32 on the f16 path: %d", tp->kp.hx_t32);
        if (row) {
            rows += _fc3d_hx_ws_takes(tp);
            check(_fc3d_hx_ws_takes(tp), name, "the warp-specialized row tiles take it");
        }
        runs += halo_vs_direct(name, &hc, x_lo, x_hi, w_sc);
        host_case_free(&hc);
    }
    check(runs == 14 && rows == 2, "halo_fp32_range.exercised",
          "%d of 14 cases ran on the haloed loop, %d of 2 on its warp-specialized row tiles", runs, rows);
}

/* ---- 3a''b. the haloed prep step's two index decodings -------------------------------------- */
/* The prep step (operand copy of x, weight pieces, the fix-up copy of TF32's x at its scale)
   decodes its indices in 32 bits where every index stays under 2^31 (_fc3d_hx_pdiv) and in 64
   bits otherwise; tensors that large are out of a test's reach, so kp.hx_wide forces the 64-bit
   decoding on plan b. TF32 NCDHW (x held as it is) and NDHWC (x at 4e5: the fix-up copy), half
   with 128-channel tiles, FP32 (3xTF32's two parts) NDHWC, TF32 on the row tiles: each run both
   ways on the same inputs, y bitwise equal. Needs the haloed loop. */
static void test_halo_prep_wide(void) {
    if (no_halo("halo_prep_wide")) return;
    int runs = 0;
    for (int k = 0; k < 5; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        if (k == 4) {
            halo_row_conv(d);
        } else {
            halo_small_conv(d, k == 2 ? 128 : 48, 4 + k % 2, 6, 7 + k);
        }
        d->conv.bias = k % 2 == 0;
        d->layout = k == 1 || k == 3 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        d->math = k == 2 ? FC3D_MATH_HALF : k == 3 ? FC3D_MATH_FP32 : FC3D_MATH_TF32;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        char name[160];
        snprintf(name, sizeof name, "halo_prep_wide.%d.%s.%s.c%d%s", k, _fc3d_math_name((int)d->math),
                 d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw", d->conv.out_channels, k == 4 ? ".row_tiles" : "");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        const double xh = k == 1 ? 4e5 : 1.0;
        hc.x = alloc_fill(hc.plan.x_elements, 0.0, xh, d->dtype);
        const double bound = 1.0 / sqrt((double)hc.plan.weight_elements / d->conv.in_channels + 1.0);
        hc.w = alloc_fill(hc.plan.weight_elements, -bound, bound, d->dtype);
        if (d->conv.bias) hc.b = alloc_fill(d->conv.out_channels, -bound * xh, bound * xh, d->dtype);
        prep_wide_b = 1;
        const int r = compare_engines(name, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM, 0.0,
                                      FC3D_MAIN_LOOP_HALO, FC3D_MAIN_LOOP_HALO);
        prep_wide_b = 0;
        if (r == -1) check(0, name, "the haloed loop refused the desc");
        runs += r == 1;
        host_case_free(&hc);
    }
    check(runs == 5, "halo_prep_wide.exercised", "%d of 5 cases agreed bitwise on the haloed loop", runs);
}

/* ---- 3a''b'. short-K 64-channel haloed tiles --------------------------------------------------- */
/* More than 64 output channels and a short K (C_in / groups x a phase's taps under
   _FC3D_HX_SHORT_K: L2/61's pattern, 32 input channels, kernel 3): the plan takes 64-channel tiles
   (kp.hx_short), and their launch one weight slot fewer where that lets a second CTA onto an SM
   (two CTAs an SM either way); kernel 5 (K 4,000) keeps 128-channel tiles. Conv alone, ReLU and
   GroupNorm (statistics partials per 64-channel tile), a training BatchNorm, TF32 and half, NCDHW
   and NDHWC, forced onto the haloed loop, against the direct engine within twice the math mode's
   bound (y poisoned before every run). */
static void test_halo_short_k(void) {
    if (no_halo("halo_short_k")) return;
    int runs = 0;
    for (int k = 0; k < 6; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int longk = k == 5;
        halo_small_conv(d, k == 2 ? 96 : 128, 5 + k % 2, 7, 9 + k);
        if (longk)
            for (int i = 0; i < 3; i++) d->conv.kernel[i] = 5;
        d->conv.bias = k % 2;
        d->math = k % 2 ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        d->layout = k == 3 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        int o = 0;
        if (k == 1 || k == 2) {
            d->ops[o++].kind = FC3D_OP_RELU;
            d->ops[o].kind = FC3D_OP_GROUPNORM;
            d->ops[o].groups = 8;
            d->ops[o].flags = FC3D_OP_AFFINE;
            d->ops[o++].eps = 1e-5f;
        } else if (k == 4) {
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
            d->ops[o].momentum = 0.1f;
            d->ops[o++].eps = 1e-5f;
        }
        d->num_ops = o;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        char name[160];
        snprintf(name, sizeof name, "halo_short_k.%d.%s.c%d.k%d.%s%s", k, _fc3d_math_name((int)d->math),
                 d->conv.out_channels, d->conv.kernel[0], d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw",
                 k == 1 || k == 2 ? ".relu_groupnorm" : k == 4 ? ".bn_train" : "");
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        _fc3d_tc_kparams P = _fc3d_hx_run<float>::params(tp, tp->kp, 0);
        int nb = 0, occ = 0;
        cudaError_t e = cudaSuccess;
        if (!longk && P.hx_kc == 32) { /* (TF32 and half both run the half kernels: _FC3D_HX_TF32_F16) */
            typedef _fc3d_hx_cfg<_FC3D_TC_HALF, 64, 32> HC;
            e = _fc3d_hx_run<float>::slots<_FC3D_TC_HALF, 64, 32>(P, &nb);
            auto k4 = _fc3d_hx_main<float, _FC3D_TC_HALF, 64, 32, false, _fc3d_tc_epi>;
            auto k3 = _fc3d_hx_main<float, _FC3D_TC_HALF, 64, 32, false, _fc3d_tc_epi, _FC3D_HX_ZC_NB>;
            if (e == cudaSuccess)
                e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, nb == _FC3D_HX_ZC_NB ? k3 : k4, HC::NT,
                                                                  _fc3d_hx_smem(P, _FC3D_TC_HALF, 32, 64, 0, nb));
        }
        check(longk ? !P.hx_short && tp->hx_bn == 128
                    : P.hx_short && tp->hx_bn == 64 && P.hx_kc == 32 && e == cudaSuccess &&
                          (nb == _FC3D_HX_ZC_NB || nb == _FC3D_HX_NB) && occ >= 2,
              name, "short K %d, %d-channel tiles, units of %d, %d weight slots (%s), %d CTAs an SM", P.hx_short,
              tp->hx_bn, P.hx_kc, nb, cudaGetErrorString(e), occ);
        runs += halo_vs_direct(name, &hc);
        host_case_free(&hc);
    }
    check(runs == 6, "halo_short_k.exercised", "%d of 6 cases ran on the haloed loop", runs);
}

/* ---- 3a''c. the block loop's f16 operands at extreme magnitudes -------------------------------- */
/* The block loop holds TF32's operands as f16 where C_in is a multiple of 16 (_FC3D_BK_F16): the
   weight scaled by a power of two per run, each input block as it is where its largest magnitude
   lies in [2^-4, 2^15) (_fc3d_hx_x_as_is) and else converted again at its own power of two, the
   sums multiplied back in the epilogue (in two products where one would leave float's range). On
   L2/15's pattern at a small size (kernel 3, stride 2, padding 1; 2 samples of 4 x 6 x 16, 32
   output channels; C_in 16, and 32 at kernel 2 without padding, on f16; 8 on TF32's own operands), TF32 forced onto the block
   loop: x in [0, 4e5) (every block converted again), [0, 1e-6) with weights near 1e-6, x and weights
   near 1e-15 (the two products), the ends of the range held as it is ([0, 1.2e4) and [-0.07, 0.07)
   as they are, [0, 4e4) and [0, 0.05) converted again), one sample in [0, 0.05) and the other in
   [0, 1) (blocks of both kinds in one run, sample 0's values a twentieth of sample 1's: a scale
   left in either shows), a bias or none, the convolution alone, with a training BatchNorm after
   it (the statistics from the unscaled sums) and with an affine chain (the pairs' maps); and x in
   [0, 1) with one +infinity in sample 1 (that block's largest finite magnitude found apart: the
   outputs it reaches non-finite in both engines, the rest compared). Each against the direct
   engine within twice TF32's bound (y poisoned before every run); each case on f16 operands also
   in half math, the block loop against the direct engine within FP32's bound (both round x and the
   weight to f16 as they are: past 65504 infinite, under 2^-14 on f16's subnormal step; the
   non-finite outputs compared by position). */
/* Constant channels (test_block_loop_constant, test_constant_channels_loops): the chain's tail from
   op o on - a training BatchNorm, then a GroupNorm of C_out / 2 groups (eps 1e-3), both affine -
   under the moments plan (materialised, TF32, the implicit-GEMM engine). */
static void constant_chain(fc3d_plan_desc* d, int o) {
    d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
    d->ops[o++].flags = FC3D_OP_AFFINE;
    d->ops[o].kind = FC3D_OP_GROUPNORM;
    d->ops[o].groups = d->conv.out_channels / 2;
    d->ops[o].eps = 1e-3f;
    d->ops[o++].flags = FC3D_OP_AFFINE;
    d->num_ops = o;
    d->math = FC3D_MATH_TF32;
    d->strategy = FC3D_STRATEGY_MATERIALIZE;
    d->stats_plan = FC3D_STATS_PLAN_MOMENTS;
    d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
}

/* hc's tensors filled (x = 0 and the bias in [1, 3) where x0: every channel constant) and its plan
   run against the float64 CPU reference at twice TF32's bound; 1 when within it. */
static int constant_vs_cpu(const char* name, host_case* hc, int x0) {
    fill_case_tensors(hc);
    if (x0) {
        for (int64_t i = 0; i < hc->plan.x_elements; i++) hc->x[i] = 0.0;
        for (int i = 0; i < hc->plan.desc.conv.out_channels; i++) hc->b[i] = (double)(float)(1.0 + 2.0 * rng_unit());
    }
    return check_vs_cpu(name, hc, 2.0 * bound_for(FC3D_MATH_TF32, FC3D_DTYPE_F32));
}

/* Constant channels under the moments plan, on the block loop: every output of a channel is the
   bias through the ops (a convolution whose outputs all lie where no tap reaches, or x = 0), so a
   training BatchNorm's variance is 0 and a GroupNorm after it sees the BatchNorm's betas alone.
   The moments plan derives the GroupNorm's statistics from the BatchNorm's variance scaled by
   1 / (var + eps): float sums of the values themselves left ~1e-7 of the mean squared there, which
   the GroupNorm took as signal (relative L2 0.037 against the direct engine on case 0's desc). The
   block loop's sums are shifted by the tap-less value (_fc3d_bk_sums). Each case against the
   float64 CPU reference and the direct engine, at TF32's bound, on the block loop's epilogues:
   0 one W phase with ops resolved per block (GELU, AddChannel), every output tap-less; 1 both W
   phases, no ops; 2 both W phases through the composed map (Scale); 3 one W phase of W stride 2
   with a GELU; 4 one W phase (W stride 3), no ops. Cases 1-4: x = 0, the bias in [1, 3). */
static void test_block_loop_constant(void) {
    int runs = 0;
    for (int k = 0; k < 5; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        fc3d_conv_desc* c = &d->conv;
        c->batch = k == 0 ? 1 : 2;
        c->bias = 1;
        if (k == 0) { /* the desc random tests drew: D's only tap lands past the output */
            const int in[3] = {2, 2, 3}, ke[3] = {1, 2, 1}, st[3] = {3, 2, 3}, pa[3] = {1, 2, 2}, op[3] = {0, 0, 2},
                      dl[3] = {1, 2, 2};
            c->in_channels = 32;
            c->out_channels = 58;
            for (int i = 0; i < 3; i++) {
                c->in_size[i] = in[i];
                c->kernel[i] = ke[i];
                c->stride[i] = st[i];
                c->padding[i] = pa[i];
                c->output_padding[i] = op[i];
                c->dilation[i] = dl[i];
            }
        } else {
            c->in_channels = 16;
            c->out_channels = 32;
            for (int i = 0; i < 3; i++) {
                c->in_size[i] = i == 2 ? 12 : 4;
                c->kernel[i] = 3;
                c->stride[i] = k == 4 && i == 2 ? 3 : 2;
                c->padding[i] = 1;
                c->dilation[i] = 1;
            }
        }
        int o = 0;
        if (k == 0) {
            d->ops[o++].kind = FC3D_OP_GELU;
            d->ops[o++].kind = FC3D_OP_ADD_CHANNEL;
        } else if (k == 2) {
            d->ops[o].kind = FC3D_OP_SCALE;
            d->ops[o++].value = 1.5f;
        } else if (k == 3) {
            d->ops[o++].kind = FC3D_OP_GELU;
        }
        constant_chain(d, o);
        d->main_loop = FC3D_MAIN_LOOP_BLOCK;
        char name[120];
        snprintf(name, sizeof name, "block_loop_constant.%d.%s", k,
                 k == 0 ? "tapless.gelu_addch" : k == 1 ? "x0.pairs" : k == 2 ? "x0.pairs_scale"
                 : k == 3 ? "x0.gelu" : "x0.ws3");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->engine = FC3D_ENGINE_AUTO;
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        if (!check(fc3d_plan_main_loop(&hc.plan) == FC3D_MAIN_LOOP_BLOCK, name, "the block loop takes it (loop %d)",
                   (int)fc3d_plan_main_loop(&hc.plan))) {
            host_case_free(&hc);
            continue;
        }
        runs += constant_vs_cpu(name, &hc, k > 0);
        char cname[160];
        snprintf(cname, sizeof cname, "%s.vs_direct", name);
        if (compare_engines(cname, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                            2.0 * bound_for(FC3D_MATH_TF32, FC3D_DTYPE_F32), FC3D_MAIN_LOOP_AUTO,
                            FC3D_MAIN_LOOP_BLOCK) == -1)
            check(0, cname, "a plan refused the desc");
        host_case_free(&hc);
    }
    check(runs == 5, "block_loop_constant.exercised", "%d of 5 cases ran on the block loop within the bound", runs);
}

/* Constant channels (x = 0, the bias in [1, 3)) under the moments plan, training BatchNorm then
   GroupNorm, on the tiled loops, the haloed loop and the warp-row loop forced
   (test_block_loop_constant's property): k3 s2 p1, C_in 16 (the haloed loop 32), C_out 32; 0 no op
   before the BatchNorm, 1 output padding 1, 2 a GELU before it (the warp-row loop's LIST ops, the
   haloed loop's ops through apply_nc_regs). Against the float64 CPU reference at twice TF32's
   bound; the sm_90a loops where the device runs them. */
static void test_constant_channels_loops(void) {
    const int loops[4] = {FC3D_MAIN_LOOP_MMA_SYNC, FC3D_MAIN_LOOP_WGMMA, FC3D_MAIN_LOOP_HALO, FC3D_MAIN_LOOP_WARP_ROWS};
    int runs = 0, want = 0;
    for (int li = 0; li < 4; li++) {
        const int halo = loops[li] == FC3D_MAIN_LOOP_HALO;
        if ((loops[li] == FC3D_MAIN_LOOP_WGMMA || halo) && !wgmma_here()) continue;
        for (int k = 0; k < 3; k++) {
            host_case hc;
            memset(&hc, 0, sizeof hc);
            fc3d_plan_desc* d = &hc.desc;
            fc3d_conv_desc* c = &d->conv;
            c->batch = 2;
            c->bias = 1;
            c->in_channels = halo ? 32 : 16; /* (the haloed loop: C_in a multiple of 32) */
            c->out_channels = 32;
            for (int i = 0; i < 3; i++) {
                c->in_size[i] = i == 2 ? 16 : 8;
                c->kernel[i] = 3;
                c->stride[i] = 2;
                c->padding[i] = 1;
                c->output_padding[i] = k == 1 ? 1 : 0;
                c->dilation[i] = 1;
            }
            int o = 0;
            if (k == 2) d->ops[o++].kind = FC3D_OP_GELU;
            constant_chain(d, o);
            d->main_loop = (fc3d_main_loop)loops[li];
            char name[120];
            static const char* const lname[4] = {"mma_sync", "wgmma", "halo", "warp_rows"};
            snprintf(name, sizeof name, "constant_channels.%s.%d", lname[li], k);
            want++;
            if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS || fc3d_plan_main_loop(&hc.plan) != loops[li]) {
                check(0, name, "the loop does not take the desc: %s", hc.plan.message);
                continue;
            }
            runs += constant_vs_cpu(name, &hc, 1);
            host_case_free(&hc);
        }
    }
    check(runs == want && want >= 6, "constant_channels.exercised", "%d of %d cases within the bound", runs, want);
}

static void test_block_loop_range(void) {
    static const double xr[8][2] = {{0.0, 4e5}, {0.0, 1e-6}, {-1e-15, 1e-15}, {0.0, 1.2e4},
                                    {-0.07, 0.07}, {0.0, 4e4}, {0.0, 0.05}, {0.0, 1.0}};
    static const double wsc[8] = {1.0, 1e-6 * 20.0, 1e-15 * 20.0, 1.0, 1.0, 1.0, 1.0, 1.0};
    int runs = 0, f16 = 0, halves = 0;
    for (int k = 0; k < 12; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int j = k < 8 ? k : 7, mixed = k == 7 || k == 9, inf = k == 10;
        d->conv.batch = 2;
        d->conv.in_channels = k == 8 ? 32 : k == 11 ? 8 : 16;
        d->conv.out_channels = 32;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = i == 0 ? 4 : i == 1 ? 6 : 16;
            d->conv.kernel[i] = k == 8 ? 2 : 3;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = k == 8 ? 0 : 1;
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = k % 2 == 0;
        d->math = FC3D_MATH_TF32;
        if (k == 8 || k == 9) { /* a training BatchNorm: statistics from the unscaled sums */
            d->ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[0].flags = FC3D_OP_AFFINE;
            d->num_ops = 1;
        } else if (k == 11 || k == 6) { /* an affine chain: the pairs' maps */
            d->ops[0].kind = FC3D_OP_SCALE;
            d->ops[0].value = 2.0f;
            d->ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
            d->num_ops = 2;
        }
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_BLOCK;
        char name[200];
        snprintf(name, sizeof name, "block_loop_range.%d.cin%d.x%.2g_%.2g%s.w%.0e%s%s%s", k, d->conv.in_channels,
                 xr[j][0], xr[j][1], mixed ? ".mixed" : "", wsc[j], d->conv.bias ? ".bias" : "",
                 d->num_ops == 1 ? ".bn_train" : d->num_ops == 2 ? ".affine" : "", inf ? ".inf" : "");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        const int want_f16 = _FC3D_BK_F16 && d->conv.in_channels % 16 == 0;
        check(tp->bk_ok && tp->kp.bk_f16 == want_f16, name, "the block loop takes it (%d), f16 operands %d (want %d)",
              tp->bk_ok, tp->kp.bk_f16, want_f16);
        f16 += tp->bk_ok && tp->kp.bk_f16;
        const fc3d_plan* p = &hc.plan;
        hc.x = alloc_fill(p->x_elements, xr[j][0], xr[j][1], d->dtype);
        const int64_t per = p->x_elements / d->conv.batch;
        if (mixed)
            for (int64_t i = 0; i < per; i++) hc.x[i] = (double)(float)(hc.x[i] * 0.05); /* sample 0 in [0, 0.05) */
        if (inf) hc.x[per + per / 2 + 5] = INFINITY;
        const double bound = 1.0 / sqrt((double)p->weight_elements / d->conv.in_channels + 1.0) * wsc[j];
        hc.w = alloc_fill(p->weight_elements, -bound, bound, d->dtype);
        if (d->conv.bias) hc.b = alloc_fill(d->conv.out_channels, -bound * xr[j][1], bound * xr[j][1], d->dtype);
        random_op_tensors(&hc);
        cmp_nonfinite = inf;
        const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                      2.0 * bound_for(FC3D_MATH_TF32, FC3D_DTYPE_F32), FC3D_MAIN_LOOP_AUTO,
                                      FC3D_MAIN_LOOP_BLOCK);
        cmp_nonfinite = 0;
        if (inf)
            check(cmp_nonfinite_seen > 0 && cmp_nonfinite_seen < p->y_elements / 4, name,
                  "%lld of %lld outputs non-finite (the infinity's reach, in both engines)",
                  (long long)cmp_nonfinite_seen, (long long)p->y_elements);
        if (r == -1) check(0, name, "a plan refused the desc");
        runs += r != -1;
        if (tp->bk_ok && tp->kp.bk_f16) {
            /* half math on the block loop (x and the weight rounded to f16 as they are) against the
               direct engine in half math: the same operands, only the order of the float sums
               differs, so within FP32's bound; past 65504 both infinite at the same outputs */
            char hname[240];
            snprintf(hname, sizeof hname, "%s.half_vs_direct", name);
            d->math = FC3D_MATH_HALF;
            cmp_nonfinite = 1;
            const int rh = compare_engines(hname, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                           bound_for(FC3D_MATH_FP32, FC3D_DTYPE_F32), FC3D_MAIN_LOOP_AUTO,
                                           FC3D_MAIN_LOOP_BLOCK);
            cmp_nonfinite = 0;
            d->math = FC3D_MATH_TF32;
            if (rh == -1) check(0, hname, "half math refused on the block loop");
            halves += rh != -1;
        }
        host_case_free(&hc);
    }
    check(runs == 12 && f16 == (_FC3D_BK_F16 ? 11 : 0) && halves == f16, "block_loop_range.exercised",
          "%d of 12 cases ran on the block loop, %d with f16 operands, %d of them in half math as well", runs, f16,
          halves);
}

/* ---- 3a'''. plane-row tiles of the haloed loop ------------------------------------------------ */
/* Stride-1 shapes whose padded plane takes plane-row tiles (_fc3d_hx_tiling: a tile = a few whole
   rows of one padded plane, wgmma n240 or n256; halos shared between rows and planes, so a
   padded row is the input's W + k - 1): 8 rows of 30 at n240 (the plane's 8 output rows in one
   tile), 14 of 18 at n256, 5 of 50 at n256 over two tiles a plane, 13 of 18 at n240 where the
   plane's one tile is cut to its 12 rows, 4 of 62 at n256 over four tiles a plane. Conv alone,
   ops, a training BatchNorm and a GroupNorm (statistics partials per tile), NCDHW and NDHWC, FP32, TF32
   and half, forced onto the haloed loop, against the direct engine within twice the math mode's
   bound (y poisoned before every run); the plan must have taken plane-row tiles, both wgmma
   widths among the cases. */
static void test_halo_plane_rows(void) {
    if (no_halo("halo_plane_rows")) return;
    static const int shp[5][4] = {{4, 6, 28, 3}, {3, 10, 14, 5}, {2, 6, 46, 5}, {3, 8, 14, 5}, {3, 14, 60, 3}};
    int runs = 0, n240 = 0, n256 = 0;
    for (int k = 0; k < 10; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int* sh = shp[k % 5];
        d->conv.batch = 2;
        d->conv.in_channels = 32;
        d->conv.out_channels = k % 2 ? 128 : 48;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = sh[i];
            d->conv.kernel[i] = sh[3];
            d->conv.stride[i] = d->conv.dilation[i] = 1;
        }
        d->conv.bias = k % 3 != 2;
        d->math = (fc3d_math)(FC3D_MATH_FP32 + k % 3);
        d->layout = k % 4 == 3 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        int o = 0;
        const int chain = k % 4;
        if (chain == 1 || chain == 3) d->ops[o++].kind = FC3D_OP_RELU;
        if (chain == 1) {
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
            d->ops[o].momentum = 0.1f;
            d->ops[o++].eps = 1e-5f;
        } else if (chain == 2) {
            d->ops[o].kind = FC3D_OP_GROUPNORM;
            d->ops[o].groups = 8;
            d->ops[o].flags = FC3D_OP_AFFINE;
            d->ops[o++].eps = 1e-5f;
        } else if (chain == 3) {
            d->ops[o].kind = FC3D_OP_SCALE;
            d->ops[o++].value = 2.0f;
        }
        d->num_ops = o;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        char name[160];
        snprintf(name, sizeof name, "halo_plane_rows.%d.%s.c%d.%dx%dx%d_k%d.%s.%s", k,
                 d->math == FC3D_MATH_HALF ? "half" : d->math == FC3D_MATH_FP32 ? "fp32" : "tf32", d->conv.out_channels,
                 sh[0], sh[1], sh[2], sh[3],
                 d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw",
                 chain == 0 ? "conv" : chain == 1 ? "relu_bn_train" : chain == 2 ? "groupnorm" : "relu_scale");
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const fc3d_plan* p = &hc.plan;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p->_private.engine_data.bytes;
        check(tp->kp.hx_prows > 0, name, "plane-row tiles: %d rows of %d, n%d", tp->kp.hx_prows, tp->kp.hx_pad[2],
              tp->kp.hx_rn);
        n240 += tp->kp.hx_prows > 0 && tp->kp.hx_rn == 240;
        n256 += tp->kp.hx_prows > 0 && tp->kp.hx_rn == 256;
        runs += halo_vs_direct(name, &hc);
        host_case_free(&hc);
    }
    check(runs == 10 && n240 >= 2 && n256 >= 2, "halo_plane_rows.exercised",
          "%d of 10 cases ran on the haloed loop; plane-row tiles at n240 %d, at n256 %d", runs, n240, n256);
}

/* ---- 3a'''. chains without statistics on the haloed row tiles ---------------------------------- */
/* At W stride 2 a chain without statistics that the haloed loop takes (no block loop, no zero
   fill) stores from the haloed row tiles, both W phases of a row in one tile (tp->rows_store,
   _fc3d_tc_plan_of): L2/34-like shapes (k4 s2 p1, W 32 -> 64; k3 s2 p1 with output padding, an
   odd W and W phases of 1 and 2 taps), the convolution alone, with a GELU and a scale, with a
   ReLU; TF32 and half, NCDHW and NDHWC; each forced onto the haloed loop and compared with the
   direct engine within twice the math mode's bound (y poisoned before every run). Cases 6-9 are
   convolutions alone that the warp-specialized row tiles take (_fc3d_hx_ws_takes): W 32, 128, 64
   and 16, without a bias, 40 channels (a part tile), more tiles than SMs (a CTA's tile loop, its
   rings across tiles). */
static void test_halo_rows_store(void) {
    if (no_halo("halo_rows_store")) return;
    static const int ws_w[4] = {16, 64, 32, 8}, ws_c[4] = {64, 40, 128, 64};
    int runs = 0, ws = 0;
    for (int k = 0; k < 10; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int odd = k % 3 == 2 && k < 6, wsk = k >= 6;
        d->conv.batch = k == 8 ? 3 : 2;
        d->conv.in_channels = 32;
        d->conv.out_channels = wsk ? ws_c[k - 6] : k % 2 ? 96 : 64;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = wsk ? (i == 2 ? ws_w[k - 6] : k == 8 ? 8 * (i + 1) : 4 + i)
                                 : i == 2 ? (odd ? 29 : 32) : 4 + i;
            d->conv.kernel[i] = odd ? 3 : 4;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = 1;
            d->conv.output_padding[i] = odd && i == 1 ? 1 : 0;
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = k != 6;
        d->math = k % 2 ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        d->layout = k == 4 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        int o = 0;
        if (wsk) {
        } else if (k % 3 == 1) {
            d->ops[o++].kind = FC3D_OP_GELU;
            d->ops[o].kind = FC3D_OP_SCALE;
            d->ops[o++].value = 1.5f;
        } else if (k % 3 == 2) {
            d->ops[o++].kind = FC3D_OP_RELU;
        }
        d->num_ops = o;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        char name[160];
        snprintf(name, sizeof name, "halo_rows_store.%d.%s.c%d.w%d_k%d.%s.%s", k,
                 d->math == FC3D_MATH_HALF ? "half" : "tf32", d->conv.out_channels, d->conv.in_size[2],
                 d->conv.kernel[0], d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw",
                 k % 3 == 0 || wsk ? "conv" : k % 3 == 1 ? "gelu_scale" : "relu");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        check(tp->rows_store && tp->kp.hx_rows, name, "the haloed row tiles: rows_store %d, hx_rows %d",
              tp->rows_store, tp->kp.hx_rows);
        if (wsk) {
            ws += _fc3d_hx_ws_takes(tp);
            check(_fc3d_hx_ws_takes(tp), name, "the warp-specialized row tiles take it");
        }
        runs += halo_vs_direct(name, &hc);
        host_case_free(&hc);
    }
    check(runs == 10, "halo_rows_store.exercised", "%d of 10 cases ran on the haloed loop, %d of 4 on the "
          "warp-specialized row tiles", runs, ws);
}

/* ---- 3a''''. LayerNorm over W on the haloed row tiles: the row program and the op walk -------- */
/* A LayerNorm over W (flags: its affine or none) as ops[o], then the ops `after` names, and
   num_ops: L2/34's chain and the variations of the row tests. */
enum { LN_AFTER_NONE, LN_AFTER_RELU, LN_AFTER_TANH_X2_RELU, LN_AFTER_GELU, LN_AFTER_GELU_X1, LN_AFTER_ADD,
       LN_AFTER_LN_GELU, LN_AFTER_TANH };
static void ln_w_chain(fc3d_plan_desc* d, int o, unsigned flags, int after) {
    d->ops[o].kind = FC3D_OP_LAYERNORM;
    d->ops[o].norm_dims = 1;
    d->ops[o++].flags = flags;
    switch (after) {
    case LN_AFTER_RELU: d->ops[o++].kind = FC3D_OP_RELU; break;
    case LN_AFTER_TANH_X2_RELU:
        d->ops[o++].kind = FC3D_OP_GELU_TANH;
        d->ops[o].kind = FC3D_OP_SCALE;
        d->ops[o++].value = 2.0f;
        d->ops[o++].kind = FC3D_OP_RELU;
        break;
    case LN_AFTER_GELU: d->ops[o++].kind = FC3D_OP_GELU; break;
    case LN_AFTER_GELU_X1:
        d->ops[o++].kind = FC3D_OP_GELU;
        d->ops[o].kind = FC3D_OP_SCALE;
        d->ops[o++].value = 1.0f;
        break;
    case LN_AFTER_ADD: d->ops[o++].kind = FC3D_OP_ADD_CHANNEL; break;
    case LN_AFTER_LN_GELU: ln_w_chain(d, o, FC3D_OP_AFFINE, LN_AFTER_GELU); return;
    case LN_AFTER_TANH: d->ops[o++].kind = FC3D_OP_GELU_TANH; break;
    default: break;
    }
    d->num_ops = o;
}

/* The row epilogue resolves a pass whose first op is a LayerNorm over W, followed by at most two
   ops that read nothing of (n, c), once per tile (_fc3d_tc_epi::row_prog), with the convolution's
   bias left out (the LayerNorm cancels it); any other chain walks its ops per row and adds the
   bias. Cases on both sides of that line, each forced onto the haloed loop, with bias, against the
   direct engine within twice the math mode's bound (y poisoned before every run): L2/34's chain
   (LayerNorm with affine, GELU, x 1.0), affine-less LayerNorm and ReLU in half, three ops after the
   LayerNorm (GELU tanh, x 2, ReLU: the walk), a scale before it (the walk, the bias added), W = 128
   (groups of 8 lanes), an odd W (57: rows not a multiple of the lanes' values), NDHWC, the
   LayerNorm alone, rows of 16 floats (L2/34's chain at W 8 -> 16), rows of 32 with 40 channels (a
   part tile) and no affine, L2/34's chain with y 4 bytes past a 16-byte boundary, and an AddChannel
   of 1000 + [-0.5, 0.5) before the LayerNorm (rows whose mean is ~1000 times their spread: the
   row's statistics must be taken relative to the row, not to zero; the walk), the LayerNorm with
   its affine and ReLU, with its affine and the tanh GELU in half on rows of 32, without its affine
   before the tanh GELU, L2/34's LayerNorm and GELU on 96 channels (a part tile), and on 4 samples
   of 8 x 16 x 32 (16 x 32 x 64 out: more row tiles than an H100 has SMs, so that a CTA hands its
   staging over from tile to tile) the affine-less LayerNorm and GELU in TF32 and L2/34's chain in half
   (cases 16, 17). The
   warp-specialized kernel compiles its row loop for the common programs (a LayerNorm, its affine or
   none, then GELU, ReLU or nothing: cases 0, 1, 4, 7, 8, 9, 12, 15, 16, 17; the LayerNorm and GELU
   on rows of 64 with the lane width compiled too: cases 0, 15, 16, 17) and reads any other from the
   plan per row (cases 13, 14). The row programs on NCDHW rows of 16 to 128 floats (cases 0, 1, 4, 7,
   8, 9, 12, 13, 14, 15, 16, 17) run on the warp-specialized row tiles (_fc3d_hx_ws_kind 2), the rest on
   _fc3d_hx_main's, case 10 too (its plan is the first one's, whose y the warp-specialized kernel
   refuses at run time for its 16-byte stores) and case 11 (its ops walked: the AddChannel first). */
static void test_halo_row_prog(void) {
    if (no_halo("halo_row_prog")) return;
    static const char* const what[18] = {"ln_gelu_x1", "ln_noaff_relu", "ln_3ops", "scale_ln_gelu",
                                         "w128_ln_gelu", "w57_ln_gelu", "ndhwc_ln_gelu", "ln_alone",
                                         "w16_ln_gelu_x1", "w32_c40_ln_noaff_gelu", "ln_gelu_x1_y_off4",
                                         "add1000_ln_gelu", "ln_relu", "w32_ln_tanh", "ln_noaff_tanh",
                                         "c96_ln_gelu", "tiles_ln_noaff_gelu", "tiles_ln_gelu_x1"};
    int runs = 0;
    for (int k = 0; k < 18; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int odd = k == 5;
        const int many = k >= 16; /* more row tiles than CTAs: the staging handed over tile after tile */
        d->conv.batch = many ? 4 : 2;
        d->conv.in_channels = 32;
        d->conv.out_channels = k == 9 ? 40 : k % 2 && k != 10 && !many ? 96 : 64;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = i == 2 ? (k == 4 ? 64 : odd ? 29 : k == 8 ? 8 : k == 9 || k == 13 ? 16 : 32)
                                        : many ? 8 << i : 3 + i;
            d->conv.kernel[i] = odd ? 3 : 4;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = 1;
            d->conv.output_padding[i] = 0;
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = 1;
        d->math = k == 1 || k == 7 || k == 13 || k == 17 ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        d->layout = k == 6 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        int o = 0;
        if (k == 3) {
            d->ops[o].kind = FC3D_OP_SCALE;
            d->ops[o++].value = 0.5f;
        }
        if (k == 11) d->ops[o++].kind = FC3D_OP_ADD_CHANNEL;
        ln_w_chain(d, o, k == 1 || k == 5 || k == 9 || k == 14 || k == 16 ? 0u : (unsigned)FC3D_OP_AFFINE,
                   k == 1 || k == 12 ? LN_AFTER_RELU : k == 2 ? LN_AFTER_TANH_X2_RELU : k == 7 ? LN_AFTER_NONE
                   : k == 13 || k == 14 ? LN_AFTER_TANH : k == 0 || k == 8 || k == 10 || k == 17 ? LN_AFTER_GELU_X1 : LN_AFTER_GELU);
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        char name[160];
        snprintf(name, sizeof name, "halo_row_prog.%d.%s.c%d.w%d.%s.%s", k, d->math == FC3D_MATH_HALF ? "half" : "tf32",
                 d->conv.out_channels, d->conv.in_size[2], d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw", what[k]);
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        check(tp->kp.hx_rows && uses_row_tiles(&hc.plan), name, "the haloed row tiles with the row epilogue: hx_rows %d",
              tp->kp.hx_rows);
        if (k == 0 || k == 1 || k == 4 || (k >= 7 && k <= 10) || k >= 12) /* a row program on NCDHW rows of 16 to 128 (the plan's) */
            check(_fc3d_hx_ws_takes(tp), name, "the warp-specialized row tiles take it");
        cmp_y_shift = k == 10 ? 4 : 0;
        op_bias_offset = k == 11 ? 1000.0 : 0.0;
        runs += halo_vs_direct(name, &hc);
        cmp_y_shift = 0;
        op_bias_offset = 0.0;
        host_case_free(&hc);
    }
    check(runs == 18, "halo_row_prog.exercised", "%d of 18 cases ran on the haloed loop", runs);
}

/* ---- 3a'''. FP32 row norms: the haloed loop without row tiles, then a row read-back ------------- */
/* A plan's read-back pass that takes its first op's row statistics from the rows it reads
   (_fc3d_row_pass_kernel): the step, if any. */
static const fc3d_step_* row_pass_step(const fc3d_plan* p) {
    for (int i = 0; i < p->_private.num_steps; i++)
        if (p->_private.steps[i].kind == _FC3D_STEP_DIRECT_PASS && (p->_private.steps[i].variant & _FC3D_DIRECT_ROWS))
            return &p->_private.steps[i];
    return nullptr;
}
/* FP32 math with a LayerNorm over W (L2/34's pattern at small sizes: kernel 4, stride 2, padding
   1) with 96 input channels: an output sums 768 products, past what the haloed loop's 3xTF32 row
   tiles take (512, _fc3d_hx_x3_rows), so the plan (main loop AUTO) convolves on it without them,
   stores the rows and reads them back in one pass that takes the rows' statistics from them. Rows of 15 to 256 values (8, 4, 2 and 1 rows a warp; odd widths by an output padding
   along W; a last warp with rows past the end), with and without the norm's affine, the ops after
   it straight (GELU, tanh GELU, scale, ReLU) or resolved per row (add_channel; NDHWC rows of 200,
   past the row tiles' 128), or a second LayerNorm over W (its statistics from a read-back: no row
   pass); ops before the norm in the convolving pass; rows past 256 take the statistics read-back
   (checked). Each against the direct engine within twice FP32's bound, and against itself run
   again, bitwise. Needs the haloed loop: nothing runs where this binary or device has none (the
   count line says so). */
static void test_row_pass(void) {
    if (no_halo("row_pass")) return;
    static const char* const what[12] = {"ln_gelu_x1", "ln_noaff_relu", "ln_tanh_x2_relu", "add_x05_ln_gelu",
                                         "w128_ln_gelu", "w57_ln_gelu", "ndhwc_w200_ln_gelu", "ln_add",
                                         "ln_ln_gelu", "w15_c33_ln_noaff_gelu", "w256_ln_gelu", "w260_ln_gelu"};
    int runs = 0;
    for (int k = 0; k < 12; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int odd = k == 5 || k == 9; /* odd output W: an output padding of 1 along W */
        const int win = k == 4 ? 64 : k == 5 ? 28 : k == 6 ? 100 : k == 9 ? 7 : k == 10 ? 128 : k == 11 ? 130 : 16;
        d->conv.batch = 2;
        d->conv.in_channels = 96; /* (768 products an output: no 3xTF32 row tiles) */
        d->conv.out_channels = k == 9 ? 33 : k % 2 ? 40 : 64;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = i == 2 ? win : 3 + i;
            d->conv.kernel[i] = 4;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = 1;
            d->conv.output_padding[i] = odd && i == 2 ? 1 : 0;
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = 1;
        d->math = FC3D_MATH_FP32;
        d->layout = k == 6 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        int o = 0;
        if (k == 3) {
            d->ops[o++].kind = FC3D_OP_ADD_CHANNEL;
            d->ops[o].kind = FC3D_OP_SCALE;
            d->ops[o++].value = 0.5f;
        }
        ln_w_chain(d, o, k == 1 || k == 9 ? 0u : (unsigned)FC3D_OP_AFFINE,
                   k == 1 ? LN_AFTER_RELU : k == 2 ? LN_AFTER_TANH_X2_RELU : k == 7 ? LN_AFTER_ADD
                   : k == 8 ? LN_AFTER_LN_GELU : k == 0 ? LN_AFTER_GELU_X1 : LN_AFTER_GELU);
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        char name[160];
        snprintf(name, sizeof name, "row_pass.%d.c%d.w%d.%s.%s", k, d->conv.out_channels, win,
                 d->layout == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw", what[k]);
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        const fc3d_step_* rp = row_pass_step(&hc.plan);
        const int want = k != 8 && k != 11; /* a row norm whose read-back gathers; rows past 256 */
        const int ow = (int)hc.plan.y_dims[4];
        const int e = ow <= 32 ? 1 : ow <= 64 ? 2 : ow <= 128 ? 4 : 8;
        /* (add_channel after the norm, and NDHWC: the resolved kernel) */
        const int variant = _FC3D_DIRECT_ROWS + (k == 7 || k == 6 ? 0 : _FC3D_DIRECT_ROWS_STRAIGHT) + e;
        check(tp->hx_ok && !uses_row_tiles(&hc.plan) && (want ? rp && rp->variant == variant : !rp), name,
              "the haloed loop without row tiles (hx_ok %d, row tiles %d), %s (a row pass: %s, variant %#x, expected "
              "%#x; W %d)", tp->hx_ok, uses_row_tiles(&hc.plan), want ? "a row read-back" : "no row read-back",
              rp ? "yes" : "no", rp ? rp->variant : -1, variant, ow);
        /* 16-byte rows where W is 8 G, G a power of two, and the ops are straight */
        const int vg_want = (variant & _FC3D_DIRECT_ROWS_STRAIGHT) && (ow == 32 || ow == 128 || ow == 256) ? ow / 8 : 0;
        const int vg = rp ? _fc3d_row_vec_g(&hc.plan._private, rp) : 0;
        check(!rp || vg == vg_want, name, "rows on 16-byte accesses: %d lanes a row, expected %d", vg, vg_want);
        fill_case_tensors(&hc);
        const double bound = 2.0 * bound_for(d->math, d->dtype);
        const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM, bound);
        char nb[180];
        snprintf(nb, sizeof nb, "%s.rerun", name);
        compare_engines(nb, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM, bound);
        runs += r == 1;
        host_case_free(&hc);
    }
    check(runs == 12, "row_pass.exercised", "%d of 12 cases matched the direct engine", runs);
}

/* The row read-back on 16-byte accesses (_fc3d_row_pass_vec_kernel) at the widths the cases above
   leave out: rows of 8, 16 and 64 floats (1, 2 and 8 lanes a row; 64 is L2/34's), L2/34's chain
   (LayerNorm with affine, GELU, x 1.0) from 96 input channels (past the 3xTF32 row tiles' 512
   products an output), 33 channels of 6 x 6 rows so that the last warp holds rows
   past the end; then W 64 again with y 4 bytes past a 16-byte boundary (f32 y is its own
   intermediate: the launcher must take the scalar kernel, whose 4-byte accesses allow it) and
   W 64 with no affine and ReLU. Each against the direct engine within twice FP32's bound, and
   against itself run again, bitwise. */
static void test_row_pass_vec(void) {
    if (no_halo("row_pass_vec")) return;
    static const int wins[5] = {4, 8, 32, 32, 32};
    int runs = 0;
    for (int k = 0; k < 5; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        d->conv.batch = 1;
        d->conv.in_channels = 96; /* (768 products an output: no 3xTF32 row tiles) */
        d->conv.out_channels = 33; /* 1188 rows: no multiple of 8, 32 or 64 rows a warp */
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = i == 2 ? wins[k] : 3; /* D, H: 6 */
            d->conv.kernel[i] = 4;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = 1;
            d->conv.output_padding[i] = 0;
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = 1;
        d->math = FC3D_MATH_FP32;
        d->layout = FC3D_LAYOUT_NCDHW;
        ln_w_chain(d, 0, k == 4 ? 0u : (unsigned)FC3D_OP_AFFINE, k == 4 ? LN_AFTER_RELU : LN_AFTER_GELU_X1);
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        char name[160];
        snprintf(name, sizeof name, "row_pass_vec.%d.w%d%s", k, 2 * wins[k], k == 3 ? ".y_off4" : k == 4 ? ".noaff_relu" : "");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        const fc3d_step_* rp = row_pass_step(&hc.plan);
        const int vg = rp ? _fc3d_row_vec_g(&hc.plan._private, rp) : 0;
        check(rp && vg == wins[k] / 4, name, "a row read-back (%s) on 16-byte rows: %d lanes a row, expected %d",
              rp ? "yes" : "no", vg, wins[k] / 4);
        fill_case_tensors(&hc);
        const double bound = 2.0 * bound_for(d->math, d->dtype);
        cmp_y_shift = k == 3 ? 4 : 0;
        const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM, bound);
        char nb[180];
        snprintf(nb, sizeof nb, "%s.rerun", name);
        compare_engines(nb, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM, bound);
        cmp_y_shift = 0;
        runs += r == 1;
        host_case_free(&hc);
    }
    check(runs == 5, "row_pass_vec.exercised", "%d of 5 cases matched the direct engine", runs);
}

/* 3xTF32 on the haloed row tiles (FP32 math, an output summing at most 512 products: three f16
   wgmmas a K step into one accumulator, no chunk accumulator; _fc3d_hx_x3_rows). L2/34's pattern
   at small sizes (kernel 4, stride 2, padding 1, 32 input channels: 256 products an output):
   0 its chain (LayerNorm with affine, GELU, x 1.0) on rows of 32, the warp-specialized row tiles'
   row program; 1 the convolution alone (rows stored) with 40 output channels (a part tile), their
   copy; 2 the chain with a training BatchNorm after it (statistics partials: _fc3d_hx_main's row
   tiles); 3 the chain with y 4 bytes past a 16-byte boundary (the warp-specialized kernel refuses
   it at run time: _fc3d_hx_main's); 4 kernel 3 with an odd W (57: _fc3d_hx_main's, W phases of 1
   and 2 taps, the zero piece); 5 kernel 3 with an output padding along W (rows of 32: the
   warp-specialized zero piece), LayerNorm without affine and ReLU; 6 NDHWC; 7 the convolution
   alone with x up to 4e5 and weights near 1e-3 (the parts' scales undone with the bias in one
   FMA); 8 64 input channels (512 products, the bound) with rows of 64 and more tiles than SMs
   (the persistent CTAs' rings across tiles). Each forced onto the haloed loop against the direct
   engine within twice FP32's bound, and against itself run again, bitwise. Needs the haloed loop. */
static void test_halo_x3_rows(void) {
    if (no_halo("halo_x3_rows")) return;
    static const char* const what[9] = {"ln_gelu_x1",   "conv_c40",  "ln_gelu_bn", "ln_gelu_x1_y_off4", "k3_w57_ln_gelu",
                                        "k3_op1_ln_noaff_relu", "ndhwc_ln_gelu", "conv_x4e5_w1e-3", "c64_w64_ln_gelu_x1"};
    int runs = 0, ws = 0;
    for (int k = 0; k < 9; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int k3 = k == 4 || k == 5, big = k == 8, conv = k == 1 || k == 7;
        d->conv.batch = 2;
        d->conv.in_channels = big ? 64 : 32;
        d->conv.out_channels = k == 1 ? 40 : 64;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = i == 2 ? (k == 4 ? 29 : big ? 32 : 16) : big ? 8 * (i + 1) : 3 + i;
            d->conv.kernel[i] = k3 ? 3 : 4;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = 1;
            d->conv.output_padding[i] = k == 5 && i == 2 ? 1 : 0;
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = 1;
        d->math = FC3D_MATH_FP32;
        d->layout = k == 6 ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        if (!conv) {
            ln_w_chain(d, 0, k == 5 ? 0u : (unsigned)FC3D_OP_AFFINE,
                       k == 5 ? LN_AFTER_RELU : k == 0 || k == 3 || k == 8 ? LN_AFTER_GELU_X1 : LN_AFTER_GELU);
            if (k == 2) {
                d->ops[d->num_ops].kind = FC3D_OP_BATCHNORM_TRAIN;
                d->ops[d->num_ops].flags = FC3D_OP_AFFINE;
                d->ops[d->num_ops++].eps = 1e-5f;
            }
        }
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_HALO;
        char name[160];
        snprintf(name, sizeof name, "halo_x3_rows.%d.c%d.w%d.%s", k, d->conv.out_channels, d->conv.in_size[2], what[k]);
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        d->main_loop = FC3D_MAIN_LOOP_AUTO;
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        check(tp->math == _FC3D_TC_3XTF32 && tp->kp.hx_rows && (conv ? tp->rows_store : uses_row_tiles(&hc.plan)) &&
                  !row_pass_step(&hc.plan),
              name, "3xTF32 on the haloed row tiles: math %d, hx_rows %d, rows_store %d, row tiles %d, a row pass %d",
              tp->math, tp->kp.hx_rows, tp->rows_store, uses_row_tiles(&hc.plan), row_pass_step(&hc.plan) != nullptr);
        const int want_ws = k == 0 || k == 1 || k == 5 || k == 7 || k == 8;
        if (want_ws) {
            ws += _fc3d_hx_ws_takes(tp);
            check(_fc3d_hx_ws_takes(tp), name, "the warp-specialized row tiles take it");
        }
        cmp_y_shift = k == 3 ? 4 : 0;
        const int r = halo_vs_direct(name, &hc, 0.0, k == 7 ? 4e5 : 1.0, k == 7 ? 1e-3 : 1.0);
        char nb[180];
        snprintf(nb, sizeof nb, "%s.rerun", name);
        compare_engines(nb, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM, 2.0 * bound_for(d->math, d->dtype));
        cmp_y_shift = 0;
        runs += r;
        host_case_free(&hc);
    }
    check(runs == 9 && ws == 5, "halo_x3_rows.exercised",
          "%d of 9 cases ran on the haloed loop, %d of 5 on its warp-specialized row tiles", runs, ws);
}

/* ---- 3a'''. the warp-row loop ------------------------------------------------------------------ */
/* Descs within the warp-row loop's limits (float32 NCDHW, groups 1, C_in 16, kernel 3, stride 2,
   padding 1 along every dim): batch 1 to 3, C_out 1 to 32, input D 1 to 5, H and W 1 to 32 (every
   fourth case 32 x 32), output padding 0 or 1 per dim, with or without bias, TF32 and half math;
   chains: none, L2/15's (BatchNorm, then the spatial mean) recomputed and materialised, a GELU
   then a GroupNorm (case 3), random chains of the kinds the loop takes (its ops resolved per
   (n, c) after the bias where they are not one affine map: ReLU, GELU), and random moments chains. Forced onto the loop (a desc it refuses
   is drawn again) and compared with the direct engine within twice the math's bound, and with
   itself bitwise. Every eighth case binds y 4 bytes past its allocation's start (the rows' odd
   addresses: pairs (2 l - 1, 2 l)); cases 3 and 11 scale x by 2^-12 and 2^17 (its f16 copy made
   again at x's power of two), case 7 takes x at 2^-12 and a weight of 2^-97's size, no bias (the
   scales' product past a float's exponent: x's applied first). Counted: cases that gather
   statistics in the loop, that store and gather, that apply ops one by one, with output padding,
   half math. */
static void test_warp_rows(int cases) {
    int gathered = 0, both = 0, listed = 0, padded = 0, halfc = 0, scaled = 0, redrawn = 0;
    for (int k = 0; k < cases; k++) {
        if (redrawn > 20 * cases) { /* (the loop refuses what it should take) */
            check(0, "warp_rows.drawn", "%d descs drawn again for %d cases", redrawn, cases);
            return;
        }
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        const int full = k % 4 == 0;
        d->conv.batch = rng_int(1, 3);
        d->conv.in_channels = 16;
        d->conv.out_channels = k % 3 == 0 ? 32 : rng_int(1, 32);
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = i == 0 ? rng_int(1, 5) : full ? 32 : rng_int(1, 32);
            d->conv.kernel[i] = 3;
            d->conv.stride[i] = 2;
            d->conv.padding[i] = 1;
            d->conv.output_padding[i] = rng_int(0, 1);
            d->conv.dilation[i] = 1;
        }
        d->conv.bias = k == 7 ? 0 : rng_int(0, 3) != 0;
        d->math = k % 3 == 2 && k != 3 && k != 7 && k != 11 ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_WARP_ROWS;
        const int kind = k % 5;
        if (kind == 1 || kind == 2) { /* L2/15's chain, recomputed (kind 1) or materialised */
            d->num_ops = 2;
            d->ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[0].flags = (unsigned)rng_int(0, 3) & (FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS);
            d->ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
            d->strategy = kind == 1 ? FC3D_STRATEGY_RECOMPUTE : FC3D_STRATEGY_MATERIALIZE;
            d->stats_plan = FC3D_STATS_PLAN_MOMENTS;
        }
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) { /* (an output the desc cannot have: drawn again) */
            --k;
            ++redrawn;
            continue;
        }
        if (kind == 3 || kind == 4) {
            const int64_t cd[5] = {hc.plan.y_dims[0], hc.plan.y_dims[1], hc.plan.conv_size[0], hc.plan.conv_size[1],
                                   hc.plan.conv_size[2]};
            if (k == 3) { /* a GELU, then a GroupNorm: ops applied one by one, in the statistics pass too */
                memset(d->ops, 0, sizeof d->ops);
                d->num_ops = 2;
                d->ops[0].kind = FC3D_OP_GELU;
                d->ops[1].kind = FC3D_OP_GROUPNORM;
                d->ops[1].groups = 1;
                d->ops[1].flags = FC3D_OP_AFFINE;
            } else if (kind == 3) {
                random_ops(d, cd);
            } else {
                moments_ops(d, cd);
            }
            d->strategy = (fc3d_strategy)rng_int(0, 2);
            d->stats_plan = (fc3d_stats_plan)rng_int(0, 3);
            fc3d_result r = fc3d_plan_init(&hc.plan, d);
            if (r == FC3D_ERROR_STRATEGY || r == FC3D_ERROR_STATS_PLAN) {
                d->strategy = FC3D_STRATEGY_NONE;
                d->stats_plan = FC3D_STATS_PLAN_AUTO;
                r = fc3d_plan_init(&hc.plan, d);
            }
            if (r != FC3D_SUCCESS) { /* (a LayerNorm: refused, drawn again) */
                --k;
                ++redrawn;
                continue;
            }
        }
        if (fc3d_plan_main_loop(&hc.plan) != FC3D_MAIN_LOOP_WARP_ROWS) {
            --k;
            ++redrawn;
            continue;
        }
        int g = 0, sb = 0, li = 0;
        for (int i = 0; i < hc.plan._private.num_steps; i++) {
            const fc3d_step_* st = &hc.plan._private.steps[i];
            if (st->kind != _FC3D_STEP_TC_CONV) continue;
            g |= st->stat_op >= 0;
            sb |= st->stat_op >= 0 && st->arg[0] != FC3D_STORE_NONE;
            li |= !_fc3d_bk_ops_affine(d->ops, (int)st->arg[1], (int)st->arg[2]);
        }
        gathered += g;
        both += sb;
        listed += li;
        padded += d->conv.output_padding[0] || d->conv.output_padding[1] || d->conv.output_padding[2];
        halfc += d->math == FC3D_MATH_HALF;
        fill_case_tensors(&hc);
        if (k == 3 || k == 7 || k == 11) { /* magnitudes the f16 copy cannot hold as they are */
            const double sx = k == 11 ? 131072.0 : 1.0 / 4096.0;
            for (int64_t i = 0; i < hc.plan.x_elements; i++) hc.x[i] *= sx;
            if (k == 7)
                for (int64_t i = 0; i < hc.plan.weight_elements; i++) hc.w[i] = (double)(float)(hc.w[i] * 0x1p-97);
            scaled++;
        }
        char desc[200], name[300];
        describe_case(&hc, desc, sizeof desc);
        snprintf(name, sizeof name, "warp_rows.%03d.d%dh%dw%d.op%d%d%d.%s", k, d->conv.in_size[0], d->conv.in_size[1],
                 d->conv.in_size[2], d->conv.output_padding[0], d->conv.output_padding[1], d->conv.output_padding[2],
                 desc);
        cmp_y_shift = k % 8 == 5 ? 4 : 0;
        const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                      2.0 * bound_for(d->math, FC3D_DTYPE_F32), FC3D_MAIN_LOOP_AUTO,
                                      FC3D_MAIN_LOOP_WARP_ROWS);
        if (r == -1) check(0, name, "a plan refused the desc");
        snprintf(name, sizeof name, "warp_rows.%03d.bitwise_twice", k);
        compare_engines(name, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM, 0.0, FC3D_MAIN_LOOP_WARP_ROWS,
                        FC3D_MAIN_LOOP_WARP_ROWS);
        cmp_y_shift = 0;
        host_case_free(&hc);
    }
    check(gathered >= cases / 4 && both >= 1 && listed >= 1 && padded >= cases / 4 && halfc >= cases / 5 &&
              scaled >= (cases > 11 ? 3 : 2),
          "warp_rows.exercised",
          "%d of %d cases gathered statistics in the loop, %d stored and gathered, %d applied ops one by one, %d had "
          "output padding, %d ran half math, %d scaled x",
          gathered, cases, both, listed, padded, halfc, scaled);
}

/* ---- 3a''. the block loop --------------------------------------------------------------------- */
/* Random descs within the block loop's limits (float32 NCDHW, TF32, groups 1, in_channels 8 to 32
   in steps of 8, out_channels 1 to 64, kernels to 3, strides to 3, dilation to 2, padding, output
   padding; random chains with random strategies and statistics plans), forced onto the block loop
   (a desc it refuses, e.g. a weight past its shared memory, is drawn again): against the direct
   engine within twice the TF32 bound, and against itself bitwise (the statistics partials are
   summed in a fixed order). Every fourth case at sizes with several blocks a sample and rows past
   the last block's; a count of the cases whose plan gathers statistics in the loop's epilogue.
   Of the cases with W stride 2, half draw C_in 16 or 32 and 2 to 4 W taps (the unrolled taps,
   _fc3d_bk_pair_taps), and of those half, and every eighth case, 32 output channels on rows long
   enough for the near-full epilogue (_fc3d_bk_store_pairs_near); both counted. Every eighth case
   (the fifth) draws a chain of affine ops and spatial means, whose convolving pass applies them
   all: units of both W phases through one map a v + b per (n, c); counted. Every sixteenth (the
   ninth) draws a moments chain with no op before its statistics, recomputed: its statistics pass
   runs units of both W phases and stores nothing; counted. */
static void test_block_loop(int cases) {
    const fc3d_engine keep = engine_under_test;
    engine_under_test = FC3D_ENGINE_IMPLICIT_GEMM;
    int gathered = 0, multi = 0, pairs = 0, fixed = 0, near = 0, pairs_ops = 0, pairs_ns = 0, halfc = 0;
    for (int k = 0; k < cases; k++) {
        host_case hc;
        char desc[200], name[300];
        block_hint = k % 4 == 3 ? 2 : (k % 4 == 1 ? 3 : 1);
        block_taps_hint = k % 8 == 1; /* so that --quick's 8 cases hold one */
        block_half_hint = _FC3D_BK_F16 && k % 3 == 2; /* half math (C_in 8 or 24 refused: drawn again) */
        const int want_pairs = block_hint == 3;
        loop_hint = FC3D_MAIN_LOOP_BLOCK;
        chain_hint = k % 8 == 5 ? 1 : k % 16 == 9 ? 0 : -1;
        npre_hint = k % 16 == 9 ? 0 : -1; /* a moments chain recomputed: its statistics pass stores nothing */
        strategy_hint = k % 16 == 9 ? FC3D_STRATEGY_RECOMPUTE : -1;
        make_random_case(&hc, 0);
        chain_hint = npre_hint = strategy_hint = -1;
        block_hint = 0;
        block_taps_hint = 0;
        const int is_half = block_half_hint;
        block_half_hint = 0;
        loop_hint = -1;
        if (fc3d_plan_main_loop(&hc.plan) != FC3D_MAIN_LOOP_BLOCK) { /* refused: drawn again */
            host_case_free(&hc);
            --k;
            continue;
        }
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        /* a convolving step that stores and has no ops, at W stride 2, runs the units of both W
           phases (8-byte pairs) */
        int has_pairs = 0, has_pairs_ops = 0;
        for (int i = 0; i < hc.plan._private.num_steps; i++) {
            const fc3d_step_* st = &hc.plan._private.steps[i];
            if (st->kind == _FC3D_STEP_TC_CONV &&
                _fc3d_bk_pairs(tp->bk_nt8, tp->kp.s[2], st->arg[0] != FC3D_STORE_NONE,
                               _fc3d_bk_ops_affine(hc.desc.ops, (int)st->arg[1], (int)st->arg[2]))) {
                has_pairs = 1;
                has_pairs_ops |= st->arg[1] != st->arg[2];
                pairs_ns += st->arg[0] == FC3D_STORE_NONE;
            }
        }
        if (want_pairs && !has_pairs) { /* drawn again until a convolving step stores with no ops */
            host_case_free(&hc);
            --k;
            continue;
        }
        pairs += has_pairs;
        pairs_ops += has_pairs_ops;
        fixed += has_pairs && _fc3d_bk_pair_pattern(tp->kp) != 0;
        /* some unit stores through _fc3d_bk_store_pairs_near: every channel of the 32, both phases
           full at q0 = 0 (phase 1 but its last) */
        near += has_pairs && tp->kp.cout == 32 && (tp->kp.out[2] + 1) / 2 >= 16 && tp->kp.out[2] / 2 >= 15;
        multi += tp->kp.bk_blocks > 1;
        for (int i = 0; i < hc.plan._private.num_steps; i++)
            if (hc.plan._private.steps[i].kind == _FC3D_STEP_TC_CONV && hc.plan._private.steps[i].stat_op >= 0) {
                gathered++;
                break;
            }
        describe_case(&hc, desc, sizeof desc);
        snprintf(name, sizeof name, "block_loop.%03d.%s", k, desc);
        const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                      2.0 * bound_for(hc.desc.math, FC3D_DTYPE_F32), FC3D_MAIN_LOOP_AUTO,
                                      FC3D_MAIN_LOOP_BLOCK);
        if (r == -1) check(0, name, "a plan refused the desc");
        halfc += is_half && tp->kp.bk_f16;
        snprintf(name, sizeof name, "block_loop.%03d.bitwise_twice", k);
        compare_engines(name, &hc, FC3D_ENGINE_IMPLICIT_GEMM, FC3D_ENGINE_IMPLICIT_GEMM, 0.0, FC3D_MAIN_LOOP_BLOCK,
                        FC3D_MAIN_LOOP_BLOCK);
        host_case_free(&hc);
    }
    check(gathered >= cases / 8 && multi >= cases / 8 && pairs >= cases / 8 && fixed >= 1 && near >= 1 &&
              pairs_ops >= (cases > 5 ? 1 : 0) && pairs_ns >= (cases > 9 ? 1 : 0) &&
              halfc >= (_FC3D_BK_F16 ? cases / 3 : 0),
          "block_loop.exercised",
          "%d of %d cases gathered statistics in the block loop's epilogue, %d had several blocks a sample, %d ran "
          "units of both W phases, %d of them on the unrolled W taps, %d with units of the near-full epilogue, %d "
          "with ops (one map per (n, c)); %d passes of such units stored nothing (statistics only); %d in half "
          "math (f16 operands)",
          gathered, cases, multi, pairs, fixed, near, pairs_ops, pairs_ns, halfc);
    engine_under_test = keep;
}

/* L2/15's convolution at a small size: 2 samples, 16 -> 32 channels, kernel 3, stride 2, padding
   1, a bias, input 4 x 8 x in_w */
static void l15_small_conv(fc3d_plan_desc* d, int in_w) {
    d->conv.batch = 2;
    d->conv.in_channels = 16;
    d->conv.out_channels = 32;
    d->conv.in_size[0] = 4;
    d->conv.in_size[1] = 8;
    d->conv.in_size[2] = in_w;
    for (int i = 0; i < 3; i++) {
        d->conv.kernel[i] = 3;
        d->conv.stride[i] = 2;
        d->conv.padding[i] = 1;
    }
    d->conv.bias = 1;
}

/* ---- 3x. desc.smem_per_block: plans within a smaller grant, and the run's refusal -------------- */
/* Plans made for sm_86's 99 KB (FC3D_SMEM_PER_BLOCK_TC), run as if the device granted only that
   (_fc3d_smem_grant_cap): L2/61's pattern at a small size with 96 and 128 output channels (the
   mma.sync loop's 128-channel tiles, 110 KB, planned as 64-channel ones), with a ReLU and for half
   of them a GroupNorm, and L2/15's pattern at input 4 x 8 x 40 (C_in 16, kernel 3, stride 2) with a
   training BatchNorm and the spatial mean (its block loop's blocks of 1 x 5 rows, 110,768 bytes,
   planned as 1 x 3, 94,112), each in every math mode, against the direct engine within twice the
   math mode's bound. Then a plan made for the default 227 KB, forced onto mma.sync with
   128-channel tiles, refused by the same run: FC3D_ERROR_SMEM_PER_BLOCK with the loop's figure
   and the one to plan with, y untouched and no CUDA error left; without the cap the same run goes
   through where the device grants that much (and is refused alike where it does not). */
static void test_smem_grant(void) {
    const int grant = FC3D_SMEM_PER_BLOCK_TC;
    int runs = 0, capped = 0, block = 0;
    for (int k = 0; k < 9; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        int o = 0;
        if (k < 6) {
            halo_small_conv(d, k % 2 ? 128 : 96, 4, 6, 7 + k % 3);
            d->conv.bias = k % 3 == 1;
            d->ops[o++].kind = FC3D_OP_RELU;
            if (k >= 3) {
                d->ops[o].kind = FC3D_OP_GROUPNORM;
                d->ops[o].groups = 8;
                d->ops[o].flags = FC3D_OP_AFFINE;
                d->ops[o++].eps = 1e-5f;
            }
        } else {
            l15_small_conv(d, 40);
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
            d->ops[o].eps = 1e-5f;
            d->ops[o++].momentum = 0.1f;
            d->ops[o++].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        }
        d->num_ops = o;
        d->math = (fc3d_math)(FC3D_MATH_FP32 + k % 3);
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->smem_per_block = grant;
        char name[160];
        snprintf(name, sizeof name, "smem_grant.%d.%s.c%d.%s", k,
                 d->math == FC3D_MATH_HALF ? "half" : d->math == FC3D_MATH_FP32 ? "fp32" : "tf32",
                 d->conv.out_channels, k < 3 ? "relu" : k < 6 ? "relu_groupnorm" : "bn_train_submean");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes;
        const char* loop = "";
        const size_t need = _fc3d_tc_sync_need(tp, &loop);
        capped += d->conv.out_channels == 128 && d->math != FC3D_MATH_FP32 && tp->bn == 64;
        if (fc3d_plan_main_loop(&hc.plan) == FC3D_MAIN_LOOP_BLOCK) { /* its blocks smaller than the default plan's */
            fc3d_plan_desc d0 = *d;
            d0.smem_per_block = 0;
            fc3d_plan p0;
            const _fc3d_tc_plan* t0 = (const _fc3d_tc_plan*)p0._private.engine_data.bytes;
            block += fc3d_plan_init(&p0, &d0) == FC3D_SUCCESS && p0.main_loop == FC3D_MAIN_LOOP_BLOCK &&
                     _fc3d_bk_smem(t0->kp, t0->bk_nt8) > (size_t)grant && need < _fc3d_bk_smem(t0->kp, t0->bk_nt8);
        }
        hc.x = alloc_fill(hc.plan.x_elements, -1.0, 1.0, d->dtype);
        const double wb = 1.0 / sqrt((double)hc.plan.weight_elements / d->conv.in_channels + 1.0);
        hc.w = alloc_fill(hc.plan.weight_elements, -wb, wb, d->dtype);
        if (d->conv.bias) hc.b = alloc_fill(d->conv.out_channels, -wb, wb, d->dtype);
        random_op_tensors(&hc);
        _fc3d_smem_grant_cap = grant;
        const int r = compare_engines(name, &hc, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                                      2.0 * bound_for(d->math, d->dtype));
        _fc3d_smem_grant_cap = 0;
        if (r == -1) check(0, name, "a plan refused the desc");
        runs += r == 1 && need <= (size_t)grant && fc3d_plan_main_loop(&hc.plan) != FC3D_MAIN_LOOP_HALO &&
                fc3d_plan_main_loop(&hc.plan) != FC3D_MAIN_LOOP_WGMMA;
        host_case_free(&hc);
    }
    { /* a plan with no convolving step (a pooled chain's statistics from x's sums) launches no
         tensor-core kernel: the capped run goes through, its 128 channels' tile figure unchecked */
        host_case hl;
        memset(&hl, 0, sizeof hl);
        fc3d_plan_desc* d = &hl.desc;
        d->conv.batch = 2;
        d->conv.in_channels = 16;
        d->conv.out_channels = 128;
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = 6;
            d->conv.kernel[i] = 3;
            d->conv.stride[i] = 2;
        }
        d->ops[0].kind = FC3D_OP_SCALE;
        d->ops[0].value = 2.0f;
        d->ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        d->ops[2].kind = FC3D_OP_GLOBAL_AVG_POOL;
        d->num_ops = 3;
        d->stats_plan = FC3D_STATS_PLAN_LINEAR;
        d->math = FC3D_MATH_TF32;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        if (fc3d_plan_init(&hl.plan, d) != FC3D_SUCCESS || _fc3d_tc_convolves(&hl.plan)) {
            check(0, "smem_grant.no_convolving_step", "plan %d: %s", (int)hl.plan.result, hl.plan.message);
        } else {
            hl.x = alloc_fill(hl.plan.x_elements, -1.0, 1.0, d->dtype);
            hl.w = alloc_fill(hl.plan.weight_elements, -0.1, 0.1, d->dtype);
            random_op_tensors(&hl);
            _fc3d_smem_grant_cap = grant;
            compare_engines("smem_grant.no_convolving_step", &hl, FC3D_ENGINE_DIRECT, FC3D_ENGINE_IMPLICIT_GEMM,
                            2.0 * bound_for(d->math, d->dtype));
            _fc3d_smem_grant_cap = 0;
        }
        host_case_free(&hl);
    }
    check(runs == 9 && capped >= 2 && block >= 2, "smem_grant.exercised",
          "%d of 9 cases ran within %d bytes a block on a loop other than the sm_90a ones, %d with 128 output "
          "channels on 64-channel tiles, %d on the block loop with blocks smaller than the default plan's",
          runs, grant, capped, block);

    host_case hc;
    memset(&hc, 0, sizeof hc);
    fc3d_plan_desc* d = &hc.desc;
    halo_small_conv(d, 128, 4, 6, 9);
    d->math = FC3D_MATH_TF32;
    d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
    d->main_loop = FC3D_MAIN_LOOP_MMA_SYNC;
    if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
        check(0, "smem_grant.refused", "plan: %s", hc.plan.message);
        return;
    }
    const char* loop = "";
    const size_t need = _fc3d_tc_sync_need((const _fc3d_tc_plan*)hc.plan._private.engine_data.bytes, &loop);
    hc.x = alloc_fill(hc.plan.x_elements, -1.0, 1.0, d->dtype);
    hc.w = alloc_fill(hc.plan.weight_elements, -0.05, 0.05, d->dtype);
    device_case dc;
    device_case_upload(&hc, &dc);
    device_case_poison(&hc, &dc);
    const fc3d_run_args a = device_case_args(&hc, &dc, 0);
    fc3d_message msg;
    _fc3d_smem_grant_cap = grant;
    const fc3d_result r = fc3d_plan_run(&hc.plan, &a, &msg);
    _fc3d_smem_grant_cap = 0;
    CUDA_OK(cudaDeviceSynchronize());
    const cudaError_t left = cudaGetLastError();
    unsigned char* h = (unsigned char*)malloc(dc.y_bytes);
    CUDA_OK(cudaMemcpy(h, dc.y, dc.y_bytes, cudaMemcpyDeviceToHost));
    int untouched = 1;
    for (size_t i = 0; i < dc.y_bytes; i++) untouched &= h[i] == 0xff;
    char figure[64];
    snprintf(figure, sizeof figure, "takes %zu bytes", need);
    const fc3d_result r2 = fc3d_plan_run(&hc.plan, &a, NULL);
    CUDA_OK(cudaDeviceSynchronize());
    int dev = 0, dev_grant = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&dev_grant, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const fc3d_result want2 = need <= (size_t)dev_grant ? FC3D_SUCCESS : FC3D_ERROR_SMEM_PER_BLOCK;
    check(need > (size_t)grant && r == FC3D_ERROR_SMEM_PER_BLOCK && strstr(msg.text, figure) &&
              strstr(msg.text, "smem_per_block = 101376") && untouched && left == cudaSuccess && r2 == want2,
          "smem_grant.refused", "%zu bytes a block on %s; run %d (%s), y untouched %d, error left %d, run without the "
          "cap %d", need, loop, (int)r, msg.text, untouched, (int)left, (int)r2);
    free(h);
    device_case_free(&dc);
    host_case_free(&hc);
}

/* ---- 3y. one kernel's shared-memory limit across host threads --------------------------------- */
/* Two plans on one kernel instantiation with different shared memory a block (L2/15's pattern,
   the convolution alone at W stride 2 on the block loop's pairs kernel, at input W 40 and 12),
   each run 24 times by a host thread of its own on a stream of its own, at once: every run
   succeeds and the last leaves its output bitwise as a single-threaded run does (a launch whose
   kernel limit the other thread had lowered in between would fail: _fc3d_smem_attr only raises
   it). */
static void test_smem_attr_threads(void) {
    host_case hc[2];
    device_case dc[2];
    fc3d_run_args a[2];
    unsigned char* ref[2];
    size_t sm[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        memset(&hc[k], 0, sizeof hc[k]);
        fc3d_plan_desc* d = &hc[k].desc;
        l15_small_conv(d, k ? 12 : 40);
        d->math = FC3D_MATH_TF32;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = FC3D_MAIN_LOOP_BLOCK;
        if (fc3d_plan_init(&hc[k].plan, d) != FC3D_SUCCESS) {
            check(0, "smem_attr_threads.plan", "%s", hc[k].plan.message);
            return;
        }
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc[k].plan._private.engine_data.bytes;
        sm[k] = _fc3d_bk_smem(tp->kp, tp->bk_nt8);
        hc[k].x = alloc_fill(hc[k].plan.x_elements, -1.0, 1.0, d->dtype);
        hc[k].w = alloc_fill(hc[k].plan.weight_elements, -0.2, 0.2, d->dtype);
        hc[k].b = alloc_fill(d->conv.out_channels, -0.2, 0.2, d->dtype);
        device_case_upload(&hc[k], &dc[k]);
        device_case_poison(&hc[k], &dc[k]);
        a[k] = device_case_args(&hc[k], &dc[k], 0);
        const fc3d_result r = fc3d_plan_run(&hc[k].plan, &a[k], NULL);
        CUDA_OK(cudaDeviceSynchronize());
        ref[k] = (unsigned char*)malloc(dc[k].y_bytes);
        CUDA_OK(cudaMemcpy(ref[k], dc[k].y, dc[k].y_bytes, cudaMemcpyDeviceToHost));
        check(r == FC3D_SUCCESS, "smem_attr_threads.single", "plan %d: run %d", k, (int)r);
        device_case_poison(&hc[k], &dc[k]);
    }
    int bad[2] = {0, 0};
    std::thread t[2];
    for (int k = 0; k < 2; k++)
        t[k] = std::thread([&, k]() {
            cudaStream_t st;
            if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) {
                bad[k] = -1;
                return;
            }
            fc3d_run_args ak = a[k];
            ak.stream = (void*)st;
            for (int i = 0; i < 24; i++) bad[k] += fc3d_plan_run(&hc[k].plan, &ak, NULL) != FC3D_SUCCESS;
            if (cudaStreamSynchronize(st) != cudaSuccess) bad[k] += 100;
            cudaStreamDestroy(st);
        });
    for (int k = 0; k < 2; k++) t[k].join();
    int same = 1;
    for (int k = 0; k < 2; k++) {
        unsigned char* h = (unsigned char*)malloc(dc[k].y_bytes);
        CUDA_OK(cudaMemcpy(h, dc[k].y, dc[k].y_bytes, cudaMemcpyDeviceToHost));
        same &= memcmp(h, ref[k], dc[k].y_bytes) == 0;
        free(h);
    }
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)hc[0].plan._private.engine_data.bytes;
    const int pat = _fc3d_bk_pair_pattern(tp->kp);
    check(sm[0] != sm[1] && bad[0] == 0 && bad[1] == 0 && same, "smem_attr_threads.runs",
          "%zu and %zu bytes a block (pair pattern 0x%x); failed runs %d and %d; outputs as single-threaded %d", sm[0],
          sm[1], pat, bad[0], bad[1], same);
    for (int k = 0; k < 2; k++) {
        free(ref[k]);
        device_case_free(&dc[k]);
        host_case_free(&hc[k]);
    }
}

/* ---- 3a'''''. statistics linear in x: the box sums and their contraction ---------------------- */
/* FC3D_STATS_PLAN_LINEAR takes box sums of x per (n, ci, tap) in three stages and contracts them
   with the weight a warp per (n, c). A scale and the spatial-mean subtraction, the plan forced to
   linear, on kernels (2, 5, 4) and (3, 4, 4), W 9 and 40, NCDHW and NDHWC, f32 and f16, every math
   mode; against the CPU reference within the math mode's bound. */
static void test_linear_sums(void) {
    static const int cfg[4][8] = {/* kd, kh, kw, stride, W, layout, dtype, math */
                                  {2, 5, 4, 1, 9, FC3D_LAYOUT_NCDHW, FC3D_DTYPE_F32, FC3D_MATH_TF32},
                                  {3, 4, 4, 2, 40, FC3D_LAYOUT_NDHWC, FC3D_DTYPE_F16, FC3D_MATH_FP32},
                                  {3, 4, 4, 2, 9, FC3D_LAYOUT_NCDHW, FC3D_DTYPE_F32, FC3D_MATH_HALF},
                                  {2, 5, 4, 2, 40, FC3D_LAYOUT_NDHWC, FC3D_DTYPE_F32, FC3D_MATH_FP32}};
    for (int k = 0; k < 4; k++) {
        const int* c = cfg[k];
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        d->conv.batch = 2;
        d->conv.in_channels = 8;
        d->conv.out_channels = 6;
        d->conv.in_size[0] = 3;
        d->conv.in_size[1] = 6;
        d->conv.in_size[2] = c[4];
        for (int i = 0; i < 3; i++) {
            d->conv.kernel[i] = c[i];
            d->conv.stride[i] = c[3];
            d->conv.padding[i] = i == 1 ? 1 : 0;
        }
        d->conv.bias = 1;
        d->layout = (fc3d_layout)c[5];
        d->dtype = (fc3d_dtype)c[6];
        d->math = (fc3d_math)c[7];
        d->ops[0].kind = FC3D_OP_SCALE;
        d->ops[0].value = 1.5f;
        d->ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        d->num_ops = 2;
        d->strategy = FC3D_STRATEGY_RECOMPUTE;
        d->stats_plan = FC3D_STATS_PLAN_LINEAR;
        char name[160];
        snprintf(name, sizeof name, "linear_sums.%d.k%d%d%d.w%d.%s.%s", k, c[0], c[1], c[2], c[4],
                 c[5] == FC3D_LAYOUT_NDHWC ? "ndhwc" : "ncdhw",
                 c[7] == FC3D_MATH_HALF ? "half" : c[7] == FC3D_MATH_FP32 ? "fp32" : "tf32");
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS || hc.plan.stats_plan != FC3D_STATS_PLAN_LINEAR) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        fill_case_tensors(&hc);
        check_vs_cpu(name, &hc, bound_for(d->math, d->dtype));
        host_case_free(&hc);
    }
}

/* ---- 3a''. the moments tail ---------------------------------------------------------------------- */
/* Chains whose statistics come from per-(n, c) moments, on both sides of the moments tail's limits
   (_FC3D_MT_CELLS cells a block, _FC3D_MT_OPS statistics ops). A block takes W channels of every
   sample, W the least common multiple of the ops' channel groups: 1 for a BatchNorm, a spatial
   mean and a pool, C / 4 with a GroupNorm of 4 groups (N 6 x C 16), C with one of 1 group (the
   others). N 3 x C 512 with the GroupNorm: one block of all 1536 cells, the most it takes (on the
   GEMM a finalize first: 1536 x 81 partials, past _FC3D_MT_PARTS); N 2 x C 800 with it: 1600 cells
   a block, the separate finalize and moments launches; chains of 2, 4 and 5
   statistics ops with scale, add_channel and inference BatchNorm folded between them, a pool at
   the end of one. Each on the direct engine (FP32) and the implicit
   GEMM (TF32), against the CPU reference in float64 (y, running and saved statistics). The form
   each plan took is asserted from its steps: the tail where the cells and ops fit, the separate
   launches otherwise. */
static void test_moments_tail(void) {
    const int was_on = _fc3d_mtail_on; /* the tail planned wherever it fits, whatever the build's default */
    _fc3d_mtail_on = 1;
    /* N, C_out, input D, H, W: at 1536 cells the GEMM's partials (81 slots a cell) are past
       _FC3D_MT_PARTS, so a finalize step sums them before the tail; the direct engine's (11) are not */
    static const int shape[3][5] = {{6, 16, 2, 3, 5}, {3, 512, 6, 12, 20}, {2, 800, 2, 3, 5}};
    for (int sh = 0; sh < 3; sh++)
        for (int chain = 0; chain < 4; chain++)
            for (int eng = 0; eng < 2; eng++) {
                host_case hc;
                memset(&hc, 0, sizeof hc);
                fc3d_plan_desc* d = &hc.desc;
                d->conv.batch = shape[sh][0];
                d->conv.in_channels = 4;
                d->conv.out_channels = shape[sh][1];
                for (int i = 0; i < 3; i++) {
                    d->conv.in_size[i] = shape[sh][2 + i];
                    d->conv.kernel[i] = 3;
                    d->conv.stride[i] = 2;
                    d->conv.padding[i] = 1;
                }
                d->conv.bias = 1;
                d->engine = eng ? FC3D_ENGINE_IMPLICIT_GEMM : FC3D_ENGINE_DIRECT;
                d->math = eng ? FC3D_MATH_TF32 : FC3D_MATH_FP32;
                d->stats_plan = FC3D_STATS_PLAN_MOMENTS;
                fc3d_op* o = d->ops;
                int k = 0, nstat = 0;
                const unsigned bn = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS | FC3D_OP_SAVE_BATCH_STATS;
                if (chain == 0) { /* L2/15's: BatchNorm, then the spatial mean */
                    o[k].kind = FC3D_OP_BATCHNORM_TRAIN; o[k++].flags = bn;
                    o[k++].kind = FC3D_OP_SUB_SPATIAL_MEAN;
                    nstat = 2;
                } else if (chain == 1) { /* L2/77's: scale, BatchNorm, pool, an add_channel between */
                    o[k].kind = FC3D_OP_SCALE; o[k++].value = 0.75f;
                    o[k].kind = FC3D_OP_BATCHNORM_TRAIN; o[k++].flags = bn;
                    o[k++].kind = FC3D_OP_ADD_CHANNEL;
                    o[k++].kind = FC3D_OP_GLOBAL_AVG_POOL;
                    nstat = 2;
                } else { /* the spatial mean, a GroupNorm, an inference BatchNorm, a training one, ... */
                    o[k++].kind = FC3D_OP_SUB_SPATIAL_MEAN;
                    o[k].kind = FC3D_OP_GROUPNORM; o[k].groups = shape[sh][1] == 16 ? 4 : 1;
                    o[k].flags = FC3D_OP_AFFINE; o[k++].eps = 1e-5f;
                    o[k].kind = FC3D_OP_BATCHNORM_INFER; o[k++].flags = FC3D_OP_AFFINE;
                    o[k].kind = FC3D_OP_BATCHNORM_TRAIN; o[k++].flags = bn;
                    o[k].kind = FC3D_OP_SCALE; o[k++].value = -1.25f;
                    o[k++].kind = FC3D_OP_SUB_SPATIAL_MEAN;
                    nstat = 4;
                    if (chain == 3) { /* one past the tail's ops */
                        o[k].kind = FC3D_OP_GROUPNORM; o[k].groups = 2; o[k++].eps = 1e-5f;
                        nstat = 5;
                    }
                }
                d->num_ops = k;
                char name[160];
                const int64_t cells = (int64_t)shape[sh][0] * shape[sh][1];
                snprintf(name, sizeof name, "moments_tail.n%d.c%d.chain%d.%s", shape[sh][0], shape[sh][1], chain,
                         eng ? "implicit_gemm.tf32" : "direct.fp32");
                if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS || hc.plan.stats_plan != FC3D_STATS_PLAN_MOMENTS) {
                    check(0, name, "plan: %s", hc.plan.message);
                    continue;
                }
                /* the form: the tail where the cells and ops fit (summing the partials itself where
                   they number at most _FC3D_MT_PARTS), the separate launches otherwise */
                const fc3d_plan_private_* pr = &hc.plan._private;
                int tails = 0, raw_tails = 0, moments = 0, finalizes = 0;
                for (int i = 0; i < pr->num_steps; i++) {
                    tails += pr->steps[i].kind == _FC3D_STEP_MOMENTS_TAIL;
                    raw_tails += pr->steps[i].kind == _FC3D_STEP_MOMENTS_TAIL && pr->steps[i].arg[0];
                    moments += pr->steps[i].kind == _FC3D_STEP_MOMENTS;
                    finalizes += pr->steps[i].kind == _FC3D_STEP_FINALIZE && pr->steps[i].stat_op == _FC3D_MOMENTS;
                }
                const int w = chain < 2 ? 1 : shape[sh][1] == 16 ? 4 : shape[sh][1]; /* channels a block */
                const int fits = (int64_t)shape[sh][0] * w <= _FC3D_MT_CELLS && nstat <= _FC3D_MT_OPS;
                const int raw = fits && (double)shape[sh][0] * w * (double)pr->stat[_FC3D_MOMENTS].slots <= _FC3D_MT_PARTS;
                int tail_w = 0;
                for (int i = 0; i < pr->num_steps; i++)
                    if (pr->steps[i].kind == _FC3D_STEP_MOMENTS_TAIL) tail_w = (int)pr->steps[i].arg[2];
                const int form_ok = fits ? tails == 1 && raw_tails == raw && finalizes == !raw && moments == 0 && tail_w == w
                                         : tails == 0 && finalizes == 1 && moments == nstat;
                char form_name[192];
                snprintf(form_name, sizeof form_name, "%s.form", name);
                check(form_ok, form_name,
                      "%d tail steps (%d summing the partials, %d channels a block, want %d), %d finalize, %d moments "
                      "steps; %lld cells x %lld slots, %d statistics ops", tails, raw_tails, tail_w, w, finalizes, moments,
                      (long long)cells, (long long)pr->stat[_FC3D_MOMENTS].slots, nstat);
                fill_case_tensors(&hc);
                check_vs_cpu(name, &hc, bound_for(d->math, d->dtype));
                host_case_free(&hc);
            }
    _fc3d_mtail_on = was_on;
}

/* ---- 3b'. CUDA graph capture ------------------------------------------------------------------ */
/* A run enqueued while its stream is captured into a CUDA graph (global capture mode, the strictest:
   no call that synchronises or allocates may happen meanwhile), the graph instantiated and launched
   twice, y poisoned before each launch: y equals that of an ordinary run of the same plan bit for
   bit each time. Plans with a GEMM step, a finalize and a streamed read-back (ReLU + GroupNorm),
   a zero fill (a memset node; stride and dilation 2), the block loop with a training BatchNorm and
   the spatial-mean subtraction (statistics from moments), a whole-row LayerNorm over W with a GELU,
   and the direct engine. */
static void test_graph_capture(void) {
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int k = 0; k < 5; k++) {
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        static const int cfg[5][9] = {/* batch, cin, cout, D, H, W, stride, padding, dilation */
                                      {2, 32, 64, 4, 6, 7, 1, 0, 1},
                                      {2, 32, 64, 4, 6, 8, 2, 1, 2},
                                      {2, 16, 32, 4, 8, 8, 2, 1, 1},
                                      {2, 32, 64, 3, 5, 32, 2, 1, 1},
                                      {2, 8, 12, 3, 4, 5, 2, 1, 1}};
        static const char* const what[5] = {"relu_groupnorm", "zero_fill", "bn_train_submean", "layernorm_w_gelu",
                                            "direct_bn_train"};
        const int* c = cfg[k];
        d->conv.batch = c[0];
        d->conv.in_channels = c[1];
        d->conv.out_channels = c[2];
        for (int i = 0; i < 3; i++) {
            d->conv.in_size[i] = c[3 + i];
            d->conv.kernel[i] = 3;
            d->conv.stride[i] = c[6];
            d->conv.padding[i] = c[7];
            d->conv.dilation[i] = c[8];
        }
        d->conv.bias = k == 2 || k == 3;
        d->math = k == 4 ? FC3D_MATH_FP32 : FC3D_MATH_TF32;
        d->engine = k == 4 ? FC3D_ENGINE_DIRECT : FC3D_ENGINE_AUTO;
        int o = 0;
        if (k == 0) {
            d->ops[o++].kind = FC3D_OP_RELU;
            d->ops[o].kind = FC3D_OP_GROUPNORM;
            d->ops[o].groups = 8;
            d->ops[o++].flags = FC3D_OP_AFFINE;
        } else if (k == 2 || k == 4) { /* running statistics left out: two launches must give the same y */
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o++].flags = FC3D_OP_AFFINE | FC3D_OP_SAVE_BATCH_STATS;
            d->ops[o++].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        } else if (k == 3) {
            d->ops[o].kind = FC3D_OP_LAYERNORM;
            d->ops[o].norm_dims = 1;
            d->ops[o++].flags = FC3D_OP_AFFINE;
            d->ops[o++].kind = FC3D_OP_GELU;
        }
        d->num_ops = o;
        char name[128];
        snprintf(name, sizeof name, "graph_capture.%d.%s", k, what[k]);
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        const fc3d_plan* p = &hc.plan;
        fill_case_tensors(&hc);
        device_case dc;
        device_case_upload(&hc, &dc);
        const fc3d_run_args a = device_case_args(&hc, &dc, s);
        const size_t nb = dc.y_bytes;
        unsigned char* want = (unsigned char*)malloc(nb);
        unsigned char* got = (unsigned char*)malloc(nb);
        fc3d_message msg;
        device_case_poison(&hc, &dc);
        fc3d_result r = fc3d_plan_run(p, &a, &msg);
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpy(want, dc.y, nb, cudaMemcpyDeviceToHost));
        int ok = r == FC3D_SUCCESS;
        cudaGraph_t g = NULL;
        cudaGraphExec_t ge = NULL;
        cudaError_t ce = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
        if (ce == cudaSuccess) {
            r = fc3d_plan_run(p, &a, &msg);
            ce = cudaStreamEndCapture(s, &g);
        }
        if (ce == cudaSuccess && r == FC3D_SUCCESS) ce = cudaGraphInstantiate(&ge, g, 0);
        int same = 0;
        for (int rep = 0; rep < 2 && ce == cudaSuccess && r == FC3D_SUCCESS; rep++) {
            device_case_poison(&hc, &dc);
            ce = cudaGraphLaunch(ge, s);
            if (ce == cudaSuccess) ce = cudaStreamSynchronize(s);
            if (ce == cudaSuccess) ce = cudaMemcpy(got, dc.y, nb, cudaMemcpyDeviceToHost);
            same += ce == cudaSuccess && memcmp(want, got, nb) == 0;
        }
        if (ce != cudaSuccess) (void)cudaGetLastError();
        ok = ok && r == FC3D_SUCCESS && ce == cudaSuccess && same == 2;
        check(ok, name, "engine %s, main loop %d, %d steps: run %s, capture %s (%s), %d of 2 graph launches bitwise equal",
              fc3d_engine_name(p->engine), fc3d_plan_main_loop(p), p->_private.num_steps,
              r == FC3D_SUCCESS ? "ok" : msg.text, ce == cudaSuccess ? "ok" : "failed", cudaGetErrorString(ce), same);
        if (ge) CUDA_OK(cudaGraphExecDestroy(ge));
        if (g) CUDA_OK(cudaGraphDestroy(g));
        free(want);
        free(got);
        device_case_free(&dc);
        host_case_free(&hc);
    }
    CUDA_OK(cudaStreamDestroy(s));
}

/* ---- 3a'''. runs back to back ---------------------------------------------------------------- */
/* A run's kernels are programmatic dependent launches where the device has them (sm_90: each
   scheduled while the one before it drains, waiting before it touches what that one writes), and
   the haloed loop's prep step lets x's copy start before the weight's magnitude is known: one
   run's copy must never overwrite what the run before it still reads. Six plans (the haloed loop's
   phase tiles in TF32 - x held as it is, and x at 4e5, copied again at its scale -, half and FP32,
   conv alone and ReLU-GroupNorm; its warp-specialized row tiles with a LayerNorm over W and a
   GELU; a training BatchNorm then the mean subtraction on the planner's choice): on one stream,
   run on x1 into y1, then x2 into y2, three times over with no synchronisation between, sharing
   one workspace; y1 and y2 bitwise equal to each input's run alone (which differ from each
   other). Needs the haloed loop for cases 0-4. */
static void test_back_to_back(void) {
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    static const char* const what[6] = {"halo_tf32_relu_groupnorm", "halo_half", "halo_fp32_relu_groupnorm",
                                        "halo_tf32_x4e5", "halo_rows_tf32_layernorm_gelu", "bn_train_submean"};
    for (int k = 0; k < 6; k++) {
        char name[128];
        snprintf(name, sizeof name, "back_to_back.%d.%s", k, what[k]);
        if (k < 5 && no_halo(name)) continue;
        host_case hc;
        memset(&hc, 0, sizeof hc);
        fc3d_plan_desc* d = &hc.desc;
        if (k == 4) halo_row_conv(d);
        else halo_small_conv(d, k == 5 ? 64 : 128, 6, 10, 16);
        d->conv.bias = k % 2 == 1;
        d->math = k == 1 ? FC3D_MATH_HALF : k == 2 ? FC3D_MATH_FP32 : FC3D_MATH_TF32;
        d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
        d->main_loop = k < 5 ? FC3D_MAIN_LOOP_HALO : FC3D_MAIN_LOOP_AUTO;
        int o = 0;
        if (k == 0 || k == 2) {
            d->ops[o++].kind = FC3D_OP_RELU;
            d->ops[o].kind = FC3D_OP_GROUPNORM;
            d->ops[o].groups = 8;
            d->ops[o].eps = 1e-5f;
            d->ops[o++].flags = FC3D_OP_AFFINE;
        } else if (k == 4) {
            d->ops[o].kind = FC3D_OP_LAYERNORM;
            d->ops[o].norm_dims = 1;
            d->ops[o].eps = 1e-5f;
            d->ops[o++].flags = FC3D_OP_AFFINE;
            d->ops[o++].kind = FC3D_OP_GELU;
        } else if (k == 5) { /* (no running statistics: every run on the same x gives the same y) */
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o].eps = 1e-5f;
            d->ops[o++].flags = FC3D_OP_AFFINE;
            d->ops[o++].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        }
        d->num_ops = o;
        d->strategy = FC3D_STRATEGY_MATERIALIZE;
        if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) {
            check(0, name, "plan: %s", hc.plan.message);
            continue;
        }
        const fc3d_plan* p = &hc.plan;
        if (k < 5 && fc3d_plan_main_loop(p) != (int)FC3D_MAIN_LOOP_HALO) {
            check(0, name, "not on the haloed loop (main loop %d)", fc3d_plan_main_loop(p));
            host_case_free(&hc);
            continue;
        }
        fill_case_tensors(&hc);
        const double x_hi = k == 3 ? 4e5 : 1.0;
        if (k == 3) {
            free(hc.x);
            hc.x = alloc_fill(p->x_elements, 0.0, x_hi, d->dtype);
        }
        double* x2 = alloc_fill(p->x_elements, 0.0, x_hi, d->dtype);
        device_case dc;
        device_case_upload(&hc, &dc);
        const fc3d_conv_desc* c = &p->desc.conv;
        const int64_t xd[5] = {c->batch, c->in_channels, c->in_size[0], c->in_size[1], c->in_size[2]};
        void* dx2 = upload_5d(x2, xd, p->desc.layout, p->desc.dtype);
        void* dy2 = NULL;
        const size_t nb = dc.y_bytes;
        CUDA_OK(cudaMalloc(&dy2, nb));
        unsigned char* want[2] = {(unsigned char*)malloc(nb), (unsigned char*)malloc(nb)};
        unsigned char* got = (unsigned char*)malloc(nb);
        fc3d_run_args a[2];
        a[0] = device_case_args(&hc, &dc, s);
        a[1] = a[0];
        a[1].x = dx2;
        a[1].y = dy2;
        fc3d_message msg;
        int ok = 1;
        for (int j = 0; j < 2; j++) { /* each input alone */
            device_case_poison(&hc, &dc);
            CUDA_OK(cudaMemset(dy2, 0xff, nb));
            CUDA_OK(cudaDeviceSynchronize());
            ok = ok && fc3d_plan_run(p, &a[j], &msg) == FC3D_SUCCESS;
            CUDA_OK(cudaStreamSynchronize(s));
            CUDA_OK(cudaMemcpy(want[j], a[j].y, nb, cudaMemcpyDeviceToHost));
        }
        const int differ = memcmp(want[0], want[1], nb) != 0;
        device_case_poison(&hc, &dc);
        CUDA_OK(cudaMemset(dy2, 0xff, nb));
        CUDA_OK(cudaDeviceSynchronize());
        for (int rep = 0; rep < 3 && ok; rep++)
            for (int j = 0; j < 2 && ok; j++) ok = fc3d_plan_run(p, &a[j], &msg) == FC3D_SUCCESS;
        CUDA_OK(cudaStreamSynchronize(s));
        int same = 0;
        for (int j = 0; j < 2; j++) {
            CUDA_OK(cudaMemcpy(got, a[j].y, nb, cudaMemcpyDeviceToHost));
            same += memcmp(want[j], got, nb) == 0;
        }
        check(ok && differ && same == 2, name, "engine %s, main loop %d, %d steps: runs %s, the two inputs' y %s, %d of 2 "
              "bitwise equal after six runs back to back", fc3d_engine_name(p->engine), fc3d_plan_main_loop(p),
              p->_private.num_steps, ok ? "ok" : msg.text, differ ? "differ" : "equal", same);
        free(want[0]);
        free(want[1]);
        free(got);
        free(x2);
        CUDA_OK(cudaFree(dx2));
        CUDA_OK(cudaFree(dy2));
        device_case_free(&dc);
        host_case_free(&hc);
    }
    CUDA_OK(cudaStreamDestroy(s));
}

/* ---- 3b. a pending CUDA error -------------------------------------------------------------------- */
/* An error an earlier call left pending must not read as this run's launch failure halfway through
   the passes: the run refuses to start, writes nothing, and runs once the caller has cleared it. */
static void test_pending_error(void) {
    host_case hc;
    make_random_case(&hc, 0);
    device_case dc;
    device_case_upload(&hc, &dc);
    device_case_poison(&hc, &dc);
    const fc3d_run_args a = device_case_args(&hc, &dc, 0);
    void* huge = NULL;
    const cudaError_t planted = cudaMalloc(&huge, (size_t)1 << 62); /* fails, and leaves its error pending */
    fc3d_message msg;
    const fc3d_result r = fc3d_plan_run(&hc.plan, &a, &msg);
    const cudaError_t cleared = cudaGetLastError();
    unsigned char* h = (unsigned char*)malloc(dc.y_bytes);
    CUDA_OK(cudaMemcpy(h, dc.y, dc.y_bytes, cudaMemcpyDeviceToHost));
    int untouched = 1;
    for (size_t i = 0; i < dc.y_bytes; i++) untouched &= h[i] == 0xff;
    const fc3d_result r2 = fc3d_plan_run(&hc.plan, &a, NULL);
    CUDA_OK(cudaDeviceSynchronize());
    check(planted != cudaSuccess && cleared == planted && r == FC3D_ERROR_CUDA && strstr(msg.text, "pending") &&
              untouched && r2 == FC3D_SUCCESS,
          "pending_error.refused", "planted %d, run %d (%s), y untouched %d, run after clearing %d", (int)planted,
          (int)r, msg.text, untouched, (int)r2);
    free(h);
    device_case_free(&dc);
    host_case_free(&hc);
}

/* TF32 operand rounding: the tensor-core engine's (_fc3d_tc_round) and the direct engine's
   (_fc3d_operand) against a host oracle that rounds the value's 11-bit significand with the FPU's
   own round-to-nearest-even (rint), on values halfway between two TF32 numbers (where ties to even
   and ties away differ), just off halfway, random ones, subnormals, and the specials. */
static __global__ void tf32_round_kernel(const float* v, uint32_t* tc, float* op, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    tc[i] = _fc3d_tc_round(v[i]);
    op[i] = _fc3d_operand<FC3D_MATH_TF32, float>(v[i]);
}

static float tf32_oracle(float v) {
    if (!isfinite(v) || v == 0.f) return v;
    int e;
    const double m = frexp((double)v, &e);         /* v = m 2^e, 0.5 <= |m| < 1 */
    const int keep = e < -125 ? 11 - (-125 - e) : 11; /* subnormals keep fewer significand bits */
    return (float)ldexp(rint(ldexp(m, keep)), e - keep);
}

static void test_tf32_rounding(void) {
    enum { N = 1 << 16 };
    float* h = (float*)malloc(N * sizeof(float));
    int ties = 0;
    uint64_t z = 0x2545f4914f6cdd1dull; /* its own generator: the random suites' draws stay as they were */
    auto next = [&z]() { z ^= z << 13; z ^= z >> 7; z ^= z << 17; return (uint32_t)(z >> 16); };
    for (int i = 0; i < N; i++) {
        uint32_t b = next() & 0xffffe000u;
        b = (b & 0x807fffffu) | ((100u + next() % 56u) << 23); /* |v| ~ 2^-27 .. 2^28 */
        switch (i % 4) {
        case 0: b |= 0x1000u; ++ties; break;              /* exactly halfway */
        case 1: b |= 0x1000u + (i & 2 ? 1u : 0xfffu); break; /* just above halfway */
        case 2: b |= 0x0fffu; break;                      /* just below */
        default: b |= next() & 0x1fffu; break;
        }
        memcpy(&h[i], &b, 4);
    }
    const uint32_t specials[] = {0x00001000u, 0x00003000u, 0x00400000u, 0x80001000u, 0x7f7fffffu, 0x7f800000u,
                                 0xff800000u, 0x00000000u, 0x80000000u, 0x3f801000u, 0x3f803000u, 0xbf801000u};
    for (int i = 0; i < (int)(sizeof specials / sizeof specials[0]); i++) memcpy(&h[i * 4 + 3], &specials[i], 4);
    float *dv, *dop;
    uint32_t* dtc;
    CUDA_OK(cudaMalloc(&dv, N * sizeof(float)));
    CUDA_OK(cudaMalloc(&dop, N * sizeof(float)));
    CUDA_OK(cudaMalloc(&dtc, N * sizeof(uint32_t)));
    CUDA_OK(cudaMemcpy(dv, h, N * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(dop, 0xff, N * sizeof(float)));
    CUDA_OK(cudaMemset(dtc, 0xff, N * sizeof(uint32_t)));
    tf32_round_kernel<<<N / 256, 256>>>(dv, dtc, dop, N);
    CUDA_OK(cudaGetLastError());
    uint32_t* tc = (uint32_t*)malloc(N * sizeof(uint32_t));
    float* op = (float*)malloc(N * sizeof(float));
    CUDA_OK(cudaMemcpy(tc, dtc, N * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(op, dop, N * sizeof(float), cudaMemcpyDeviceToHost));
    int bad_tc = 0, bad_op = 0, first = -1, ties_down = 0;
    for (int i = 0; i < N; i++) {
        const float want = tf32_oracle(h[i]);
        uint32_t wb;
        memcpy(&wb, &want, 4);
        uint32_t ob;
        memcpy(&ob, &op[i], 4);
        uint32_t hb;
        memcpy(&hb, &h[i], 4);
        if (i % 4 == 0 && (hb & 0x7fffffffu) > (wb & 0x7fffffffu)) ++ties_down; /* a tie rounded toward zero */
        if (tc[i] != wb) { ++bad_tc; if (first < 0) first = i; }
        if (ob != wb) { ++bad_op; if (first < 0) first = i; }
    }
    uint32_t fb = 0;
    if (first >= 0) memcpy(&fb, &h[first], 4);
    check(bad_tc == 0 && bad_op == 0 && ties_down > ties / 4, "tf32_rounding.ties_to_even",
          "%d values (%d halfway): tensor-core rounding %d wrong, direct engine's %d wrong (first 0x%08x); %d ties "
          "rounded toward zero", N, ties, bad_tc, bad_op, (unsigned)fb, ties_down);
    free(h); free(tc); free(op);
    CUDA_OK(cudaFree(dv)); CUDA_OK(cudaFree(dop)); CUDA_OK(cudaFree(dtc));
}

/* ---- 4. 64-bit offsets ------------------------------------------------------------------------- */
/* A 1x1x1 convolution from one channel to two is y[c] = x * w[c] + b[c], so a 2.25e9-element f16
   output can be checked at sampled points, most of them past element 2^31, on every engine. */
static __global__ void fill_pattern(__half* x, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        x[i] = __float2half_rn((float)((i * 2654435761ull) % 1000) * 0.001f);
}

/* One synchronised run of plan p on device tensors, no op tensors, workspace ws of the plan's size. */
static fc3d_result run_plain(const fc3d_plan* p, const void* x, const void* w, const void* b, void* y, void* ws,
                             fc3d_message* msg) {
    fc3d_run_args a;
    memset(&a, 0, sizeof a);
    a.x = x; a.weight = w; a.bias = b; a.y = y;
    a.workspace = ws; a.workspace_bytes = p->workspace_bytes;
    const fc3d_result r = fc3d_plan_run(p, &a, msg);
    CUDA_OK(cudaDeviceSynchronize());
    return r;
}

static void test_large_offsets(fc3d_engine engine) {
    size_t free_b = 0, total_b = 0;
    char name[96];
    CUDA_OK(cudaMemGetInfo(&free_b, &total_b));
    fc3d_plan_desc d;
    memset(&d, 0, sizeof d);
    d.conv.batch = d.conv.in_channels = 1;
    d.conv.out_channels = 2;
    d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 1040; /* 2 x 1.125e9 = 2.25e9 > 2^31 */
    d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 1;
    d.conv.bias = 1;
    d.dtype = FC3D_DTYPE_F16;
    d.engine = engine;
    d.ops[0].kind = FC3D_OP_RELU;
    d.num_ops = 1;
    snprintf(name, sizeof name, "%s.large_offsets.f16_2p31", fc3d_engine_name(engine));
    fc3d_plan p;
    if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS) {
        check(0, name, "plan: %s", p.message);
        return;
    }
    const int64_t pos = p.x_elements;
    const size_t xbytes = (size_t)pos * 2, ybytes = (size_t)p.y_elements * 2;
    if (free_b < xbytes + ybytes + p.workspace_bytes + ((size_t)1 << 30)) {
        printf("# %s not run: needs %zu MB of GPU memory, %zu free\n", name, (xbytes + ybytes) >> 20, free_b >> 20);
        return;
    }
    __half *x, *y, *w, *b;
    void* ws = NULL;
    const __half hw[2] = {__float2half_rn(-1.5f), __float2half_rn(0.75f)};
    const __half hb[2] = {__float2half_rn(0.25f), __float2half_rn(-0.125f)};
    CUDA_OK(cudaMalloc((void**)&x, xbytes));
    CUDA_OK(cudaMalloc((void**)&y, ybytes));
    CUDA_OK(cudaMalloc((void**)&w, 4));
    CUDA_OK(cudaMalloc((void**)&b, 4));
    if (p.workspace_bytes) CUDA_OK(cudaMalloc(&ws, p.workspace_bytes));
    CUDA_OK(cudaMemcpy(w, hw, 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, hb, 4, cudaMemcpyHostToDevice));
    fill_pattern<<<4096, 256>>>(x, pos);
    CUDA_OK(cudaMemset(y, 0xff, ybytes));
    fc3d_message msg;
    const fc3d_result r = run_plain(&p, x, w, b, y, ws, &msg);
    int bad = r != FC3D_SUCCESS;
    int64_t checked = 0, past = 0;
    for (int64_t i = p.y_elements - 1; i > 0 && !bad; i = i * 7 / 8) {
        const int64_t c = i / pos, at = i % pos; /* NCDHW */
        __half hx, hy;
        CUDA_OK(cudaMemcpy(&hx, x + at, 2, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(&hy, y + i, 2, cudaMemcpyDeviceToHost));
        float v = __half2float(hx) * __half2float(hw[c]) + __half2float(hb[c]);
        v = v < 0 ? 0 : v;
        if (fabsf(__half2float(hy) - __half2float(__float2half_rn(v))) > 1e-3f * (1.0f + fabsf(v))) bad = 1;
        checked++;
        past += i >= ((int64_t)1 << 31);
    }
    check(!bad && checked > 100 && past > 0, name, "run %d (%s), %lld samples checked, %lld past 2^31, engine %s", (int)r,
          msg.text, (long long)checked, (long long)past, fc3d_engine_name(p.engine));
    cudaFree(x); cudaFree(y); cudaFree(w); cudaFree(b); cudaFree(ws);
}

/* The block loop past 2^31 output elements (float32, 32 channels x 2048 x 2048 x 18 = 2.4e9):
   kernel 2, stride 2, so each output is one tap of 8 input channels, with inputs k / 8 and weights
   +-0.5, +-0.25 (exact in TF32, so the sums are exact in float32); outputs sampled down from the
   last and compared with the host's sum. */
static __global__ void fill_eighths(float* x, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        x[i] = (float)((i * 2654435761ull) % 16) * 0.125f;
}
static void test_large_offsets_block(void) {
    size_t free_b = 0, total_b = 0;
    const char* name = "implicit_gemm.large_offsets.block_f32_2p31";
    CUDA_OK(cudaMemGetInfo(&free_b, &total_b));
    fc3d_plan_desc d;
    memset(&d, 0, sizeof d);
    d.conv.batch = 1;
    d.conv.in_channels = 8;
    d.conv.out_channels = 32;
    d.conv.in_size[0] = d.conv.in_size[1] = 1024;
    d.conv.in_size[2] = 9;
    for (int i = 0; i < 3; i++) d.conv.kernel[i] = d.conv.stride[i] = 2;
    d.conv.bias = 1;
    d.math = FC3D_MATH_TF32;
    d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
    d.main_loop = FC3D_MAIN_LOOP_BLOCK;
    fc3d_plan p;
    if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS) {
        check(0, name, "plan: %s", p.message);
        return;
    }
    const size_t xbytes = (size_t)p.x_elements * 4, ybytes = (size_t)p.y_elements * 4;
    if (free_b < xbytes + ybytes + p.workspace_bytes + ((size_t)1 << 30)) {
        printf("# %s not run: needs %zu MB of GPU memory, %zu free\n", name, (xbytes + ybytes) >> 20, free_b >> 20);
        return;
    }
    const int64_t nw = p.weight_elements;
    float* hw = (float*)malloc((size_t)nw * 4);
    float hb[32];
    for (int64_t i = 0; i < nw; i++) hw[i] = (i % 4 == 0 ? 0.5f : i % 4 == 1 ? -0.25f : i % 4 == 2 ? 0.25f : -0.5f);
    for (int c = 0; c < 32; c++) hb[c] = 0.125f * (float)(c % 5) - 0.25f;
    float *x, *y, *w, *b;
    void* ws = NULL;
    CUDA_OK(cudaMalloc((void**)&x, xbytes));
    CUDA_OK(cudaMalloc((void**)&y, ybytes));
    CUDA_OK(cudaMalloc((void**)&w, (size_t)nw * 4));
    CUDA_OK(cudaMalloc((void**)&b, sizeof hb));
    if (p.workspace_bytes) CUDA_OK(cudaMalloc(&ws, p.workspace_bytes));
    CUDA_OK(cudaMemcpy(w, hw, (size_t)nw * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    fill_eighths<<<4096, 256>>>(x, p.x_elements);
    CUDA_OK(cudaMemset(y, 0xff, ybytes));
    fc3d_message msg;
    const fc3d_result r = run_plain(&p, x, w, b, y, ws, &msg);
    int bad = r != FC3D_SUCCESS || fc3d_plan_main_loop(&p) != FC3D_MAIN_LOOP_BLOCK;
    int64_t checked = 0, past = 0;
    const int64_t O[3] = {p.y_dims[2], p.y_dims[3], p.y_dims[4]}, I[3] = {1024, 1024, 9}, ovol = O[0] * O[1] * O[2];
    for (int64_t i = p.y_elements - 1; i > 0 && !bad; i = i * 7 / 8) {
        const int64_t c = i / ovol, sp = i % ovol, od = sp / (O[1] * O[2]), oh = sp / O[2] % O[1], ow = sp % O[2];
        double v = hb[c];
        for (int ci = 0; ci < 8; ci++) {
            const int64_t xi = ((ci * I[0] + od / 2) * I[1] + oh / 2) * I[2] + ow / 2;
            const float xv = (float)(((uint64_t)xi * 2654435761ull) % 16) * 0.125f;
            v += (double)xv * hw[((ci * 32 + c) * 2 + od % 2) * 4 + (oh % 2) * 2 + ow % 2];
        }
        float hy;
        CUDA_OK(cudaMemcpy(&hy, y + i, 4, cudaMemcpyDeviceToHost));
        if ((double)hy != v) bad = 1;
        checked++;
        past += i >= ((int64_t)1 << 31);
    }
    check(!bad && checked > 100 && past > 0, name, "run %d (%s), loop %d, %lld samples checked, %lld past 2^31", (int)r,
          msg.text, fc3d_plan_main_loop(&p), (long long)checked, (long long)past);
    free(hw);
    cudaFree(x); cudaFree(y); cudaFree(w); cudaFree(b); cudaFree(ws);
}

int main(int argc, char** argv) {
    const char* dir = "tests/golden/data";
    int cases = 300, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cases") && i + 1 < argc) cases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) rng_state = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--moments-tail")) { /* that test alone (the sanitizers' quick look at it) */
            test_moments_tail();
            return check_summary();
        }
        else if (!strcmp(argv[i], "--halo-row-prog")) { /* that test alone (a build's row tiles and the sanitizers) */
            test_halo_row_prog();
            return check_summary();
        }
        else if (!strcmp(argv[i], "--loop") && i + 1 < argc) loop_force = atoi(argv[++i]);
        else dir = argv[i];
    }
    if (quick) cases = cases < 24 ? cases : 24;
    printf("# seed 0x%llx, %d random cases\n", (unsigned long long)rng_state, cases);
    for (int e = 0; e < _FC3D_NUM_ENGINES; e++) {
        engine_under_test = _fc3d_engines[e].id;
        refused_by_engine = 0;
        row_tile_cases = halo_row_cases = 0;
        streamed_cases = streamed_gather_cases = streamed_composed_cases = streamed_composed_bn_infer = 0;
        memset(strategy_cases, 0, sizeof strategy_cases);
        memset(loop_cases, 0, sizeof loop_cases);
        memset(halo_math_cases, 0, sizeof halo_math_cases);
        memset(wgmma_math_cases, 0, sizeof wgmma_math_cases);
        linear_cases = 0;
        test_goldens(dir, quick);
        test_random(cases, quick ? 4 : cases / 10);
        test_determinism(quick ? 3 : 20);
        printf("# engine %s: %d descs refused (redrawn, or reported above for goldens); %d random cases on "
               "whole-row tiles, %d with a streamed read-back pass (%d gathering statistics, %d with its ops "
               "composed, %d of them through an inference BatchNorm)\n",
               fc3d_engine_name(engine_under_test), refused_by_engine, row_tile_cases, streamed_cases,
               streamed_gather_cases, streamed_composed_cases, streamed_composed_bn_infer);
        if (!quick) {
            char nm[80];
            snprintf(nm, sizeof nm, "%s.streamed_read_back_exercised", fc3d_engine_name(engine_under_test));
            check(streamed_cases >= 5 && streamed_gather_cases >= 3 && streamed_composed_cases >= 2 &&
                      streamed_cases - streamed_composed_cases >= 2,
                  nm, "%d random cases had a streamed read-back pass, %d of them gathering statistics, %d with "
                  "their ops composed", streamed_cases, streamed_gather_cases, streamed_composed_cases);
        }
        printf("# engine %s: random cases with statistics: materialize/per op %d, materialize/moments %d, "
               "recompute/per op %d, recompute/moments %d, linear %d\n", fc3d_engine_name(engine_under_test),
               strategy_cases[0][0], strategy_cases[0][1], strategy_cases[1][0], strategy_cases[1][1], linear_cases);
        if (!quick) {
            char nm[80];
            snprintf(nm, sizeof nm, "%s.strategies_exercised", fc3d_engine_name(engine_under_test));
            check(strategy_cases[0][0] >= 5 && strategy_cases[0][1] >= 5 && strategy_cases[1][0] >= 5 &&
                      strategy_cases[1][1] >= 5 && linear_cases >= 5,
                  nm, "random cases per strategy: %d %d %d %d, linear %d", strategy_cases[0][0], strategy_cases[0][1],
                  strategy_cases[1][0], strategy_cases[1][1], linear_cases);
        }
        if (engine_under_test == FC3D_ENGINE_IMPLICIT_GEMM) {
            const int wg = wgmma_here();
            printf("# engine implicit_gemm: random cases per main loop: mma.sync %d (C_in / groups a multiple of 16) "
                   "+ %d, wgmma %d (fp32 %d, tf32 %d, half %d), halo %d (fp32 %d, tf32 %d, half %d; %d on row tiles), "
                   "block %d%s\n",
                   loop_cases[0], loop_cases[1], loop_cases[2], wgmma_math_cases[FC3D_MATH_FP32],
                   wgmma_math_cases[FC3D_MATH_TF32], wgmma_math_cases[FC3D_MATH_HALF], loop_cases[3],
                   halo_math_cases[FC3D_MATH_FP32], halo_math_cases[FC3D_MATH_TF32], halo_math_cases[FC3D_MATH_HALF],
                   halo_row_cases, loop_cases[4],
                   wg ? "" : " (this binary has no sm_90a code for this device: wgmma not exercised)");
            if (!quick && wg && loop_force < 0) /* (--loop forces one loop for every case) */
                check(loop_cases[0] >= 5 && loop_cases[2] >= 5 && wgmma_math_cases[FC3D_MATH_FP32] >= 3 &&
                          wgmma_math_cases[FC3D_MATH_TF32] >= 3 && wgmma_math_cases[FC3D_MATH_HALF] >= 3 &&
                          loop_cases[3] >= 2 && halo_row_cases >= 2 && halo_math_cases[FC3D_MATH_FP32] >= 2 &&
                          halo_math_cases[FC3D_MATH_TF32] >= 2 && halo_math_cases[FC3D_MATH_HALF] >= 2,
                      "implicit_gemm.main_loops_exercised",
                      "random cases: mma.sync on wgmma-eligible channels %d, wgmma %d (fp32 %d, tf32 %d, half %d), "
                      "halo %d (fp32 %d, tf32 %d, half %d; %d on row tiles)", loop_cases[0], loop_cases[2],
                      wgmma_math_cases[FC3D_MATH_FP32], wgmma_math_cases[FC3D_MATH_TF32],
                      wgmma_math_cases[FC3D_MATH_HALF], loop_cases[3], halo_math_cases[FC3D_MATH_FP32],
                      halo_math_cases[FC3D_MATH_TF32], halo_math_cases[FC3D_MATH_HALF], halo_row_cases);
        }
        if (engine_under_test == FC3D_ENGINE_IMPLICIT_GEMM && !quick)
            check(row_tile_cases >= 5, "implicit_gemm.row_tiles_exercised", "%d random cases used whole-row tiles",
                  row_tile_cases);
        if (engine_under_test == FC3D_ENGINE_IMPLICIT_GEMM) {
            printf("# engine implicit_gemm: %d random cases zero-filled y and skipped their tap-less tiles, %d of "
                   "them on the haloed loop\n", zero_fill_cases, zero_fill_halo_cases);
        }
        zero_fill_cases = zero_fill_halo_cases = 0;
    }
    test_tf32_rounding();
    test_moments_tail();
    test_cross_engine(quick ? 4 : 40);
    test_cross_loop(quick ? 4 : 40);
    test_zero_fill();
    test_halo_stats_ops();
    test_halo_fp32_range();
    test_halo_prep_wide();
    test_halo_short_k();
    test_halo_plane_rows();
    test_halo_rows_store();
    test_halo_row_prog();
    test_row_pass();
    test_row_pass_vec();
    test_halo_x3_rows();
    test_block_loop(quick ? 8 : 48);
    test_warp_rows(quick ? 12 : 40);
    test_block_loop_range();
    test_block_loop_constant();
    test_constant_channels_loops();
    test_smem_grant();
    test_smem_attr_threads();
    test_linear_sums();
    test_graph_capture();
    test_back_to_back();
    if (!quick) test_pending_error(); /* it plants a failing cudaMalloc, which memcheck reports */
    if (!quick) {
        for (int e = 0; e < _FC3D_NUM_ENGINES; e++) test_large_offsets(_fc3d_engines[e].id);
        test_large_offsets_block();
    }
    static const char* const ma[] = {"", "fp32", "tf32", "half"};
    static const char* const ty[] = {"", "f32", "f16", "bf16"};
    for (int m = 1; m <= 3; m++)
        for (int t = 1; t <= 3; t++)
            printf("# largest rel-L2 error: math %s, dtype %s: %.3g (bound %.1g)\n", ma[m], ty[t], worst[m][t],
                   bound_for((fc3d_math)m, (fc3d_dtype)t));
    return check_summary();
}
