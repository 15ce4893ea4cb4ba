/* test_plan.cu - plan validation, shapes, passes and workspace, and run-time argument checks.
   Needs no GPU: fc3d_plan_init makes no CUDA call, and fc3d_plan_run checks its arguments before it
   makes one (the arguments here are host sentinels that must come back untouched). */
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"
#include "check.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <vector>

/* Out-of-range enum values are written as an int through memcpy: casting an int outside an
   enum's range of values to the enum type is itself undefined in C++, and the library must refuse
   such a value (a caller in C, or reading a desc from a file, can make one) without tripping UBSan. */
static_assert(sizeof(fc3d_layout) == sizeof(int) && sizeof(fc3d_dtype) == sizeof(int) &&
                  sizeof(fc3d_math) == sizeof(int) && sizeof(fc3d_engine) == sizeof(int) &&
                  sizeof(fc3d_op_kind) == sizeof(int),
              "the enums of a desc are int-sized");
#define SET_INT(field, v)                              \
    do {                                               \
        const int v_ = (v);                            \
        memcpy(&(field), &v_, sizeof v_);              \
    } while (0)

/* L2/15 at its PROBLEMS.md size: the base desc that each validation test breaks one field of. */
static fc3d_plan_desc base_desc(void) {
    fc3d_plan_desc d;
    memset(&d, 0, sizeof d);
    d.conv.batch = 16; d.conv.in_channels = 16; d.conv.out_channels = 32;
    d.conv.in_size[0] = 16; d.conv.in_size[1] = 32; d.conv.in_size[2] = 32;
    for (int i = 0; i < 3; i++) { d.conv.kernel[i] = 3; d.conv.stride[i] = 2; d.conv.padding[i] = 1; }
    d.conv.bias = 1;
    d.ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
    d.ops[0].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
    d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
    d.num_ops = 2;
    return d;
}

/* A desc with nothing but a convolution of a cubic input (size^3), kernel k and stride s along
   every dim, no padding and no bias. */
static fc3d_plan_desc cube_desc(int n, int cin, int cout, int size, int k, int s) {
    fc3d_plan_desc d;
    memset(&d, 0, sizeof d);
    d.conv.batch = n; d.conv.in_channels = cin; d.conv.out_channels = cout;
    for (int i = 0; i < 3; i++) { d.conv.in_size[i] = size; d.conv.kernel[i] = k; d.conv.stride[i] = s; }
    return d;
}

/* Every error code some check below has seen returned where it expected it; test_every_code_tested
   then asks that no code of FC3D_RESULT_LIST is left without a test. */
static int tested_codes[256];
static void saw(fc3d_result expected, fc3d_result got) {
    if (expected == got && -(int)got >= 0 && -(int)got < 256) tested_codes[-(int)got] = 1;
}

/* Expects fc3d_plan_init to fail with `code` and a message that contains every string in `names`. */
static void expect_invalid(const char* test, const fc3d_plan_desc* d, fc3d_result code, const char* name1,
                           const char* name2) {
    fc3d_plan p;
    char tname[160];
    const fc3d_result r = fc3d_plan_init(&p, d);
    saw(code, r);
    snprintf(tname, sizeof tname, "validate.%s", test);
    const int named = strstr(p.message, name1) && (!name2 || strstr(p.message, name2));
    check(r == code && p.result == code && named && p.num_passes == 0 && p.workspace_bytes == 0, tname,
          "got %d (%s), want %d; message \"%s\" should name \"%s\"%s%s", (int)r, fc3d_result_string(r), (int)code,
          p.message, name1, name2 ? " and " : "", name2 ? name2 : "");
}

#define BREAK(test, code, name1, name2, stmt) \
    do {                                      \
        fc3d_plan_desc d = base_desc();       \
        stmt;                                 \
        expect_invalid(test, &d, code, name1, name2); \
    } while (0)

/* base_desc's convolution (output W = 63, two W phases) with a LayerNorm over W and then `next`,
   on the implicit-GEMM engine. */
static fc3d_plan_desc row_norm_desc(fc3d_op_kind next) {
    fc3d_plan_desc d = base_desc();
    memset(d.ops, 0, sizeof d.ops);
    d.ops[0].kind = FC3D_OP_LAYERNORM;
    d.ops[0].norm_dims = 1;
    d.ops[1].kind = next;
    d.num_ops = 2;
    d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
    return d;
}

/* Forcing an engine that cannot implement a desc fails with FC3D_ERROR_ENGINE_REFUSED and the
   engine's reason; the automatic choice takes the next engine in priority order and describe says
   why the first refused. */
static void test_engine_refusals(void) {
    char text[4096];
    {
        /* past the implicit-GEMM engine's grid limit: one sample per grid row, at most 65535 */
        fc3d_plan_desc d = base_desc();
        fc3d_plan p;
        d.conv.batch = 70000;
        d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 2;
        d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
        expect_invalid("engine_refused_batch", &d, FC3D_ERROR_ENGINE_REFUSED, "implicit_gemm", "batch > 65535");
        d.engine = FC3D_ENGINE_AUTO;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_DIRECT && strstr(text, "engine implicit_gemm refused: batch") &&
                  strstr(text, "engine: direct (chosen)"),
              "engine.auto_falls_back", "result %d, engine %s; describe:\n%s", (int)r, fc3d_engine_name(p.engine),
              text);
    }
    {
        /* statistics per row (a LayerNorm over W) in a chain that recomputes the convolution for a
           pool, with output rows too long for whole-row tiles (W = 159 > 128): the GEMM tiles
           cannot gather them */
        fc3d_plan_desc d = row_norm_desc(FC3D_OP_GLOBAL_AVG_POOL);
        d.conv.in_size[2] = 80;
        expect_invalid("engine_refused_row_statistics", &d, FC3D_ERROR_ENGINE_REFUSED, "ops[0] (layernorm)",
                       "recomputing");
        /* with W = 63 a tile holds whole rows: the LayerNorm takes its statistics from them, the
           pass that would gather them has no step, and one GEMM step gathers the pool */
        fc3d_plan p;
        d.conv.in_size[2] = 32;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.num_passes == 2 && p._private.num_steps == 3 && strstr(text, "whole-row tiles") &&
                  strstr(text, "no step of its own") && !strstr(text, "direct pass"),
              "engine.implicit_gemm_row_statistics_recompute", "result %d (%s); describe:\n%s", (int)r, p.message,
              text);
    }
    {
        /* the same LayerNorm in a materializing chain: with whole-row tiles one GEMM step applies
           the chain and stores y; with rows past 128 (no row tiles) the pass that reads the
           intermediate back takes the rows' statistics from them (one warp a row of 159), and
           with rows past 256 the intermediate is read back once more for its statistics first (a
           read-back and a finalize in the conv pass) */
        fc3d_plan_desc d = row_norm_desc(FC3D_OP_GELU);
        fc3d_plan p;
        fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.num_passes == 2 && p._private.num_steps == 2 && strstr(text, "whole-row tiles") &&
                  strstr(text, "weight re-layout") && !strstr(text, "direct pass") && !strstr(text, "finalize"),
              "engine.implicit_gemm_row_statistics_in_epilogue", "result %d (%s); describe:\n%s", (int)r, p.message,
              text);
        d.conv.in_size[2] = 80;
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.num_passes == 2 && p._private.num_steps == 3 && strstr(text, "implicit GEMM") &&
                  !strstr(text, "whole-row") && strstr(text, "weight re-layout") &&
                  strstr(text, "direct pass, grid 124992 x 256 (op 0's row statistics from the rows it reads, 1 at once a warp)") &&
                  !strstr(text, "finalize"),
              "engine.implicit_gemm_row_statistics_row_pass", "result %d (%s); describe:\n%s", (int)r, p.message,
              text);
        d.conv.in_size[2] = 160; /* W = 319 */
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.num_passes == 2 && p._private.num_steps == 5 && strstr(text, "implicit GEMM") &&
                  !strstr(text, "whole-row") && strstr(text, "weight re-layout") && strstr(text, "direct pass") &&
                  strstr(text, "finalize") && !strstr(text, "row statistics from the rows"),
              "engine.implicit_gemm_row_statistics_read_back", "result %d (%s); describe:\n%s", (int)r, p.message,
              text);
    }
}

/* Read-back passes whose ops are fixed per (n, c) stream the NCDHW intermediate (16-byte loads, a
   block per chunk of an (n, c) slab); NDHWC, and ops or statistics that vary along D, H or W, keep
   the per-unit path. */
static int streamed_steps(const fc3d_plan* p) {
    int k = 0;
    for (int i = 0; i < p->_private.num_steps; i++)
        k += p->_private.steps[i].kind == _FC3D_STEP_DIRECT_PASS && p->_private.steps[i].arg[7];
    return k;
}
static void test_streamed_read_back(void) {
    char text[4096], name[96];
    for (int e = FC3D_ENGINE_DIRECT; e <= FC3D_ENGINE_IMPLICIT_GEMM; e++) {
        /* BatchNorm (train) then the spatial mean: both read-back passes stream, the first gathering
           the per-(n, c) means into (n, c, chunk) slots */
        fc3d_plan_desc d = base_desc();
        fc3d_plan p;
        d.engine = (fc3d_engine)e;
        d.strategy = FC3D_STRATEGY_MATERIALIZE; /* a pass per statistics op, reading the intermediate back */
        d.stats_plan = FC3D_STATS_PLAN_PER_OP;
        fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        const int64_t chunks = (31 * 63 * 63 + 4095) / 4096;
        snprintf(name, sizeof name, "steps.streamed_read_back.%s", fc3d_engine_name((fc3d_engine)e));
        check(r == FC3D_SUCCESS && p.num_passes == 3 && streamed_steps(&p) == 2 && strstr(text, "streamed") &&
                  p._private.stat[1].slots == chunks,
              name, "result %d, %d streamed steps, slots %lld; describe:\n%s", (int)r, streamed_steps(&p),
              (long long)p._private.stat[1].slots, text);
        /* NDHWC: a slab is not contiguous */
        d.layout = FC3D_LAYOUT_NDHWC;
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        snprintf(name, sizeof name, "steps.not_streamed_ndhwc.%s", fc3d_engine_name((fc3d_engine)e));
        check(r == FC3D_SUCCESS && streamed_steps(&p) == 0 && !strstr(text, "streamed"), name,
              "result %d, %d streamed steps", (int)r, streamed_steps(&p));
        /* a LayerNorm over W: its groups keep D and H */
        d = base_desc();
        d.engine = (fc3d_engine)e;
        d.ops[0].kind = FC3D_OP_LAYERNORM;
        d.ops[0].flags = 0;
        d.ops[0].norm_dims = 1;
        d.ops[1].kind = FC3D_OP_RELU;
        d.conv.in_size[2] = 80; /* W = 159: no whole-row tiles */
        r = fc3d_plan_init(&p, &d);
        snprintf(name, sizeof name, "steps.not_streamed_row_norm.%s", fc3d_engine_name((fc3d_engine)e));
        check(r == FC3D_SUCCESS && p.num_passes == 2 && streamed_steps(&p) == 0, name, "result %d (%s), %d streamed",
              (int)r, p.message, streamed_steps(&p));
    }
}

/* The implicit-GEMM tile order (>>engine-implicit-gemm): over random geometries and level
   blocks every (class, phase, tile index) is numbered exactly once, in the order segment, block
   of levels, class, level, phase. */
static void test_tile_order(void) {
    uint64_t st = 0x2545f4914f6cdd1dull;
    int bad = 0, cases = 0, multi = 0;
    char why[200] = "";
    for (int k = 0; k < 400 && !bad; k++) {
        _fc3d_tc_geom g;
        memset(&g, 0, sizeof g);
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = st >> 11;
        auto draw = [&](int lo, int hi) { const int v = lo + (int)(r % (uint64_t)(hi - lo + 1)); r /= (uint64_t)(hi - lo + 1); return v; };
        g.n = 1; g.cin = g.cout = 4; g.groups = 1; g.layout = 1;
        int64_t I[3], O[3];
        for (int d = 0; d < 3; d++) {
            g.k[d] = draw(1, 5); g.s[d] = draw(1, 4); g.p[d] = draw(0, 2); g.dl[d] = draw(1, 3);
            I[d] = d == 2 ? draw(1, 40) : draw(1, 12);
            const int op = draw(0, g.s[d] - 1);
            O[d] = (I[d] - 1) * g.s[d] - 2 * g.p[d] + g.dl[d] * (g.k[d] - 1) + op + 1;
        }
        if (O[0] <= 0 || O[1] <= 0 || O[2] <= 0) continue;
        g.di = I[0]; g.hi = I[1]; g.wi = I[2]; g.d = O[0]; g.h = O[1]; g.w = O[2];
        _fc3d_tc_plan pl;
        if (_fc3d_tc_plan_init(&pl, &g, 0, 0)) continue;
        pl.kp.lblock = k % 3 == 0 ? pl.kp.lblock : k % 3 == 1 ? 3 : 1000; /* the chosen, a small and a huge block */
        const _fc3d_tc_kparams& P = pl.kp;
        cases++;
        multi += P.nseg > 1;
        /* expected: for each class with phases, tpp[c] tiles per phase */
        int64_t want = 0;
        for (int c = 0; c < 8; c++) want += P.cls_tpp[c] * (P.cls_tpp[c] ? P.cls_nres[c] : 0);
        if (want != pl.tiles_per_sample) { snprintf(why, sizeof why, "case %d: %lld tiles, want %lld", k, (long long)pl.tiles_per_sample, (long long)want); bad = 1; break; }
        std::vector<char> seen((size_t)want, 0);
        long long pkey = -1;
        for (int64_t t = 0; t < want && !bad; t++) {
            int c, tl, ph;
            _fc3d_tc_tile_of(P, t, &c, &tl, &ph);
            if (c < 0 || c > 7 || tl < 0 || tl >= P.cls_tpp[c] || ph < 0 || ph >= P.cls_nres[c]) {
                snprintf(why, sizeof why, "case %d tile %lld: class %d level %d phase %d out of range", k, (long long)t, c, tl, ph);
                bad = 1;
                break;
            }
            int64_t idx = 0; /* a unique number for (c, tl, ph) */
            for (int cc = 0; cc < c; cc++) idx += P.cls_tpp[cc] * (P.cls_tpp[cc] ? P.cls_nres[cc] : 0);
            idx += (int64_t)tl * P.cls_nres[c] + ph;
            if (seen[(size_t)idx]++) { snprintf(why, sizeof why, "case %d tile %lld: numbered twice", k, (long long)t); bad = 1; }
            /* the order: segment, block of lblock levels, class, level, phase */
            int sgi = 0;
            while (sgi < P.nseg - 1 && tl >= P.seg_lvl0[sgi + 1]) sgi++;
            const long long key = ((((long long)sgi * 4096 + (tl - P.seg_lvl0[sgi]) / P.lblock) * 8 + c) * 4096 + tl) * 4096 + ph;
            if (key <= pkey) { snprintf(why, sizeof why, "case %d tile %lld: out of order", k, (long long)t); bad = 1; }
            pkey = key;
        }
    }
    check(!bad && cases >= 100 && multi >= 20, "implicit_gemm.tile_order", "%d geometries, %d with several segments%s%s",
          cases, multi, bad ? ": " : "", why);
}

