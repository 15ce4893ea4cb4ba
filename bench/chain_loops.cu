// chain_loops.cu - L2/34's chain (conv -> LayerNorm over W -> GELU -> x 1.0) on each main loop of
// the implicit-GEMM engine, timed, and checked against the direct engine. No PyTorch needed: the
// quick loop for work on whole-row tiles (the tiled loops' and the haloed loop's).
//
// Build: nvcc -std=c++17 -O2 -I. -gencode arch=compute_90a,code=sm_90a bench/chain_loops.cu -o build/chain_loops
// Run:   build/chain_loops [RUNS [N [MATHS [LAYOUTS [LOOPS [EXTRA]]]]]]
//          RUNS    timed runs, median reported (default 20)
//          N       batch (default 32, the workload's)
//          MATHS   comma-separated: tf32,half,fp32 (default tf32,half)
//          LAYOUTS comma-separated: ncdhw,ndhwc (default ncdhw)
//          LOOPS   comma-separated: auto,mma_sync,wgmma,halo (default auto,wgmma; a loop the plan
//                  refuses is reported and skipped)
//          EXTRA   0 (default): the workload's chain; 1: a training BatchNorm appended (a second
//                  pass, with statistics partials from the row epilogue); to take the row epilogue
//                  apart: 2 the LayerNorm alone, 3 the LayerNorm and the scale (no GELU), 4 the
//                  LayerNorm and the GELU (no scale), 5 the LayerNorm without its affine; 6 the
//                  convolution alone (no ops)
// Timing: ex_time_ms of examples/example_common.h (CUDA events around fc3d_plan_run, a 256 MiB
// buffer written before every timed run, median), after one warm-up run. Inputs: ex_fill (x uniform
// [0, 1), PyTorch's default init for the weights). The direct engine's FP32 output is the reference;
// y is poisoned with NaN bytes before each checked run.
// Prints one line per (math, layout, loop): the main loop that ran, passes, median ms, rel-L2.
#include "examples/example_common.h" /* both implementations, CUDA_OK, ex_conv, ex_fill, ex_time_ms, ... */

