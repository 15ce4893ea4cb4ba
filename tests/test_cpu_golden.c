/* test_cpu_golden.c - the CPU reference (fusedconv3d_cpu.h) against PyTorch's own results.

   usage: test_cpu_golden [DIR]      DIR defaults to tests/golden/data (made by
                                     tests/golden/make_goldens.py; see tests/golden/README.md)

   For every case in DIR/MANIFEST: load it, run fc3d_cpu_run on its inputs, and compare y, the
   updated running statistics and the saved batch statistics with what PyTorch computed. Also
   checks that y's shape is fc3d_cpu_output_dims, that inference BatchNorm leaves its running
   statistics alone, and that the file holds exactly the op tensors the desc calls for.

   Output: one line per case, "ok <name>" or "FAIL <name>: <detail>", then "<N> passed, <M> failed".
   Exit status 1 if anything failed or no case was found: a missing golden set fails loudly. */
#define FUSEDCONV3D_CPU_IMPLEMENTATION
#include "fusedconv3d_cpu.h"

#include "golden_io.h"

/* Both sides compute in float64 (PyTorch's CPU kernels on float64 tensors, the reference with
   every sum in double), so they differ only by summation order and libm: ~1e-15 relative on
   well-conditioned outputs. The bound 1e-10 leaves five orders of magnitude for conditioning
   (normalising a small variance, cancellation in a mean) and still catches any semantic slip,
   which shows at 1e-4 or more. NaN never passes: the test is written as !(err <= bound). */
#define REL_L2_BOUND 1e-10

#define DETAIL_LEN 2048

typedef struct detail {
    char text[DETAIL_LEN];
    size_t used;
    int count;
} detail;