static void test_validation(void) {
    fc3d_plan p;
    fc3d_plan_desc d0 = base_desc();
    const fc3d_result null_plan = fc3d_plan_init(NULL, &d0);
    saw(FC3D_ERROR_NULL_ARGUMENT, null_plan);
    check(null_plan == FC3D_ERROR_NULL_ARGUMENT, "validate.null_plan", "%s", "no error");
    check(fc3d_plan_init(&p, NULL) == FC3D_ERROR_NULL_ARGUMENT && strstr(p.message, "desc"), "validate.null_desc",
          "%s", p.message);

    BREAK("batch", FC3D_ERROR_CONV_BATCH, "batch", NULL, d.conv.batch = 0);
    BREAK("in_channels", FC3D_ERROR_CONV_IN_CHANNELS, "in_channels", NULL, d.conv.in_channels = -3);
    BREAK("out_channels", FC3D_ERROR_CONV_OUT_CHANNELS, "out_channels", NULL, d.conv.out_channels = 0);
    BREAK("in_size", FC3D_ERROR_CONV_IN_SIZE, "in_size[2]", NULL, d.conv.in_size[2] = 0);
    BREAK("kernel", FC3D_ERROR_CONV_KERNEL, "kernel[1]", NULL, d.conv.kernel[1] = -1);
    BREAK("stride", FC3D_ERROR_CONV_STRIDE, "stride[0]", NULL, d.conv.stride[0] = -2);
    BREAK("padding", FC3D_ERROR_CONV_PADDING, "padding[2]", NULL, d.conv.padding[2] = -1);
    BREAK("output_padding_large", FC3D_ERROR_CONV_OUTPUT_PADDING, "output_padding[1]", NULL,
          d.conv.output_padding[1] = 2);
    BREAK("output_padding_negative", FC3D_ERROR_CONV_OUTPUT_PADDING, "output_padding[0]", NULL,
          d.conv.output_padding[0] = -1);
    BREAK("output_padding_stride1", FC3D_ERROR_CONV_OUTPUT_PADDING, "output_padding[2]", NULL,
          (d.conv.stride[2] = 1, d.conv.output_padding[2] = 1));
    BREAK("dilation", FC3D_ERROR_CONV_DILATION, "dilation[1]", NULL, d.conv.dilation[1] = -1);
    BREAK("groups", FC3D_ERROR_CONV_GROUPS, "groups", NULL, d.conv.groups = -1);
    BREAK("groups_in_channels", FC3D_ERROR_CONV_GROUPS_IN_CHANNELS, "in_channels", "groups",
          (d.conv.in_channels = 15, d.conv.groups = 2));
    BREAK("groups_out_channels", FC3D_ERROR_CONV_GROUPS_OUT_CHANNELS, "out_channels", "groups",
          (d.conv.out_channels = 30, d.conv.groups = 4));
    BREAK("output_size", FC3D_ERROR_CONV_OUTPUT_SIZE, "size[0]", NULL,
          (d.conv.in_size[0] = 1, d.conv.kernel[0] = 1, d.conv.padding[0] = 1));
    BREAK("size_overflow", FC3D_ERROR_SIZE_OVERFLOW, "too large", NULL,
          (d.conv.batch = 1 << 30, d.conv.in_channels = 1 << 30, d.conv.in_size[0] = 1 << 20));
    BREAK("output_dim_overflow", FC3D_ERROR_SIZE_OVERFLOW, "size[2]", NULL,
          (d.conv.in_size[2] = 1 << 30, d.conv.stride[2] = 3));
    /* a valid 2x2x2 output whose kernel volume is 2^64: the product must not wrap */
    BREAK("kernel_volume_overflow", FC3D_ERROR_SIZE_OVERFLOW, "weight too large", NULL,
          (d.num_ops = 0, d.conv.batch = d.conv.in_channels = d.conv.out_channels = 1,
           d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 1, d.conv.stride[0] = d.conv.stride[1] =
           d.conv.stride[2] = 1, d.conv.kernel[0] = 1 << 22, d.conv.kernel[1] = d.conv.kernel[2] = 1 << 21,
           d.conv.padding[0] = (1 << 21) - 1, d.conv.padding[1] = d.conv.padding[2] = (1 << 20) - 1));
    BREAK("layout", FC3D_ERROR_LAYOUT, "layout", NULL, SET_INT(d.layout, 7));
    BREAK("dtype", FC3D_ERROR_DTYPE, "dtype", NULL, SET_INT(d.dtype, -1));
    BREAK("math", FC3D_ERROR_MATH, "math", NULL, SET_INT(d.math, 4));
    BREAK("num_ops_negative", FC3D_ERROR_NUM_OPS, "num_ops", NULL, d.num_ops = -1);
    BREAK("num_ops_large", FC3D_ERROR_NUM_OPS, "num_ops", NULL, d.num_ops = FC3D_MAX_OPS + 1);
    BREAK("op_kind_none", FC3D_ERROR_OP_KIND, "ops[2].kind", NULL, d.num_ops = 3);
    BREAK("op_kind_unknown", FC3D_ERROR_OP_KIND, "ops[1].kind", NULL, SET_INT(d.ops[1].kind, 99));
    BREAK("op_value", FC3D_ERROR_OP_VALUE, "ops[2].value", NULL,
          (d.ops[2].kind = FC3D_OP_SCALE, d.ops[2].value = NAN, d.num_ops = 3));
    BREAK("op_value_inf", FC3D_ERROR_OP_VALUE, "ops[0].value", NULL,
          (d.ops[0].kind = FC3D_OP_SCALE, d.ops[0].flags = 0, d.ops[0].value = INFINITY));
    BREAK("op_eps", FC3D_ERROR_OP_EPS, "ops[0].eps", NULL, d.ops[0].eps = -1e-5f);
    BREAK("op_eps_nan", FC3D_ERROR_OP_EPS, "ops[0].eps", NULL, d.ops[0].eps = NAN);
    BREAK("op_momentum", FC3D_ERROR_OP_MOMENTUM, "ops[0].momentum", NULL, d.ops[0].momentum = 1.5f);
    BREAK("op_momentum_nan", FC3D_ERROR_OP_MOMENTUM, "ops[0].momentum", NULL, d.ops[0].momentum = NAN);
    BREAK("op_groups_zero", FC3D_ERROR_OP_GROUPS, "ops[1].groups", NULL,
          (d.ops[1].kind = FC3D_OP_GROUPNORM, d.ops[1].groups = 0));
    BREAK("op_groups_divide", FC3D_ERROR_OP_GROUPS, "ops[1].groups", "out_channels",
          (d.ops[1].kind = FC3D_OP_GROUPNORM, d.ops[1].groups = 5));
    BREAK("op_norm_dims_zero", FC3D_ERROR_OP_NORM_DIMS, "ops[1].norm_dims", NULL, d.ops[1].kind = FC3D_OP_LAYERNORM);
    BREAK("op_norm_dims_five", FC3D_ERROR_OP_NORM_DIMS, "ops[1].norm_dims", NULL,
          (d.ops[1].kind = FC3D_OP_LAYERNORM, d.ops[1].norm_dims = 5));
    BREAK("op_flags_relu_affine", FC3D_ERROR_OP_FLAGS, "ops[1].flags", NULL,
          (d.ops[1].kind = FC3D_OP_RELU, d.ops[1].flags = FC3D_OP_AFFINE));
    BREAK("op_flags_infer_update", FC3D_ERROR_OP_FLAGS, "ops[0].flags", NULL,
          d.ops[0].kind = FC3D_OP_BATCHNORM_INFER);
    BREAK("op_flags_unknown", FC3D_ERROR_OP_FLAGS, "ops[0].flags", NULL, d.ops[0].flags = 64);
    BREAK("op_unused_field", FC3D_ERROR_OP_UNUSED_FIELD, "ops[1]", NULL, d.ops[1].eps = 1e-3f);
    BREAK("op_unused_momentum", FC3D_ERROR_OP_UNUSED_FIELD, "ops[1]", NULL,
          (d.ops[1].kind = FC3D_OP_GROUPNORM, d.ops[1].groups = 8, d.ops[1].momentum = 0.2f));
    BREAK("op_pool_not_last", FC3D_ERROR_OP_POOL_NOT_LAST, "ops[0]", NULL,
          (d.ops[0].kind = FC3D_OP_GLOBAL_AVG_POOL, d.ops[0].flags = 0));
    BREAK("op_batchnorm_count", FC3D_ERROR_OP_BATCHNORM_COUNT, "ops[0]", NULL,
          (d.conv.batch = 1, d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 1,
           d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 1, d.conv.padding[0] = d.conv.padding[1] =
           d.conv.padding[2] = 0));
}

/* Every enum field of a desc, set to values outside its enum: negative, the first value past the
   last enumerator, and far past it. Each is refused with its own code, naming the field. */
static void test_enum_ranges(void) {
    enum { LAYOUT, DTYPE, MATH, ENGINE, STRATEGY, STATS_PLAN, MAIN_LOOP, OP_KIND, NUM_FIELDS };
    static const struct {
        const char* name;
        fc3d_result code;
        const char* field;
        int first_invalid; /* one past the last enumerator */
    } fields[NUM_FIELDS] = {
        {"layout", FC3D_ERROR_LAYOUT, "layout", (int)FC3D_LAYOUT_NDHWC + 1},
        {"dtype", FC3D_ERROR_DTYPE, "dtype", (int)FC3D_DTYPE_BF16 + 1},
        {"math", FC3D_ERROR_MATH, "math", (int)FC3D_MATH_HALF + 1},
        {"engine", FC3D_ERROR_ENGINE, "engine", (int)FC3D_ENGINE_COUNT_},
        {"strategy", FC3D_ERROR_STRATEGY, "strategy", (int)FC3D_STRATEGY_RECOMPUTE + 1},
        {"stats_plan", FC3D_ERROR_STATS_PLAN, "stats_plan", (int)FC3D_STATS_PLAN_LINEAR + 1},
        {"main_loop", FC3D_ERROR_MAIN_LOOP, "main_loop", (int)FC3D_MAIN_LOOP_COUNT_},
        {"op_kind", FC3D_ERROR_OP_KIND, "ops[1].kind", (int)FC3D_OP_KIND_COUNT_},
    };
    for (int f = 0; f < NUM_FIELDS; f++) {
        const int values[6] = {-1, -2, INT_MIN, fields[f].first_invalid, 99, INT_MAX};
        for (int v = 0; v < 6; v++) {
            fc3d_plan_desc d = base_desc();
            char test[96];
            switch (f) {
            case LAYOUT: SET_INT(d.layout, values[v]); break;
            case DTYPE: SET_INT(d.dtype, values[v]); break;
            case MATH: SET_INT(d.math, values[v]); break;
            case ENGINE: SET_INT(d.engine, values[v]); break;
            case STRATEGY: SET_INT(d.strategy, values[v]); break;
            case STATS_PLAN: SET_INT(d.stats_plan, values[v]); break;
            case MAIN_LOOP: SET_INT(d.main_loop, values[v]); break;
            default: SET_INT(d.ops[1].kind, values[v]); break;
            }
            snprintf(test, sizeof test, "enum_range.%s_%d", fields[f].name, values[v]);
            expect_invalid(test, &d, fields[f].code, fields[f].field, NULL);
        }
    }
    /* fc3d_plan_desc_defaults copies what it cannot default, out of range or not */
    {
        fc3d_plan_desc d = base_desc(), filled;
        int layout = 0, kind = 0;
        SET_INT(d.layout, INT_MIN);
        SET_INT(d.ops[0].kind, INT_MAX);
        filled = fc3d_plan_desc_defaults(&d);
        memcpy(&layout, &filled.layout, sizeof layout);
        memcpy(&kind, &filled.ops[0].kind, sizeof kind);
        check(layout == INT_MIN && kind == INT_MAX, "defaults.out_of_range_kept", "layout %d, ops[0].kind %d", layout,
              kind);
    }
}

static void test_defaults_and_strings(void) {
    fc3d_plan_desc z;
    memset(&z, 0, sizeof z);
    z.num_ops = 2;
    z.ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
    z.ops[1].kind = FC3D_OP_GROUPNORM;
    const fc3d_plan_desc d = fc3d_plan_desc_defaults(&z);
    check(d.conv.stride[0] == 1 && d.conv.stride[2] == 1 && d.conv.dilation[1] == 1 && d.conv.groups == 1 &&
              d.conv.padding[0] == 0 && d.layout == FC3D_LAYOUT_NCDHW && d.dtype == FC3D_DTYPE_F32 &&
              d.math == FC3D_MATH_FP32 && d.ops[0].eps == 1e-5f && d.ops[0].momentum == 0.1f &&
              d.ops[1].eps == 1e-5f && d.ops[1].momentum == 0.0f,
          "defaults.filled", "stride %d dilation %d groups %d eps %g momentum %g", d.conv.stride[0],
          d.conv.dilation[1], d.conv.groups, (double)d.ops[0].eps, (double)d.ops[0].momentum);
    int distinct = 1;
#define X_(name, value, text) distinct &= strcmp(fc3d_result_string(name), text) == 0 && strlen(text) > 5;
    FC3D_RESULT_LIST(X_)
#undef X_
    check(distinct && strcmp(fc3d_result_string((fc3d_result)12345), "unknown fc3d_result") == 0, "results.strings", "%s",
          "a result string is wrong");
    /* values that are no fc3d_engine at all: tests/c_enum_args.c */
    check(strcmp(fc3d_engine_name(FC3D_ENGINE_AUTO), "auto") == 0 &&
              strcmp(fc3d_engine_name(FC3D_ENGINE_DIRECT), "direct") == 0 &&
              strcmp(fc3d_engine_name(FC3D_ENGINE_IMPLICIT_GEMM), "implicit_gemm") == 0 &&
              strcmp(fc3d_engine_name(FC3D_ENGINE_COUNT_), "unknown") == 0,
          "engine.names", "auto \"%s\", direct \"%s\", COUNT_ \"%s\"", fc3d_engine_name(FC3D_ENGINE_AUTO),
          fc3d_engine_name(FC3D_ENGINE_DIRECT), fc3d_engine_name(FC3D_ENGINE_COUNT_));
    test_engine_refusals();
    test_streamed_read_back();
    test_tile_order();
}

typedef struct expect_plan {
    const char* name;
    int64_t y[5];
    fc3d_strategy strategy;
    int passes;
    const char* pass_text; /* two chars per pass: source (C conv, I intermediate), then store
                              (- none, i intermediate, y y) */
} expect_plan;

/* The five workloads of PROBLEMS.md at full size. */
static void workload_desc(int which, fc3d_plan_desc* d) {
    static const int cfg[5][12] = {
        /* N, Cin, D, H, W, Cout, k, s, p, dil, bias, */
        {16, 16, 16, 32, 32, 32, 3, 2, 1, 1, 1},
        {16, 64, 16, 32, 32, 128, 5, 1, 0, 1, 1},
        {32, 32, 16, 32, 32, 64, 4, 2, 1, 1, 1},
        {16, 64, 32, 32, 32, 128, 3, 1, 0, 1, 0},
        {16, 32, 16, 32, 32, 64, 3, 2, 1, 2, 0},
    };
    const int* c = cfg[which];
    memset(d, 0, sizeof *d);
    d->conv.batch = c[0]; d->conv.in_channels = c[1];
    d->conv.in_size[0] = c[2]; d->conv.in_size[1] = c[3]; d->conv.in_size[2] = c[4];
    d->conv.out_channels = c[5];
    for (int i = 0; i < 3; i++) {
        d->conv.kernel[i] = c[6]; d->conv.stride[i] = c[7]; d->conv.padding[i] = c[8]; d->conv.dilation[i] = c[9];
    }
    d->conv.bias = c[10];
    switch (which) {
    case 0:
        d->ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
        d->ops[0].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
        d->ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        d->num_ops = 2;
        break;
    case 1:
        d->ops[0].kind = FC3D_OP_SCALE; d->ops[0].value = 2.0f;
        d->ops[1].kind = FC3D_OP_BATCHNORM_TRAIN;
        d->ops[1].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
        d->ops[1].eps = 1e-5f; d->ops[1].momentum = 0.1f;
        d->ops[2].kind = FC3D_OP_GLOBAL_AVG_POOL;
        d->num_ops = 3;
        break;
    case 2:
        d->ops[0].kind = FC3D_OP_LAYERNORM; d->ops[0].norm_dims = 1; d->ops[0].flags = FC3D_OP_AFFINE;
        d->ops[1].kind = FC3D_OP_GELU;
        d->ops[2].kind = FC3D_OP_SCALE; d->ops[2].value = 1.0f;
        d->num_ops = 3;
        break;
    case 3:
        d->ops[0].kind = FC3D_OP_RELU;
        d->ops[1].kind = FC3D_OP_GROUPNORM; d->ops[1].groups = 8; d->ops[1].flags = FC3D_OP_AFFINE;
        d->num_ops = 2;
        break;
    default: break;
    }
}

