// fc3d_ext.cpp - the PyTorch extension's binding, behind fusedconv3d_torch.py. Built on first use by
// torch.utils.cpp_extension.load with fc3d_impl.cu, which carries the library's implementation;
// no other build step. This file includes fusedconv3d.cuh for its declarations alone (plain C),
// so the host compiler builds it from PyTorch's headers beside nvcc's build of the kernels. The
// Python side lowers the modules to a desc and keeps the plans; this side holds a plan and does a
// forward's per-call work in one call (the epilogue tensors' checks and binding, y and the
// workspace, fc3d_plan_run on the current CUDA stream), since that host work is inside the time a
// caller sees while the GPU waits for the first launch. Errors come back as (code, message) so
// Python raises its own exception.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "fusedconv3d.cuh"

namespace py = pybind11;

namespace {

// A plan built from plain Python values; init errors are kept, not thrown, so Python raises them.
// It keeps the workspace of its last run with the stream and device it ran on: the next run on the
// same stream reuses it (the runs are ordered there, and the plan writes every byte of its
// workspace that it reads), which saves an allocation of host time before the first launch of
// each call. A run on another stream or device allocates its own and keeps that one instead; a
// run on a stream being captured into a CUDA graph neither takes nor keeps it (the graph's
// allocations belong to its pool, and its replays may run beside eager calls).
struct Plan {
    fc3d_plan plan;
    torch::Tensor ws;
    cudaStream_t ws_stream = nullptr;
    int ws_device = -1;
};

using OpTuple = std::tuple<int, double, double, double, int, int, unsigned>;  // kind value eps momentum groups norm_dims flags

// device: the CUDA device the plan will run on; its grant of shared memory a block becomes
// desc.smem_per_block (a device below sm_90's 227 KB, e.g. sm_86 / sm_89, gets kernels that fit it; one
// before sm_80, granting less than 99 KB, the direct engine).
Plan make_plan(const std::vector<int>& conv, int layout, int dtype, int math, const std::vector<OpTuple>& ops,
               int engine, int device) {
    Plan p;
    fc3d_plan_desc d;
    std::memset(&d, 0, sizeof d);
    TORCH_CHECK(conv.size() == 23, "conv desc needs 23 ints, got ", conv.size());
    int k = 0;
    d.conv.batch = conv[k++];
    d.conv.in_channels = conv[k++];
    d.conv.out_channels = conv[k++];
    for (int* f : {d.conv.in_size, d.conv.kernel, d.conv.stride, d.conv.padding, d.conv.output_padding, d.conv.dilation})
        for (int i = 0; i < 3; i++) f[i] = conv[k++];
    d.conv.groups = conv[k++];
    d.conv.bias = conv[k++];
    d.layout = (fc3d_layout)layout;
    d.dtype = (fc3d_dtype)dtype;
    d.math = (fc3d_math)math;
    d.engine = (fc3d_engine)engine;
    int grant = 0;
    if (device >= 0 && cudaDeviceGetAttribute(&grant, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess &&
        grant >= FC3D_SMEM_PER_BLOCK_MIN && grant < FC3D_SMEM_PER_BLOCK_MAX)
        d.smem_per_block = grant;
    d.num_ops = (int)ops.size();
    for (size_t i = 0; i < ops.size() && i < FC3D_MAX_OPS; i++) {
        fc3d_op& o = d.ops[i];
        o.kind = (fc3d_op_kind)std::get<0>(ops[i]);
        o.value = (float)std::get<1>(ops[i]);
        o.eps = (float)std::get<2>(ops[i]);
        o.momentum = (float)std::get<3>(ops[i]);
        o.groups = std::get<4>(ops[i]);
        o.norm_dims = std::get<5>(ops[i]);
        o.flags = std::get<6>(ops[i]);
    }
    fc3d_plan_init(&p.plan, &d);
    return p;
}

const char* const kOpTensorNames[6] = {"weight", "bias", "running_mean", "running_var", "save_mean", "save_invstd"};

// One forward, everything after the plan: checks and binds the epilogue's tensors (ops holds six
// optional tensors per op, in fc3d_op_tensors' field order; one that is not float32 and contiguous
// is bound through a float32 copy, written back after the run where it is a running statistic),
// allocates y and the workspace from PyTorch's caching allocator, runs the plan on the current
// stream of x's device, and counts a batch in each of `counters` (BatchNorm's num_batches_tracked)
// after a successful run. Returns (code, message, y): y is None when nothing ran, with the library's
// code, or 0 for a check made here, and the message.
std::tuple<int, std::string, std::optional<torch::Tensor>> forward(
    Plan& p, const torch::Tensor& x, const torch::Tensor& weight, const std::optional<torch::Tensor>& bias,
    const std::vector<std::optional<torch::Tensor>>& ops, const std::vector<torch::Tensor>& counters,
    bool channels_last) {
    const fc3d_plan& plan = p.plan;
    const int num_ops = plan.desc.num_ops;
    TORCH_CHECK(ops.size() == (size_t)num_ops * 6, "ops needs 6 entries per op, got ", ops.size());
    const c10::cuda::CUDAGuard guard(x.device());
    fc3d_run_args a;
    std::memset(&a, 0, sizeof a);
    std::vector<torch::Tensor> keep;  // float32 copies, alive until the launches are enqueued
    std::vector<std::pair<torch::Tensor, torch::Tensor>> write_back;
    for (int i = 0; i < num_ops; i++) {
        const fc3d_op_tensor_sizes& t = plan.op_tensors[i];
        const int64_t sizes[6] = {t.weight, t.bias, t.running_mean, t.running_var, t.save_mean, t.save_invstd};
        float* ptrs[6] = {};
        for (int k = 0; k < 6; k++) {
            if (sizes[k] == 0) continue;
            const std::optional<torch::Tensor>& src = ops[(size_t)i * 6 + k];
            if (!src || src->numel() != sizes[k])
                return {0,
                        "epilogue[" + std::to_string(i) + "]." + kOpTensorNames[k] + " has " +
                            std::to_string(src ? src->numel() : 0) + " elements, the plan needs " +
                            std::to_string(sizes[k]),
                        std::nullopt};
            if (src->device() != x.device())
                return {0,
                        "epilogue[" + std::to_string(i) + "]." + kOpTensorNames[k] + " is on " + src->device().str() +
                            ", x is on " + x.device().str(),
                        std::nullopt};
            if (src->scalar_type() == torch::kFloat && src->is_contiguous()) {
                ptrs[k] = src->data_ptr<float>();
            } else {
                torch::Tensor dev = src->to(torch::kFloat).contiguous();
                if (k == 2 || k == 3) write_back.emplace_back(*src, dev);
                ptrs[k] = dev.data_ptr<float>();
                keep.push_back(dev);
            }
        }
        a.ops[i].weight = ptrs[0];
        a.ops[i].bias = ptrs[1];
        a.ops[i].running_mean = ptrs[2];
        a.ops[i].running_var = ptrs[3];
        a.ops[i].save_mean = ptrs[4];
        a.ops[i].save_invstd = ptrs[5];
    }
    const torch::Tensor w = weight.is_contiguous() ? weight : weight.contiguous();
    torch::Tensor y = torch::empty(std::vector<int64_t>(plan.y_dims, plan.y_dims + 5),
                                   x.options().memory_format(channels_last ? at::MemoryFormat::ChannelsLast3d
                                                                           : at::MemoryFormat::Contiguous));
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream(x.device().index()).stream();
    torch::Tensor ws;
    if (plan.workspace_bytes) {
        cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
        const bool plain = cudaStreamIsCapturing(stream, &capture) == cudaSuccess && capture == cudaStreamCaptureStatusNone;
        if (plain && p.ws.defined() && p.ws_stream == stream && p.ws_device == (int)x.device().index()) {
            ws = p.ws;
        } else {
            ws = torch::empty({(int64_t)plan.workspace_bytes}, x.options().dtype(torch::kUInt8));
            if (plain) {
                p.ws = ws;
                p.ws_stream = stream;
                p.ws_device = (int)x.device().index();
            }
        }
        a.workspace = ws.data_ptr();
        a.workspace_bytes = (size_t)plan.workspace_bytes;
    }
    a.x = x.data_ptr();
    a.weight = w.data_ptr();
    a.bias = bias ? bias->data_ptr() : nullptr;
    a.y = y.data_ptr();
    a.stream = (void*)stream;
    fc3d_message m;
    const fc3d_result r = fc3d_plan_run(&plan, &a, &m);
    if (r != FC3D_SUCCESS) return {(int)r, std::string(m.text), std::nullopt};
    for (auto& wb : write_back) wb.first.copy_(wb.second);
    for (const torch::Tensor& c : counters) c.add_(1);
    return {(int)r, std::string(), y};
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    py::class_<Plan>(m, "Plan")
        .def(py::init(&make_plan), py::arg("conv"), py::arg("layout"), py::arg("dtype"), py::arg("math"),
             py::arg("ops"), py::arg("engine") = 0, py::arg("device") = -1)
        .def_property_readonly("result", [](const Plan& p) { return (int)p.plan.result; })
        .def_property_readonly("message", [](const Plan& p) { return std::string(p.plan.message); })
        .def_property_readonly("y_dims",
                               [](const Plan& p) { return std::vector<int64_t>(p.plan.y_dims, p.plan.y_dims + 5); })
        .def_property_readonly("conv_size",
                               [](const Plan& p) { return std::vector<int64_t>(p.plan.conv_size, p.plan.conv_size + 3); })
        .def_property_readonly("workspace_bytes", [](const Plan& p) { return (size_t)p.plan.workspace_bytes; })
        // the device address of the workspace kept from the plan's last run (0: none kept)
        .def_property_readonly("kept_workspace",
                               [](const Plan& p) { return (uintptr_t)(p.ws.defined() ? p.ws.data_ptr() : nullptr); })
        .def_property_readonly("num_passes", [](const Plan& p) { return p.plan.num_passes; })
        .def_property_readonly("flops", [](const Plan& p) { return p.plan.flops; })
        .def_property_readonly("engine", [](const Plan& p) { return (int)p.plan.engine; })
        .def_property_readonly("engine_name",
                               [](const Plan& p) { return std::string(fc3d_engine_name(p.plan.engine)); })
        // the tensor-core main loop a run takes now on the current device: "halo", "wgmma",
        // "warp_rows", "block", "mma.sync" or ""
        .def_property_readonly("main_loop_now",
                               [](const Plan& p) {
                                   const int l = fc3d_plan_main_loop(&p.plan);
                                   return std::string(l == FC3D_MAIN_LOOP_HALO       ? "halo"
                                                      : l == FC3D_MAIN_LOOP_WGMMA    ? "wgmma"
                                                      : l == FC3D_MAIN_LOOP_WARP_ROWS ? "warp_rows"
                                                      : l == FC3D_MAIN_LOOP_BLOCK    ? "block"
                                                      : l == FC3D_MAIN_LOOP_MMA_SYNC ? "mma.sync"
                                                                                     : "");
                               })
        .def("describe", [](const Plan& p) {
            const int n = fc3d_plan_describe(&p.plan, nullptr, 0);
            std::string s((size_t)n + 1, '\0');
            fc3d_plan_describe(&p.plan, &s[0], s.size());
            s.resize((size_t)n);
            return s;
        });
    m.def("forward", &forward, py::arg("plan"), py::arg("x"), py::arg("weight"), py::arg("bias"), py::arg("ops"),
          py::arg("counters"), py::arg("channels_last"));
    m.def("result_string", [](int r) { return std::string(fc3d_result_string((fc3d_result)r)); });
    // engines are looked up by name for ids 1 .. ENGINE_COUNT - 1, so this file names none but auto
    m.def("engine_name", [](int e) { return std::string(fc3d_engine_name((fc3d_engine)e)); });
    // the C enums, so the Python side never restates them
#define FC3D_EXPORT(name, value) m.attr(name) = (int)(value)
    FC3D_EXPORT("SUCCESS", FC3D_SUCCESS);
    FC3D_EXPORT("LAYOUT_NCDHW", FC3D_LAYOUT_NCDHW);
    FC3D_EXPORT("LAYOUT_NDHWC", FC3D_LAYOUT_NDHWC);
    FC3D_EXPORT("DTYPE_F32", FC3D_DTYPE_F32);
    FC3D_EXPORT("DTYPE_F16", FC3D_DTYPE_F16);
    FC3D_EXPORT("DTYPE_BF16", FC3D_DTYPE_BF16);
    FC3D_EXPORT("MATH_FP32", FC3D_MATH_FP32);
    FC3D_EXPORT("MATH_TF32", FC3D_MATH_TF32);
    FC3D_EXPORT("MATH_HALF", FC3D_MATH_HALF);
    FC3D_EXPORT("ENGINE_AUTO", FC3D_ENGINE_AUTO);
    FC3D_EXPORT("ENGINE_COUNT", FC3D_ENGINE_COUNT_);
    FC3D_EXPORT("ERROR_ENGINE_REFUSED", FC3D_ERROR_ENGINE_REFUSED);
    FC3D_EXPORT("OP_SCALE", FC3D_OP_SCALE);
    FC3D_EXPORT("OP_ADD_CHANNEL", FC3D_OP_ADD_CHANNEL);
    FC3D_EXPORT("OP_RELU", FC3D_OP_RELU);
    FC3D_EXPORT("OP_GELU", FC3D_OP_GELU);
    FC3D_EXPORT("OP_GELU_TANH", FC3D_OP_GELU_TANH);
    FC3D_EXPORT("OP_BATCHNORM_TRAIN", FC3D_OP_BATCHNORM_TRAIN);
    FC3D_EXPORT("OP_BATCHNORM_INFER", FC3D_OP_BATCHNORM_INFER);
    FC3D_EXPORT("OP_GROUPNORM", FC3D_OP_GROUPNORM);
    FC3D_EXPORT("OP_LAYERNORM", FC3D_OP_LAYERNORM);
    FC3D_EXPORT("OP_SUB_SPATIAL_MEAN", FC3D_OP_SUB_SPATIAL_MEAN);
    FC3D_EXPORT("OP_GLOBAL_AVG_POOL", FC3D_OP_GLOBAL_AVG_POOL);
    FC3D_EXPORT("AFFINE", FC3D_OP_AFFINE);
    FC3D_EXPORT("UPDATE_RUNNING_STATS", FC3D_OP_UPDATE_RUNNING_STATS);
    FC3D_EXPORT("SAVE_BATCH_STATS", FC3D_OP_SAVE_BATCH_STATS);
    FC3D_EXPORT("MAX_OPS", FC3D_MAX_OPS);
#undef FC3D_EXPORT
}
