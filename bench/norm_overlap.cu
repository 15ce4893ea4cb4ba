// norm_overlap.cu - does a streamed normalisation run beside L2/61's convolution? The convolution
// with its ReLU (one pass of the library, TF32, the haloed loop) on one stream and, on a second
// stream, an in-place y = y a[c] + b[c] over a y-sized buffer (GroupNorm's apply, 644 MB of
// traffic), each alone and both at once (the normalisation launched after or before the
// convolution), for several launch shapes of the normalisation. With a size in MB, the
// normalisation instead sweeps a buffer of that size (L2-resident) as many times as make up y's
// bytes, one launch a sweep.
//
// Build: nvcc -std=c++17 -O2 -I. -Itests -gencode arch=compute_90a,code=sm_90a bench/norm_overlap.cu -o build/norm_overlap
// Run:   build/norm_overlap [RUNS [MB]]   (bench/RESULTS.md, thirty-seventh entry)
// Timing: CUDA events on the first stream around both streams' work (the second joins back), a 256
// MiB buffer written before each run, median of RUNS after two warm-up runs; two rounds.
#include "examples/example_common.h"

static __global__ void fillk(float* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint32_t z = (uint32_t)i * 2654435761u ^ seed;
        z ^= z >> 15; z *= 2246822519u; z ^= z >> 13; z *= 3266489917u; z ^= z >> 16;
        p[i] = (float)(z >> 8) * (1.0f / 16777216.0f) * 2.f - 1.f;
    }
}
/* z = z a[c] + b[c] in place over [0, n4) float4s, channel = (i*4 / dhw) % C; U loads in flight */
template <int U>
static __global__ void __launch_bounds__(128) normk(float4* z, int64_t n4, int64_t dhw, int C, const float* a, const float* b) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    for (; i + (U - 1) * stride < n4; i += U * stride) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u) v[u] = __ldcs(z + i + u * stride);
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int c = (int)(((i + u * stride) * 4 / dhw) % C);
            const float aa = __ldg(a + c), bb = __ldg(b + c);
            v[u].x = fmaf(v[u].x, aa, bb); v[u].y = fmaf(v[u].y, aa, bb);
            v[u].z = fmaf(v[u].z, aa, bb); v[u].w = fmaf(v[u].w, aa, bb);
            __stcs(z + i + u * stride, v[u]);
        }
    }
    for (; i < n4; i += stride) {
        float4 v = z[i];
        const int c = (int)((i * 4 / dhw) % C);
        v.x = fmaf(v.x, a[c], b[c]); v.y = fmaf(v.y, a[c], b[c]); v.z = fmaf(v.z, a[c], b[c]); v.w = fmaf(v.w, a[c], b[c]);
        z[i] = v;
    }
}