/* The moments tail (_fc3d_mtail_kernel): a block takes W channels of every sample through the
   whole chain (W the least common multiple of the statistics ops' channel groups). L2/15 in TF32
   (a BatchNorm and the spatial mean: W 1, 32 blocks of 16 cells, 31 partial slots a cell) takes
   one tail step that sums the partials itself, 16 threads a cell, in place of the finalize and
   two moments launches; so does L2/77 (128 blocks); a GroupNorm of one group over 800 channels of
   2 samples (1600 cells a block, past _FC3D_MT_CELLS) keeps the separate launches; a linear plan
   takes the tail after the contraction, from the cells' sums. A tail step edited past what the
   kernel takes is refused by fc3d_plan_run before anything is read or launched. */
static int count_steps(const fc3d_plan* p, int kind) {
    int k = 0;
    for (int i = 0; i < p->_private.num_steps; i++) k += p->_private.steps[i].kind == kind;
    return k;
}
static int tail_step(const fc3d_plan* p) {
    for (int i = 0; i < p->_private.num_steps; i++)
        if (p->_private.steps[i].kind == _FC3D_STEP_MOMENTS_TAIL) return i;
    return -1;
}
static void test_moments_tail_plans(void) {
    static char text[1 << 14];
    const int was_on = _fc3d_mtail_on; /* the tail planned wherever it fits, whatever the build's default */
    _fc3d_mtail_on = 1;
    fc3d_plan_desc d;
    fc3d_plan p;
    for (int w = 0; w < 2; w++) {
        workload_desc(w, &d);
        d.math = FC3D_MATH_TF32;
        fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        const int t = tail_step(&p);
        const fc3d_step_* s = t >= 0 ? &p._private.steps[t] : NULL;
        char want[160];
        snprintf(want, sizeof want, "moments tail, grid %d x 256 (a block 1 channel of every sample: their partials "
                 "summed, 16 threads a cell", w ? 128 : 32);
        check(r == FC3D_SUCCESS && p.stats_plan == FC3D_STATS_PLAN_MOMENTS && count_steps(&p, _FC3D_STEP_MOMENTS_TAIL) == 1 &&
                  s && s->arg[0] == 1 && s->arg[1] == 16 && s->arg[2] == 1 && s->stat_op == _FC3D_MOMENTS &&
                  s->grid == (w ? 128u : 32u) && count_steps(&p, _FC3D_STEP_MOMENTS) == 0 &&
                  count_steps(&p, _FC3D_STEP_FINALIZE) == 0 && strstr(text, want),
              w ? "moments_tail.l2_77_tf32" : "moments_tail.l2_15_tf32", "result %d (%s); describe:\n%s", (int)r,
              p.message, text);
    }
    workload_desc(0, &d);
    d.math = FC3D_MATH_TF32;
    fc3d_result r = fc3d_plan_init(&p, &d);
    const int t = tail_step(&p);
    {
        /* the step edited: 3 threads a cell; a block of 1024; 2 channels a block */
        fc3d_run_args a;
        fc3d_message m;
        memset(&a, 0, sizeof a);
        for (int e = 0; e < 3 && t >= 0; e++) {
            fc3d_plan q = p;
            if (e == 0) q._private.steps[t].arg[1] = 3;
            else if (e == 1) q._private.steps[t].block = 1024;
            else q._private.steps[t].arg[2] = 2;
            m.text[0] = 0;
            r = fc3d_plan_run(&q, &a, &m);
            check(r == FC3D_ERROR_PLAN_INVALID && strstr(m.text, "moments tail") != NULL,
                  e == 0 ? "moments_tail.edited_lanes_refused" : e == 1 ? "moments_tail.edited_block_refused"
                                                                 : "moments_tail.edited_channels_refused",
                  "got %d: %s", (int)r, m.text);
        }
    }
    d = cube_desc(2, 4, 800, 3, 3, 2);
    d.ops[0].kind = FC3D_OP_GROUPNORM;
    d.ops[0].groups = 1;
    d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
    d.num_ops = 2;
    d.stats_plan = FC3D_STATS_PLAN_MOMENTS;
    r = fc3d_plan_init(&p, &d);
    fc3d_plan_describe(&p, text, sizeof text);
    check(r == FC3D_SUCCESS && p.stats_plan == FC3D_STATS_PLAN_MOMENTS && count_steps(&p, _FC3D_STEP_MOMENTS_TAIL) == 0 &&
              count_steps(&p, _FC3D_STEP_MOMENTS) == 2 && count_steps(&p, _FC3D_STEP_FINALIZE) == 1 &&
              !strstr(text, "moments tail"),
          "moments_tail.past_cells_separate", "result %d (%s); describe:\n%s", (int)r, p.message, text);
    memset(&d, 0, sizeof d);
    d.conv.batch = 2;
    d.conv.in_channels = 8;
    d.conv.out_channels = 6;
    d.conv.in_size[0] = 3;
    d.conv.in_size[1] = 6;
    d.conv.in_size[2] = 9;
    for (int i = 0; i < 3; i++) {
        d.conv.kernel[i] = 3;
        d.conv.stride[i] = 2;
    }
    d.ops[0].kind = FC3D_OP_SCALE;
    d.ops[0].value = 1.5f;
    d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
    d.num_ops = 2;
    d.strategy = FC3D_STRATEGY_RECOMPUTE;
    d.stats_plan = FC3D_STATS_PLAN_LINEAR;
    r = fc3d_plan_init(&p, &d);
    fc3d_plan_describe(&p, text, sizeof text);
    const int last = p._private.num_steps - 1;
    check(r == FC3D_SUCCESS && p.stats_plan == FC3D_STATS_PLAN_LINEAR && count_steps(&p, _FC3D_STEP_MOMENTS_TAIL) == 1 &&
              count_steps(&p, _FC3D_STEP_MOMENTS) == 0 && count_steps(&p, _FC3D_STEP_XCONTRACT) == 1 && last >= 2 &&
              p._private.steps[last - 1].kind == _FC3D_STEP_MOMENTS_TAIL && p._private.steps[last - 1].arg[0] == 0 &&
              p._private.steps[last - 1].grid == 6 && p._private.steps[last - 2].kind == _FC3D_STEP_XCONTRACT &&
              strstr(text, "every statistics op's moments step from the cells' sums"),
          "moments_tail.linear_from_sums", "result %d (%s); describe:\n%s", (int)r, p.message, text);
    _fc3d_mtail_on = was_on;
}

/* Short-K 64-channel haloed tiles (_FC3D_HX_SHORT_K): L2/61 in TF32 and half (K = 64 x 27) takes
   64-channel tiles and says so; L2/77 (K = 64 x 125) keeps 128-channel tiles; FP32 (3xTF32) takes 64
   as before, not as a short K. */
static void test_haloed_short_k(void) {
    for (int w = 1; w <= 3; w += 2)
        for (int m = 1; m <= 3; m++) {
            fc3d_plan_desc d;
            fc3d_plan p;
            char text[4096], name[96];
            workload_desc(w, &d);
            d.math = (fc3d_math)m;
            const fc3d_result r = fc3d_plan_init(&p, &d);
            fc3d_plan_describe(&p, text, sizeof text);
            const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p._private.engine_data.bytes;
            const int x3 = m == FC3D_MATH_FP32, want_short = w == 3 && !x3;
            snprintf(name, sizeof name, "implicit_gemm.short_k_%s_math%d", w == 1 ? "l2_77" : "l2_61", m);
            check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_HALO && tp->kp.hx_short == want_short &&
                      tp->hx_bn == (want_short || x3 ? 64 : 128) &&
                      strstr(text, want_short || x3 ? "64-channel tiles" : "128-channel tiles") != NULL &&
                      (strstr(text, "64-channel tiles for 128 output channels: a tile's K") != NULL) == want_short,
                  name, "result %d, main loop %d, short K %d, %d-channel tiles: %s", (int)r, (int)p.main_loop,
                  tp->kp.hx_short, tp->hx_bn, text);
        }
    /* A phase's K counts its real taps: L1/77's geometry (kernel 3, stride 2, dilation 2: every tap
       in one residue per dim, 27 a phase, not ceil(3 / 2)^3 = 8) with 128 output channels; C_in 64
       (K 1,728) is short, C_in 96 (K 2,592) is not. */
    for (int cin = 64; cin <= 96; cin += 32) {
        fc3d_plan_desc d;
        fc3d_plan p;
        char name[96];
        workload_desc(4, &d);
        d.conv.in_channels = cin;
        d.conv.out_channels = 128;
        d.math = FC3D_MATH_TF32;
        d.main_loop = FC3D_MAIN_LOOP_HALO;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p._private.engine_data.bytes;
        const int want_short = cin * 27 < _FC3D_HX_SHORT_K;
        snprintf(name, sizeof name, "implicit_gemm.short_k_dilated_cin%d", cin);
        check(r == FC3D_SUCCESS && tp->kp.hx_short == want_short && tp->hx_bn == (want_short ? 64 : 128), name,
              "result %d (%s), short K %d, %d-channel tiles", (int)r, p.message, tp->kp.hx_short, tp->hx_bn);
    }
}

static void test_workload_plans(void) {
    static const expect_plan want[5] = {
        {"L2_15", {16, 32, 31, 63, 63}, FC3D_STRATEGY_MATERIALIZE, 2, "CiIy"},
        {"L2_77", {16, 128, 1, 1, 1}, FC3D_STRATEGY_RECOMPUTE, 1, "C-"},
        {"L2_34", {32, 64, 32, 64, 64}, FC3D_STRATEGY_MATERIALIZE, 2, "CiIy"},
        {"L2_61", {16, 128, 34, 34, 34}, FC3D_STRATEGY_MATERIALIZE, 2, "CiIy"},
        {"L1_77", {16, 64, 33, 65, 65}, FC3D_STRATEGY_MATERIALIZE, 1, "Cy"},
    };
    for (int w = 0; w < 5; w++) {
        fc3d_plan_desc d;
        fc3d_plan p;
        char name[64], text[2048], passes[64] = "";
        workload_desc(w, &d);
        const fc3d_result r = fc3d_plan_init(&p, &d);
        int shape = 1;
        for (int i = 0; i < 5; i++) shape &= p.y_dims[i] == want[w].y[i];
        for (int i = 0; i < p.num_passes; i++)
            strcat(passes, p.passes[i].store == FC3D_STORE_Y ? (p.passes[i].source == FC3D_SOURCE_CONV ? "Cy" : "Iy")
                           : p.passes[i].store ? (p.passes[i].source == FC3D_SOURCE_CONV ? "Ci" : "Ii")
                                               : (p.passes[i].source == FC3D_SOURCE_CONV ? "C-" : "I-"));
        snprintf(name, sizeof name, "plan.%s", want[w].name);
        check(r == FC3D_SUCCESS && shape && p.strategy == want[w].strategy && p.num_passes == want[w].passes &&
                  strcmp(passes, want[w].pass_text) == 0,
              name, "result %d (%s), y %lldx%lldx%lldx%lldx%lld, strategy %d, passes %s", (int)r, p.message,
              (long long)p.y_dims[0], (long long)p.y_dims[1], (long long)p.y_dims[2], (long long)p.y_dims[3],
              (long long)p.y_dims[4], (int)p.strategy, passes);
        /* a workspace where there are statistics to reduce (every workload but the conv alone),
           none otherwise, and nothing of the convolution output's size (f32 y holds the intermediate) */
        int stat_ops = 0;
        for (int i = 0; i < p.num_passes; i++) stat_ops += p.passes[i].stat_op >= 0;
        snprintf(name, sizeof name, "workspace.%s", want[w].name);
        const size_t conv_bytes = (size_t)p.y_dims[0] * p.y_dims[1] * p.conv_size[0] * p.conv_size[1] * p.conv_size[2] * 4;
        /* the implicit-GEMM engine also keeps the re-laid weight there, and the haloed loop its
           operand copy of x (x zero-padded; both parts of each value in FP32 math), which is not
           counted against the bound: no workspace at all only for a chain without statistics on
           the direct engine */
        const _fc3d_tc_plan* wtp = (const _fc3d_tc_plan*)p._private.engine_data.bytes;
        const size_t xcopy = p.engine == FC3D_ENGINE_IMPLICIT_GEMM && wtp->hx_ok ? wtp->hx_xbytes : 0;
        check((w == 4) == (stat_ops == 0) &&
                  (p.workspace_bytes == 0) == (stat_ops == 0 && p.engine == FC3D_ENGINE_DIRECT) &&
                  p.workspace_bytes >= xcopy && p.workspace_bytes - xcopy < conv_bytes / 8,
              name, "workspace %zu bytes (%zu of them the copy of x), %d passes gather statistics, engine %s",
              p.workspace_bytes, xcopy, stat_ops, fc3d_engine_name(p.engine));
        /* AUTO chose an engine that exists, and describe names it */
        snprintf(name, sizeof name, "engine.auto_%s", want[w].name);
        fc3d_plan_describe(&p, text, sizeof text);
        check(p.engine > FC3D_ENGINE_AUTO && p.engine < FC3D_ENGINE_COUNT_ &&
                  strcmp(fc3d_engine_name(p.engine), "unknown") != 0 && strstr(text, "engine: ") != NULL,
              name, "engine %d (%s)", (int)p.engine, fc3d_engine_name(p.engine));
        printf("# %s: %zu workspace bytes\n%s", want[w].name, p.workspace_bytes, text);
        /* the direct engine implements every valid desc: forced, it plans each workload */
        {
            fc3d_plan q;
            d.engine = FC3D_ENGINE_DIRECT;
            const fc3d_result rq = fc3d_plan_init(&q, &d);
            fc3d_plan_describe(&q, text, sizeof text);
            snprintf(name, sizeof name, "engine.direct_%s", want[w].name);
            check(rq == FC3D_SUCCESS && q.engine == FC3D_ENGINE_DIRECT && q.desc.engine == FC3D_ENGINE_DIRECT &&
                      q.y_elements == p.y_elements && q.num_passes > 0 && strstr(text, "engine: direct") != NULL,
                  name, "result %d (%s), engine %d", (int)rq, q.message, (int)q.engine);
        }
    }
}

/* A chain without statistics at W stride 2 on the haloed loop stores from the haloed row tiles
   (both W phases of a row in one tile: whole rows, _fc3d_tc_plan_of): each workload's convolution
   alone, and L2/34's with a GELU, in TF32, take them where the haloed loop is the plan's and
   neither the block loop (L2/15) nor a zero fill (L1/77) is; stride 1 (L2/77, L2/61) never. */
