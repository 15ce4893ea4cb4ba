/* Exit status 0 when a usable CUDA device is present, 1 otherwise; prints which. */
#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        printf("%s\n", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        return 1;
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("GPU: %s, sm_%d%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
    return 0;
}
