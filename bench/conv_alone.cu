// conv_alone.cu - the convolution alone (a plan with no ops) per math mode, timed, and checked
// against the direct engine. No PyTorch needed: the quick loop for work on the implicit-GEMM engine.
//
// Build: make build/conv_alone   (or: nvcc -std=c++17 -O2 -I. -arch=sm_90 bench/conv_alone.cu -o build/conv_alone)
// Run:   build/conv_alone [RUNS [IDS [MATHS [CHECK]]]]
//          RUNS   timed runs, median reported (default 20)
//          IDS    comma-separated: L2/15,L2/77,L2/34,L2/61,L1/77 (PROBLEMS.md full sizes, NCDHW, f32)
//                 and S1..S9 (small odd-sized cases, both layouts; S7..S9 within the block loop's
//                 channel limits; default: the five workloads)
//          MATHS  comma-separated: tf32,fp32,half (default all three)
//          CHECK  1 (default): compare each output with the direct engine's FP32 output (relative L2)
//          LBLOCKS comma-separated levels per block of the implicit-GEMM tile order to time in turn
//                 (the plan's _FC3D_TC_LBLOCK overridden; a huge number = class by class); default:
//                 the library's own
//          LOOPS  comma-separated main loops to time in turn: auto,mma_sync,wgmma,halo,block,warp_rows (default auto;
//                 a loop the plan refuses is reported and skipped)
// Timing: ex_time_ms of examples/example_common.h (CUDA events around fc3d_plan_run alone, a 256 MiB
// buffer written before every timed run, median), after one warm-up run. TFLOP/s = plan.flops /
// time. Inputs are uniform [-1, 1) from a hash of the index (with CA_FILL=torch in the environment,
// as the PyTorch module's: x in [0, 1), the weight and bias within +-1 / sqrt(C_out k^3), PyTorch's
// default init); outputs are poisoned with NaN bytes before the checked run.
// Prints one line per (workload, math, loop): id, layout, math, the main loop that ran, median ms,
// TFLOP/s, rel-L2 against direct.
#include "examples/example_common.h" /* both implementations, CUDA_OK, ex_conv, ex_run, ex_time_ms, ... */