static void test_rows_store(void) {
    static const char* const id[5] = {"L2_15", "L2_77", "L2_34", "L2_61", "L1_77"};
    for (int w = 0; w < 6; w++) {
        fc3d_plan_desc d;
        fc3d_plan p;
        char name[64], text[4096];
        workload_desc(w < 5 ? w : 2, &d);
        d.math = FC3D_MATH_TF32; /* (the haloed loop's: TF32 or half) */
        d.num_ops = 0;
        memset(d.ops, 0, sizeof d.ops);
        if (w == 5) d.ops[d.num_ops++].kind = FC3D_OP_GELU;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p._private.engine_data.bytes;
        const int want = w == 2 || w == 5;
        const int rows = r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_IMPLICIT_GEMM && tp->rows_store &&
                         strstr(text, "whole-row tiles") != NULL && strstr(text, "row passes:") != NULL;
        snprintf(name, sizeof name, "rows_store.%s%s", id[w < 5 ? w : 2], w == 5 ? "_gelu" : "");
        check(r == FC3D_SUCCESS && p.num_passes == 1 && rows == want, name,
              "result %d (%s), %d passes, haloed row tiles %d (expected %d)", (int)r, p.message, p.num_passes, rows,
              want);
    }
}

/* The strategies and statistics plans (>>planning): every alternative a workload allows, forced,
   gives its pass structure; the planner's own choice is the alternative with the least estimated
   time among those it printed; forcing one a chain cannot take fails and names the field; the
   plan's costs add up. */
static const char* pass_text(const fc3d_plan* p, char* out) {
    out[0] = 0;
    for (int i = 0; i < p->num_passes; i++)
        strcat(out, p->passes[i].source == FC3D_SOURCE_INPUT_SUMS ? "X-"
                    : p->passes[i].store == FC3D_STORE_Y ? (p->passes[i].source == FC3D_SOURCE_CONV ? "Cy" : "Iy")
                    : p->passes[i].store ? (p->passes[i].source == FC3D_SOURCE_CONV ? "Ci" : "Ii")
                                         : (p->passes[i].source == FC3D_SOURCE_CONV ? "C-" : "I-"));
    return out;
}
/* A convolving pass's MMAs at the f16 rate (every math mode's products are f16 wgmmas on the
   haloed loop) and its stores of float y at the copy rate, one after the other, in ms. */
static double serial_ms(double flops, double ybytes) { return 1e3 * (flops / 732e12 + ybytes / 2945e9); }

/* The estimate of a pass whose row program runs on the warp-specialized row tiles
   (_fc3d_hx_ws_step_kind): L2/34 in TF32 and half math is bound by the row program, y's values at the
   LayerNorm's rate times one and a GELU's share; the same LayerNorm without its GELU (x 1.0 dropped
   as the launch drops it) by the LayerNorm alone; with a ReLU instead of the GELU the same; the
   convolution alone by its bytes (no row program); three straight ops after the LayerNorm (GELU,
   ReLU, x 2) leave the row program's form (no term): that pass runs on the haloed tiles whose MMAs
   and stores take turns (estimated at least their sum, serial_ms), where the row tiles overlap
   them (the convolution alone under that sum). The estimate is the chosen alternative's and never
   under the row program's time. */
static void test_rowprog_estimate(void) {
    const double per = 1e3 / _FC3D_HX_ROWPROG_VALUES_PER_S;
    for (int m = 0; m < 2; m++) {
        const fc3d_math math = m ? FC3D_MATH_HALF : FC3D_MATH_TF32;
        char name[128], text[8192];
        fc3d_plan_desc d;
        fc3d_plan p;
        double est[5], ser[5];
        for (int v = 0; v < 5; v++) {
            workload_desc(2, &d);
            d.math = math;
            if (v == 1) { d.ops[1].kind = FC3D_OP_SCALE; d.ops[1].value = 1.0f; }       /* LayerNorm alone */
            if (v == 2) d.ops[1].kind = FC3D_OP_RELU;                                       /* LayerNorm, ReLU */
            if (v == 3) d.num_ops = 0;                                                      /* the convolution alone */
            if (v == 4) { /* three straight ops after it: GELU, ReLU, x 2 */
                d.ops[2].kind = FC3D_OP_RELU; d.ops[2].value = 0.0f;
                d.ops[3].kind = FC3D_OP_SCALE; d.ops[3].value = 2.0f;
                d.num_ops = 4;
            }
            const fc3d_result r = fc3d_plan_init(&p, &d);
            fc3d_plan_describe(&p, text, sizeof text);
            est[v] = r == FC3D_SUCCESS ? p._private.est_ms : -1.0;
            ser[v] = serial_ms(p.exec_flops, (double)p.y_elements * 4.0); /* (one convolving pass) */
            const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p._private.engine_data.bytes;
            snprintf(name, sizeof name, "estimate.l2_34_row_program.math%d.v%d", m, v);
            check(r == FC3D_SUCCESS && tp->hx_ok && tp->kp.hx_rows && _fc3d_hx_ws_takes(tp), name,
                  "result %d: the haloed row tiles expected: %s", (int)r, text);
        }
        const double y = 32.0 * 64 * 32 * 64 * 64;
        snprintf(name, sizeof name, "estimate.l2_34_row_program.math%d", m);
        check(est[0] >= y * per * (1.0 + _FC3D_HX_ROWPROG_GELU_COST) && est[0] <= y * per * (1.0 + _FC3D_HX_ROWPROG_GELU_COST) + 0.1 &&
                  est[1] >= y * per && est[1] <= y * per + 0.1 && fabs(est[2] - est[1]) <= 1e-9 * est[1] &&
                  est[0] - est[1] >= 0.9 * y * per * _FC3D_HX_ROWPROG_GELU_COST && est[3] < est[1] - 0.05 &&
                  est[4] > 0.0 && est[4] < est[0] - 0.05 && est[3] < ser[3] - 0.05 && est[4] >= ser[4],
              name, "estimates (ms): LayerNorm GELU x1 %.4f, LayerNorm %.4f, LayerNorm ReLU %.4f, convolution alone %.4f, "
                    "LayerNorm GELU ReLU x2 %.4f; row program %.4f ms a LayerNorm; MMAs and stores in series: "
                    "convolution alone %.4f, three straight ops %.4f",
              est[0], est[1], est[2], est[3], est[4], y * per, ser[3], ser[4]);
    }
}

/* The haloed tiles' MMAs and stores in series (_fc3d_plan_costs): L2/61's and L1/77's
   convolutions alone and chains, TF32, half and FP32 on the haloed loop, are estimated at least
   their convolving pass's MMAs and y's stores in series (serial_ms), and at most 0.5 ms more (their other steps: the prep, FP32's
   magnitude scans, a finalize, L2/61's read-back: 0.37 ms at most here); their larger alone is
   less. */
static void test_haloed_serial_estimate(void) {
    for (int w = 3; w <= 4; w++)
        for (int alone = 0; alone < 2; alone++)
            for (int m = 0; m < 3; m++) {
                char name[128], text[8192];
                fc3d_plan_desc d;
                fc3d_plan p;
                workload_desc(w, &d);
                if (alone) d.num_ops = 0;
                d.math = m == 0 ? FC3D_MATH_TF32 : m == 1 ? FC3D_MATH_HALF : FC3D_MATH_FP32;
                const fc3d_result r = fc3d_plan_init(&p, &d);
                fc3d_plan_describe(&p, text, sizeof text);
                const fc3d_plan_private_* pr = &p._private;
                const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
                double f = 0.0, yb = 0.0;
                int convs = 0;
                for (int i = 0; r == FC3D_SUCCESS && i < pr->num_steps; i++)
                    if (pr->steps[i].kind == _FC3D_STEP_TC_CONV) {
                        f += pr->steps[i].flops;
                        yb += (double)p.y_elements * 4.0;
                        convs++;
                    }
                const double ser = serial_ms(f, yb), big = 1e3 * fmax(f / 732e12, yb / 2945e9);
                snprintf(name, sizeof name, "estimate.haloed_serial.w%d.%s.math%d", w, alone ? "alone" : "chain", m);
                check(r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_IMPLICIT_GEMM && tp->hx_ok && !tp->kp.hx_rows && convs == 1 &&
                          pr->est_ms >= ser && pr->est_ms <= ser + 0.5 && big < ser,
                      name, "result %d, %d convolving steps, estimate %.4f ms, MMAs and stores in series %.4f, the larger %.4f: %s",
                      (int)r, convs, pr->est_ms, ser, big, text);
            }
}

static void test_strategies(void) {
    /* [workload][k]: k = materialize/moments, recompute/moments, materialize/per op, recompute/per op;
       "" = the chain cannot take it */
    static const char* const want[5][4] = {
        {"CiIy", "C-Cy", "CiIiIy", "C-C-Cy"},
        {"", "C-", "", "C-C-"},
        {"", "", "CiIy", "C-Cy"},
        {"", "", "CiIy", "C-Cy"},
        {"", "", "Cy", ""},
    };
    static const char* const wname[5] = {"L2_15", "L2_77", "L2_34", "L2_61", "L1_77"};
    char name[96], text[4096], got[64];
    for (int w = 0; w < 5; w++) {
        for (int e = FC3D_ENGINE_DIRECT; e <= FC3D_ENGINE_IMPLICIT_GEMM; e++)
            for (int k = 0; k < 4; k++) {
                fc3d_plan_desc d;
                fc3d_plan p;
                workload_desc(w, &d);
                d.math = FC3D_MATH_TF32;
                d.engine = (fc3d_engine)e;
                d.strategy = (k & 1) ? FC3D_STRATEGY_RECOMPUTE : FC3D_STRATEGY_MATERIALIZE;
                d.stats_plan = (k & 2) ? FC3D_STATS_PLAN_PER_OP : FC3D_STATS_PLAN_MOMENTS;
                const fc3d_result r = fc3d_plan_init(&p, &d);
                snprintf(name, sizeof name, "strategy.%s.%s.%s.%s", wname[w], fc3d_engine_name((fc3d_engine)e),
                         (k & 1) ? "recompute" : "materialize", (k & 2) ? "per_op" : "moments");
                if (!want[w][k][0]) {
                    saw((k & 1) || w == 1 ? FC3D_ERROR_STATS_PLAN : FC3D_ERROR_STRATEGY, r);
                    check(r == FC3D_ERROR_STRATEGY || r == FC3D_ERROR_STATS_PLAN || r == FC3D_ERROR_ENGINE_REFUSED,
                          name, "result %d (%s): expected a refusal", (int)r, p.message);
                    continue;
                }
                check(r == FC3D_SUCCESS && strcmp(pass_text(&p, got), want[w][k]) == 0 &&
                          (int)p.strategy == (int)d.strategy && (int)p.stats_plan == (int)d.stats_plan,
                      name, "result %d (%s), passes %s, want %s", (int)r, p.message, got, want[w][k]);
            }
        /* automatic: the cheapest alternative, and costs that add up */
        fc3d_plan_desc d;
        fc3d_plan p;
        workload_desc(w, &d);
        d.math = FC3D_MATH_TF32;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        const fc3d_plan_private_* pr = &p._private;
        double min_ms = 1e300, chosen_ms = -1.0;
        for (int i = 0; i < pr->num_alts; i++) {
            if (pr->alt_ms[i] >= 0.0 && pr->alt_ms[i] < min_ms) min_ms = pr->alt_ms[i];
            if (pr->alt_strategy[i] == (int)p.strategy && pr->alt_stats_plan[i] == (int)p.stats_plan) chosen_ms = pr->alt_ms[i];
        }
        snprintf(name, sizeof name, "strategy.%s.auto_is_cheapest", wname[w]);
        check(r == FC3D_SUCCESS && pr->num_alts >= 1 && chosen_ms == min_ms && fabs(chosen_ms - pr->est_ms) <= 1e-9 * pr->est_ms &&
                  (pr->num_alts == 1 || strstr(text, "<- chosen")),
              name, "result %d, %d alternatives, chosen %.6g ms, cheapest %.6g ms, plan estimate %.6g; describe:\n%s", (int)r,
              pr->num_alts, chosen_ms, min_ms, pr->est_ms, text);
        double f = 0.0, b = 0.0;
        int conv_passes = 0;
        for (int i = 0; i < p.num_passes; i++) {
            f += p.passes[i].flops;
            b += p.passes[i].bytes;
            conv_passes += p.passes[i].source == FC3D_SOURCE_CONV;
        }
        const double least = ((double)p.x_elements + (double)p.weight_elements + (double)p.y_elements) * 4.0;
        /* the rate the floor takes: TF32's, or f16's where the haloed loop runs TF32 on its f16 path */
        const _fc3d_tc_plan* tpc = (const _fc3d_tc_plan*)pr->engine_data.bytes;
        const double rate = p.engine == FC3D_ENGINE_IMPLICIT_GEMM && tpc->hx_ok && tpc->kp.hx_t32 ? 732e12 : 403e12;
        snprintf(name, sizeof name, "cost.%s", wname[w]);
        /* TF32 on tensor cores: padding of the 128 x 32 tiles and tap ranges at tile borders cost
           extra MMAs, the crop of padding saves some; for these five shapes within [0.9, 2] x */
        check(fabs(f - p.exec_flops) <= 1e-9 * f && fabs(b - p.exec_bytes) <= 1e-9 * b && p.exec_bytes >= least &&
                  p.exec_flops >= 0.9 * conv_passes * p.flops && p.exec_flops <= 2.0 * conv_passes * p.flops &&
                  p.floor_ms > 0.0 && fabs(fc3d_plan_floor_ms(&p, 0.0, 0.0) - p.floor_ms) <= 1e-12 * p.floor_ms &&
                  fabs(fc3d_plan_floor_ms(&p, 2 * 2945e9, 2 * rate) - 0.5 * p.floor_ms) <= 1e-9 * p.floor_ms &&
                  strstr(text, "GFLOP executed") != NULL,
              name, "exec %.6g GFLOP (passes %.6g, useful %.6g x %d), %.6g MB (passes %.6g, least %.6g), floor %.6g ms",
              p.exec_flops * 1e-9, f * 1e-9, p.flops * 1e-9, conv_passes, p.exec_bytes * 1e-6, b * 1e-6, least * 1e-6,
              p.floor_ms);
        {   /* per step: the steps' costs add up to their passes'; a step that zero-fills y counts y
               written whole and, where its tapped W positions are every other one, the sectors of
               the tapped (d, h) rows read and written again, unless its haloed tiles store the
               tap-less positions themselves (_fc3d_hx_zc_geom: L1/77), y once; the haloed loop's prep
               step reads x and writes its operand copy (the copy's bytes: every padded position),
               and 3xTF32 reads x once more for its scale (TF32 on the f16 path finds x's while it
               copies, _fc3d_hx_x_as_is).
               The tapped share is counted here from the geometry, output position by position. */
            double ps[FC3D_MAX_PASSES] = {0}, pf[FC3D_MAX_PASSES] = {0};
            int ok = 1;
            for (int i = 0; i < pr->num_steps; i++) {
                const fc3d_step_* st = &pr->steps[i];
                ps[st->pass] += st->bytes;
                pf[st->pass] += st->flops;
                ok &= st->bytes >= 0.0 && st->flops >= 0.0;
                if (st->kind == _FC3D_STEP_TC_PREP && strstr(text, "operand copy of x")) {
                    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
                    ok &= tp->hx_xbytes >= 2 * (size_t)p.x_elements &&
                          st->bytes >= (tp->math == _FC3D_TC_3XTF32 ? 8.0 : 4.0) * (double)p.x_elements + (double)tp->hx_xbytes;
                }
                if (st->kind == _FC3D_STEP_TC_CONV && st->arg[5]) {
                    double frac[3];
                    const int64_t I[3] = {d.conv.in_size[0], d.conv.in_size[1], d.conv.in_size[2]};
                    for (int k = 0; k < 3; k++) {
                        const int64_t O = p.conv_size[k];
                        int64_t hit = 0;
                        for (int64_t o = 0; o < O; o++) {
                            int reached = 0;
                            for (int t = 0; t < d.conv.kernel[k] && !reached; t++) {
                                const int64_t q = o + d.conv.padding[k] - (int64_t)t * d.conv.dilation[k];
                                reached = q >= 0 && q % d.conv.stride[k] == 0 && q / d.conv.stride[k] < I[k];
                            }
                            hit += reached;
                        }
                        frac[k] = (double)hit / (double)O;
                    }
                    const double yb = 4.0 * (double)p.y_elements;
                    const int zc = _fc3d_hx_zc_geom(((const _fc3d_tc_plan*)pr->engine_data.bytes)->kp);
                    const double want = zc ? yb : yb * (1.0 + (frac[2] < 1.0 ? 2.0 : 1.0) * frac[0] * frac[1]);
                    ok &= st->bytes >= want && st->bytes <= want + 8.0 * (double)p.x_elements + 8.0 * (double)p.weight_elements;
                }
            }
            for (int i = 0; i < p.num_passes; i++)
                ok &= fabs(ps[i] - p.passes[i].bytes) <= 1e-9 * p.passes[i].bytes && fabs(pf[i] - p.passes[i].flops) <= 1e-9 * p.passes[i].flops + 1.0;
            snprintf(name, sizeof name, "cost.%s.steps", wname[w]);
            check(ok && strstr(text, " MB\n"), name, "step costs do not add up, or miss a copy or a zero fill's sectors; describe:\n%s", text);
        }
        printf("# cost %s: %s engine, %s / %s, %d passes, %.4g GFLOP executed, %.4g MB, floor %.4g ms\n", wname[w],
               fc3d_engine_name(p.engine), p.strategy == FC3D_STRATEGY_RECOMPUTE ? "recompute" : "materialize",
               p.stats_plan == FC3D_STATS_PLAN_MOMENTS ? "moments" : "per op", p.num_passes, p.exec_flops * 1e-9,
               p.exec_bytes * 1e-6, p.floor_ms);
    }
    /* linear statistics: a chain of affine ops and means takes them from x, with no pass over the
       output (conv -> scale -> spatial mean; and the same ending in a pool: no convolution at all) */
    for (int pool = 0; pool < 2; pool++)
        for (int e = FC3D_ENGINE_DIRECT; e <= FC3D_ENGINE_IMPLICIT_GEMM; e++) {
            fc3d_plan_desc d = base_desc();
            fc3d_plan p;
            d.engine = (fc3d_engine)e;
            d.ops[0].kind = FC3D_OP_SCALE; d.ops[0].value = 2.0f; d.ops[0].flags = 0;
            d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
            d.ops[2].kind = FC3D_OP_ADD_CHANNEL;
            d.ops[3].kind = FC3D_OP_GLOBAL_AVG_POOL;
            d.num_ops = pool ? 4 : 3;
            const fc3d_result r = fc3d_plan_init(&p, &d);
            fc3d_plan_describe(&p, text, sizeof text);
            snprintf(name, sizeof name, "strategy.linear%s.%s", pool ? "_pool" : "", fc3d_engine_name((fc3d_engine)e));
            check(r == FC3D_SUCCESS && p.stats_plan == FC3D_STATS_PLAN_LINEAR &&
                      strcmp(pass_text(&p, got), pool ? "X-" : "X-Cy") == 0 && strstr(text, "sums of x") &&
                      p.exec_flops == (pool ? 0.0 : p.passes[1].flops),
                  name, "result %d (%s), stats plan %d, passes %s; describe:\n%s", (int)r, p.message, (int)p.stats_plan, got,
                  text);
        }
    /* refusals name the field and say why */
    {
        fc3d_plan_desc d;
        workload_desc(1, &d); /* ends in a pool */
        d.strategy = FC3D_STRATEGY_MATERIALIZE;
        expect_invalid("strategy.materialize_pool", &d, FC3D_ERROR_STRATEGY, "strategy", "global_avg_pool");
        workload_desc(4, &d); /* the convolution alone */
        d.strategy = FC3D_STRATEGY_RECOMPUTE;
        expect_invalid("strategy.recompute_no_statistics", &d, FC3D_ERROR_STRATEGY, "strategy", "no statistics op");
        workload_desc(3, &d); /* ReLU then GroupNorm: one statistics op */
        d.stats_plan = FC3D_STATS_PLAN_MOMENTS;
        expect_invalid("stats_plan.moments_one_statistics_op", &d, FC3D_ERROR_STATS_PLAN, "stats_plan", "1 statistics op");
        d = base_desc(); /* BatchNorm, ReLU, spatial mean: ReLU is not affine */
        d.ops[2] = d.ops[1];
        d.ops[1].kind = FC3D_OP_RELU;
        d.num_ops = 3;
        d.stats_plan = FC3D_STATS_PLAN_MOMENTS;
        expect_invalid("stats_plan.moments_not_affine", &d, FC3D_ERROR_STATS_PLAN, "stats_plan", "ops[1] (relu)");
        d = base_desc(); /* BatchNorm's variance is not linear in x */
        d.stats_plan = FC3D_STATS_PLAN_LINEAR;
        expect_invalid("stats_plan.linear_variance", &d, FC3D_ERROR_STATS_PLAN, "stats_plan", "ops[0] (batchnorm_train)");
        d.ops[0].kind = FC3D_OP_SCALE; d.ops[0].value = 3.0f; d.ops[0].flags = 0;
        d.strategy = FC3D_STRATEGY_MATERIALIZE;
        expect_invalid("stats_plan.linear_materialize", &d, FC3D_ERROR_STATS_PLAN, "stats_plan", "materialize");
    }
}

