/* bench/constant_channels.cu - constant channels (x = 0, the bias in [1, 3)) under the moments plan,
   a training BatchNorm then a GroupNorm, on each main loop forced, against the float64 CPU reference
   (test_gpu.cu's helpers). Not part of the suite: the haloed loop fails it (the design note, block
   loop). Build and run on a GPU:
     nvcc -std=c++17 -O2 -I. -Itests -gencode arch=compute_90a,code=sm_90a bench/constant_channels.cu \
          -o build/constant_channels && build/constant_channels */
#define main fc3d_test_gpu_main
#include "../tests/test_gpu.cu"
#undef main
int main() {
    const int loops[5] = {1, 2, 3, 4, 5};
    for (int li = 0; li < 5; li++)
        for (int k = 0; k < 4; k++) {
            host_case hc;
            memset(&hc, 0, sizeof hc);
            fc3d_plan_desc* d = &hc.desc;
            fc3d_conv_desc* c = &d->conv;
            c->batch = 2;
            c->bias = 1;
            c->in_channels = k >= 2 ? 32 : 16;
            c->out_channels = k == 3 ? 64 : 32;
            for (int i = 0; i < 3; i++) {
                c->in_size[i] = i == 2 ? 16 : 8;
                c->kernel[i] = 3;
                c->stride[i] = 2;
                c->padding[i] = 1;
                c->output_padding[i] = k == 1 ? 1 : 0;
                c->dilation[i] = 1;
            }
            int o = 0;
            if (k == 2) d->ops[o++].kind = FC3D_OP_GELU;
            constant_chain(d, o);
            d->main_loop = (fc3d_main_loop)loops[li];
            char name[120];
            snprintf(name, sizeof name, "constant_channels.loop%d.case%d", loops[li], k);
            if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) { printf("# %s: plan refused: %s\n", name, hc.plan.message); continue; }
            if ((int)fc3d_plan_main_loop(&hc.plan) != loops[li]) {
                printf("# %s: loop %d not taken (got %d)\n", name, loops[li], (int)fc3d_plan_main_loop(&hc.plan));
                continue;
            }
            constant_vs_cpu(name, &hc, 1);
            host_case_free(&hc);
        }
    return check_summary();
}
