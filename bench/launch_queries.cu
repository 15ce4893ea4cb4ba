// launch_queries.cu - the host cost of the queries the haloed launch makes at every run (the prefetch's
// ahead(): cudaGetDevice, the SM count, cudaOccupancyMaxActiveBlocksPerMultiprocessor), beside
// cudaFuncSetAttribute and a launch, on a kernel shaped like the haloed one (288 threads, 200 KB of
// shared memory, one block an SM). Build and run from the repo root:
//   nvcc -O2 -arch=sm_90 bench/launch_queries.cu -o build/launch_queries && build/launch_queries
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <cuda_runtime.h>
#include "standalone.h"
__global__ void __launch_bounds__(288, 1) k(float* y, int n) {
    extern __shared__ float s[];
    float a[64];
    for (int i = 0; i < 64; ++i) a[i] = y[(threadIdx.x + i * 7) % n];
    s[threadIdx.x] = a[threadIdx.x % 64];
    __syncthreads();
    float t = 0; for (int i = 0; i < 64; ++i) t += a[i] * s[(threadIdx.x + i) % 288];
    y[threadIdx.x] = t;
}
int main() {
    const int smem = 200 * 1024;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int dev = 0, sms = 0, per = 0;
    for (int rep = 0; rep < 3; ++rep) {
        const int N = 20000;
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < N; ++i) {
            CK(cudaGetDevice(&dev));
            CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, 288, smem));
        }
        auto t1 = std::chrono::steady_clock::now();
        for (int i = 0; i < N; ++i) CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        auto t2 = std::chrono::steady_clock::now();
        float* y = nullptr; CK(cudaMalloc(&y, 4096));
        CK(cudaMemset(y, 0, 4096));
        cudaStream_t st; CK(cudaStreamCreate(&st));
        for (int i = 0; i < 100; ++i) k<<<1, 288, smem, st>>>(y, 1024);
        CK(cudaStreamSynchronize(st));
        auto t3 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; ++i) k<<<1, 288, smem, st>>>(y, 1024);
        auto t4 = std::chrono::steady_clock::now();
        CK(cudaStreamSynchronize(st));
        CK(cudaGetLastError());
        printf("sms %d per %d: ahead() queries %.3f us, cudaFuncSetAttribute %.3f us, a launch %.3f us (host, per call)\n", sms, per,
               std::chrono::duration<double, std::micro>(t1 - t0).count() / N,
               std::chrono::duration<double, std::micro>(t2 - t1).count() / N,
               std::chrono::duration<double, std::micro>(t4 - t3).count() / 1000);
        cudaFree(y); cudaStreamDestroy(st);
    }
    return 0;
}