/* desc.main_loop: the plan allows wgmma (every math mode) with in_channels / groups a multiple of 16
   on the implicit_gemm engine and says so; forcing it elsewhere, or forcing any loop on the direct
   engine, fails and names the field; forcing mma.sync keeps a plan off wgmma. The haloed loop: AUTO
   takes it in every math mode on float32 tensors with in_channels / groups a multiple of 32 and
   128 products an output or more (L2/77, L2/61, and L2/34 on haloed row tiles for its LayerNorm over
   W, in FP32 math too: 256 products an output, within the 3xTF32 row tiles' 512; with 96 input
   channels, 768, FP32 math takes the haloed loop without row tiles and a read-back pass that takes
   the rows' statistics from the rows; forced to recompute, the row tiles), counted over the tapped outputs where the plan
   zero-fills the tap-less ones (L1/77: 102 products an output, 864 a tapped one); it refuses C_in 16
   and 24, 16-bit tensors, and L2/34's chain at W stride 1 in TF32 and half math (row tiles need two
   W phases; FP32 math takes it as at stride 2), naming the field and the reason. The five workloads
   (C_in 16 / 64 / 32 / 64 / 32), then L2/15's chain with C_in 24, then L2/34's at W stride 1. */
/* L2/34's chain in FP32 planned as the haloed convolution storing its rows (no row tiles) and one
   read-back pass that takes each row's statistics from the row (text: the plan's describe) */
static int l2_34_row_pass_plan(const fc3d_plan* p, const char* text) {
    const fc3d_step_* s2 = p->_private.num_steps == 3 ? &p->_private.steps[2] : NULL;
    return s2 && p->_private.steps[1].kind == _FC3D_STEP_TC_CONV && p->_private.steps[1].arg[3] == 0 &&
           p->_private.steps[1].arg[0] == FC3D_STORE_INTERMEDIATE && s2->kind == _FC3D_STEP_DIRECT_PASS &&
           s2->variant == _FC3D_DIRECT_ROWS + _FC3D_DIRECT_ROWS_STRAIGHT + 2 &&
           strstr(text, "op 0's row statistics from the rows it reads, 4 at once a warp") != NULL &&
           strstr(text, "finalize") == NULL && strstr(text, "whole-row") == NULL;
}
/* The dynamic shared memory the launchers request for a convolving step on the mma.sync-family
   loops, from the kernels' own configurations: the warp-row loop's (storing or not), the block loop's (_fc3d_bk_run::conv_as at the
   plan's n8 tiles), the tiled loop's _fc3d_tc_cfg at the channel tile _fc3d_tc_launch_bn takes
   (whole-row tiles: 32 channels where the plan's tile is 32 or the math 3xTF32, else 64) */
template <int M>
static size_t cfg_smem(int bn) {
    return bn == 32 ? _fc3d_tc_cfg<32, M, false>::SMEM
           : bn == 64 || M == _FC3D_TC_3XTF32 ? _fc3d_tc_cfg<64, M, false>::SMEM
                                               : _fc3d_tc_cfg<M == _FC3D_TC_3XTF32 ? 64 : 128, M, false>::SMEM;
}
static size_t step_launch_smem(const _fc3d_tc_plan* tp, const fc3d_step_* st) {
    if (tp->wr_ok) return _fc3d_wr_smem(tp->kp.in[1], st->arg[0] != FC3D_STORE_NONE); /* (_fc3d_wr_run::conv_as) */
    if (tp->bk_ok) return _fc3d_bk_smem(tp->kp, tp->bk_nt8);
    const int bn = st->arg[3] ? (tp->bn == 32 || tp->math == _FC3D_TC_3XTF32 ? 32 : 64) : tp->bn;
    return tp->math == _FC3D_TC_3XTF32 ? cfg_smem<_FC3D_TC_3XTF32>(bn)
           : tp->math == _FC3D_TC_HALF ? cfg_smem<_FC3D_TC_HALF>(bn)
                                       : cfg_smem<_FC3D_TC_TF32>(bn);
}
/* The most any convolving step of p requests (0: none) */
static size_t plan_launch_smem(const fc3d_plan* p) {
    size_t m = 0;
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p->_private.engine_data.bytes;
    for (int i = 0; i < p->_private.num_steps; i++)
        if (p->_private.steps[i].kind == _FC3D_STEP_TC_CONV) {
            const size_t s = step_launch_smem(tp, &p->_private.steps[i]);
            if (s > m) m = s;
        }
    return m;
}

/* desc.smem_per_block: validated (0 = FC3D_SMEM_PER_BLOCK_MAX, the range named in the message);
   the default plans are the plans at the maximum, described alike; below it the planner takes no
   sm_90a loop (forcing one is refused naming the field) and no launch past the grant: the five
   workloads in every math mode and random descs at sm_86's and sm_80's grants plan kernels within
   them (_fc3d_tc_sync_need), and L2/77's 128-channel tiles (110 KB) become 64-channel ones. */
static void test_smem_per_block(void) {
    fc3d_plan_desc d;
    workload_desc(1, &d);
    d.smem_per_block = FC3D_SMEM_PER_BLOCK_MIN - 1;
    expect_invalid("smem_per_block.low", &d, FC3D_ERROR_SMEM_PER_BLOCK, "smem_per_block = 49151", "49152");
    d.smem_per_block = FC3D_SMEM_PER_BLOCK_MAX + 1;
    expect_invalid("smem_per_block.high", &d, FC3D_ERROR_SMEM_PER_BLOCK, "smem_per_block = 232449", "232448");
    d.smem_per_block = -1;
    expect_invalid("smem_per_block.negative", &d, FC3D_ERROR_SMEM_PER_BLOCK, "smem_per_block = -1", NULL);
    d.smem_per_block = 0;
    const fc3d_plan_desc filled = fc3d_plan_desc_defaults(&d);
    check(filled.smem_per_block == FC3D_SMEM_PER_BLOCK_MAX, "smem_per_block.default", "filled %d", filled.smem_per_block);
    static char t0[16384], t1[16384];
    for (int w = 0; w < 5; w++)
        for (int m = 1; m <= 3; m++) {
            char name[96];
            fc3d_plan p0, p1;
            workload_desc(w, &d);
            d.math = (fc3d_math)m;
            d.smem_per_block = 0;
            const fc3d_result r0 = fc3d_plan_init(&p0, &d);
            d.smem_per_block = FC3D_SMEM_PER_BLOCK_MAX;
            const fc3d_result r1 = fc3d_plan_init(&p1, &d);
            fc3d_plan_describe(&p0, t0, sizeof t0);
            fc3d_plan_describe(&p1, t1, sizeof t1);
            snprintf(name, sizeof name, "smem_per_block.default_is_max.w%d.m%d", w, m);
            check(r0 == FC3D_SUCCESS && r1 == FC3D_SUCCESS && strcmp(t0, t1) == 0 &&
                      p0.workspace_bytes == p1.workspace_bytes && strstr(t0, "shared memory a block: ") != NULL,
                  name, "results %d %d; describes differ or lack the shared memory line:\n%s\n--\n%s", (int)r0, (int)r1,
                  t0, t1);
            for (int g = 0; g < 2; g++) {
                const int grant = g ? 166912 : FC3D_SMEM_PER_BLOCK_TC;
                fc3d_plan p;
                d.smem_per_block = grant;
                const fc3d_result r = fc3d_plan_init(&p, &d);
                fc3d_plan_describe(&p, t0, sizeof t0);
                const char* loop = "";
                const size_t need = r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_IMPLICIT_GEMM
                                        ? _fc3d_tc_sync_need((const _fc3d_tc_plan*)p._private.engine_data.bytes, &loop)
                                        : 0;
                snprintf(name, sizeof name, "smem_per_block.workload.w%d.m%d.%d", w, m, grant);
                const size_t launch = r == FC3D_SUCCESS ? plan_launch_smem(&p) : 0;
                check(r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_IMPLICIT_GEMM && need > 0 && need <= (size_t)grant &&
                          launch > 0 && launch <= need &&
                          p.main_loop != FC3D_MAIN_LOOP_HALO && p.main_loop != FC3D_MAIN_LOOP_WGMMA &&
                          fc3d_plan_main_loop(&p) != FC3D_MAIN_LOOP_HALO && fc3d_plan_main_loop(&p) != FC3D_MAIN_LOOP_WGMMA,
                      name, "result %d (%s), main loop %d, %zu bytes a block on %s:\n%s", (int)r, p.message,
                      (int)p.main_loop, need, loop, t0);
                if (w == 1 && m == 2 && g == 0)
                    check(strstr(t0, "shared memory a block: 88320 bytes on the mma.sync loop") != NULL &&
                              strstr(t0, "main loop: mma.sync (desc.smem_per_block is below sm_90's 227 KB") != NULL &&
                              strstr(t0, "haloed loop not taken: desc.smem_per_block is below sm_90's 227 KB") != NULL,
                          "smem_per_block.l2_77_tiles", "%s", t0);
                if (w == 1 && m == 2 && g == 1)
                    check(strstr(t0, "shared memory a block: 112896 bytes on the mma.sync loop") != NULL,
                          "smem_per_block.l2_77_tiles_sm80", "%s", t0);
            }
        }
    workload_desc(1, &d);
    d.math = FC3D_MATH_TF32;
    d.smem_per_block = FC3D_SMEM_PER_BLOCK_TC;
    d.main_loop = FC3D_MAIN_LOOP_HALO;
    expect_invalid("smem_per_block.forced_halo", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = halo", "desc.smem_per_block");
    d.main_loop = FC3D_MAIN_LOOP_WGMMA;
    expect_invalid("smem_per_block.forced_wgmma", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = wgmma", "desc.smem_per_block = 101376");
    /* a grant below every sm_80+ device's (sm_75's 64 KB): AUTO takes the direct engine, the
       implicit-GEMM engine forced is refused naming the field; at 48 KB too */
    for (int g = 0; g < 2; g++) {
        workload_desc(2, &d);
        d.smem_per_block = g ? FC3D_SMEM_PER_BLOCK_MIN : 65536;
        fc3d_plan p;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        char text[8192];
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_DIRECT &&
                  strstr(text, "engine implicit_gemm refused: desc.smem_per_block = ") != NULL,
              g ? "smem_per_block.pre_sm80_48k" : "smem_per_block.pre_sm80_64k", "result %d, engine %d: %s", (int)r,
              (int)p.engine, text);
        d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
        expect_invalid(g ? "smem_per_block.pre_sm80_forced_48k" : "smem_per_block.pre_sm80_forced_64k", &d,
                       FC3D_ERROR_ENGINE_REFUSED, "smem_per_block", "compute capability 8.0");
    }
    /* a plan with no convolving step (a pooled chain's statistics from x's sums alone) launches no
       tensor-core kernel: describe gives it no shared-memory figure (nor does a run check one) */
    {
        d = cube_desc(2, 16, 128, 6, 3, 2);
        d.ops[0].kind = FC3D_OP_SCALE;
        d.ops[0].value = 2.0f;
        d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        d.ops[2].kind = FC3D_OP_GLOBAL_AVG_POOL;
        d.num_ops = 3;
        d.stats_plan = FC3D_STATS_PLAN_LINEAR;
        d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
        fc3d_plan p;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, t0, sizeof t0);
        check(r == FC3D_SUCCESS && !_fc3d_tc_convolves(&p) && strstr(t0, "shared memory a block") == NULL,
              "smem_per_block.no_convolving_step", "result %d (%s), convolves %d:\n%s", (int)r, p.message,
              r == FC3D_SUCCESS ? _fc3d_tc_convolves(&p) : -1, t0);
    }
    /* random descs: every plan's launches within the grant it was planned for */
    uint64_t st = 2718281828ull;
    int planned = 0, bad = 0;
    char why[512] = "";
    for (int k = 0; k < 1200; k++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = st >> 11;
        auto draw = [&](int lo, int hi) {
            if (r < 1000000) { st = st * 6364136223846793005ull + 1442695040888963407ull; r = st >> 11; }
            const int v = lo + (int)(r % (uint64_t)(hi - lo + 1));
            r /= (uint64_t)(hi - lo + 1);
            return v;
        };
        static const int chans[] = {8, 16, 32, 48, 64, 96, 128, 256};
        memset(&d, 0, sizeof d);
        d.conv.batch = draw(1, 8);
        d.conv.in_channels = chans[draw(0, 7)];
        d.conv.out_channels = chans[draw(0, 7)];
        for (int i = 0; i < 3; i++) {
            d.conv.in_size[i] = draw(1, 40);
            d.conv.kernel[i] = draw(1, 5);
            d.conv.stride[i] = draw(1, 3);
            d.conv.padding[i] = draw(0, 2);
            d.conv.output_padding[i] = draw(0, d.conv.stride[i] - 1);
        }
        d.layout = (fc3d_layout)draw(1, 2);
        d.dtype = (fc3d_dtype)(draw(0, 3) == 0 ? draw(2, 3) : 1);
        d.math = (fc3d_math)draw(1, 3);
        if (draw(0, 1)) {
            d.ops[0].kind = FC3D_OP_LAYERNORM;
            d.ops[0].norm_dims = 1;
            d.num_ops = 1;
        }
        d.smem_per_block = k % 2 ? 166912 : FC3D_SMEM_PER_BLOCK_TC;
        fc3d_plan p;
        if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS || p.engine != FC3D_ENGINE_IMPLICIT_GEMM) continue;
        planned++;
        const char* loop = "";
        const size_t need = _fc3d_tc_sync_need((const _fc3d_tc_plan*)p._private.engine_data.bytes, &loop);
        const size_t launch = plan_launch_smem(&p);
        if (need > (size_t)d.smem_per_block || launch > need || fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_HALO ||
            fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_WGMMA) {
            if (!bad++) snprintf(why, sizeof why, "case %d: %zu bytes a block on %s (its launches %zu), grant %d, main loop %d",
                                 k, need, loop, launch, d.smem_per_block, fc3d_plan_main_loop(&p));
        }
    }
    check(planned > 600 && bad == 0, "smem_per_block.random", "%d planned, %d past their grant; %s", planned, bad, why);
}

