// Build (from the repo root): mkdir -p build &&
//   nvcc -std=c++17 -O2 -I. -arch=sm_90 examples/l2_77_scale_bn_pool.cu -o build/l2_77_scale_bn_pool
// Run: build/l2_77_scale_bn_pool [--check-only] [--json] [--runs N] [--tf32]
//
// KernelBench L2/77, in PyTorch (training mode, under torch.no_grad()):
//     conv = nn.ConvTranspose3d(64, 128, kernel_size=5, bias=True)   # stride 1, padding 0
//     bn = nn.BatchNorm3d(128, eps=1e-5, momentum=0.1)                # affine
//     y = nn.AdaptiveAvgPool3d(1)(bn(conv(x) * 2.0))
//     x: 16 x 64 x 16 x 32 x 32  ->  conv 16 x 128 x 20 x 36 x 36  ->  y: 16 x 128 x 1 x 1 x 1
// The plan recomputes the convolution in each pass instead of storing its 53 M elements.
// Verified at N 2, C_in 16, C_out 16, input 4 x 8 x 10 (conv 2 x 16 x 8 x 12 x 14, y 2 x 16 x 1 x 1 x 1),
// same kernel; see example_common.h for the check, the timing and the RESULT line.
#include "examples/example_common.h"

static fc3d_plan_desc l2_77(int n, int cin, int cout, int d, int h, int w) {
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.conv = ex_conv(n, cin, cout, d, h, w, /*kernel*/ 5, /*stride*/ 1, /*padding*/ 0, /*dilation*/ 1, /*bias*/ 1);
    desc.ops[0].kind = FC3D_OP_SCALE;
    desc.ops[0].value = 2.0f;
    desc.ops[1].kind = FC3D_OP_BATCHNORM_TRAIN;
    desc.ops[1].eps = 1e-5f;
    desc.ops[1].momentum = 0.1f;
    desc.ops[1].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
    desc.ops[2].kind = FC3D_OP_GLOBAL_AVG_POOL; // AdaptiveAvgPool3d(1); must be the last op
    desc.num_ops = 3;
    return desc;
}

int main(int argc, char** argv) {
    return ex_main(argc, argv, "L2/77", l2_77(2, 16, 16, 4, 8, 10), l2_77(16, 64, 128, 16, 32, 32));
}
