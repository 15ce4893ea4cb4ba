// Build (from the repo root): mkdir -p build &&
//   nvcc -std=c++17 -O2 -I. -arch=sm_90 examples/l2_61_relu_groupnorm.cu -o build/l2_61_relu_groupnorm
// Run: build/l2_61_relu_groupnorm [--check-only] [--json] [--runs N] [--tf32]
//
// KernelBench L2/61, in PyTorch:
//     conv = nn.ConvTranspose3d(64, 128, kernel_size=3, bias=False)   # stride 1, padding 0
//     gn = nn.GroupNorm(num_groups=8, num_channels=128, eps=1e-5)     # affine
//     y = gn(F.relu(conv(x)))
//     x: 16 x 64 x 32 x 32 x 32  ->  y: 16 x 128 x 34 x 34 x 34
// GroupNorm statistics are per (n, group) over C/8 channels x D x H x W, taken after the ReLU.
// Verified at N 2, C_in 12, C_out 32 (8 groups of 4 channels), input 5 x 6 x 7 (y 2 x 32 x 7 x 8 x 9),
// same kernel; see example_common.h for the check, the timing and the RESULT line.
#include "examples/example_common.h"

static fc3d_plan_desc l2_61(int n, int cin, int cout, int d, int h, int w) {
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.conv = ex_conv(n, cin, cout, d, h, w, /*kernel*/ 3, /*stride*/ 1, /*padding*/ 0, /*dilation*/ 1, /*bias*/ 0);
    desc.ops[0].kind = FC3D_OP_RELU;
    desc.ops[1].kind = FC3D_OP_GROUPNORM;
    desc.ops[1].groups = 8;
    desc.ops[1].eps = 1e-5f;
    desc.ops[1].flags = FC3D_OP_AFFINE; // weight and bias per channel
    desc.num_ops = 2;
    return desc;
}

int main(int argc, char** argv) {
    return ex_main(argc, argv, "L2/61", l2_61(2, 12, 32, 5, 6, 7), l2_61(16, 64, 128, 32, 32, 32));
}