static void test_main_loops(void) {
    static const char* const halo_why[7] = {"multiple of 32", "", "", "", "", "multiple of 32", "W stride other than 2"};
    for (int w = 0; w < 7; w++) {
        for (int m = 1; m <= 3; m++) {
            fc3d_plan_desc d;
            fc3d_plan p;
            char name[96], text[4096];
            workload_desc(w < 5 ? w : w == 5 ? 0 : 2, &d);
            if (w == 5) d.conv.in_channels = 24;
            if (w == 6) d.conv.stride[2] = 1;
            d.math = (fc3d_math)m;
            const int want = w < 5 || w == 6;
            const int rowfp32 = w == 6 && m == FC3D_MATH_FP32; /* L2/34's LayerNorm over W in FP32 at W stride 1 */
            const int halo_auto = (w >= 1 && w <= 4) || rowfp32;
            const int halo_ok = halo_auto;
            /* L2/15 in TF32 and in half math: the warp-row loop (its shape: C_in 16, kernel 3, stride 2,
               padding 1, H and W 32) */
            const int block_auto = w == 0 && (m == FC3D_MATH_TF32 || m == FC3D_MATH_HALF);
            fc3d_result r = fc3d_plan_init(&p, &d);
            fc3d_plan_describe(&p, text, sizeof text);
            snprintf(name, sizeof name, "main_loop.auto_%d_math%d", w, m);
            check(r == FC3D_SUCCESS && p.engine == FC3D_ENGINE_IMPLICIT_GEMM &&
                      p.main_loop == (halo_auto    ? FC3D_MAIN_LOOP_HALO
                                      : block_auto ? FC3D_MAIN_LOOP_WARP_ROWS
                                      : want       ? FC3D_MAIN_LOOP_WGMMA
                                                   : FC3D_MAIN_LOOP_MMA_SYNC) &&
                      strstr(text, halo_auto    ? "main loop: haloed wgmma where"
                                   : block_auto ? "main loop: warp rows (mma.sync m16n8k16); a warp an output row"
                                   : want       ? "main loop: wgmma where"
                                                : "main loop: mma.sync") != NULL &&
                      (halo_auto || block_auto || strstr(text, "haloed loop not taken: ") != NULL),
                  name, "result %d (%s), main_loop %d", (int)r, p.message, (int)p.main_loop);
            if (w == 4) { /* L1/77 with a conv bias: nothing zero-filled, 102 products an output */
                fc3d_plan_desc db = d;
                fc3d_plan pb;
                char tb[4096];
                db.conv.bias = 1;
                const fc3d_result rb = fc3d_plan_init(&pb, &db);
                fc3d_plan_describe(&pb, tb, sizeof tb);
                snprintf(name, sizeof name, "main_loop.auto_l1_77_tapped_tiles_math%d", m);
                check(strstr(text, "with taps launched, storing the tap-less positions around theirs: no fill") != NULL &&
                          strstr(text, "over the outputs a tap reaches") != NULL,
                      name, "%s", text);
                snprintf(name, sizeof name, "main_loop.auto_l1_77_bias_products_math%d", m);
                check(rb == FC3D_SUCCESS && pb.main_loop == FC3D_MAIN_LOOP_WGMMA &&
                          strstr(tb, "under 128 products an output") != NULL,
                      name, "result %d, main_loop %d: %s", (int)rb, (int)pb.main_loop, tb);
            }
            if (w == 0 || w == 4) {
                /* L1/77 (no bias, 88 % of y in tap-less phases): those tiles skipped, the tap-less
                   positions stored by the tapped phase's haloed tiles (a zero fill first on mma.sync);
                   L2/15 (a conv bias, 3/4 of y tap-less): every tile stores */
                int zf = 0;
                for (int k = 0; k < p._private.num_steps; k++)
                    if (p._private.steps[k].kind == _FC3D_STEP_TC_CONV && p._private.steps[k].arg[5]) zf = 1;
                snprintf(name, sizeof name, "main_loop.zero_fill_%d_math%d", w, m);
                check(r == FC3D_SUCCESS && zf == (w == 4) &&
                          (strstr(text, "tap-less phases stored by the haloed tiles, their own tiles skipped") != NULL) == (w == 4),
                      name, "zero fill %d; %s", zf, text);
            }
            if (w == 1 || w == 3) {
                /* the haloed tiling (_fc3d_hx_plan, _fc3d_hx_tiling): halos shared between rows and
                   planes leave L2/77 padded planes of 36 x 36 for its 36 x 36 outputs (40 x 40 with
                   halos of their own) and L2/61 34 x 34 for 34 x 34 (36 x 36): every virtual row is an
                   output, and both keep the runs of 256 virtual rows (plane rows would issue more) */
                snprintf(name, sizeof name, "main_loop.halo_tiling_%d_math%d", w, m);
                check(r == FC3D_SUCCESS &&
                          strstr(text, w == 1 ? "padded planes of 36 x 36 rows (H x W; halos shared"
                                              : "padded planes of 34 x 34 rows (H x W; halos shared") != NULL &&
                          strstr(text, "tiles: runs of 256 virtual rows across the padded planes (wgmma n256)") != NULL,
                      name, "%s", text);
            }
            if (rowfp32) { /* L2/34 in FP32: the haloed loop stores the rows, one pass reads them back */
                snprintf(name, sizeof name, "main_loop.auto_l2_34_row_pass_w%d", w);
                check(r == FC3D_SUCCESS && l2_34_row_pass_plan(&p, text), name, "%s", text);
            }
            if (w == 2 && m == FC3D_MATH_FP32) {
                /* forced to recompute: the haloed row tiles too (the statistics pass and the storing pass) */
                fc3d_plan_desc dr = d;
                fc3d_plan pr_;
                char tr[4096];
                dr.strategy = FC3D_STRATEGY_RECOMPUTE;
                const fc3d_result rr = fc3d_plan_init(&pr_, &dr);
                fc3d_plan_describe(&pr_, tr, sizeof tr);
                check(rr == FC3D_SUCCESS && pr_.engine == FC3D_ENGINE_IMPLICIT_GEMM &&
                          pr_.main_loop == FC3D_MAIN_LOOP_HALO && strstr(tr, "whole-row tiles") != NULL &&
                          strstr(tr, "row tiles: three f16 wgmmas a K step into one accumulator") != NULL &&
                          strstr(tr, "row statistics from the rows it reads") == NULL,
                      "main_loop.auto_l2_34_fp32_recompute_row_tiles", "result %d (%s): %s", (int)rr, pr_.message, tr);
                /* 96 input channels: 768 products an output, past the 3xTF32 row tiles' 512: the haloed
                   loop without row tiles, the rows stored and read back in one pass */
                fc3d_plan_desc dk = d;
                fc3d_plan pk;
                char tk[4096];
                dk.conv.in_channels = 96;
                const fc3d_result rk = fc3d_plan_init(&pk, &dk);
                fc3d_plan_describe(&pk, tk, sizeof tk);
                check(rk == FC3D_SUCCESS && pk.main_loop == FC3D_MAIN_LOOP_HALO && l2_34_row_pass_plan(&pk, tk),
                      "main_loop.auto_l2_34_fp32_c96_row_pass", "result %d (%s): %s", (int)rk, pk.message, tk);
            }
            if (w == 2) { /* L2/34: one GEMM step on haloed row tiles, 7 rows of 33 a tile (FP32: 3xTF32's) */
                snprintf(name, sizeof name, "main_loop.auto_l2_34_row_tiles_math%d", m);
                check(r == FC3D_SUCCESS && p._private.num_steps == 2 &&
                          p._private.steps[1].arg[3] == 1 &&
                          strstr(text, "haloed row tiles a sample, 7 padded rows of both W phases each (wgmma n240)") != NULL &&
                          (m != FC3D_MATH_FP32 ||
                           strstr(text, "row tiles: three f16 wgmmas a K step into one accumulator") != NULL),
                      name, "%s", text);
            }
            /* forced: the haloed loop where it can take the plan, else an error naming the reason */
            d.main_loop = FC3D_MAIN_LOOP_HALO;
            snprintf(name, sizeof name, "main_loop.halo_%d_math%d", w, m);
            if (halo_ok) {
                r = fc3d_plan_init(&p, &d);
                fc3d_plan_describe(&p, text, sizeof text);
                check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_HALO && strstr(text, "haloed wgmma (forced") != NULL,
                      name, "result %d (%s), main_loop %d", (int)r, p.message, (int)p.main_loop);
            } else {
                expect_invalid(name, &d, FC3D_ERROR_MAIN_LOOP, "main_loop = halo", halo_why[w]);
            }
            if (halo_ok) { /* 16-bit tensors: refused, with the reason */
                d.dtype = FC3D_DTYPE_F16;
                snprintf(name, sizeof name, "main_loop.halo_f16_%d_math%d", w, m);
                expect_invalid(name, &d, FC3D_ERROR_MAIN_LOOP, "main_loop = halo", "16-bit tensors");
                d.dtype = FC3D_DTYPE_F32;
            }
            d.main_loop = FC3D_MAIN_LOOP_AUTO;
            d.main_loop = FC3D_MAIN_LOOP_MMA_SYNC;
            r = fc3d_plan_init(&p, &d);
            snprintf(name, sizeof name, "main_loop.mma_sync_%d_math%d", w, m);
            check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_MMA_SYNC, name, "result %d (%s), main_loop %d",
                  (int)r, p.message, (int)p.main_loop);
            d.main_loop = FC3D_MAIN_LOOP_WGMMA;
            snprintf(name, sizeof name, "main_loop.wgmma_%d_math%d", w, m);
            if (want) {
                r = fc3d_plan_init(&p, &d);
                fc3d_plan_describe(&p, text, sizeof text);
                check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_WGMMA && strstr(text, "(forced") != NULL,
                      name, "result %d (%s), main_loop %d", (int)r, p.message, (int)p.main_loop);
            } else {
                expect_invalid(name, &d, FC3D_ERROR_MAIN_LOOP, "main_loop", "multiple of 16");
            }
        }
    }
    {
        /* the block loop: L2/15 forced onto it in TF32 (its weight re-laid in mma.sync's fragment
           order by the prep step), and in half math on its f16 operands; refused, naming the reason,
           for half math at C_in 8 and 24 (no f16 operands), 16-bit tensors, NDHWC,
           groups, L2/61's 64 input channels, L2/34's LayerNorm over W (row tiles) and L1/77's
           weight (32 x 64 x 27 floats: past its shared memory) */
        fc3d_plan_desc d;
        fc3d_plan p;
        char text[4096];
        workload_desc(0, &d);
        d.math = FC3D_MATH_TF32;
        d.main_loop = FC3D_MAIN_LOOP_BLOCK;
        fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_BLOCK && fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_BLOCK &&
                  strstr(text, "main loop: block (mma.sync) (forced)") != NULL && strstr(text, "weight re-layout") != NULL &&
                  strstr(text, "231 a sample") != NULL,
              "main_loop.block_l2_15", "result %d (%s): %s", (int)r, p.message, text);
        d.math = FC3D_MATH_HALF; /* half math: on the f16 operands (C_in 16), refused at C_in 8 or 24 */
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        if (_FC3D_BK_F16)
            check(r == FC3D_SUCCESS && fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_BLOCK &&
                      strstr(text, "operands as f16 (m16n8k16): x and the weight rounded to f16 as they are (half math)") != NULL,
                  "main_loop.block_half_f16", "result %d (%s): %s", (int)r, p.message, text);
        for (int cin = 8; cin <= 24; cin += 16) {
            char nm[64];
            d.conv.in_channels = cin;
            snprintf(nm, sizeof nm, "main_loop.block_half_cin%d", cin);
            expect_invalid(nm, &d, FC3D_ERROR_MAIN_LOOP, "main_loop = block", "half math only where in_channels is a multiple of 16");
        }
        d.conv.in_channels = 16;
        d.math = FC3D_MATH_TF32;
        d.dtype = FC3D_DTYPE_BF16;
        expect_invalid("main_loop.block_bf16", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = block", "16-bit tensors");
        d.dtype = FC3D_DTYPE_F32;
        d.layout = FC3D_LAYOUT_NDHWC;
        expect_invalid("main_loop.block_ndhwc", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = block", "NDHWC");
        d.layout = FC3D_LAYOUT_NCDHW;
        d.conv.groups = 2;
        expect_invalid("main_loop.block_groups", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = block", "groups");
        static const int others[3] = {3, 2, 4};
        static const char* const why[3] = {"in_channels is not a multiple of 8 up to 32", "LayerNorm over W",
                                           "the geometry"};
        for (int i = 0; i < 3; i++) {
            char nm[64];
            workload_desc(others[i], &d);
            d.math = FC3D_MATH_TF32;
            d.main_loop = FC3D_MAIN_LOOP_BLOCK;
            snprintf(nm, sizeof nm, "main_loop.block_refused_%d", others[i]);
            expect_invalid(nm, &d, FC3D_ERROR_MAIN_LOOP, "main_loop = block", why[i]);
        }
    }
    {
        /* the warp-row loop: L2/15 forced onto it in TF32 and half math (x's f16 copy in the
           workspace, the prep step's three launches); its chain planned as recompute / moments (a
           statistics pass, then the storing pass through the composed map); refused, naming the
           reason, for FP32 math, 16-bit tensors, NDHWC, groups, C_in 32, C_out 48, stride 1,
           padding 0, input W 40 and a LayerNorm; AUTO leaves L2/15 at input W 40 to the block loop;
           the statistics slots are the loop's units (planes, blocks), not the tiled loops' tiles */
        fc3d_plan_desc d;
        fc3d_plan p;
        char text[4096];
        workload_desc(0, &d);
        d.math = FC3D_MATH_TF32;
        d.main_loop = FC3D_MAIN_LOOP_WARP_ROWS;
        fc3d_result r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_WARP_ROWS &&
                  fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_WARP_ROWS &&
                  strstr(text, "main loop: warp rows (mma.sync m16n8k16) (forced)") != NULL &&
                  strstr(text, "1953 rows a sample") != NULL && strstr(text, "(8388608 bytes)") != NULL &&
                  strstr(text, "weight on block 0 of x's f16 copy") != NULL && strstr(text, "its own power of two") != NULL &&
                  p.workspace_bytes >= 8388608 + 27648,
              "main_loop.warp_rows_l2_15", "result %d (%s): %s", (int)r, p.message, text);
        d.main_loop = FC3D_MAIN_LOOP_AUTO;
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_WARP_ROWS && p.strategy == FC3D_STRATEGY_RECOMPUTE &&
                  p.stats_plan == FC3D_STATS_PLAN_MOMENTS && p.num_passes == 2 && p.passes[0].store == FC3D_STORE_NONE &&
                  p.passes[1].source == FC3D_SOURCE_CONV && p.passes[1].store == FC3D_STORE_Y &&
                  strstr(text, "512 groups x 31 slots") != NULL,
              "main_loop.warp_rows_l2_15_recompute", "result %d (%s): %s", (int)r, p.message, text);
        d.math = FC3D_MATH_HALF;
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        check(r == FC3D_SUCCESS && fc3d_plan_main_loop(&p) == FC3D_MAIN_LOOP_WARP_ROWS &&
                  strstr(text, "x and the weight rounded to f16 as they are (half math)") != NULL,
              "main_loop.warp_rows_half", "result %d (%s): %s", (int)r, p.message, text);
        d.main_loop = FC3D_MAIN_LOOP_WARP_ROWS;
        d.math = FC3D_MATH_FP32;
        expect_invalid("main_loop.warp_rows_fp32", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "TF32 and half math");
        d.math = FC3D_MATH_TF32;
        d.dtype = FC3D_DTYPE_F16;
        expect_invalid("main_loop.warp_rows_f16", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "16-bit tensors");
        d.dtype = FC3D_DTYPE_F32;
        d.layout = FC3D_LAYOUT_NDHWC;
        expect_invalid("main_loop.warp_rows_ndhwc", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "NDHWC");
        d.layout = FC3D_LAYOUT_NCDHW;
        d.conv.groups = 2;
        expect_invalid("main_loop.warp_rows_groups", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "groups");
        d.conv.groups = 1;
        d.conv.in_channels = 32;
        expect_invalid("main_loop.warp_rows_cin32", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "in_channels is not 16");
        d.conv.in_channels = 16;
        d.conv.out_channels = 48;
        expect_invalid("main_loop.warp_rows_cout48", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "out_channels is past 32");
        d.conv.out_channels = 32;
        d.conv.stride[1] = 1;
        expect_invalid("main_loop.warp_rows_stride1", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "stride 2");
        d.conv.stride[1] = 2;
        d.conv.padding[2] = 0;
        expect_invalid("main_loop.warp_rows_padding0", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "padding 1");
        d.conv.padding[2] = 1;
        d.conv.in_size[2] = 40;
        expect_invalid("main_loop.warp_rows_w40", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "H or W is past 32");
        d.main_loop = FC3D_MAIN_LOOP_AUTO;
        r = fc3d_plan_init(&p, &d);
        fc3d_plan_describe(&p, text, sizeof text);
        /* (its statistics slots: its blocks, 31 x ceil(63 / 5) of 1 x 5 output rows a sample) */
        check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_BLOCK &&
                  strstr(text, "blocks of 1 x 5 output rows (D x H, every W), 403 a sample") != NULL &&
                  strstr(text, "512 groups x 403 slots") != NULL,
              "main_loop.warp_rows_w40_auto_block", "result %d (%s), main_loop %d: %s", (int)r, p.message,
              (int)p.main_loop, text);
        d.main_loop = FC3D_MAIN_LOOP_WARP_ROWS;
        d.conv.in_size[2] = 32;
        d.ops[1].kind = FC3D_OP_LAYERNORM;
        d.ops[1].norm_dims = 3;
        expect_invalid("main_loop.warp_rows_layernorm", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "LayerNorm");
        /* its storing kernel (154 KB) past sm_86's grant: refused there, taken at sm_80's */
        d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
        d.ops[1].norm_dims = 0;
        d.smem_per_block = FC3D_SMEM_PER_BLOCK_TC;
        expect_invalid("main_loop.warp_rows_smem", &d, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows", "desc.smem_per_block");
        d.smem_per_block = 166912;
        r = fc3d_plan_init(&p, &d);
        check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_WARP_ROWS, "main_loop.warp_rows_smem_sm80",
              "result %d (%s), main_loop %d", (int)r, p.message, (int)p.main_loop);
    }
    fc3d_plan_desc d;
    workload_desc(3, &d);
    d.math = FC3D_MATH_TF32;
    d.engine = FC3D_ENGINE_DIRECT;
    d.main_loop = FC3D_MAIN_LOOP_MMA_SYNC;
    expect_invalid("main_loop.direct_engine", &d, FC3D_ERROR_MAIN_LOOP, "main_loop", "direct engine");
    d.main_loop = FC3D_MAIN_LOOP_AUTO;
    fc3d_plan p;
    const fc3d_result r = fc3d_plan_init(&p, &d);
    check(r == FC3D_SUCCESS && p.main_loop == FC3D_MAIN_LOOP_AUTO, "main_loop.direct_auto", "result %d, main_loop %d",
          (int)r, (int)p.main_loop);
    {   /* small blocks: C_in 32, C_out 24, kernel 3, stride 2, padding 1, x 2 x 32 x 5 x 6 x 7, a ReLU, TF32.
           The block loop's f16 blocks (1 x 3 output rows, 36 a sample) outnumber the tiled loops'
           tiles: AUTO keeps the tiled loops (wgmma where it runs), naming the reason; a forced BLOCK
           takes the small blocks, its statistics slots its blocks. */
        fc3d_plan_desc q;
        memset(&q, 0, sizeof q);
        q.conv.batch = 2;
        q.conv.in_channels = 32;
        q.conv.out_channels = 24;
        const int in[3] = {5, 6, 7};
        for (int i = 0; i < 3; i++) {
            q.conv.in_size[i] = in[i];
            q.conv.kernel[i] = 3;
            q.conv.stride[i] = 2;
            q.conv.padding[i] = 1;
            q.conv.dilation[i] = 1;
        }
        q.conv.groups = 1;
        q.conv.bias = 1;
        q.layout = FC3D_LAYOUT_NCDHW;
        q.dtype = FC3D_DTYPE_F32;
        q.math = FC3D_MATH_TF32;
        q.num_ops = 1;
        q.ops[0].kind = FC3D_OP_RELU;
        fc3d_plan pq;
        char text[4096];
        fc3d_result rq = fc3d_plan_init(&pq, &q);
        fc3d_plan_describe(&pq, text, sizeof text);
        const _fc3d_tc_plan* tq = (const _fc3d_tc_plan*)pq._private.engine_data.bytes;
        check(rq == FC3D_SUCCESS && pq.engine == FC3D_ENGINE_IMPLICIT_GEMM && pq.main_loop == FC3D_MAIN_LOOP_WGMMA &&
                  !tq->bk_ok && strstr(text, "block loop not taken") != NULL,
              "main_loop.block_small_auto", "result %d (%s), main_loop %d: %s", (int)rq, pq.message, (int)pq.main_loop,
              text);
        q.main_loop = FC3D_MAIN_LOOP_BLOCK;
        rq = fc3d_plan_init(&pq, &q);
        fc3d_plan_describe(&pq, text, sizeof text);
        check(rq == FC3D_SUCCESS && pq.main_loop == FC3D_MAIN_LOOP_BLOCK && tq->bk_ok && tq->kp.bk_f16 &&
                  tq->kp.bk_blocks > tq->tiles_per_sample &&
                  strstr(text, "blocks of 1 x 3 output rows (D x H, every W), 36 a sample") != NULL,
              "main_loop.block_small_forced", "result %d (%s), main_loop %d, blocks %lld, tiles %lld: %s", (int)rq,
              pq.message, (int)pq.main_loop, (long long)tq->kp.bk_blocks, (long long)tq->tiles_per_sample, text);
        /* with its statistics: a GroupNorm after the ReLU gathers one slot per block */
        q.num_ops = 2;
        q.ops[1].kind = FC3D_OP_GROUPNORM;
        q.ops[1].groups = 4;
        q.ops[1].eps = 1e-5f;
        q.strategy = FC3D_STRATEGY_MATERIALIZE;
        q.stats_plan = FC3D_STATS_PLAN_PER_OP;
        rq = fc3d_plan_init(&pq, &q);
        fc3d_plan_describe(&pq, text, sizeof text);
        check(rq == FC3D_SUCCESS && pq.main_loop == FC3D_MAIN_LOOP_BLOCK && strstr(text, "8 groups x 216 slots") != NULL,
              "main_loop.block_small_forced_slots", "result %d (%s): %s", (int)rq, pq.message, text);
    }
}

