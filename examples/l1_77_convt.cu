// Build (from the repo root): mkdir -p build &&
//   nvcc -std=c++17 -O2 -I. -arch=sm_90 examples/l1_77_convt.cu -o build/l1_77_convt
// Run: build/l1_77_convt [--check-only] [--json] [--runs N] [--tf32]
//
// KernelBench L1/77, in PyTorch: the transposed convolution alone.
//     conv = nn.ConvTranspose3d(32, 64, kernel_size=3, stride=2, padding=1, dilation=2, bias=False)
//     y = conv(x)
//     x: 16 x 32 x 16 x 32 x 32  ->  y: 16 x 64 x 33 x 65 x 65
// Verified at N 2, C_in 8, C_out 16, input 4 x 8 x 10 (y 2 x 16 x 9 x 17 x 21), same kernel, stride,
// padding and dilation; see example_common.h for the check, the timing and the RESULT line.
#include "examples/example_common.h"

static fc3d_plan_desc l1_77(int n, int cin, int cout, int d, int h, int w) {
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc); // num_ops 0: no epilogue
    desc.conv = ex_conv(n, cin, cout, d, h, w, /*kernel*/ 3, /*stride*/ 2, /*padding*/ 1, /*dilation*/ 2, /*bias*/ 0);
    return desc;
}

int main(int argc, char** argv) {
    return ex_main(argc, argv, "L1/77", l1_77(2, 8, 16, 4, 8, 10), l1_77(16, 32, 64, 16, 32, 32));
}
