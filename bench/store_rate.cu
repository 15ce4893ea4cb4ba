/* store_rate: how fast one SM, and every SM at once, can send a tile's output to L2 / DRAM,
   by the instruction forms an epilogue could use. A CTA of 256 threads (one an SM, as the haloed
   kernels run) writes a 128 KB tile (the size of a haloed tile's output) REPS times:
     stg128   16-byte stores from registers (the row tiles' form)
     stg32    4-byte coalesced stores (the NCDHW epilogue's form)
     lds_stg  16-byte shared loads, then 16-byte stores (staging read back, then stored)
     bulkB    the tile from shared memory by cp.async.bulk (global <- shared::cta) in pieces of
              B bytes, one thread issuing, then cp.async.bulk.wait_group.read 0 before the next
              tile (the shared memory free again)
   Regions: "same" writes one 128 KB region per CTA again and again (L2-resident: the SM -> L2
   path alone); "stream" a fresh region per repetition (DRAM-bound when every SM writes).
   Build: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a bench/store_rate.cu -o build/store_rate
   Run:   build/store_rate [reps]  (prints GB/s and bytes per SM clock per CTA and in all) */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                 \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

enum { TILE = 128 * 1024, NT = 256 };

__device__ __forceinline__ float4* region(float* out, int reps_mode_stream, int r) {
    const size_t per = TILE / 4;
    size_t off = reps_mode_stream ? ((size_t)r * gridDim.x + blockIdx.x) * per : (size_t)blockIdx.x * per;
    return reinterpret_cast<float4*>(out + off);
}