static void test_plan_details(void) {
    fc3d_plan p;
    fc3d_plan_desc d = base_desc();
    char small[16];
    char big[4096];
    fc3d_plan_init(&p, &d);
    const int need = fc3d_plan_describe(&p, big, sizeof big);
    const int need_small = fc3d_plan_describe(&p, small, sizeof small);
    check(need > 0 && need == (int)strlen(big) && need_small == need && strlen(small) == sizeof small - 1,
          "describe.snprintf_contract", "need %d, small %d, strlen %zu", need, need_small, strlen(big));
    const fc3d_op_tensor_sizes* t0 = &p.op_tensors[0];
    check(t0->weight == 32 && t0->bias == 32 && t0->running_mean == 32 && t0->running_var == 32 &&
              t0->save_mean == 0 && t0->save_invstd == 0 && p.op_tensors[1].weight == 0 && p.op_tensors[1].bias == 0 &&
              p.flops > 0,
          "plan.op_tensors", "bn weight %lld running_mean %lld save_mean %lld", (long long)t0->weight,
          (long long)t0->running_mean, (long long)t0->save_mean);
    /* values that are no fc3d_dtype: tests/c_enum_args.c (passing one from C++ is undefined) */
    check(fc3d_dtype_size(FC3D_DTYPE_F32) == 4 && fc3d_dtype_size(FC3D_DTYPE_DEFAULT) == 4 &&
              fc3d_dtype_size(FC3D_DTYPE_F16) == 2 && fc3d_dtype_size(FC3D_DTYPE_BF16) == 2,
          "plan.dtype_size", "%s", "wrong element size");
    /* LayerNorm's tensors hold its normalised shape; over H,W and over W alone (every output row
       its own statistics group) both plan, with a pass that gathers its statistics */
    d.ops[1].kind = FC3D_OP_LAYERNORM;
    d.ops[1].norm_dims = 2;
    d.ops[1].flags = FC3D_OP_AFFINE;
    for (int dims = 2; dims >= 1; dims--) {
        const int64_t shape = dims == 2 ? 63 * 63 : 63;
        int ln_stats = 0;
        d.ops[1].norm_dims = dims;
        const fc3d_result r = fc3d_plan_init(&p, &d);
        for (int i = 0; i < p.num_passes; i++) ln_stats += p.passes[i].stat_op == 1;
        check(r == FC3D_SUCCESS && p.op_tensors[1].weight == shape && p.op_tensors[1].bias == shape && ln_stats == 1 &&
                  p.num_passes == 3 && p.workspace_bytes > 0,
              dims == 2 ? "plan.layernorm_hw" : "plan.layernorm_w", "result %d (%s), weight %lld, %d passes, workspace %zu",
              (int)r, p.message, (long long)p.op_tensors[1].weight, p.num_passes, p.workspace_bytes);
    }
    /* a 16-bit y keeps its intermediate in float32 in the workspace; float32 y keeps it in y: the
       16-bit plan needs at least the N*C*D*H*W*4 bytes of that intermediate more */
    d = base_desc();
    d.strategy = FC3D_STRATEGY_MATERIALIZE;
    fc3d_plan_init(&p, &d);
    const size_t f32_ws = p.workspace_bytes;
    const fc3d_dtype half_types[2] = {FC3D_DTYPE_BF16, FC3D_DTYPE_F16};
    for (int t = 0; t < 2; t++) {
        d.dtype = half_types[t];
        const fc3d_result r = fc3d_plan_init(&p, &d);
        const size_t inter = (size_t)p.desc.conv.batch * (size_t)p.desc.conv.out_channels * (size_t)p.conv_size[0] *
                             (size_t)p.conv_size[1] * (size_t)p.conv_size[2] * 4;
        check(r == FC3D_SUCCESS && f32_ws > 0 && p.workspace_bytes >= f32_ws + inter && p.num_passes > 0 &&
                  p.passes[0].store == FC3D_STORE_INTERMEDIATE && p.passes[p.num_passes - 1].store == FC3D_STORE_Y,
              t == 0 ? "workspace.bf16_intermediate" : "workspace.f16_intermediate",
              "result %d, workspace %zu, f32 workspace %zu, intermediate %zu bytes", (int)r, p.workspace_bytes, f32_ws,
              inter);
    }
    d = base_desc();
    /* a failed init leaves a plan that cannot run and describes itself as invalid */
    d.conv.batch = 0;
    fc3d_plan_init(&p, &d);
    fc3d_plan_describe(&p, big, sizeof big);
    check(strstr(big, "invalid plan") != NULL && strstr(big, "batch") != NULL, "describe.invalid", "%s", big);
    /* the conv alone: one pass; no workspace on the direct engine, the re-laid weight (one float per
       (tap, input channel, output channel padded to the channel tile)) on the implicit-GEMM one */
    d = base_desc();
    d.num_ops = 0;
    d.engine = FC3D_ENGINE_DIRECT;
    check(fc3d_plan_init(&p, &d) == FC3D_SUCCESS && p.num_passes == 1 && p.workspace_bytes == 0 &&
              p.passes[0].stat_op == -1 && p.passes[0].store == FC3D_STORE_Y,
          "plan.conv_alone", "%d passes, workspace %zu", p.num_passes, p.workspace_bytes);
    d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
    check(fc3d_plan_init(&p, &d) == FC3D_SUCCESS && p.engine == FC3D_ENGINE_IMPLICIT_GEMM && p.num_passes == 1 &&
              p.workspace_bytes >= (size_t)27 * 16 * 32 * 4 * 2 && p.passes[0].stat_op == -1,
          "plan.conv_alone_implicit_gemm", "result %d (%s), workspace %zu (3xTF32 keeps two copies)", (int)p.result,
          p.message, p.workspace_bytes);
}

