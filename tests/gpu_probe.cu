/* Exit status 0 when a usable CUDA device is present, 1 otherwise; prints which in one line:
     GPU: <name>, sm_<cc>, <n> SMs
     no CUDA driver / GPU found (<CUDA's error string>)    no driver (or only its stub), too old a driver,
                                                           or 0 devices
     CUDA error: <CUDA's error string>                      anything else (a GPU may be there) */
#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e == cudaErrorStubLibrary ||
        (e == cudaSuccess && n == 0)) {
        printf("no CUDA driver / GPU found (%s)\n", e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
        return 1;
    }
    if (e != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(e));
        return 1;
    }
    cudaDeviceProp p;
    const cudaError_t pe = cudaGetDeviceProperties(&p, 0);
    if (pe != cudaSuccess) {
        printf("CUDA error: cudaGetDeviceProperties: %s\n", cudaGetErrorString(pe));
        return 1;
    }
    printf("GPU: %s, sm_%d%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
    return 0;
}