struct ca_case {
    const char* id;
    int n, cin, cout, d, h, w, k, s, p, dil, bias;
    fc3d_layout layout;
};
static const ca_case ca_cases[] = {
    {"L2/15", 16, 16, 32, 16, 32, 32, 3, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/77", 16, 64, 128, 16, 32, 32, 5, 1, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/34", 32, 32, 64, 16, 32, 32, 4, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/61", 16, 64, 128, 32, 32, 32, 3, 1, 0, 1, 0, FC3D_LAYOUT_NCDHW},
    {"L1/77", 16, 32, 64, 16, 32, 32, 3, 2, 1, 2, 0, FC3D_LAYOUT_NCDHW},
    {"S1", 2, 24, 40, 5, 9, 11, 3, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S2", 2, 24, 40, 5, 9, 11, 3, 2, 1, 1, 1, FC3D_LAYOUT_NDHWC},
    {"S3", 2, 72, 136, 4, 7, 9, 4, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S4", 2, 72, 136, 4, 7, 9, 4, 2, 1, 1, 1, FC3D_LAYOUT_NDHWC},
    {"S5", 3, 40, 20, 6, 5, 7, 3, 1, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S6", 3, 40, 20, 6, 5, 7, 3, 1, 0, 1, 1, FC3D_LAYOUT_NDHWC},
    {"S7", 2, 8, 24, 5, 9, 11, 3, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S8", 3, 32, 16, 4, 7, 10, 2, 3, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S9", 2, 16, 40, 6, 5, 13, 3, 1, 2, 2, 0, FC3D_LAYOUT_NCDHW},
};

static __global__ void ca_fill(float* p, size_t n, uint32_t seed, float lo = -1.f, float hi = 1.f) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t z = (uint32_t)i * 2654435761u ^ seed;
        z ^= z >> 15; z *= 2246822519u; z ^= z >> 13; z *= 3266489917u; z ^= z >> 16;
        p[i] = lo + (float)(z >> 8) * (1.0f / 16777216.0f) * (hi - lo);
    }
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    const char* ids = argc > 2 ? argv[2] : "L2/15,L2/77,L2/34,L2/61,L1/77";
    const char* maths = argc > 3 ? argv[3] : "tf32,fp32,half";
    const int check = argc > 4 ? atoi(argv[4]) : 1;
    std::vector<int> lblocks;
    for (const char* q = argc > 5 ? argv[5] : ""; *q;) {
        char* end = nullptr;
        const long v = strtol(q, &end, 10);
        if (end == q || v < 1 || v > 1 << 30 || (*end && *end != ',')) {
            fprintf(stderr, "%s: bad LBLOCKS '%s' (positive integers, comma-separated)\n", argv[0], argv[5]);
            return 2;
        }
        lblocks.push_back((int)v);
        q = *end ? end + 1 : end;
    }
    if (lblocks.empty()) lblocks.push_back(0); /* 0: as planned */
    if (runs < 1) {
        fprintf(stderr, "usage: %s [RUNS [IDS [MATHS [CHECK [LBLOCKS [LOOPS]]]]]]\n", argv[0]);
        return 2;
    }
    static const fc3d_math math_modes[3] = {FC3D_MATH_TF32, FC3D_MATH_FP32, FC3D_MATH_HALF};
    static const char* const loop_names[6] = {"auto", "mma_sync", "wgmma", "halo", "block", "warp_rows"};
    const char* loops = argc > 6 ? argv[6] : "auto";
    const char* fill_env = getenv("CA_FILL");
    const bool torch_fill = fill_env && !strcmp(fill_env, "torch");
    int status = 0;
    void* ws = nullptr; /* the workspace of the plan being timed */
    for (const ca_case& c : ca_cases) {
        if (!ex_listed(ids, c.id)) continue;
        fc3d_plan_desc d;
        memset(&d, 0, sizeof d);
        d.conv = ex_conv(c.n, c.cin, c.cout, c.d, c.h, c.w, c.k, c.s, c.p, c.dil, c.bias);
        d.layout = c.layout;
        d.engine = FC3D_ENGINE_DIRECT;
        d.math = FC3D_MATH_FP32;
        const fc3d_plan ref = ex_plan(d);
        const size_t nx = (size_t)c.n * c.cin * c.d * c.h * c.w, nw = (size_t)c.cin * c.cout * c.k * c.k * c.k;
        const size_t ny = (size_t)ref.y_elements;
        float *x = nullptr, *w = nullptr, *b = nullptr, *y = nullptr, *yr = nullptr;
        CUDA_OK(cudaMalloc(&x, nx * 4)); CUDA_OK(cudaMalloc(&w, nw * 4)); CUDA_OK(cudaMalloc(&b, c.cout * 4));
        CUDA_OK(cudaMalloc(&y, ny * 4)); CUDA_OK(cudaMalloc(&yr, ny * 4));
        if (torch_fill) { /* as the PyTorch module's: torch.rand x, the default init's bound 1 / sqrt(C_out k^3) */
            const float bw = (float)(1.0 / sqrt((double)c.cout * c.k * c.k * c.k));
            ca_fill<<<1024, 256>>>(x, nx, 1, 0.f, 1.f);
            ca_fill<<<1024, 256>>>(w, nw, 2, -bw, bw);
            ca_fill<<<1, 256>>>(b, c.cout, 3, -bw, bw);
        } else {
            ca_fill<<<1024, 256>>>(x, nx, 1);
            ca_fill<<<1024, 256>>>(w, nw, 2);
            ca_fill<<<1, 256>>>(b, c.cout, 3);
        }
        CUDA_OK(cudaGetLastError());
        fc3d_run_args a;
        memset(&a, 0, sizeof a);
        a.x = x; a.weight = w; a.bias = c.bias ? b : nullptr;
        std::vector<double> hr;
        if (check) {
            a.y = yr;
            ex_run(ref, a);
            hr = ex_download(yr, ny);
        }
        for (int mi = 0; mi < 3; ++mi) {
            const char* mname = ex_math_name(math_modes[mi]);
            if (!ex_listed(maths, mname)) continue;
            for (int li = 0; li < 6; ++li) {
                if (!ex_listed(loops, loop_names[li])) continue;
                d.engine = FC3D_ENGINE_IMPLICIT_GEMM;
                d.math = math_modes[mi];
                d.main_loop = (fc3d_main_loop)li;
                fc3d_plan planned;
                if (fc3d_plan_init(&planned, &d) != FC3D_SUCCESS) {
                    printf("%-6s %s %-5s %s: refused: %s\n", c.id, c.layout == FC3D_LAYOUT_NCDHW ? "ncdhw" : "ndhwc", mname,
                           loop_names[li], planned.message);
                    continue;
                }
                CUDA_OK(cudaFree(ws));
                ws = nullptr;
                if (planned.workspace_bytes) CUDA_OK(cudaMalloc(&ws, planned.workspace_bytes));
                a.y = y; a.workspace = ws; a.workspace_bytes = planned.workspace_bytes;
                for (int lb : lblocks) {
                    fc3d_plan p = planned;
                    if (lb > 0) ((_fc3d_tc_plan*)p._private.engine_data.bytes)->kp.lblock = lb;
                    CUDA_OK(cudaMemset(y, 0xff, ny * 4)); /* NaN */
                    ex_run(p, a); /* also the warm-up of the timed runs */
                    double err = -1.0;
                    if (check) {
                        err = ex_rel_l2(ex_download(y, ny), hr);
                        const double bound = math_modes[mi] == FC3D_MATH_FP32 ? 1e-5 : 2e-3; /* 3xTF32; TF32/HALF operands */
                        if (!(err <= bound)) status = 1;
                    }
                    const double med = ex_time_ms(p, a, runs);
                    char lbs[32] = "";
                    if (lb > 0) snprintf(lbs, sizeof lbs, " lblock %d", lb);
                    const int ran = fc3d_plan_main_loop(&p);
                    printf("%-6s %s %-5s %-8s%s %8.3f ms %7.1f TFLOP/s  rel-L2 vs direct %s%.2e\n", c.id,
                           c.layout == FC3D_LAYOUT_NCDHW ? "ncdhw" : "ndhwc", mname,
                           ran >= 0 && ran < 6 ? loop_names[ran] : "?", lbs, med, p.flops / med / 1e9,
                           check ? "" : "(unchecked) ", err);
                }
            }
        }
        CUDA_OK(cudaFree(x)); CUDA_OK(cudaFree(w)); CUDA_OK(cudaFree(b));
        CUDA_OK(cudaFree(y)); CUDA_OK(cudaFree(yr));
    }
    CUDA_OK(cudaFree(ws));
    if (status) fprintf(stderr, "a checked output exceeded its bound (fp32 1e-5, tf32/half 2e-3)\n");
    return status;
}
