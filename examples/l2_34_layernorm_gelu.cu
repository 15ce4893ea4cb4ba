// Build (from the repo root): mkdir -p build &&
//   nvcc -std=c++17 -O2 -I. -arch=sm_90 examples/l2_34_layernorm_gelu.cu -o build/l2_34_layernorm_gelu
// Run: build/l2_34_layernorm_gelu [--check-only] [--json] [--runs N] [--tf32]
//
// KernelBench L2/34, in PyTorch:
//     conv = nn.ConvTranspose3d(32, 64, kernel_size=4, stride=2, padding=1, bias=True)
//     ln = nn.LayerNorm(64, eps=1e-5)               # elementwise affine
//     y = F.gelu(ln(conv(x))) * 1.0                 # exact (erf) GELU
//     x: 32 x 32 x 16 x 32 x 32  ->  y: 32 x 64 x 32 x 64 x 64
// LayerNorm(64) on a 5D tensor normalises the LAST dimension, W (which is 64 after the conv): it is
// not a channel norm, and its weight and bias have W entries.
// Verified at N 2, C_in 8, C_out 12, input 4 x 8 x 16 (y 2 x 12 x 8 x 16 x 32, so LayerNorm(32)), same
// kernel, stride and padding; see example_common.h for the check, the timing and the RESULT line.
#include "examples/example_common.h"

static fc3d_plan_desc l2_34(int n, int cin, int cout, int d, int h, int w) {
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.conv = ex_conv(n, cin, cout, d, h, w, /*kernel*/ 4, /*stride*/ 2, /*padding*/ 1, /*dilation*/ 1, /*bias*/ 1);
    desc.ops[0].kind = FC3D_OP_LAYERNORM;
    desc.ops[0].norm_dims = 1; // normalised shape = the last dim (W)
    desc.ops[0].eps = 1e-5f;
    desc.ops[0].flags = FC3D_OP_AFFINE; // weight and bias of W elements
    desc.ops[1].kind = FC3D_OP_GELU;    // erf form
    desc.ops[2].kind = FC3D_OP_SCALE;
    desc.ops[2].value = 1.0f; // x * 1.0, kept so the chain is the workload's, op for op
    desc.num_ops = 3;
    return desc;
}

int main(int argc, char** argv) {
    return ex_main(argc, argv, "L2/34", l2_34(2, 8, 12, 4, 8, 16), l2_34(32, 32, 64, 16, 32, 32));
}
