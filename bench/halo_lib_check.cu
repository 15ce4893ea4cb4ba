// halo_lib_check.cu - the library's haloed-loop kernels (_fc3d_hx_*, FC3D_MAIN_LOOP_HALO) launched directly,
// around the planner, on the five workloads and small cases, checked against the library's FP32 output and timed
// beside its implicit_gemm AUTO plan (which takes the same loop where the planner allows it). Args: RUNS [ID].
// sm_90a: nvcc -std=c++17 -O2 -I. -Iexamples -gencode arch=compute_90a,code=sm_90a bench/halo_lib_check.cu -o build/halo_lib_check
#include "examples/example_common.h"
#include <chrono>
struct cs { const char* id; int n, cin, cout, d, h, w, k, s, p, dil, bias; fc3d_layout lay; };
static const cs cases[] = {
    {"L2/77", 16, 64, 128, 16, 32, 32, 5, 1, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/34", 32, 32, 64, 16, 32, 32, 4, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"L2/61", 16, 64, 128, 32, 32, 32, 3, 1, 0, 1, 0, FC3D_LAYOUT_NCDHW},
    {"L1/77", 16, 32, 64, 16, 32, 32, 3, 2, 1, 2, 0, FC3D_LAYOUT_NCDHW},
    {"S3", 2, 64, 136, 4, 7, 9, 4, 2, 1, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S4", 2, 64, 136, 4, 7, 9, 4, 2, 1, 1, 1, FC3D_LAYOUT_NDHWC},
    {"S5", 3, 32, 20, 6, 5, 7, 3, 1, 0, 1, 1, FC3D_LAYOUT_NCDHW},
    {"S6", 3, 32, 20, 6, 5, 7, 3, 1, 0, 1, 1, FC3D_LAYOUT_NDHWC},
};
static __global__ void fillk(float* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t z = (uint32_t)i * 2654435761u ^ seed;
        z ^= z >> 15; z *= 2246822519u; z ^= z >> 13; z *= 3266489917u; z ^= z >> 16;
        p[i] = (float)(z >> 8) * (1.0f / 16777216.0f) * 2.f - 1.f;
    }
}
template <int MATH, int BN, int KC>
static void one(const cs& c, const _fc3d_tc_kparams& kp0, const float* x, const float* w, const float* b, float* y,
                const std::vector<double>& ref, size_t ny, int runs, double lib_ms) {
    typedef _fc3d_hx_cfg<MATH, BN, KC> C;
    _fc3d_tc_kparams P = kp0;
    double macs = 0.0;
    if (!_fc3d_hx_plan(&P, MATH, BN, &macs, 0, 0, 0) || P.hx_kc != KC) { printf("%s: refused (ok %d kc %d)\n", c.id, P.hx_ok, P.hx_kc); return; }
    P.store = 1; P.stats = 0; P.out_f32 = 0;
    P.hx_t32 = 0; /* (each math's own operands: no scales) */
    P.ntn = (int)((P.cout_g + BN - 1) / BN);
    P.hx_parts = P.hx_tiles;
    const size_t smem = _fc3d_hx_smem(P, MATH, KC, BN, 0);
    auto kern = _fc3d_hx_main<float, MATH, BN, KC, false, _fc3d_tc_epi>;
    CUDA_OK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    const size_t xpb = (size_t)P.n * (P.cin / C::KG) * P.hx_ps * 16;
    const size_t wpb = (size_t)P.groups * P.ntn * (P.cin_g / KC) * P.k[0] * P.k[1] * P.k[2] * C::PIECE;
    void *xp, *wp;
    CUDA_OK(cudaMalloc(&xp, xpb)); CUDA_OK(cudaMalloc(&wp, wpb));
    _fc3d_tc_epi e;
    memset(&e, 0, sizeof e);
    dim3 grid((unsigned)P.hx_tiles, P.ntn * P.groups, (unsigned)P.n);
    auto launch = [&]() {
        /* the weight pieces (512 blocks) and the copy of x, no tile table (TF32 and half: no scales) */
        _fc3d_hx_prep<float, MATH, BN, KC><<<512 + 2048, 256>>>(P, x, w, xp, wp, nullptr, nullptr, 0u, 512u);
        kern<<<grid, C::NT, smem>>>(P, xp, wp, b, y, e);
    };
    CUDA_OK(cudaMemset(y, 0xff, ny * 4));
    launch();
    CUDA_OK(cudaGetLastError());
    const auto t0 = std::chrono::steady_clock::now();
    while (cudaStreamQuery(0) == cudaErrorNotReady)
        if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(8)) { printf("%s: no completion\n", c.id); exit(3); }
    CUDA_OK(cudaDeviceSynchronize());
    const double err = ex_rel_l2(ex_download(y, ny), ref);
    void* scratch; CUDA_OK(cudaMalloc(&scratch, EX_FLUSH_BYTES));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<double> tt;
    for (int i = 0; i < runs; ++i) {
        CUDA_OK(cudaMemsetAsync(scratch, i & 0xff, EX_FLUSH_BYTES));
        cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float a = 0; cudaEventElapsedTime(&a, e0, e1); tt.push_back(a);
    }
    std::vector<double> tm;
    for (int i = 0; i < runs; ++i) { /* the main kernel alone (x and weight copies already made) */
        CUDA_OK(cudaMemsetAsync(scratch, i & 0xff, EX_FLUSH_BYTES));
        cudaEventRecord(e0); kern<<<grid, C::NT, smem>>>(P, xp, wp, b, y, e); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float a = 0; cudaEventElapsedTime(&a, e0, e1); tm.push_back(a);
    }
    std::sort(tm.begin(), tm.end());
    std::sort(tt.begin(), tt.end());
    printf("%-6s %s %s BN%d KC%d smem %zu tiles %lld: %.3f ms (main %.3f) | lib %.3f | rel-L2 %.2e %s\n", c.id,
           c.lay == FC3D_LAYOUT_NCDHW ? "ncdhw" : "ndhwc", MATH == _FC3D_TC_HALF ? "half" : "tf32", BN, KC, smem,
           (long long)P.hx_tiles, tt[runs / 2], tm[runs / 2], lib_ms, err, err < 2e-3 ? "ok" : "FAIL");
    cudaFree(scratch); cudaFree(xp); cudaFree(wp);
}
int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    const int runs = argc > 1 ? atoi(argv[1]) : 10;
    const char* only = argc > 2 ? argv[2] : nullptr; /* one case id */
    for (const cs& c : cases) {
        if (only && strcmp(only, c.id)) continue;
        fc3d_plan_desc d; memset(&d, 0, sizeof d);
        d.conv = ex_conv(c.n, c.cin, c.cout, c.d, c.h, c.w, c.k, c.s, c.p, c.dil, c.bias);
        d.layout = c.lay; d.engine = FC3D_ENGINE_IMPLICIT_GEMM; d.math = FC3D_MATH_FP32;
        const fc3d_plan ref = ex_plan(d);
        d.math = FC3D_MATH_TF32; const fc3d_plan lt = ex_plan(d);
        d.math = FC3D_MATH_HALF; const fc3d_plan lh = ex_plan(d);
        const size_t nx = (size_t)c.n * c.cin * c.d * c.h * c.w, nw = (size_t)c.cin * c.cout * c.k * c.k * c.k, ny = ref.y_elements;
        float *x, *w, *b, *y; void* ws = nullptr;
        const size_t wsb = std::max(std::max(ref.workspace_bytes, lt.workspace_bytes), lh.workspace_bytes);
        CUDA_OK(cudaMalloc(&x, nx * 4)); CUDA_OK(cudaMalloc(&w, nw * 4)); CUDA_OK(cudaMalloc(&b, c.cout * 4)); CUDA_OK(cudaMalloc(&y, ny * 4));
        if (wsb) CUDA_OK(cudaMalloc(&ws, wsb));
        fillk<<<1024, 256>>>(x, nx, 1); fillk<<<1024, 256>>>(w, nw, 2); fillk<<<1, 256>>>(b, c.cout, 3);
        fc3d_run_args a; memset(&a, 0, sizeof a);
        a.x = x; a.weight = w; a.bias = c.bias ? b : nullptr; a.y = y; a.workspace = ws; a.workspace_bytes = wsb;
        ex_run(ref, a);
        const std::vector<double> hr = ex_download(y, ny);
        const double tl = ex_time_ms(lt, a, runs), th = ex_time_ms(lh, a, runs);
        const _fc3d_tc_kparams kp = ((const _fc3d_tc_plan*)lt._private.engine_data.bytes)->kp;
        const float* bb = c.bias ? b : nullptr;
        if (c.cout > 64) {
            one<_FC3D_TC_TF32, 128, 32>(c, kp, x, w, bb, y, hr, ny, runs, tl);
            if (c.cin % 64 == 0) one<_FC3D_TC_HALF, 128, 64>(c, kp, x, w, bb, y, hr, ny, runs, th);
        } else {
            one<_FC3D_TC_TF32, 64, 32>(c, kp, x, w, bb, y, hr, ny, runs, tl);
            one<_FC3D_TC_HALF, 64, 32>(c, kp, x, w, bb, y, hr, ny, runs, th);
        }
        cudaFree(x); cudaFree(w); cudaFree(b); cudaFree(y); cudaFree(ws);
    }
    return 0;
}