int main(int argc, char** argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 20;
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.conv = ex_conv(16, 64, 128, 32, 32, 32, 3, 1, 0, 1, 0);
    desc.ops[0].kind = FC3D_OP_RELU;
    desc.num_ops = 1;
    desc.math = FC3D_MATH_TF32;
    fc3d_plan p = ex_plan(desc);
    printf("plan passes %d engine %d\n", p.num_passes, (int)p.engine);
    size_t nx = (size_t)16 * 64 * 32 * 32 * 32, ny = (size_t)p.y_elements, nw = (size_t)64 * 128 * 27;
    float *x, *w, *y, *z, *a, *b, *scratch;
    void* ws = nullptr;
    CUDA_OK(cudaMalloc(&x, nx * 4)); CUDA_OK(cudaMalloc(&w, nw * 4)); CUDA_OK(cudaMalloc(&y, ny * 4));
    CUDA_OK(cudaMalloc(&z, ny * 4)); CUDA_OK(cudaMalloc(&a, 128 * 4)); CUDA_OK(cudaMalloc(&b, 128 * 4));
    CUDA_OK(cudaMalloc(&scratch, EX_FLUSH_BYTES));
    if (p.workspace_bytes) CUDA_OK(cudaMalloc(&ws, p.workspace_bytes));
    fillk<<<1024, 256>>>(x, nx, 1); fillk<<<1024, 256>>>(w, nw, 2); fillk<<<1024, 256>>>(z, ny, 3);
    fillk<<<1, 128>>>(a, 128, 4); fillk<<<1, 128>>>(b, 128, 5);
    CUDA_OK(cudaDeviceSynchronize());
    cudaStream_t s1, s2;
    CUDA_OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    fc3d_run_args ar;
    memset(&ar, 0, sizeof ar);
    ar.x = x; ar.weight = w; ar.y = y; ar.workspace = ws; ar.workspace_bytes = p.workspace_bytes; ar.stream = (void*)s1;
    cudaEvent_t e0, e1, e2;
    CUDA_OK(cudaEventCreate(&e0)); CUDA_OK(cudaEventCreate(&e1)); CUDA_OK(cudaEventCreate(&e2));
    const int64_t zmb = argc > 2 ? atoi(argv[2]) : 0; /* 0: all of a y-sized buffer once; else a zmb-MB buffer, rep times */
    const int rep = zmb ? (int)((int64_t)ny * 4 / (zmb << 20)) : 1;
    const int64_t n4 = zmb ? (zmb << 20) / 16 : (int64_t)ny / 4, dhw = (int64_t)34 * 34 * 34;
    printf("norm buffer %lld float4s, %d times\n", (long long)n4, rep);
    struct cfg { int blocks, unroll; };
    const cfg cfgs[] = {{132, 4}, {132, 8}, {264, 8}, {528, 4}, {1056, 4}, {4096, 4}};
    auto launch_norm = [&](const cfg& c, cudaStream_t s) {
        for (int r = 0; r < rep; ++r) {
            if (c.unroll == 4) normk<4><<<c.blocks, 128, 0, s>>>((float4*)z, n4, dhw, 128, a, b);
            else normk<8><<<c.blocks, 128, 0, s>>>((float4*)z, n4, dhw, 128, a, b);
        }
        CUDA_OK(cudaPeekAtLastError());
    };
    // mode 0: conv alone; 1: norm alone; 2: conv then norm (s2); 3: norm (s2) then conv
    for (int round = 0; round < 2; ++round)
    for (int ci = -1; ci < (int)(sizeof cfgs / sizeof cfgs[0]); ++ci)
        for (int mode = (ci < 0 ? 0 : 1); mode < (ci < 0 ? 1 : 4); ++mode) {
            std::vector<float> ms;
            for (int r = 0; r < runs + 2; ++r) {
                CUDA_OK(cudaMemsetAsync(scratch, r & 0xff, EX_FLUSH_BYTES, s1));
                CUDA_OK(cudaEventRecord(e0, s1));
                CUDA_OK(cudaStreamWaitEvent(s2, e0, 0));
                if (mode == 0) ex_run(p, ar);
                else if (mode == 1) launch_norm(cfgs[ci], s2);
                else if (mode == 2) { ex_run(p, ar); launch_norm(cfgs[ci], s2); }
                else { launch_norm(cfgs[ci], s2); ex_run(p, ar); }
                CUDA_OK(cudaEventRecord(e2, s2));
                CUDA_OK(cudaStreamWaitEvent(s1, e2, 0));
                CUDA_OK(cudaEventRecord(e1, s1));
                CUDA_OK(cudaEventSynchronize(e1));
                float t; CUDA_OK(cudaEventElapsedTime(&t, e0, e1));
                if (r >= 2) ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            static const char* mn[4] = {"conv alone", "norm alone", "conv, then norm on s2", "norm on s2, then conv"};
            printf("round %d  %-24s blocks %5d unroll %d: %.4f ms\n", round, mn[mode], ci < 0 ? 0 : cfgs[ci].blocks,
                   ci < 0 ? 0 : cfgs[ci].unroll, ms[ms.size() / 2]);
        }
    return 0;
}