static void note(detail* d, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void note(detail* d, const char* fmt, ...) {
    va_list ap;
    int n;
    d->count++;
    if (d->used + 8 >= DETAIL_LEN) return;
    if (d->used > 0) {
        memcpy(d->text + d->used, "; ", 3);
        d->used += 2;
    }
    va_start(ap, fmt);
    n = vsnprintf(d->text + d->used, DETAIL_LEN - d->used, fmt, ap);
    va_end(ap);
    if (n > 0) d->used += (size_t)n;
    if (d->used >= DETAIL_LEN) d->used = DETAIL_LEN - 1;
}

/* got against want->data: relative L2 error, and no NaN or infinity in got. */
static void compare(detail* d, const char* what, const double* got, const golden_tensor* want) {
    double diff2 = 0.0, ref2 = 0.0, err, worst = 0.0;
    int64_t i, worst_at = 0, bad_at = -1, bad_want_at = -1;
    for (i = 0; i < want->count; ++i) {
        double e = got[i] - want->data[i];
        if (bad_at < 0 && !isfinite(got[i])) bad_at = i;
        if (bad_want_at < 0 && !isfinite(want->data[i])) bad_want_at = i;
        diff2 += e * e;
        ref2 += want->data[i] * want->data[i];
        if (!(fabs(e) <= worst)) {
            worst = fabs(e);
            worst_at = i;
        }
    }
    if (bad_want_at >= 0) {
        note(d, "golden %s[%lld] = %g", what, (long long)bad_want_at, want->data[bad_want_at]);
        return;
    }
    if (bad_at >= 0) {
        note(d, "%s[%lld] = %g", what, (long long)bad_at, got[bad_at]);
        return;
    }
    /* A reference that is exactly zero (SCALE by 0) must be matched exactly. */
    err = ref2 > 0.0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    if (!(err <= REL_L2_BOUND))
        note(d, "%s rel L2 err %.3g > %.0e (worst [%lld] got %.17g want %.17g)", what, err,
             REL_L2_BOUND, (long long)worst_at, got[worst_at], want->data[worst_at]);
}

static double* copy_of(const golden_tensor* t) {
    double* p = (double*)malloc((size_t)t->count * sizeof(double));
    if (p) memcpy(p, t->data, (size_t)t->count * sizeof(double));
    return p;
}

static double* nan_filled(int64_t n) {
    double* p = (double*)malloc((size_t)n * sizeof(double));
    int64_t i;
    if (p)
        for (i = 0; i < n; ++i) p[i] = NAN;
    return p;
}

enum { OPT_WEIGHT, OPT_BIAS, OPT_RM, OPT_RV, OPT_RM_OUT, OPT_RV_OUT, OPT_SAVE_MEAN, OPT_SAVE_INVSTD,
       OPT_COUNT_ };
static const char* const op_tensor_fields[OPT_COUNT_] = {
    "weight", "bias", "running_mean", "running_var", "running_mean_out", "running_var_out",
    "save_mean", "save_invstd"};

/* Which op tensors the file must hold for op (1) and which it must not (0), and their shape. */
static void op_tensor_plan(const fc3d_op* op, const int64_t conv_dims[5], int need[OPT_COUNT_],
                           int* pndim, int64_t pdims[4]) {
    int affine = (op->flags & FC3D_OP_AFFINE) != 0;
    int update = (op->flags & FC3D_OP_UPDATE_RUNNING_STATS) != 0;
    int save = (op->flags & FC3D_OP_SAVE_BATCH_STATS) != 0;
    int norm = op->kind == FC3D_OP_BATCHNORM_TRAIN || op->kind == FC3D_OP_BATCHNORM_INFER ||
               op->kind == FC3D_OP_GROUPNORM || op->kind == FC3D_OP_LAYERNORM;
    int train = op->kind == FC3D_OP_BATCHNORM_TRAIN;
    int k;
    need[OPT_WEIGHT] = norm && affine;
    need[OPT_BIAS] = (norm && affine) || op->kind == FC3D_OP_ADD_CHANNEL;
    need[OPT_RM] = need[OPT_RV] = op->kind == FC3D_OP_BATCHNORM_INFER || (train && update);
    need[OPT_RM_OUT] = need[OPT_RV_OUT] = train && update;
    need[OPT_SAVE_MEAN] = need[OPT_SAVE_INVSTD] = train && save;
    /* Weight and bias of LAYERNORM span its trailing dims; every other op tensor is [C]. */
    if (op->kind == FC3D_OP_LAYERNORM && op->norm_dims >= 1 && op->norm_dims <= 4) {
        *pndim = op->norm_dims;
        for (k = 0; k < op->norm_dims; ++k) pdims[k] = conv_dims[5 - op->norm_dims + k];
    } else {
        *pndim = 1;
        pdims[0] = conv_dims[1];
    }
}

/* Runs one case; returns 1 if it passed. Prints its line. */
static int run_case(const char* dir, const char* name) {
    char path[4096], err[GOLDEN_ERROR_LEN], s1[160], s2[160];
    golden_case gc;
    detail d;
    const golden_tensor *x, *w, *b, *y;
    const golden_tensor* t[FC3D_MAX_OPS][OPT_COUNT_];
    fc3d_cpu_op_tensors ops[FC3D_MAX_OPS];
    double* bufs[FC3D_MAX_OPS][OPT_COUNT_];
    double* y_out = NULL;
    int64_t y_dims[5], conv_dims[5], c_dims[1];
    int i, f, expected_tensors = 0;

    memset(&d, 0, sizeof d);
    memset(ops, 0, sizeof ops);
    memset(bufs, 0, sizeof bufs);
    memset(t, 0, sizeof t);
    if (golden_case_path(dir, name, path, sizeof path)) {
        printf("FAIL %s: path too long\n", name);
        return 0;
    }
    if (golden_load(path, &gc, err, sizeof err)) {
        printf("FAIL %s: %s\n", name, err);
        return 0;
    }
    x = golden_find(&gc, "x");
    w = golden_find(&gc, "weight");
    b = golden_find(&gc, "bias");
    y = golden_find(&gc, "y");
    expected_tensors = 3 + (b != NULL);

    if (fc3d_cpu_output_dims(&gc.desc, y_dims, conv_dims) != 0) {
        note(&d, "fc3d_cpu_output_dims refused the desc");
        goto done;
    }
    if (!golden_has_shape(y, 5, y_dims))
        note(&d, "y shape %s, fc3d_cpu_output_dims says %s",
             golden_shape_str(y->ndim, y->dims, s1, sizeof s1), golden_shape_str(5, y_dims, s2, sizeof s2));

    c_dims[0] = conv_dims[1];
    for (i = 0; i < gc.desc.num_ops; ++i) {
        int need[OPT_COUNT_], pndim;
        int64_t pdims[4];
        op_tensor_plan(&gc.desc.ops[i], conv_dims, need, &pndim, pdims);
        for (f = 0; f < OPT_COUNT_; ++f) {
            const golden_tensor* g = golden_find_op(&gc, i, op_tensor_fields[f]);
            int is_param = f == OPT_WEIGHT || f == OPT_BIAS;
            if (!need[f]) {
                if (g) note(&d, "op%d.%s present but op %d does not use it", i, op_tensor_fields[f], i);
                continue;
            }
            expected_tensors++;
            if (!g) {
                note(&d, "op%d.%s missing", i, op_tensor_fields[f]);
                continue;
            }
            if (is_param && !golden_has_shape(g, pndim, pdims)) {
                note(&d, "op%d.%s shape %s, expected %s", i, op_tensor_fields[f],
                     golden_shape_str(g->ndim, g->dims, s1, sizeof s1),
                     golden_shape_str(pndim, pdims, s2, sizeof s2));
                continue;
            }
            if (!is_param && !golden_has_shape(g, 1, c_dims)) {
                note(&d, "op%d.%s shape %s, expected %s", i, op_tensor_fields[f],
                     golden_shape_str(g->ndim, g->dims, s1, sizeof s1),
                     golden_shape_str(1, c_dims, s2, sizeof s2));
                continue;
            }
            t[i][f] = g;
        }
    }
    if (gc.num_tensors != expected_tensors) {
        for (f = 0; f < gc.num_tensors; ++f) {
            const char* n = gc.tensors[f].name;
            if (strcmp(n, "x") && strcmp(n, "weight") && strcmp(n, "bias") && strcmp(n, "y") &&
                strncmp(n, "op", 2))
                note(&d, "unknown tensor \"%s\"", n);
        }
        if (d.count == 0) note(&d, "%d tensors, expected %d", gc.num_tensors, expected_tensors);
    }
    if (d.count) goto done; /* shapes are wrong: running would read out of bounds */

    y_out = nan_filled(y->count);
    if (!y_out) {
        note(&d, "out of memory");
        goto done;
    }
    for (i = 0; i < gc.desc.num_ops; ++i) {
        if (t[i][OPT_RM]) {
            bufs[i][OPT_RM] = copy_of(t[i][OPT_RM]);
            bufs[i][OPT_RV] = copy_of(t[i][OPT_RV]);
        }
        if (t[i][OPT_SAVE_MEAN]) {
            bufs[i][OPT_SAVE_MEAN] = nan_filled(t[i][OPT_SAVE_MEAN]->count);
            bufs[i][OPT_SAVE_INVSTD] = nan_filled(t[i][OPT_SAVE_INVSTD]->count);
        }
        for (f = 0; f < OPT_COUNT_; ++f)
            if (t[i][f] && f != OPT_WEIGHT && f != OPT_BIAS && f != OPT_RM_OUT && f != OPT_RV_OUT &&
                !bufs[i][f]) {
                note(&d, "out of memory");
                goto done;
            }
        ops[i].weight = t[i][OPT_WEIGHT] ? t[i][OPT_WEIGHT]->data : NULL;
        ops[i].bias = t[i][OPT_BIAS] ? t[i][OPT_BIAS]->data : NULL;
        ops[i].running_mean = bufs[i][OPT_RM];
        ops[i].running_var = bufs[i][OPT_RV];
        ops[i].save_mean = bufs[i][OPT_SAVE_MEAN];
        ops[i].save_invstd = bufs[i][OPT_SAVE_INVSTD];
    }

    if (fc3d_cpu_run(&gc.desc, x->data, w->data, b ? b->data : NULL, ops, y_out) != 0) {
        note(&d, "fc3d_cpu_run returned an error");
        goto done;
    }
    compare(&d, "y", y_out, y);
    for (i = 0; i < gc.desc.num_ops; ++i) {
        char what[64];
        if (t[i][OPT_RM_OUT]) {
            snprintf(what, sizeof what, "op%d.running_mean_out", i);
            compare(&d, what, bufs[i][OPT_RM], t[i][OPT_RM_OUT]);
            snprintf(what, sizeof what, "op%d.running_var_out", i);
            compare(&d, what, bufs[i][OPT_RV], t[i][OPT_RV_OUT]);
        } else if (t[i][OPT_RM]) {
            /* inference BatchNorm only reads its running statistics */
            size_t bytes = (size_t)t[i][OPT_RM]->count * sizeof(double);
            if (memcmp(bufs[i][OPT_RM], t[i][OPT_RM]->data, bytes) ||
                memcmp(bufs[i][OPT_RV], t[i][OPT_RV]->data, bytes))
                note(&d, "op%d: inference BatchNorm changed its running statistics", i);
        }
        if (t[i][OPT_SAVE_MEAN]) {
            snprintf(what, sizeof what, "op%d.save_mean", i);
            compare(&d, what, bufs[i][OPT_SAVE_MEAN], t[i][OPT_SAVE_MEAN]);
            snprintf(what, sizeof what, "op%d.save_invstd", i);
            compare(&d, what, bufs[i][OPT_SAVE_INVSTD], t[i][OPT_SAVE_INVSTD]);
        }
    }

done:
    if (d.count)
        printf("FAIL %s: %s\n", name, d.text);
    else
        printf("ok %s\n", name);
    free(y_out);
    for (i = 0; i < FC3D_MAX_OPS; ++i)
        for (f = 0; f < OPT_COUNT_; ++f) free(bufs[i][f]);
    golden_free(&gc);
    return d.count == 0;
}

int main(int argc, char** argv) {
    const char* dir = argc > 1 ? argv[1] : "tests/golden/data";
    char err[GOLDEN_ERROR_LEN];
    golden_manifest m;
    int i, passed = 0, failed = 0;

    if (argc > 2) {
        fprintf(stderr, "usage: %s [GOLDEN_DIR]\n", argv[0]);
        return 2;
    }
    if (golden_read_manifest(dir, &m, err, sizeof err) != 0) {
        printf("FAIL manifest: %s (make it with: python3 tests/golden/make_goldens.py %s)\n", err,
               dir);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    if (m.count == 0) {
        printf("FAIL manifest: %s/MANIFEST lists no cases\n", dir);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    for (i = 0; i < m.count; ++i) {
        if (run_case(dir, m.names[i]))
            passed++;
        else
            failed++;
        fflush(stdout);
    }
    golden_manifest_free(&m);
    printf("%d passed, %d failed\n", passed, failed);
    return failed > 0 ? 1 : 0;
}
