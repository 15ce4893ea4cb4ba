// bench/standalone.h - what the standalone measurement programs under bench/ share (they include
// no library code): a checked CUDA call, and a median of timed runs with L2 flushed before each.
#pragma once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));  \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

// Median in ms of `runs` timed calls of launch() on the default stream, after 2 untimed ones;
// before each call prep() runs (e.g. poisoning the output) and `flush_bytes` of `flush` are
// overwritten so that L2 holds none of the operands. CUDA events around launch() alone.
template <typename Prep, typename Launch>
static double standalone_median_ms(int runs, void* flush, size_t flush_bytes, Prep prep, Launch launch) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> t;
    for (int r = 0; r < runs + 2; r++) {
        prep();
        CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes));
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaPeekAtLastError());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 2) t.push_back(ms);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