static fc3d_plan_desc cl_desc(int n, fc3d_layout layout, int extra) {
    fc3d_plan_desc d;
    memset(&d, 0, sizeof d);
    d.conv = ex_conv(n, 32, 64, 16, 32, 32, 4, 2, 1, 1, 1);
    d.layout = layout;
    ex_ops_l2_34(&d);
    if (extra == 2 || extra == 5) d.num_ops = 1;
    if (extra == 5) d.ops[0].flags = 0;
    if (extra == 3) {
        d.ops[1] = d.ops[2];
        d.num_ops = 2;
    }
    if (extra == 4) d.num_ops = 2;
    if (extra == 6) d.num_ops = 0;
    if (extra == 1) {
        d.ops[3].kind = FC3D_OP_BATCHNORM_TRAIN;
        d.ops[3].flags = FC3D_OP_AFFINE;
        d.ops[3].eps = 1e-5f;
        d.num_ops = 4;
    }
    return d;
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    const int n = argc > 2 ? atoi(argv[2]) : 32;
    const char* maths = argc > 3 ? argv[3] : "tf32,half";
    const char* layouts = argc > 4 ? argv[4] : "ncdhw";
    const char* loops = argc > 5 ? argv[5] : "auto,wgmma";
    const int extra = argc > 6 ? atoi(argv[6]) : 0;
    if (runs < 1 || n < 1) {
        fprintf(stderr, "usage: %s [RUNS [N [MATHS [LAYOUTS [LOOPS [EXTRA]]]]]]\n", argv[0]);
        return 2;
    }
    static const char* const loop_names[4] = {"auto", "mma_sync", "wgmma", "halo"};
    static const fc3d_math math_modes[3] = {FC3D_MATH_TF32, FC3D_MATH_HALF, FC3D_MATH_FP32};
    static const char* const math_names[3] = {"tf32", "half", "fp32"};
    for (int li = 0; li < 2; li++) {
        const fc3d_layout layout = li ? FC3D_LAYOUT_NDHWC : FC3D_LAYOUT_NCDHW;
        if (!ex_listed(layouts, li ? "ndhwc" : "ncdhw")) continue;
        /* the reference: the direct engine, FP32 math */
        fc3d_plan_desc rd = cl_desc(n, layout, extra);
        rd.engine = FC3D_ENGINE_DIRECT;
        const fc3d_plan rp = ex_plan(rd);
        ex_host h;
        ex_fill(rp, 7, &h);
        void *x = ex_to_device<void>(h.x), *w = ex_to_device<void>(h.w), *b = ex_to_device<void>(h.b), *y = nullptr;
        float* opt[FC3D_MAX_OPS][EX_T_COUNT] = {};
        for (int i = 0; i < rp.desc.num_ops; i++)
            for (int t = 0; t < EX_T_COUNT; t++) opt[i][t] = ex_to_device<float>(h.op[i][t]);
        CUDA_OK(cudaMalloc(&y, (size_t)rp.y_elements * 4));
        auto args = [&](const fc3d_plan& p, void* ws) {
            fc3d_run_args a;
            memset(&a, 0, sizeof a);
            a.x = x; a.weight = w; a.bias = b; a.y = y;
            for (int i = 0; i < p.desc.num_ops; i++) {
                a.ops[i].weight = opt[i][EX_T_WEIGHT];
                a.ops[i].bias = opt[i][EX_T_BIAS];
                a.ops[i].running_mean = opt[i][EX_T_RMEAN];
                a.ops[i].running_var = opt[i][EX_T_RVAR];
                a.ops[i].save_mean = opt[i][EX_T_SMEAN];
                a.ops[i].save_invstd = opt[i][EX_T_SINVSTD];
            }
            a.workspace = ws;
            a.workspace_bytes = p.workspace_bytes;
            return a;
        };
        void* rws = nullptr;
        if (rp.workspace_bytes) CUDA_OK(cudaMalloc(&rws, rp.workspace_bytes));
        ex_run(rp, args(rp, rws));
        CUDA_OK(cudaDeviceSynchronize());
        const std::vector<double> ref = ex_download(y, (size_t)rp.y_elements);
        CUDA_OK(cudaFree(rws));
        for (int mi = 0; mi < 3; mi++) {
            if (!ex_listed(maths, math_names[mi])) continue;
            for (int l = 0; l < 4; l++) {
                if (!ex_listed(loops, loop_names[l])) continue;
                fc3d_plan_desc d = cl_desc(n, layout, extra);
                d.math = math_modes[mi];
                d.main_loop = (fc3d_main_loop)l;
                fc3d_plan p;
                if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS) {
                    printf("L2/34 n%d %s %s %s: refused: %s\n", n, li ? "ndhwc" : "ncdhw", math_names[mi], loop_names[l],
                           p.message);
                    continue;
                }
                void* ws = nullptr;
                if (p.workspace_bytes) CUDA_OK(cudaMalloc(&ws, p.workspace_bytes));
                const fc3d_run_args a = args(p, ws);
                CUDA_OK(cudaMemset(y, 0xff, (size_t)p.y_elements * 4));
                ex_run(p, a);
                CUDA_OK(cudaDeviceSynchronize());
                const double err = ex_rel_l2(ex_download(y, (size_t)p.y_elements), ref);
                const double ms = ex_time_ms(p, a, runs);
                const int ran = fc3d_plan_main_loop(&p);
                printf("L2/34 n%d %s %s %-8s ran %-8s passes %d: %.3f ms, %.1f useful TFLOP/s, rel-L2 %.2e\n", n,
                       li ? "ndhwc" : "ncdhw", math_names[mi], loop_names[l],
                       ran >= 0 && ran < 4 ? loop_names[ran] : "?", p.num_passes, ms, p.flops / ms * 1e-9, err);
                fflush(stdout);
                CUDA_OK(cudaFree(ws));
            }
        }
        CUDA_OK(cudaFree(x)); CUDA_OK(cudaFree(w)); CUDA_OK(cudaFree(b)); CUDA_OK(cudaFree(y));
        for (auto& op : opt)
            for (float* t : op) CUDA_OK(cudaFree(t));
    }
    return 0;
}
