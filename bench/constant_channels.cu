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
            d->ops[o].kind = FC3D_OP_BATCHNORM_TRAIN;
            d->ops[o++].flags = FC3D_OP_AFFINE;
            d->ops[o].kind = FC3D_OP_GROUPNORM;
            d->ops[o].groups = c->out_channels / 2;
            d->ops[o].eps = 1e-3f;
            d->ops[o++].flags = FC3D_OP_AFFINE;
            d->num_ops = o;
            d->math = FC3D_MATH_TF32;
            d->strategy = FC3D_STRATEGY_MATERIALIZE;
            d->stats_plan = FC3D_STATS_PLAN_MOMENTS;
            d->engine = FC3D_ENGINE_IMPLICIT_GEMM;
            d->main_loop = (fc3d_main_loop)loops[li];
            char name[120];
            snprintf(name, sizeof name, "const_loops.loop%d.case%d", loops[li], k);
            if (fc3d_plan_init(&hc.plan, d) != FC3D_SUCCESS) { printf("# %s: plan refused: %s\n", name, hc.plan.message); continue; }
            if ((int)fc3d_plan_main_loop(&hc.plan) != loops[li]) {
                printf("# %s: loop %d not taken (got %d)\n", name, loops[li], (int)fc3d_plan_main_loop(&hc.plan));
                continue;
            }
            fill_case_tensors(&hc);
            for (int64_t i = 0; i < hc.plan.x_elements; i++) hc.x[i] = 0.0;
            for (int i = 0; i < c->out_channels; i++) hc.b[i] = (double)(float)(1.0 + 2.0 * rng_unit());
            double* ref_ops[FC3D_MAX_OPS][6];
            memset(ref_ops, 0, sizeof ref_ops);
            double* ref = cpu_reference(&hc, ref_ops);
            int guard_ok = 0;
            run_and_compare(name, &hc, ref, ref_ops, 2.0 * bound_for(FC3D_MATH_TF32, FC3D_DTYPE_F32), &guard_ok);
            free(ref);
            for (int i = 0; i < FC3D_MAX_OPS; i++)
                for (int t = 0; t < 6; t++) free(ref_ops[i][t]);
            host_case_free(&hc);
        }
    return check_summary();
}
