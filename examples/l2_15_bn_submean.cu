// Build (from the repo root): mkdir -p build &&
//   nvcc -std=c++17 -O2 -I. -arch=sm_90 examples/l2_15_bn_submean.cu -o build/l2_15_bn_submean
// Run: build/l2_15_bn_submean [--check-only] [--json] [--runs N] [--tf32]
//
// KernelBench L2/15, in PyTorch (training mode, under torch.no_grad()):
//     conv = nn.ConvTranspose3d(16, 32, kernel_size=3, stride=2, padding=1, bias=True)
//     bn = nn.BatchNorm3d(32)                       # eps 1e-5, momentum 0.1, affine
//     y = bn(conv(x)); y = y - y.mean(dim=(2, 3, 4), keepdim=True)
//     x: 16 x 16 x 16 x 32 x 32  ->  y: 16 x 32 x 31 x 63 x 63
// Verified at N 2, C_in 8, C_out 16, input 6 x 12 x 14 (y 2 x 16 x 11 x 23 x 27), same kernel, stride
// and padding; see example_common.h for the check, the timing and the RESULT line.
#include "examples/example_common.h"

static fc3d_plan_desc l2_15(int n, int cin, int cout, int d, int h, int w) {
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.conv = ex_conv(n, cin, cout, d, h, w, /*kernel*/ 3, /*stride*/ 2, /*padding*/ 1, /*dilation*/ 1, /*bias*/ 1);
    desc.ops[0].kind = FC3D_OP_BATCHNORM_TRAIN; // batch statistics; eps 1e-5 and momentum 0.1 by default
    desc.ops[0].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
    desc.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN; // y - y.mean((2, 3, 4), keepdim=True)
    desc.num_ops = 2;
    return desc;
}

int main(int argc, char** argv) {
    return ex_main(argc, argv, "L2/15", l2_15(2, 8, 16, 6, 12, 14), l2_15(16, 16, 32, 16, 32, 32));
}
