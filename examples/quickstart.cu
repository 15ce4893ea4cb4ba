// quickstart.cu - fusedconv3d in one page: y = ReLU(BatchNorm3d(ConvTranspose3d(x))) with BatchNorm
// in training mode, computed on the GPU in one call and checked against the CPU reference.
// Build (from the repo root): mkdir -p build &&
//   nvcc -std=c++17 -O2 -I. -arch=sm_90 examples/quickstart.cu -o build/quickstart
#define FUSEDCONV3D_IMPLEMENTATION // the library's code goes in exactly one .cu file
#include "fusedconv3d.cuh"
#define FUSEDCONV3D_CPU_IMPLEMENTATION // the float64 reference, for the check at the end
#include "fusedconv3d_cpu.h"

#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static float* to_device(const std::vector<float>& h) {
    float* d = nullptr;
    CUDA_OK(cudaMalloc((void**)&d, h.size() * sizeof(float)));
    CUDA_OK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}
static double rel_l2(const std::vector<float>& a, const std::vector<double>& ref) {
    double num = 0, den = 0;
    for (size_t i = 0; i < ref.size(); i++) num += (a[i] - ref[i]) * (a[i] - ref[i]), den += ref[i] * ref[i];
    return std::sqrt(num / den); // NaN (a FAIL below) if the GPU left a NaN
}

int main() {
    // 1. Describe it. Zero means default: stride 1, dilation 1, f32, NCDHW, FP32 math, eps 1e-5,
    //    momentum 0.1. nn.ConvTranspose3d(8, 16, 3, stride=2, padding=1) on x of 2 x 8 x 6 x 10 x 12.
    fc3d_plan_desc desc = {};
    fc3d_conv_desc& c = desc.conv;
    c.batch = 2; c.in_channels = 8; c.out_channels = 16; c.bias = 1;
    c.in_size[0] = 6; c.in_size[1] = 10; c.in_size[2] = 12;                        // D, H, W
    for (int i = 0; i < 3; i++) c.kernel[i] = 3, c.stride[i] = 2, c.padding[i] = 1;
    desc.ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;                                     // nn.BatchNorm3d(16).train()
    desc.ops[0].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
    desc.ops[1].kind = FC3D_OP_RELU;
    desc.num_ops = 2;

    // 2. Plan it: validation, output shape, passes and workspace size, on the host (no GPU needed).
    fc3d_plan plan;
    if (fc3d_plan_init(&plan, &desc) != FC3D_SUCCESS) { fprintf(stderr, "%s\n", plan.message); return 1; }
    char text[2048];
    fc3d_plan_describe(&plan, text, sizeof text);
    fputs(text, stdout);

    // 3. Inputs, float32 NCDHW: x like torch.rand, the rest arbitrary; running stats as PyTorch starts.
    const int C = c.out_channels;
    std::vector<float> x(plan.x_elements), w(plan.weight_elements), b(C), gamma(C), beta(C), rm(C, 0.f), rv(C, 1.f);
    srand(1);
    for (float& v : x) v = rand() / (RAND_MAX + 1.0f);
    for (float& v : w) v = (rand() / (RAND_MAX + 1.0f) - 0.5f) * 0.2f;
    for (int i = 0; i < C; i++) b[i] = 0.01f * i, gamma[i] = 1.0f + 0.05f * i, beta[i] = 0.1f - 0.02f * i;

    // 4. Bind device tensors and run. Op tensors go in args.ops[i], i = the op's index in the chain.
    fc3d_run_args a = {};
    a.x = to_device(x); a.weight = to_device(w); a.bias = to_device(b);
    a.ops[0].weight = to_device(gamma); a.ops[0].bias = to_device(beta);
    a.ops[0].running_mean = to_device(rm); a.ops[0].running_var = to_device(rv);    // updated in place
    CUDA_OK(cudaMalloc(&a.y, plan.y_elements * sizeof(float)));
    CUDA_OK(cudaMalloc(&a.workspace, plan.workspace_bytes));                         // statistics live here
    a.workspace_bytes = plan.workspace_bytes;
    a.stream = 0;                                                                    // any cudaStream_t
    fc3d_message msg;
    if (fc3d_plan_run(&plan, &a, &msg) != FC3D_SUCCESS) { fprintf(stderr, "%s\n", msg.text); return 1; }
    std::vector<float> y(plan.y_elements), rv_gpu(C);
    CUDA_OK(cudaMemcpy(y.data(), a.y, y.size() * sizeof(float), cudaMemcpyDeviceToHost));    // synchronises
    CUDA_OK(cudaMemcpy(rv_gpu.data(), a.ops[0].running_var, C * sizeof(float), cudaMemcpyDeviceToHost));

    // 5. The same desc through the CPU reference (double, logical NCDHW), and compare.
    std::vector<double> xd(x.begin(), x.end()), wd(w.begin(), w.end()), bd(b.begin(), b.end());
    std::vector<double> gd(gamma.begin(), gamma.end()), btd(beta.begin(), beta.end());
    std::vector<double> rmd(rm.begin(), rm.end()), rvd(rv.begin(), rv.end()), ref(plan.y_elements);
    fc3d_cpu_op_tensors ops[2] = {};
    ops[0].weight = gd.data(); ops[0].bias = btd.data(); ops[0].running_mean = rmd.data(); ops[0].running_var = rvd.data();
    if (fc3d_cpu_run(&desc, xd.data(), wd.data(), bd.data(), ops, ref.data()) != 0) return 1;
    const double err_y = rel_l2(y, ref), err_rv = rel_l2(rv_gpu, rvd);
    const bool pass = err_y <= 1e-5 && err_rv <= 1e-5;                                  // FP32 math: 1e-5
    printf("y %lld x %lld x %lld x %lld x %lld: rel_l2 y %.2e, running_var %.2e: %s\n", (long long)plan.y_dims[0],
           (long long)plan.y_dims[1], (long long)plan.y_dims[2], (long long)plan.y_dims[3], (long long)plan.y_dims[4],
           err_y, err_rv, pass ? "PASS" : "FAIL");
    return pass ? 0 : 1; // (a longer-lived program would cudaFree the buffers)
}
