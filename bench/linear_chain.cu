// A chain whose statistics are linear in x, on L2/15's convolution: convT -> x 2 ->
// x - x.mean(dim=(2, 3, 4), keepdim=True). The planner takes FC3D_STATS_PLAN_LINEAR (box sums of x,
// their contraction with the weight, then one convolution pass applying the chain); --materialize
// --per-op forces the pass over the stored convolution instead. Verified against the CPU reference
// at N 2, C_in 8, C_out 16, input 6 x 12 x 14, timed at full size (example_common.h).
// Build (from the repo root): nvcc -std=c++17 -O2 -I. -Itests -gencode arch=compute_90a,code=sm_90a
//   bench/linear_chain.cu -o build/linear_chain
// Run: build/linear_chain --tf32 30 [--materialize --per-op]   (bench/RESULTS.md, thirty-sixth entry)
#include "examples/example_common.h"

static fc3d_plan_desc linear_chain(int n, int cin, int cout, int d, int h, int w) {
    fc3d_plan_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.conv = ex_conv(n, cin, cout, d, h, w, /*kernel*/ 3, /*stride*/ 2, /*padding*/ 1, /*dilation*/ 1, /*bias*/ 1);
    desc.ops[0].kind = FC3D_OP_SCALE;
    desc.ops[0].value = 2.0f;
    desc.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
    desc.num_ops = 2;
    return desc;
}

int main(int argc, char** argv) {
    return ex_main(argc, argv, "L2/15-lin", linear_chain(2, 8, 16, 6, 12, 14), linear_chain(16, 16, 32, 16, 32, 32));
}