__global__ void __launch_bounds__(NT, 1) k_stg128(float* out, int reps, int stream, long long* cyc) {
    float4 v = make_float4((float)threadIdx.x, 1.f, 2.f, 3.f);
    long long t0 = clock64();
    for (int r = 0; r < reps; ++r) {
        float4* b = region(out, stream, r);
#pragma unroll 8
        for (int i = 0; i < TILE / 16 / NT; ++i) b[i * NT + threadIdx.x] = v;
        v.x += 1.f;
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

__global__ void __launch_bounds__(NT, 1) k_stg32(float* out, int reps, int stream, long long* cyc) {
    float v = (float)threadIdx.x;
    long long t0 = clock64();
    for (int r = 0; r < reps; ++r) {
        float* b = reinterpret_cast<float*>(region(out, stream, r));
#pragma unroll 8
        for (int i = 0; i < TILE / 4 / NT; ++i) b[i * NT + threadIdx.x] = v;
        v += 1.f;
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

__global__ void __launch_bounds__(NT, 1) k_lds_stg(float* out, int reps, int stream, long long* cyc) {
    extern __shared__ float4 sm[];
    for (int i = threadIdx.x; i < TILE / 16; i += NT) sm[i] = make_float4((float)i, 1.f, 2.f, 3.f);
    __syncthreads();
    long long t0 = clock64();
    for (int r = 0; r < reps; ++r) {
        float4* b = region(out, stream, r);
#pragma unroll 8
        for (int i = 0; i < TILE / 16 / NT; ++i) {
            float4 q = sm[i * NT + threadIdx.x];
            q.x += (float)r;
            b[i * NT + threadIdx.x] = q;
        }
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

/* the tile staged in shared memory for the bulk copies, made visible to the async proxy */
__device__ __forceinline__ uint32_t stage_tile(float4* sm) {
    for (int i = threadIdx.x; i < TILE / 16; i += NT) sm[i] = make_float4((float)i, 1.f, 2.f, 3.f);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    return (uint32_t)__cvta_generic_to_shared(sm);
}
/* pieces first, first + step, ... of the tile to b, then wait until the shared memory is read */
__device__ __forceinline__ void bulk_tile(char* b, uint32_t s0, int first, int step, int piece) {
    for (int o = first; o < TILE; o += step)
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(b + o), "r"(s0 + o), "r"(piece)
                     : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__global__ void __launch_bounds__(NT, 1) k_bulk(float* out, int reps, int stream, int piece, long long* cyc) {
    extern __shared__ float4 sm[];
    const uint32_t s0 = stage_tile(sm);
    long long t0 = clock64();
    if (threadIdx.x == 0) {
        for (int r = 0; r < reps; ++r) bulk_tile(reinterpret_cast<char*>(region(out, stream, r)), s0, 0, piece, piece);
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

/* the same with 8 threads issuing (a lane of each warp), pieces split among them */
__global__ void __launch_bounds__(NT, 1) k_bulk8(float* out, int reps, int stream, int piece, long long* cyc) {
    extern __shared__ float4 sm[];
    const uint32_t s0 = stage_tile(sm);
    long long t0 = clock64();
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int r = 0; r < reps; ++r) {
        if (lane == 0) bulk_tile(reinterpret_cast<char*>(region(out, stream, r)), s0, w * piece, 8 * piece, piece);
        __syncwarp(); /* (bar.sync is warp-aligned: the whole warp reaches it together) */
        asm volatile("bar.sync 1, 256;" ::: "memory");
    }
    if (lane == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    const int reps = argc > 1 ? atoi(argv[1]) : 200;
    int nsm = 0, clk = 0;
    CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    const size_t maxbytes = (size_t)TILE * nsm * reps;
    float* out;
    long long* cyc;
    CK(cudaMalloc(&out, maxbytes));
    CK(cudaMalloc(&cyc, sizeof(long long) * nsm));
    for (auto k : {(const void*)k_lds_stg, (const void*)k_bulk, (const void*)k_bulk8})
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, TILE));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("SMs %d, reps %d, tile %d KB, %d threads a CTA\n", nsm, reps, TILE / 1024, NT);
    printf("%-12s %-7s %6s %10s %12s %14s\n", "form", "region", "CTAs", "ms", "GB/s all", "B/clk a CTA");
    const char* names[] = {"stg128", "stg32", "lds_stg", "bulk256", "bulk4K", "bulk32K", "bulk8x256", "bulk8x4K"};
    for (int f = 0; f < 8; ++f)
        for (int stream = 0; stream < 2; ++stream)
            for (int ctas : {1, nsm}) {
                float best = 1e30f;
                long long hc[256];
                for (int it = 0; it < 3; ++it) {
                    CK(cudaEventRecord(e0));
                    switch (f) {
                    case 0: k_stg128<<<ctas, NT>>>(out, reps, stream, cyc); break;
                    case 1: k_stg32<<<ctas, NT>>>(out, reps, stream, cyc); break;
                    case 2: k_lds_stg<<<ctas, NT, TILE>>>(out, reps, stream, cyc); break;
                    case 3: k_bulk<<<ctas, NT, TILE>>>(out, reps, stream, 256, cyc); break;
                    case 4: k_bulk<<<ctas, NT, TILE>>>(out, reps, stream, 4096, cyc); break;
                    case 5: k_bulk<<<ctas, NT, TILE>>>(out, reps, stream, 32768, cyc); break;
                    case 6: k_bulk8<<<ctas, NT, TILE>>>(out, reps, stream, 256, cyc); break;
                    case 7: k_bulk8<<<ctas, NT, TILE>>>(out, reps, stream, 4096, cyc); break;
                    }
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    CK(cudaGetLastError());
                    float ms;
                    CK(cudaEventElapsedTime(&ms, e0, e1));
                    if (ms < best) {
                        best = ms;
                        CK(cudaMemcpy(hc, cyc, sizeof(long long) * ctas, cudaMemcpyDeviceToHost));
                    }
                }
                double mc = 0;
                for (int i = 0; i < ctas; ++i) mc += (double)hc[i];
                mc /= ctas;
                const double bytes = (double)TILE * reps * ctas;
                printf("%-12s %-7s %6d %10.3f %12.1f %14.2f\n", names[f], stream ? "stream" : "same", ctas, best,
                       bytes / best / 1e6, (double)TILE * reps / mc);
            }
    printf("(clock rate attribute %d kHz)\n", clk);
    return 0;
}
