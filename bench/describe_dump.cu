// describe_dump.cu - prints fc3d_plan_describe for a fixed stream of random descs (every layout,
// dtype, math mode, groups 1 and 2, five op chains), so that two versions of the header can be
// compared plan by plan on any machine (no GPU, no CUDA call):
//
//   nvcc -std=c++17 -I<dir of one fusedconv3d.cuh> -gencode arch=compute_80,code=compute_80 -Xcicc -O0 \
//        [-DTEST_SMEM=101376] bench/describe_dump.cu -o build/describe_dump && build/describe_dump 3000 > a.txt
//
// TEST_SMEM sets desc.smem_per_block (0, the default, leaves it at its default); -DOLD builds it
// against a header from before that field. bench/RESULTS.md, sixtieth entry: 3,000 descs, the plans
// of 3624fe8 and f041505 alike.
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#ifndef TEST_SMEM
#define TEST_SMEM 0
#endif
int main(int argc, char** argv) {
    const int cases = argc > 1 ? atoi(argv[1]) : 3000;
    uint64_t st = 12345;
    static char text[1 << 16];
    int planned = 0;
    for (int k = 0; k < cases; k++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = st >> 11;
        auto draw = [&](int lo, int hi) { const int v = lo + (int)(r % (uint64_t)(hi - lo + 1)); r /= (uint64_t)(hi - lo + 1); if (r < 1000000) { st = st * 6364136223846793005ull + 1442695040888963407ull; r = st >> 11; } return v; };
        fc3d_plan_desc d;
        memset(&d, 0, sizeof d);
        const int chans[] = {4, 8, 16, 32, 48, 64, 96, 128, 256};
        d.conv.batch = draw(1, 16);
        d.conv.in_channels = chans[draw(0, 8)];
        d.conv.out_channels = chans[draw(0, 8)];
        d.conv.groups = draw(0, 3) == 0 ? 2 : 1;
        for (int i = 0; i < 3; i++) {
            d.conv.in_size[i] = draw(1, 40);
            d.conv.kernel[i] = draw(1, 5);
            d.conv.stride[i] = draw(1, 3);
            d.conv.padding[i] = draw(0, 2);
            d.conv.dilation[i] = draw(0, 4) == 0 ? 2 : 1;
            d.conv.output_padding[i] = draw(0, d.conv.stride[i] - 1);
        }
        d.conv.bias = draw(0, 1);
        d.layout = (fc3d_layout)draw(1, 2);
        d.dtype = (fc3d_dtype)(draw(0, 3) == 0 ? draw(2, 3) : 1);
        d.math = (fc3d_math)draw(1, 3);
#ifndef OLD
        d.smem_per_block = TEST_SMEM;
#endif
        const int chain = draw(0, 6);
        const fc3d_op_kind kinds[7][3] = {{}, {FC3D_OP_BATCHNORM_TRAIN, FC3D_OP_SUB_SPATIAL_MEAN}, {FC3D_OP_LAYERNORM, FC3D_OP_GELU, FC3D_OP_SCALE},
            {FC3D_OP_RELU, FC3D_OP_GROUPNORM}, {FC3D_OP_SCALE, FC3D_OP_BATCHNORM_TRAIN, FC3D_OP_GLOBAL_AVG_POOL}, {FC3D_OP_RELU}, {FC3D_OP_GELU_TANH, FC3D_OP_SCALE}};
        const int nops[7] = {0, 2, 3, 2, 3, 1, 2};
        d.num_ops = nops[chain];
        for (int i = 0; i < d.num_ops; i++) {
            d.ops[i].kind = kinds[chain][i];
            if (d.ops[i].kind == FC3D_OP_SCALE) d.ops[i].value = 2.0f;
            if (d.ops[i].kind == FC3D_OP_LAYERNORM) d.ops[i].norm_dims = 1;
            if (d.ops[i].kind == FC3D_OP_GROUPNORM) d.ops[i].groups = d.conv.out_channels % 8 == 0 ? 8 : 1;
        }
        fc3d_plan p;
        const fc3d_result res = fc3d_plan_init(&p, &d);
        printf("== case %d: result %d\n", k, (int)res);
        if (res != FC3D_SUCCESS) { printf("%s\n", p.message); continue; }
        planned++;
        fc3d_plan_describe(&p, text, sizeof text);
        printf("%s", text);
        printf("ws %zu main_loop %d engine %d\n", p.workspace_bytes, (int)p.main_loop, (int)p.engine);
    }
    fprintf(stderr, "%d planned\n", planned);
}