static int ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '[' || c == ']';
}

/* Whether an error message names `field` as a whole word in its detail (after the result's own text,
   which may mention other fields): "y" in "y = 0x..." but not in "bytes". */
static int names_field(const char* text, fc3d_result code, const char* field) {
    const char* detail = text;
    const char* rs = fc3d_result_string(code);
    const size_t n = strlen(rs), fn = strlen(field);
    if (strncmp(text, rs, n) == 0 && text[n] == ':') detail = text + n + 1;
    for (const char* f = strstr(detail, field); f; f = strstr(f + 1, field))
        if ((f == detail || !ident_char(f[-1])) && !ident_char(f[fn])) return 1;
    return 0;
}

/* Run-time argument checks: host sentinel buffers stand in for device memory; every failure must
   be caught before any CUDA call, so these run without a GPU and the sentinels stay untouched. */
static void test_run_args(void) {
    static float x[1024], w[16384], b[64], y[1024], ws[1 << 20], v[6][64];
    fc3d_plan_desc d = base_desc();
    fc3d_plan p, bad, nobias;
    fc3d_message m;
    for (int i = 0; i < 1024; i++) y[i] = -7.0f;
    d.conv.batch = 1; /* small enough for the sentinels: y is 1 x 32 x 3 x 3 x 3 */
    d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 2;
    fc3d_plan_init(&p, &d);
    d.conv.bias = 0;
    fc3d_plan_init(&nobias, &d);
    d.conv.bias = 1;
    d.conv.batch = 0;
    fc3d_plan_init(&bad, &d);
    fc3d_run_args a0;
    memset(&a0, 0, sizeof a0);
    a0.x = x; a0.weight = w; a0.bias = b; a0.y = y;
    a0.ops[0].weight = v[0]; a0.ops[0].bias = v[1]; a0.ops[0].running_mean = v[2]; a0.ops[0].running_var = v[3];
    a0.workspace = ws; a0.workspace_bytes = p.workspace_bytes;
    struct {
        const char* name;
        fc3d_result code;
        const char* field;
    } cases[] = {
        {"x_null", FC3D_ERROR_ARG_X, "x"},
        {"x_misaligned", FC3D_ERROR_ARG_X, "x"},
        {"weight_null", FC3D_ERROR_ARG_WEIGHT, "weight"},
        {"bias_missing", FC3D_ERROR_ARG_BIAS, "bias"},
        {"bias_unwanted", FC3D_ERROR_ARG_BIAS, "bias"},
        {"y_null", FC3D_ERROR_ARG_Y, "y"},
        {"y_alias_x", FC3D_ERROR_ARG_ALIAS, "overlaps"},
        {"running_stat_alias_y", FC3D_ERROR_ARG_ALIAS, "ops[0].running_mean"},
        {"written_stat_alias_read", FC3D_ERROR_ARG_ALIAS, "ops[0].running_var"},
        {"op_tensor_missing", FC3D_ERROR_ARG_OP_TENSOR, "ops[0].running_var"},
        {"op_tensor_unused", FC3D_ERROR_ARG_OP_TENSOR, "ops[1].weight"},
        {"op_tensor_misaligned", FC3D_ERROR_ARG_OP_TENSOR_ALIGNMENT, "ops[0].bias"},
        {"workspace_null", FC3D_ERROR_ARG_WORKSPACE, "workspace"},
        {"workspace_small", FC3D_ERROR_ARG_WORKSPACE_SIZE, "workspace_bytes"},
        /* hostile bindings: tensors past num_ops, misaligned written statistics, ranges that wrap */
        {"op_tensor_past_num_ops", FC3D_ERROR_ARG_OP_TENSOR, "ops[2].weight"},
        {"op_tensor_last_slot", FC3D_ERROR_ARG_OP_TENSOR, "ops[15].running_mean"},
        {"op_tensor_misaligned_written", FC3D_ERROR_ARG_OP_TENSOR_ALIGNMENT, "ops[0].running_var"},
        {"op_tensor_misaligned_by_2", FC3D_ERROR_ARG_OP_TENSOR_ALIGNMENT, "ops[0].weight"},
        {"y_range_wraps", FC3D_ERROR_ARG_RANGE, "y"},
        {"x_range_wraps", FC3D_ERROR_ARG_RANGE, "x"},
        {"op_tensor_range_wraps", FC3D_ERROR_ARG_RANGE, "ops[0].running_mean"},
        {"workspace_range_wraps", FC3D_ERROR_ARG_RANGE, "workspace"},
    };
    static_assert(FC3D_MAX_OPS == 16, "op_tensor_last_slot names ops[15]");
    /* the highest address with room for 64 bytes, aligned for any element type */
    const uintptr_t top = (UINTPTR_MAX - 63) & ~(uintptr_t)63;
    const int n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        fc3d_run_args a = a0;
        fc3d_plan q = p;
        switch (i) {
        case 0: a.x = NULL; break;
        case 1: a.x = (const char*)x + 2; break;
        case 2: a.weight = NULL; break;
        case 3: a.bias = NULL; break;
        case 4: q = nobias; break;
        case 5: a.y = NULL; break;
        case 6: a.y = (void*)x; break;
        case 7: a.ops[0].running_mean = y + 8; break;
        case 8: a.ops[0].running_var = (float*)a.ops[0].weight; break; /* updated in place while read */
        case 9: a.ops[0].running_var = NULL; break;
        case 10: a.ops[1].weight = v[4]; break;
        case 11: a.ops[0].bias = (const float*)((const char*)v[1] + 1); break;
        case 12: a.workspace = NULL; break;
        case 13: a.workspace_bytes = p.workspace_bytes - 1; break;
        case 14: a.ops[p.desc.num_ops].weight = v[4]; break;
        case 15: a.ops[FC3D_MAX_OPS - 1].running_mean = v[4]; break;
        case 16: a.ops[0].running_var = (float*)((char*)v[3] + 1); break;
        case 17: a.ops[0].weight = (const float*)((const char*)v[0] + 2); break;
        case 18: a.y = (void*)top; break;
        case 19: a.x = (const void*)top; break;
        case 20: a.ops[0].running_mean = (float*)top; break;
        case 21: a.workspace = (void*)top; a.workspace_bytes = p.workspace_bytes; break;
        }
        char name[96];
        snprintf(name, sizeof name, "run_args.%s", cases[i].name);
        const fc3d_result r = fc3d_plan_run(&q, &a, &m);
        saw(cases[i].code, r);
        check(r == cases[i].code && names_field(m.text, cases[i].code, cases[i].field) && y[0] == -7.0f &&
                  y[1023] == -7.0f,
              name,
              "got %d, want %d; message \"%s\" should name \"%s\"", (int)r, (int)cases[i].code, m.text,
              cases[i].field);
    }
    check(p.y_elements <= 1024 && p.x_elements <= 1024 && p.weight_elements <= 16384 &&
              p.workspace_bytes <= sizeof ws && p.workspace_bytes > 64 && p.x_elements * 4 > 64 &&
              p.y_elements * 4 > 64 && p.op_tensors[0].running_mean * 4 > 64 && nobias.result == FC3D_SUCCESS,
          "run_args.sentinels_fit", "y %lld x %lld w %lld ws %zu",
          (long long)p.y_elements, (long long)p.x_elements, (long long)p.weight_elements, p.workspace_bytes);
    {
        /* a plan whose public fields were changed after fc3d_plan_init (or that never came from it) is
           refused before anything is read through them: no crash, nothing written */
        static const char* const edit[] = {
            "dtype_77", "num_ops_99", "num_ops_negative", "num_ops_grown", "num_passes_1000", "num_passes_negative",
            "op_kind_1000", "op_kind_changed", "batch_grown", "out_channels_grown", "pass_op_end", "pass_stat_op",
            "zeroed", "failed_marked_success",
        };
        const int n_edit = (int)(sizeof edit / sizeof edit[0]);
        for (int e = 0; e < n_edit; e++) {
            fc3d_plan q = p;
            char name[96];
            switch (e) {
            case 0: SET_INT(q.desc.dtype, 77); break;
            case 1: q.desc.num_ops = 99; break;
            case 2: q.desc.num_ops = -1; break;
            case 3: q.desc.num_ops = 3; break;
            case 4: q.num_passes = 1000; break;
            case 5: q.num_passes = -1; break;
            case 6: SET_INT(q.desc.ops[0].kind, 1000); break;
            case 7: q.desc.ops[1].kind = FC3D_OP_GLOBAL_AVG_POOL; break;
            case 8: q.desc.conv.batch = 4; break;
            case 9: q.desc.conv.out_channels = 64; break;
            case 10: q.passes[0].op_end = FC3D_MAX_OPS; break;
            case 11: q.passes[q.num_passes - 1].stat_op = FC3D_MAX_OPS + 3; break;
            case 12: memset(&q, 0, sizeof q); break; /* result 0 is FC3D_SUCCESS, but nothing was planned */
            case 13: q = bad; q.result = FC3D_SUCCESS; break;
            }
            snprintf(name, sizeof name, "plan_edited.%s", edit[e]);
            m.text[0] = 0;
            const fc3d_result r = fc3d_plan_run(&q, &a0, &m);
            saw(FC3D_ERROR_PLAN_INVALID, r);
            check(r == FC3D_ERROR_PLAN_INVALID && strstr(m.text, "fc3d_plan") != NULL && y[0] == -7.0f &&
                      y[1023] == -7.0f,
                  name, "got %d, want %d (FC3D_ERROR_PLAN_INVALID): \"%s\"", (int)r, (int)FC3D_ERROR_PLAN_INVALID,
                  m.text);
        }
    }
    {
        /* what may share memory: read-only tensors with each other, and y with workspace bytes the
           run does not use (the arguments check alone; nothing launches) */
        fc3d_plan_desc dn = d;
        fc3d_plan pn;
        fc3d_run_args a = a0;
        char text[FC3D_MESSAGE_LEN] = "";
        dn.conv.batch = 1;
        dn.num_ops = 0;
        dn.engine = FC3D_ENGINE_DIRECT; /* the engine that needs no workspace here */
        fc3d_plan_init(&pn, &dn);
        memset(a.ops, 0, sizeof a.ops);
        a.workspace = y; /* an arena that holds y */
        a.workspace_bytes = sizeof y;
        const fc3d_result r1 = _fc3d_check_args(&pn, &a, text);
        a = a0;
        a.ops[0].bias = a.ops[0].weight; /* gamma and beta from one buffer: both only read */
        const fc3d_result r2 = _fc3d_check_args(&p, &a, text);
        check(pn.workspace_bytes == 0 && r1 == FC3D_SUCCESS && r2 == FC3D_SUCCESS, "run_args.alias_allowed",
              "unused workspace holding y: %d; shared read-only tensors: %d (%s)", (int)r1, (int)r2, text);
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        /* valid arguments and no GPU: the one CUDA call made before any launch reports it */
        const fc3d_result r = fc3d_plan_run(&p, &a0, &m);
        saw(FC3D_ERROR_CUDA, r);
        check(r == FC3D_ERROR_CUDA && strstr(m.text, "cudaGetDevice") != NULL && y[0] == -7.0f, "run_args.no_device",
              "got %d: %s", (int)r, m.text);
    } else {
        printf("# run_args.no_device not applicable: a GPU is present (the GPU tests run real launches)\n");
    }
    const fc3d_result invalid = fc3d_plan_run(&bad, &a0, &m);
    saw(FC3D_ERROR_PLAN_INVALID, invalid);
    check(invalid == FC3D_ERROR_PLAN_INVALID && strstr(m.text, "fc3d_plan"),
          "run_args.plan_invalid", "%s", m.text);
    check(fc3d_plan_run(NULL, &a0, &m) == FC3D_ERROR_NULL_ARGUMENT && fc3d_plan_run(&p, NULL, NULL) ==
              FC3D_ERROR_NULL_ARGUMENT,
          "run_args.null", "%s", m.text);
}

/* Each error code of the result list has a test that provoked it. FC3D_ERROR_CUDA is provoked
   here only without a GPU (a valid run on host sentinels); on a GPU machine it is exempt. */
static void test_every_code_tested(void) {
    int devices = 0;
    const int gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
    char missing[512] = "";
#define X_(name, value, text)                                                                       \
    if ((value) < 0 && !tested_codes[-(value)] && !((value) == FC3D_ERROR_CUDA && gpu))              \
        snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", #name);
    FC3D_RESULT_LIST(X_)
#undef X_
    check(missing[0] == 0, "results.every_error_tested", "no test provokes:%s", missing);
}

/* The prep step's division by a divisor fixed per launch (_fc3d_udiv: numerators under 2^31)
   against the hardware's: divisors 1 to 4100 and around every power of two up to 2^31 - 1, each
   at numerators 0, around every multiple of it near 0, near 2^31 - 1 and at random. */
static void test_udiv(void) {
    std::vector<int64_t> ds;
    for (int64_t d = 1; d <= 4100; d++) ds.push_back(d);
    for (int b = 12; b <= 31; b++)
        for (int64_t e = -3; e <= 3; e++) {
            const int64_t d = ((int64_t)1 << b) + e;
            if (d >= 1 && d < ((int64_t)1 << 31)) ds.push_back(d);
        }
    uint64_t h = 0x9e3779b97f4a7c15ull;
    long bad = 0, tried = 0;
    char first[160] = "";
    for (size_t k = 0; k < ds.size(); k++) {
        const int64_t d = ds[k];
        const _fc3d_udiv v = _fc3d_udiv_of(d);
        int64_t ns[48];
        int c = 0;
        ns[c++] = 0;
        ns[c++] = ((int64_t)1 << 31) - 1;
        for (int64_t j = 1; j <= 3; j++)
            for (int64_t e = -1; e <= 1; e++) {
                ns[c++] = j * d + e;
                ns[c++] = (((int64_t)1 << 31) - 1) / d * d - (j - 1) * d + e;
            }
        while (c < 48) {
            h ^= h << 13; h ^= h >> 7; h ^= h << 17;
            ns[c++] = (int64_t)(h & 0x7fffffffu);
        }
        for (int i = 0; i < c; i++) {
            const int64_t n = ns[i];
            if (n < 0 || n >= ((int64_t)1 << 31)) continue;
            tried++;
            const unsigned q = _fc3d_udiv_q((unsigned)n, v);
            if ((int64_t)q != n / d) {
                if (!bad++) snprintf(first, sizeof first, "%lld / %lld = %u, not %lld", (long long)n, (long long)d, q, (long long)(n / d));
            }
        }
    }
    check(bad == 0 && tried > 200000, "udiv.exact", "%ld of %ld quotients wrong (first: %s)", bad, tried, first);
}

int main(void) {
    test_udiv();
    test_validation();
    test_enum_ranges();
    test_defaults_and_strings();
    test_workload_plans();
    test_rows_store();
    test_strategies();
    test_rowprog_estimate();
    test_haloed_serial_estimate();
    test_main_loops();
    test_haloed_short_k();
    test_smem_per_block();
    test_plan_details();
    test_run_args();
    test_moments_tail_plans();
    test_every_code_tested();
    return check_summary();
}
