/* fusedconv3d.cuh - 3D transposed convolution fused with its epilogue, for CUDA GPUs.

   Do this:
       #define FUSEDCONV3D_IMPLEMENTATION
   before you include this file in *one* CUDA (.cu) translation unit, compiled by nvcc.
   Every other file - C or C++, nvcc or not - includes it without the define and sees only the
   declarations, which are plain C99. That one unit holds every engine's kernels: nvcc takes
   minutes on it (about 6 CPU-minutes for sm_80 and 10 for sm_90a on one x86 core, nvcc 13), so
   give it a file of its own that rarely changes and build only the architectures you run;
   `nvcc --split-compile 0` spreads its optimizer and ptxas over every core (one sm_90a image on
   16 cores: 442 s without, 188 s with; the kernels' machine code the same but for the direct
   engine's three generic passes, of the same size).

   Optional defines, before the include that carries the implementation:
       FUSEDCONV3D_STATIC   every public symbol becomes `static`: the library is private to the
                            translation unit that carries the implementation (only it can call the
                            API), and two such units can live in one program. Define it together
                            with FUSEDCONV3D_IMPLEMENTATION, in that unit only.

   ============================================================================================
   CONTENTS (grep for the marker)
       >>overview        what is computed, in PyTorch terms
       >>quickstart      the calls in order
       >>concepts        descs, defaults, the epilogue chain, passes, workspace, determinism
       >>limits          what is refused, and why
       >>results         result codes and their messages (one X-macro list)
       >>types           enums and descs, each with a table of defaults
       >>api             public functions
       >>implementation  (behind FUSEDCONV3D_IMPLEMENTATION) design note first, then
                         >>optable >>result-strings >>defaults >>validation >>statistics
                         >>workspace >>steps >>device-helpers >>finalize
                         >>engine-direct (one section per engine; >>engine-implicit-gemm
                         holds its main loops, >>halo-loop the haloed one, >>warp-row-loop
                         the up-sampling one, >>block-loop the short-K one) >>engines >>planning
                         >>run-checks >>executor >>public
       >>history, >>license at the end
   ============================================================================================

   >>overview
   ----------
   One call computes

       y = op[k-1]( ... op[1]( op[0]( conv_transpose3d(x, weight, bias) ) ) )

   with exact torch.nn.ConvTranspose3d semantics (stride, padding, output_padding, dilation, groups,
   optional bias; weight [C_in, C_out/groups, kD, kH, kW]) followed by an ordered chain of up to
   FC3D_MAX_OPS epilogue ops with exact PyTorch semantics:

       FC3D_OP_SCALE             y * value                                  (x * 2.0)
       FC3D_OP_ADD_CHANNEL       y + v[c]                                   (x + v.view(1,C,1,1,1))
       FC3D_OP_RELU              max(y, 0)                                  (F.relu)
       FC3D_OP_GELU              y * Phi(y), erf form                      (F.gelu)
       FC3D_OP_GELU_TANH         tanh approximation                         (F.gelu(approximate='tanh'))
       FC3D_OP_BATCHNORM_TRAIN   batch statistics, biased variance; optional running-stat update
                                 (momentum, unbiased variance) and batch mean / inverse std output
                                                                            (BatchNorm3d.train())
       FC3D_OP_BATCHNORM_INFER   running statistics                         (BatchNorm3d.eval())
       FC3D_OP_GROUPNORM         per (n, group) over C/G channels x D x H x W   (nn.GroupNorm)
       FC3D_OP_LAYERNORM         over the trailing norm_dims of the 5D tensor: 1 = W, 2 = H,W,
                                 3 = D,H,W, 4 = C,D,H,W                      (nn.LayerNorm(shape))
       FC3D_OP_SUB_SPATIAL_MEAN  y - mean over (D,H,W) per (n,c)            (x - x.mean((2,3,4), True))
       FC3D_OP_GLOBAL_AVG_POOL   mean over (D,H,W) per (n,c); must be last; y is N x C x 1 x 1 x 1
                                                                            (AdaptiveAvgPool3d(1))

   Tensors x, weight, conv bias and y have the plan's element type (f32, f16 or bf16) and
   layout (NCDHW or NDHWC = PyTorch's channels_last_3d; the weight is always the contiguous
   [C_in, C_out/groups, kD, kH, kW] tensor). Op parameters and statistics (per-channel vectors,
   norm weights and biases, running statistics, saved batch statistics) are always float32.
   Accumulation is always float32 or wider.

   >>quickstart
   ------------
       fc3d_plan_desc d = {0};                    // zero = default everywhere it can be
       d.conv.batch = 16; d.conv.in_channels = 16; d.conv.out_channels = 32;
       d.conv.in_size[0] = 16; d.conv.in_size[1] = 32; d.conv.in_size[2] = 32;   // D, H, W
       d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 3;
       d.conv.stride[0] = d.conv.stride[1] = d.conv.stride[2] = 2;
       d.conv.padding[0] = d.conv.padding[1] = d.conv.padding[2] = 1;
       d.conv.bias = 1;
       d.ops[0].kind = FC3D_OP_BATCHNORM_TRAIN;
       d.ops[0].flags = FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS;
       d.ops[1].kind = FC3D_OP_SUB_SPATIAL_MEAN;
       d.num_ops = 2;

       fc3d_plan plan;
       if (fc3d_plan_init(&plan, &d) != FC3D_SUCCESS) { puts(plan.message); return 1; }
       void* ws = NULL; cudaMalloc(&ws, plan.workspace_bytes);        // may be 0 bytes
       fc3d_run_args a = {0};
       a.x = x; a.weight = w; a.bias = b; a.y = y;                     // device pointers
       a.ops[0].weight = gamma; a.ops[0].bias = beta;
       a.ops[0].running_mean = rm; a.ops[0].running_var = rv;
       a.workspace = ws; a.workspace_bytes = plan.workspace_bytes; a.stream = stream;
       fc3d_message msg;
       if (fc3d_plan_run(&plan, &a, &msg) != FC3D_SUCCESS) puts(msg.text);

   >>concepts
   ----------
   Descs and defaults. Every desc is a plain struct in which zero means "default" wherever zero is
   otherwise invalid (stride, dilation, conv groups, layout, element type, math mode, eps,
   momentum); where zero is a real value (padding, output_padding) it stays zero. The tables above
   each struct list the defaults; fc3d_plan_desc_defaults() returns a desc with them filled in,
   and the plan keeps that filled-in copy.

   The plan is a caller-owned struct. fc3d_plan_init() fills the defaults, validates the filled
   desc, computes the output shape, chooses the strategy, the passes and the engine, lets the
   engine plan its steps, and sizes the workspace - on the host, with no GPU and no CUDA call, so it
   can run anywhere. It stores no data pointers: one plan serves any number of tensors, streams and
   threads (fc3d_plan_run only reads it, and refuses a plan whose desc was changed after init).

   Engines. An engine is a complete implementation of the convolution and the chain for the descs
   it accepts. The library keeps them in a priority order; the planner takes the first that can
   implement the desc, and plan.engine says which. The direct engine accepts every valid desc and
   is the fallback. desc.engine forces one (for tests and benchmarks that compare engines on the
   same desc); forcing one that cannot implement the desc fails with FC3D_ERROR_ENGINE_REFUSED and
   its reason. fc3d_plan_describe() prints the engine, why each engine before it refused, and the
   engine's physical steps (kernel launches) under each pass.

   Passes. An op that needs statistics of its whole input (training BatchNorm, GroupNorm,
   LayerNorm, spatial-mean subtraction, pooling) cannot be applied until every element it
   normalises exists. The plan cuts the chain before each such "statistics op" and runs one pass per
   piece; plan.passes[] lists these logical passes (what each reads, which ops it applies, whether
   it writes y, which op's statistics it gathers), whatever engine runs them. The engine turns each
   pass into one or more kernel launches (its steps): the statistics of a pass are gathered as
   partial sums by the kernels that produce the values, then one finalize launch per pass reduces
   them in a fixed order. An engine may also cover two logical passes with one step: the
   implicit-GEMM engine's whole-row tiles take a LayerNorm over W's statistics from the rows they
   hold, so the pass that would gather them has no step of its own (describe says so).

   Strategies and cost. Each cut is either materialized (the pass before it stores the
   intermediate, the pass after reads it back) or recomputed (the pass after convolves again and
   nothing of the convolution's size is stored between them). Where every op from the first
   statistics op on maps each (n, c) slab by an affine function (scale, add_channel, batchnorm,
   groupnorm, sub_spatial_mean, then possibly a pool), the statistics of all of them can come from
   the per-(n, c) sums and sums of squares of one pass (the "moments" statistics plan): L2/77's
   scale -> batchnorm -> pool needs one convolution pass, L2/15's batchnorm -> sub_spatial_mean
   one convolution pass and one pass over y. The planner plans every alternative the chain allows
   on the engine that would run it and takes the one with the least estimated time; describe
   prints them all. plan.exec_flops and plan.exec_bytes are what the chosen plan's steps execute
   and move, plan.floor_ms the time they take at least on an H100 (fc3d_plan_floor_ms for other
   rates). desc.strategy and desc.stats_plan force a choice.

   Workspace. Statistics are reduced through the workspace: call fc3d_plan_init, allocate
   plan.workspace_bytes of device memory (any alignment: the size includes the slack to align it),
   pass it at run. Too small a workspace is an error, never a silent fallback. Zero bytes means none
   is needed and the pointer may be NULL. The implicit_gemm engine keeps its per-run operand copies
   there too: the re-laid weight and, where the plan allows the haloed loop, a zero-padded copy of
   x (N x C_in x the padded volume, 4 bytes an element in TF32, 2 in half: about 200 MB for L2/61).

   Determinism. Every reduction has a fixed order and no float atomics: two runs of one plan on
   the same inputs give bitwise-identical outputs and statistics.

   Threads and streams. fc3d_plan_init and fc3d_plan_run are reentrant and keep no global state.
   fc3d_plan_run enqueues kernels on args.stream and returns without synchronising; it launches on
   the current device. The workspace must not be shared by runs that can
   overlap.

   >>limits
   --------
   - Every tensor dimension is an int > 0; every tensor (input, weight, output) may hold up to 2^53
     elements (64-bit offsets throughout). Larger descs fail with FC3D_ERROR_SIZE_OVERFLOW.
   - output_padding must be smaller than stride or dilation in each dimension (as in PyTorch).
   - Training BatchNorm needs more than one value per channel (N*D*H*W > 1), as in PyTorch.
   - The implicit-GEMM engine needs compute capability 8.0 or newer. Plans assume by default
     that a block may take sm_90's 227 KB of shared memory; on a device that grants less (sm_80:
     163 KB, sm_86 / sm_89: 99 KB, sm_75: 64 KB) set desc.smem_per_block to what it grants, or a
     run whose kernels take more is refused with FC3D_ERROR_SMEM_PER_BLOCK and the figure to plan
     with. A grant below 99 KB (a device before sm_80) leaves AUTO the direct engine.
   - An eps of exactly zero cannot be expressed (0 selects 1e-5). A momentum of zero selects 0.1;
     leave FC3D_OP_UPDATE_RUNNING_STATS off for no update. PyTorch's cumulative average
     (momentum=None) is momentum = 1/(num_batches_tracked+1), computed by the caller.
*/
#ifndef FUSEDCONV3D_H
#define FUSEDCONV3D_H

#include <stddef.h>
#include <stdint.h>

#define FC3D_VERSION_MAJOR 0
#define FC3D_VERSION_MINOR 1
#define FC3D_VERSION_PATCH 0

#define FC3D_MAX_OPS 16                    /* epilogue ops in one chain */
#define FC3D_MAX_PASSES (FC3D_MAX_OPS + 1) /* one per statistics op, plus one */
#define FC3D_MESSAGE_LEN 256               /* bytes, with the terminating NUL */
/* fc3d_plan_desc.smem_per_block: shared memory a block may take on the device that runs the plan
   (cudaDevAttrMaxSharedMemoryPerBlockOptin): sm_90's 227 KB (the default), sm_80's and sm_87's
   163 KB (166912), sm_86's, sm_89's and sm_120's 99 KB (FC3D_SMEM_PER_BLOCK_TC, the least of any
   device the implicit-GEMM engine runs on: compute capability 8.0 and newer), sm_70's 96 KB,
   sm_75's 64 KB, 48 KB on every CUDA device (the least a desc may say) */
#define FC3D_SMEM_PER_BLOCK_MAX 232448
#define FC3D_SMEM_PER_BLOCK_TC 101376
#define FC3D_SMEM_PER_BLOCK_MIN 49152

#if defined(FUSEDCONV3D_STATIC)
#define FC3D_API static
#else
#define FC3D_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* >>results -------------------------------------------------------------------------------------
   One list for every result: its code, its value and its message. Zero is success, errors are
   negative. Validation failures name the offending field; fc3d_plan.message / fc3d_message.text
   add the values involved and, for ops, the op index. */
#define FC3D_RESULT_LIST(X)                                                                             \
    X(FC3D_SUCCESS, 0, "success")                                                                      \
    X(FC3D_ERROR_NULL_ARGUMENT, -1, "a required argument (plan, desc or args) is NULL")               \
    X(FC3D_ERROR_PLAN_INVALID, -2, "fc3d_plan was not initialised by a successful fc3d_plan_init")    \
    X(FC3D_ERROR_SIZE_OVERFLOW, -3, "a tensor would hold more than 2^53 elements, or an output dim more than INT_MAX") \
    X(FC3D_ERROR_CONV_BATCH, -10, "fc3d_conv_desc.batch must be > 0")                                 \
    X(FC3D_ERROR_CONV_IN_CHANNELS, -11, "fc3d_conv_desc.in_channels must be > 0")                     \
    X(FC3D_ERROR_CONV_OUT_CHANNELS, -12, "fc3d_conv_desc.out_channels must be > 0")                   \
    X(FC3D_ERROR_CONV_IN_SIZE, -13, "fc3d_conv_desc.in_size[] must be > 0")                           \
    X(FC3D_ERROR_CONV_KERNEL, -14, "fc3d_conv_desc.kernel[] must be > 0")                             \
    X(FC3D_ERROR_CONV_STRIDE, -15, "fc3d_conv_desc.stride[] must be >= 0 (0 = 1)")                    \
    X(FC3D_ERROR_CONV_PADDING, -16, "fc3d_conv_desc.padding[] must be >= 0")                          \
    X(FC3D_ERROR_CONV_OUTPUT_PADDING, -17,                                                           \
      "fc3d_conv_desc.output_padding[] must be >= 0 and smaller than stride or dilation")            \
    X(FC3D_ERROR_CONV_DILATION, -18, "fc3d_conv_desc.dilation[] must be >= 0 (0 = 1)")                \
    X(FC3D_ERROR_CONV_GROUPS, -19, "fc3d_conv_desc.groups must be >= 0 (0 = 1)")                      \
    X(FC3D_ERROR_CONV_GROUPS_IN_CHANNELS, -20, "fc3d_conv_desc.in_channels must be divisible by groups") \
    X(FC3D_ERROR_CONV_GROUPS_OUT_CHANNELS, -21,                                                      \
      "fc3d_conv_desc.out_channels must be divisible by groups")                                     \
    X(FC3D_ERROR_CONV_OUTPUT_SIZE, -22, "fc3d_conv_desc gives an output size <= 0")                   \
    X(FC3D_ERROR_LAYOUT, -30, "fc3d_plan_desc.layout is not a fc3d_layout value")                     \
    X(FC3D_ERROR_DTYPE, -31, "fc3d_plan_desc.dtype is not a fc3d_dtype value")                        \
    X(FC3D_ERROR_MATH, -32, "fc3d_plan_desc.math is not a fc3d_math value")                           \
    X(FC3D_ERROR_ENGINE, -33, "fc3d_plan_desc.engine is not a fc3d_engine value")                     \
    X(FC3D_ERROR_ENGINE_REFUSED, -34,                                                                \
      "fc3d_plan_desc.engine names an engine that cannot implement this desc (the message says why)") \
    X(FC3D_ERROR_STRATEGY, -35,                                                                      \
      "fc3d_plan_desc.strategy is not a fc3d_strategy value, or one this chain cannot take (the message says why)") \
    X(FC3D_ERROR_STATS_PLAN, -36,                                                                    \
      "fc3d_plan_desc.stats_plan is not a fc3d_stats_plan value, or one this chain cannot take (the message says why)") \
    X(FC3D_ERROR_MAIN_LOOP, -37,                                                                     \
      "fc3d_plan_desc.main_loop is not a fc3d_main_loop value, or one this plan or run cannot take (the message says why)") \
    X(FC3D_ERROR_SMEM_PER_BLOCK, -38,                                                                \
      "fc3d_plan_desc.smem_per_block must be 0 or in [49152, 232448] and granted by the run's device") \
    X(FC3D_ERROR_NUM_OPS, -40, "fc3d_plan_desc.num_ops must be in [0, FC3D_MAX_OPS]")                 \
    X(FC3D_ERROR_OP_KIND, -41, "fc3d_op.kind is not a fc3d_op_kind value")                            \
    X(FC3D_ERROR_OP_VALUE, -42, "fc3d_op.value must be finite")                                       \
    X(FC3D_ERROR_OP_EPS, -43, "fc3d_op.eps must be finite and >= 0 (0 = 1e-5)")                       \
    X(FC3D_ERROR_OP_MOMENTUM, -44, "fc3d_op.momentum must be in [0, 1] (0 = 0.1)")                    \
    X(FC3D_ERROR_OP_GROUPS, -45, "fc3d_op.groups must be > 0 and divide out_channels")                \
    X(FC3D_ERROR_OP_NORM_DIMS, -46, "fc3d_op.norm_dims must be 1, 2, 3 or 4")                         \
    X(FC3D_ERROR_OP_FLAGS, -47, "fc3d_op.flags has a flag this op kind does not take")                \
    X(FC3D_ERROR_OP_POOL_NOT_LAST, -48, "FC3D_OP_GLOBAL_AVG_POOL must be the last op")                \
    X(FC3D_ERROR_OP_BATCHNORM_COUNT, -49,                                                            \
      "FC3D_OP_BATCHNORM_TRAIN needs more than one value per channel (N*D*H*W > 1)")                 \
    X(FC3D_ERROR_OP_UNUSED_FIELD, -50, "fc3d_op has a field set that this op kind does not use")      \
    X(FC3D_ERROR_ARG_X, -60, "fc3d_run_args.x must be a non-NULL device pointer aligned to its element type") \
    X(FC3D_ERROR_ARG_WEIGHT, -61,                                                                    \
      "fc3d_run_args.weight must be a non-NULL device pointer aligned to its element type")          \
    X(FC3D_ERROR_ARG_BIAS, -62,                                                                      \
      "fc3d_run_args.bias must be non-NULL and aligned when the conv has a bias, NULL otherwise")   \
    X(FC3D_ERROR_ARG_Y, -63, "fc3d_run_args.y must be a non-NULL device pointer aligned to its element type") \
    X(FC3D_ERROR_ARG_ALIAS, -64,                                                                     \
      "fc3d_run_args: a tensor the run writes (y, workspace, updated or saved statistics) overlaps another") \
    X(FC3D_ERROR_ARG_OP_TENSOR, -65,                                                                 \
      "fc3d_run_args.ops[i] lacks a float tensor the op needs, or binds one it does not use")        \
    X(FC3D_ERROR_ARG_WORKSPACE, -66,                                                                 \
      "fc3d_run_args.workspace must be non-NULL when fc3d_plan.workspace_bytes > 0")                 \
    X(FC3D_ERROR_ARG_WORKSPACE_SIZE, -67,                                                            \
      "fc3d_run_args.workspace_bytes is smaller than fc3d_plan.workspace_bytes")                     \
    X(FC3D_ERROR_ARG_OP_TENSOR_ALIGNMENT, -68,                                                       \
      "fc3d_run_args.ops[i] binds a float tensor that is not 4-byte aligned")                        \
    X(FC3D_ERROR_ARG_RANGE, -69, "fc3d_run_args: a bound tensor's byte range wraps the address space") \
    X(FC3D_ERROR_CUDA, -80, "a CUDA call failed (the message carries CUDA's error string)")

typedef enum fc3d_result {
#define FC3D_X_ENUM_(name, value, text) name = value,
    FC3D_RESULT_LIST(FC3D_X_ENUM_)
#undef FC3D_X_ENUM_
    FC3D_RESULT_FORCE_INT_ = 0x7fffffff
} fc3d_result;

/* >>types ---------------------------------------------------------------------------------------*/

/* Memory layout of x and y. The weight is always [C_in, C_out/groups, kD, kH, kW], contiguous. */
typedef enum fc3d_layout {
    FC3D_LAYOUT_DEFAULT = 0, /* = NCDHW */
    FC3D_LAYOUT_NCDHW = 1,   /* PyTorch's default contiguous layout */
    FC3D_LAYOUT_NDHWC = 2    /* PyTorch's torch.channels_last_3d */
} fc3d_layout;

/* Element type of x, weight, conv bias and y. Op tensors are float32 always. */
typedef enum fc3d_dtype {
    FC3D_DTYPE_DEFAULT = 0, /* = F32 */
    FC3D_DTYPE_F32 = 1,
    FC3D_DTYPE_F16 = 2,     /* IEEE binary16 */
    FC3D_DTYPE_BF16 = 3     /* bfloat16 */
} fc3d_dtype;

/* How the convolution's products are formed. Accumulation is float32 or wider in every mode;
   the epilogue always computes in float32. */
typedef enum fc3d_math {
    FC3D_MATH_DEFAULT = 0, /* = FP32 */
    FC3D_MATH_FP32 = 1,    /* operands used exactly as stored (float32 products): the accurate mode */
    FC3D_MATH_TF32 = 2,    /* operands rounded to TF32 (10-bit mantissa), as PyTorch/cuDNN by default */
    FC3D_MATH_HALF = 3     /* operands rounded to 16 bits: bf16 when dtype is BF16, else f16 (float32
                              values rounded as they are on every engine and main loop: past
                              65504 infinite, under 2^-14 on f16's subnormal step) */
} fc3d_math;

/* Which engine computes the plan. Each engine is a complete implementation of some descs; the
   planner takes the first in its priority order that can implement the desc (>>concepts). Forcing
   one is for tests and benchmarks that compare engines on the same desc. */
typedef enum fc3d_engine {
    FC3D_ENGINE_AUTO = 0,   /* the planner chooses */
    FC3D_ENGINE_DIRECT = 1, /* one thread per output element, gathering its taps in FP32 FMAs; accepts
                               every valid desc: the reference and the fallback */
    FC3D_ENGINE_IMPLICIT_GEMM = 2, /* the output split into stride phases, each a dense implicit GEMM on
                                      tensor cores (mma.sync, sm_80 and up; wgmma in sm_90a code, see
                                      fc3d_main_loop); FP32 math runs as 3xTF32 */
    FC3D_ENGINE_COUNT_      /* not an engine */
} fc3d_engine;

/* Which main loop the implicit_gemm engine's tensor-core MMAs run in (>>engine-implicit-gemm).
   Forcing one is for tests and benchmarks that compare them on the same desc. */
typedef enum fc3d_main_loop {
    FC3D_MAIN_LOOP_AUTO = 0,     /* haloed, else warp rows, else block, else wgmma, where the plan and
                                    the run allow it, else mma.sync */
    FC3D_MAIN_LOOP_MMA_SYNC = 1, /* mma.sync: every device the engine runs on (sm_80 and up) */
    FC3D_MAIN_LOOP_WGMMA = 2,    /* Hopper's warpgroup MMAs (every math mode): in_channels / groups a
                                    multiple of 16; the run needs sm_90a code in the binary (nvcc
                                    -gencode arch=compute_90a,code=sm_90a) and an sm_90 device */
    FC3D_MAIN_LOOP_HALO = 3,     /* Hopper's haloed-block loop: x copied once per run into a zero-padded
                                    operand copy, whole haloed row blocks brought by bulk copies, wgmma
                                    64 x 256 (>>engine-implicit-gemm, "Haloed tiles"). Every math mode
                                    on float32 tensors (FP32 as 3xTF32, its parts held as f16: two
                                    64 x 128 warpgroups on a tile), in_channels / groups a multiple
                                    of 32, a LayerNorm over W
                                    only at W stride 2 and not in FP32 math; the run needs what WGMMA
                                    needs. AUTO takes it where an output sums 128 products or more on
                                    average (over the outputs some tap reaches where the plan
                                    zero-fills the others, >>engine-implicit-gemm) */
    FC3D_MAIN_LOOP_BLOCK = 4,    /* the block loop for short K at small channel counts (>>block-loop): the
                                    whole weight and each block's input rows in shared memory, mma.sync
                                    with no gathers (sm_80 and up). TF32 math (HALF where in_channels
                                    is a multiple of 16: its f16 kernels), float32 NCDHW tensors,
                                    groups 1, in_channels a multiple of 8 up to 32, out_channels up to
                                    64, a weight that fits beside two input blocks; no LayerNorm over W.
                                    AUTO takes it where it can and neither the haloed loop nor the
                                    warp-row loop is taken */
    FC3D_MAIN_LOOP_WARP_ROWS = 5, /* the warp-row loop for the up-sampling convolution (>>warp-row-loop):
                                    a warp an output row, x copied once per run as f16 [n][d][h][w][c],
                                    ldmatrix and mma.sync m16n8k16 (sm_80 and up). TF32 or half math,
                                    float32 NCDHW tensors, groups 1, in_channels 16, out_channels up
                                    to 32, kernel 3, stride 2, padding 1, dilation 1 along every dim,
                                    input H and W up to 32, ops each fixed by (n, c) (no LayerNorm).
                                    AUTO takes it where it can and the haloed loop is not taken */
    FC3D_MAIN_LOOP_COUNT_        /* not a loop */
} fc3d_main_loop;

typedef enum fc3d_op_kind {
    FC3D_OP_NONE = 0, /* invalid inside num_ops: every op must say what it is */
    FC3D_OP_SCALE,
    FC3D_OP_ADD_CHANNEL,
    FC3D_OP_RELU,
    FC3D_OP_GELU,
    FC3D_OP_GELU_TANH,
    FC3D_OP_BATCHNORM_TRAIN,
    FC3D_OP_BATCHNORM_INFER,
    FC3D_OP_GROUPNORM,
    FC3D_OP_LAYERNORM,
    FC3D_OP_SUB_SPATIAL_MEAN,
    FC3D_OP_GLOBAL_AVG_POOL,
    FC3D_OP_KIND_COUNT_ /* not an op */
} fc3d_op_kind;

/* fc3d_op.flags */
enum {
    FC3D_OP_AFFINE = 1,               /* BN, GN, LN: multiply by weight and add bias (PyTorch's affine /
                                         elementwise_affine) */
    FC3D_OP_UPDATE_RUNNING_STATS = 2, /* BATCHNORM_TRAIN: update running_mean/var in place */
    FC3D_OP_SAVE_BATCH_STATS = 4      /* BATCHNORM_TRAIN: write the batch mean and 1/sqrt(var + eps) */
};

/* How the plan runs a chain that statistics ops cut into passes (>>concepts, "Passes").
   desc.strategy forces one; NONE (0) lets the planner take the cheaper (plan.strategy says which). */
typedef enum fc3d_strategy {
    FC3D_STRATEGY_NONE = 0,
    /* The first pass runs the convolution and stores its result (after the ops before the first
       cut) as a float32 intermediate (y itself when y is float32); later passes read it back,
       apply the next piece of the chain and store it again, the last one into y. Needs y as
       large as the convolution output. */
    FC3D_STRATEGY_MATERIALIZE = 1,
    /* Every pass recomputes the convolution and nothing of its size is stored between passes;
       only the last pass stores y. The only strategy for a chain that ends in a reduction (a
       pool: y is N x C). */
    FC3D_STRATEGY_RECOMPUTE = 2
} fc3d_strategy;

/* Where a chain's statistics come from. desc.stats_plan forces one; AUTO (0) lets the planner take
   the cheapest the chain allows (plan.stats_plan says which). */
typedef enum fc3d_stats_plan {
    FC3D_STATS_PLAN_AUTO = 0,
    /* A cut before every statistics op; each op's statistics are gathered by a pass of their own
       over the values it normalises. Any chain. */
    FC3D_STATS_PLAN_PER_OP = 1,
    /* One convolution pass gathers the sums and sums of squares of its result per (n, c), and
       every statistics op's statistics are derived from them (the ops in between map each
       (n, c) slab by an affine function, which carries the sums along). For chains whose ops
       from the first statistics op on are all scale, add_channel, batchnorm (either), groupnorm,
       sub_spatial_mean or a final global_avg_pool, with two or more statistics ops among them:
       L2/77's scale -> batchnorm -> pool takes one convolution pass, L2/15's batchnorm ->
       sub_spatial_mean two. */
    FC3D_STATS_PLAN_MOMENTS = 2,
    /* The per-(n, c) means of the convolution are linear in x: sum over the output of
       conv[n, c] = |out| bias[c] + sum over input channels ci and taps t of weight[ci, c, t] times
       the sum of x[n, ci] over the input box whose tap t lands inside the output. So a chain whose
       ops are all scale, add_channel, batchnorm_infer, sub_spatial_mean or a final
       global_avg_pool needs no pass over the output for its statistics: a pass over x gives them,
       and one convolution pass applies the chain (none when it ends in the pool). */
    FC3D_STATS_PLAN_LINEAR = 3
} fc3d_stats_plan;

/* Convolution desc: torch.nn.ConvTranspose3d(in_channels, out_channels, kernel, stride, padding,
   output_padding, groups, bias, dilation) applied to an input of N x C_in x D x H x W.
   Arrays are indexed [0] = D, [1] = H, [2] = W.

   field            default   valid
   batch            -         > 0
   in_channels      -         > 0, divisible by groups
   out_channels     -         > 0, divisible by groups
   in_size[3]       -         > 0
   kernel[3]        -         > 0
   stride[3]        1 (0)     >= 1
   padding[3]       0         >= 0
   output_padding[3] 0        >= 0 and < max(stride, dilation)
   dilation[3]      1 (0)     >= 1
   groups           1 (0)     >= 1
   bias             0         0 = no bias, nonzero = bias of out_channels elements */
typedef struct fc3d_conv_desc {
    int batch;
    int in_channels;
    int out_channels;
    int in_size[3];
    int kernel[3];
    int stride[3];
    int padding[3];
    int output_padding[3];
    int dilation[3];
    int groups;
    int bias;
} fc3d_conv_desc;

/* One epilogue op.

   field      used by                         default     valid
   kind       all                             -           a fc3d_op_kind other than NONE
   value      SCALE                           0 (a real 0) finite
   eps        BATCHNORM_*, GROUPNORM, LAYERNORM 1e-5 (0)  finite, >= 0
   momentum   BATCHNORM_TRAIN                 0.1 (0)     [0, 1]
   groups     GROUPNORM                       -           > 0, divides out_channels
   norm_dims  LAYERNORM                       -           1..4: normalise over the last 1..4 dims
                                                          of N x C x D x H x W
   flags      BATCHNORM_*, GROUPNORM, LAYERNORM: FC3D_OP_AFFINE;
              BATCHNORM_TRAIN also FC3D_OP_UPDATE_RUNNING_STATS, FC3D_OP_SAVE_BATCH_STATS
   A field an op kind does not use must be zero. */
typedef struct fc3d_op {
    fc3d_op_kind kind;
    float value;
    float eps;
    float momentum;
    int groups;
    int norm_dims;
    unsigned flags;
} fc3d_op;

/* Everything a plan computes.

   field      default
   conv       see fc3d_conv_desc
   layout     FC3D_LAYOUT_NCDHW (0)
   dtype      FC3D_DTYPE_F32 (0)
   math       FC3D_MATH_FP32 (0)
   engine     FC3D_ENGINE_AUTO (0): the planner chooses
   strategy   FC3D_STRATEGY_NONE (0): the planner chooses by cost
   stats_plan FC3D_STATS_PLAN_AUTO (0): the planner chooses by cost
   main_loop  FC3D_MAIN_LOOP_AUTO (0): the haloed loop, else the warp-row loop, else the block loop,
              else wgmma, where the plan and the run allow it, else mma.sync
   smem_per_block  FC3D_SMEM_PER_BLOCK_MAX (0): the shared memory a block may take on the device
              that will run the plan, in bytes (cudaDevAttrMaxSharedMemoryPerBlockOptin); the
              planner takes no kernel past it. Below sm_90's 227 KB the Hopper loops are not
              taken; below FC3D_SMEM_PER_BLOCK_TC (99 KB: a device older than sm_80) the
              implicit-GEMM engine is not. A run on a device that grants less than the plan's
              kernels take is refused, nothing launched, with the figure to plan with (sm_86 /
              sm_89: 101376)
   num_ops    0 (the convolution alone)
   ops[]      see fc3d_op; only ops[0 .. num_ops-1] are read */
typedef struct fc3d_plan_desc {
    fc3d_conv_desc conv;
    fc3d_layout layout;
    fc3d_dtype dtype;
    fc3d_math math;
    fc3d_engine engine;
    fc3d_strategy strategy;
    fc3d_stats_plan stats_plan;
    fc3d_main_loop main_loop;
    int smem_per_block;
    int num_ops;
    fc3d_op ops[FC3D_MAX_OPS];
} fc3d_plan_desc;


typedef enum fc3d_source {
    FC3D_SOURCE_CONV = 1,         /* the pass computes the convolution from x and weight */
    FC3D_SOURCE_INTERMEDIATE = 2, /* the pass reads back the intermediate the previous pass stored */
    FC3D_SOURCE_INPUT_SUMS = 3    /* the pass reads x and the weight only: the per-(n, c) sums of the
                                     convolution from box sums of x (FC3D_STATS_PLAN_LINEAR) */
} fc3d_source;

/* Where a pass stores its result. The intermediate is float32 always: it is y itself when y is
   float32, and a buffer in the workspace when y is 16-bit (so normalisation statistics are not
   taken from values already rounded to 16 bits). */
typedef enum fc3d_store {
    FC3D_STORE_NONE = 0,         /* only statistics leave the pass */
    FC3D_STORE_INTERMEDIATE = 1,
    FC3D_STORE_Y = 2             /* the final values, in y's type and layout */
} fc3d_store;

/* One pass over the output: computes its values from `source`, applies ops[op_begin, op_end),
   stores the result as `store` says, and gathers the statistics of that result for ops[stat_op]
   (-1: none). With `moments` set it gathers the per-(n, c) sums and sums of squares of its result,
   from which ops[stat_op] and every statistics op after it take theirs (FC3D_STATS_PLAN_MOMENTS).
   flops and bytes are what the pass costs as the plan's engine runs it (plan.exec_flops). */
typedef struct fc3d_pass {
    fc3d_source source;
    int op_begin;
    int op_end;
    fc3d_store store;
    int stat_op;
    int moments;
    double flops;
    double bytes;
} fc3d_pass;

/* Elements of each float32 tensor an op binds at run time; 0 means the op does not use that
   tensor and its pointer must be NULL. */
typedef struct fc3d_op_tensor_sizes {
    int64_t weight;
    int64_t bias;
    int64_t running_mean;
    int64_t running_var;
    int64_t save_mean;
    int64_t save_invstd;
} fc3d_op_tensor_sizes;

/* Private parts of a plan (declared here only so that the plan is a plain caller-owned struct):
   what the chosen engine planned, built once by fc3d_plan_init and only read by fc3d_plan_run. */
#define FC3D_MAX_STEPS_ 64
#define FC3D_MAX_WS_REGIONS_ (FC3D_MAX_OPS + 8)
#define FC3D_ENGINE_DATA_BYTES_ 4096
typedef struct fc3d_geom_ {           /* the convolution, defaults filled in, as 64-bit extents */
    int64_t n, cin, cout, di, hi, wi, d, h, w;
    int k[3], s[3], p[3], dl[3];
    int groups, layout;
} fc3d_geom_;
typedef struct fc3d_stat_geom_ {      /* the statistics groups of one statistics op */
    unsigned keep;                    /* logical dims (bit 0 = N .. bit 4 = W) a group keeps */
    int64_t cpg;                      /* channels per group when channels are grouped, else 1 */
    int64_t groups;                   /* number of groups */
    int64_t slots;                    /* partials per group, set by the engine that produces them */
    double count;                     /* elements per group */
} fc3d_stat_geom_;
typedef struct fc3d_step_ {           /* one physical step (a kernel launch) */
    int kind;                         /* what the step does (>>steps) */
    int pass;                         /* the logical pass it belongs to */
    int stat_op;                      /* the statistics op it produces or finalizes, -1 none */
    int variant;                      /* which instantiation of the kernel */
    unsigned grid, block, smem;
    int64_t arg[8];                   /* built at plan time; meaning per kind */
    double flops, bytes;              /* what it issues and moves (_fc3d_plan_costs; describe) */
} fc3d_step_;
typedef struct fc3d_ws_region_ {
    int id;                           /* which region (>>workspace) */
    size_t offset, bytes;             /* from the aligned base */
} fc3d_ws_region_;
typedef struct fc3d_plan_private_ {
    fc3d_plan_desc desc;              /* what the steps were planned for; fc3d_plan_run checks that
                                         the public copy still matches */
    int num_passes;
    fc3d_pass passes[FC3D_MAX_PASSES];
    fc3d_geom_ geom;
    fc3d_stat_geom_ stat[FC3D_MAX_OPS + 1]; /* per op; [FC3D_MAX_OPS]: per-(n, c) moments */
    int num_alts;                     /* the (strategy, stats plan) alternatives the chain allowed */
    int alt_strategy[5], alt_stats_plan[5], alt_engine[5];
    double alt_ms[5];                 /* each one's estimated time (est_ms), -1: its engine refused */
    double alt_floor_ms[5];           /* and its floor */
    double est_ms;                    /* the planner's estimate of the chosen plan's time (>>planning) */
    int num_steps;
    fc3d_step_ steps[FC3D_MAX_STEPS_];
    int num_regions;
    fc3d_ws_region_ regions[FC3D_MAX_WS_REGIONS_];
    size_t ws_used;                   /* bytes from the aligned base */
    union {                           /* what the chosen engine planned for its own kernels */
        int64_t align_;
        double align_d_;
        unsigned char bytes[FC3D_ENGINE_DATA_BYTES_];
    } engine_data;
} fc3d_plan_private_;

/* A plan: fill it with fc3d_plan_init. Every public field is an output; read them, don't write
   them (fc3d_plan_run refuses a plan whose desc or passes were changed). */
typedef struct fc3d_plan {
    fc3d_plan_desc desc;            /* the desc, defaults filled in */
    fc3d_result result;             /* what fc3d_plan_init returned */
    char message[FC3D_MESSAGE_LEN]; /* result's message with the field, values and op index */
    int64_t conv_size[3];           /* D, H, W of the convolution output */
    int64_t y_dims[5];              /* N, C, D, H, W of y (logical order, whatever the layout) */
    int64_t y_elements;             /* elements of y */
    int64_t x_elements;             /* elements of x */
    int64_t weight_elements;        /* elements of the weight */
    fc3d_op_tensor_sizes op_tensors[FC3D_MAX_OPS]; /* what fc3d_run_args.ops[i] must bind */
    double flops;                   /* 2 * multiply-adds of the convolution (dense count): the useful FLOPs */
    double exec_flops;              /* FLOPs the plan executes: the engine's multiply-adds x 2 (on tensor
                                       cores for implicit_gemm, padding of its tiles included), times
                                       the passes that compute the convolution */
    double exec_bytes;              /* device-memory bytes its steps read and write (each tensor once
                                       per step that streams it; statistics partials, the engine's
                                       operand copies and the sectors of partial stores included;
                                       with the haloed loop's copies where the plan has that loop) */
    double floor_ms;                /* the time those imply on an H100 (fc3d_plan_floor_ms with 0, 0) */
    fc3d_engine engine;             /* the engine that runs the plan */
    fc3d_strategy strategy;
    fc3d_stats_plan stats_plan;
    fc3d_main_loop main_loop;       /* implicit_gemm: HALO or WGMMA where a run may take that loop (it
                                       does where the device and binary allow; fc3d_plan_main_loop
                                       says), BLOCK (every sm_80+ device), else MMA_SYNC; AUTO for the
                                       direct engine */
    int num_passes;
    fc3d_pass passes[FC3D_MAX_PASSES];
    size_t workspace_bytes;         /* device bytes fc3d_plan_run needs; alignment slack included */
    fc3d_plan_private_ _private;
} fc3d_plan;

/* Tensors for one op, bound at run time. All float32, device memory; NULL where the op does not
   use the tensor (binding one it does not use is an error, so a mismatched chain is caught).

   field         ADD_CHANNEL  BATCHNORM_TRAIN          BATCHNORM_INFER  GROUPNORM / LAYERNORM
   weight        -            [C] if AFFINE            [C] if AFFINE    [C] / [normalized] if AFFINE
   bias          [C]          [C] if AFFINE            [C] if AFFINE    [C] / [normalized] if AFFINE
   running_mean  -            [C] rw if UPDATE         [C] read         -
   running_var   -            [C] rw if UPDATE         [C] read         -
   save_mean     -            [C] written if SAVE      -                -
   save_invstd   -            [C] written if SAVE      -                -
   LAYERNORM's [normalized] is its trailing dims of the logical N x C x D x H x W output, stored
   contiguously in that logical order (W; H,W; D,H,W; C,D,H,W), whatever the layout of y. */
typedef struct fc3d_op_tensors {
    const float* weight;
    const float* bias;
    float* running_mean;
    float* running_var;
    float* save_mean;
    float* save_invstd;
} fc3d_op_tensors;

/* What one run binds. x, weight, bias and y are device pointers of the plan's dtype. */
typedef struct fc3d_run_args {
    const void* x;
    const void* weight;
    const void* bias; /* NULL when the conv has no bias */
    void* y;
    fc3d_op_tensors ops[FC3D_MAX_OPS];
    void* workspace;        /* device memory, plan.workspace_bytes or more; any alignment */
    size_t workspace_bytes; /* its size */
    void* stream;           /* a cudaStream_t (0 = the legacy default stream); void* so that the
                               declarations need no CUDA header */
} fc3d_run_args;

typedef struct fc3d_message {
    char text[FC3D_MESSAGE_LEN];
} fc3d_message;

/* >>api -----------------------------------------------------------------------------------------*/

/* Bytes of one element of a dtype (4 for F32 and DEFAULT, 2 for F16 and BF16, 0 if unknown). */
FC3D_API size_t fc3d_dtype_size(fc3d_dtype dtype);

/* The name of an engine ("auto", "direct", ...; "unknown" for a value that is not an engine). */
FC3D_API const char* fc3d_engine_name(fc3d_engine engine);

/* The message for a result code (static storage; never NULL; unknown codes give a fixed text). */
FC3D_API const char* fc3d_result_string(fc3d_result result);

/* desc with every zero-means-default field replaced by its default. Does not validate.
   desc: host, read. Returns the filled copy (a zeroed desc if desc is NULL). */
FC3D_API fc3d_plan_desc fc3d_plan_desc_defaults(const fc3d_plan_desc* desc);

/* Fills in the defaults, validates the filled desc and fills plan: output shape, engine, strategy,
   passes, the engine's steps and the workspace size. Host only: makes no CUDA call and needs no GPU.
   plan: host, written whole (on failure too: result and message say why; a failed plan cannot run).
   desc: host, read; not retained.
   Returns FC3D_SUCCESS, FC3D_ERROR_NULL_ARGUMENT, FC3D_ERROR_SIZE_OVERFLOW, one of the
   FC3D_ERROR_CONV_*, _LAYOUT, _DTYPE, _MATH, _ENGINE, FC3D_ERROR_NUM_OPS and FC3D_ERROR_OP_* codes,
   FC3D_ERROR_ENGINE_REFUSED when desc.engine forces an engine that cannot implement the desc,
   FC3D_ERROR_STRATEGY / FC3D_ERROR_STATS_PLAN when desc.strategy / desc.stats_plan force one the
   chain cannot take.
   Reentrant. */
FC3D_API fc3d_result fc3d_plan_init(fc3d_plan* plan, const fc3d_plan_desc* desc);

/* The least time the plan's steps can take on a machine that moves bytes_per_second (bytes read
   plus written) and computes flops_per_second in the plan's math mode: the sum over its passes of
   max(pass bytes / bandwidth, pass FLOPs / rate). 0 for either rate takes the H100 figures of
   fc3d_plan.floor_ms (a 2945 GB/s copy; 403 TF32, 52 FP32 and 732 FP16 TFLOP/s, the FP32 mode on
   tensor cores as 3 products at the TF32 rate, at the FP16 rate where the plan takes the haloed
   loop, which forms them from f16 parts; the TF32 mode there at the FP16 rate too: its TF32
   operands are held as f16). Returns -1 for a plan that did not initialise. */
FC3D_API double fc3d_plan_floor_ms(const fc3d_plan* plan, double bytes_per_second, double flops_per_second);

/* The main loop a run of plan would take now, on the current device with this binary: MMA_SYNC,
   WGMMA, HALO or BLOCK for implicit_gemm plans, AUTO for others; -1 (as an int) for a plan that did not
   initialise. A host-side query: no launch, no synchronisation. Only in the translation unit
   compiled by nvcc with the implementation. */
FC3D_API int fc3d_plan_main_loop(const fc3d_plan* plan);

/* Writes a human-readable summary of the plan (shape, engine and why the engines before it refused,
   strategy and the alternatives' costs, passes with their FLOPs and bytes, the engine's steps,
   workspace) into buf
   (host, buf_size bytes, always NUL-terminated when buf_size > 0). Returns the length the full
   text needs, like snprintf. */
FC3D_API int fc3d_plan_describe(const fc3d_plan* plan, char* buf, size_t buf_size);

/* Enqueues the plan's passes on args->stream. Checks the bound tensors first (NULL, alignment,
   workspace size, and that nothing the run writes - y, the workspace, updated or saved
   statistics - overlaps another bound tensor); on any such error nothing is launched or written.
   Does not synchronise and allocates nothing: a call on a stream being captured into a CUDA graph
   records its launches (and memsets) there, in any capture mode. Running statistics of a training
   BatchNorm with UPDATE are updated in place, once per run.
   plan: host, read (shared by concurrent runs safely).  args: host, read; the tensors it names
   are device memory. message: host, optional (NULL); receives the detail of an error, "" on success.
   Returns FC3D_SUCCESS, FC3D_ERROR_NULL_ARGUMENT, FC3D_ERROR_PLAN_INVALID (never initialised,
   failed, or its desc or passes changed since), one of the FC3D_ERROR_ARG_* codes, or FC3D_ERROR_CUDA: no CUDA device is usable or an error from an earlier
   CUDA call is still pending (nothing is launched: clear it with cudaGetLastError and call again),
   or a launch failed (later passes are then not launched; the outputs are undefined).
   Only in the translation unit compiled by nvcc with the implementation. */
FC3D_API fc3d_result fc3d_plan_run(const fc3d_plan* plan, const fc3d_run_args* args,
                                   fc3d_message* message);

#ifdef __cplusplus
}
#endif

#endif /* FUSEDCONV3D_H */

/* ================================================================================================
   >>implementation
   ================================================================================================ */
#if defined(FUSEDCONV3D_IMPLEMENTATION) && !defined(FUSEDCONV3D_IMPLEMENTED_)
#define FUSEDCONV3D_IMPLEMENTED_

/* Design note
   -----------
   Layers. fc3d_plan_init fills the defaults, validates the filled desc, derives the logical passes
   from the chain (engine-independent), asks the engines in priority order which can implement the
   desc, lets the chosen one plan its physical steps and add its workspace regions, and stores all
   of it in the plan (plan._private). fc3d_plan_run checks the bound tensors and then one executor
   walks the steps, binding only the pointers: nothing of the plan's geometry is rebuilt per run.

   Engines (>>engines: one table, in priority order; each engine is a section of its own).
   - implicit_gemm (>>engine-implicit-gemm), first: the output split into stride phases, each a
     dense stride-1 correlation with a sub-kernel (no multiplications by the zeros that the stride
     inserts), run as an implicit GEMM on tensor cores with mma.sync (sm_80 and up): TF32 with
     operands rounded to nearest, ties to even (cuDNN 9.19's TF32 convolution on the H100 matches
     it: rel-L2 2.2e-7 / 6.2e-7 on L2/15's / L2/34's convolution, FP32 noise, against 5.2e-6 /
     9.1e-6 for ties away from zero, whose 1-in-8192 tied operands, amplified by the norms after
     the convolution, failed KernelBench's allclose), FP32-accurate math as 3xTF32, HALF as
     f16/bf16 operands. The pass's ops run on the accumulators before the one store (those fixed
     by (n, c) resolved once per channel and applied kind by kind to a lane's values in registers:
     L2/34's GEMM step 6.06 -> 4.71 ms, L2/61's 3.41 -> 3.31, ncu; others through the op
     interpreter at each value's coordinates); statistics partials come from the tiles. Whole-row
     tiles (W phases <= 2, output W <= 128) hold every W phase of some output rows, so a
     LayerNorm over W takes its statistics from the rows in the epilogue: a materializing chain
     then stores y once with no pass over the intermediate (L2/34: one GEMM step), a recomputing
     one drops the pass that would gather them. It refuses descs past its grid and indexing
     limits, and per-row or per-plane statistics in a recomputing pass that whole-row tiles cannot
     hold; other passes that read the intermediate back run as direct passes. A CTA owns a 128-row tile of one phase: 8 warps (4 x 2, 32-row warp tiles) for TF32
     and for HALF up to 64 channels, 4 warps (64-row warp tiles) for 3xTF32, whose per-chunk
     accumulators need the registers, and for HALF at 128 channels, which is bound by shared-memory
     fragment loads (8 warps measured 2.59 -> 2.86 ms there; for TF32 they took L2/61 from 2.62 to
     2.38 ms and L2/15 from 0.69 to 0.56: two warps per scheduler did not hide the MMA and
     fragment-load latencies). Tiles run level by level (the same output region of every phase
     side by side): stride-s stores meet in L2 (L1/77 1.08 -> 0.90 ms, a third of its DRAM
     traffic gone). A chunk that is one tap's consecutive channels loads its weight rows at one
     offset (no per-row descriptor; L2/61 2.40 -> 2.19 ms). Measured (H100, f32 NCDHW, TF32,
     convolution alone, `build/conv_alone 20`, bench/RESULTS.md): 0.41 / 5.38 / 2.47 / 2.19 /
     0.88 ms on L2/15 / L2/77 / L2/34 / L2/61 / L1/77 against cuDNN's 0.79 / 4.9 / 2.5 / 2.8 / 2.0
     (100-106 useful TFLOP/s on the two large ones); FP32 math (3xTF32) costs 1.5x (L1/77) to 2.5x (L2/77, 38 TFLOP/s). It is still
     latency- and issue-bound (ncu, L2/61 TF32: tensor pipe 34 %, 0.76 of 3.96 warps eligible per
     scheduler, DRAM 4 %, top stalls wait, short scoreboard, barrier; about 8 instructions per MMA:
     fragment LDS, the two instructions cvt.rna compiles to, the 4-byte gather). Measured and not
     kept: a haloed input block in shared memory (slower on all five), 16-byte fragment loads from
     a permuted layout (no faster for TF32: a warp's scalar LDS is one wavefront, so the shared
     traffic was the same), whole-row tiles for every pass with two W phases (L2/15 1.5x slower).
     L2/34 on whole-row tiles: its epilogue (LayerNorm statistics and normalisation, erf GELU)
     costs about as much as the GEMM: one warp per row measured 11.9 ms, one thread per row 8.4, a
     group of 4 lanes per row of 64 7.9, 5.3 with 8 warps, 4.9 with the row in registers and the
     normalisation in float, 3.8 with the GELU and scale resolved per channel (chain, example
     timer; the convolution alone is 2.6 ms).
     The Hopper main loop (FC3D_MAIN_LOOP_WGMMA; _fc3d_tc_main with WG): in an sm_90a image
     (-gencode arch=compute_90a,code=sm_90a, which the runtime loads on an sm_90 device in
     preference to plain sm_90 code: _fc3d_wg_probe_kernel tells the run which image it has, no
     launch), chains with C_in/groups a multiple of 16 (a K chunk = 32 channels of one tap, or 16 of
     each of two taps) run each warpgroup's 64 rows x BN as one wgmma per step (8 CTA warps, two
     warpgroups): TF32
     m64nBNk8 per 8-deep step; HALF m64nBNk16 (f16, or bf16 for bf16 data) per 16-deep step;
     3xTF32 three m64nBNk8 per step (small*big, big*small, big*big) into a chunk accumulator whose
     first MMA ignores its old value, added into the FP32 sum with IEEE adds, and for short K a
     fresh one per step with small*small as well, added per step. A in registers from the same
     staged tile and rounding/splitting as mma.sync's, B read by the tensor cores from shared
     memory in the K-major core-matrix layout the weight re-layout writes for it (8 output
     channels x 16 bytes of input channels: 128 B apart along K, 1024 B (TF32) or 512 B (16-bit)
     along N; no swizzle; 3xTF32 copies the small parts' block beside the big one), so no B
     fragment loads and a sixteenth of the MMA instructions. Tile order, gathers, tables and
     epilogue are the mma.sync loop's, with two differences: chunks go channel block by channel
     block with the taps inside (consecutive chunks gather the same input lines shifted by a tap,
     which L1 still holds), and BN = 128 runs 2 stages, which leaves L1 60 KB instead of 28 (L1
     hit rate 9 -> 41 %; conv alone TF32 L2/77 4.05 -> 3.90 ms, L2/61 1.74 -> 1.68, HALF 3.49 ->
     3.24, 1.55 -> 1.46). ncu (L2/61, TF32) then puts L2 at 40 % of its throughput and the
     tensor pipe at 31 %: the loop issues about 320 instructions a warp per chunk (gathers and
     their 64-bit addresses, fragment loads and their rounding, warp 0's chunk table) and waits
     on its barrier; each warpgroup finishes a chunk every ~3,000 cycles while its MMAs take
     ~250. Warp 0, which describes each chunk for the CTA, now reads a table of the tile's taps
     that it fills once instead of ~150 instructions of 64-bit arithmetic a chunk that held every
     warp at the next barrier (TF32 L2/77 3.89 -> 3.60 ms, L2/61 1.70 -> 1.60, L2/34 2.35 ->
     2.28). Not kept (bench/RESULTS.md): the weight block by one bulk copy on an mbarrier (slower
     by 2-3 %), every thread walking the chunks itself (more instructions in all), rounding by an
     added half ulp (the tensor cores ignore the low 13 bits; no faster) with one mad.wide per
     gather address (more registers: L2/15's BN = 32 kernel fell from 3 CTAs an SM to 2, 30 %
     slower). Measured (conv alone, H100, `build/conv_alone 20`, mma.sync
     -> wgmma in one run): TF32 L2/61 2.23 -> 1.78 ms (104 -> 130 useful TFLOP/s), L2/77 5.41 ->
     4.12 (99 -> 130), L2/34 2.54 -> 2.35, L1/77 0.89 -> 0.87; 3xTF32 L2/77 13.9 -> 9.66 (39 -> 56),
     L2/61 5.72 -> 4.00, L2/34 4.93 -> 3.51, L1/77 1.44 -> 1.00; HALF L2/77 5.03 -> 3.52 (107 ->
     153), L2/61 2.18 -> 1.57, L2/34 2.69 -> 2.26, L1/77 0.94 -> 0.85. L2/15 (C_in 16, the two-piece
     chunks; two runs): TF32 0.41 -> 0.41, 3xTF32 1.05 -> 0.59, HALF 0.54 -> 0.40. ncu (L2/61):
     the tensor pipe busy about 30 % of the time; the top stalls are the CTA barrier (every warp
     waits for the slowest one's gathers) and the wait for each chunk's MMAs; L1 69 % (4-byte
     gathers, the row and tap tables, B read once per warpgroup). Short K is worse: the tensor pipe
     is busy 11 % on L2/34 (8 chunks a tile) and 4 % on L2/15 (1-4), whose tiles spend as long in
     tables, pipeline fill and epilogue as in MMAs (stalls: fixed-latency waits, the barrier, shared
     loads). Measured and not kept: 4 stages
     with one chunk's MMAs left in flight across the barrier (one CTA per SM, and ptxas serialises
     the MMAs: L2/61 2.64 ms); issuing the next chunk's gathers behind the MMAs (no change); the
     gather rows kept in registers (no change); warp specialisation, 4 producer warps gathering
     into 5 stages on mbarriers for two consumer warpgroups, no CTA barrier (one CTA per SM: L2/61
     2.04 ms, the consumers wait for data); A read by the tensor cores from shared memory too, out
     of a channels-last TF32-rounded copy of x made per run, 16-byte gathers into K-major core
     matrices (L2/61 2.08 ms with the copy). That last one showed the bound: every 128 x 128 tile
     streams its A and B chunks from L2, 8.8 GB for L2/61's 232 GFLOP (38 bytes per kFLOP), and
     ncu put L2 throughput at 77 % once the gathers were cheap. What the rest needs is fewer operand
     bytes per FLOP: the haloed input block per channel chunk in shared memory, reused by every
     tap (A: 6-13x less), and M = 256 per CTA (a 2-CTA cluster multicasting B, 2x less, was later
     measured slower on the haloed loop: bench/RESULTS.md, nineteenth entry); then
     a producer (TMA) on an mbarrier ring and a persistent grid. A loop built that way, measured
     outside the library so far (bench/halo_loop.cu; bench/RESULTS.md, seventh entry): x copied once
     per run into a zero-padded channel-grouped operand copy, a phase's positions numbered as rows of
     the padded plane so that every tap reads the tile's rows at a constant offset, one bulk copy
     per channel group and d tap for all (h, w) taps, each tap a descriptor at another start row,
     the GEMM transposed (m64n256: 64 output channels x 256 rows per wgmma), a producer lane on two
     mbarrier rings. Conv alone, TF32 (with the copies), same run: L2/77 2.11 ms (254 useful
     TFLOP/s) against this loop's 3.64, L2/61 1.02 against 1.61; HALF 1.17 (459) and 0.67 (347).
     That loop is now the engine's haloed main loop (FC3D_MAIN_LOOP_HALO, section "Haloed tiles"
     below _fc3d_tc_main): the prep step makes the weight pieces and the operand copy of x (a
     workspace region of N x C_in x the padded volume x 4 bytes in TF32 and FP32, 2 in half) and
     the decoded tiles' table, in one launch (_fc3d_hx_prep: the table's latency-bound decoding and
     the small pieces beside the copy's bandwidth-bound pass; as three launches L1/77's convolution
     took 0.308 ms TF32, 0.392 FP32, 0.263 half, in one 0.298, 0.383, 0.255; bench/RESULTS.md
     twenty-eighth entry), once per convolving pass, the tiled loops' epilogue and statistics partials (slots sized by the tiled
     loops' tile count, the surplus zeroed, so the plan does not depend on the device). The planner
     gives it plans in every math mode on float32 tensors with in_channels / groups a multiple of 32
     and (n, c) slabs below 2^31 elements
     (with a LayerNorm over W only at W stride 2: the row tiles below), where an output sums 128
     products or more on average, over the tapped outputs where the step zero-fills the tap-less
     ones (_fc3d_tc_zero_fill): L1/77 (102 products an output, 7 of 8 phases tap-less) measured
     0.99 ms haloed against 0.85 tiled when the haloed loop ran every phase; behind the zero fill
     it runs the tapped phase's tiles only (864 products a tapped output) and L1/77 took 0.544 ->
     0.471 ms TF32, 0.523 -> 0.379 half against the tiled loop behind the same fill (conv alone,
     one run, two rounds; rel-L2 against the direct engine 2.6e-4 either way), then with a grid of the tapped phase's
     tiles only (73 a sample instead of 600 that mostly returned at once; ncu: main kernel 292 ->
     226 us) 0.471 -> 0.421 and 0.380 -> 0.367. Then no fill at all where each dim of stride 2
     has one tapped residue (_fc3d_hx_zc_dims, NCDHW): plane-row tiles of the tapped phase each
     store the whole block of y around their outputs, zeros included, 16-byte stores of zeros
     and the values over them, so that every line of y reaches DRAM once, whole (ncu, TF32: 546
     MB written and 66 read, against the fill's 571 MB and then 139 MB written and 178 read back
     for the half sectors), with one weight slot fewer where that lets a second CTA onto the SM
     (_FC3D_HX_ZC_NB: one tile's stores beside the other's MMAs): L1/77 0.347 -> 0.308 ms TF32,
     0.296 -> 0.264 half, 0.401 -> 0.393 FP32 (conv alone, one H200 run, two rounds; bench/RESULTS.md,
     twenty-seventh entry). Each run (a channel's plane, the tile's whole rows) then starts and ends
     inside a 32-byte sector that the neighbouring tile's run completes (65-value rows); replayed
     without the convolution (bench/zc_store.cu), those stores took 0.242 ms against a memset's
     0.182 and 0.208 with every run widened to whole sectors, while no store order, a fifth as many
     runs five times longer, or eight storing warps came near. Where every run starts with an
     untapped row of 8 values or more (H stride 2, odd rows tapped: L1/77), each run now leaves the
     sector it starts in to the run before it and carries its last sector to the end
     (_fc3d_zero_run_sectors: zeros, so two tiles never write one byte): L1/77's convolution 0.296
     -> 0.278 ms TF32, 0.292 -> 0.274 half, 0.396 -> 0.391 FP32 (H100, three rounds alternated in one
     call; ncu 286.6 -> 273.2 us, the same 547.5 MB written; `make bench` 0.277 ms, 1.35x its floor;
     bench/RESULTS.md seventieth entry). The zeros stored beside the MMAs instead measured slower (twenty-
     eighth entry): by a sixth warp 0.309 -> 0.421 ms TF32 (one warp's stores too slow for the
     consumers waiting on them), by the producer's bulk copies from zeroed shared memory 0.355
     (the early stores slowed the MMAs' operand traffic) or 0.439 with every plane so (zeros that
     left L2 before their values came: 226 MB read back), and again after the sectors: a tile's
     tap-less planes stored by its consumers before its first MMA, 0.281 -> 0.293 ms TF32 in every
     other first-wave CTA, 0.294 in every CTA; those planes by bulk copies out of zeroed shared
     memory after the MMAs, 0.279 -> 0.279. Taken apart (seventy-first entry), the kernel without
     its MMAs takes as long (0.280 ms), without its stores 0.095: its time is its stores, ~30 us
     slower than the same stores replayed alone, plus ~15 us a tile before its first store (its
     table, x's units, the weight's 27 pieces through 4 slots); six slots measured 0.277-0.278 (within
     1 %), and the tapped plane stored in one pass (each 16-byte group its values and zeros; 6 of
     the 13 us the values cost the replay) took 0.408 as first written (seventy-second entry;
     branch wip/zc-onepass) and 0.278 -> 0.323-0.326 rewritten without the ops' call, a division a
     run and predicated staging reads (seventy-third entry; branch wip/zc-onepass2): the two passes
     stay. Traced (bench/hx_trace.cu), a tile stores for ~71,000 cycles after ~17,000 of MMAs and
     ~5,000 for its first unit, and for 23 % of an SM's span neither of its two CTAs is storing;
     starting half of the first wave up to 45,000 cycles late moved that by at most 3 points and
     the time not at all (the CTAs of an SM drift back together). A tile loop whose stores of one
     tile run beside the next tile's MMAs was then built and measured slower (branch
     wip/tiles-ws, _fc3d_hx_tiles_ws; bench/RESULTS.md seventy-seventh entry): a persistent CTA an
     SM, a consumer warpgroup multiplying and staging, epilogue warps storing the staged tile
     (this loop's epilogue, shared), a producer lane, two staging buffers: L1/77 0.279 -> 0.302 ms
     TF32 with four storing warps, 0.285 with seven, 0.288 with the weight resident (108 KB, copied
     once a CTA: 1.32 -> 1.23 GB through L2 under ncu, no faster); L2/61's convolution 0.531 ->
     0.551 and its chain 0.795 -> 0.802 with one consumer warpgroup an SM. ncu on L1/77: L2 at
     74-80 % of its throughput and DRAM at 63-70 % in every form, 550 MB written: the stores run
     no faster when they never pause, so the pauses are not what holds this kernel. L2's sectors
     are: under ncu the kernel (251 us) and its stores replayed alone (204 us) both go through
     165-170 M L2 sectors a millisecond, the kernel 41.4 M of them, the replay 34.6 M (the stores'
     22.5 M from the SMs and 11.5 M between L2's two partitions in each; the kernel's operand
     reads 6.0 M more, three quarters of them the weight's 27 pieces read again by every tile).
     The weight's are not worth much: a timing-only build copying 3 of a tile's 27 pieces (2.85 M
     sectors fewer) took 0.278 -> 0.273 ms TF32; the units' reads and the values' 4.2 M
     half-written sectors over the zeros are what is left of the 13 us to 1.3x the floor. The
     sector runs' zeros are st.global (their start kept as y plus an offset; through an integer
     they were generic stores): 0.279 -> 0.278 ms TF32, within 1 %. FP32 math (3xTF32) takes it too, except for row
     tiles: x and the weight pieces in big and small parts, 16-channel units, 64-channel tiles
     whose two consumer warpgroups each multiply half of the 256 rows (m64n128, three wgmmas a K
     step into a chunk accumulator restarted every 4 (h, w) taps, its sums added into FP32 sums:
     64 + 64 registers, 162 a thread, no spills). Conv alone against the tiled wgmma loop (one
     run, two rounds): L2/77 8.40 -> 5.12 ms (64 -> 105 useful TFLOP/s), L2/61 3.43 -> 2.33,
     L1/77 0.653 -> 0.562, L2/34 2.82 -> 2.23; rel-L2 against the direct engine 1.5e-6 on L2/77
     (the tiled loop 1.5e-6; chunks of a whole unit, 25 taps: 3.0e-6 and 1-2 % faster). ncu: the
     tensor pipe active 87 % of the kernel (the TF32 kernel 93 %), three wgmmas a step its
     ceiling. Then each part went into an f16 (a TF32 part's 11 significant bits are exact there;
     x and the weight scaled by a power of two per run so their parts stay in f16's range:
     _fc3d_hx_x3_scales): the same three products a K step, as f16 wgmmas at twice TF32's rate
     and half the operand bytes. Conv alone (H200, one run, two rounds, against the TF32-part
     kernel): L2/77 5.114 -> 3.391 ms (105 -> 158 useful TFLOP/s), L2/61 2.297 -> 1.655 (101 ->
     140), L2/34 2.092 -> 1.703, L1/77 0.492 -> 0.426; rel-L2 against the direct engine 1.52e-6
     -> 1.47e-6 on L2/77; ncu: tensor pipe 67 % active. With the parts half the bytes, units of
     32 channels fit where 16 did (the same shared memory; a chunk accumulator then sums K = 128):
     L2/77 3.36 -> 2.73 ms (160 -> 197 useful TFLOP/s), L2/61 1.643 -> 1.343 (141 -> 173), L2/34
     1.689 -> 1.611, L1/77 0.425 -> 0.401 (another run, two rounds; rel-L2 1.52e-6 on L2/77).
     A chain with a LayerNorm over W in FP32 math, which the haloed loop's row tiles do not take,
     ran on the tiled loops' whole-row tiles (3xTF32 on the wgmma tiles: L2/34 4.70 ms, its
     convolution alone 1.60 on the haloed loop); in NCDHW it now runs the haloed loop without row
     tiles, stores the rows, and one read-back pass takes each row's statistics from the row
     (_fc3d_row_pass_kernel; no statistics read-back, no finalize): L2/34 4.70 -> 2.81 ms, at N
     128 18.71 -> 11.14, rel-L2 against the direct engine 5.5e-7 (4.6e-7 before; H200,
     `build/chain_loops 20 32 fp32`, bench/RESULTS.md forty-fifth entry). NDHWC keeps the row
     tiles (its rows' values a channel apart: 11.09 ms read back, 7.63 on the row tiles).
     Then the haloed row tiles took FP32 math themselves where an output sums at most 512
     products (_fc3d_hx_x3_rows; L2/34: 256): each consumer warpgroup, which holds a W phase's
     m64n256 accumulator and has no registers for a chunk accumulator, issues the three f16
     wgmmas a K step into it (units and weight slots hold both parts; the warp-specialized
     kernel keeps two weight slots of 16 KB in its 227 KB). L2/34 in FP32 (H200, `build/
     chain_loops 20 32 fp32`, two rounds, bench/RESULTS.md forty-seventh entry): the chain 2.16
     -> 1.107 ms, its convolution alone (rows stored) 1.60 -> 0.902 (86 -> 152 useful TFLOP/s),
     with a training BatchNorm after it (_fc3d_hx_main's row tiles) 11.21 -> 2.92, NDHWC 7.64 ->
     3.24; rel-L2 against the direct engine 7.2e-7 / 9.3e-7 (5.5e-7 before); `make bench`
     (forty-eighth entry): the chain 2.181 -> 1.154 ms, 13.3x -> 25.2x eager with TF32 off in the
     same process. ncu: the kernel
     1.36 ms at ncu's clock, tensor pipe 44.9 % active, 80 MB read and 1.05 GB written (y once).
     Units of 16 channels (_FC3D_HX_X3_KC 16: four weight slots fit) took the convolution alone
     0.895 -> 0.823 ms but the chain 1.110 -> 1.126, and the phase tiles measured slower at 16:
     32 stays.
     TF32 math then took the same road (_FC3D_HX_TF32_F16, kp.hx_t32): its operands, rounded to
     TF32 as before (to nearest, ties to even, after the power-of-two scale, which commutes with
     it), are the big parts alone, exact as f16, so the half kernels (f16 wgmmas, 2-byte operand
     copy and pieces) form the very products the TF32 wgmmas formed, in FP32 accumulators, and the
     sums are multiplied back by the two scales before the epilogue. The cost was 3xTF32's absmax
     launch, one read of x (four 16-byte loads in flight a thread, the last sweep first so that
     the prep step finds the start of x in L2: ncu 25 -> 18 us on L1/77, 56 -> 44 on L2/61; one
     atomic a block instead of one a warp: 17.4 -> 11.7 us, 44 -> 34-36). Now x is held as it is
     where its largest magnitude lies in [2^-4, 2^15) (_fc3d_hx_x_as_is: a value of x under 2^-14
     then errs by at most 2^-25, 2^-21 of that magnitude, against TF32's 2^-12 of it), the copy
     finding that magnitude as it goes (one max a value, one atomic a block), a launch of one wave
     making the copy again at x's scale only where it lies outside, the weight's magnitude from a
     small launch before (_fc3d_hx_wmax, a partial a block): conv alone (H200, `b90/conv_alone 20`,
     alternated, two rounds) L2/77 0.990 -> 0.973 ms, L2/61 0.577 -> 0.547, L2/34 0.681 -> 0.670,
     L1/77 0.272 -> 0.268. The prep step's index decoding then left its 64-bit divisions (367
     instructions a 16-byte group on L1/77, the SMs 69 % busy, DRAM 29 %) for multiply-shift
     divisions and 32-bit offsets where every index stays under 2^31 (_fc3d_udiv, _fc3d_hx_pdiv):
     ncu 30.1 -> 21.0 us on L1/77 (16.1 M -> 9.4 M instructions), 98 -> 61 on L2/61, 69 -> 50 on
     L2/77, 45 -> 35 on L2/34 at ncu's 1.46 GHz; at the full clock 0-1 % of the convolution
     (L2/77 0.978 -> 0.962-0.965 ms, L1/77 0.268 -> 0.264-0.266). The copy made beside the
     convolution instead (the prep on a few SMs, the convolution its programmatic dependent, each
     CTA waiting for its sample's ready word; branch wip/hx-stream) measured slower in every form
     (L2/61's convolution alone 0.554 -> 0.570 ms at best, H100; bench/RESULTS.md sixty-seventh
     entry): the copy moves 20-27 GB/s an SM however its threads are laid out (~150 instructions a
     16-byte group, its loads' latency exposed), so it needs every SM to reach DRAM's rate, and the
     convolution's 168-register warps leave no room for it beside them on an SM. The run's
     launches after the weight's magnitude (a usual launch) are programmatic dependent launches
     (_fc3d_pdl_enter): the prep step, the rescale check (256 blocks, was a wave of 1024), the
     convolution and every step after it (finalize, the read-back passes) are scheduled while the
     launch before them drains and wait for it before they touch global memory; TF32 on the f16
     path the copy of x starts beside _fc3d_hx_wmax (its blocks wait only before their atomic on
     x's magnitude word) and the weight's blocks come last and wait first (_FC3D_HX_PREP_WAT).
     Conv alone (H100, `build/c44z/go2.sh`, three rounds alternated): L2/61 0.558 / 0.558 / 0.560
     -> 0.543 / 0.550 / 0.548 ms, L2/77 0.974 -> 0.966, L1/77 0.302 -> 0.297, L2/34 0.521 ->
     0.521; L2/61's chain 0.826-0.828 -> 0.816-0.817 (example timer), L2/15's 0.188 -> 0.186. The
     weight's blocks first (their wait holding the slots the copy's first wave would take) or after
     the copy's first 1024 blocks measured alike (L2/61 0.551-0.553, 0.544-0.554); the
     convolution launched without the attribute 0.552-0.554, but L2/34's warp-specialized row
     tiles 0.516 against 0.521, so those stay a usual launch (bench/RESULTS.md sixty-eighth
     entry). Conv
     alone (H200, `b90/conv_alone 20`, against a build with -D_FC3D_HX_TF32_F16=0, alternated, two
     rounds): L2/77 1.753 -> 1.001-1.009 ms (306 -> 532-536 useful TFLOP/s), L2/61 0.862 -> 0.584-
     0.590 (269 -> 394-397), L2/34 0.864 -> 0.682-0.694 (159 -> 198-201), L1/77 0.300 -> 0.277-
     0.284; rel-L2 against the direct engine unchanged (2.60e-4 / 2.61e-4), KernelBench's allclose
     5/5 on all five workloads. Chains (`make bench`): L2/77 1.790 -> 1.044 ms, L2/61 1.079 ->
     0.804, L2/34 1.141 -> 1.056, L1/77 0.300 -> 0.278 (bench/RESULTS.md, twenty-ninth entry);
     with x held as it is and the prep's decoding: L2/61 0.750, L2/34 1.028, L1/77 0.266 (1.29x its
     floor), L2/77 1.095 (its convolution alone 0.951 in that run; thirtieth entry).
     16-bit tensors stay tiled (not built: one more instantiation per element type). Its
     first epilogue branched per value (op and store checks in the unrolled loops): 34 % of the
     kernel's stall samples on L2/61
     (ncu source counters, 308 instructions per channel and warp); hoisted, the library kernel
     matches the standalone one (L2/61 TF32 main kernel 1.13 -> 0.93 ms, standalone 0.89). Its
     64-channel kernels at 170 registers ran one CTA an SM where the standalone one (167) ran two
     (a quarter-SM register file holds 3 warps of 168 registers, 2 of 170): capped at 168, L2/34's
     conv alone 2.03 -> 1.48 ms (TF32), 1.89 -> 1.30 (half). Each channel's bias loaded up
     front and its slab base taken once (the stores add only row offsets): 1-2 % (L2/77 TF32 main
     kernel 2.036 -> 2.007 ms, L2/61 0.915 -> 0.906). Runs of 256 virtual rows pay for every row
     of the padded plane (L2/77: 40 x 40 for 36 x 36 outputs) and, in a tile that crosses two
     planes, for the d taps of both; plane-row tiles (_fc3d_hx_tiling, where they issue 2 % fewer
     MMA rows or more) hold a few whole rows of one plane, L2/77's 6 rows of 40 at wgmma n240 (no
     rows qh >= 36 computed): 10.5 % fewer MMA rows, conv alone TF32 2.06-2.08 -> 1.84-1.86 ms
     (259 -> 290 useful TFLOP/s), half 1.128 -> 1.026 (476 -> 523), its chain 2.08-2.09 -> 1.92
     (`build/conv_alone 20`, example timer; one run, two rounds). L2/61 keeps the runs (plane rows
     of 7 at n256: 1.6 % fewer). Halos shared between neighbouring rows and planes then took the
     padding rows out altogether (_fc3d_hx_plan): a padded row ends where the input, or its last
     output's taps, end, and the taps that run past it read the next row's leading zeros, so at
     stride 1 and padding 0 the padded plane is the output's (L2/77 36 x 36 instead of 40 x 40,
     L2/61 34 x 34 instead of 36 x 36) and the runs of 256 rows compute no row they drop; both take
     the runs. exec_flops L2/77 755 -> 686 GFLOP (1.28x useful; the rest is h and w taps into
     the padding), L2/61 295 -> 263 (1.14x); ncu's wgmma counts equal them. Conv alone
     (`build/conv_alone 20`, old build with -D_FC3D_HX_SHARED_HALO=0 and new in one run, two
     rounds): L2/77 TF32 1.861 / 1.860 -> 1.692 / 1.701 ms (289 -> 317 useful
     TFLOP/s), half 1.034 -> 0.948 / 0.954 (519 -> 566); L2/61 0.946 / 0.939 -> 0.860 / 0.878,
     half 0.594 / 0.597 -> 0.544 / 0.551; L2/34 1.328 / 1.330 -> 1.232 / 1.270; L1/77 unchanged.
     Chains (example timers): L2/77 1.92 -> 1.74 ms (half 1.064 -> 0.97), L2/61 1.233 -> 1.14
     (0.88 -> 0.82). 64-channel tiles with 3 weight slots (two CTAs an SM for L2/61, ncu: block
     limit 2 by registers and shared memory, 9.5 active warps) measured the same as one
     128-channel CTA (0.873 / 0.857 against 0.860 / 0.878; L2/77 1.96 against 1.69): the second
     CTA's epilogue beside the first one's MMAs buys nothing there. Measured again on the current loop
     (bench/RESULTS.md, seventy-fourth entry): L2/61 0.550 / 0.585 -> 0.538 / 0.540 ms TF32, L2/77
     0.968 -> 1.110; so the plan takes 64-channel tiles for more than 64 output channels where a
     phase's K is short (_FC3D_HX_SHORT_K, kp.hx_short), one weight slot fewer where that lets the
     second CTA on. Measured (seventy-fifth entry, three rounds alternated): L2/61's chain 0.811 ->
     0.799-0.802 ms TF32, 0.799-0.800 -> 0.788-0.790 half (example timer), its convolution alone
     within a round's noise (0.550 / 0.552 / 0.563 -> 0.553 / 0.543 / 0.567 TF32); L2/77 not
     affected (its K is 8000). A tap's wgmma ending at the last quarter of the tile's 256 rows
     that its planes and rows read the input for (n192, n128, n64 from row 0: beside the n256, a
     wgmma from a later row has ptxas serialize every wgmma of the kernel, C7511,
     bench/wgmma_shapes.cu) was built and not kept (seventy-eighth entry): L2/77 issues 2.9 % fewer
     MMA rows (686 -> 666 GFLOP) and ran no faster (conv alone 0.952-0.968 -> 0.958-0.965 ms half,
     its chain within 0.5 %; the narrower wgmmas and the switch an h tap around them), and the
     kernel carrying the second loop ran L2/61 2-5 % and L1/77 1-2 % slower, which do not take it
     (branch wip/hx-skip). Also measured and not kept
     (same session): the operand copy of x on a 2-D grid in 32-bit index arithmetic instead of a
     64-bit element index (ncu: L2/61's copy 121.7 -> 118.9 us, L2/77's 89.3 -> 89.0, more
     instructions, not fewer; conv alone L2/34 1.228 -> 1.276-1.298 ms); and, behind L1/77's zero
     fill, a fill of only the rows no tapped phase reaches (428 of 571 MB) with each tapped value
     storing its untapped W neighbour's zero (whole sectors: the kernel's DRAM reads 178 -> 66 MB,
     no read-modify-write of half-written sectors): 0.422 -> 0.605 ms, as a warp-per-row fill of
     65-float rows ran at 1.3 TB/s (326 us against the memset's ~190) and the kernel's three
     stores a value took it 233 -> 259 us. With a fill at the memset's rate it would save about
     5 %. Measured and not kept: a zero-filling step whose tapped tiles
     stored their whole stride blocks (the tapped value and the zeros around it: y written once,
     no fill; L1/77): 0.43 -> 0.82 ms TF32, as the blocks' stores ran after each tile's MMAs in
     the one CTA an SM the loop's shared memory allows (ncu: 975 us against 237, DRAM 18 %); with
     four filler warps storing the blocks' zero rows during the MMAs (the epilogue only the
     tapped rows) it measured 1.39 ms (ncu: 1.71 ms, no eligible warp 73 % of the cycles, DRAM 12 %:
     the loop's waits grew; the cause not found). Row tiles whose rows fit 240 take
     n240 too (L2/34: 7 rows of 34, 33 with the shared halo): its chain 1.851 -> 1.829 ms
     (example timer, two rounds). A CTA's first unit comes from DRAM while its MMAs wait (7 % of
     L2/34's stall samples), and one CTA an SM leaves no other to run meanwhile; so the producer,
     its tile's copies issued, prefetches into L2 the first unit of the CTA that will likely start
     next on its SM (its index plus the CTAs the device holds at once, from the occupancy at
     launch; cp.async.bulk.prefetch.L2) while its tile's last MMAs and epilogue run. Conv alone
     (`build/conv_alone 20`, one run, two rounds, without -> with): L2/61 TF32 0.894 / 0.898 ->
     0.874 / 0.873 ms, half 0.570 / 0.568 -> 0.551 / 0.552, FP32 2.42 / 2.44 -> 2.41 / 2.38;
     L1/77 0.425 / 0.426 -> 0.420 / 0.417; L2/34 0.965 / 1.018 -> 0.960 / 0.976; L2/77 1.74 /
     1.75 either way (_FC3D_HX_PREFETCH; two units prefetched measured the same as one). Measured
     with it and not kept: three unit slots instead of two (L2/77 1.74 -> 1.76-1.78 ms, L2/34
     0.96-0.98 -> 0.97-1.01, L2/61 0.87 -> 0.88-0.90; L1/77 within 1 %);
     in 3xTF32, the second warpgroup's chunks ending half a chunk after the first one's, so that
     the two do not wait for their MMAs at once: L2/77 5.11-5.20 -> 5.56 ms, L2/61 2.38-2.41 ->
     2.54-2.56 (the warpgroups then release their shared weight slots apart, and the ring waits
     on the later one). A LayerNorm over W (L2/34) needs whole output
     rows in a tile: haloed row tiles (section "Haloed tiles") put both W phases of 7 padded rows in
     one CTA, a consumer warpgroup per phase (the BN = 128 kernel shape, one CTA an SM), and end
     with the tiled loops' whole-row epilogue. L2/34's chain (`build/chain_loops 10`, TF32): 3.86 ms
     at first against 3.43 on the tiled row tiles; ncu put 80 % of the stall samples in the
     epilogue, so: the LayerNorm's W-affine held in registers (it was a global load per value, a
     fifth of the samples), the NCDHW stores without per-value branches, the inverse deviation in
     float (2.73 haloed, 2.92 tiled), the consumers' tap count selected rather than indexed by
     warpgroup (that index had put the tile's struct in local memory) and, for rows of exactly
     16 L values (W = 64), each lane's values in runs of 4 for 16-byte shared loads and global
     stores with no bounds checks (2.03 haloed, 2.47 tiled; half 1.86). Still one CTA an SM (168
     registers x 288 threads): its epilogue (erf GELU ~20 % of the samples, the row statistics
     ~25 %, staging ~10 %; the GELU then 32 % of the instructions, which its branch-free erf took
     from the chain: 1.89 -> 1.84 ms, example timer) does not overlap its MMAs, which the 64-channel conv-alone kernel's two
     CTAs an SM do (1.45 ms). Taken apart (bench/chain_loops.cu EXTRA 2-5, TF32): the convolution
     alone on the same row tiles 1.06 ms, with the LayerNorm 1.37, with the GELU too 1.75, the
     workload (x 1.0 after it) 1.84: 0.78 ms of epilogue, every value-wise instruction at about
     two cycles with eight warps an SM and no MMAs beside them; the scale by 1 is now skipped
     (_fc3d_tc_epi::apply_nc_regs). The same row tiles for L2/34's convolution alone (no
     LayerNorm) beat its 64-channel phase tiles, whose every-other-W stores DRAM completes by
     reading each sector back: 1.24 -> 1.05 ms TF32, 1.17 -> 0.92 half (ncu: DRAM reads 443 ->
     84 MB), so a chain without statistics at W stride 2 that the haloed loop takes, neither the
     block loop (L2/15) nor a zero fill (L1/77), stores from the haloed row tiles
     (_fc3d_tc_plan_of, tp->rows_store; -D_FC3D_ROWS_STORE=0 keeps the phase tiles). Measured and
     not kept: row tiles of one consumer warpgroup computing both W phases over 3 padded rows
     (wgmma n104, 2 x 52 accumulators, 114.6 KB: two CTAs an SM, ncu's block limits 2 by
     registers and by shared memory), so that one CTA's epilogue would run beside the other's
     MMAs: L2/34's chain 1.79 -> 1.90 ms, the LayerNorm alone 1.36 -> 1.47, the convolution alone
     1.05 -> 1.16 (TF32; half alike): the epilogue cost the same in both forms, and the smaller
     tiles added 0.11 ms. Eight epilogue warps an SM either way: what bounds the epilogue is its
     latency at two warps a scheduler (dependent chains: the row sums, the shuffles), not the
     MMAs it waits behind (ncu: issue active 39 % of cycles, 0.55 eligible warps a scheduler).
     Shorter row paths help a little: the row statistics in float (four chains a lane, a float
     butterfly, then the mean as a TwoSum pair; apply_row_regs) took the chain 1.79 -> 1.76 ms TF32,
     1.65 -> 1.60 half (bench/RESULTS.md, seventh entry). Fewer instructions a row help more
     (ncu's counts per SASS instruction on the chain kernel: 630 M, of them 371 a row and warp in
     the GELU, 23 a value): the GELU's reciprocal and exponential on rcp.approx / ex2.approx with
     .ftz (_fc3d_rcp_ftz, _fc3d_ex2_ftz: without the range tests and subnormal scalings of
     __fdividef and __expf, 7 instructions a value) and the rows' output coordinates shuffled from
     the lane holding them (a 32-bit division a row and warp before, 46 instructions): chain 1.77
     -> 1.64 ms TF32, 1.60 -> 1.50 half, the LayerNorm alone 1.33 -> 1.31 (`build/chain_loops
     20`, bench/RESULTS.md, ninth entry). The same counts then put the epilogue's control in
     front: the op list searched and its table loaded per row (~85 instructions a row and warp,
     9 %), the accumulators' staging (a place and its bounds computed per value, 11 %),
     __frsqrt_rn's correct rounding (25 a row), the group butterflies' loop (8 of control a
     shuffle) and the store addresses (5 a quad). A pass that starts with its row op and has at
     most two (n, c)-free ops after it now runs as a row program resolved once per tile
     (_fc3d_tc_epi::row_prog), without the bias where the row op cancels it; the row is centred
     by its shift alone (no TwoSum pair), the inverse deviation by rsqrt.approx, the group sums
     unrolled, the staging read from a table of byte offsets per W phase, one store address a
     row, and the GELU takes 14 instructions a value (max(v, 0) - w |v|). The W-affine is read
     per row through the read-only cache (_fc3d_row_affine): held in registers, its 32 values
     made the row kernels (168 registers, 9 warps, one CTA an SM) spill the rows' coordinates
     into the row loop, which cost the convolution alone 4 %. L2/34's chain 1.649 / 1.637 ->
     1.461 / 1.450 ms TF32, 1.500 / 1.498 -> 1.293 / 1.294 half (539 M -> 439 M warp
     instructions, ncu), the convolution alone 1.060 / 1.064 -> 1.072 / 1.070 (`build/chain_loops
     20`, `build/conv_alone 20`, one run, two rounds; bench/RESULTS.md, tenth entry). Measured and
     not kept: two rows of a channel at once, for the row's dependent steps side by side (1.61 ->
     1.76 ms: 400 bytes of spills at the same cap). ncu's stall samples per SASS instruction then
     split L2/34's convolution alone (row tiles, TF32) into the tile's prologue 14 %, its MMAs 37 %
     (waits for the first unit included), the staging 22 % and the rows out 24 %: the staging was
     one dependent table load a pair of values (short-scoreboard stalls) and shared stores four
     ways in conflict (a store's 8 channels at a channel stride of 16 banks, its 4 columns at 4).
     Now the table is laid out in the order a lane stores (per W phase and lane quad, padded so a
     warp's 16-byte loads hit distinct banks) and read four entries at a time one load ahead;
     rows of 16 L floats are staged with column ow of channel c at ow ^ ((c >> 1) & 3), which
     puts a store's 32 lanes in 32 banks and costs the rows out 2 selects a value to undo
     (_fc3d_tc_rows_out, SWZ); the next row's coordinates are asked for before this row's work;
     the producer warp initialises the barriers and starts its copies while the consumers fill
     the tables (named barrier 2, which the producer only arrives at); the row tile's index
     divisions are 32-bit. L2/34's convolution alone 1.056 -> 0.966 ms TF32, 0.887 -> 0.845 half;
     its chain 1.434 -> 1.361, 1.276 -> 1.235 (`build/conv_alone 20`, `build/chain_loops 20`, one
     run, three rounds; bench/RESULTS.md, eleventh entry). Measured and not kept: persistent row
     tiles (a CTA an SM walking every gridDim.x-th tile, the staging past the unit ring so the
     producer copies the next tile's units during the rows out, a counter of tiles written out
     before it copies pieces over the staging): convolution alone 1.061 -> 1.034 ms and chain
     1.446 -> 1.616 against the old kernel in one run, where the same changes without
     persistence measured 1.060 -> 0.995 and 1.449 -> 1.386 in another: the tile loop's live
     values made ptxas spill into the main loop and the row loop (132 bytes; none without).
     Statistics partials in the NCDHW epilogues (both loops): L2/61's GEMM step with its GroupNorm
     partials ran 1.65 ms against 1.11 for the same kernel storing y alone (ncu, 316 M instructions
     against 216 M): the partial's slot, computed per channel on lane 0 (11 % of the instructions),
     and the per-value store-mode tests. Now each warp's lanes compute its channels' slots at once
     (_fc3d_tc_epi::partial_slot) and the haloed epilogue has one loop per (store, statistics) case:
     L2/61's chain 1.67 -> 1.46 ms, L2/15's 0.69 -> 0.63 (example timers, TF32). The ops that read
     nothing of (n, c) (ReLU, scale, GELU) are applied straight from the op where the epilogues
     apply ops fixed per (n, c), not resolved into a unit op per channel (or per row, in the
     whole-row epilogue): L2/61 1.48 -> 1.45 ms. The haloed NCDHW epilogue applies a lone ReLU or
     scale with no op loop and switch per channel at all: L2/61's GEMM step 1.167 -> 1.094 ms
     under ncu (215 M -> 203 M instructions), its chain 1.289 -> 1.230 ms (example timer, TF32,
     three runs). Then ncu's per-instruction counters, joined with
     the SASS line table, showed the haloed epilogue's store guarded by the row's validity compiled
     as a branch with its convergence barrier, the 64-bit address rebuilt inside it per value (18
     instructions a value with the double sums, a fifth of L2/61's GEMM-step instructions). The
     float stores of both loops' NCDHW epilogues are now predicated (_fc3d_st_if) from a slab base
     held in a register, at 32-bit offsets in the haloed one (the plan keeps an (n, c) slab below
     2^31 elements there), a dropped row adding zeros to the sums; the haloed epilogue parks each
     lane's partial sums in the channel's staged row and sums them once per warp
     (_fc3d_tc_epi::park) instead of a shuffle butterfly per channel; a wgmma's descriptors are the
     tap's plus a constant. L2/61's GEMM step 1.36 -> 1.18 ms under ncu (258 M -> 220 M
     instructions), its chain 1.455 -> 1.300 ms (example timer); conv alone (`build/conv_alone 20`,
     one run): TF32 L2/61 1.048 -> 0.93-0.95 ms (221 -> 243-249 useful TFLOP/s), L2/77 2.103 ->
     2.033 (255 -> 264), L2/34 1.47-1.50 -> 1.33-1.35, L2/15 0.372 -> 0.360; HALF L2/61 0.690 ->
     0.585-0.591 (336 -> 392-397), L2/77 1.178 -> 1.12-1.14 (456 -> 473-481). A lane's 8 values
     of a channel are then summed in float before its double partial (Numerics below), the
     conversions to double (16 a clock an SM) and double adds per value gone: L2/61's chain 1.295
     -> 1.277 ms, 1.296 -> 1.272, 1.302 -> 1.271 (example timer, TF32, three runs). ncu's
     samples of L2/61's convolving pass (64-channel tiles, H100) against the same kernel storing
     y alone: the statistics' stores and sums 4.8 % of the samples, the shift undone per channel
     before its park 3.4 % (a double add waiting on its conversion), the flush 1 %; the sums'
     unpredicated stores had compiled as generic stores (the slab base through a register): as
     st.global (_fc3d_st_g) the chain 0.793-0.802 -> 0.789-0.795 ms TF32, 0.783-0.784 -> 0.780-0.781
     half (three rounds alternated). Not kept: the raw float sums parked and the shift undone in
     the flush (32 independent entries a lane), 0.797 -> 0.852 ms (the flush's predicated entries
     serial, ptxas's spills 12 / 32 -> 36 / 92 bytes); each channel's sums parked during the next
     channel, as fast as before (branch wip/park-next; bench/RESULTS.md seventy-sixth entry).
     Short K (L2/15: C_in 16, 1 to 8 taps a phase) is bound by the instructions around the MMAs
     (ncu's per-instruction samples joined with the SASS line table: 2,350 instructions a warp per
     tile in L2/15's GEMM step with its moments partials). The partial's slot and the level-major
     tile decode divided in 64 bits (a sixth and 7 % of those instructions): now in 32; the NCDHW
     epilogue is compiled per (statistics, ops needing coordinates) with each lane's output
     offsets loaded once; 32-channel phase tiles keep 3 CTAs an SM (launch bounds: 4 more
     registers had cost the third, L2/15's chain 0.73 -> 0.87 ms). Conv alone (`build/conv_alone
     20`): TF32 L2/15 0.41 -> 0.37 ms, 3xTF32 0.61 -> 0.48, HALF 0.41 -> 0.36; L1/77 0.86 -> 0.87
     (its 7 tap-less tiles in 8 are bound by their half-sector stores: skipping their staging
     changed nothing). Skipping those tiles altogether behind a zero fill of y (_fc3d_tc_zero_fill: no
     bias, ops that keep zero, no statistics in the step, tap-less phases half the positions or
     more): L1/77 0.871 -> 0.540 ms TF32, 0.866 -> 0.519 half, 0.950 -> 0.701 FP32 (`build/conv_alone
     20`, one run, two rounds; rel-L2 against the direct engine unchanged, 2.6e-4 / 5.7e-7). Measured and not kept: span tiles, each a few whole output rows with every
     (h, w) phase computed in turn into a staged span stored in 16-byte quads (NCDHW, W stride 2):
     L2/15 0.41 -> 0.90 ms, L1/77 0.86 -> 1.02. The span's shared memory leaves 2 CTAs an SM with
     half-full GEMMs (L2/15) or one (L1/77), and what such tiles pay for is each GEMM's fixed setup
     (tables, barriers, pipeline fill), not its stores (ncu: 378 M instructions against 219 M).
     Where a haloed CTA's cycles go (bench/hx_trace.cu: clock64 stamps per CTA under
     -D_FC3D_HX_TRACE, summed per SM; TF32, H100, bench/RESULTS.md eighteenth entry): L2/77 92 % in
     its main loop and 3.5 % in its epilogue; L2/61 76 % and 11 % (17 % with the GroupNorm
     partials: 8,200 -> 13,100 cycles a CTA), 5 % decoding the tile and filling the tables (~3,200
     cycles from entry); L2/34's row tiles 39 % in the main loop (9,800 cycles for their 8 taps),
     29 % in the epilogue (50 % in its chain), 13 % decode and tables, 8 % staging, 6 % between
     CTAs. L2/34's consumers spend a fifth of all warp samples waiting for their weight pieces
     (ncu source counters): a row tile copies 8 pieces of 16 KB from L2 for ~70 KB of x, and
     requesting all 8 at once (8 weight slots) left its main loop as long, so the rate at which
     L2 delivers the pieces bounds it. Measured and not kept: three epilogue warps beside the
     consumers (conv alone: L2/34 1.009 -> 1.084 ms, L2/77 1.729 -> 1.763, L2/61 0.895 -> 0.887),
     every other CTA of the first wave started late (no CTA's epilogue got shorter), the barriers
     made before the tile decode (0.1-1 %), 8 weight slots for the row tiles (0.96 -> 0.99 ms).
     Measured and not kept (bench/RESULTS.md, nineteenth entry): the pieces shared by the two CTAs
     of a cluster whose tiles copy the same ones, each CTA multicasting half of each piece into both
     and refilling a slot once both have released it (L2's piece bytes halved): every workload
     slower, L2/34 0.97-1.00 -> 1.12-1.14 ms, L2/61 0.89-0.91 -> 0.92-0.94, L2/77 1.74 -> 1.79
     (clusters alone cost 1-3 %; six slots changed nothing): a pair runs at the pace of its later
     CTA. Not L2's bandwidth: ncu puts 7.8 % of L2/34's samples on the wait for the x unit, 14.6 %
     on the pieces, 14.4 % before the first wgmma, the start-up of a short CTA (first copies ~3,800
     cycles after it starts). Of that start, the barriers' set-up (mbarrier.init and its fence) takes
     ~1,300 cycles between the producer's decode and its first copy, with either fence (as the
     trace measures it: the fence's release waits for the trace's own stamp stores); made by the
     last consumer warp beside the decode it made ptxas spill in the row kernels (L2/34's chain 1.38
     -> 1.44 ms), so it stays; a CTA walking four row tiles one after the other (the switch between
     CTAs and the set-up paid once) spilled 76 / 244 bytes and took that chain to 1.50 ms. What would
     close it: a CTA that walks tiles with its tile state out of registers, or that copies its next
     tile's operands while the last one's epilogue runs, or a cheaper start. Phase tiles now read
     their decoded tile from a table the prep step writes (_fc3d_hx_prep, workspace region 2):
     the decode, loads at run-time indices and 64-bit divisions by every warp, took ~2,700 cycles
     of a CTA's start on L2/61 and L2/77, the table load ~700 (bench/hx_trace.cu); untraced,
     three rounds: L2/61 0.902-0.910 -> 0.887-0.888 ms, L2/77 1.763-1.778 -> 1.745-1.747, L2/61's
     chain 1.180 -> 1.166, L1/77 (zero fill) 0.421 -> 0.413 (bench/RESULTS.md, twentieth entry).
     The tiles stay in index order, sample by sample: launched costliest first instead (the tiles
     near the volume's faces, which issue fewer d taps, last; each range of equal cost over every
     sample in turn: branch wip/hx-order), L2/77's convolution alone took 0.959-0.960 -> 0.957-0.961
     ms TF32 and L2/61's 0.560-0.573 -> 0.581-0.599, the faces' tiles at the grid's end reading
     their samples' x planes from DRAM again (bench/RESULTS.md, seventy-fourth entry).
     Row tiles read only the fields their index decides (_fc3d_hx_rtab) and make the rest from the
     parameters as the decode does: read whole, the fields that the decode derives from the
     launch's constants stayed in registers and the row kernels spilled into their main loop (32
     / 44 bytes), L2/34 1.5 % slower; held in shared memory and read where used, the fields
     lengthened the main loop (9,700 -> 13,300 cycles a CTA, L2/34 1.03 -> 1.18 ms); read in part,
     the decode 1,650 -> 660 cycles, L2/34 1.032-1.034 -> 1.005-1.006 ms, its chain 1.429-1.431 ->
     1.413-1.415 (three rounds; half 0.917 -> 0.907 and 1.312 -> 1.325, one round). The
     epilogue's row offsets carried 32 rows at a time instead of two divisions a row spilled more
     and measured the same (not kept). The NCDHW epilogue loads a channel's staged values
     one channel ahead (_FC3D_HX_EPI_AHEAD: L2/77 1 %, L2/61 0.5 %); the same for the row
     epilogue's quads spilled (16 / 20 bytes) and took L2/34's chain 1.44 -> 1.49 ms. What bounds
     the epilogues' stores: an SM sends at most 32 bytes a clock to L2 (bench/store_rate.cu, one
     CTA alone: 16-byte, 4-byte and bulk copies alike), all SMs at once 17 (L2-resident) or 13.3
     (to DRAM, 3.25 TB/s); the haloed epilogues store a tile at ~16 bytes a clock (128 KB in
     ~8,200 cycles on L2/61 and L2/77, 115 KB in ~7,200 on L2/34's row tiles), so a perfect
     store path would take half their epilogue, and only a tile's stores beside the next tile's
     MMAs would take it all (built for the phase tiles and measured slower: the haloed loop's
     L1/77 paragraph above).
     Warp-specialized row tiles (_fc3d_hx_rows_ws): a row pass with no statistics whose rows are a
     copy (no ops: L2/34's convolution alone) or a row program (_fc3d_tc_epi::row_prog: L2/34's
     LayerNorm, GELU, x 1), float32 NCDHW, rows of 16, 32, 64 or 128 (_fc3d_hx_ws_kind), runs on a
     persistent CTA an SM of four warpgroups. Two consumer warpgroups run the MMAs and stage the
     tile (a copy's with its bias); an epilogue warpgroup writes the staged rows out while the
     consumers run the next tile's MMAs; the producer's lane issues the copies of every tile of
     the CTA, its rings' counters running across tiles. The staging (117-119 KB on L2/34: a
     copy's rows in W order, a row program's by W phase in position pairs) lies apart from the
     rings, which leaves 2 weight slots in TF32 (4 in half); one staging buffer between consumers and
     epilogue (mbarriers: 256 consumer arrivals full, 128 epilogue arrivals empty). The launch
     gives 128 registers a thread (512 threads) and setmaxnreg splits them: producer 24,
     consumers 176, epilogue 136. ptxas refuses an instruction that alone needs more than the
     launch's cap even after setmaxnreg.inc (one m64n240 or m64n256 wgmma asks ~154: C7602), so
     the consumers issue a K step as two n120 (n128) wgmmas over the rows' halves, whose
     accumulators lie as the one wgmma's. Measured on L2/34's convolution alone (H200,
     bench/conv_alone.cu, two rounds each): TF32 0.971-0.973 -> 0.879-0.880 ms (141 -> 156
     useful TFLOP/s), half 0.868-0.869 -> 0.655 (158 -> 210); rel-L2 against the direct engine
     unchanged (2.60e-4). What bounds it now (ncu): the consumers wait for weight pieces (TF32's
     two slots: 19 % of the kernel's stall samples at that wait; the consumers alone, rows not
     written, take 0.76 ms TF32 and 0.535 half). On the way: the first form ran the whole-row
     epilogue (_fc3d_tc_rows_out) on the epilogue warpgroup: it needs ~200 registers a thread to
     run without spills (ptxas: 572 bytes spilled at 120, with the shared memory taking all but
     ~23 KB of L1 the spills went to L2), and four warps of it were slower than eight
     (convolution alone 1.197 ms, L2/34's chain 2.30 against 1.385); a copy loop with a division
     per row 0.975; a copy loop without divisions, four rows' loads before their stores, 0.880
     (TF32). The row program on the epilogue warpgroup (a row in a group of L lanes as
     _fc3d_tc_rows_out holds it, the LayerNorm's W-affine read once into 32 registers a lane
     instead of per row: with the shared memory taking all but ~23 KB of L1, the per-row reads
     went to L2): L2/34's chain (bench/chain_loops.cu, two rounds) 1.376 -> 1.171 ms TF32, 1.264
     -> 1.049 half, rel-L2 against the direct engine unchanged (3.49e-4); the affine read per row
     1.372 / 1.217, the next rows' quads loaded ahead 1.400 / 1.247 (16 bytes spilled). Other
     chains (ops walked per row, statistics, NDHWC, odd W) keep _fc3d_hx_main's row tiles. The
     consumers' share of the row program (_FC3D_HX_WS_SPLIT = S, a build option, 0 and so off by
     default: not yet measured on a GPU): once both warpgroups staged a tile, consumer warps w and
     w + 4 run the compiled LayerNorm-GELU loop on the last 2 x 8 S jobs of epilogue warp w's list
     (S iterations of 8 rows each), the epilogue's warps on the rest (_fc3d_hx_ws_row_jobs, one
     loop for both, the consumers' W-affine from shared memory), and the staging's empty barrier
     counts the consumers' 256 arrivals too (_fc3d_hx_ws_split: rows of 64, TF32 or half). The
     epilogue's 14 iterations a tile on L2/34 (7 rows, 112 jobs a warp) become 10 at S = 2 and 8
     at S = 3. ptxas (sm_90a, the half kernel of KC 32 that TF32 and half both run): spills 32 / 32
     bytes stored / loaded at S = 0 (48 / 276 before the loop was one function). One unit
     slot (for 4 weight slots in TF32) deadlocks this producer order (it copies unit u + 1 before
     unit u's last pieces) and is refused by a static_assert. Copying the next tile's first unit
     during the last unit of the tile before (as _fc3d_hx_main prefetches) measured slower: ptxas
     spilled 316-360 bytes against 48, L2/34's convolution alone 0.486 -> 0.656 ms, its chain
     0.860 -> 0.888 (H200, bench/RESULTS.md forty-first entry). The row program's warps step their
     jobs' (channel, row) without a division (the division per job had 8 % of the epilogue's
     stall samples, ncu), and the LayerNorm's W-affine comes once a CTA into shared memory (any
     alignment of the op's pointers), then into 32 registers a lane in the row program's loop
     only: L2/34's chain 1.180 -> 1.116 ms TF32, 1.062 -> 1.000 half, its convolution alone
     0.882 -> 0.872 / 0.651 -> 0.645 (H200, bench/chain_loops.cu EXTRA 0 and 6, two rounds; the
     same affine copied in the kernel's prologue, before the register split, made ptxas spill
     ~450 bytes in the epilogue). Measured and not kept: the producer warpgroup's three idle warps
     as epilogue warps too (seven warps at 80 registers: 140-240 bytes spilled, the convolution
     alone 0.97 ms, the chain 1.40; again with the row program of the thirty-seventh entry, the
     W-affine from shared memory: 204-284 bytes spilled, chain 0.987 -> 1.246 ms, convolution alone
     0.665 -> 0.723; and with a row on 8 lanes, 8 values a lane, seven warps at 88 registers beside
     consumers at 168 or at 80 beside consumers at 176: chain 0.857 -> 1.078 / 1.157 ms, convolution
     alone 0.485 -> 0.563 / 0.531, where the same source built for four warps, its epilogue's
     setmaxnreg under a test of the warp, ran 1.003 / 0.521 with ptxas spilling 84 / 344 bytes
     against 64 / 200: bench/RESULTS.md fifty-second entry), a fifth warpgroup for the epilogue (it
     cannot get its registers: setmaxnreg moves them only within the launch's allocation, 640
     threads x 96 = 61,440 against the 64,512 of consumers at 176, producer at 24 and two epilogue
     warpgroups at 64, and the consumers' increase waits forever), the row's centring folded into
     its scaling (fmaf(fmaf(v, s, -m s), a, b), 16 FADDs a job fewer: chain 0.983 -> 0.991-0.994 ms,
     thirty-seventh entry), consumers at 168 registers for 88 in the epilogue (consumers spill:
     convolution alone 0.98 ms, chain 1.13), TF32 units of 16 channels for 4 or 8 weight slots
     (convolution alone 1.055 ms: a K step of four wgmmas), 8 weight slots in half (0.651 -> 0.653:
     the slots are not what bounds half); then (H200, same commands, against 1.114-1.117 /
     0.997-1.001 ms chain, 0.869-0.873 / 0.644-0.646 convolution alone): the consumer warpgroups
     taking the last 8 of a tile's 56 row groups after their staging (ptxas spilled 412-460 bytes
     into their tap loop: chain 1.41 ms, convolution alone 1.27), two jobs
     a lane at once in the row program (chain 1.125 TF32, 0.986 half; every convolution alone
     1.4-2.8 % slower: the kernel is one function and the epilogue's path moved the consumers'
     allocation), three (204 bytes spilled, chain 1.91), and one kernel a kind (copy, row
     program: all four figures 0.3-3 % slower). Again on the row program of pairs (H200,
     bench/RESULTS.md forty-first entry; against 0.853-0.860 ms chain, 0.480-0.486 convolution
     alone, TF32): two jobs a lane at once 0.940 (the GELUs still one value after another in the
     epilogue's 136 registers; the W-affine from shared memory 0.915; two rows a lane on 8 lanes
     each, 8 values a lane for each row, the W-affine in 16 registers: 0.860 -> 1.161, ptxas's
     spills unchanged, fifty-second entry), consumers at 168
     registers for 152 in the epilogue 0.860, the consumers taking 2, 4 or 6 of each epilogue
     warp's 14 row iterations 0.895-0.966 (ptxas spilling 196-328 bytes in their code: every
     convolution alone 0.553-0.561). With TF32 on the f16 path (its convolution alone
     0.688 ms) the row program bounds L2/34's chain (1.044 ms): the GELU costs 0.25 ms of it, the
     LayerNorm 0.10 (bench/chain_loops.cu EXTRA 4, 2, 6); ncu: 469 instructions a job, its warps
     issuing on 32 % of their samples. On the kernel of now (H200, fifty-second entry) the same
     split reads convolution alone 0.483 ms, with the LayerNorm 0.627, with the GELU too 0.857: the
     GELU's 14 instructions a value are 0.23 ms of the chain's 0.374 over the convolution, and the
     consumers wait for the staging's empty barrier in 24 % of ncu's samples. ncu's source page then
     showed the GELU's sixteen values interleaved (its warps issuing, 'selected', in 36 % of the row
     loop's samples) and 9 % of the samples at the tests of the ops' kinds and the jumps between
     their code, 7 % more waiting for instructions at the jumps' targets: the row loop is now
     compiled for the program's shape (rows_of: an affine LayerNorm over W, then GELU, ReLU or
     nothing; any other program read from rp per row as before; a LayerNorm without its affine takes
     them with 1 and 0 in the affine's registers). L2/34's chain 0.853 -> 0.793-0.799 ms TF32, 0.831
     -> 0.773-0.777 half, the LayerNorm alone 0.624 -> 0.592-0.598, the convolution alone 0.480 ->
     0.482-0.487 (H200, bench/chain_loops.cu EXTRA 0, 2, 6; two rounds in each of two calls,
     bench/RESULTS.md fifty-third entry); with the GELU's form alone compiled the chain ran 0.786
     and the LayerNorm alone 0.638 (its loop the generic one). Beside it, measured and not kept: the
     GELU's reciprocal replaced by an FMA (timing only) 0.858 -> 0.836, so its two MUFUs are not
     what bounds it; its polynomial in Estrin's form (a level shorter, a multiply more) 0.858 ->
     0.907; the row count per tile taken through a shuffle (ptxas reloads it from the constant bank
     per row, 4.5 % of the loop's samples) 0.798 -> 0.795. The LayerNorm without its affine on the
     compiled loops (it took apply_row_prog's general branch before): that chain alone 0.647 ->
     0.596-0.597 ms, L2/34's chain 0.795-0.796 -> 0.787 (TF32, one call, two rounds); any
     LayerNorm of the run-time loop now takes the same registers' affine, apply_row_prog only a
     mean subtraction. The LayerNorm and GELU on rows of 64 compiled with the lane width too (L =
     4: the staged values' and the stores' offsets immediates) 0.787-0.790 -> 0.759 ms TF32,
     0.767-0.769 -> 0.737 half; every lane loading its row without the test of its channel (the
     row not stored where the channel is past the tile or C_out) -> 0.745 / 0.723 (H200,
     bench/chain_loops.cu EXTRA 0, two rounds alternated, rel-L2 against the direct engine
     unchanged, 3.49e-4; bench/RESULTS.md fifty-fourth entry); its stores as st.global.cs beside
     that 0.742-0.744 / 0.721-0.723, within the spread, not kept. On that loop the four loads'
     offsets as one offset and three XORs of immediates and the row sums' four chains started
     from their first values: 0.747-0.748 -> 0.743-0.744 ms TF32, 0.726 -> 0.722 half (same
     call, two rounds; fifty-fifth entry). ncu there (H200, its clocks locked): the loop is 427
     instructions a job (a row, 16 values a lane) and 92 % of the epilogue warps' samples, its
     warp issuing in 40 % of them, short scoreboard 17 % (the row's shuffled shift and its
     loads), fixed-latency waits 15 %, dispatch 11 %; the kernel's issue slots 51.5 % busy. Given
     half its rows (timing only) the chain runs 0.748 -> 0.516 ms: the row program still costs
     0.23 ms beyond the convolution. One consumer warpgroup computing both W phases of 3-row
     tiles (m64n120 a phase, its 120 accumulators at 184 registers) beside two epilogue
     warpgroups at 152 and the producer's 24 was built (the GPU suite and the three sanitizers
     pass on it) and not kept: 0.738 -> 0.880 ms TF32, 0.719 -> 0.857 half, the LayerNorm alone
     0.577 -> 0.781; one warpgroup feeding the tensor core on 2.3x as many tiles of 102 MMA rows
     in 120 bounds the chain well above the row program it relieves (fifty-fifth entry; compact
     tiles, below, found the same of 4-row tiles). The loop software-pipelined (the next job's
     loads, shuffled shift, centring and sums issued before this job's affine, GELU and stores)
     was built and not kept: 0.738-0.740 -> 0.754-0.755 ms TF32, 0.719 -> 0.733 half, with the
     W-affine read from shared memory 0.819-0.821 / 0.798 (ptxas: the same spills; fifty-sixth
     entry; not profiled: what the interleave added was not taken apart). Measured and
     not kept (bench/RESULTS.md, twenty-ninth entry): the staging unswizzled (no FSEL in the
     epilogue, conflicts in the staging: chain 1.092 ms), the rows centred by the consumers after their
     staging (the epilogue only scaling: chain 1.225; the staging step is serial with both). What
     the rest of the kernel allows (H200, bench/chain_loops.cu, two rounds; bench/RESULTS.md
     thirty-fourth entry): with the row program given half its rows (timing only) the chain takes
     1.012-1.015 -> 0.674-0.675 ms TF32, its convolution alone 0.658, so four epilogue warps bound
     it and twice their rate would bring it near the convolution. Compact tiles were built for that
     and not kept: 4 rows of 33 at
     n136 (a consumer's 68 accumulators fit the launch's 128 registers, so no setmaxnreg split),
     the producer warpgroup's three idle warps in the epilogue (seven warps), the tiles past the
     tiled loops' count allowed for a chain without statistics: 1.017-1.021 -> 1.043-1.045 ms TF32,
     0.983-0.986 -> 1.016-1.017 half (rel-L2 unchanged, 3.49e-4; ncu 424 M -> 500 M
     instructions), and with half the rows 0.953 / 0.924: the consumer side of 4-row tiles (1.75x
     as many tiles, each with its unit, 8 weight pieces, decode and staging hand-off) takes about
     as long as the four warps' row program did. Not the weight pieces: copied for a CTA's first
     tile only (timing only), the 7-row chain measured 1.015-1.020 -> 1.005-1.006 ms and the
     convolution alone 0.659 -> 0.653, so keeping a residue pair's weight resident (64 KB) would
     buy ~1 %. Nor the staging, serial with the epilogue on its one buffer: skipped (timing only),
     the chain 1.018-1.020 -> 0.984-0.986 ms and the convolution alone 0.662-0.664 -> 0.633, so
     staging in two halves of rows (the epilogue on the first while the consumers stage the
     second) would buy at most 3 % and 4.5 %. ncu on the chain kernel: DRAM 18 % of peak, L2 22 %,
     7.0 cycles an issued instruction, 41 % of them waiting on shared memory or shuffles (short
     scoreboard). What bounds the chain is the row program's rate on one warp a quarter-SM, and
     what would lift it is more epilogue warps beside 7-row tiles, which the consumers' 176
     registers leave no room for (80 a thread for seven: spills, above). The row's statistics
     merged across its four lanes by Chan's formula (row_centre) shortened each row's chain of
     shuffles from five to three: chain 1.023-1.024 -> 0.990-0.997 ms TF32, 0.988-0.989 ->
     0.961-0.969 half (two rounds, rel-L2 unchanged, 3.49e-4). The row's first value read from
     the staging beside the row instead of shuffled from the group's first lane (the same bits)
     measured slower, 0.991 -> 1.003-1.004 ms TF32, 0.961-0.963 -> 0.972-0.974 half (three
     rounds; not kept). The consumers' path between their MMA groups (a tap: wait for its piece,
     its descriptors, four wgmmas, the wait for the previous tap's, the releases) held two
     divisions by run-time counts (the weight ring's slot and phase by its slot count, the tap's
     (h, w) taps by the W taps): stepped instead, 216 -> 148 instructions a tap and warp, and the
     producer's likewise; then the copy epilogue (the convolution alone) at 54 instructions a
     quad (a shuffle, a 64-bit offset and a dozen predicates each, the swizzle selected) held
     the consumers at the staging's empty barrier for a quarter of their time: now per group of
     rows one shuffle, four channels' loads then stores at offsets of two pointers, the swizzle's
     pair swap a branch around the loop (a constant of the warp) and its half swap a constant of
     the channel's place. L2/34's convolution alone 0.656-0.662 -> 0.495 ms TF32 (208 -> 278
     useful TFLOP/s), 0.626-0.632 -> 0.458 half (219 -> 300), its chain 0.991-0.998 -> 0.945 TF32,
     0.960-0.966 -> 0.913 half (H200, bench/chain_loops.cu EXTRA 6 and 0, two rounds; rel-L2
     unchanged, 2.57e-4 and 3.49e-4). Now the epilogue waits for the consumers in the convolution
     alone; their per-tile work (1,104 instructions a warp: the TF32 path's unscaling as two
     FMULs a value and the bias as an FADD, the staging) was the next to shorten: the scales'
     product taken once where it is a normal float and the bias added in the same FFMA
     (_fc3d_hx_unscale), 1,104 -> 860 instructions a tile and warp, the convolution alone
     0.490-0.498 -> 0.472-0.479 ms TF32 (280 -> 290 useful TFLOP/s; half, which does not
     unscale, and the chain, bound by the row program, unchanged; H200, thirty-ninth entry).
     Of the 860: the staging's 128 stores with an address add, an XOR and a predicate each
     (~400), the FFMAs (128), the sums' zeroing (64). The zeroing dropped for a scale-d of 0 on
     a tile's first wgmmas measured 0.476-0.479 -> 0.478-0.483 ms (not kept). Measured and not
     kept (bench/RESULTS.md, thirty-eighth entry): each epilogue warp on the channels of one
     staging swizzle, the row program instantiated per swizzle with no select a value (ptxas
     192-224 bytes spilled: chain 3.18 ms). Kept since (thirty-ninth entry): the same split of
     the channels (warp ew the channels 8 k + 2 ew + b, 16 of a tile's 64, every row of them)
     with one row program: the values stay in the staged order (the row's statistics and the
     straight ops do not see it), the W-affine permuted the same way once a CTA, and only the
     store in four forms, a branch of the warp (inline PTX stores: the compiler does not merge
     the arms' stores into one store of selected values); the 32 FSELs a job gone, ptxas 60 / 68
     bytes spilled (48 / 56): chain 0.935 -> 0.900 ms TF32, 0.915 -> 0.880 half, the convolution
     alone unchanged (H200, two rounds, rel-L2 unchanged). Then the row program's staging by W
     phase (_fc3d_hx_ws_cs, fortieth entry): a consumer's two neighbouring sums (MMA rows 2 i,
     2 i + 1: W positions qw, qw + 1 of its phase) one 8-byte store, 64 stores a tile and warp for
     128, the table's entries a pair, their swizzle in the table (the padded row made even for it
     where row tiles may run: L2/34 33 -> 34, the convolution alone unchanged by it); the row
     program reads a quad as one pair of each phase, its values in W order again, no permuted
     W-affine, one store form (ptxas 48 / 48 bytes spilled, 180 / 180 loaded): chain 0.901-0.902 ->
     0.858 ms TF32, 0.881 -> 0.836 half. The copy keeps its 4-byte staging: with the pairs (its
     quads two 8-byte loads each) the convolution alone ran 0.470 -> 0.488 ms, the consumers' saved
     work turned into waits for their units and pieces (ncu); with both layouts in the kernel (the
     copy's as before) 0.474 -> 0.483-0.485 TF32, 0.457 -> 0.461-0.463 half, kept for the chain.
     The block loop (FC3D_MAIN_LOOP_BLOCK, >>block-loop) drops the tiles for short K at small
     channel counts: a persistent CTA holds the whole weight in shared memory (re-laid once per
     run in mma.sync's B fragment order, rounded) and walks blocks of output rows (od, oh), every
     W position and channel of them; the input rows a block reads come by cp.async into one of
     two buffers while the other computes, and a warp's unit (16 positions of one W phase x every
     output channel) runs its taps as m16n8k8 MMAs read straight from the input block: no gather,
     no table, no staging (f16 operands and m16n8k16 where C_in is a multiple of 16, below). AUTO
     takes it, unless the haloed loop takes the plan, for TF32 math (and HALF on the f16 kernels,
     where C_in is a multiple of 16) on
     float32 NCDHW tensors with groups 1, in_channels a multiple of 8 up to 32 and out_channels up
     to 64, where the weight fits beside two input blocks (L2/15: 55 KB, blocks of 3 x 3 output
     rows). Measured (H100, TF32, one run each, bench/RESULTS.md sixteenth entry): L2/15's
     convolution alone 0.363 -> 0.327 ms against the wgmma loop, its chain 0.627 -> 0.547 ms
     (materialize/moments, example timer, three rounds), the GEMM step with its moments partials
     333 us (ncu: 109 M instructions). First built with a division per copied element and the
     weight gathered by every CTA it was slower than the tiles (0.445 ms; 225 M instructions, 60 %
     of them the block copy and its rounding); 16-byte copies and multiply-high divisions took it
     to 0.346 (93 M), units rotated over the warps to 0.327 (a fixed slot per warp had given half
     the warps the W phase with twice the taps); one CTA of 16 warps an SM with larger blocks
     measured 0.40. Latency-bound at 16 warps an SM (two CTAs, each with its copy of the weight),
     9.5 cycles an issued instruction; 24 % fewer instructions (taps from a table, k-steps
     unrolled by template, the epilogue's cases hoisted) measured 0.332 against 0.325 and were not
     kept. What moved it was the stores: each of a lane's 16 stores wrote half of 8 sectors (one W
     phase), and the next use of its registers waited for them to drain (long scoreboard, L2 at 62
     % of its throughput). Units of both W phases (_FC3D_BK_PAIRS: a pass with no ops at W stride
     2), stored as 8-byte pairs, took L2/15's convolution alone 0.325 -> 0.214 ms (same run) and L2
     to 44 %; blocks of 9 warps for the 36 units of a 3 x 3 block measured 0.370 (96 registers).
     Passes that store nothing kept the one-phase units at first, twice as many to spread over the
     warps (L2/15 recompute/moments 0.6545-0.6551 ms with both phases in its statistics pass,
     0.648-0.654 with one; that pass 251 us under ncu); since the pairs' W taps run unrolled (below)
     they take the pairs too (_FC3D_BK_PAIRS_NS): L2/15's statistics pass 256 -> 193 us under ncu,
     its recompute/moments chain 0.389 -> 0.344 ms, level with materialize/moments (0.342; H200,
     three rounds, bench/RESULTS.md forty-fourth entry); the store costs the pairs' pass 7 %
     (207 us with it). Passes with ops took the one-phase units too (resolved
     ops applied op by op on the pairs' path bloated the kernel: the GEMM step 301 -> 396 us under
     ncu even without ops, the recompute chain 0.70 ms); where every op of the pass composes into
     one map a v + b per (n, c) (_fc3d_bk_ops_affine: scale, add_channel, either batchnorm,
     groupnorm, sub_spatial_mean; _fc3d_uop_compose) a block now composes the bias and the ops per
     channel in double and the pairs' epilogue applies the map by one FMA a value, from shared
     memory (a kernel of its own, AFF: the no-op pairs' code is unchanged). A block's unit table
     lists its rows by their (d, h) tap count, most first (_fc3d_bk_row_rank): in row order, with units dealt to the warps in turn, one warp could
     get two of the costliest and the rest waited for it at the block's barriers (23.7 % of the stall
     samples; 18.7 % sorted), L2/15's convolution alone 0.210 -> 0.206 ms, its chain unchanged
     (0.390-0.392; H200, bench/RESULTS.md thirty-first entry). ncu's instruction counts per SASS
     line then put the MMAs' own loop at 16 % of the 79 M instructions and the pairs' epilogue at
     about 30 % (a 64-bit address, a parity test and a dozen predicates rebuilt per channel pair).
     Where both W phases are tapped in a pattern of (1, 2), (2, 1), (2, 2) or (1, 1) W taps at C_in
     16 or 32, a unit's W taps and k-steps run unrolled per (d, h) tap, both phases' 8 accumulator
     chains side by side (_fc3d_bk_pair_taps); a unit whose channels are all within C_out and
     whose positions are all within the row but phase 1's last stores through
     _fc3d_bk_store_pairs_near (the parity found once per unit and h, the address stepped, the
     lane's predicates only). L2/15's convolution alone 0.206 -> 0.197 ms with the taps, -> 0.185
     with both; its chain 0.393 -> 0.372 (example timer; the GEMM step 320 -> 287 us under ncu,
     107.8 M -> 83.8 M instructions; H200, three rounds, bench/RESULTS.md thirty-second entry;
     the PyTorch drop-in's chain read 0.390-0.394 in bench.py on the same lease). 6 warps a CTA
     instead of 8 (a 3 x 3 block's 18 units in three full rounds; ncu: barrier stalls per issue
     1.67 -> 0.97) took it to 0.182 and the chain to 0.370, but runs of few blocks 22 % slower
     (0.040 -> 0.049 ms): not kept (_FC3D_BK_NW). ncu then put 9.5 % of the convolution's stall samples
     at the block's middle barrier, where the other warps waited for warp 0 to build the unit table (368
     instructions a block on one warp), and found the lane's channel mask rebuilt with the store's
     address in each unit's epilogue (about 80 instructions a unit: ptxas had rematerialised it) and the
     unit's zeroed accumulators moved between registers behind the dispatch among the eight W tap
     patterns (about 60). Now the table of a block is built during the block before it, by the warp the
     unit deal leaves the fewest units (two tables in shared memory), the epilogue tests a lane's
     channels where it needs them, and the pattern is a kernel's (PT: a kernel per pattern and k-step
     count): L2/15's convolution alone 0.185 -> 0.171 ms with the first two, -> 0.167 with the third
     (H200, conv_alone, three rounds alternated; bench/RESULTS.md forty-second entry). Small runs of few
     blocks lost by it (S8, one-phase units at W stride 3: 0.043 -> 0.051 ms; S7 0.040 -> 0.042):
     the first block's table, built by one warp before the first barrier. Every thread of the CTA
     now builds the first one, each input row's offsets in x and in the input block are computed
     once per CTA into shared memory (a thread copies the same rows of every block; they took 53 +
     25 instructions a warp's row step by multiply-high division per block), and a block's sample
     comes from a 32-bit division: S8 0.051 -> 0.040 ms, S7 0.042 -> 0.038, L2/15's convolution
     alone 0.167 -> 0.163. At (1, 2) and (2, 1) W taps (kernel 3, W stride 2) the pattern's kernel
     loads once the A fragment that phase 0's first tap shares with one of phase 1's
     (_fc3d_bk_pair_taps' SH: 16 fragment loads per (d, h) tap where there were 24): 0.163 ->
     0.161 (H200, three rounds alternated; bench/RESULTS.md forty-third entry; ncu then: 54.1 M
     instructions where the forty-second entry's profile counted 69.2 M, the block's barriers
     15.6 % of the stall samples). Measured and not kept: the units dealt by longest processing
     time first (each to the warp with the least cost so far, by __reduce_min_sync over the
     builder's lanes, one unit after the other), which the cost model put at 1.09x the mean warp
     where the rounds give 1.30x: the serial deal lengthened the builder's share of each block
     more than it evened the others (L2/15 0.167 -> 0.194 ms with the row offsets above, S8 0.051
     -> 0.077, 162 units a block there; ncu: barrier stalls 35.5 % of the cycles between issues).
     Also measured and not kept: the tap steps (input-block and weight offsets per d, h, w tap,
     the same for every residue) computed once per CTA instead of per unit from P.hx_dt, 0.160 ->
     0.165 ms (six registers held across the unit loop at the 128 cap), and with the generic loop
     behind one test of done and the k-steps from PT as well, 0.161 -> 0.167 (ptxas spills 4 to
     16 bytes in pattern kernels; bench/RESULTS.md forty-fourth entry). Where C_in is a multiple
     of 16 the operands are f16 (the TF32 values, exact there; each input block as it is or at its
     own power of two, the weight at its own) and the MMAs m16n8k16 (_FC3D_BK_F16; >>block-loop):
     half the MMAs and fragment loads, the kernel 196-197 -> 188-190 us under ncu, the chain
     0.349-0.350 -> 0.345 ms, the convolution alone 0.160 either way (H200, bench/RESULTS.md
     fiftieth entry): its MMAs do not bound it. HALF runs the same kernels on x and the weight
     rounded to f16 as they are (no powers of two: half math as the other loops have it): L2/15 in
     half math 0.564 -> 0.344-0.345 ms against the tiled wgmma loop (fifty-first entry). Its ops
     fixed by (n, c) are resolved once per block and channel; recomputing (two convolution passes,
     one W phase a unit: 0.216 ms for the statistics without a store, 0.423 for the chain's ops and
     the store) measured 0.655 ms against 0.371 materialising (H200, bench/RESULTS.md thirty-third
     entry); with the second pass on the pairs' composed map, 0.429 against 0.373 (thirty-sixth
     entry); with the statistics pass on the pairs as well (_FC3D_BK_PAIRS_NS), 0.343 against 0.342
     (forty-fourth entry), which the planner's estimate follows (_FC3D_BK_VALUES_PER_S, the costs
     of a store and an op on the one-phase units, the pairs' gain and their store's cost: L2/15
     recompute/moments estimated 0.340 ms against 0.348 materialize/moments). The
     sums of squares taken from x instead (a statistics plan built on x's correlations at the
     shifts between tap pairs, m16n8k8 MMAs with both operands loaded from global memory, then one
     convolution pass on the pairs' composed map) measured 1.58 ms for the chain, 1.28 of them the
     correlations (thirty-sixth entry): not kept. Its statistics sums are of v - k, k a
     channel's tap-less value (the bias through the pass's ops), undone per block in double
     (_fc3d_bk_sums): a channel whose every output is tap-less (or x = 0) has variance 0, which
     float sums of v left at ~1e-7 of k^2, and a GroupNorm after a training BatchNorm, whose
     statistics the moments plan scales by the BatchNorm's 1 / (var + eps), read that as signal
     (relative L2 0.032 against the CPU reference, test_gpu's block_loop_constant; H200). The
     tiled loops sum in double and pass such chains as they are; the warp-row loop's statistics
     pass and the haloed loop's epilogue shift their sums the same way (their lanes' float sums of
     v, the haloed loop's of float squares, had left the same ~1e-7 of k^2: x = 0 with a training
     BatchNorm then a GroupNorm under the moments plan measured relative L2 0.17 and 0.27 on the
     warp-row loop, 0.36 and 0.44 on the haloed loop, H200, before the shift; test_gpu's
     constant_channels now passes all four loops, H100).
     The warp-row loop (FC3D_MAIN_LOOP_WARP_ROWS, >>warp-row-loop) takes the block loop's place,
     where AUTO would have taken it, for the decoders' up-sampling convolution: kernel 3, stride 2,
     padding 1 along every dim, C_in 16, C_out up to 32, input H and W up to 32 (L2/15). The block
     loop was latency-bound there at ~1,700 warp instructions an output row of 32 channels (its
     unit tables, its one-phase stores, its per-block copies and conversions of x); this loop
     copies x once per run as f16 [n][d][h][w][c] (8.4 MB for L2/15, ~6 us at the copy rate) and
     runs a whole output row a warp: a (d, h) tap is 10 ldmatrix.x4 and 24 mma.sync m16n8k16, the
     row leaves through the warp's staging, one store instruction a channel row. Its storing pass
     ran L2/15's convolution in 0.100 ms (1.10x its floor) standalone against the block loop's
     0.161, its statistics pass (no store, two CTAs an SM) 0.034, and L2/15's recompute/moments
     chain 0.157 against 0.345 (bench/l15_rows.cu, H200, bench/RESULTS.md fifty-eighth entry);
     the planner's estimate takes the library's own rates on an H100 (_FC3D_WR_VALUES_PER_S,
     _FC3D_WR_STORE_OVER; L2/15's chain estimated 0.205 ms, measured 0.207) and so recomputes L2/15's chain (a statistics pass, then the storing pass through the composed
     map: 2 x 63 M values convolved, 252 MB written once) rather than materialising it (y
     written, then read and written again). Its statistics slots are one per (n, c, od): a pass
     with statistics deals whole segments (n, od) to its CTAs, so the partials do not depend on
     the grid; the plan sizes them by its planes, as the block loop's by its blocks
     (_fc3d_tc_slots; sized by the tiled loops' tiles, L2/15's moments had 964 slots a (n, c) of
     which 31 held sums, 7.6 MB of zeros written by the statistics pass and read by the
     finalize). Measured in the library on an H100 (bench/RESULTS.md, sixty-first entry), where
     L2/15's store-bound passes run slower than on the H200 of the standalone figures: its
     convolution alone 0.171 ms TF32 / 0.164 half against the block loop's 0.211 in the same
     call; its chain 0.228 ms in `make bench` (2.50x its floor, chain / convolution 1.33),
     0.225 by the example's timer; under ncu the storing pass 184 us (one CTA of 8 warps an SM,
     157 registers, DRAM 40 % of peak, 0.36 eligible warps a scheduler, 45 % of a warp's cycles on
     fixed-latency dependencies: two warps a scheduler leave its instruction chains exposed), the statistics pass 46, x's copy 15 + 3, the weight's 10 (one CTA), the moments
     and finalize ~20. The staged stores then unrolled over their 16 channels (the shared-memory
     reads ahead of the channel test, the row stepped by the channel stride, its 8-byte alignment
     the first row's flipped by odhw's parity) and the weight's prep reading the weight once,
     coalesced, into shared memory: the convolution alone 0.171 -> 0.155 ms TF32, 0.164 -> 0.148
     half, the chain 0.226 -> 0.213 ms (example timer; TF32, same call, two rounds alternating),
     the storing pass 161 us under ncu (DRAM 45 %), the weight's prep 9.9 us (bench/RESULTS.md
     sixty-second entry). A storing pass then ran 12 warps a CTA instead of 8 (3 a scheduler; 10
     warps take 3, 3, 2, 2, the register file being split by scheduler, so 10 and 12 both cap a
     thread at 168 registers; the pass uses 156, no spill; 154 KB of shared memory): the storing
     pass 162 -> 146 (10 warps) -> 131 us under ncu (0.29 -> 0.37 instructions issued a
     scheduler's cycle, DRAM 45 -> 56 %), the convolution alone 0.155 -> 0.161 (10) -> 0.152 ms
     TF32, 0.148 -> 0.144 half, the chain 0.215 -> 0.204 ms TF32, 0.208 -> 0.196 half (example
     timer, same call, two rounds alternating; the timed runs' faster clock leaves less of the
     latency to hide than ncu's); the weight's prep with its 14 loads a thread issued before
     their first use 9.95 -> 9.25 us (one CTA: its launch and its two phases, not the loads, are
     most of it). `make bench`: the convolution alone 0.151 ms (1.66x its floor), the chain
     0.207 (2.26x). The weight's prep then ran as block 0 of x's copy (CTAs of 1024 threads, x's
     magnitude word zeroed by a 4-byte memset before it), hidden behind the copy (15.2 us under
     ncu with it, 15.2 without): the convolution alone 0.151 / 0.150 -> 0.144 / 0.144 ms TF32,
     0.144 / 0.143 -> 0.138 / 0.137 half, the chain 0.204 / 0.204 -> 0.196 / 0.198 TF32, 0.197 /
     0.196 -> 0.190 / 0.190 half (same call, two rounds alternating; bench/RESULTS.md
     sixty-third entry): 1.58x the convolution's floor. A storing pass's taps then ran 16
     channels at a time (_FC3D_WR_NTG 2: 156 -> 116 registers, x's fragments loaded twice): the
     convolution alone 0.144 -> 0.142 ms TF32, 0.138 -> 0.135 half, the chain 0.197 -> 0.194 TF32
     (same call, two rounds alternating; at 16 warps a CTA 0.144, slower timed though faster
     under ncu). Units of two segments on three plane buffers with 8 staged channels
     (_FC3D_WR_NB_STORE 3, _FC3D_WR_STCH 8: ncu's largest stall in the storing pass was the
     segments' barriers) halved that stall (18.0k -> 7.9k) and timed slower: the convolution
     alone 0.144 -> 0.146 ms TF32, 0.137 -> 0.140 half, the storing pass 131.6 -> 136.0 us under
     ncu; the programmatic dependent launches after x's copy (_FC3D_PDL) were worth 0.148 ->
     0.146 on top of them (same call, three rounds alternating; bench/RESULTS.md sixty-fifth
     entry). Two buffers, 16 staged channels, NTG 2 and PDL, the defaults: the convolution alone
     0.143 -> 0.139 / 0.140 / 0.140 ms TF32, 0.137 -> 0.134 / 0.134 / 0.133 half, the chain
     0.196 -> 0.191 / 0.193 / 0.193 TF32, 0.190 -> 0.187 / 0.187 / 0.188 half (same call, three
     rounds alternating; the storing pass 132.6 -> 137.7 us under ncu, which runs the kernels
     one by one, so PDL's overlap does not show there); `make bench` 0.140 ms (1.54x the
     convolution's floor), the chain 0.196. A storing CTA split into two groups of 6 warps, each
     with its own segments, two plane buffers, map and named barrier (217 KB at input H 32)
     cut the barrier stall 18.3k -> 7.5k and timed slower, 0.140 -> 0.147 ms TF32, its chain
     0.202 against 0.197 before the defaults (each group's range starts with a plane load
     nothing hides, and there are twice as many part segments; bench/RESULTS.md sixty-sixth
     entry): not taken. x's copy then took its largest magnitude across the CTA before one
     atomic (one a warp had sent L2/15's 8,192 atomics to the one word: 12,320 L2 reductions ->
     385, the copy 15.1 -> 11.9 us under ncu) and the rescale after it ran on 256 CTAs at most
     (1024 had taken 3.6 us to read the magnitude word and return, 256 take 2.9): the
     convolution alone 0.140 -> 0.136 -> 0.135 ms TF32 (half math, which takes no magnitude,
     0.134 throughout), the chain 0.192 -> 0.190 -> 0.188 (same call, three rounds
     alternating); `make bench` 0.137 ms, 1.50x the convolution's floor (bench/RESULTS.md
     sixty-sixth entry). Its statistics pass then summed the accumulators themselves where the
     pass's ops are one map a v + b per (n, c) (v - k, the value less the channel's tap-less
     value b, is the accumulator times a: a and a^2 taken once a segment, in double; positions
     past a phase's end zeroed under a test of the warp's, not a select a value), and a unit's
     rows took its segment without a division a row (the plane loads' h = hw / W in float):
     ncu put that pass at 52.1 -> 42.5 us, the storing pass 144.1 -> 142.0, the chain 0.187 ->
     0.180 ms TF32, 0.186 -> 0.178 half, the convolution alone unchanged (0.136 / 0.134; H100,
     same call, three rounds alternating; bench/RESULTS.md seventy-ninth entry). The same sums
     with a select a value measured 0.5 % faster in TF32 (0.179; 41.3 us) and equal in half;
     that build did not get through the GPU suite before the session's device time ran out
     (branch wip/wr-stats-e). Built without its per-value sums (timing only) the pass ran 16.5
     us against 44 (whether ptxas kept the MMAs nothing then reads was not checked). ncu's
     samples of that pass then lay 38 % at its MMAs, 18 % in a row's set-up, 15 % in its sums
     and 30 % at a segment's head and tail (plane loads, the map, barriers, the partials in
     double).
   - direct (>>engine-direct): every output element is the sum over the input taps that reach it,
     computed by one thread in FP32 FMAs, with the epilogue applied in the same kernel before the
     store. It accepts every valid desc (all conv parameters, both layouts, three element types,
     three math modes) and is the GPU reference and the fallback. It reaches 0.6 to 3 TFLOP/s on
     the five reference workloads (bench/RESULTS.md): 5x to 65x slower than PyTorch. Its passes
     that read the intermediate back also serve the implicit-GEMM engine's chains. Where every op
     of such a pass is fixed by (n, c) and the layout is NCDHW, the pass streams each (n, c) slab
     with 16-byte loads, the ops resolved once per 4096-element block (_fc3d_stream_pass_kernel;
     statistics that keep no spatial dim are gathered per block): L2/61's GroupNorm pass 0.70 ->
     0.23 ms, about the copy bandwidth (2.8 TB/s); L2/15's two passes 0.36 + 0.33 -> 0.21 + 0.18.
     Such a pass stays behind the convolution, not beside it: L2/61 split into sample chunks on two
     streams (a chunk's GroupNorm pass beside the next one's convolution) measured 1.293 -> 1.261
     ms at best (8 + 8 samples; smaller chunks lose more to each convolution's last wave), and the
     convolution with the pass's 644 MB of traffic running beside it on another stream took 1.21 ms
     against 1.23 in sequence; L1/77's fill beside its haloed kernel likewise took the sum of the
     two (bench/RESULTS.md, fifteenth entry): the convolution's L2 traffic and issue slots are what
     the pass would take. The same with the haloed loop's convolution (bench/norm_overlap.cu,
     thirty-seventh entry): L2/61's convolution pass 0.538 ms and a GroupNorm-sized apply 0.176
     alone, 0.687 at best together (0.714 in turn); the apply from an L2-resident buffer alike
     (0.679 against 0.70), so a persistent kernel normalising an earlier sample inside the
     convolution of a later one would save ~0.02-0.03 ms of L2/61's 0.75 and is not built. On one
     stream, each slice's read-back on one block an SM with the next
     slice's convolution its programmatic dependent, the slices bitwise equal to the unsliced run:
     1.166 ms unsliced against 1.244 / 1.339 / 1.575 in 2 / 4 / 8 slices (TF32; half alike; the
     slices' last waves and finalizes cost more than the read-backs they hide; bench/RESULTS.md,
     2026-11-27 twelfth). Again with the kernel as the fill's programmatic dependent (a fill of
     all of y in the kernel's tile order, per-sample counters each tile waits on before its
     stores): 0.45-0.49 ms against 0.42 in turn, the fill below 1.5 TB/s beside the kernel's
     read-backs; a fill of the tap-less positions alone (half sectors) 1.01 (bench/RESULTS.md,
     2026-11-26 eighth). Read back last chunk first, to take what L2 still holds of the last
     samples: slower (L2/61's pass 220 -> 251 us for 16 MB less read: descending addresses); the
     samples last first with each sample's chunks ascending (_FC3D_STREAM_REV) is faster, L2/61's
     chain 0.828 -> 0.821 ms TF32, 1.666 -> 1.664 FP32 (H100, three rounds alternated;
     bench/RESULTS.md sixty-seventh entry).
     Other read-back passes resolve such ops once per unit of rows (1.06 -> 0.70 ms before the
     streamed kernel, a third of the copy bandwidth). Where every op of a streamed pass is affine
     in the value (_fc3d_uop_compose), a block composes them in double into one a v + b (one
     conversion each way a value): L2/15's read-back (BatchNorm, then the mean subtraction, each
     in double) 70.3 M -> 52.0 M instructions, 162 -> 135 us under ncu, DRAM 61 -> 73.5 % of
     peak, its chain 0.400 -> 0.393 ms (H200, example timer; bench/RESULTS.md, twenty-third
     entry). It now moves its 475 MB at 3.44 TB/s, the rate a plain one-read kernel gets on that
     machine (3.33; twenty-fourth entry): what is left of L2/15's chain beyond its convolution is
     the pass itself. A read-back pass that begins with a norm over W rows of up to 256 values
     (LayerNorm over W) whose statistics the convolving pass could not gather takes them from the
     rows it reads, a warp a few whole rows (_fc3d_row_pass_kernel): one pass over y instead of a
     statistics read-back, a finalize and the pass (L2/34 in FP32, where the plan takes it for the
     haloed loop: 1.53 ms under ncu, issue-bound at 1.39 TB/s; bench/RESULTS.md forty-fifth entry).
     Float32 NCDHW rows of 8 to 256 values (a power of two) on 16-byte accesses, a row on W / 8
     lanes of 8 values (_fc3d_row_pass_vec_kernel): 820 M -> 330 M instructions, 1.53 -> 0.67 ms
     under ncu (3.2 TB/s, DRAM 66 % of peak), L2/34's FP32 chain 2.80 -> 2.17 ms (forty-sixth entry);
     since the 3xTF32 row tiles (above) L2/34 takes none, the pass serves FP32 rows whose output
     sums more than 512 products and FP32 rows at W stride 1.
   An engine entry has a name, can_implement (which returns a reason when it refuses), how it plans
   its steps for the logical passes, and which workspace regions it adds. desc.engine forces one;
   describe prints the choice and each refusal.

   Passes (logical, public; >>planning). The chain is cut before each statistics op. With
   FC3D_STRATEGY_MATERIALIZE (y has the convolution's shape) the first pass computes the
   convolution and the ops before the first cut and stores them as the intermediate; each later
   pass reads it back, applies the next piece and stores it again, the last one into y. With
   FC3D_STRATEGY_RECOMPUTE each pass recomputes the convolution and the ops so far, and only the
   statistics leave the kernel; a last convolution pass applies the whole chain and stores y
   (none where the chain ends in a pool: its finalize writes y). With FC3D_STATS_PLAN_MOMENTS the
   chain has one cut only, before its first statistics op: the first pass gathers per-(n, c)
   sums and sums of squares (plan._private.stat[_FC3D_MOMENTS]), a raw finalize keeps them, and
   one small step per statistics op (_fc3d_moments_kernel, >>finalize) carries each (n, c) cell's
   affine map through the ops and derives the op's mean and 1/std (and running and saved
   statistics, or the pooled y) exactly as its own pass would have, in double. A moments tail
   (_fc3d_mtail_kernel) can take all of those steps in one launch where the statistics ops
   number at most 4: every op's groups are whole channel groups, so with W the least common
   multiple of their sizes a block takes W channels of every sample through the whole chain with
   no exchange between blocks (C / W blocks of 256 threads, at most 1,536 cells each), the cells'
   sums and maps in shared memory from op to op; where a block's partials number at most 32,768
   it sums them too, so the raw finalize goes as well (L2/15: 32 blocks of 16 cells, 31 slots
   each; L2/77: 128 blocks of 16). The planner does not take it by default (_FC3D_MT_ON): its
   first form, one block of 1,024 threads for all the cells, ran L2/15's chain 0.179 -> 0.191 ms
   TF32 on the H100, its kernel 15.7 us under ncu against 3.9 + 6.3 + 5.5 for the three launches
   (bench/RESULTS.md eighty-first entry), and the channel-split form is not yet timed. With
   FC3D_STATS_PLAN_LINEAR (every op affine per (n, c), statistics only spatial means and a pool)
   the first pass reads x alone (FC3D_SOURCE_INPUT_SUMS): box sums of x per (n, ci, tap) in three
   separable stages, contracted with the weight into the per-(n, c) sums of the convolution
   (_fc3d_xsums_kernel, _fc3d_xcontract_kernel, operands rounded as the math mode rounds them;
   the contraction a warp per (n, c): a thread per (n, c) took 132 us under ncu for L2/15's 512
   cells, a warp 15; bench/RESULTS.md thirty-sixth entry),
   then the same moments steps (or, where it is on, the tail from the sums) with every op folded in;
   one convolution pass applies the chain,
   none when it ends in the pool.
   The planner (_fc3d_choose_passes) builds each alternative - materialize or recompute, per op,
   moments or linear, where the chain allows them - in a scratch plan, lets the engine that would
   run it plan its steps, and costs the steps (_fc3d_plan_costs): FLOPs issued (the implicit
   GEMM's MMAs per tile from its tap ranges; the haloed loop's per tile from its d taps, (h, w)
   taps and rows, padding rows and taps into the padding included), bytes read and written, the floor max(bytes / 2945
   GB/s, FLOPs / the math mode's tensor rate) per step, and an estimate that also holds each
   engine to what it sustains (the implicit GEMM's tiled loops: 37 M tiles a second; its block
   loop: 2.9e11 output values a second, 30 % more with a store, 33 % more per op, 0.78 of that for a
   pass of both W phases; the haloed loop's warp-specialized row tiles: their row program,
   4.9e11 values a second for the LayerNorm over W, 29 % more with a GELU, _fc3d_hx_ws_step_kind;
   its other tiles: their MMAs and stores in series, not the larger of the two; the direct
   engine 2 TFLOP/s). Those two terms took the estimates (TF32; H200 measured in `make bench`,
   bench/RESULTS.md fifty-fifth and fifty-sixth entries) of L2/34's chain 0.481 -> 0.745 ms
   (0.747), L2/61's 0.658 -> 0.768 (0.746; FP32 1.454 -> 1.563 against 1.580), its convolution
   alone 0.436 -> 0.546 (0.540), L1/77's 0.219 -> 0.257 (0.262; FP32 0.244 -> 0.365 against
   0.373), L2/77's convolution alone 0.987 -> 1.059 (1.020); no plan's choice moved on the five
   workloads in any math mode. The least estimate wins, ties in the order linear, materialize/moments,
   recompute/moments, materialize/per op, recompute/per op. exec_bytes against ncu's DRAM bytes
   over one run's kernels (bench/ncu_bytes.sh, H200, the plans of 332b57b, TF32 / half / FP32):
   L2/15 0.906 / 0.907 / 0.969, L2/77 0.886 / 0.870 / 0.929, L2/34 0.966 / 0.964 / 0.964, L2/61
   0.947 / 0.942 / 0.953, L1/77 0.955 / 0.953 / 0.958; exec_flops against ncu's MMA counts 1.0002
   on L2/15's block loop (its f16 m16n8k16s), N 256 / 120 / 256 / 240 (FP32: 128 / 120 / 128 /
   120) on the others' wgmmas as the plan counts them (bench/RESULTS.md fifty-sixth entry). The first such check (H100, TF32:
   0.95 / 0.92 / 0.98 / 0.96 / 0.99; half and FP32 0.88-1.05) came once it counted the haloed
   loop's operand copy of x (written whole by the prep step, read by the convolving step only in
   the padded planes that hold input: L2/77 reads 91 MB of its 135 MB copy) and, behind a zero
   fill, the tapped phases' sectors (stride-2 stores write half of each 32-byte sector, which DRAM
   then reads and writes whole: L1/77 2 x 136 MB for 65 MB of values); without them it had been
   3.08 on L2/77, 1.11 on L2/34, 1.24 on L2/61 and 1.41 on L1/77 (bench/RESULTS.md, 2026-11-27
   seventeenth). With no fill (_fc3d_hx_zc_geom) L1/77's convolving step counts y once: 607 MB
   against ncu's 613 (547 written, 66 read; H200, 2026-11-29 twenty-seventh). ncu's wgmma counts
   give exec_flops' MMA shape exactly (n256, n240 on L2/34's row tiles), its mma.sync count L2/15's
   6.801 GFLOP. The floor alone would take L2/15 to recompute/moments (0.16 against 0.27
   ms), but this engine's tile rate makes its convolution pass 0.42 ms whatever it stores, and
   measured (example timer, TF32, H100): materialize/moments 0.875 ms, recompute/moments 1.45,
   materialize/per op 1.04; the estimate picks the first. On the block loop (TF32) it still does:
   materialize/moments 0.547 ms, recompute/moments 0.659 (its convolution pass takes 0.26-0.54 ms
   whatever it stores; bench/RESULTS.md, sixteenth entry); with the block loop 0.371 against
   0.655 (H200, thirty-third entry), estimated 0.394 against 0.646; with the recomputing pass on
   the pairs' composed map 0.370 against 0.428, estimated 0.394 against 0.440 (thirty-sixth). A
   chain of affine ops and spatial means on the same convolution takes the linear plan: 0.269 ms
   against 0.361 materialising (thirty-sixth entry, bench/linear_chain.cu). L2/77:
   recompute/moments, one convolution pass, 5.98 ms against 11.9 for recompute/per op.
   The value a materializing pass hands to the next is float32: y itself when y is float32, a
   workspace buffer when y is 16-bit, so that statistics and normalisation see unrounded values
   (an intermediate stored in bf16 cost up to 2e-2 relative error after a GroupNorm).

   Shared memory a block (desc.smem_per_block). The planner makes no CUDA call, so the device's
   grant is a desc field: sm_90's 227 KB by default, which every loop here is sized within (the
   mma.sync tiles take up to 110 KB at 128 channels, the block loop up to 112 KB, the haloed and
   wgmma loops up to 227 KB). sm_80 grants 163 KB and sm_86 / sm_89 99 KB, where the default plans'
   128-channel tiles and larger block-loop blocks cannot launch. Below 227 KB the planner halves
   the mma.sync channel tile until it fits (_fc3d_tc_sync_smem: 64 channels take 86 KB), searches
   block-loop blocks within the grant, and takes no sm_90a loop (they run on sm_90 only, which
   grants the full 227 KB). A run on a device without the sm_90a loops compares the most its
   mma.sync-family launches take (_fc3d_tc_sync_need) with the device's grant before anything
   launches and refuses with the figure to plan with (_fc3d_tc_device_check), instead of failing
   at the first launch that asks for more. The default plans are unchanged by the field (3,000
   random descs describe alike, bench/describe_dump.cu); at 99 KB the 2,897 of them the engine
   takes all fit, 52 on the block loop against 60 at 163 KB. Below 99 KB (FC3D_SMEM_PER_BLOCK_TC)
   the device is older than sm_80 (sm_70 grants 96 KB, sm_75 64 KB) and the implicit-GEMM engine
   refuses the plan: AUTO then takes the direct engine, which runs everywhere. A launcher raises
   its kernel's limit to what the launch takes and never lowers it (_fc3d_smem_attr, under a
   lock): one kernel serves plans of different sizes, and host threads running two of them at once
   must not set it below what the other is about to launch with.

   Steps (physical, private, >>steps). Each logical pass becomes one or more kernel launches; a
   step records its kind, its pass, the statistics op it serves, the kernel instantiation, the grid
   and up to eight plan-time arguments. The executor calls the step kind's launcher with the bound
   pointers.

   Statistics (>>statistics). Which elements form a statistics group comes from two op-table
   columns: the logical dims a group keeps (BatchNorm keeps C; GroupNorm N and C grouped by
   op.groups; LayerNorm the leading 5 - norm_dims dims; spatial mean and pool N and C) and the
   channel grouping. Groups are numbered row-major over the kept dims. A producer (a direct block,
   later a GEMM tile) writes (sum, sum of squares) partials in double to partials[group * slots +
   slot]; which slot is the producer's business, and the engine sets slots per group at plan time.
   One generic finalize step (a warp per group, or a block where a group has thousands of slots)
   sums a group's slots in a fixed order (strided per lane, then a fixed tree), then writes
   (mean, 1/std), updates running statistics, writes saved statistics, or writes the group means as
   y for a reduction - each from op-table columns and flags, not per-op code. No atomics anywhere:
   two runs are bitwise identical. Where a group's slots are cells (a channel, a sample) of a
   producer's tiles and the run's producer has fewer tiles than the plan sized them by (the haloed
   phase tiles: L2/61 154 of the tiled loops' 308 a (n, c)), the finalize reads the written ones
   alone (_fc3d_tc_slots_written) and nothing writes the rest: the tiles zeroed them before (each
   sample's first tile, slot by slot: L2/61's convolving pass 637.6 -> 632 us under ncu), and
   L2/61's finalize read 10 MB of which half were those zeros; its chain 0.8152 -> 0.8090 ms TF32,
   L2/77's 0.9812 -> 0.9731 (H100, rounds alternated, bench/RESULTS.md sixty-ninth entry).

   Workspace (>>workspace). One layout function places the regions: the float32 intermediate
   (16-bit y with statistics ops only), the partials (the largest groups x slots of any statistics
   op, reused by every pass since passes run in stream order), each statistics op's (mean, 1/std)
   per group, then the regions the engine adds. Every region is 256-byte aligned from an aligned
   base; the size includes 255 bytes of slack for aligning the caller's pointer. The size query,
   the run and the alias check all read the one layout stored in the plan.

   Numerics. Products and sums of the convolution are float32 (after the math mode's operand
   rounding); partials and group statistics are double, the variance E[x^2] - mean^2 taken in
   double, which stays accurate while |mean| / std is below about 1e6. The haloed loop's NCDHW
   epilogue in TF32 and half math (FP32 math sums in double) sums a lane's 8 values of a channel in
   float before its double partial: at most 8 ulp on a sum of squares, so at most 5e-7 (1 +
   mean^2 / var) relative on the variance; TF32 operands already put ~5e-4 |mean| in each value, which outweighs that
   while |mean| / std stays below ~1e3. A channel constant over its group (every output tap-less,
   or x = 0: the bias through the ops, no operand rounding in it) has var 0, which float sums
   leave at ~1e-7 mean^2 (under the moments plan a GroupNorm after a training BatchNorm took that
   as variance): the block loop, the warp-row loop's statistics pass and the haloed loop's
   epilogue sum v - k, k that tap-less value, and undo the shift in double (exact there; the
   block-loop paragraph, >>engines); the tiled loops sum in double. The elementwise epilogue is
   float32 (the GEMM epilogues' and read-back passes' GELU takes erf from Abramowitz and Stegun's
   7.1.26, branch-free: within 1.8e-7 max(|v|, 1) of the exact GELU over [-12, 12], where erff's
   form is within 1.1e-7; the direct engine keeps erff); a normalisation or mean subtraction is applied in double from double (mean, 1/std) and
   rounded once: in float the rounding of the mean and of v - mean is amplified by the
   normalisation, and a chain of scale, GELU, LayerNorm over (D,H,W) and a pool measured 2.8e-5
   rel-L2 that way on a CPU emulation (1.6e-7 with the normalisation in double). FP32 math (3xTF32)
   drops only small x small (2^-22 relative a product) and bounds what the tensor core's
   accumulation truncates by chunks added into float sums; on the haloed loop its parts are f16
   with x and the weight each scaled to a largest magnitude in [2^14, 2^15) (_fc3d_hx_x3_scales),
   so a value under about 2^-17 of its tensor's largest loses low bits of its small part, under
   about 2^-28 of its big part too (an error of at most 2^-39 of that largest magnitude): an
   output formed only from such values is accurate relative to the tensors' largest magnitudes
   rather than to itself. Measured: 4.8e-7 rel-L2 from float64 on L2/77's
   pooled output (K = 8000), 5.0e-7 at most in the random GPU tests (bound 1e-5). TF32 math on
   the haloed loop holds its TF32 operands the same way (_FC3D_HX_TF32_F16): a weight under about
   2^-28 of the weight's largest magnitude loses low bits (at most 2^-39 of that magnitude), far
   under TF32's own rounding of each operand (2^-11 of it); x is held unscaled where its largest
   magnitude lies in [2^-4, 2^15) (its scan costs a read of x before the copy otherwise), so a
   value of x under 2^-14 errs by at most 2^-25, at most 2^-21 of x's largest magnitude
   (_fc3d_hx_x_as_is).

   Adding an elementwise op: a row in >>optable, its case in _fc3d_apply_ops (>>device-helpers),
   and, if its parameters are fixed by (n, c), its kind in _fc3d_nc_uniform, _fc3d_resolve_op,
   _fc3d_uop and _FC3D_UOP_KINDS, and where it is affine in the value its map in
   _fc3d_uop_compose (>>engine-direct: read-back passes and GEMM epilogues resolve such ops once
   per unit or channel; a kind _fc3d_nc_uniform does not list takes the interpreter, one
   _fc3d_uop_compose does not list the streamed pass's op-by-op path),
   its case in fusedconv3d_cpu.h, and a golden (tests/golden/make_goldens.py). A statistics op
   with a new grouping is a row whose columns describe it: planning, workspace, finalize and the
   direct engine follow from the columns. */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mutex>
#include <utility>
#include <type_traits>

/* >>optable --------------------------------------------------------------------------------------
   One row per op kind.
     stats    what the op does with statistics of its whole input: nothing; normalise
              ((v - mean) / std, then the affine); subtract the mean; reduce (y becomes the group
              means, so the op must be last and y keeps only the kept dims)
     keep     the logical dims (N, C, D, H, W) a statistics group keeps; LEADING: the first
              5 - norm_dims dims. Channels are grouped by op.groups when the op takes `groups`.
     flags    the fc3d_op.flags it takes
     fields   the scalar fields it reads
     tensors  the float tensors it always binds (its flags can ask for more)
     affine   what its weight and bias run over: a channel, or the dims a group does not keep */
enum {
    _FC3D_T_WEIGHT = 1, _FC3D_T_BIAS = 2, _FC3D_T_RMEAN = 4, _FC3D_T_RVAR = 8,
    _FC3D_T_SMEAN = 16, _FC3D_T_SINVSTD = 32
};
enum { _FC3D_F_VALUE = 1, _FC3D_F_EPS = 2, _FC3D_F_MOMENTUM = 4, _FC3D_F_GROUPS = 8, _FC3D_F_NDIMS = 16 };
enum { _FC3D_ST_NONE = 0, _FC3D_ST_NORMALIZE = 1, _FC3D_ST_SUB_MEAN = 2, _FC3D_ST_REDUCE = 3 };
enum {
    _FC3D_K_N = 1, _FC3D_K_C = 2, _FC3D_K_D = 4, _FC3D_K_H = 8, _FC3D_K_W = 16,
    _FC3D_K_LEADING = 32
};
enum { _FC3D_AFF_CHANNEL = 0, _FC3D_AFF_NORMALIZED = 1 };

#define _FC3D_OP_TABLE(X)                                                                            \
    /* kind                     name                stats               keep                         \
       flags taken                                                            fields                \
       tensors                        affine */                                                      \
    X(FC3D_OP_SCALE,            "scale",            _FC3D_ST_NONE,      0,                           \
      0u,                                                                     _FC3D_F_VALUE,        \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_ADD_CHANNEL,      "add_channel",      _FC3D_ST_NONE,      0,                           \
      0u,                                                                     0,                    \
      _FC3D_T_BIAS,                   _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_RELU,             "relu",             _FC3D_ST_NONE,      0,                           \
      0u,                                                                     0,                    \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_GELU,             "gelu",             _FC3D_ST_NONE,      0,                           \
      0u,                                                                     0,                    \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_GELU_TANH,        "gelu_tanh",        _FC3D_ST_NONE,      0,                           \
      0u,                                                                     0,                    \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_BATCHNORM_TRAIN,  "batchnorm_train",  _FC3D_ST_NORMALIZE, _FC3D_K_C,                   \
      (unsigned)(FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS | FC3D_OP_SAVE_BATCH_STATS),          \
                                                                              _FC3D_F_EPS | _FC3D_F_MOMENTUM, \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_BATCHNORM_INFER,  "batchnorm_infer",  _FC3D_ST_NONE,      0,                           \
      (unsigned)FC3D_OP_AFFINE,                                               _FC3D_F_EPS,          \
      _FC3D_T_RMEAN | _FC3D_T_RVAR,   _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_GROUPNORM,        "groupnorm",        _FC3D_ST_NORMALIZE, _FC3D_K_N | _FC3D_K_C,       \
      (unsigned)FC3D_OP_AFFINE,                                               _FC3D_F_EPS | _FC3D_F_GROUPS, \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_LAYERNORM,        "layernorm",        _FC3D_ST_NORMALIZE, _FC3D_K_LEADING,             \
      (unsigned)FC3D_OP_AFFINE,                                               _FC3D_F_EPS | _FC3D_F_NDIMS, \
      0,                              _FC3D_AFF_NORMALIZED)                                          \
    X(FC3D_OP_SUB_SPATIAL_MEAN, "sub_spatial_mean", _FC3D_ST_SUB_MEAN,  _FC3D_K_N | _FC3D_K_C,       \
      0u,                                                                     0,                    \
      0,                              _FC3D_AFF_CHANNEL)                                             \
    X(FC3D_OP_GLOBAL_AVG_POOL,  "global_avg_pool",  _FC3D_ST_REDUCE,    _FC3D_K_N | _FC3D_K_C,       \
      0u,                                                                     0,                    \
      0,                              _FC3D_AFF_CHANNEL)

typedef struct _fc3d_op_info {
    const char* name;
    int stats;
    unsigned keep;
    unsigned flags_taken;
    int fields;
    int tensors;
    int affine;
} _fc3d_op_info;

/* An enum field as the int it holds. Loading an enum object whose value no enumerator covers is
   undefined in C++, and such values are exactly what validation must catch, so enum fields are
   read through their bytes. */
static int _fc3d_enum_int(const void* field) {
    int v;
    memcpy(&v, field, sizeof v);
    return v;
}
typedef char _fc3d_enums_are_ints[(sizeof(fc3d_layout) == sizeof(int) && sizeof(fc3d_dtype) == sizeof(int) &&
                                   sizeof(fc3d_math) == sizeof(int) && sizeof(fc3d_engine) == sizeof(int) &&
                                   sizeof(fc3d_strategy) == sizeof(int) && sizeof(fc3d_stats_plan) == sizeof(int) &&
                                   sizeof(fc3d_op_kind) == sizeof(int))
                                      ? 1
                                      : -1];

/* The row of an op kind given as an int, NULL for NONE and values outside the table. */
static const _fc3d_op_info* _fc3d_op_info_at(int kind) {
    static const _fc3d_op_info table[FC3D_OP_KIND_COUNT_] = {
        {"none", _FC3D_ST_NONE, 0u, 0u, 0, 0, _FC3D_AFF_CHANNEL},
#define _FC3D_X_INFO(kind, name, stats, keep, flags, fields, tensors, affine) \
    {name, stats, (unsigned)(keep), flags, fields, tensors, affine},
        _FC3D_OP_TABLE(_FC3D_X_INFO)
#undef _FC3D_X_INFO
    };
    if (kind <= (int)FC3D_OP_NONE || kind >= (int)FC3D_OP_KIND_COUNT_) return NULL;
    return &table[kind];
}
static const _fc3d_op_info* _fc3d_op_info_of(const fc3d_op* op) { return _fc3d_op_info_at(_fc3d_enum_int(&op->kind)); }

/* Tensors an op needs, given its flags: the table's fixed ones plus those its flags ask for. */
static int _fc3d_op_tensor_mask(const fc3d_op* op) {
    const _fc3d_op_info* info = _fc3d_op_info_of(op);
    int mask = info ? info->tensors : 0;
    if (op->flags & FC3D_OP_AFFINE) mask |= _FC3D_T_WEIGHT | _FC3D_T_BIAS;
    if (op->flags & FC3D_OP_UPDATE_RUNNING_STATS) mask |= _FC3D_T_RMEAN | _FC3D_T_RVAR;
    if (op->flags & FC3D_OP_SAVE_BATCH_STATS) mask |= _FC3D_T_SMEAN | _FC3D_T_SINVSTD;
    return mask;
}

/* Whether an op of this kind is one map a v + b per (n, c) once its statistics are known (scale,
   add_channel, either batchnorm, groupnorm, sub_spatial_mean): the ops that compose by
   _fc3d_uop_compose, that the moments plan folds (_fc3d_moments_first) and that the block loop's
   units of both W phases apply as one map (_fc3d_bk_ops_affine). */
static int _fc3d_kind_affine_nc(int kind) {
    switch (kind) {
    case FC3D_OP_SCALE: case FC3D_OP_ADD_CHANNEL: case FC3D_OP_BATCHNORM_INFER: case FC3D_OP_BATCHNORM_TRAIN:
    case FC3D_OP_GROUPNORM: case FC3D_OP_SUB_SPATIAL_MEAN: return 1;
    default: return 0;
    }
}

/* >>result-strings ---------------------------------------------------------------------------------*/
FC3D_API const char* fc3d_result_string(fc3d_result result) {
    switch (_fc3d_enum_int(&result)) {
#define _FC3D_X_STRING(name, value, text) case value: return text;
        FC3D_RESULT_LIST(_FC3D_X_STRING)
#undef _FC3D_X_STRING
    default: return "unknown fc3d_result";
    }
}

/* Writes "<result text>: <detail>" into msg; returns result so callers can `return _fc3d_fail(...)`. */
static fc3d_result _fc3d_fail(char* msg, fc3d_result result, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static fc3d_result _fc3d_fail(char* msg, fc3d_result result, const char* fmt, ...) {
    if (msg) {
        int k = snprintf(msg, FC3D_MESSAGE_LEN, "%s: ", fc3d_result_string(result));
        if (k > 0 && k < FC3D_MESSAGE_LEN) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(msg + k, (size_t)(FC3D_MESSAGE_LEN - k), fmt, ap);
            va_end(ap);
        }
    }
    return result;
}

FC3D_API size_t fc3d_dtype_size(fc3d_dtype dtype) {
    switch (_fc3d_enum_int(&dtype)) {
    case FC3D_DTYPE_DEFAULT:
    case FC3D_DTYPE_F32: return 4;
    case FC3D_DTYPE_F16:
    case FC3D_DTYPE_BF16: return 2;
    default: return 0;
    }
}

static const char* _fc3d_layout_name(int l) { return l == FC3D_LAYOUT_NDHWC ? "NDHWC" : "NCDHW"; }
static const char* _fc3d_dtype_name(int t) { return t == FC3D_DTYPE_F16 ? "f16" : t == FC3D_DTYPE_BF16 ? "bf16" : "f32"; }
static const char* _fc3d_math_name(int m) { return m == FC3D_MATH_TF32 ? "tf32" : m == FC3D_MATH_HALF ? "half" : "fp32"; }

/* >>defaults -------------------------------------------------------------------------------------*/
#define _FC3D_DEFAULT_EPS 1e-5f
#define _FC3D_DEFAULT_MOMENTUM 0.1f

FC3D_API fc3d_plan_desc fc3d_plan_desc_defaults(const fc3d_plan_desc* desc) {
    fc3d_plan_desc d;
    int i;
    memset(&d, 0, sizeof d);
    if (!desc) return d;
    memcpy(&d, desc, sizeof d);
    for (i = 0; i < 3; i++) {
        if (d.conv.stride[i] == 0) d.conv.stride[i] = 1;
        if (d.conv.dilation[i] == 0) d.conv.dilation[i] = 1;
    }
    if (d.conv.groups == 0) d.conv.groups = 1;
    d.conv.bias = d.conv.bias ? 1 : 0;
    if (_fc3d_enum_int(&d.layout) == FC3D_LAYOUT_DEFAULT) d.layout = FC3D_LAYOUT_NCDHW;
    if (_fc3d_enum_int(&d.dtype) == FC3D_DTYPE_DEFAULT) d.dtype = FC3D_DTYPE_F32;
    if (_fc3d_enum_int(&d.math) == FC3D_MATH_DEFAULT) d.math = FC3D_MATH_FP32;
    if (d.smem_per_block == 0) d.smem_per_block = FC3D_SMEM_PER_BLOCK_MAX;
    for (i = 0; i < FC3D_MAX_OPS && i < d.num_ops; i++) {
        fc3d_op* op = &d.ops[i];
        const _fc3d_op_info* info = _fc3d_op_info_of(op);
        if (!info) continue;
        if ((info->fields & _FC3D_F_EPS) && op->eps == 0.0f) op->eps = _FC3D_DEFAULT_EPS;
        if ((info->fields & _FC3D_F_MOMENTUM) && op->momentum == 0.0f) op->momentum = _FC3D_DEFAULT_MOMENTUM;
    }
    return d;
}

/* >>validation -----------------------------------------------------------------------------------
   Everything here reads the desc with its defaults filled in. */
#define _FC3D_MAX_ELEMENTS ((int64_t)1 << 53)

/* a * b, or -1 when the product passes _FC3D_MAX_ELEMENTS (both >= 0). */
static int64_t _fc3d_mul(int64_t a, int64_t b) {
    if (a < 0 || b < 0) return -1;
    if (a != 0 && b > _FC3D_MAX_ELEMENTS / a) return -1;
    return a * b;
}

static const char* const _fc3d_dim_name[3] = {"D", "H", "W"};

static fc3d_result _fc3d_validate_conv(const fc3d_conv_desc* c, char* msg) {
    int i;
    if (c->batch <= 0) return _fc3d_fail(msg, FC3D_ERROR_CONV_BATCH, "batch = %d", c->batch);
    if (c->in_channels <= 0)
        return _fc3d_fail(msg, FC3D_ERROR_CONV_IN_CHANNELS, "in_channels = %d", c->in_channels);
    if (c->out_channels <= 0)
        return _fc3d_fail(msg, FC3D_ERROR_CONV_OUT_CHANNELS, "out_channels = %d", c->out_channels);
    for (i = 0; i < 3; i++) {
        if (c->in_size[i] <= 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_IN_SIZE, "in_size[%d] (%s) = %d", i, _fc3d_dim_name[i], c->in_size[i]);
        if (c->kernel[i] <= 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_KERNEL, "kernel[%d] (%s) = %d", i, _fc3d_dim_name[i], c->kernel[i]);
        if (c->stride[i] <= 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_STRIDE, "stride[%d] (%s) = %d", i, _fc3d_dim_name[i], c->stride[i]);
        if (c->padding[i] < 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_PADDING, "padding[%d] (%s) = %d", i, _fc3d_dim_name[i], c->padding[i]);
        if (c->dilation[i] <= 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_DILATION, "dilation[%d] (%s) = %d", i, _fc3d_dim_name[i], c->dilation[i]);
    }
    for (i = 0; i < 3; i++)
        if (c->output_padding[i] < 0 || (c->output_padding[i] >= c->stride[i] && c->output_padding[i] >= c->dilation[i]))
            return _fc3d_fail(msg, FC3D_ERROR_CONV_OUTPUT_PADDING, "output_padding[%d] (%s) = %d, stride %d, dilation %d",
                              i, _fc3d_dim_name[i], c->output_padding[i], c->stride[i], c->dilation[i]);
    if (c->groups <= 0) return _fc3d_fail(msg, FC3D_ERROR_CONV_GROUPS, "groups = %d", c->groups);
    if (c->in_channels % c->groups)
        return _fc3d_fail(msg, FC3D_ERROR_CONV_GROUPS_IN_CHANNELS, "in_channels = %d, groups = %d", c->in_channels,
                          c->groups);
    if (c->out_channels % c->groups)
        return _fc3d_fail(msg, FC3D_ERROR_CONV_GROUPS_OUT_CHANNELS, "out_channels = %d, groups = %d", c->out_channels,
                          c->groups);
    return FC3D_SUCCESS;
}

static fc3d_result _fc3d_validate_enums(const fc3d_plan_desc* d, char* msg) {
    const int layout = _fc3d_enum_int(&d->layout), dtype = _fc3d_enum_int(&d->dtype);
    const int math = _fc3d_enum_int(&d->math), engine = _fc3d_enum_int(&d->engine);
    if (layout < FC3D_LAYOUT_NCDHW || layout > FC3D_LAYOUT_NDHWC)
        return _fc3d_fail(msg, FC3D_ERROR_LAYOUT, "layout = %d", layout);
    if (dtype < FC3D_DTYPE_F32 || dtype > FC3D_DTYPE_BF16) return _fc3d_fail(msg, FC3D_ERROR_DTYPE, "dtype = %d", dtype);
    if (math < FC3D_MATH_FP32 || math > FC3D_MATH_HALF) return _fc3d_fail(msg, FC3D_ERROR_MATH, "math = %d", math);
    if (engine < FC3D_ENGINE_AUTO || engine >= FC3D_ENGINE_COUNT_)
        return _fc3d_fail(msg, FC3D_ERROR_ENGINE, "engine = %d", engine);
    if (_fc3d_enum_int(&d->strategy) < FC3D_STRATEGY_NONE || _fc3d_enum_int(&d->strategy) > FC3D_STRATEGY_RECOMPUTE)
        return _fc3d_fail(msg, FC3D_ERROR_STRATEGY, "strategy = %d", _fc3d_enum_int(&d->strategy));
    if (_fc3d_enum_int(&d->stats_plan) < FC3D_STATS_PLAN_AUTO || _fc3d_enum_int(&d->stats_plan) > FC3D_STATS_PLAN_LINEAR)
        return _fc3d_fail(msg, FC3D_ERROR_STATS_PLAN, "stats_plan = %d", _fc3d_enum_int(&d->stats_plan));
    if (_fc3d_enum_int(&d->main_loop) < FC3D_MAIN_LOOP_AUTO || _fc3d_enum_int(&d->main_loop) >= FC3D_MAIN_LOOP_COUNT_)
        return _fc3d_fail(msg, FC3D_ERROR_MAIN_LOOP, "main_loop = %d", _fc3d_enum_int(&d->main_loop));
    if (d->smem_per_block < FC3D_SMEM_PER_BLOCK_MIN || d->smem_per_block > FC3D_SMEM_PER_BLOCK_MAX)
        return _fc3d_fail(msg, FC3D_ERROR_SMEM_PER_BLOCK,
                          "smem_per_block = %d, not in [%d, %d] (48 KB to sm_90's 227 KB)",
                          d->smem_per_block, FC3D_SMEM_PER_BLOCK_MIN, FC3D_SMEM_PER_BLOCK_MAX);
    if (d->num_ops < 0 || d->num_ops > FC3D_MAX_OPS)
        return _fc3d_fail(msg, FC3D_ERROR_NUM_OPS, "num_ops = %d", d->num_ops);
    return FC3D_SUCCESS;
}

static fc3d_stat_geom_ _fc3d_stat_geom_of(const fc3d_op* op, const int64_t cd[5]);

static fc3d_result _fc3d_validate_op(const fc3d_plan_desc* d, const int64_t cd[5], int i, char* msg) {
    const fc3d_op* op = &d->ops[i];
    const _fc3d_op_info* info = _fc3d_op_info_of(op);
    if (!info) return _fc3d_fail(msg, FC3D_ERROR_OP_KIND, "ops[%d].kind = %d", i, _fc3d_enum_int(&op->kind));
    if (op->flags & ~info->flags_taken)
        return _fc3d_fail(msg, FC3D_ERROR_OP_FLAGS, "ops[%d].flags = 0x%x, %s takes 0x%x", i, op->flags,
                          info->name, info->flags_taken);
    if ((!(info->fields & _FC3D_F_VALUE) && op->value != 0.0f) ||
        (!(info->fields & _FC3D_F_EPS) && op->eps != 0.0f) ||
        (!(info->fields & _FC3D_F_MOMENTUM) && op->momentum != 0.0f) ||
        (!(info->fields & _FC3D_F_GROUPS) && op->groups != 0) ||
        (!(info->fields & _FC3D_F_NDIMS) && op->norm_dims != 0))
        return _fc3d_fail(msg, FC3D_ERROR_OP_UNUSED_FIELD,
                          "ops[%d] (%s) sets value/eps/momentum/groups/norm_dims it does not use", i, info->name);
    if ((info->fields & _FC3D_F_VALUE) && !isfinite(op->value))
        return _fc3d_fail(msg, FC3D_ERROR_OP_VALUE, "ops[%d].value = %g", i, (double)op->value);
    if ((info->fields & _FC3D_F_EPS) && !(isfinite(op->eps) && op->eps >= 0.0f))
        return _fc3d_fail(msg, FC3D_ERROR_OP_EPS, "ops[%d].eps = %g", i, (double)op->eps);
    if ((info->fields & _FC3D_F_MOMENTUM) && !(op->momentum >= 0.0f && op->momentum <= 1.0f))
        return _fc3d_fail(msg, FC3D_ERROR_OP_MOMENTUM, "ops[%d].momentum = %g", i, (double)op->momentum);
    if ((info->fields & _FC3D_F_GROUPS) && (op->groups <= 0 || d->conv.out_channels % op->groups))
        return _fc3d_fail(msg, FC3D_ERROR_OP_GROUPS, "ops[%d].groups = %d, out_channels = %d", i, op->groups,
                          d->conv.out_channels);
    if ((info->fields & _FC3D_F_NDIMS) && (op->norm_dims < 1 || op->norm_dims > 4))
        return _fc3d_fail(msg, FC3D_ERROR_OP_NORM_DIMS, "ops[%d].norm_dims = %d", i, op->norm_dims);
    if (info->stats == _FC3D_ST_REDUCE && i != d->num_ops - 1)
        return _fc3d_fail(msg, FC3D_ERROR_OP_POOL_NOT_LAST, "ops[%d] (%s) reduces y but num_ops = %d", i, info->name,
                          d->num_ops);
    if ((info->fields & _FC3D_F_MOMENTUM) && _fc3d_stat_geom_of(op, cd).count <= 1.0)
        /* batch statistics with a momentum: PyTorch refuses a single value per group, whose unbiased
           variance would divide by zero */
        return _fc3d_fail(msg, FC3D_ERROR_OP_BATCHNORM_COUNT, "ops[%d] (%s): one value per group (N*D*H*W = 1)", i,
                          info->name);
    return FC3D_SUCCESS;
}

/* >>statistics -----------------------------------------------------------------------------------
   The geometry of an op's statistics groups, from its table row: the dims a group keeps and the
   channel grouping. Groups are numbered row-major over the kept dims (C counted in channel
   groups); an element's position inside its group is row-major over the dims not kept.
   plan._private.stat[_FC3D_MOMENTS] is the geometry of the per-(n, c) moments
   (FC3D_STATS_PLAN_MOMENTS): groups (n, c), every spatial position in them. */
#define _FC3D_MOMENTS FC3D_MAX_OPS
#define _FC3D_ST_RAW 4 /* a finalize that keeps each group's raw (sum, sum of squares) */
static unsigned _fc3d_stat_keep(const fc3d_op* op) {
    const _fc3d_op_info* info = _fc3d_op_info_of(op);
    if (!info || info->stats == _FC3D_ST_NONE) return 0u;
    if (info->keep & _FC3D_K_LEADING) return (1u << (5 - op->norm_dims)) - 1u;
    return info->keep;
}

static fc3d_stat_geom_ _fc3d_stat_geom_of(const fc3d_op* op, const int64_t cd[5]) {
    fc3d_stat_geom_ s;
    const _fc3d_op_info* info = _fc3d_op_info_of(op);
    int k;
    memset(&s, 0, sizeof s);
    if (!info || info->stats == _FC3D_ST_NONE) return s;
    s.keep = _fc3d_stat_keep(op);
    s.cpg = (info->fields & _FC3D_F_GROUPS) ? cd[1] / op->groups : 1;
    s.groups = 1;
    s.count = 1.0;
    for (k = 0; k < 5; k++) {
        const int64_t ext = k == 1 ? cd[1] / s.cpg : cd[k];
        if (s.keep & (1u << k)) s.groups *= ext;
        else s.count *= (double)cd[k];
    }
    s.count *= (double)s.cpg;
    return s;
}

/* Elements of op i's weight/bias (0 if it binds none): a channel vector, or the normalised shape. */
static int64_t _fc3d_affine_elements(const fc3d_op* op, const int64_t cd[5]) {
    const _fc3d_op_info* info = _fc3d_op_info_of(op);
    int64_t n = 1;
    int k;
    if (!info || info->affine == _FC3D_AFF_CHANNEL) return cd[1];
    for (k = 0; k < 5; k++)
        if (!(_fc3d_stat_keep(op) & (1u << k))) n *= cd[k];
    return n;
}

static fc3d_op_tensor_sizes _fc3d_op_tensor_sizes_of(const fc3d_op* op, const int64_t cd[5]) {
    fc3d_op_tensor_sizes t;
    const int mask = _fc3d_op_tensor_mask(op);
    const int64_t wb = _fc3d_affine_elements(op, cd);
    t.weight = (mask & _FC3D_T_WEIGHT) ? wb : 0;
    t.bias = (mask & _FC3D_T_BIAS) ? wb : 0;
    t.running_mean = (mask & _FC3D_T_RMEAN) ? cd[1] : 0;
    t.running_var = (mask & _FC3D_T_RVAR) ? cd[1] : 0;
    t.save_mean = (mask & _FC3D_T_SMEAN) ? cd[1] : 0;
    t.save_invstd = (mask & _FC3D_T_SINVSTD) ? cd[1] : 0;
    return t;
}

/* Group of the element at logical coordinates co[5] (extents ext[5]). Also the device's. */
static __host__ __device__ __forceinline__ int64_t _fc3d_group_of(unsigned keep, int64_t cpg, const int64_t ext[5],
                                                                    const int64_t co[5]) {
    int64_t g = 0;
    for (int k = 0; k < 5; k++) {
        if (!(keep & (1u << k))) continue;
        if (k == 1 && cpg != 1) /* channel counts are ints: 32-bit divisions */
            g = g * (int64_t)((int)ext[1] / (int)cpg) + (int)co[1] / (int)cpg;
        else
            g = g * ext[k] + co[k];
    }
    return g;
}

/* The ops [begin, end) as a bit set */
static __host__ __device__ __forceinline__ unsigned _fc3d_ops_in(int begin, int end) {
    return (end >= 32 ? 0xffffffffu : ((1u << end) - 1u)) & ~((1u << begin) - 1u);
}

/* Where the partial of (sample n, channel c, part `part` of `parts`) goes, for a group that keeps no
   spatial dim: its group, and the slot (n where the group does not keep it, the channel within the
   group, the part). Shared by the GEMM tiles (part: the tile) and the streamed read-back passes
   (part: the chunk of the (n, c) slab). */
static __host__ __device__ __forceinline__ int64_t _fc3d_nc_partial_index(const fc3d_stat_geom_& sg, int64_t cout,
                                                                            int64_t n, int64_t c, int64_t parts,
                                                                            int64_t part) {
    /* channel counts are ints: 32-bit divisions (the 64-bit ones were a sixth of the instructions
       of L2/15's GEMM step, which writes a partial per channel and tile; ncu) */
    const int keep_n = (sg.keep & _FC3D_K_N) != 0, keep_c = (sg.keep & _FC3D_K_C) != 0;
    const int cpg = (int)sg.cpg, ci = (int)c, nc = (int)cout;
    const int64_t grp = (keep_n ? n : 0) * (keep_c ? nc / cpg : 1) + (keep_c ? ci / cpg : 0);
    const int64_t slot = ((keep_n ? 0 : n) * (keep_c ? cpg : nc) + (keep_c ? ci % cpg : ci)) * parts + part;
    return grp * sg.slots + slot;
}

/* Position of the element inside the dims a group does not keep (LayerNorm's affine index). */
static __host__ __device__ __forceinline__ int64_t _fc3d_position_in(unsigned keep, const int64_t ext[5],
                                                                       const int64_t co[5]) {
    int64_t p = 0;
    for (int k = 0; k < 5; k++)
        if (!(keep & (1u << k))) p = p * ext[k] + co[k];
    return p;
}

/* Whether y keeps logical dim k of the conv output: all of them, unless the chain ends in a
   reduction, whose output keeps only its groups' dims. */
static int _fc3d_y_keeps(const fc3d_plan_private_* pr, int k) {
    const int last = pr->desc.num_ops - 1;
    if (last < 0 || _fc3d_op_info_of(&pr->desc.ops[last])->stats != _FC3D_ST_REDUCE) return 1;
    return (pr->stat[last].keep >> k) & 1u;
}

static void _fc3d_conv_dims(const fc3d_geom_* g, int64_t cd[5]) {
    cd[0] = g->n; cd[1] = g->cout; cd[2] = g->d; cd[3] = g->h; cd[4] = g->w;
}

/* >>workspace ------------------------------------------------------------------------------------
   Region ids. The engines' own regions come after the shared ones. */
enum {
    _FC3D_WS_INTERMEDIATE = 0,             /* float32 conv-output-sized buffer, y's layout */
    _FC3D_WS_PARTIALS = 1,                 /* double2 per (group, slot) of the current pass */
    _FC3D_WS_STATS = 2,                    /* + op index: double2 (mean, 1/std) per group */
    _FC3D_WS_MOMENTS = 2 + FC3D_MAX_OPS,   /* per (n, c): double2 (sum, sum of squares), then
                                              double2 (a, b) of the chain's affine map so far */
    _FC3D_WS_XSUMS = 3 + FC3D_MAX_OPS,     /* box sums of x (FC3D_SOURCE_INPUT_SUMS), double:
                                              [n][ci][tap], then the row and plane stages */
    _FC3D_WS_ENGINE = 4 + FC3D_MAX_OPS     /* + k: the chosen engine's k-th region */
};
#define _FC3D_ALIGN 256

static size_t _fc3d_align_up(size_t v) { return (v + (_FC3D_ALIGN - 1)) & ~(size_t)(_FC3D_ALIGN - 1); }

/* Appends a region; regions of 0 bytes are not placed. */
static void _fc3d_ws_add(fc3d_plan_private_* pr, int id, size_t bytes) {
    fc3d_ws_region_* r;
    if (!bytes || pr->num_regions >= FC3D_MAX_WS_REGIONS_) return;
    r = &pr->regions[pr->num_regions++];
    r->id = id;
    r->offset = pr->ws_used;
    r->bytes = bytes;
    pr->ws_used = _fc3d_align_up(pr->ws_used + bytes);
}

/* Device address of a region, NULL when the plan placed none. */
static void* _fc3d_ws_at(const fc3d_plan_private_* pr, char* base, int id) {
    int i;
    for (i = 0; i < pr->num_regions; i++)
        if (pr->regions[i].id == id) return base + pr->regions[i].offset;
    return NULL;
}

/* >>steps ----------------------------------------------------------------------------------------
   Step kinds: each has a launcher (>>executor) that binds pointers into the step's plan-time
   arguments and launches. */
enum {
    _FC3D_STEP_FINALIZE = 1,    /* reduce the partials of stat_op's groups (any engine) */
    _FC3D_STEP_DIRECT_PASS = 2, /* one logical pass of the direct engine (or a read-back pass) */
    _FC3D_STEP_TC_PREP = 3,     /* implicit GEMM: re-lay the weight per phase for the math mode */
    _FC3D_STEP_TC_CONV = 4,     /* implicit GEMM: one pass's convolution and epilogue */
    _FC3D_STEP_MOMENTS = 5,     /* statistics of stat_op derived from the per-(n, c) moments (any engine) */
    _FC3D_STEP_XSUMS = 6,       /* box sums of x per (n, ci, tap) (any engine) */
    _FC3D_STEP_XCONTRACT = 7,   /* per-(n, c) sums of the convolution from them and the weight */
    _FC3D_STEP_MOMENTS_TAIL = 8, /* a pass's moments steps (and its raw finalize) in one launch (any engine) */
    _FC3D_STEP_KIND_COUNT_
};

static fc3d_step_* _fc3d_add_step(fc3d_plan_private_* pr, int kind, int pass, int stat_op) {
    fc3d_step_* s = &pr->steps[pr->num_steps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->pass = pass;
    s->stat_op = stat_op;
    return s;
}

#define _FC3D_THREADS 256
#define _FC3D_FIN_BLOCK_SLOTS 2048 /* a finalize takes a block per group from this many slots */
/* The moments tail (_fc3d_mtail_kernel, >>finalize): its block, the most cells a block and
   statistics ops it takes, the most partials a block (cells x slots) it sums itself, the most
   cells of a group one thread sums. Off by default (_FC3D_MT_ON 0: the separate launches) until
   its channel-split form is timed against them: the one-block form it replaced measured slower
   (design note, "Passes"). -D_FC3D_MT_ON=1, or _fc3d_mtail_on = 1 before fc3d_plan_init in a
   translation unit of the implementation (the tests), plans it. */
#ifndef _FC3D_MT_ON
#define _FC3D_MT_ON 0
#endif
static int _fc3d_mtail_on = _FC3D_MT_ON; /* (a variable: with the macro 0 the planner's code after it stays reachable) */
#define _FC3D_MT_THREADS 256
#define _FC3D_MT_CELLS 1536
#define _FC3D_MT_PARTS 32768
#define _FC3D_MT_OPS 4
#define _FC3D_MT_THREAD_CELLS 4
static unsigned _fc3d_grid(int64_t blocks) {
    return (unsigned)(blocks < 1 ? 1 : blocks < 0x7fffffff ? blocks : 0x7fffffff);
}
/* The grid of _FC3D_THREADS-thread blocks that gives each of `units` a warp. */
static unsigned _fc3d_grid_warps(int64_t units) {
    return _fc3d_grid((units + _FC3D_THREADS / 32 - 1) / (_FC3D_THREADS / 32));
}

/* The statistics geometry a pass gathers: its op's, or the per-(n, c) moments. */
static int _fc3d_gather_of(const fc3d_pass* ps) { return ps->stat_op < 0 ? -1 : ps->moments ? _FC3D_MOMENTS : ps->stat_op; }

/* The channels a block of the moments tail takes for a pass (>>finalize): the least common
   multiple of its statistics ops' channel groups (C for an op that does not keep C), a divisor of
   C; 0 where the tail does not take the pass (too many ops, or more than _FC3D_MT_CELLS cells a
   block). */
static int64_t _fc3d_mtail_w(const fc3d_plan* p, int pass) {
    const fc3d_plan_private_* pr = &p->_private;
    const int64_t c = pr->geom.cout;
    int64_t w = 1;
    int j, k = 0;
    if (!_fc3d_mtail_on || pass < 0 || pass >= p->num_passes || p->passes[pass].stat_op < 0) return 0;
    for (j = p->passes[pass].stat_op; j < p->desc.num_ops; j++) {
        int64_t g, a, b, r;
        if (_fc3d_op_info_of(&p->desc.ops[j])->stats == _FC3D_ST_NONE) continue;
        k++;
        g = (pr->stat[j].keep & _FC3D_K_C) ? pr->stat[j].cpg : c;
        if (g < 1 || c % g) return 0;
        for (a = w, b = g; b; r = a % b, a = b, b = r) {}
        w = w / a * g; /* lcm(w, g): both divide c, so it does too */
    }
    if (k < 1 || k > _FC3D_MT_OPS || pr->geom.n * w > _FC3D_MT_CELLS) return 0;
    return w;
}

/* The moments tail step: C / W blocks (W = _fc3d_mtail_w); arg[0] whether it sums the partials
   (where a block's number at most _FC3D_MT_PARTS; stat_op then _FC3D_MOMENTS, so that the
   finalize's questions of the gathering step are its own), arg[1] the threads a cell take there
   (the most, up to 32, that a block holds at once), arg[2] W. */
static int _fc3d_add_mtail(fc3d_plan* p, int pass, int raw_ok) {
    fc3d_plan_private_* pr = &p->_private;
    const int64_t w = _fc3d_mtail_w(p, pass), cells = pr->geom.n * w;
    int raw, tpc = 32;
    fc3d_step_* s;
    if (!w) return 0;
    raw = raw_ok && (double)cells * (double)pr->stat[_FC3D_MOMENTS].slots <= (double)_FC3D_MT_PARTS;
    if (raw_ok && !raw) return 0; /* (the finalize first, then the tail from its sums) */
    s = _fc3d_add_step(pr, _FC3D_STEP_MOMENTS_TAIL, pass, raw ? _FC3D_MOMENTS : -1);
    while (tpc > 1 && cells * tpc > _FC3D_MT_THREADS) tpc >>= 1;
    s->block = _FC3D_MT_THREADS;
    s->grid = _fc3d_grid(pr->geom.cout / w);
    s->arg[0] = raw;
    s->arg[1] = tpc;
    s->arg[2] = w;
    return 1;
}

/* The finalize step of a pass that gathers statistics for op i: one warp per group. Where the pass
   gathers the per-(n, c) moments (i = _FC3D_MOMENTS), the finalize keeps them raw, and a moments
   step per statistics op of the chain derives its statistics (>>finalize). */
/* The moments steps of a pass that gathered (or summed from x) the per-(n, c) moments: one per
   statistics op from the pass's stat_op on; the ops the pass did not apply fold in first. */
static void _fc3d_add_moment_steps(fc3d_plan* p, int pass) {
    fc3d_plan_private_* pr = &p->_private;
    int j, fold = p->passes[pass].op_end;
    if (_fc3d_add_mtail(p, pass, 0)) return; /* one launch for them all (>>finalize) */
    for (j = p->passes[pass].stat_op; j < p->desc.num_ops; j++) {
        fc3d_step_* s;
        if (_fc3d_op_info_of(&p->desc.ops[j])->stats == _FC3D_ST_NONE) continue;
        s = _fc3d_add_step(pr, _FC3D_STEP_MOMENTS, pass, j);
        s->block = _FC3D_THREADS; /* a warp per group (>>finalize) */
        s->grid = _fc3d_grid_warps(pr->stat[j].groups);
        s->arg[0] = fold;                            /* ops [fold, j) fold into the maps first */
        s->arg[1] = j == p->passes[pass].stat_op;    /* the first: maps start as (1, 0) */
        fold = j + 1;
    }
}

static void _fc3d_add_finalize(fc3d_plan* p, int pass, int i) {
    fc3d_plan_private_* pr = &p->_private;
    if (i == _FC3D_MOMENTS && _fc3d_add_mtail(p, pass, 1)) return; /* the raw finalize in the tail too */
    fc3d_step_* s = _fc3d_add_step(pr, _FC3D_STEP_FINALIZE, pass, i);
    s->block = _FC3D_THREADS;
    if (pr->stat[i].slots >= _FC3D_FIN_BLOCK_SLOTS) /* a block per group (>>finalize) */
        s->grid = _fc3d_grid(pr->stat[i].groups);
    else
        s->grid = _fc3d_grid_warps(pr->stat[i].groups);
    if (i == _FC3D_MOMENTS) _fc3d_add_moment_steps(p, pass);
}

/* A pass that takes the per-(n, c) sums of the convolution from x (FC3D_SOURCE_INPUT_SUMS): box
   sums of x, the contraction with the weight, then the moments steps. Any engine. */
static void _fc3d_add_input_sums(fc3d_plan* p, int pass) {
    fc3d_plan_private_* pr = &p->_private;
    fc3d_step_* s = _fc3d_add_step(pr, _FC3D_STEP_XSUMS, pass, -1);
    s->block = _FC3D_THREADS;
    s->grid = _fc3d_grid(pr->geom.n * pr->geom.cin);
    s = _fc3d_add_step(pr, _FC3D_STEP_XCONTRACT, pass, -1);
    s->block = _FC3D_THREADS;
    s->grid = _fc3d_grid_warps(pr->geom.n * pr->geom.cout); /* a warp per (n, c) */
    _fc3d_add_moment_steps(p, pass);
}

/* Doubles of the box-sum scratch (_FC3D_WS_XSUMS): per (n, ci) its taps, the row stage
   (D_in x H_in x kW) and the plane stage (D_in x kH x kW). */
static int64_t _fc3d_xsums_doubles(const fc3d_geom_* g, int64_t* rows_at, int64_t* planes_at) {
    const int64_t slabs = g->n * g->cin, taps = (int64_t)g->k[0] * g->k[1] * g->k[2];
    *rows_at = slabs * taps;
    *planes_at = *rows_at + slabs * g->di * g->hi * g->k[2];
    return *planes_at + slabs * g->di * g->k[1] * g->k[2];
}

/* Lets kern take `need` bytes of dynamic shared memory on the current device before its launch:
   raises the function's limit (cudaFuncAttributeMaxDynamicSharedMemorySize) where it is below,
   never lowers it, under one lock. A kernel instantiation serves every plan of its kind, with the
   shared memory of each plan's geometry (the haloed loop's, the block loop's, the warp-row
   loop's); set to each launch's own size, a host thread running a smaller plan could lower the
   limit between another thread's setting and its launch, and fail that launch. The limit is per
   function and device; occupancy follows each launch's own size. It is read from the function
   every time (no table of what was set: a cudaDeviceReset would leave one stale). */
static cudaError_t _fc3d_smem_attr(const void* kern, size_t need) {
    static std::mutex lock;
    const std::lock_guard<std::mutex> held(lock);
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, kern);
    if (e != cudaSuccess) return e;
    if (fa.maxDynamicSharedSizeBytes >= 0 && (size_t)fa.maxDynamicSharedSizeBytes >= need) return cudaSuccess;
    return cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)need);
}

/* Programmatic dependent launch (sm_90 and up): a kernel launched by _fc3d_launch_pdl may start
   while the kernel before it in the stream drains; it runs _fc3d_pdl_wait() before its first access
   to global memory (which waits for every earlier kernel to complete and its writes to be
   visible), and a kernel that runs _fc3d_pdl_launch() lets the next one be scheduled before it
   ends. Both are no-ops on a launch without the attribute and on older devices (the launch drops
   the attribute there). _FC3D_PDL 0 turns it off. */
#ifndef _FC3D_PDL
#define _FC3D_PDL 1
#endif
static __device__ __forceinline__ void _fc3d_pdl_wait() {
#if _FC3D_PDL && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
static __device__ __forceinline__ void _fc3d_pdl_launch() {
#if _FC3D_PDL && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
/* The entry of a kernel in a run's chain of dependent launches: the next kernel may be scheduled
   (it starts only once every CTA of this one has started, so it never takes an SM this one still
   needs), and nothing of global memory is touched before the kernel before this one is done. */
static __device__ __forceinline__ void _fc3d_pdl_enter() {
    _fc3d_pdl_launch();
    _fc3d_pdl_wait();
}
/* kern launched on st, as a programmatic dependent where pdl (and _FC3D_PDL, and sm_90 and up) */
template <typename... K, typename... A>
static cudaError_t _fc3d_launch_ex(bool pdl, void (*kern)(K...), dim3 grid, dim3 block, size_t smem, cudaStream_t st,
                                   A&&... args) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    cudaLaunchAttribute at[1];
    int dev = 0, major = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e != cudaSuccess) return e;
    if (_FC3D_PDL && pdl && major >= 9) {
        at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        at[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
    }
    if ((e = cudaLaunchKernelEx(&cfg, kern, std::forward<A>(args)...)) != cudaSuccess) return e;
    return cudaPeekAtLastError();
}
template <typename... K, typename... A>
static cudaError_t _fc3d_launch_pdl(void (*kern)(K...), dim3 grid, dim3 block, size_t smem, cudaStream_t st,
                                    A&&... args) {
    return _fc3d_launch_ex(true, kern, grid, block, smem, st, std::forward<A>(args)...);
}

/* >>device-helpers -------------------------------------------------------------------------------
   Shared by every engine: element loads and stores, operand rounding per math mode, the epilogue
   ops, fixed-order block sums. */
static __device__ __forceinline__ float _fc3d_load(const float* p, int64_t i) { return p[i]; }
static __device__ __forceinline__ float _fc3d_load(const __half* p, int64_t i) { return __half2float(p[i]); }
static __device__ __forceinline__ float _fc3d_load(const __nv_bfloat16* p, int64_t i) { return __bfloat162float(p[i]); }
static __device__ __forceinline__ void _fc3d_store(float* p, int64_t i, float v) { p[i] = v; }
static __device__ __forceinline__ void _fc3d_store(__half* p, int64_t i, float v) { p[i] = __float2half_rn(v); }
static __device__ __forceinline__ void _fc3d_store(__nv_bfloat16* p, int64_t i, float v) { p[i] = __float2bfloat16_rn(v); }
/* v as it reads back after a store of type T */
static __device__ __forceinline__ float _fc3d_round_to(float v, const float*) { return v; }
static __device__ __forceinline__ float _fc3d_round_to(float v, const __half*) { return __half2float(__float2half_rn(v)); }
static __device__ __forceinline__ float _fc3d_round_to(float v, const __nv_bfloat16*) {
    return __bfloat162float(__float2bfloat16_rn(v));
}

/* v rounded to TF32: to nearest, ties to even, which is how cuDNN rounds its TF32 operands on this
   GPU (the design note). sm_90 has the instruction; older targets form it from the bits (finite v;
   infinities and NaNs pass through). */
static __device__ __forceinline__ uint32_t _fc3d_tc_round(float v)
{
    uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
#else
    r = __float_as_uint(v);
    if ((r & 0x7f800000u) != 0x7f800000u) r = (r + 0xfffu + ((r >> 13) & 1u)) & 0xffffe000u;
#endif
    return r;
}

/* A convolution operand as the math mode sees it. TF32 rounds as the tensor-core engine does
   (_fc3d_tc_round); HALF rounds to the 16-bit type of the data (f16 for f32 data). */
template <int MATH, typename T>
static __device__ __forceinline__ float _fc3d_operand(float v) {
    if (MATH == FC3D_MATH_TF32) return __uint_as_float(_fc3d_tc_round(v));
    if (MATH == FC3D_MATH_HALF && sizeof(T) == 4) return __half2float(__float2half_rn(v));
    return v; /* 16-bit data is already exact in every mode */
}

/* One op as the kernels see it: the desc's fields, its table columns, its bound tensors and its
   statistics. */
typedef struct _fc3d_dev_op {
    int kind;
    int stats;      /* _FC3D_ST_* */
    int affine;     /* _FC3D_AFF_* */
    unsigned keep;  /* dims a statistics group keeps */
    unsigned flags;
    float value;
    float eps;
    int64_t cpg;    /* channels per statistics group */
    const float* weight;
    const float* bias;
    const float* running_mean;
    const float* running_var;
    const double2* stats_of; /* (mean, 1/std) per statistics group, in the workspace */
} _fc3d_dev_op;

typedef struct _fc3d_dev_chain {
    int num_ops;
    _fc3d_dev_op ops[FC3D_MAX_OPS];
} _fc3d_dev_chain;

/* Applies ops [begin, end) to the value at logical position co = (n, c, d, h, w) of a conv output
   with extents ext. The elementwise ops are one case each; statistics ops are applied by their
   table columns. */
static __device__ float _fc3d_apply_ops(const _fc3d_dev_chain& ch, int begin, int end, float v, const int64_t ext[5],
                                        const int64_t co[5]) {
    const int64_t c = co[1];
    for (int i = begin; i < end; i++) {
        const _fc3d_dev_op& op = ch.ops[i];
        switch (op.kind) {
        case FC3D_OP_SCALE: v *= op.value; break;
        case FC3D_OP_ADD_CHANNEL: v += op.bias[c]; break;
        case FC3D_OP_RELU: v = v < 0.0f ? 0.0f : v; break; /* NaN stays NaN, as in PyTorch */
        case FC3D_OP_GELU: v = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); break;
        case FC3D_OP_GELU_TANH:
            v = 0.5f * v * (1.0f + tanhf(0.79788456080286536f * (v + 0.044715f * v * v * v)));
            break;
        case FC3D_OP_BATCHNORM_INFER:
            v = (v - op.running_mean[c]) / sqrtf(op.running_var[c] + op.eps);
            if (op.flags & FC3D_OP_AFFINE) v = v * op.weight[c] + op.bias[c];
            break;
        default:
            if (op.stats == _FC3D_ST_NORMALIZE) {
                /* in double, rounded once: (v - mean) cancels, and in float the rounding of the
                   mean and of the difference would be all the error of an FP32 chain */
                const double2 st = op.stats_of[_fc3d_group_of(op.keep, op.cpg, ext, co)];
                double t = ((double)v - st.x) * st.y;
                if (op.flags & FC3D_OP_AFFINE) {
                    const int64_t a = op.affine == _FC3D_AFF_CHANNEL ? c : _fc3d_position_in(op.keep, ext, co);
                    t = t * (double)op.weight[a] + (double)op.bias[a];
                }
                v = (float)t;
            } else if (op.stats == _FC3D_ST_SUB_MEAN) {
                v = (float)((double)v - op.stats_of[_fc3d_group_of(op.keep, op.cpg, ext, co)].x);
            }
            break; /* a reduction is never applied per element: its finalize writes y */
        }
    }
    return v;
}

/* Fixed-order sum over the warp by a butterfly: lanes combine in a fixed pattern and IEEE
   addition commutes, so every lane holds the same total. Every lane of the warp must call it. */
static __device__ __forceinline__ double2 _fc3d_warp_sum(double2 v, int width = 32) {
    /* width (a power of two up to 32): the sum over each aligned run of that many lanes instead */
    for (int m = width / 2; m > 0; m >>= 1) {
        v.x += __shfl_xor_sync(0xffffffffu, v.x, m);
        v.y += __shfl_xor_sync(0xffffffffu, v.y, m);
    }
    return v;
}

/* The same butterfly in float. */
static __device__ __forceinline__ float _fc3d_warp_sum_f(float v) {
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

/* Fixed-order sum over the block: each warp by _fc3d_warp_sum, then warp 0 over the warps in index
   order. */
static __device__ double2 _fc3d_block_sum(double2 v, double2* scratch) {
    v = _fc3d_warp_sum(v);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, nwarps = blockDim.x / 32;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    double2 total = make_double2(0.0, 0.0);
    if (threadIdx.x == 0)
        for (int i = 0; i < nwarps; i++) {
            total.x += scratch[i].x;
            total.y += scratch[i].y;
        }
    __syncthreads(); /* scratch is reused by the next unit */
    return total;
}

/* >>finalize -------------------------------------------------------------------------------------
   The generic statistics step: reduces each group's slots in a fixed order, for any producer. */
typedef struct _fc3d_finalize_params {
    int stats;               /* the op's _FC3D_ST_* */
    unsigned flags;
    float eps, momentum;
    fc3d_stat_geom_ sg;
    const double2* partials; /* groups x slots */
    int64_t parts, used;     /* a group's slots are cells of `parts` each, of which the first
                                `used` were written (the haloed phase tiles:
                                _fc3d_tc_slots_written); used 0: every slot */
    double2* stats_of;
    float* running_mean;
    float* running_var;
    float* save_mean;
    float* save_invstd;
    void* y;                 /* a reduction's output */
} _fc3d_finalize_params;

/* A group's statistics from the sum s of its slots: mean and 1/std for the pass that applies
   them, the running and saved statistics, or a reduction's output. */
template <typename T>
static __device__ void _fc3d_finalize_tail(const _fc3d_finalize_params& F, int64_t grp, double2 s) {
    if (F.stats == _FC3D_ST_RAW) { /* the moments: kept as sums for the steps that derive statistics */
        F.stats_of[grp] = s;
        return;
    }
    const double mean = s.x / F.sg.count;
    double var = s.y / F.sg.count - mean * mean;
    if (var < 0.0) var = 0.0; /* rounding can take a constant group's variance below zero */
    const double invstd = 1.0 / sqrt(var + (double)F.eps);
    if (F.stats == _FC3D_ST_REDUCE) {
        /* y keeps the group's dims (N and C for a pool): groups are numbered in y's own order,
           which for N x C x 1 x 1 x 1 is the same in both layouts */
        _fc3d_store((T*)F.y, grp, (float)mean);
        return;
    }
    F.stats_of[grp] = make_double2(mean, invstd);
    if (F.flags & FC3D_OP_UPDATE_RUNNING_STATS) {
        const double m = F.momentum;
        F.running_mean[grp] = (float)((1.0 - m) * F.running_mean[grp] + m * mean);
        F.running_var[grp] = (float)((1.0 - m) * F.running_var[grp] + m * var * F.sg.count / (F.sg.count - 1.0));
    }
    if (F.flags & FC3D_OP_SAVE_BATCH_STATS) {
        F.save_mean[grp] = (float)mean;
        F.save_invstd[grp] = (float)invstd;
    }
}

/* The slots of a group, `lanes` threads from `lane` 0 each summing every lanes-th slot in order.
   A thread's loads are issued _FC3D_FIN_BATCH at a time and then added in that same order: one
   load in flight a thread made this step a chain of L2 round trips (L2/61's 128 groups of 4,928
   slots: 8.6 us under ncu). Blocks of 1024 threads (one batch a thread) took 7.87 us against 7.62
   at 256 (H100, bench/RESULTS.md sixty-eighth entry). Where the producer wrote the first `used`
   of each cell's `parts` slots, the thread walks those alone, slot j of that count being cell
   j / used's (j mod used)-th. */
#define _FC3D_FIN_BATCH 8
static __device__ __forceinline__ double2 _fc3d_finalize_sum(const _fc3d_finalize_params& F, int64_t grp, int lane,
                                                            int lanes) {
    double2 s = make_double2(0.0, 0.0);
    const double2* part = F.partials + grp * F.sg.slots;
    const bool some = F.used > 0 && F.used < F.parts;
    const int64_t count = some ? F.sg.slots / F.parts * F.used : F.sg.slots;
    for (int64_t j0 = lane; j0 < count; j0 += (int64_t)_FC3D_FIN_BATCH * lanes) {
        double2 v[_FC3D_FIN_BATCH];
#pragma unroll
        for (int k = 0; k < _FC3D_FIN_BATCH; k++) {
            const int64_t j = j0 + (int64_t)k * lanes;
            v[k] = j >= count ? make_double2(0.0, 0.0) : part[some ? j / F.used * F.parts + j % F.used : j];
        }
#pragma unroll
        for (int k = 0; k < _FC3D_FIN_BATCH; k++) { /* (a zero past the end adds nothing: s + 0 == s) */
            s.x += v[k].x;
            s.y += v[k].y;
        }
    }
    return s;
}

/* Every statistics group: one warp each (grid-stride, so any number of groups is covered), or,
   where a group has many slots (_FC3D_FIN_BLOCK_SLOTS: a few groups of thousands of tile
   partials, e.g. a BatchNorm's channels; a warp each took 58 us for L2/15's 32 x 15424), one
   block each. Both sum in a fixed order. */
template <typename T>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_finalize_kernel(const _fc3d_finalize_params F) {
    _fc3d_pdl_enter(); /* (every step after the convolution: a programmatic dependent launch) */
    if (F.sg.slots >= _FC3D_FIN_BLOCK_SLOTS) {
        __shared__ double2 scratch[_FC3D_THREADS / 32];
        for (int64_t grp = blockIdx.x; grp < F.sg.groups; grp += gridDim.x) {
            const double2 s = _fc3d_block_sum(_fc3d_finalize_sum(F, grp, threadIdx.x, _FC3D_THREADS), scratch);
            if (threadIdx.x == 0) _fc3d_finalize_tail<T>(F, grp, s);
        }
        return;
    }
    const int lane = threadIdx.x % 32;
    const int64_t warps = (int64_t)gridDim.x * (_FC3D_THREADS / 32);
    /* the loop bound is warp-uniform, so the shuffles always see a whole warp */
    for (int64_t grp = (int64_t)blockIdx.x * (_FC3D_THREADS / 32) + threadIdx.x / 32; grp < F.sg.groups; grp += warps) {
        const double2 s = _fc3d_warp_sum(_fc3d_finalize_sum(F, grp, lane, 32));
        if (lane == 0) _fc3d_finalize_tail<T>(F, grp, s);
    }
}

/* Statistics from moments (FC3D_STATS_PLAN_MOMENTS): one launch per statistics op of the chain,
   in order, a warp per group of the op. Each (n, c) cell carries the affine map (a, b) that the
   chain so far applies to the moments pass's value v; lane l takes the group's cells l, l + 32, ..
   (cells numbered n-major), first folds the ops since the previous statistics op into their maps
   (scale, add_channel, inference batchnorm), then sums the cells' moments as the op sees them,
   sum(a v + b) = a S + b m and sum((a v + b)^2) = a^2 Q + 2 a b S + b^2 m (m values per cell), in
   double; the lanes' sums meet in a fixed butterfly (deterministic), and lane 0 finishes as the
   generic finalize does (mean and 1/std for the apply, running and saved statistics, or the
   pooled y). Last, each lane composes the op into its cells' maps. (A thread per group walked a
   BatchNorm channel's cells one dependent round trip after another: 16 us for L2/15's 32
   channels x 16 samples.) */
typedef struct _fc3d_moments_params {
    _fc3d_finalize_params F; /* the op's: its groups, stats_of, running and saved statistics, y */
    _fc3d_dev_chain chain;   /* the folded ops' parameters */
    int fold_begin, op;      /* ops [fold_begin, op) are folded first */
    int init;                /* the first statistics op: every map starts as (1, 0) */
    int64_t n, c;            /* cells */
    double per_cell;         /* values per cell: D x H x W */
    const double2* sums;     /* per cell (S, Q) of v */
    double2* ab;             /* per cell (a, b) */
} _fc3d_moments_params;

/* A cell's map (a, b) with the ops [begin, end) folded in: scale, add_channel and inference
   BatchNorm, the only ops a moments plan lets stand between statistics ops. */
static __device__ __forceinline__ void _fc3d_moments_fold(const _fc3d_dev_chain& ch, int begin, int end, int64_t c,
                                                          double2* ab) {
    double a = ab->x, b = ab->y;
    for (int i = begin; i < end; i++) {
        const _fc3d_dev_op& o = ch.ops[i];
        if (o.kind == FC3D_OP_SCALE) { a *= o.value; b *= o.value; }
        else if (o.kind == FC3D_OP_ADD_CHANNEL) b += o.bias[c];
        else if (o.kind == FC3D_OP_BATCHNORM_INFER) {
            const double r = 1.0 / sqrt((double)o.running_var[c] + (double)o.eps);
            a *= r;
            b = (b - (double)o.running_mean[c]) * r;
            if (o.flags & FC3D_OP_AFFINE) { a *= o.weight[c]; b = b * o.weight[c] + o.bias[c]; }
        }
    }
    *ab = make_double2(a, b);
}
/* A cell's moments as the op sees them, added to s: sum(a v + b) = a S + b m and
   sum((a v + b)^2) = a^2 Q + 2 a b S + b^2 m (m values a cell). */
static __device__ __forceinline__ void _fc3d_moments_add(double2* s, double2 ab, double2 sq, double m) {
    const double a = ab.x, b = ab.y;
    s->x += a * sq.x + b * m;
    s->y += a * a * sq.y + 2.0 * a * b * sq.x + b * b * m;
}
/* A cell's map with the statistics op composed in, its group's (mean, 1/std) st in hand. */
static __device__ __forceinline__ double2 _fc3d_moments_compose(int stats, const _fc3d_dev_op& o, double2 st, int64_t c,
                                                                double2 ab) {
    double a = ab.x, b = ab.y;
    if (stats == _FC3D_ST_SUB_MEAN) b -= st.x;
    else {
        a *= st.y;
        b = (b - st.x) * st.y;
        if (o.flags & FC3D_OP_AFFINE) { a *= o.weight[c]; b = b * o.weight[c] + o.bias[c]; }
    }
    return make_double2(a, b);
}

template <typename T>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_moments_kernel(const _fc3d_moments_params M) {
    _fc3d_pdl_enter();
    const fc3d_stat_geom_& sg = M.F.sg;
    const int kn = (sg.keep & _FC3D_K_N) != 0, kc = (sg.keep & _FC3D_K_C) != 0;
    const int64_t ncg = kc ? M.c / sg.cpg : 1;
    const int lane = threadIdx.x % 32;
    const int64_t warps = (int64_t)gridDim.x * (blockDim.x / 32);
    /* the loop bound is warp-uniform, so the shuffles and __syncwarp always see a whole warp */
    for (int64_t grp = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; grp < sg.groups; grp += warps) {
        const int64_t n0 = kn ? grp / ncg : 0, nn = kn ? 1 : M.n;
        const int64_t c0 = kc ? (grp % ncg) * sg.cpg : 0, nc = kc ? sg.cpg : M.c;
        double2 s = make_double2(0.0, 0.0);
        for (int64_t k = lane; k < nn * nc; k += 32) {
            const int64_t n = n0 + k / nc, c = c0 + k % nc, cell = n * M.c + c;
            double2 ab = M.init ? make_double2(1.0, 0.0) : M.ab[cell];
            _fc3d_moments_fold(M.chain, M.fold_begin, M.op, c, &ab);
            M.ab[cell] = ab;
            _fc3d_moments_add(&s, ab, M.sums[cell], M.per_cell);
        }
        s = _fc3d_warp_sum(s);
        if (lane == 0) _fc3d_finalize_tail<T>(M.F, grp, s);
        if (M.F.stats == _FC3D_ST_REDUCE) continue;
        __syncwarp(); /* lane 0's (mean, 1/std), as the apply will read them */
        const double2 st = M.F.stats_of[grp];
        for (int64_t k = lane; k < nn * nc; k += 32) {
            const int64_t n = n0 + k / nc, c = c0 + k % nc, cell = n * M.c + c;
            M.ab[cell] = _fc3d_moments_compose(M.F.stats, M.chain.ops[M.op], st, c, M.ab[cell]);
        }
    }
}

/* The moments tail: every moments step of a pass (and its raw finalize) in one launch. The
   statistics groups of a moments chain are unions of (n, c) cells; each op's are whole channel
   groups of cpg channels (cpg = C where the op does not keep C) for one sample or for all. With W
   the least common multiple of the ops' cpg (a divisor of C), the channels [b W, b W + W) of every
   sample hold whole groups of every op, so block b takes those N x W cells through the whole
   chain alone, with no exchange between blocks: C / W blocks of _FC3D_MT_THREADS threads, each
   cell's (S, Q) and map (a, b) in shared memory from one op to the next (planned where N x W <=
   _FC3D_MT_CELLS and the statistics ops <= _FC3D_MT_OPS: _fc3d_mtail_w). Each op's (mean, 1/std)
   goes to the workspace as the moments steps write it (the apply reads it there) and is read back
   after a barrier. First, where a block's partials number at most _FC3D_MT_PARTS (N x W x slots),
   the raw finalize: `tpc` adjacent threads a cell, each summing every tpc-th slot in order
   (_fc3d_finalize_sum), then a butterfly over the tpc lanes; otherwise (S, Q) come from the
   workspace (a finalize step before, or the contraction of the input sums). A group of at most
   _FC3D_MT_THREAD_CELLS cells is summed by one thread in cell order, a larger one by a warp in the
   moments kernel's order. Every sum is in a fixed order: deterministic. Planned only where
   _fc3d_mtail_on is set (off by default: >>steps). (One block of 1,024 threads for all of L2/15's
   512 cells ran its chain 0.179 -> 0.191 ms TF32 on the H100, its kernel 15.7 us under ncu
   against 3.9 + 6.3 + 5.5 for the three launches it replaced: bench/RESULTS.md eighty-first
   entry.) */
typedef struct _fc3d_mtail_params {
    _fc3d_finalize_params raw;                /* the cells' partials; raw.partials NULL: (S, Q) from sums */
    int tpc;                                  /* threads a cell for the raw sums: a power of two up to 32 */
    int w;                                    /* channels a block */
    int num_ops;                              /* statistics ops, in chain order */
    int op[_FC3D_MT_OPS], fold_begin[_FC3D_MT_OPS]; /* op k's index; ops [fold_begin, op) fold in first */
    _fc3d_finalize_params F[_FC3D_MT_OPS];    /* op k's groups, stats_of, running and saved statistics, y */
    _fc3d_dev_chain chain;
    int n, c;                                 /* cells: n x c, numbered n-major */
    double per_cell;                          /* values a cell: D x H x W */
    const double2* sums;                      /* per cell (S, Q) of v, where raw.partials is NULL */
} _fc3d_mtail_params;

template <typename T>
static __global__ void __launch_bounds__(_FC3D_MT_THREADS) _fc3d_mtail_kernel(const _fc3d_mtail_params M) {
    extern __shared__ double2 _fc3d_mt_smem[]; /* (S, Q) of the block's cells, then their maps (a, b) */
    const int W = M.w, cells = M.n * W, cb = blockIdx.x * W; /* local cell l: sample l / W, channel cb + l % W */
    double2* sq = _fc3d_mt_smem;
    double2* map = _fc3d_mt_smem + cells;
    _fc3d_pdl_enter();
    const int t = threadIdx.x, nt = blockDim.x;
    if (M.raw.partials) {
        /* the same trip count for every thread, so each butterfly sees whole runs of tpc lanes */
        const int tpc = M.tpc, span = cells * tpc;
        for (int base = 0; base < span; base += nt) {
            const int l = (base + t) / tpc, sub = (base + t) % tpc;
            const int64_t g = (int64_t)(l / W) * M.c + cb + l % W;
            double2 v = l < cells ? _fc3d_finalize_sum(M.raw, g, sub, tpc) : make_double2(0.0, 0.0);
            v = _fc3d_warp_sum(v, tpc);
            if (l < cells && sub == 0) sq[l] = v;
        }
    } else {
        for (int l = t; l < cells; l += nt) sq[l] = M.sums[(int64_t)(l / W) * M.c + cb + l % W];
    }
    for (int k = 0; k < M.num_ops; k++) {
        const _fc3d_finalize_params& F = M.F[k];
        const int op = M.op[k];
        for (int l = t; l < cells; l += nt) { /* (a cell's own entry: no barrier before) */
            double2 ab = k == 0 ? make_double2(1.0, 0.0) : map[l];
            _fc3d_moments_fold(M.chain, M.fold_begin[k], op, cb + l % W, &ab);
            map[l] = ab;
        }
        __syncthreads(); /* the maps and (S, Q) of every cell */
        const fc3d_stat_geom_& sg = F.sg;
        const int kn = (sg.keep & _FC3D_K_N) != 0, kc = (sg.keep & _FC3D_K_C) != 0;
        const int cpg = kc ? (int)sg.cpg : M.c, ncg = M.c / cpg, gw = W / cpg; /* groups of C; of a block's W */
        const int nn = kn ? 1 : M.n, gcells = nn * cpg, groups = (kn ? M.n : 1) * gw;
        if (gcells <= _FC3D_MT_THREAD_CELLS) {
            for (int lg = t; lg < groups; lg += nt) {
                const int n0 = kn ? lg / gw : 0, c0 = cb + (lg % gw) * cpg;
                double2 s = make_double2(0.0, 0.0);
                for (int j = 0; j < gcells; j++) {
                    const int l = (n0 + j / cpg) * W + c0 - cb + j % cpg;
                    _fc3d_moments_add(&s, map[l], sq[l], M.per_cell);
                }
                _fc3d_finalize_tail<T>(F, (int64_t)n0 * ncg + c0 / cpg, s);
            }
        } else {
            const int lane = t % 32;
            /* the loop bound is warp-uniform, so the butterfly always sees a whole warp */
            for (int lg = t / 32; lg < groups; lg += nt / 32) {
                const int n0 = kn ? lg / gw : 0, c0 = cb + (lg % gw) * cpg;
                double2 s = make_double2(0.0, 0.0);
                for (int j = lane; j < gcells; j += 32) {
                    const int l = (n0 + j / cpg) * W + c0 - cb + j % cpg;
                    _fc3d_moments_add(&s, map[l], sq[l], M.per_cell);
                }
                s = _fc3d_warp_sum(s);
                if (lane == 0) _fc3d_finalize_tail<T>(F, (int64_t)n0 * ncg + c0 / cpg, s);
            }
        }
        __syncthreads(); /* every group's (mean, 1/std), written to the workspace above */
        if (F.stats == _FC3D_ST_REDUCE) continue; /* (a reduction ends the chain: no map after it) */
        for (int l = t; l < cells; l += nt) {
            const int n = l / W, c = cb + l % W;
            map[l] = _fc3d_moments_compose(F.stats, M.chain.ops[op], F.stats_of[(int64_t)(kn ? n : 0) * ncg + c / cpg],
                                           c, map[l]);
        }
        /* (the next op folds each cell's own entry, then waits at its barrier before any read of
           another's) */
    }
}

/* Input sums (FC3D_STATS_PLAN_LINEAR). Tap t of a dim lands inside the output for the inputs
   i with 0 <= s i - p + dl t <= O - 1: an interval of i. x and the weight are rounded as the
   convolution's operands are in the plan's math mode, so the means are those of the values the
   convolution pass produces (up to its float accumulation), not of exact ones. The sum of x[n, ci] over the box of a tap
   triple is taken in three stages, each value by one thread in a fixed order (deterministic): along
   W per (d, h) row and tap, then along H per (d, tap pair), then along D. A block per (n, ci) slab;
   the stages meet in the workspace. */
typedef struct _fc3d_xsum_params {
    fc3d_geom_ g;
    const void* x;
    const void* w;
    const void* bias;
    double* box;      /* [n][ci][tap] */
    double* rows;     /* [n][ci][d][h][tw] */
    double* planes;   /* [n][ci][d][th][tw] */
    double2* sums;    /* [n][c]: (sum of the convolution, 0) */
    int math;         /* x and the weight rounded as the convolution's operands (_fc3d_operand) */
} _fc3d_xsum_params;

/* An operand as the plan's math mode sees it, the mode given at run time. */
template <typename T>
static __device__ __forceinline__ double _fc3d_operand_rt(int math, float v) {
    return math == FC3D_MATH_TF32 ? (double)_fc3d_operand<FC3D_MATH_TF32, T>(v)
           : math == FC3D_MATH_HALF ? (double)_fc3d_operand<FC3D_MATH_HALF, T>(v)
                                   : (double)v;
}

static __device__ __forceinline__ int64_t _fc3d_floordiv(int64_t a, int64_t b) { /* b > 0 */
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}
/* The inputs [lo, hi] of a dim whose tap t lands inside the output (empty when lo > hi). */
static __device__ __forceinline__ void _fc3d_tap_inputs(int64_t in, int64_t out, int s, int p, int dl, int t, int64_t* lo,
                                                        int64_t* hi) {
    const int64_t a = -_fc3d_floordiv(-((int64_t)p - (int64_t)dl * t), s); /* ceil((p - dl t) / s) */
    const int64_t b = _fc3d_floordiv(out - 1 + p - (int64_t)dl * t, s);
    *lo = a > 0 ? a : 0;
    *hi = b < in - 1 ? b : in - 1;
}

template <typename T>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_xsums_kernel(const _fc3d_xsum_params P) {
    const fc3d_geom_& g = P.g;
    const int kd = g.k[0], kh = g.k[1], kw = g.k[2];
    const int64_t taps = (int64_t)kd * kh * kw;
    const T* x = (const T*)P.x;
    for (int64_t slab = blockIdx.x; slab < g.n * g.cin; slab += gridDim.x) {
        const int64_t n = slab / g.cin, ci = slab % g.cin;
        double* rows = P.rows + slab * g.di * g.hi * kw;
        double* planes = P.planes + slab * g.di * kh * kw;
        for (int64_t r = threadIdx.x; r < g.di * g.hi; r += blockDim.x) {
            const int64_t id = r / g.hi, ih = r % g.hi;
            const int64_t base = g.layout == FC3D_LAYOUT_NCDHW ? ((n * g.cin + ci) * g.di + id) * g.hi * g.wi + ih * g.wi
                                                               : ((n * g.di + id) * g.hi + ih) * g.wi * g.cin + ci;
            const int64_t step = g.layout == FC3D_LAYOUT_NCDHW ? 1 : g.cin;
            for (int tw = 0; tw < kw; tw++) {
                int64_t lo, hi;
                _fc3d_tap_inputs(g.wi, g.w, g.s[2], g.p[2], g.dl[2], tw, &lo, &hi);
                double acc = 0.0;
                for (int64_t i = lo; i <= hi; i++) acc += _fc3d_operand_rt<T>(P.math, _fc3d_load(x, base + i * step));
                rows[r * kw + tw] = acc;
            }
        }
        __syncthreads();
        for (int64_t r = threadIdx.x; r < g.di * kh * kw; r += blockDim.x) {
            const int64_t id = r / (kh * kw);
            const int th = (int)(r / kw % kh), tw = (int)(r % kw);
            int64_t lo, hi;
            _fc3d_tap_inputs(g.hi, g.h, g.s[1], g.p[1], g.dl[1], th, &lo, &hi);
            double acc = 0.0;
            for (int64_t i = lo; i <= hi; i++) acc += rows[(id * g.hi + i) * kw + tw];
            planes[r] = acc;
        }
        __syncthreads();
        for (int64_t t = threadIdx.x; t < taps; t += blockDim.x) {
            const int td = (int)(t / (kh * kw)), th = (int)(t / kw % kh), tw = (int)(t % kw);
            int64_t lo, hi;
            _fc3d_tap_inputs(g.di, g.d, g.s[0], g.p[0], g.dl[0], td, &lo, &hi);
            double acc = 0.0;
            for (int64_t i = lo; i <= hi; i++) acc += planes[(i * kh + th) * kw + tw];
            P.box[slab * taps + t] = acc;
        }
        __syncthreads(); /* the next slab of this block reuses nothing, but keep the stages apart */
    }
}

/* sum over the output of conv[n, c] = |out| bias[c] + sum over the group's ci and the taps of
   weight[ci, c in group, t] box[n, ci, t]: a warp per (n, c), its lanes over the (ci, t) terms, met
   by a fixed butterfly (a thread per (n, c) walked its terms one dependent load after another:
   L2/15's 512 cells took 132 us on two blocks). */
template <typename T>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_xcontract_kernel(const _fc3d_xsum_params P) {
    const fc3d_geom_& g = P.g;
    const int64_t taps = (int64_t)g.k[0] * g.k[1] * g.k[2], cout_g = g.cout / g.groups, cin_g = g.cin / g.groups;
    const double spatial = (double)g.d * (double)g.h * (double)g.w;
    const int lane = threadIdx.x & 31;
    const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
    /* the loop bound is warp-uniform: the shuffles see a whole warp */
    for (int64_t e = (int64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); e < g.n * g.cout; e += warps) {
        const int64_t n = e / g.cout, c = e % g.cout, grp = c / cout_g, col = c % cout_g;
        double acc = 0.0;
        for (int64_t k = lane; k < cin_g * taps; k += 32) {
            const int64_t ci = grp * cin_g + k / taps, t = k % taps;
            acc += _fc3d_operand_rt<T>(P.math, _fc3d_load((const T*)P.w, (ci * cout_g + col) * taps + t)) *
                   P.box[(n * g.cin + ci) * taps + t];
        }
        acc = _fc3d_warp_sum(make_double2(acc, 0.0)).x;
        if (lane == 0) P.sums[e] = make_double2(acc + (P.bias ? spatial * (double)_fc3d_load((const T*)P.bias, c) : 0.0), 0.0);
    }
}

/* >>engine-direct --------------------------------------------------------------------------------
   One thread per output element, gathering the input taps that reach it. Statistics units: a
   block owns whole units, `rows` consecutive rows along H of one (n, c, d) plane (one row when a
   statistics op keeps H, so no unit straddles a group), and writes each unit's partial to
   (group, slot), the slot numbered row-major over the unit coordinates (n, c, d, row block) the
   group does not keep.
   Step arguments: arg[0] rows per unit, arg[1] units per plane, arg[2] units, arg[3] store,
   arg[4] op_begin, arg[5] op_end, arg[6] one unit per warp (else per block), arg[7] streamed
   (_fc3d_stream_pass_kernel: a read-back pass of (n, c)-fixed ops in NCDHW);
   variant = source * 4 + math. */
#define _FC3D_UNIT_TARGET 4096   /* elements a unit aims for: work for a block, few partials */
#define _FC3D_WARP_UNIT_MAX 1024 /* units this small go one per warp */
#define _FC3D_READ_ILP 4         /* elements a thread of a read-back pass loads before using one */

typedef struct _fc3d_direct_params {
    fc3d_geom_ g;
    const void* x;
    const void* wt;
    const void* bias;
    void* y;
    int op_begin, op_end;
    int store;           /* fc3d_store */
    int gather;          /* gather partials for sg */
    float* inter;        /* the float32 intermediate, conv-output sized, in y's layout */
    double2* partials;   /* groups x slots */
    fc3d_stat_geom_ sg;
    int64_t unit_rows, units_per_plane, units;
    int warp_units;      /* one unit per warp (small units), else one per block */
    _fc3d_dev_chain chain;
} _fc3d_direct_params;

static __device__ __forceinline__ int64_t _fc3d_y_index(const fc3d_geom_& g, int64_t n, int64_t c, int64_t d,
                                                         int64_t h, int64_t w) {
    return g.layout == FC3D_LAYOUT_NDHWC ? (((n * g.d + d) * g.h + h) * g.w + w) * g.cout + c
                                         : (((n * g.cout + c) * g.d + d) * g.h + h) * g.w + w;
}

/* The input index that kernel tap k of output index o reads along one dim (o = i*s - p + k*dl),
   -1 where it reads none, _FC3D_NO_MORE_TAPS where no later tap can either (o + p - k*dl only
   falls as k grows). */
#define _FC3D_NO_MORE_TAPS (-2)
static __device__ __forceinline__ int64_t _fc3d_tap(int64_t o, int p, int k, int dl, int s, int64_t in) {
    const int64_t t = o + p - (int64_t)k * dl;
    if (t < 0) return _FC3D_NO_MORE_TAPS;
    if (t % s) return -1;
    return t / s < in ? t / s : -1;
}

/* The convolution at one output element, by gathering the input taps that reach it: along each
   dim, o = i*s - p + k*dl, so tap k contributes where (o + p - k*dl) is a non-negative multiple of s
   below the input size. */
template <typename T, int MATH>
static __device__ float _fc3d_conv_at(const _fc3d_direct_params& P, int64_t n, int64_t c, int64_t od, int64_t oh,
                                      int64_t ow) {
    const fc3d_geom_& g = P.g;
    const T* x = (const T*)P.x;
    const T* wt = (const T*)P.wt;
    const int64_t cig = g.cin / g.groups, cog = g.cout / g.groups, grp = c / cog, co = c % cog;
    const int64_t kvol = (int64_t)g.k[0] * g.k[1] * g.k[2];
    const int64_t w_ci = cog * kvol; /* weight stride between input channels */
    const int64_t x_ci = g.layout == FC3D_LAYOUT_NDHWC ? 1 : g.di * g.hi * g.wi;
    float acc = 0.0f;
    for (int kd = 0; kd < g.k[0]; kd++) {
        const int64_t id = _fc3d_tap(od, g.p[0], kd, g.dl[0], g.s[0], g.di);
        if (id == _FC3D_NO_MORE_TAPS) break;
        if (id < 0) continue;
        for (int kh = 0; kh < g.k[1]; kh++) {
            const int64_t ih = _fc3d_tap(oh, g.p[1], kh, g.dl[1], g.s[1], g.hi);
            if (ih == _FC3D_NO_MORE_TAPS) break;
            if (ih < 0) continue;
            for (int kw = 0; kw < g.k[2]; kw++) {
                const int64_t iw = _fc3d_tap(ow, g.p[2], kw, g.dl[2], g.s[2], g.wi);
                if (iw == _FC3D_NO_MORE_TAPS) break;
                if (iw < 0) continue;
                const int64_t ci0 = grp * cig;
                const int64_t xb = g.layout == FC3D_LAYOUT_NDHWC
                                       ? (((n * g.di + id) * g.hi + ih) * g.wi + iw) * g.cin + ci0
                                       : (((n * g.cin + ci0) * g.di + id) * g.hi + ih) * g.wi + iw;
                const int64_t wb = (ci0 * cog + co) * kvol + ((int64_t)kd * g.k[1] + kh) * g.k[2] + kw;
                for (int64_t ci = 0; ci < cig; ci++)
                    acc = fmaf(_fc3d_operand<MATH, T>(_fc3d_load(x, xb + ci * x_ci)),
                               _fc3d_operand<MATH, T>(_fc3d_load(wt, wb + ci * w_ci)), acc);
            }
        }
    }
    if (P.bias) acc += _fc3d_load((const T*)P.bias, c);
    return acc;
}

/* Where a unit's partial goes: its group (the kept coordinates) and its slot (the others). */
static __device__ __forceinline__ int64_t _fc3d_direct_partial_index(const _fc3d_direct_params& P, int64_t n,
                                                                      int64_t c, int64_t d, int64_t hb) {
    const fc3d_stat_geom_& s = P.sg;
    const int64_t co[4] = {n, c, d, hb}, ext[4] = {P.g.n, P.g.cout, P.g.d, P.units_per_plane};
    const unsigned kbit[4] = {_FC3D_K_N, _FC3D_K_C, _FC3D_K_D, _FC3D_K_H};
    int64_t grp = 0, slot = 0;
    for (int k = 0; k < 4; k++) {
        if (k == 1 && (s.keep & _FC3D_K_C)) {
            grp = grp * (ext[1] / s.cpg) + co[1] / s.cpg;
            slot = slot * s.cpg + co[1] % s.cpg;
        } else if (s.keep & kbit[k]) {
            grp = grp * ext[k] + co[k];
        } else {
            slot = slot * ext[k] + co[k];
        }
    }
    return grp * s.slots + slot;
}

/* An op of a read-back pass resolved for one unit, whose (n, c) is fixed: what _fc3d_apply_ops
   looks up per element (the channel's parameters, the group's mean and 1/std), looked up once.
   Only ops whose parameters depend on (n, c) alone resolve: statistics groups that keep no spatial
   dim and a per-channel affine (the others take the generic path). The arithmetic is the same,
   in the same order, so both paths give the same bits. */
enum { _FC3D_UOP_SCALE, _FC3D_UOP_ADD, _FC3D_UOP_RELU, _FC3D_UOP_GELU, _FC3D_UOP_GELU_TANH, _FC3D_UOP_BN_INFER,
       _FC3D_UOP_NORMALIZE, _FC3D_UOP_SUB_MEAN, _FC3D_UOP_NONE };
typedef struct _fc3d_unit_op {
    int kind, affine;
    float f0, f1, f2, f3; /* scale value / channel bias / running mean, sqrt(var + eps), weight, bias */
    double m, s, w, b;    /* group mean and 1/std, channel weight and bias (NORMALIZE, SUB_MEAN) */
} _fc3d_unit_op;

/* Whether an op's parameters are fixed by (n, c): the per-channel elementwise ops by name (an op
   kind added later takes the generic path until it is listed here and in _fc3d_resolve_op), and
   statistics ops whose groups keep no spatial dim, with a per-channel affine. Shared by the kernels
   and the planner (which picks the streamed read-back kernel with it). */
static __host__ __device__ __forceinline__ bool _fc3d_nc_uniform(int kind, int stats, unsigned keep, unsigned flags,
                                                                 int affine) {
    switch (kind) {
    case FC3D_OP_SCALE: case FC3D_OP_ADD_CHANNEL: case FC3D_OP_RELU: case FC3D_OP_GELU: case FC3D_OP_GELU_TANH:
    case FC3D_OP_BATCHNORM_INFER:
        return true;
    default: break;
    }
    if (stats == _FC3D_ST_REDUCE) return true; /* never applied per element */
    if (stats != _FC3D_ST_NORMALIZE && stats != _FC3D_ST_SUB_MEAN) return false;
    if (keep & (_FC3D_K_D | _FC3D_K_H | _FC3D_K_W)) return false;
    return stats == _FC3D_ST_SUB_MEAN || !(flags & FC3D_OP_AFFINE) || affine == _FC3D_AFF_CHANNEL;
}
static __host__ __device__ __forceinline__ bool _fc3d_op_nc_uniform(const _fc3d_dev_op& op) {
    return _fc3d_nc_uniform(op.kind, op.stats, op.keep, op.flags, op.affine);
}

static __device__ _fc3d_unit_op _fc3d_resolve_op(const _fc3d_dev_op& op, const int64_t ext[5], const int64_t co[5]) {
    _fc3d_unit_op r;
    const int64_t c = co[1];
    r.affine = (op.flags & FC3D_OP_AFFINE) != 0;
    r.f0 = r.f1 = r.f2 = r.f3 = 0.0f;
    r.m = r.s = r.w = r.b = 0.0;
    switch (op.kind) {
    case FC3D_OP_SCALE: r.kind = _FC3D_UOP_SCALE; r.f0 = op.value; break;
    case FC3D_OP_ADD_CHANNEL: r.kind = _FC3D_UOP_ADD; r.f0 = op.bias[c]; break;
    case FC3D_OP_RELU: r.kind = _FC3D_UOP_RELU; break;
    case FC3D_OP_GELU: r.kind = _FC3D_UOP_GELU; break;
    case FC3D_OP_GELU_TANH: r.kind = _FC3D_UOP_GELU_TANH; break;
    case FC3D_OP_BATCHNORM_INFER:
        r.kind = _FC3D_UOP_BN_INFER;
        r.f0 = op.running_mean[c];
        r.f1 = sqrtf(op.running_var[c] + op.eps);
        if (r.affine) { r.f2 = op.weight[c]; r.f3 = op.bias[c]; }
        break;
    default:
        if (op.stats == _FC3D_ST_NORMALIZE) {
            r.kind = _FC3D_UOP_NORMALIZE;
            const double2 st = op.stats_of[_fc3d_group_of(op.keep, op.cpg, ext, co)];
            r.m = st.x; r.s = st.y;
            if (r.affine) { r.w = (double)op.weight[c]; r.b = (double)op.bias[c]; }
        } else if (op.stats == _FC3D_ST_SUB_MEAN) {
            r.kind = _FC3D_UOP_SUB_MEAN;
            r.m = op.stats_of[_fc3d_group_of(op.keep, op.cpg, ext, co)].x;
        } else {
            r.kind = _FC3D_UOP_NONE; /* a reduction is never applied per element */
        }
        break;
    }
    return r;
}

/* 1 / x and 2^x on the special-function unit alone (rcp.approx, ex2.approx; subnormal inputs and
   results flush to zero). __fdividef(1, x) and __expf add a range test and two scalings each for
   subnormals: 7 of the GELU's 23 instructions a value in L2/34's chain kernel (ncu), for
   arguments the GELU never gives them (rcp's is at least 1; ex2's falls below -126 only where
   |v| > 13.3, and there the GELU of a negative v is -0 instead of a subnormal of order 1e-39,
   of a positive one v as before). */
static __device__ __forceinline__ float _fc3d_rcp_ftz(float x) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
static __device__ __forceinline__ float _fc3d_ex2_ftz(float x) {
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
static __device__ __forceinline__ float _fc3d_rsqrt_ftz(float x) {
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

/* A resolved op of kind K on one value: the arithmetic of _fc3d_apply_ops, in the same order, but
   for GELU's erf (a branch-free form of the same accuracy; the interpreter, which the direct engine
   runs, keeps erff). */
template <int K>
static __device__ __forceinline__ float _fc3d_uop(const _fc3d_unit_op& r, float v) {
    if (K == _FC3D_UOP_SCALE) return v * r.f0;
    if (K == _FC3D_UOP_ADD) return v + r.f0;
    if (K == _FC3D_UOP_RELU) return v < 0.0f ? 0.0f : v;
    if (K == _FC3D_UOP_GELU) {
        /* 0.5 v (1 + erf(v / sqrt 2)), erf by Abramowitz and Stegun's 7.1.26 (|error| <= 1.5e-7),
           branch-free: with a = |v|, w = 0.5 (1 - |erf(v / sqrt 2)|) = t P(t) exp(-v^2 / 2), t = 1 /
           (1 + 0.3275911 a / sqrt 2) (P's coefficients halved: exact), the GELU is v - v w for
           v >= 0 and v w below, i.e. max(v, 0) - w |v| (never 1 - (1 - q)): within 1.8e-7
           max(|v|, 1) of the exact GELU, as erff's form is within 1.1e-7 (Numerics in the design
           note). |v| is taken of min(v, FLT_MAX) there, so that +inf gives inf (w is 0 there), -inf
           and NaN NaN as PyTorch's. erff's two ranges diverge within a warp: the GELU was 32 % of
           the instructions of L2/34's haloed row tiles (ncu); this form issues 14 a value where the
           select of q or 2 - q took 17 */
        const float a = fabsf(v);
        const float t = _fc3d_rcp_ftz(fmaf((float)(0.3275911 * 0.70710678118654752), a, 1.0f));
        float p = fmaf(0.5307027145f, t, -0.7265760135f);
        p = fmaf(p, t, 0.7107068705f);
        p = fmaf(p, t, -0.142248368f);
        p = fmaf(p, t, 0.127414796f);
        const float w = p * t * _fc3d_ex2_ftz(v * v * -0.72134752044448170f); /* exp(-v^2 / 2) */
        return fmaf(-w, fabsf(fminf(v, 3.402823466e38f)), fmaxf(v, 0.0f));
    }
    if (K == _FC3D_UOP_GELU_TANH) return 0.5f * v * (1.0f + tanhf(0.79788456080286536f * (v + 0.044715f * v * v * v)));
    if (K == _FC3D_UOP_BN_INFER) {
        v = (v - r.f0) / r.f1;
        return r.affine ? v * r.f2 + r.f3 : v;
    }
    if (K == _FC3D_UOP_NORMALIZE) {
        double t = ((double)v - r.m) * r.s;
        if (r.affine) t = t * r.w + r.b;
        return (float)t;
    }
    if (K == _FC3D_UOP_SUB_MEAN) return (float)((double)v - r.m);
    return v;
}
/* A resolved op that is affine in the value (scale, add, inference BatchNorm, a normalisation or
   mean subtraction by (n, c)-fixed statistics; NONE is the identity) composed, in double, after
   the map a v + b held in (a, b): (a, b) becomes the map through both. False for any other kind
   (ReLU, the GELUs), (a, b) then of no use. The same ops as _fc3d_uop, as one map: a value through
   a composed chain is rounded to float once, not once per op. */
static __device__ __forceinline__ bool _fc3d_uop_compose(const _fc3d_unit_op& r, double& a, double& b) {
    switch (r.kind) {
    case _FC3D_UOP_SCALE: a *= (double)r.f0; b *= (double)r.f0; return true;
    case _FC3D_UOP_ADD: b += (double)r.f0; return true;
    case _FC3D_UOP_BN_INFER: {
        const double s = 1.0 / (double)r.f1; /* f1 = sqrt(running var + eps), as _fc3d_uop divides by it */
        a *= s;
        b = (b - (double)r.f0) * s;
        if (r.affine) {
            a *= (double)r.f2;
            b = b * (double)r.f2 + (double)r.f3;
        }
        return true;
    }
    case _FC3D_UOP_NORMALIZE:
        a *= r.s;
        b = (b - r.m) * r.s;
        if (r.affine) {
            a *= r.w;
            b = b * r.w + r.b;
        }
        return true;
    case _FC3D_UOP_SUB_MEAN: b -= r.m; return true;
    case _FC3D_UOP_NONE: return true;
    default: return false;
    }
}
#define _FC3D_UOP_KINDS(X)                                                                                  \
    X(_FC3D_UOP_SCALE) X(_FC3D_UOP_ADD) X(_FC3D_UOP_RELU) X(_FC3D_UOP_GELU) X(_FC3D_UOP_GELU_TANH)          \
    X(_FC3D_UOP_BN_INFER) X(_FC3D_UOP_NORMALIZE) X(_FC3D_UOP_SUB_MEAN)

static __device__ __forceinline__ float _fc3d_apply_unit_op(const _fc3d_unit_op& r, float v) {
    switch (r.kind) {
#define _FC3D_X(k) case k: return _fc3d_uop<k>(r, v);
        _FC3D_UOP_KINDS(_FC3D_X)
#undef _FC3D_X
    default: return v;
    }
}
/* The same op on E values held in registers, its kind tested once. */
template <int E>
static __device__ __forceinline__ void _fc3d_apply_unit_op_regs(const _fc3d_unit_op& r, float (&v)[E]) {
    switch (r.kind) {
#define _FC3D_X(k) case k: _Pragma("unroll") for (int e = 0; e < E; ++e) v[e] = _fc3d_uop<k>(r, v[e]); break;
        _FC3D_UOP_KINDS(_FC3D_X)
#undef _FC3D_X
    default: break;
    }
}
static __device__ __forceinline__ float _fc3d_apply_unit_ops(const _fc3d_unit_op* R, int nops, float v) {
    for (int i = 0; i < nops; i++) v = _fc3d_apply_unit_op(R[i], v);
    return v;
}
/* The op kinds that read nothing of (n, c) but their scalar value (ReLU, scale, GELU): applied
   straight from the op, with no per-channel resolution (_fc3d_straight_op_regs: false for any
   other kind, the values untouched). */
static __host__ __device__ inline bool _fc3d_straight_kind(int kind) {
    return kind == FC3D_OP_RELU || kind == FC3D_OP_SCALE || kind == FC3D_OP_GELU || kind == FC3D_OP_GELU_TANH;
}
template <int E>
static __device__ __forceinline__ bool _fc3d_straight_op_regs(int kind, float value, float (&v)[E]) {
    _fc3d_unit_op r = {};
    r.f0 = value;
    switch (kind) {
#define _FC3D_X(k, uk)                                                                     \
    case k:                                                                                \
        _Pragma("unroll") for (int e = 0; e < E; ++e) v[e] = _fc3d_uop<uk>(r, v[e]); return true;
        _FC3D_X(FC3D_OP_RELU, _FC3D_UOP_RELU)
        _FC3D_X(FC3D_OP_SCALE, _FC3D_UOP_SCALE)
        _FC3D_X(FC3D_OP_GELU, _FC3D_UOP_GELU)
        _FC3D_X(FC3D_OP_GELU_TANH, _FC3D_UOP_GELU_TANH)
#undef _FC3D_X
    default: return false;
    }
}

/* One unit: computes or reads its values, applies the pass's ops, stores, and returns the
   (sum, sum of squares) this thread gathered. The threads of a unit are `lanes` consecutive ones
   from `lane` 0. */
template <typename T, int SOURCE, int MATH>
static __device__ __forceinline__ double2 _fc3d_direct_unit(const _fc3d_direct_params& P, int64_t u, int lane,
                                                            int lanes) {
    const fc3d_geom_& g = P.g;
    const int64_t ext[5] = {g.n, g.cout, g.d, g.h, g.w};
    T* y = (T*)P.y;
    int64_t t = u / P.units_per_plane;
    const int64_t h0 = (u % P.units_per_plane) * P.unit_rows;
    const int64_t d = t % g.d;
    t /= g.d;
    const int64_t c = t % g.cout, n = t / g.cout;
    const int64_t rows = h0 + P.unit_rows <= g.h ? P.unit_rows : g.h - h0;
    /* A unit has one row, or fewer than _FC3D_UNIT_TARGET + W elements: an element's number in it
       fits an int (W does), so the row/column split is 32-bit; inside one (n, c, d) plane the y
       index is linear in that number in both layouts. */
    const int W = (int)g.w;
    const int64_t nel = rows * g.w;
    const int64_t yi0 = _fc3d_y_index(g, n, c, d, h0, 0);
    const int64_t ystep = g.layout == FC3D_LAYOUT_NDHWC ? g.cout : 1;
    double2 part = make_double2(0.0, 0.0);
    /* the ops, the store and the statistics of element e, whose value is v; R: the unit's ops
       resolved (below), else through the interpreter at e's coordinates */
    auto finish = [&](int64_t e, float v, const _fc3d_unit_op* R) {
        const int64_t yi = yi0 + e * ystep;
        if (R) {
            v = _fc3d_apply_unit_ops(R, P.op_end - P.op_begin, v);
        } else {
            const int ei = (int)e, hh = ei / W;
            const int64_t co[5] = {n, c, d, h0 + hh, ei - hh * W};
            v = _fc3d_apply_ops(P.chain, P.op_begin, P.op_end, v, ext, co);
        }
        if (P.store == FC3D_STORE_INTERMEDIATE) {
            P.inter[yi] = v;
        } else if (P.store == FC3D_STORE_Y) {
            _fc3d_store(y, yi, v);
            v = _fc3d_round_to(v, y); /* statistics of what was stored */
        }
        if (P.gather) {
            part.x += (double)v;
            part.y += (double)v * (double)v;
        }
    };
    if constexpr (SOURCE == FC3D_SOURCE_CONV) {
        for (int64_t e = lane; e < nel; e += lanes) {
            const int ei = (int)e, hh = ei / W;
            finish(e, _fc3d_conv_at<T, MATH>(P, n, c, d, h0 + hh, ei - hh * W), nullptr);
        }
    } else {
        /* reading the intermediate back: _FC3D_READ_ILP loads in flight per thread before any op, or
           the pass waits on one DRAM latency per element. Ops whose parameters are fixed by the
           unit's (n, c) are resolved once per unit into shared memory (one copy per warp; every
           lane of the warp is here: the unit loops are warp-uniform) and applied without the
           per-element coordinates. */
        __shared__ _fc3d_unit_op rops[_FC3D_THREADS / 32][FC3D_MAX_OPS];
        const int nops = P.op_end - P.op_begin;
        bool uniform = true;
        for (int i = P.op_begin; i < P.op_end; i++) uniform = uniform && _fc3d_op_nc_uniform(P.chain.ops[i]);
        const _fc3d_unit_op* R = nullptr;
        if (uniform) {
            _fc3d_unit_op* Rw = rops[threadIdx.x / 32];
            const int l32 = threadIdx.x % 32;
            const int64_t co[5] = {n, c, d, h0, 0};
            __syncwarp(); /* the warp's previous unit is done with its ops */
            if (l32 < nops) Rw[l32] = _fc3d_resolve_op(P.chain.ops[P.op_begin + l32], ext, co);
            __syncwarp();
            R = Rw;
        }
        for (int64_t e0 = lane; e0 < nel; e0 += (int64_t)_FC3D_READ_ILP * lanes) {
            float v[_FC3D_READ_ILP];
#pragma unroll
            for (int j = 0; j < _FC3D_READ_ILP; j++) {
                const int64_t e = e0 + (int64_t)j * lanes;
                v[j] = e < nel ? P.inter[yi0 + e * ystep] : 0.0f;
            }
#pragma unroll
            for (int j = 0; j < _FC3D_READ_ILP; j++) {
                const int64_t e = e0 + (int64_t)j * lanes;
                if (e < nel) finish(e, v[j], R);
            }
        }
    }
    return part;
}

/* Where unit u's partial goes. */
static __device__ __forceinline__ int64_t _fc3d_direct_unit_partial(const _fc3d_direct_params& P, int64_t u) {
    const int64_t hb = u % P.units_per_plane, t = u / P.units_per_plane;
    return _fc3d_direct_partial_index(P, t / P.g.d / P.g.cout, (t / P.g.d) % P.g.cout, t % P.g.d, hb);
}

/* One pass. Units of a block's worth of elements go one per block; small units (a LayerNorm row)
   one per warp, so no thread idles on a 64-element row. Partials are reduced in a fixed order
   either way. */
template <typename T, int SOURCE, int MATH>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_direct_pass_kernel(const _fc3d_direct_params P) {
    __shared__ double2 scratch[_FC3D_THREADS / 32];
    if (P.warp_units) {
        const int lane = threadIdx.x % 32, wpb = _FC3D_THREADS / 32;
        /* the loop bound is warp-uniform: every shuffle below sees the whole warp */
        for (int64_t u = (int64_t)blockIdx.x * wpb + threadIdx.x / 32; u < P.units; u += (int64_t)gridDim.x * wpb) {
            const double2 part = _fc3d_direct_unit<T, SOURCE, MATH>(P, u, lane, 32);
            if (!P.gather) continue;
            const double2 sum = _fc3d_warp_sum(part);
            if (lane == 0) P.partials[_fc3d_direct_unit_partial(P, u)] = sum;
        }
        return;
    }
    for (int64_t u = blockIdx.x; u < P.units; u += gridDim.x) {
        double2 part = _fc3d_direct_unit<T, SOURCE, MATH>(P, u, threadIdx.x, blockDim.x);
        if (P.gather) {
            part = _fc3d_block_sum(part, scratch);
            if (threadIdx.x == 0) P.partials[_fc3d_direct_unit_partial(P, u)] = part;
        }
    }
}

/* Streamed read-back passes: a pass that reads the intermediate back, stores, and whose ops are
   all fixed by (n, c) (_fc3d_nc_uniform), in NCDHW, gathering nothing or statistics whose groups
   keep no spatial dim. An (n, c) slab of D*H*W elements is contiguous there, so a block takes
   _FC3D_STREAM_CHUNK consecutive elements of one slab with 16-byte loads, all of a thread's loads
   in flight before it resolves the ops once for the block (the per-unit path of _fc3d_direct_unit
   waits on the op parameters first and keeps only 4 scalar loads per thread in flight: a third of
   the copy bandwidth). The ops run in the same order with the same arithmetic as that path, but
   where every op is affine in the value (_fc3d_uop_compose: scale, add_channel, inference
   BatchNorm, a normalisation or mean subtraction by (n, c)-fixed statistics) they are composed in
   double into one a v + b per block (one rounding to float instead of one per op). A block's
   partial goes to slot (n, channel within group where the group does not keep them, chunk),
   summed in a fixed order: reproducible. */
#ifndef _FC3D_STREAM_VEC
#define _FC3D_STREAM_VEC 4 /* 16-byte loads in flight per thread (H200, example timers: 2 and 8 slower,
                              L2/15's chain 0.399 -> 0.436 / 0.421 ms, L2/61's 1.086 -> 1.121 / 1.092) */
#endif
#define _FC3D_STREAM_CHUNK ((int64_t)_FC3D_THREADS * 4 * _FC3D_STREAM_VEC)
#ifndef _FC3D_STREAM_REV
/* Samples last first, each sample's chunks in ascending order: the convolving passes write the
   intermediate sample after sample, so the last ones are what L2 still holds when the pass starts
   (L2/61's chain 0.828 -> 0.821 ms TF32 in three alternated rounds on an H100, bench/RESULTS.md
   sixty-seventh entry; the whole order reversed, addresses descending, had measured slower).
   A second streamed pass over the same intermediate reads it in the same order (no gain, no
   loss). 0: sample 0 first. */
#define _FC3D_STREAM_REV 1
#endif

template <typename T>
static __device__ __forceinline__ void _fc3d_stream_store(const _fc3d_direct_params& P, int64_t i, float v) {
    if (P.store == FC3D_STORE_INTERMEDIATE) P.inter[i] = v;
    else _fc3d_store((T*)P.y, i, v);
}

template <typename T>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_stream_pass_kernel(const _fc3d_direct_params P) {
    _fc3d_pdl_enter();
    __shared__ _fc3d_unit_op R[FC3D_MAX_OPS];
    __shared__ double2 scratch[_FC3D_THREADS / 32];
    const fc3d_geom_& g = P.g;
    const int64_t ext[5] = {g.n, g.cout, g.d, g.h, g.w};
    const int64_t slab = g.d * g.h * g.w;
    const int64_t cps = (slab + _FC3D_STREAM_CHUNK - 1) / _FC3D_STREAM_CHUNK;
    const int nops = P.op_end - P.op_begin;
    const int tid = threadIdx.x;
    float* out32 = P.store == FC3D_STORE_INTERMEDIATE ? P.inter : (sizeof(T) == 4 ? (float*)P.y : nullptr);
    const int64_t pscp = g.cout * cps; /* a sample's chunks */
    for (int64_t bb = blockIdx.x; bb < g.n * pscp; bb += gridDim.x) {
        /* the samples last first, each sample's chunks in ascending order (_FC3D_STREAM_REV) */
        const int64_t bs = _FC3D_STREAM_REV ? bb / pscp : 0;
        const int64_t b = _FC3D_STREAM_REV ? (g.n - 1 - bs) * pscp + (bb - bs * pscp) : bb;
        const int64_t nc = b / cps, e0 = (b - nc * cps) * _FC3D_STREAM_CHUNK;
        const int64_t co[5] = {nc / g.cout, nc % g.cout, 0, 0, 0};
        const int64_t len = slab - e0 < _FC3D_STREAM_CHUNK ? slab - e0 : _FC3D_STREAM_CHUNK;
        const int64_t base = nc * slab + e0;
        /* a scalar head up to a 16-byte boundary of the source, float4 in the middle, a scalar tail */
        const int mis = (int)(((uintptr_t)(P.inter + base) >> 2) & 3);
        const int64_t head = mis ? (4 - mis < len ? 4 - mis : len) : 0;
        const int64_t nv = (len - head) >> 2, tail0 = head + 4 * nv;
        const bool vstore = out32 && (((uintptr_t)(out32 + base + head)) & 15) == 0;
        const float4* src = reinterpret_cast<const float4*>(P.inter + base + head);
        float4 v[_FC3D_STREAM_VEC];
#pragma unroll
        for (int j = 0; j < _FC3D_STREAM_VEC; j++) {
            const int64_t i = tid + (int64_t)j * _FC3D_THREADS;
            v[j] = i < nv ? src[i] : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        /* head and tail: at most 3 elements each, threads 0-2 and 3-5 */
        const int64_t se = tid < 3 ? tid : tid - 3 + tail0;
        const bool sok = tid < 3 ? tid < head : (tid < 6 && se < len);
        float sv = sok ? P.inter[base + se] : 0.f;
        __syncthreads(); /* the previous chunk is done with R */
        if (tid < nops) R[tid] = _fc3d_resolve_op(P.chain.ops[P.op_begin + tid], ext, co);
        __syncthreads();
        /* ops all affine in the value composed in double into one a v + b: a value converted
           once each way (applied one by one in double, L2/15's two ops issued 36 instructions a
           value, ncu) */
        double ca = 1.0, cb = 0.0;
        bool comp = nops > 0;
        for (int i = 0; i < nops && comp; i++) comp = _fc3d_uop_compose(R[i], ca, cb);
        if (comp) {
            float* w = reinterpret_cast<float*>(v);
#pragma unroll
            for (int j = 0; j < 4 * _FC3D_STREAM_VEC; j++) w[j] = (float)fma((double)w[j], ca, cb);
            sv = (float)fma((double)sv, ca, cb);
        } else {
            for (int i = 0; i < nops; i++) {
                const _fc3d_unit_op r = R[i];
                _fc3d_apply_unit_op_regs(r, reinterpret_cast<float(&)[4 * _FC3D_STREAM_VEC]>(v));
                sv = _fc3d_apply_unit_op(r, sv);
            }
        }
#pragma unroll
        for (int j = 0; j < _FC3D_STREAM_VEC; j++) {
            const int64_t i = tid + (int64_t)j * _FC3D_THREADS;
            if (i >= nv) continue;
            const int64_t yi = base + head + 4 * i;
            if (vstore) {
                reinterpret_cast<float4*>(out32 + base + head)[i] = v[j];
            } else {
                _fc3d_stream_store<T>(P, yi, v[j].x);
                _fc3d_stream_store<T>(P, yi + 1, v[j].y);
                _fc3d_stream_store<T>(P, yi + 2, v[j].z);
                _fc3d_stream_store<T>(P, yi + 3, v[j].w);
            }
        }
        if (sok) _fc3d_stream_store<T>(P, base + se, sv);
        if (!P.gather) continue;
        /* statistics of what was stored, in the order the values were held */
        double2 part = make_double2(0.0, 0.0);
        auto add = [&](float w) {
            if (P.store == FC3D_STORE_Y) w = _fc3d_round_to(w, (const T*)P.y);
            part.x += (double)w;
            part.y += (double)w * (double)w;
        };
#pragma unroll
        for (int j = 0; j < _FC3D_STREAM_VEC; j++)
            if (tid + (int64_t)j * _FC3D_THREADS < nv) { add(v[j].x); add(v[j].y); add(v[j].z); add(v[j].w); }
        if (sok) add(sv);
        part = _fc3d_block_sum(part, scratch);
        if (tid == 0) P.partials[_fc3d_nc_partial_index(P.sg, g.cout, co[0], co[1], cps, b - nc * cps)] = part;
    }
}

/* Whether a read-back pass can be streamed (above): the planner's side of the same test. */
static int _fc3d_stream_ok(const fc3d_plan_private_* pr, int source, int op_begin, int op_end, int store,
                           int stat_op) {
    int i;
    if (source != FC3D_SOURCE_INTERMEDIATE || pr->geom.layout != FC3D_LAYOUT_NCDHW) return 0;
    if (stat_op >= 0 && (pr->stat[stat_op].keep & (_FC3D_K_D | _FC3D_K_H | _FC3D_K_W))) return 0;
    if (store != FC3D_STORE_Y && store != FC3D_STORE_INTERMEDIATE) return 0;
    for (i = op_begin; i < op_end; i++) {
        const fc3d_op* op = &pr->desc.ops[i];
        const _fc3d_op_info* info = _fc3d_op_info_of(op);
        if (!info || !_fc3d_nc_uniform(_fc3d_enum_int(&op->kind), info->stats, pr->stat[i].keep, op->flags,
                                       info->affine))
            return 0;
    }
    return 1;
}

/* Read-back with row statistics: a pass that reads the intermediate back and whose first op is a
   norm over each W row (a LayerNorm over W: groups of one (n, c, d, h) row, _FC3D_K_N | _FC3D_K_C |
   _FC3D_K_D | _FC3D_K_H) takes that op's statistics from the row it holds, so the pass before it
   stores the rows and gathers nothing: y-sized traffic twice instead of three times (a statistics
   read-back, a finalize, then this pass). A warp takes 8 / E whole rows at once, E values a lane
   a row (rows up to 32 E wide), all its loads in flight before any sum. A row's statistics are
   taken in float: its mean, then the variance about it from the values the lanes hold (no
   cancellation; where a row's mean dwarfs its spread, the mean's rounding adds an error of the
   order of the float intermediate's own), 1/std by __frsqrt_rn. Built first with the statistics
   read-back's sums and the finalize's arithmetic, in double, the pass took 2.25 ms under ncu on
   L2/34's FP32 chain (every lane's double divisions and square root a row, 0.94 TB/s); in float
   1.53 ms (1.39 TB/s, DRAM 29 % of its peak), the chain 3.37 -> 2.81 ms (bench/RESULTS.md,
   forty-fifth entry). It is issue-bound (ncu: 0.68 warps issued a cycle a scheduler, 1.46 of 5.66
   eligible): fewer instructions a value is what would bring it to the bandwidth's 0.5 ms. The ops after
   it run straight from the op where all are ReLU, scale or a GELU and the layout is NCDHW
   (STRAIGHT: a kernel of its own, which computes no coordinate: row u starts at u W), else
   resolved once per row (each is fixed by (n, c), _fc3d_nc_uniform: the planner sees to it).
   Deterministic. The planner's side: _fc3d_row_pass_ok, _fc3d_add_row_pass. */
#define _FC3D_ROW_PASS_W 256 /* the widest row a warp holds (8 values a lane) */
#ifndef _FC3D_ROW_PASS_MINB
#define _FC3D_ROW_PASS_MINB 3 /* blocks an SM the straight kernels of up to 4 values a lane are built for
                                 (registers <= 85; 8 values: 2 blocks) */
#endif
template <typename T, int E, bool STRAIGHT>
static __global__ void __launch_bounds__(_FC3D_THREADS, !STRAIGHT ? 1 : E < 8 ? _FC3D_ROW_PASS_MINB : 2)
    _fc3d_row_pass_kernel(const _fc3d_direct_params P) {
    _fc3d_pdl_enter();
    constexpr int R = 8 / E; /* rows a warp at once */
    __shared__ _fc3d_unit_op rops[_FC3D_THREADS / 32][FC3D_MAX_OPS];
    const fc3d_geom_& g = P.g;
    const int64_t ext[5] = {g.n, g.cout, g.d, g.h, g.w};
    const int lane = threadIdx.x % 32, wib = threadIdx.x / 32;
    const int W = (int)g.w;
    const int64_t ystep = g.layout == FC3D_LAYOUT_NDHWC ? g.cout : 1;
    const _fc3d_dev_op& nop = P.chain.ops[P.op_begin];
    const int r0 = P.op_begin + 1, nrest = P.op_end - r0;
    (void)ext;
    (void)nrest; /* (the straight kernels use neither, nor a row's coordinates below) */
    const float inv_w = 1.0f / (float)W;
    /* the norm's affine by position in the row: the same E values for every row a lane takes */
    const bool aff = (nop.flags & FC3D_OP_AFFINE) != 0;
    float nw[E], nb[E];
#pragma unroll
    for (int j = 0; j < E; j++) {
        const int e = lane + 32 * j < W ? lane + 32 * j : W - 1;
        nw[j] = aff ? nop.weight[e] : 1.0f;
        nb[j] = aff ? nop.bias[e] : 0.0f;
    }
    T* y = (T*)P.y;
    const int64_t warps = (int64_t)gridDim.x * (_FC3D_THREADS / 32);
    /* the loop bound is warp-uniform: every shuffle below sees the whole warp */
    for (int64_t u0 = ((int64_t)blockIdx.x * (_FC3D_THREADS / 32) + wib) * R; u0 < P.units; u0 += warps * R) {
        int64_t co[R][5] = {}, yi0[R];
        (void)co;
        float v[R][E];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int64_t u = u0 + r < P.units ? u0 + r : P.units - 1; /* (a row past the end: never stored) */
            if constexpr (!STRAIGHT) { /* (n, c) for the ops, and NDHWC's offsets */
                int64_t t = u / g.h;
                co[r][3] = u - t * g.h;
                co[r][2] = t % g.d;
                t /= g.d;
                co[r][1] = t % g.cout;
                co[r][0] = t / g.cout;
                co[r][4] = 0;
                yi0[r] = _fc3d_y_index(g, co[r][0], co[r][1], co[r][2], co[r][3], 0);
            } else {
                yi0[r] = u * g.w; /* NCDHW (the planner sees to it): row u starts there */
            }
#pragma unroll
            for (int j = 0; j < E; j++) {
                const int e = lane + 32 * j;
                v[r][j] = e < W ? P.inter[yi0[r] + e * ystep] : 0.0f;
            }
        }
        /* the rows' statistics in float, the variance about the row's mean (the row is in
           registers: two sums, no cancellation), each sum in a fixed order (a lane's values in
           order, then the butterfly): deterministic */
        float mean[R], rstd[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            float s = 0.0f;
#pragma unroll
            for (int j = 0; j < E; j++)
                if (lane + 32 * j < W) s += v[r][j];
            mean[r] = _fc3d_warp_sum_f(s) * inv_w;
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
            float q = 0.0f;
#pragma unroll
            for (int j = 0; j < E; j++)
                if (lane + 32 * j < W) {
                    const float dv = v[r][j] - mean[r];
                    q = fmaf(dv, dv, q);
                }
            rstd[r] = __frsqrt_rn(fmaf(_fc3d_warp_sum_f(q), inv_w, nop.eps));
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
            if (u0 + r >= P.units) break; /* (warp-uniform) */
            if constexpr (!STRAIGHT) {
                __syncwarp(); /* the warp's previous row is done with its ops */
                if (lane < nrest) rops[wib][lane] = _fc3d_resolve_op(P.chain.ops[r0 + lane], ext, co[r]);
                __syncwarp();
            }
            float o[E];
#pragma unroll
            for (int j = 0; j < E; j++) {
                const float t = (v[r][j] - mean[r]) * rstd[r];
                o[j] = aff ? fmaf(t, nw[j], nb[j]) : t;
            }
            if constexpr (STRAIGHT) {
                for (int i = r0; i < P.op_end; i++) _fc3d_straight_op_regs<E>(P.chain.ops[i].kind, P.chain.ops[i].value, o);
            } else {
#pragma unroll
                for (int j = 0; j < E; j++) o[j] = _fc3d_apply_unit_ops(rops[wib], nrest, o[j]);
            }
#pragma unroll
            for (int j = 0; j < E; j++) {
                const int64_t yi = yi0[r] + (int64_t)(lane + 32 * j) * ystep;
                if (lane + 32 * j >= W) continue;
                if (P.store == FC3D_STORE_INTERMEDIATE) P.inter[yi] = o[j];
                else _fc3d_store(y, yi, o[j]);
            }
        }
    }
}

/* The same pass on 16-byte accesses, where the rows allow it (_fc3d_row_vec_g: float32 tensors,
   NCDHW, every op after the norm straight, W = 8 G for G a power of two up to 32; the launcher
   adds that the intermediate and y start on 16 bytes): a row on G consecutive lanes of 8
   consecutive values each (two 16-byte loads and stores a lane), 32 / G rows a warp a set and
   _FC3D_ROW_VEC_U sets at once, every load in flight before any sum. A row's sums take log2 G
   shuffles each instead of 5 for every E values a lane, and a value one load instruction in 4:
   the scalar kernel above is issue-bound. Each lane of a group ends its butterfly with the same
   sums (the xor partners add the same two values), so the statistics are the same on every lane
   and from run to run. */
#ifndef _FC3D_ROW_VEC
#define _FC3D_ROW_VEC 1 /* 0: the scalar kernel for every row pass (measurement) */
#endif
#define _FC3D_ROW_VEC_U 2 /* row sets a warp at once */
template <int G>
static __global__ void __launch_bounds__(_FC3D_THREADS, 2) _fc3d_row_pass_vec_kernel(const _fc3d_direct_params P) {
    _fc3d_pdl_enter();
    constexpr int RW = 32 / G, U = _FC3D_ROW_VEC_U, W = 8 * G;
    const int lane = threadIdx.x % 32, wib = threadIdx.x / 32;
    const int q = lane % G; /* the lane's eighth of a row */
    const _fc3d_dev_op& nop = P.chain.ops[P.op_begin];
    const int r0 = P.op_begin + 1;
    const float inv_w = 1.0f / (float)W;
    const bool aff = (nop.flags & FC3D_OP_AFFINE) != 0;
    float nw[8], nb[8];
#pragma unroll
    for (int j = 0; j < 8; j++) {
        nw[j] = aff ? nop.weight[8 * q + j] : 1.0f;
        nb[j] = aff ? nop.bias[8 * q + j] : 0.0f;
    }
    float* dst = P.store == FC3D_STORE_INTERMEDIATE ? P.inter : (float*)P.y;
    const int64_t warps = (int64_t)gridDim.x * (_FC3D_THREADS / 32);
    /* the loop bound is warp-uniform: every shuffle below sees the whole warp */
    for (int64_t u0 = ((int64_t)blockIdx.x * (_FC3D_THREADS / 32) + wib) * (RW * U); u0 < P.units;
         u0 += warps * (RW * U)) {
        float v[U][8];
        int64_t row[U];
#pragma unroll
        for (int s = 0; s < U; s++) {
            row[s] = u0 + s * RW + lane / G;
            const int64_t ur = row[s] < P.units ? row[s] : P.units - 1; /* (a row past the end: never stored) */
            const float4* src = (const float4*)(P.inter + ur * W + 8 * q);
            const float4 a = src[0], b = src[1];
            v[s][0] = a.x; v[s][1] = a.y; v[s][2] = a.z; v[s][3] = a.w;
            v[s][4] = b.x; v[s][5] = b.y; v[s][6] = b.z; v[s][7] = b.w;
        }
        float mean[U], rstd[U];
#pragma unroll
        for (int s = 0; s < U; s++) {
            float t = ((v[s][0] + v[s][1]) + (v[s][2] + v[s][3])) + ((v[s][4] + v[s][5]) + (v[s][6] + v[s][7]));
#pragma unroll
            for (int o = G / 2; o > 0; o /= 2) t += __shfl_xor_sync(0xffffffffu, t, o);
            mean[s] = t * inv_w;
        }
#pragma unroll
        for (int s = 0; s < U; s++) {
            float t = 0.0f;
#pragma unroll
            for (int j = 0; j < 8; j++) {
                const float dv = v[s][j] - mean[s];
                t = fmaf(dv, dv, t);
            }
#pragma unroll
            for (int o = G / 2; o > 0; o /= 2) t += __shfl_xor_sync(0xffffffffu, t, o);
            rstd[s] = __frsqrt_rn(fmaf(t, inv_w, nop.eps));
        }
#pragma unroll
        for (int s = 0; s < U; s++) {
            if (row[s] >= P.units) continue; /* (no shuffle below) */
            float o[8];
#pragma unroll
            for (int j = 0; j < 8; j++) {
                const float t = (v[s][j] - mean[s]) * rstd[s];
                o[j] = aff ? fmaf(t, nw[j], nb[j]) : t;
            }
            for (int i = r0; i < P.op_end; i++) _fc3d_straight_op_regs<8>(P.chain.ops[i].kind, P.chain.ops[i].value, o);
            float4* out = (float4*)(dst + row[s] * W + 8 * q);
            out[0] = make_float4(o[0], o[1], o[2], o[3]);
            out[1] = make_float4(o[4], o[5], o[6], o[7]);
        }
    }
}

/* Whether pass i (reading the intermediate back) can compute its first op's statistics itself
   (_fc3d_row_pass_kernel): that op normalises W rows (a LayerNorm over W, affine by position, no
   saved or running statistics) of at most _FC3D_ROW_PASS_W values, the ops after it are fixed by
   (n, c) (every elementwise op), the pass gathers nothing and stores. */
#ifndef _FC3D_ROW_PASS
#define _FC3D_ROW_PASS 1 /* 0: a statistics read-back and a finalize before the pass (measurement) */
#endif
static int _fc3d_row_pass_ok(const fc3d_plan* p, int i) {
    const fc3d_plan_private_* pr = &p->_private;
    if (!_FC3D_ROW_PASS || i <= 0 || i >= p->num_passes) return 0;
    const fc3d_pass* ps = &p->passes[i];
    const int b = ps->op_begin;
    if (ps->source != FC3D_SOURCE_INTERMEDIATE || ps->stat_op >= 0 || b >= ps->op_end) return 0;
    if (ps->store != FC3D_STORE_Y && ps->store != FC3D_STORE_INTERMEDIATE) return 0;
    if (p->passes[i - 1].stat_op != b || p->passes[i - 1].moments) return 0;
    const fc3d_op* op = &p->desc.ops[b];
    const _fc3d_op_info* info = _fc3d_op_info_of(op);
    int k;
    for (k = b + 1; k < ps->op_end; k++) { /* the ops after the norm resolve per row */
        const fc3d_op* ok = &p->desc.ops[k];
        const _fc3d_op_info* ik = _fc3d_op_info_of(ok);
        if (!ik || !_fc3d_nc_uniform(_fc3d_enum_int(&ok->kind), ik->stats, pr->stat[k].keep, ok->flags, ik->affine))
            return 0;
    }
    return info && info->stats == _FC3D_ST_NORMALIZE &&
           pr->stat[b].keep == (unsigned)(_FC3D_K_N | _FC3D_K_C | _FC3D_K_D | _FC3D_K_H) &&
           (!(op->flags & FC3D_OP_AFFINE) || info->affine == _FC3D_AFF_NORMALIZED) &&
           !(op->flags & (FC3D_OP_UPDATE_RUNNING_STATS | FC3D_OP_SAVE_BATCH_STATS)) && pr->geom.w <= _FC3D_ROW_PASS_W;
}

static int _fc3d_direct_can_implement(const fc3d_plan* p, char* why, size_t n) {
    (void)p;
    if (why && n) why[0] = 0;
    return 1;
}

/* Rows per unit and units per (n, c, d) plane of a plan's direct passes. */
static void _fc3d_direct_units(const fc3d_plan* p, int64_t* rows_out, int64_t* hu_out) {
    const fc3d_geom_* g = &p->_private.geom;
    int64_t rows = (_FC3D_UNIT_TARGET + g->w - 1) / g->w;
    int i;
    for (i = 0; i < p->desc.num_ops; i++)
        if (p->_private.stat[i].keep & _FC3D_K_H) rows = 1;
    if (rows > g->h) rows = g->h;
    *rows_out = rows;
    *hu_out = (g->h + rows - 1) / rows;
}

/* A direct pass step (and the finalize of what it gathers): source, ops [op_begin, op_end), store,
   and the statistics op whose partials it writes (-1: none). Other engines use it too, for passes
   that only read back the intermediate. */
static void _fc3d_direct_add_pass(fc3d_plan* p, int pass, int source, int op_begin, int op_end, int store,
                                  int stat_op) {
    fc3d_plan_private_* pr = &p->_private;
    const fc3d_geom_* g = &pr->geom;
    int64_t rows, hu;
    fc3d_step_* s;
    const int stream = _fc3d_stream_ok(pr, source, op_begin, op_end, store, stat_op);
    const int64_t chunks = (g->d * g->h * g->w + _FC3D_STREAM_CHUNK - 1) / _FC3D_STREAM_CHUNK; /* per (n, c) */
    _fc3d_direct_units(p, &rows, &hu);
    if (stat_op >= 0) {
        fc3d_stat_geom_* sg = &pr->stat[stat_op];
        /* slots: the unit coordinates (n, channel within group, d, row block) the group does not keep;
           streamed: (n, channel within group, chunk) */
        sg->slots = ((sg->keep & _FC3D_K_N) ? 1 : g->n) * ((sg->keep & _FC3D_K_C) ? sg->cpg : g->cout) *
                    (stream ? chunks : ((sg->keep & _FC3D_K_D) ? 1 : g->d) * ((sg->keep & _FC3D_K_H) ? 1 : hu));
    }
    s = _fc3d_add_step(pr, _FC3D_STEP_DIRECT_PASS, pass, stat_op);
    s->variant = source * 4 + (source == FC3D_SOURCE_CONV ? _fc3d_enum_int(&p->desc.math) : FC3D_MATH_FP32);
    s->block = _FC3D_THREADS;
    s->arg[6] = rows * g->w <= _FC3D_WARP_UNIT_MAX; /* one unit per warp */
    s->arg[7] = stream;
    if (stream)
        s->grid = _fc3d_grid(g->n * g->cout * chunks);
    else
        s->grid = s->arg[6] ? _fc3d_grid_warps(g->n * g->cout * g->d * hu) : _fc3d_grid(g->n * g->cout * g->d * hu);
    s->arg[0] = rows;
    s->arg[1] = hu;
    s->arg[2] = g->n * g->cout * g->d * hu;
    s->arg[3] = store;
    s->arg[4] = op_begin;
    s->arg[5] = op_end;
    if (stat_op >= 0) _fc3d_add_finalize(p, pass, stat_op);
}

/* The read-back of pass `pass` with its first op's row statistics taken from the rows
   (_fc3d_row_pass_kernel; the planner asked _fc3d_row_pass_ok): a warp per 8 / E rows. The step's
   variant is _FC3D_DIRECT_ROWS + E, plus _FC3D_DIRECT_ROWS_STRAIGHT where every op after the norm
   is straight (ReLU, scale, a GELU) and the layout NCDHW. */
#define _FC3D_DIRECT_ROWS 0x100
#define _FC3D_DIRECT_ROWS_STRAIGHT 0x10
/* Whether pass `pass` has a row read-back step */
static int _fc3d_row_pass_of(const fc3d_plan_private_* pr, int pass) {
    int k;
    for (k = 0; k < pr->num_steps; k++)
        if (pr->steps[k].pass == pass && pr->steps[k].kind == _FC3D_STEP_DIRECT_PASS &&
            (pr->steps[k].variant & _FC3D_DIRECT_ROWS))
            return 1;
    return 0;
}
/* The lanes a row of a row read-back step takes on 16-byte accesses (_fc3d_row_pass_vec_kernel),
   from the plan alone: W / 8, or 0 where the rows take the scalar kernel. The launcher also asks
   that the intermediate and y start on 16 bytes. */
static int _fc3d_row_vec_g(const fc3d_plan_private_* pr, const fc3d_step_* s) {
    const int64_t w = pr->geom.w;
    if (!_FC3D_ROW_VEC || !(s->variant & _FC3D_DIRECT_ROWS) || !(s->variant & _FC3D_DIRECT_ROWS_STRAIGHT)) return 0;
    if (_fc3d_enum_int(&pr->desc.dtype) != FC3D_DTYPE_F32 || pr->geom.layout != FC3D_LAYOUT_NCDHW) return 0;
    return w == 8 || w == 16 || w == 32 || w == 64 || w == 128 || w == 256 ? (int)(w / 8) : 0;
}
static void _fc3d_add_row_pass(fc3d_plan* p, int pass) {
    fc3d_plan_private_* pr = &p->_private;
    const fc3d_geom_* g = &pr->geom;
    const fc3d_pass* ps = &p->passes[pass];
    fc3d_step_* s = _fc3d_add_step(pr, _FC3D_STEP_DIRECT_PASS, pass, -1);
    const int64_t rows = g->n * g->cout * g->d * g->h;
    const int e = g->w <= 32 ? 1 : g->w <= 64 ? 2 : g->w <= 128 ? 4 : 8;
    int i, straight = 1;
    for (i = ps->op_begin + 1; i < ps->op_end; i++)
        straight = straight && _fc3d_straight_kind(_fc3d_enum_int(&p->desc.ops[i].kind));
    straight = straight && g->layout == FC3D_LAYOUT_NCDHW; /* (the straight kernels' row offsets) */
    s->variant = _FC3D_DIRECT_ROWS + (straight ? _FC3D_DIRECT_ROWS_STRAIGHT : 0) + e;
    s->block = _FC3D_THREADS;
    s->grid = _fc3d_grid_warps((rows + 8 / e - 1) / (8 / e));
    s->arg[0] = 1;
    s->arg[1] = g->h;
    s->arg[2] = rows;
    s->arg[3] = ps->store;
    s->arg[4] = ps->op_begin;
    s->arg[5] = ps->op_end;
    s->arg[6] = 1;
}

static void _fc3d_direct_plan_steps(fc3d_plan* p) {
    int i;
    for (i = 0; i < p->num_passes; i++) {
        const fc3d_pass* ps = &p->passes[i];
        if (ps->source == FC3D_SOURCE_INPUT_SUMS) _fc3d_add_input_sums(p, i);
        else _fc3d_direct_add_pass(p, i, ps->source, ps->op_begin, ps->op_end, ps->store, _fc3d_gather_of(ps));
    }
}

static void _fc3d_direct_workspace(fc3d_plan* p) { (void)p; /* the shared regions are all it uses */ }

/* >>engine-implicit-gemm -------------------------------------------------------------------------
   Output-phase decomposition: per dim, o = s*q + r; the taps of residue r form an arithmetic
   progression t = t0 + j*(s/g), g = gcd(s, dl), reading input i = q + c0 - j*(dl/g). Each phase
   (rd, rh, rw) is an implicit GEMM (M = positions of the phase in one sample, N = C_out/groups,
   K = active taps x C_in/groups), so the zeros that the stride inserts are never multiplied. Phases
   with no taps run the same kernel with an empty K loop, so they get bias and epilogue in the
   same launch; where their value is zero and they hold half the positions or more, a zero fill of
   the stored tensor before the launch writes them instead and their tiles return at once
   (_fc3d_tc_zero_fill).

   Tiles: a CTA owns 128 positions of one phase of one sample x BN output channels of one group.
   Per dim, residues fall into two classes of equal Q (r < O mod s: Q = O/s + 1, else O/s), so all
   phases of a class have the same tile count. Tiles are numbered level by level (a level: the
   tiles of one index tl within their phase, i.e. about the same output region in every phase),
   class by class within a level, phase fastest; from the level where a class with fewer tiles
   runs out, the levels hold only the other classes (at most 8 segments of equal level size).
   So the phases of one output region run side by side and their stride-s stores fill each
   32-byte sector in L2 before it is written back. Numbered class by class instead, the first
   store of a sector reached DRAM long before its other half (L1/77, ncu: 481 MB read and 960 MB
   written for 34 MB of input and 571 MB of output; level by level 214 and 713), and all tiles
   of a tap-less phase ran before any tile with taps. _FC3D_TC_LBLOCK levels form a block, class
   by class inside it; conv alone, TF32, one H100 run, levels per block 1 / 16 / all: L1/77
   0.895 / 0.916 / 1.079 ms, L2/15 0.409 / 0.409 / 0.426 (L2/34, L2/61, L2/77: one class, the
   same order).

   Operands are staged in shared memory as [k][m] and [k][n] (m, n contiguous) with row strides
   = 8 (mod 32) words, so the 32 lanes of each fragment load hit 32 different banks. A is gathered
   with 4-byte cp.async (zero-fill for taps outside the input); in NCDHW consecutive m are
   consecutive x addresses for one (tap, channel), and a thread whose k are channels of one tap
   (C_in/groups a multiple of its 16 or 32 k) tests the bounds once per chunk. Taps that no row
   of the tile can reach are skipped (per-dim contiguous ranges). B comes from a per-run re-layout of the weight,
   [group][kd][kh][kw][ci][co padded to BN], already rounded/split for the math mode; for the
   sm_90a loop (the design note) a K-major copy instead, each (group, tap, 32 channels) block of
   co padded x 32 laid out in core matrices of 8 output channels x 16 bytes, so a channel tile's
   block is contiguous and the tensor cores read it from shared memory as it was copied; with
   C_in/groups 16 mod 32, pieces of 16 channels, a chunk's two (of two taps) copied interleaved
   per 8 output channels into that same layout.
   3xTF32 (the FP32 math mode): each operand is split into big = round(v) and small = round(v - big),
   which leaves v - big - small below 2^-24 |v|. Each 32-deep chunk computes small*big + big*small
   + big*big into a fresh tensor-core accumulator (its truncating accumulation then never carries
   a running sum of more than 32 products), and each chunk's sum is added into the FP32
   accumulator with an IEEE add. Tiles of at most 8 chunks (short K, where the rounding of the
   products dominates) take each 8-deep step in a fresh accumulator, sum the steps with IEEE adds
   and also add small*small. Measured on random dot products against float64 (H100,
   bench/tf32x3_accuracy.cu): one accumulator per chunk 2.4e-7 / 2.6e-7 / 3.7e-7 rel-L2 at K = 32 /
   1024 / 8000 (FP32 FMAs in sequence: 1.0e-7 / 5.7e-7 / 1.6e-6; one accumulator for the whole K:
   5.6e-5 at 8000); a fresh accumulator per step: 9.5e-8 at K = 32, 3.0e-7 at 8000, but 4 IEEE adds
   per 3 MMAs cost 57 ms against 46 on L2/77's FP32 chain, so long K keeps the per-chunk sums. */
enum { _FC3D_TC_TF32 = 0, _FC3D_TC_3XTF32 = 1, _FC3D_TC_HALF = 2 };
/* TF32 operand rounding: 0 = truncation (raw fp32 bits into the tensor core, which uses the top 10
   mantissa bits), 1 = round to nearest, ties to even (_fc3d_tc_round; the design note says why). */
#ifndef _FC3D_TC_TF32_RND
#define _FC3D_TC_TF32_RND 1
#endif

typedef struct _fc3d_tc_geom {
    int64_t n, cin, cout, di, hi, wi, d, h, w;
    int k[3], s[3], p[3], dl[3];
    int groups;
    int layout; /* 1 = NCDHW, 2 = NDHWC */
    int smem;   /* shared memory a block may take (desc.smem_per_block; 0: FC3D_SMEM_PER_BLOCK_MAX) */
} _fc3d_tc_geom;

/* Everything the kernels need except pointers; built once at plan time. */
typedef struct _fc3d_tc_kparams {
    int64_t n, cin, cout, cin_g, cout_g, cout_pad;
    int64_t idhw, odhw;
    int64_t cls_nres[8];   /* phases in class c */
    int64_t cls_tpp[8];    /* tiles per phase of class c (0 where the class has no phase) */
    int64_t seg_start[9];  /* levels: tiles before segment j (nseg segments, then the total) */
    int64_t seg_size[8];   /* tiles per level in segment j */
    int seg_lvl0[8];       /* its first level */
    int nseg;
    int lblock;            /* levels per block: class-major inside a block (section note) */
    int cls_cnt[8][3], cls_base[8][3], cls_q[8][3];
    int in[3], out[3], k[3], s[3], p[3], dl[3];
    int groups, ntn, layout, store, stats;
    int out_f32;           /* y is float whatever T is (a float32 intermediate) */
    int64_t ws_half; /* float elements of one weight copy (3xTF32 keeps two) */
    /* Whole-row tiles (>>engine-implicit-gemm, "Row tiles"): a tile is `rrows` consecutive
       (qd, qh) rows of one (rd, rh) phase pair, with every W phase of them. */
    int row_ok;            /* the geometry allows row tiles */
    unsigned rtap[3];      /* per dim, the residues with taps (bit r: residue r reaches some input) */
    int skip0;             /* launch time: y was zero-filled, so tiles of tap-less phases return at once */
    int hx_zc;             /* launch time: a zero-filling step's haloed tiles store their tapped positions
                              and the tap-less ones around them, and there is no fill (_fc3d_hx_zc_dims) */
    int hx_short;          /* the plan took 64-channel haloed tiles for more than 64 output channels, a
                              tile's K being short (_FC3D_HX_SHORT_K): their launches take one weight slot
                              fewer where that lets a second CTA onto an SM */
    int rrows;
    int64_t rprefix[5];    /* row tiles before (d, h) class c, within one sample */
    int64_t rcls_nres[4];  /* (rd, rh) pairs in class c */
    /* Haloed tiles (the sm_90a haloed loop, _fc3d_hx_plan): the padded operand copy of x and the
       tile order, class by class, phase by phase */
    int hx_ok;             /* the geometry allows the haloed loop */
    int hx_kc;             /* input channels of a unit */
    int hx_rmax;           /* rows of a unit at most */
    int hx_plo[3];         /* zero rows before the input, per dim */
    int hx_pad[3];         /* padded extents */
    int64_t hx_ps;         /* rows of one (sample, channel group) padded volume, with slack */
    int64_t hx_cls_tpp[8]; /* tiles per phase of class c */
    int64_t hx_cls_start[9]; /* tiles before class c; [8]: the tiles of a sample */
    int hx_rn;             /* rows one wgmma computes (its N): 256, or 240 (_fc3d_hx_tiling) */
    int hx_prows;          /* plane-row tiles: rows qh of the padded plane a tile holds (0: runs of
                              _FC3D_HX_NR virtual rows across planes) */
    int64_t hx_cls_tpl[8]; /* plane-row tiles: tiles per plane qd of class c */
    int64_t hx_tiles;
    int64_t hx_zcls_start[9]; /* as hx_cls_start counting tapped phases only (a zero-filling step's grid) */
    int64_t hx_parts;      /* statistics slots per (n, c) at launch (_fc3d_tc_slots) */
    int64_t hx_ahead;      /* launch time: the CTAs the device holds at once (0: no prefetch, _FC3D_HX_PREFETCH) */
    int hx_pfu;            /* launch time: the units of the next CTA's tile the producer prefetches into L2 */
    const void* hx_tab;    /* launch time: this launch's decoded tiles (_fc3d_hx_prep), or NULL: each
                              CTA decodes its own */
    /* haloed row tiles (W stride 2, a LayerNorm over W): hx_rpt consecutive (qd, qh) rows of
       the padded plane of one (rd, rh) phase pair, both W phases (a warpgroup each) */
    int hx_t32;            /* TF32 math on the haloed loop's f16 path (_FC3D_HX_TF32_F16): operands rounded
                              to TF32, scaled by a power of two per tensor, held as f16; the sums unscaled
                              (set for every TF32 plan; read only where the plan takes the haloed loop) */
    int64_t hx_sc_at;      /* the scale words' byte offset from the weight pieces (3xTF32 and hx_t32:
                              _fc3d_hx_x3_scales), the pieces' bytes */
    int hx_wide;           /* the prep step's 64-bit index decoding, which tensors of 2^31 elements take,
                              forced (0; tests set it: _fc3d_hx_pdiv) */
    int hx_rows;           /* the plan's row passes take them */
    int hx_rpt;            /* rows of a tile: 256 / padded W */
    int hx_rrn;            /* rows one wgmma of a row tile computes: 240 where hx_rpt rows fit, else 256 */
    int hx_rrmax;          /* rows of a unit at most (both W phases' taps) */
    int64_t hx_rcls_tpp[4];   /* tiles per (rd, rh) phase pair of (d, h) class c */
    int64_t hx_rcls_start[5]; /* tiles before class c; [4]: the row tiles of a sample */
    int hx_dt[3][8][5];    /* per dim and residue: taps nt, t0, tstep, c0, cstep (_fc3d_tc_dim_taps) */
    /* block tiles (the block loop, _fc3d_bk_geometry; its statistics slots: hx_parts) */
    int bk_bd, bk_bh;      /* output rows along D and H of a block */
    int bk_nbd, bk_nbh;    /* blocks along D and H of a sample */
    int bk_ed, bk_eh;      /* input rows along D and H a block reads */
    int bk_wp, bk_plw;     /* the padded input W of a block, and its zero columns before the input */
    int bk_cs;             /* floats of one input channel of a block (8 mod 32) */
    int bk_qt;             /* 16-position m-tiles of a W phase */
    int bk_units;          /* a block's units: rows x m-tiles x W phases */
    int bk_vec;            /* the input W is a multiple of 4: 16-byte copies (plw and wp too) */
    int bk_f16;            /* TF32's operands held as f16, m16n8k16 MMAs (_FC3D_BK_F16) */
    int bk_half;           /* with bk_f16: half math, x and the weight rounded to f16 as they are (no scales) */
    int64_t bk_blocks;     /* blocks of one sample */
    int wr_half;           /* the warp-row loop (>>warp-row-loop) in half math: x and the weight held as they are */
    int smem_max;          /* shared memory a block may take (desc.smem_per_block): the planner's cap */
} _fc3d_tc_kparams;

typedef struct _fc3d_tc_plan {
    _fc3d_tc_kparams kp;
    int bn;              /* output-channel tile: 32, 64 or 128 */
    int math;
    int64_t tiles_per_sample;
    int64_t row_tiles_per_sample; /* with whole-row tiles (0 where kp.row_ok is 0) */
    size_t ws_bytes;
    int wg_ok;           /* the sm_90a loop can run it (C_in/groups a multiple of _FC3D_WG_PIECE) */
    int hx_ok;           /* a run with sm_90a code takes the haloed loop (_fc3d_hx_choose) */
    int hx_why;          /* else why not: _FC3D_HX_NO_* */
    int hx_bn, hx_ntn;   /* its output-channel tile (64 or 128) and the tiles of a group */
    double hx_macs;      /* products an output sums, on average over the outputs */
    size_t hx_wbytes, hx_xbytes; /* its weight pieces and its operand copy of x */
    double zfrac;        /* the share of output positions in tap-less phases */
    int bk_ok;           /* the run takes the block loop (_fc3d_bk_choose), else bk_why says why not */
    int bk_why;
    int bk_nt8;          /* its output channels / 8, padded: 4 or 8 */
    int rows_store;      /* a chain without statistics whose storing pass takes the haloed row tiles */
    size_t bk_wbytes;    /* its weight in fragment order (_fc3d_bk_prep_w) */
    int wr_ok;           /* the run takes the warp-row loop (_fc3d_wr_choose), else wr_why says why not */
    int wr_why;
    size_t wr_xbytes;    /* its f16 copy of x (the weight's: _FC3D_WR_WB + _FC3D_WR_WORDS) */
    int ok;
} _fc3d_tc_plan;

/* The statistics slots per (n, c) of a convolving step, the one count the plan sizes them by and
   the launch hands the kernel: the warp-row loop's output planes (a segment (n, od) each), the
   block loop's blocks of a sample, else the tiled loops' tiles (whole-row ones for a row step).
   The haloed loop takes the tiled loops' count (a run whose device takes no sm_90a code runs the
   same plan on the tiled loops): its row tiles zero the slots past their fewer tiles, the finalize
   after its phase tiles reads theirs alone (_fc3d_tc_slots_written). */
static inline int64_t _fc3d_tc_slots(const _fc3d_tc_plan* tp, int row) {
    return tp->wr_ok ? tp->kp.out[0] : tp->bk_ok ? tp->kp.bk_blocks : row ? tp->row_tiles_per_sample : tp->tiles_per_sample;
}
/* Of those, the slots a (n, c) cell's producer writes where the run takes the haloed loop: its
   phase tiles write their own hx_tiles (fewer than the tiled loops': L2/61 154 of 308) and the
   finalize reads those alone (_fc3d_finalize_params::used); the haloed row tiles zero the rest
   and every other loop writes them all. hx: the run takes the haloed loop. */
static inline int64_t _fc3d_tc_slots_written(const _fc3d_tc_plan* tp, int row, int hx) {
    const int64_t all = _fc3d_tc_slots(tp, row);
    if (!hx || !tp->hx_ok || tp->wr_ok || tp->bk_ok || row) return all;
    return tp->kp.hx_tiles < all ? tp->kp.hx_tiles : all;
}
/* The configuration the haloed kernels of plan tp take: its math, but HALF where TF32 runs on the
   f16 path (kp.hx_t32, _FC3D_HX_TF32_F16) */
static inline int _fc3d_hx_math(const _fc3d_tc_plan* tp) { return tp->kp.hx_t32 ? _FC3D_TC_HALF : tp->math; }

#ifndef _FC3D_TC_LBLOCK
#define _FC3D_TC_LBLOCK 1 /* levels per block of the tile order: 1 measured fastest (section note) */
#endif
#define _FC3D_TC_BM 128
#define _FC3D_TC_BK 32
#define _FC3D_TC_ST 3
#define _FC3D_TC_SA (_FC3D_TC_BM + 8)
#define _FC3D_WG_PIECE 16 /* the sm_90a loop's weight pieces: 16 input channels of one tap (a chunk is two) */
#define _FC3D_TC_ROW_EPL 16  /* whole-row tiles: a lane walks up to 16 values of a row in the epilogue */
#define _FC3D_TC_ROW_WMAX 128 /* whole-row tiles: the widest row (the accumulators of 2 W phases) */

typedef struct _fc3d_tc_kinfo { int64_t xoff, woff; int cd, ch, cw, valid; } _fc3d_tc_kinfo;
typedef struct _fc3d_tc_row { int64_t xbase, ospat; int qd, qh, qw, pad; } _fc3d_tc_row;
/* a tap of a tile for the sm_90a loop's chunk table: its input offset (spatial, elements), its
   weight tap (with the group) and its per-dim input offsets */
typedef struct _fc3d_wg_tap { int64_t sp; int wt, cd, ch, cw; } _fc3d_wg_tap;
#define _FC3D_WG_TT 128 /* the most taps a tile's chunk table holds (a k = 5 kernel has 125) */

/* ---------------------------------------------------------------- small device helpers */
static __device__ __forceinline__ float _fc3d_tc_tof(float v) { return v; }
static __device__ __forceinline__ float _fc3d_tc_tof(__half v) { return __half2float(v); }
static __device__ __forceinline__ float _fc3d_tc_tof(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> static __device__ __forceinline__ T _fc3d_tc_fromf(float v);
template <> __device__ __forceinline__ float _fc3d_tc_fromf<float>(float v) { return v; }
template <> __device__ __forceinline__ __half _fc3d_tc_fromf<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 _fc3d_tc_fromf<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

/* A TF32 A fragment (m16 x k8) from the staged [k][m] tile at its (row g, k t) element ap:
   rounded to nearest (_fc3d_tc_round), or the raw bits (the tensor cores then truncate). */
template <int RND> static __device__ __forceinline__ void _fc3d_tc_frag_a_tf32(const float* ap, uint32_t (&a)[4])
{
    const float v0 = ap[0], v1 = ap[8], v2 = ap[4 * _FC3D_TC_SA], v3 = ap[4 * _FC3D_TC_SA + 8];
    if (RND) {
        a[0] = _fc3d_tc_round(v0); a[1] = _fc3d_tc_round(v1); a[2] = _fc3d_tc_round(v2); a[3] = _fc3d_tc_round(v3);
    } else {
        a[0] = __float_as_uint(v0); a[1] = __float_as_uint(v1); a[2] = __float_as_uint(v2); a[3] = __float_as_uint(v3);
    }
}
/* 3xTF32's A fragments at ap: big = round(v), small = round(v - big) (the section note) */
static __device__ __forceinline__ void _fc3d_tc_frag_a_split(const float* ap, uint32_t (&big)[4], uint32_t (&small)[4])
{
    const float v[4] = {ap[0], ap[8], ap[4 * _FC3D_TC_SA], ap[4 * _FC3D_TC_SA + 8]};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        big[q] = _fc3d_tc_round(v[q]);
        small[q] = _fc3d_tc_round(v[q] - __uint_as_float(big[q]));
    }
}
static __device__ __forceinline__ uint32_t _fc3d_tc_smem(const void* p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}
/* A store of v to p where ok, predicated rather than branched around (the NCDHW epilogues' rows
   past the phase or tile: nvcc made each a branch with its convergence barrier and rebuilt the
   address inside it, 12 instructions a value on L2/61, ncu). y is not read by the kernels that
   store this way, so the store needs no ordering against their other memory operations. */
static __device__ __forceinline__ void _fc3d_st_if(float* p, float v, bool ok)
{
    asm volatile("{\n.reg .pred q;\nsetp.ne.b32 q, %2, 0;\n@q st.global.f32 [%0], %1;\n}\n" ::"l"(p), "f"(v),
                 "r"((int)ok));
}
static __device__ __forceinline__ void _fc3d_st_g(float* p, float v)
{
    asm volatile("st.global.f32 [%0], %1;\n" ::"l"(p), "f"(v));
}
static __device__ __forceinline__ void _fc3d_tc_cp4(void* dst, const void* src, bool ok)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(_fc3d_tc_smem(dst)), "l"(src),
                 "r"(ok ? 4 : 0));
}
static __device__ __forceinline__ void _fc3d_tc_cp16(void* dst, const void* src, bool ok)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(_fc3d_tc_smem(dst)), "l"(src),
                 "r"(ok ? 16 : 0));
}
static __device__ __forceinline__ void _fc3d_tc_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> static __device__ __forceinline__ void _fc3d_tc_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
static __device__ __forceinline__ void _fc3d_tc_mma_tf32(float* c, const uint32_t* a, const uint32_t* b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
/* d = a*b with a zero accumulator input (no register to clear) */
static __device__ __forceinline__ void _fc3d_tc_mma_tf32_fresh(float* d, const uint32_t* a, const uint32_t* b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%10,%10,%10};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.0f));
}
template <bool BF> static __device__ __forceinline__ void _fc3d_tc_mma_k16(float* c, const uint32_t* a, const uint32_t* b)
{
    if (BF)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
template <bool BF> static __device__ __forceinline__ uint32_t _fc3d_tc_pack(float lo, float hi)
{
    if (BF) {
        __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
        return *reinterpret_cast<uint32_t*>(&v);
    } else {
        __half2 v = __floats2half2_rn(lo, hi);
        return *reinterpret_cast<uint32_t*>(&v);
    }
}

/* A 16-bit A fragment (m16 x k16) from the staged [k][m] tile at its (row g, k 2t) element ap */
template <bool BF> static __device__ __forceinline__ void _fc3d_tc_frag_a_k16(const float* ap, uint32_t (&a)[4])
{
    constexpr int SA = _FC3D_TC_SA;
    a[0] = _fc3d_tc_pack<BF>(ap[0], ap[SA]);
    a[1] = _fc3d_tc_pack<BF>(ap[8], ap[SA + 8]);
    a[2] = _fc3d_tc_pack<BF>(ap[8 * SA], ap[9 * SA]);
    a[3] = _fc3d_tc_pack<BF>(ap[8 * SA + 8], ap[9 * SA + 8]);
}

/* Hopper (sm_90a) warpgroup MMAs: D (m64 x n, f32) (+)= A (m64 x k, four registers a thread, a warp
   holding mma.sync's m16 x k fragment) x B (k x n, shared memory, K-major, no swizzle: core matrices
   of 8 rows x 16 bytes). TY: 0 TF32 (k8), 1 f16, 2 bf16 (k16). acc = 0 ignores D's old value (a
   fresh accumulator, nothing to clear). Only sm_90a code has them. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define _FC3D_WG_L16 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15"
#define _FC3D_WG_L32 _FC3D_WG_L16 ",%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define _FC3D_WG_L64 _FC3D_WG_L32 ",%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
                                  "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define _FC3D_WG_O4(b) "+f"(d[(b)]), "+f"(d[(b) + 1]), "+f"(d[(b) + 2]), "+f"(d[(b) + 3])
#define _FC3D_WG_O16(b) _FC3D_WG_O4(b), _FC3D_WG_O4((b) + 4), _FC3D_WG_O4((b) + 8), _FC3D_WG_O4((b) + 12)
#define _FC3D_WG_O32(b) _FC3D_WG_O16(b), _FC3D_WG_O16((b) + 16)
#define _FC3D_WG_O64 _FC3D_WG_O32(0), _FC3D_WG_O32(32)
/* one function per shape and type: its D registers (list, operands), then A's four, the B
   descriptor and the scale-d flag by operand number; TAIL: f16/bf16 take B's transpose flag */
#define _FC3D_WG_FN(NAME, KIND, DL, DO, A0, A1, A2, A3, DS, SC, TAIL)                                           \
    static __device__ __forceinline__ void NAME(float* d, const uint32_t* a, uint64_t desc, int acc)           \
    {                                                                                                          \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" SC ", 0;\nwgmma.mma_async.sync.aligned." KIND " {" DL \
                     "}, {%" A0 ",%" A1 ",%" A2 ",%" A3 "}, %" DS ", p, 1, 1" TAIL ";\n}\n"                        \
                     : DO                                                                                      \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(acc));                       \
    }
_FC3D_WG_FN(_fc3d_wg_tf32_n32, "m64n32k8.f32.tf32.tf32", _FC3D_WG_L16, _FC3D_WG_O16(0), "16", "17", "18", "19", "20", "21", "")
_FC3D_WG_FN(_fc3d_wg_tf32_n64, "m64n64k8.f32.tf32.tf32", _FC3D_WG_L32, _FC3D_WG_O32(0), "32", "33", "34", "35", "36", "37", "")
_FC3D_WG_FN(_fc3d_wg_tf32_n128, "m64n128k8.f32.tf32.tf32", _FC3D_WG_L64, _FC3D_WG_O64, "64", "65", "66", "67", "68", "69", "")
_FC3D_WG_FN(_fc3d_wg_f16_n32, "m64n32k16.f32.f16.f16", _FC3D_WG_L16, _FC3D_WG_O16(0), "16", "17", "18", "19", "20", "21", ", 0")
_FC3D_WG_FN(_fc3d_wg_f16_n64, "m64n64k16.f32.f16.f16", _FC3D_WG_L32, _FC3D_WG_O32(0), "32", "33", "34", "35", "36", "37", ", 0")
_FC3D_WG_FN(_fc3d_wg_f16_n128, "m64n128k16.f32.f16.f16", _FC3D_WG_L64, _FC3D_WG_O64, "64", "65", "66", "67", "68", "69", ", 0")
_FC3D_WG_FN(_fc3d_wg_bf16_n32, "m64n32k16.f32.bf16.bf16", _FC3D_WG_L16, _FC3D_WG_O16(0), "16", "17", "18", "19", "20", "21", ", 0")
_FC3D_WG_FN(_fc3d_wg_bf16_n64, "m64n64k16.f32.bf16.bf16", _FC3D_WG_L32, _FC3D_WG_O32(0), "32", "33", "34", "35", "36", "37", ", 0")
_FC3D_WG_FN(_fc3d_wg_bf16_n128, "m64n128k16.f32.bf16.bf16", _FC3D_WG_L64, _FC3D_WG_O64, "64", "65", "66", "67", "68", "69", ", 0")
#undef _FC3D_WG_FN
#undef _FC3D_WG_O64
#undef _FC3D_WG_O32
#undef _FC3D_WG_O16
#undef _FC3D_WG_O4
#undef _FC3D_WG_L64
#undef _FC3D_WG_L32
#undef _FC3D_WG_L16
template <int BN, int TY> static __device__ __forceinline__ void _fc3d_wg_mma(float* d, const uint32_t* a, uint64_t desc,
                                                                             int acc)
{
    if (TY == 0) {
        if (BN == 128) _fc3d_wg_tf32_n128(d, a, desc, acc);
        else if (BN == 64) _fc3d_wg_tf32_n64(d, a, desc, acc);
        else _fc3d_wg_tf32_n32(d, a, desc, acc);
    } else if (TY == 1) {
        if (BN == 128) _fc3d_wg_f16_n128(d, a, desc, acc);
        else if (BN == 64) _fc3d_wg_f16_n64(d, a, desc, acc);
        else _fc3d_wg_f16_n32(d, a, desc, acc);
    } else {
        if (BN == 128) _fc3d_wg_bf16_n128(d, a, desc, acc);
        else if (BN == 64) _fc3d_wg_bf16_n64(d, a, desc, acc);
        else _fc3d_wg_bf16_n32(d, a, desc, acc);
    }
}
/* the accumulators, after the wait: the reads that follow stay after it */
template <int N> static __device__ __forceinline__ void _fc3d_wg_keep(float* d)
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
/* A registers an MMA in flight reads: used here (not redefined, which would serialise the MMAs),
   so they stay allocated to their values until this point */
template <int N> static __device__ __forceinline__ void _fc3d_wg_hold(const uint32_t* d)
{
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" ::"r"(d[i]) : "memory");
}
#endif
/* A shared-memory matrix descriptor, no swizzle: start, LBO (K direction), SBO (N direction), in 16 B */
static __device__ __forceinline__ uint64_t _fc3d_wg_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3FFFFu) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32);
}
/* Whether this binary runs the sm_90a main loop on the current device: the probe kernel's sm_90a
   build (and only it) holds a static shared array, so the attributes of the image the runtime loads
   for the device say which one it is. No launch, no synchronisation. */
static __global__ void _fc3d_wg_probe_kernel(int* f)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ int mark[8];
    mark[threadIdx.x & 7] = (int)threadIdx.x;
    __syncthreads();
    if (f) f[0] = mark[0];
#else
    if (f) f[0] = 0;
#endif
}

/* Taps of residue r along one dim: t = t0 + j*tstep, input offset c = c0 - j*cstep, j < nt. */
static __host__ __device__ inline void _fc3d_tc_dim_taps(int r, int k, int s, int p, int dl, int* nt, int* t0,
                                                       int* c0, int* tstep, int* cstep)
{
    int a = s, b = dl;
    while (b) { int t = a % b; a = b; b = t; }
    *tstep = s / a;
    *cstep = dl / a;
    *nt = 0; *t0 = 0; *c0 = 0;
    int lim = k < *tstep ? k : *tstep;
    for (int t = 0; t < lim; ++t) {
        int num = r + p - t * dl;
        if (num % s == 0) {
            *t0 = t;
            *c0 = num / s;
            *nt = (k - 1 - t) / *tstep + 1;
            return;
        }
    }
}

/* The taps along dim d (residue rd; kernel, stride, padding, dilation, input extent of the dim)
   that some of the positions [m0, m0 + mcount) of the phase (extents Q0 x Q1 x Q2) can reach, as
   out[0] = how many, out[1] = first tap, out[2] = tap step, out[3] = input offset of the first,
   out[4] = offset step. The kernel's tap table, and the plan's count of the MMAs it issues. */
static __host__ __device__ inline void _fc3d_tc_tap_range(int d, int rd, int kd, int sd, int pd, int dld, int ind,
                                                          int Q1, int Q2, int m0, int mcount, int* out)
{
    /* scalars only: a kernel's parameter struct or local arrays indexed by d here would be copied
       to local memory (L2/15's convolution took 0.41 -> 0.52 ms that way) */
    const int QHW = Q1 * Q2;
    int nt, t0, c0, tstep, cstep;
    _fc3d_tc_dim_taps(rd, kd, sd, pd, dld, &nt, &t0, &c0, &tstep, &cstep);
    const int pf = m0, pl = m0 + mcount - 1;
    const int qdf = pf / QHW, qdl = pl / QHW;
    const int rf = pf - qdf * QHW, rl = pl - qdl * QHW;
    int lo, hi;
    if (d == 0) { lo = qdf; hi = qdl; }
    else if (d == 1) {
        if (qdf == qdl) { lo = rf / Q2; hi = rl / Q2; } else { lo = 0; hi = Q1 - 1; }
    } else {
        if (pf / Q2 == pl / Q2) { lo = rf % Q2; hi = rl % Q2; } else { lo = 0; hi = Q2 - 1; }
    }
    int jlo = nt, jhi = -1;
    for (int j = 0; j < nt; ++j) {
        const int c = c0 - j * cstep;
        if (hi + c >= 0 && lo + c <= ind - 1) { if (j < jlo) jlo = j; jhi = j; }
    }
    out[0] = jhi >= jlo ? jhi - jlo + 1 : 0;
    out[1] = t0 + jlo * tstep;
    out[2] = tstep;
    out[3] = c0 - jlo * cstep;
    out[4] = cstep;
}

/* Tile t of a sample in level-major order (section note): its class, its index tl within its
   phase, and its phase within the class. */
static __host__ __device__ __forceinline__ void _fc3d_tc_tile_of(const _fc3d_tc_kparams& P, int64_t t, int* cls,
                                                                 int* tl, int* ph)
{
    /* a sample's tiles number below 2^31 (the plan checks): 32-bit divisions (the 64-bit ones were
       7 % of the instructions of L2/15's GEMM step; ncu) */
    int sg = 0;
    while (sg < P.nseg - 1 && t >= P.seg_start[sg + 1]) ++sg;
    const int off = (int)(t - P.seg_start[sg]), ssz = (int)P.seg_size[sg];
    const int64_t bt = (int64_t)P.lblock * ssz; /* tiles of a full block (lblock may be huge) */
    const int b = bt > off ? 0 : off / (int)bt;
    const int lvl = P.seg_lvl0[sg] + b * P.lblock; /* the block's first level */
    const int nl_seg = (int)(P.seg_start[sg + 1] - P.seg_start[sg]) / ssz;
    const int nl = nl_seg - b * P.lblock < P.lblock ? nl_seg - b * P.lblock : P.lblock;
    int o = off - (int)(b * bt);
    int c = 0;
    for (; c < 7; ++c) {
        if (P.cls_tpp[c] <= lvl) continue;
        if (o < nl * (int)P.cls_nres[c]) break;
        o -= nl * (int)P.cls_nres[c];
    }
    *cls = c;
    *tl = lvl + o / (int)P.cls_nres[c];
    *ph = o % (int)P.cls_nres[c];
}

/* ---------------------------------------------------------------- weight re-layout */
/* KM (the sm_90a loop, C_in/groups a multiple of 16): per (group, tap, KB channels) a block of
   cout_pad x KB, K-major in core matrices of 8 output channels x 16 bytes of input channels (TF32:
   8 x 4, HALF: 8 x 8 16-bit values): (co / 8, ci % KB / E) at (co / 8 * KB / E + ci % KB / E) * 8 E
   elements, E the channels of 16 bytes, so that a channel tile's BN x KB block is contiguous. KB =
   32 (a whole chunk, copied as it lies) where C_in/groups is a multiple of 32, else 16 (a chunk is
   two such pieces, of two taps, interleaved by the copy). HALF writes that copy in 16-bit (f16, or
   bf16 for bf16 data); 3xTF32 keeps its small parts ws_half floats after the big ones. Else
   [group][tap][ci][co padded] in float. */
template <typename T, int MATH, int RND, bool KM>
static __global__ void _fc3d_tc_prep(_fc3d_tc_kparams P, const T* __restrict__ w, float* __restrict__ ws)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap(); /* TF32 and cp.async need sm_80; the run refuses older devices before launching */
#else
    constexpr bool BF = std::is_same<T, __nv_bfloat16>::value;
    constexpr int E = KM && MATH == _FC3D_TC_HALF ? 8 : 4; /* channels of a core-matrix row */
    const int64_t kt = (int64_t)P.k[0] * P.k[1] * P.k[2];
    const int64_t total = P.ws_half;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        int64_t co, ci, rest;
        if (KM) {
            const int KB = P.cin_g % _FC3D_TC_BK == 0 ? _FC3D_TC_BK : _FC3D_WG_PIECE;
            const int64_t in = e % (P.cout_pad * KB), blk = e / (P.cout_pad * KB);
            const int64_t cm = in / (8 * E), r = in % (8 * E); /* core matrix, its element */
            co = cm / (KB / E) * 8 + r / E;
            ci = (blk % (P.cin_g / KB)) * KB + (cm % (KB / E)) * E + r % E;
            rest = blk / (P.cin_g / KB);
        } else {
            co = e % P.cout_pad;
            rest = e / P.cout_pad;
            ci = rest % P.cin_g;
            rest /= P.cin_g;
        }
        int64_t tap = rest % kt;
        int64_t gi = rest / kt;
        float v = 0.f;
        if (co < P.cout_g) v = _fc3d_tc_tof(w[((gi * P.cin_g + ci) * P.cout_g + co) * kt + tap]);
        if (MATH == _FC3D_TC_TF32) {
            ws[e] = RND ? __uint_as_float(_fc3d_tc_round(v)) : v;
        } else if (MATH == _FC3D_TC_3XTF32) {
            float big = __uint_as_float(_fc3d_tc_round(v));
            ws[e] = big;
            ws[e + total] = __uint_as_float(_fc3d_tc_round(v - big));
        } else if (KM) { /* the 16-bit operand itself, read by the tensor cores */
            reinterpret_cast<unsigned short*>(ws)[e] =
                BF ? __bfloat16_as_ushort(__float2bfloat16_rn(v)) : __half_as_ushort(__float2half_rn(v));
        } else {
            /* the fragment loads convert again; storing the already-rounded value makes that exact */
            ws[e] = BF ? __bfloat162float(__float2bfloat16_rn(v)) : __half2float(__float2half_rn(v));
        }
    }
#endif
}

/* ---------------------------------------------------------------- main kernel */
/* Warps per CTA of a math mode, channel tile and main loop (why: _fc3d_tc_cfg::NW); the planner
   records it (for the wgmma loop where the plan allows it). */
static __host__ __device__ constexpr int _fc3d_tc_warps(int math, int bn, bool wg)
{
    return wg || !(math == _FC3D_TC_3XTF32 || (math == _FC3D_TC_HALF && bn > 64)) ? 8 : 4;
}

template <int BN, int MATH, bool WGMMA = false>
struct _fc3d_tc_cfg {
    static constexpr bool WG = WGMMA; /* the sm_90a loop: B K-major in core matrices, warps of 16 rows x BN */
    static constexpr int SB = BN + 8;
    static constexpr int NB = (MATH == _FC3D_TC_3XTF32) ? 2 : 1;
    static constexpr int A_FL = _FC3D_TC_BK * _FC3D_TC_SA;
    /* (HALF's K-major block is 16-bit and fills half of it; the rest keeps the row staging fitting) */
    static constexpr int B_FL = WG ? _FC3D_TC_BK * BN * NB : _FC3D_TC_BK * SB * NB;
    /* 3xTF32 double-buffers: its chunk takes 3x the MMAs to hide the next chunk's loads behind,
       and 3 stages of its two B copies (116 KB at BN = 64) would leave one CTA per SM */
    /* the sm_90a loop at BN = 128 double-buffers too: its 2 CTAs an SM then leave the L1 cache 60 KB
       instead of 28, and the chunks' gathers hit it more often (conv alone, H100, one run, with the
       chunk order below: TF32 L2/77 4.05 -> 3.89 ms, L2/61 1.75 -> 1.69, HALF 3.51 -> 3.25 and
       1.56 -> 1.47; at BN = 64, L1/77 measured 2.5 % slower with 2 stages) */
    static constexpr int ST = MATH == _FC3D_TC_3XTF32 || (WG && BN == 128) ? 2 : _FC3D_TC_ST;
    /* the pipeline stages, or what the epilogue stages in the same bytes where that is more: the
       tile ([channel][row], then a double2 per warp and channel) or whole rows (2 x BM positions per
       channel, BN <= 64) */
    static constexpr size_t STG_T = (size_t)(BN * (_FC3D_TC_BM + 4) + 4 + 4 * _fc3d_tc_warps(MATH, BN, WG) * BN) * 4;
    static constexpr size_t STG_R = BN > 64 || (MATH == _FC3D_TC_3XTF32 && BN > 32) ? 0 : (size_t)(BN * (2 * _FC3D_TC_BM + 32) + 4) * 4;
    static constexpr size_t STG = STG_T > STG_R ? STG_T : STG_R;
    static constexpr size_t PIPE = (size_t)ST * (A_FL + B_FL) * 4 > STG ? (size_t)ST * (A_FL + B_FL) * 4 : STG;
    static constexpr size_t KINFO = (size_t)(ST + 1) * _FC3D_TC_BK * sizeof(_fc3d_tc_kinfo);
    static constexpr size_t ROWS = (size_t)_FC3D_TC_BM * sizeof(_fc3d_tc_row);
    /* the sm_90a loop's tap table (after the per-dim tap data; launched without it where C_in/groups
       is not a multiple of BK, which never reads it) */
    static constexpr size_t TT = WG ? (size_t)_FC3D_WG_TT * sizeof(_fc3d_wg_tap) : 0;
    static constexpr size_t SMEM = PIPE + KINFO + ROWS + 256 + TT;
    /* Warps: 8 (4 along M, 32 rows each, x 2 along N) for TF32, and for HALF up to BN = 64; else 4
       (2 x 2, 64 rows each): 3xTF32's per-chunk accumulators need the registers that more warps would
       take, and HALF at BN = 128 is bound by shared-memory loads, which smaller warp tiles multiply
       (H100, conv alone: 8 warps took TF32 L2/61 from 2.62 to 2.46 ms and HALF from 2.59 to 2.86) */
    static constexpr int NW = _fc3d_tc_warps(MATH, BN, WG); /* the sm_90a loop: two warpgroups of 64 rows */
    static constexpr int NT = 32 * NW;
    static constexpr int WM = WG ? 16 : _FC3D_TC_BM / (NW / 2); /* rows of a warp's tile */
    static constexpr int MI = WM / 16;                          /* its 16-row MMA blocks */
    static constexpr int WN = WG ? BN : BN / 2;
    static constexpr int NT8 = WN / 8;
    /* warp w's tile: rows wm(w) * WM, columns wn(w) * WN (a warpgroup's 4 warps: 64 consecutive rows) */
    static __device__ __forceinline__ int wm_of(int w) { return WG ? w : w % (NW / 2); }
    static __device__ __forceinline__ int wn_of(int w) { return WG ? 0 : w / (NW / 2); }
};

/* The mma.sync tiles' shared memory a CTA (C::SMEM without the sm_90a loop's tap table): what the
   planner caps the channel tile by (desc.smem_per_block) and a run checks against its device. */
static inline size_t _fc3d_tc_sync_smem(int bn, int math) {
    if (math == _FC3D_TC_3XTF32)
        return bn <= 32 ? _fc3d_tc_cfg<32, _FC3D_TC_3XTF32>::SMEM : _fc3d_tc_cfg<64, _FC3D_TC_3XTF32>::SMEM;
    if (math == _FC3D_TC_HALF)
        return bn <= 32 ? _fc3d_tc_cfg<32, _FC3D_TC_HALF>::SMEM
               : bn <= 64 ? _fc3d_tc_cfg<64, _FC3D_TC_HALF>::SMEM : _fc3d_tc_cfg<128, _FC3D_TC_HALF>::SMEM;
    return bn <= 32 ? _fc3d_tc_cfg<32, _FC3D_TC_TF32>::SMEM
           : bn <= 64 ? _fc3d_tc_cfg<64, _FC3D_TC_TF32>::SMEM : _fc3d_tc_cfg<128, _FC3D_TC_TF32>::SMEM;
}

/* Whole-row tiles: one W phase's accumulators into the staging area, at [channel][row][ow]. */
template <int NT8, int A, int WM>
static __device__ __forceinline__ void _fc3d_tc_stage_row(float* Cs, int CS, const float (&a)[A][NT8][4], int p,
                                                          int q2, int nrows, int wout, int s2, int wm, int wn, int g,
                                                          int t)
{
    const int mcount = nrows * q2;
#pragma unroll
    for (int mi = 0; mi < A; ++mi)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int m = wm * WM + mi * 16 + g + 8 * h;
            if (m >= mcount) continue;
            const int rr = m / q2, qw = m - rr * q2; /* one division per row of the fragment */
            const int idx = rr * wout + s2 * qw + p;
#pragma unroll
            for (int ni = 0; ni < NT8; ++ni) {
                const int nn = wn * (NT8 * 8) + ni * 8 + 2 * t;
                Cs[nn * CS + idx] = a[mi][ni][2 * h];
                Cs[(nn + 1) * CS + idx] = a[mi][ni][2 * h + 1];
            }
        }
}

/* The whole-row epilogue's lanes: a row of W values is held by a group of L lanes,
   _FC3D_TC_ROW_EPL values a lane. Value e of lane sub is output column _fc3d_row_ow: for rows of
   exactly L x _FC3D_TC_ROW_EPL values (FULL, e.g. W = 64 with L = 4; float tensors) in runs of 4
   (16-byte shared loads and global stores: 4x fewer than scalar ones), else interleaved.
   _fc3d_row_cs: the staged channel stride, RS rounded so that the groups of a quarter-warp hit
   distinct banks. */
/* x summed over the lane's group of L lanes (a power of two) by a fixed butterfly; groups of 4
   (rows of 64) unrolled: the loop over L's steps cost 8 instructions of control a shuffle, 3 % of
   L2/34's chain kernel (ncu) */
static __device__ __forceinline__ void _fc3d_group_sum(float& x, int L) {
    if (L == 4) {
        x += __shfl_xor_sync(0xffffffffu, x, 2);
        x += __shfl_xor_sync(0xffffffffu, x, 1);
        return;
    }
    for (int m = L >> 1; m > 0; m >>= 1) x += __shfl_xor_sync(0xffffffffu, x, m);
}
/* One level of the merge of equal-count moments across a group (row_centre): the lane's (mean m,
   centred sum of squares m2) of n = 2 hn values and lane ^ k's become those of the 2n values */
static __device__ __forceinline__ void _fc3d_group_merge(float& m, float& m2, float& hn, int k) {
    const float om = __shfl_xor_sync(0xffffffffu, m, k), om2 = __shfl_xor_sync(0xffffffffu, m2, k);
    const float dm = m - om;
    m2 = (m2 + om2) + dm * dm * hn;
    m = (m + om) * 0.5f;
    hn *= 2.0f;
}
template <bool FULL>
static __device__ __forceinline__ int _fc3d_row_ow(int e, int sub, int L) {
    return FULL ? ((e >> 2) * L + sub) * 4 + (e & 3) : sub + L * e;
}
/* A row's normalised values (v * is) through an affine over W (w, b: W values each), read per row
   through the read-only cache, in quads where the row is FULL and both are 16-byte aligned: held
   in registers through the row loop, the 32 values had the row kernels spill the row coordinates
   (a local load a row: L2/34's convolution alone 1.06 -> 1.10 ms). */
template <bool FULL>
static __device__ __forceinline__ void _fc3d_row_affine(float (&v)[_FC3D_TC_ROW_EPL], float is,
                                                        const float* __restrict__ w, const float* __restrict__ b,
                                                        int sub, int L, int wout) {
    if (FULL && (((uintptr_t)w | (uintptr_t)b) & 15u) == 0) {
        const float4* w4 = reinterpret_cast<const float4*>(w) + sub;
        const float4* b4 = reinterpret_cast<const float4*>(b) + sub;
#pragma unroll
        for (int k = 0; k < _FC3D_TC_ROW_EPL / 4; ++k) {
            const float4 a = __ldg(w4 + k * L), c = __ldg(b4 + k * L);
            v[4 * k] = v[4 * k] * is * a.x + c.x;
            v[4 * k + 1] = v[4 * k + 1] * is * a.y + c.y;
            v[4 * k + 2] = v[4 * k + 2] * is * a.z + c.z;
            v[4 * k + 3] = v[4 * k + 3] * is * a.w + c.w;
        }
        return;
    }
#pragma unroll
    for (int e = 0; e < _FC3D_TC_ROW_EPL; ++e) {
        const int ow = _fc3d_row_ow<FULL>(e, sub, L);
        if (FULL || ow < wout) v[e] = v[e] * is * __ldg(w + ow) + __ldg(b + ow);
    }
}
/* walk(true_type) where ON (instantiated only there); false otherwise */
template <bool ON>
struct _fc3d_if_full {
    template <class F>
    static __device__ __forceinline__ bool run(F& f) { f(std::integral_constant<bool, true>()); return true; }
};
template <>
struct _fc3d_if_full<false> {
    template <class F>
    static __device__ __forceinline__ bool run(F&) { return false; }
};
static __host__ __device__ inline int _fc3d_row_cs(int RS, int L, int wout) {
    const int m = (wout == L * _FC3D_TC_ROW_EPL ? 4 * L : L) & 31;
    return RS + ((m - RS) & 31);
}

/* The rows staged in Cs ([channel][row][ow], channel stride CS = _fc3d_row_cs,
   L as below) through the ops and out: a row is read into the registers of a group of L lanes, L
   the least power of two with L * _FC3D_TC_ROW_EPL >= W (W = 64: 4 lanes of 16 values, 8 rows per
   warp at once), value e of lane s of the group at ow = _fc3d_row_ow(e, s, L). Each group owns
   channels and walks all
   rows for them: the ops before a row op, the row's mean and variance (apply_row_regs: the lanes
   combined by a fixed butterfly), the normalisation, the ops after it, the one store (NCDHW: L
   consecutive floats per group and instruction) and the statistics partial (slot `tile` of
   `tiles`), the group's lanes combined by the same butterfly. NDHWC writes the rows back to Cs and
   stores them along the channels. NTHR threads (from 0) take part, named barrier 1 between them.
   rowof(rr, &od, &oh, &roff): the output coordinates of staged row rr and its offset within the
   (n, c) slab, false for a row to drop (the same for every lane). A row op first in the pass
   (LayerNorm, mean subtraction over W: both centre the row) cancels the bias, the same along the
   row, which is then not added. SWZ: rows of exactly L x _FC3D_TC_ROW_EPL floats were staged
   with column ow of channel c at ow ^ ((c >> 1) & 3) (the haloed row tiles' staging). Every order
   is fixed: reproducible. */
/* the staging swizzle of channel c's rows (SWZ below): column ow lies at ow ^ _fc3d_row_swz(c) */
static __device__ __forceinline__ int _fc3d_row_swz(int c) { return (c >> 1) & 3; }
/* NTHR threads from TID0 on run it; the NDHWC write-back's named barrier is BAR */
template <typename T, int NTHR, bool SWZ, int TID0 = 0, int BAR = 1, typename Epi, typename RowOf>
static __device__ __forceinline__ void _fc3d_tc_rows_out(const _fc3d_tc_kparams& P, const T* __restrict__ bias,
                                                         T* __restrict__ y, const Epi& epi, float* Cs, int CS, int nrows,
                                                         int64_t cbase, int nvalid, int64_t n, int64_t tile,
                                                         int64_t tiles, RowOf rowof)
{
    constexpr int NW = NTHR / 32;
    const int tid = (int)threadIdx.x - TID0, lane = tid & 31, warp = tid >> 5;
    const int wout = P.out[2];
    int L = 1;
    while (L * _FC3D_TC_ROW_EPL < wout) L <<= 1;
    const int G = 32 / L, grp = lane / L, sub = lane - grp * L;
    const int RS = nrows * wout;
    const int64_t HW = (int64_t)P.out[1] * wout;
    /* FULL rows: float tensors only (the 16-bit ones store scalars anyway; one epilogue less to
       compile for each of their kernels) */
    const bool full = wout == L * _FC3D_TC_ROW_EPL && std::is_same<T, float>::value;
    /* the bias, unless a row op comes first (it cancels there) */
    const bool addb = bias != nullptr && !(epi.op_begin < epi.op_end && ((epi.rowops >> epi.op_begin) & 1u));
    /* the pass's ops as a row program where they take that shape (_fc3d_tc_epi::row_prog) */
    typename Epi::row_prog_t rp;
    const bool prog = epi.row_prog(rp);
    /* uniform: NCDHW stores of T with no statistics take the straight path */
    const bool plain = P.store && !P.out_f32 && !P.stats && P.layout == 1;
    const bool vec = std::is_same<T, float>::value && ((uintptr_t)y & 15u) == 0; /* 16-byte stores (FULL rows) */
    /* warp w, group j: channels w G + j, then every NW G-th; the loop is warp-uniform (shuffles),
       a group past the last channel computes on zeros and keeps nothing */
    /* FULL: rows of L x _FC3D_TC_ROW_EPL values (W = 64), no per-value bounds */
    auto walk = [&](auto full) {
        constexpr bool FULL = decltype(full)::value;
        for (int c0 = warp * G; c0 < nvalid; c0 += NW * G) {
            const bool act = c0 + grp < nvalid;
            const int cl = act ? c0 + grp : c0;
            const int64_t cg = cbase + cl;
            const float bv = addb ? _fc3d_tc_tof(bias[cg]) : 0.f;
            const int swz = SWZ && FULL ? _fc3d_row_swz(cl) : 0; /* the staging's swizzle of this channel */
            double ps = 0.0, pss = 0.0;
            T* yc = y + (n * P.cout + cg) * P.out[0] * HW; /* the (n, c) slab (NCDHW) */
            /* the next row's coordinates asked for before this row's work (rowof may shuffle:
               its latency, waited for at once, was 3 % of L2/34's convolution alone; ncu) */
            int64_t nod = 0, noh = 0, nroff = 0;
            bool nok = nrows > 0 && rowof(0, &nod, &noh, &nroff);
            for (int rr = 0; rr < nrows; ++rr) {
                const int64_t od = nod, oh = noh, roff = nroff;
                const bool rok = nok;
                if (rr + 1 < nrows) nok = rowof(rr + 1, &nod, &noh, &nroff);
                if (!rok) continue;
                float* vr = Cs + cl * CS + rr * wout;
                float v[_FC3D_TC_ROW_EPL];
                /* a group past the last channel reads nothing (the row it would read, channel c0's,
                   is written back in place by its owner for NDHWC) and computes on zeros */
                if (FULL) {
#pragma unroll
                    for (int k = 0; k < _FC3D_TC_ROW_EPL / 4; ++k) {
                        float4 q = act ? *reinterpret_cast<const float4*>(vr + (k * L + sub) * 4)
                                       : make_float4(0.f, 0.f, 0.f, 0.f);
                        if (SWZ) { /* element i of the quad holds column i ^ swz */
                            if (swz & 1) q = make_float4(q.y, q.x, q.w, q.z);
                            if (swz & 2) q = make_float4(q.z, q.w, q.x, q.y);
                        }
                        v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
                    }
                    if (addb) {
#pragma unroll
                        for (int e = 0; e < _FC3D_TC_ROW_EPL; ++e) v[e] += bv;
                    }
                } else {
#pragma unroll
                    for (int e = 0; e < _FC3D_TC_ROW_EPL; ++e) {
                        const int ow = _fc3d_row_ow<FULL>(e, sub, L);
                        v[e] = act && ow < wout ? vr[ow] + bv : 0.f;
                    }
                }
                if (prog) epi.template apply_row_prog<FULL>(v, wout, sub, L, grp * L, rp);
                else epi.template apply_row_regs<FULL>(v, wout, sub, L, grp * L, n, cg, od, oh);
                if (plain) {
                    T* yr = yc + roff;
                    if (act && FULL && vec) {
                        /* one 64-bit address, then steps of L quads (per store, the address took 5
                           instructions) */
                        float4* yq = reinterpret_cast<float4*>(yr) + sub;
#pragma unroll
                        for (int k = 0; k < _FC3D_TC_ROW_EPL / 4; ++k, yq += L)
                            *yq = make_float4(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
                    } else if (act) {
#pragma unroll
                        for (int e = 0; e < _FC3D_TC_ROW_EPL; ++e) {
                            const int ow = _fc3d_row_ow<FULL>(e, sub, L);
                            if (FULL || ow < wout) yr[ow] = _fc3d_tc_fromf<T>(v[e]);
                        }
                    }
                    continue;
                }
                const int64_t yrow = (n * P.cout + cg) * P.out[0] * HW + roff;
#pragma unroll
                for (int e = 0; e < _FC3D_TC_ROW_EPL; ++e) {
                    const int ow = _fc3d_row_ow<FULL>(e, sub, L);
                    if (!FULL && ow >= wout) continue;
                    float o = v[e];
                    if (P.store && !P.out_f32) o = _fc3d_tc_tof(_fc3d_tc_fromf<T>(o)); /* statistics of the stored value */
                    if (P.stats && act) {
                        ps += (double)o;
                        pss += (double)o * (double)o;
                    }
                    if (!P.store || !act) continue;
                    if (P.layout != 1) vr[ow ^ swz] = v[e]; /* NDHWC: stored along the channels below */
                    else if (P.out_f32) reinterpret_cast<float*>(y)[yrow + ow] = v[e];
                    else y[yrow + ow] = _fc3d_tc_fromf<T>(v[e]);
                }
            }
            if (P.stats) { /* the channel's partial: the group's lanes combined by a fixed butterfly */
                for (int m = L >> 1; m > 0; m >>= 1) {
                    ps += __shfl_xor_sync(0xffffffffu, ps, m);
                    pss += __shfl_xor_sync(0xffffffffu, pss, m);
                }
                if (act && sub == 0) epi.partial(n, cg, tile, tiles, ps, pss);
            }
        }
    };
    if (!(full && _fc3d_if_full<std::is_same<T, float>::value>::run(walk))) walk(std::integral_constant<bool, false>());
    if (!P.store || P.layout == 1) return;
    asm volatile("bar.sync %0, %1;\n" ::"n"(BAR), "n"(NTHR) : "memory");
    for (int idx = warp; idx < RS; idx += NW) {
        const int rr = idx / wout, ow = idx - rr * wout;
        int64_t od, oh, roff;
        if (!rowof(rr, &od, &oh, &roff)) continue;
        const int64_t yb = (((n * P.out[0] + od) * P.out[1] + oh) * wout + ow) * P.cout + cbase;
        for (int c = lane; c < nvalid; c += 32) {
            const float v = Cs[c * CS + (SWZ && full ? idx ^ _fc3d_row_swz(c) : idx)];
            if (P.out_f32) reinterpret_cast<float*>(y)[yb + c] = v;
            else y[yb + c] = _fc3d_tc_fromf<T>(v);
        }
    }
}

/* The epilogue of whole-row tiles: the W phases' accumulators staged as whole output rows
   ([channel][row][ow], the channel stride _fc3d_row_cs), then _fc3d_tc_rows_out. */
template <typename T, int BN, int MATH, bool WG, int A0, typename Epi>
static __device__ __forceinline__ void _fc3d_tc_row_epilogue(const _fc3d_tc_kparams& P, const T* __restrict__ bias,
                                                             T* __restrict__ y, const Epi& epi,
                                                             const float (&a0)[A0][_fc3d_tc_cfg<BN, MATH, WG>::NT8][4],
                                                             const float (&a1)[_fc3d_tc_cfg<BN, MATH, WG>::MI]
                                                                              [_fc3d_tc_cfg<BN, MATH, WG>::NT8][4],
                                                             int r0, int r1, int Q1,
                                                             int row0, int nrows, int nph, int64_t tile)
{
    extern __shared__ __align__(16) unsigned char _fc3d_tc_sm[];
    float* Cs = reinterpret_cast<float*>(_fc3d_tc_sm);
    typedef _fc3d_tc_cfg<BN, MATH, WG> C;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = C::wm_of(warp), wn = C::wn_of(warp), g = lane >> 2, t = lane & 3;
    const int ntile = blockIdx.y % P.ntn, gi = blockIdx.y / P.ntn;
    const int64_t n = blockIdx.z;
    const int wout = P.out[2], s2 = P.s[2];
    int L = 1;
    while (L * _FC3D_TC_ROW_EPL < wout) L <<= 1;
    const int RS = nrows * wout, CS = _fc3d_row_cs(RS, L, wout);
    for (int p = 0; p < nph; ++p) {
        const int q2 = wout / s2 + (p < wout % s2 ? 1 : 0);
        if (q2 == 0) continue;
        if (p == 0 && nph > 1)
            _fc3d_tc_stage_row<C::NT8, A0, C::WM>(Cs, CS, a0, p, q2, nrows, wout, s2, wm, wn, g, t);
        else
            _fc3d_tc_stage_row<C::NT8, C::MI, C::WM>(Cs, CS, a1, p, q2, nrows, wout, s2, wm, wn, g, t);
    }
    __syncthreads();
    const int64_t cbase = (int64_t)gi * P.cout_g + (int64_t)ntile * BN;
    const int nvalid = (int)((P.cout_g - (int64_t)ntile * BN) < BN ? (P.cout_g - (int64_t)ntile * BN) : BN);
    _fc3d_tc_rows_out<T, C::NT, false>(P, bias, y, epi, Cs, CS, nrows, cbase, nvalid, n, tile, gridDim.x,
                                [&](int rr, int64_t* od, int64_t* oh, int64_t* roff) {
                                    const int row = row0 + rr, qd = row / Q1, qh = row - qd * Q1;
                                    *od = (int64_t)P.s[0] * qd + r0;
                                    *oh = (int64_t)P.s[1] * qh + r1;
                                    *roff = *od * ((int64_t)P.out[1] * wout) + *oh * wout;
                                    return true;
                                });
}

/* Two CTAs an SM at least; three for 32-channel phase tiles, whose registers (80 at TF32) and
   shared memory allow it: at 84 registers the wgmma variant fell to two, and L2/15's chain took
   0.73 -> 0.87 ms */
template <typename T, int MATH, int RND, int BN, bool ROW, bool WG, typename Epi>
static __global__ void __launch_bounds__(_fc3d_tc_cfg<BN, MATH, WG>::NT, BN == 32 && !ROW ? 3 : 2)
_fc3d_tc_main(_fc3d_tc_kparams P, const T* __restrict__ x, const float* __restrict__ wt, const T* __restrict__ bias,
              T* __restrict__ y, Epi epi)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap(); /* mma.sync TF32 and cp.async need sm_80; the run refuses older devices before launching */
#else
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (WG) __trap(); /* the sm_90a loop exists only in sm_90a code; the run launches it only there */
#endif
    typedef _fc3d_tc_cfg<BN, MATH, WG> C;
    constexpr int BM = _FC3D_TC_BM, BK = _FC3D_TC_BK, ST = C::ST, SA = _FC3D_TC_SA, SB = C::SB;
    extern __shared__ __align__(16) unsigned char _fc3d_tc_sm[];
    float* As = reinterpret_cast<float*>(_fc3d_tc_sm);
    float* Bs = As + ST * C::A_FL;
    _fc3d_tc_kinfo* KI = reinterpret_cast<_fc3d_tc_kinfo*>(_fc3d_tc_sm + C::PIPE);
    _fc3d_tc_row* RW = reinterpret_cast<_fc3d_tc_row*>(_fc3d_tc_sm + C::PIPE + C::KINFO);
    int* DI = reinterpret_cast<int*>(_fc3d_tc_sm + C::PIPE + C::KINFO + C::ROWS); /* [3][8] per-dim tap data */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int64_t tile = blockIdx.x;
    const int ntile = blockIdx.y % P.ntn;
    const int gi = blockIdx.y / P.ntn;
    const int64_t n = blockIdx.z;

    int r[3], Q[3], m0, mcount;
    int row0 = 0, nrows = 0, nph = 1; /* whole-row tiles: the tile's first row, its rows, W phases */
    if (!ROW) {
        int cls, tl, ph;
        _fc3d_tc_tile_of(P, tile, &cls, &tl, &ph);
        const int cw = P.cls_cnt[cls][2], ch = P.cls_cnt[cls][1];
        r[2] = P.cls_base[cls][2] + ph % cw; ph /= cw;
        r[1] = P.cls_base[cls][1] + ph % ch;
        r[0] = P.cls_base[cls][0] + ph / ch;
        Q[0] = P.cls_q[cls][0]; Q[1] = P.cls_q[cls][1]; Q[2] = P.cls_q[cls][2];
        const int Mp = Q[0] * Q[1] * Q[2];
        m0 = tl * BM;
        mcount = (Mp - m0) < BM ? (Mp - m0) : BM;
        if (P.skip0) { /* y holds zeros: a tap-less phase's tile has nothing to store */
            bool tapped = true;
            for (int d = 0; d < 3; ++d)
                if (r[d] < 32 && !((P.rtap[d] >> r[d]) & 1u)) tapped = false;
            if (!tapped) return;
        }
    } else {
        int c4 = 0;
        while (c4 < 3 && tile >= P.rprefix[c4 + 1]) ++c4;
        const int cls = c4 << 1;
        const int local = (int)(tile - P.rprefix[c4]);
        const int nres = (int)P.rcls_nres[c4];
        const int tl = local / nres;
        const int ph = local - tl * nres;
        const int ch = P.cls_cnt[cls][1];
        r[1] = P.cls_base[cls][1] + ph % ch;
        r[0] = P.cls_base[cls][0] + ph / ch;
        r[2] = 0;
        Q[0] = P.cls_q[cls][0]; Q[1] = P.cls_q[cls][1]; Q[2] = 0;
        row0 = tl * P.rrows;
        nrows = Q[0] * Q[1] - row0 < P.rrows ? Q[0] * Q[1] - row0 : P.rrows;
        nph = P.s[2];
        m0 = 0; mcount = 0;
    }

    constexpr int NT8 = C::NT8, NW = C::NW, NT = C::NT, MI = C::MI;
    const int wm = C::wm_of(warp), wn = C::wn_of(warp);
    const int g = lane >> 2, t = lane & 3;
    float acc[MI][NT8][4];
    float acc0[ROW ? MI : 1][NT8][4]; /* whole-row tiles: the first W phase's result */
    /* the sm_90a loop's 3xTF32 chunk accumulator (each chunk's first MMA ignores its old value) */
    float wtmp[WG && MATH == _FC3D_TC_3XTF32 ? MI : 1][WG && MATH == _FC3D_TC_3XTF32 ? NT8 : 1][4] = {};
    (void)wtmp; /* (unreferenced in images without the sm_90a loop) */
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NT8; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[i][j][q] = 0.f;

    for (int pw = 0; pw < nph; ++pw) {
    if (ROW) {
        /* W phase pw of the tile's rows: its positions are rows x Q2, contiguous in the phase */
        r[2] = pw;
        Q[2] = P.out[2] / P.s[2] + (pw < P.out[2] % P.s[2] ? 1 : 0);
        m0 = row0 * Q[2];
        mcount = nrows * Q[2];
        if (mcount <= 0) continue; /* uniform over the CTA */
    }
    const int QHW = Q[1] * Q[2];

    /* per-dim taps and the range of them that some row of this tile can reach */
    if (tid < 3) {
        const int d = tid;
        _fc3d_tc_tap_range(d, d == 0 ? r[0] : (d == 1 ? r[1] : r[2]), d == 0 ? P.k[0] : (d == 1 ? P.k[1] : P.k[2]),
                           d == 0 ? P.s[0] : (d == 1 ? P.s[1] : P.s[2]), d == 0 ? P.p[0] : (d == 1 ? P.p[1] : P.p[2]),
                           d == 0 ? P.dl[0] : (d == 1 ? P.dl[1] : P.dl[2]),
                           d == 0 ? P.in[0] : (d == 1 ? P.in[1] : P.in[2]), Q[1], Q[2], m0, mcount, DI + d * 8);
    }
    /* row table: input base offset and phase coordinates of each row */
    if (tid < BM) {
        const int m = tid;
        _fc3d_tc_row rw;
        if (m < mcount) {
            const int pp = m0 + m;
            const int qd = pp / QHW;
            const int rr = pp - qd * QHW;
            const int qh = rr / Q[2];
            const int qw = rr - qh * Q[2];
            rw.qd = qd; rw.qh = qh; rw.qw = qw;
            rw.ospat = (((int64_t)P.s[0] * qd + r[0]) * P.out[1] + ((int64_t)P.s[1] * qh + r[1])) * P.out[2] +
                       ((int64_t)P.s[2] * qw + r[2]);
            if (P.layout == 1)
                rw.xbase = (n * P.cin + (int64_t)gi * P.cin_g) * P.idhw + ((int64_t)qd * P.in[1] + qh) * P.in[2] + qw;
            else
                rw.xbase = (n * P.idhw + ((int64_t)qd * P.in[1] + qh) * P.in[2] + qw) * P.cin + (int64_t)gi * P.cin_g;
        } else {
            rw.qd = -(1 << 29); rw.qh = 0; rw.qw = 0; rw.xbase = 0; rw.ospat = 0;
        }
        rw.pad = 0;
        RW[m] = rw;
    }
    __syncthreads();
    const int na0 = DI[0], na1 = DI[8], na2 = DI[16];
    const int Kact = na0 * na1 * na2 * (int)P.cin_g;
    const int nchunks = (Kact + BK - 1) / BK;
    /* 3xTF32 with a short K (at most 8 chunks): also small*small, see the section note */
    const bool sxs = MATH == _FC3D_TC_3XTF32 && nchunks <= 8;
    const int cin_g = (int)P.cin_g;
    const bool uni = (cin_g % BK) == 0;
    const int cout_pad = (int)P.cout_pad; /* BK x cout_pad < 2^31: the plan refuses larger weights */

    /* warp 0 describes the chunks in order, lane l the k = c * BK + l of chunk c: its (channel,
       tap) position advances by BK per chunk without a division */
    int kci = 0, kjw = 0, kjh = 0, kjd = 0;
    /* The sm_90a loop with C_in/groups a multiple of BK takes the chunks channel block by channel
       block, every tap of a block in turn: consecutive chunks then gather the same input lines
       shifted by a tap, which the L1 cache still holds (L2/61, ncu: L1 hit rate 8.8 -> 18.9 %;
       conv alone TF32 L2/77 4.08 -> 4.02 ms, L2/61 1.74 -> 1.71, HALF 3.52 -> 3.44, 1.55 -> 1.53) */
    const bool cbm = WG && uni;
    /* ... and warp 0 describes each chunk from a table of the tile's taps that it fills once (input
       offset, weight tap, per-dim offsets), instead of about 150 instructions of 64-bit arithmetic
       a chunk while the CTA waits for it at the next barrier (conv alone, H100, one run: TF32
       L2/77 3.89 -> 3.60 ms, L2/61 1.70 -> 1.60, L2/34 2.35 -> 2.28; HALF 3.28 -> 3.20, 1.48 ->
       1.42; FP32 9.90 -> 9.76, 4.07 -> 4.02) */
    _fc3d_wg_tap* TT = reinterpret_cast<_fc3d_wg_tap*>(_fc3d_tc_sm + C::PIPE + C::KINFO + C::ROWS + 256);
    const int ntap = na0 * na1 * na2;
    const bool ttab = cbm && ntap <= _FC3D_WG_TT;
    int kt = 0, kcb = 0; /* ttab: the next chunk's tap (table index) and channel block */
    if (warp == 0 && Kact > 0 && ttab) {
        for (int j = lane; j < ntap; j += 32) {
            const int jw = j % na2, jh = (j / na2) % na1, jd = j / (na2 * na1);
            const int td = DI[1] + jd * DI[2], cd = DI[3] - jd * DI[4];
            const int th = DI[9] + jh * DI[10], chh = DI[11] - jh * DI[12];
            const int tw = DI[17] + jw * DI[18], cw = DI[19] - jw * DI[20];
            _fc3d_wg_tap e;
            e.sp = ((int64_t)cd * P.in[1] + chh) * P.in[2] + cw;
            e.wt = ((gi * P.k[0] + td) * P.k[1] + th) * P.k[2] + tw;
            e.cd = cd; e.ch = chh; e.cw = cw;
            TT[j] = e;
        }
        __syncwarp();
    }
    if (warp == 0 && Kact > 0) {
        int tap = cbm ? 0 : lane / cin_g;
        kci = lane - tap * cin_g;
        kjw = tap % na2; tap /= na2;
        kjh = tap % na1;
        kjd = tap / na1;
    }
    auto kinfo = [&](int c) { /* warp 0, c = 0, 1, 2, ... */
        const int k = c * BK + lane;
        _fc3d_tc_kinfo ki;
        if (ttab) { /* every k of the chunk is a channel of one tap (cbm: c < nchunks covers K) */
            const _fc3d_wg_tap e = TT[kt];
            const int ci = kcb * BK + lane;
            if (++kt == ntap) { kt = 0; ++kcb; }
            ki.xoff = P.layout == 1 ? (int64_t)ci * P.idhw + e.sp : e.sp * P.cin + ci;
            ki.woff = ((int64_t)e.wt * P.cin_g + ci) * P.cout_pad + (int64_t)ntile * BN * BK;
            ki.cd = e.cd; ki.ch = e.ch; ki.cw = e.cw; ki.valid = 1;
        } else if (k < Kact) {
            const int ci = kci, jw = kjw, jh = kjh, jd = kjd;
            if (cbm) {
                if (++kjw == na2) {
                    kjw = 0;
                    if (++kjh == na1) {
                        kjh = 0;
                        if (++kjd == na0) { kjd = 0; kci += BK; }
                    }
                }
            } else {
                kci += BK;
                while (kci >= cin_g) {
                    kci -= cin_g;
                    if (++kjw == na2) {
                        kjw = 0;
                        if (++kjh == na1) { kjh = 0; ++kjd; }
                    }
                }
            }
            const int td = DI[1] + jd * DI[2], cd = DI[3] - jd * DI[4];
            const int th = DI[9] + jh * DI[10], chh = DI[11] - jh * DI[12];
            const int tw = DI[17] + jw * DI[18], cw = DI[19] - jw * DI[20];
            if (P.layout == 1)
                ki.xoff = (int64_t)ci * P.idhw + ((int64_t)cd * P.in[1] + chh) * P.in[2] + cw;
            else
                ki.xoff = (((int64_t)cd * P.in[1] + chh) * P.in[2] + cw) * P.cin + ci;
            ki.woff = ((((int64_t)gi * P.k[0] + td) * P.k[1] + th) * P.k[2] + tw) * P.cin_g + ci;
            /* WG: the block of (tap, KB channels) holding k, at the channel tile's offset in it (read
               for k = 0 of a chunk, and where KB = 16 for k = 16) */
            ki.woff = ki.woff * P.cout_pad + (int64_t)ntile * BN * (WG ? (uni ? BK : _FC3D_WG_PIECE) : 1);
            ki.cd = cd; ki.ch = chh; ki.cw = cw; ki.valid = 1;
        } else {
            ki.xoff = 0; ki.woff = 0; ki.cd = -(1 << 29); ki.ch = 0; ki.cw = 0; ki.valid = 0;
        }
        KI[(c % (ST + 1)) * BK + lane] = ki;
    };

    auto load = [&](int c) {
        const _fc3d_tc_kinfo* ki = KI + (c % (ST + 1)) * BK;
        float* as = As + (c % ST) * C::A_FL;
        float* bs = Bs + (c % ST) * C::B_FL;
        const unsigned I0 = P.in[0], I1 = P.in[1], I2 = P.in[2];
        /* NCDHW: thread tid gathers row tid % BM for the KL consecutive k from (tid / BM) KL;
           NDHWC: 8 consecutive k x 4 rows per warp and instruction */
        constexpr int KL = BK / (NT / BM);
        const int mr = tid % BM, kr0 = (tid / BM) * KL;
        if (P.layout == 1 && cin_g % KL == 0) {
            /* a thread's KL k are consecutive channels of one tap (or past K): one bounds test */
            const _fc3d_tc_kinfo e = ki[kr0];
            const _fc3d_tc_row rw = RW[mr];
            const bool ok = (unsigned)(rw.qd + e.cd) < I0 && (unsigned)(rw.qh + e.ch) < I1 &&
                            (unsigned)(rw.qw + e.cw) < I2;
            const int64_t step = ok ? P.idhw : 0;
            const T* src = ok ? x + rw.xbase + e.xoff : x;
#pragma unroll
            for (int kl = kr0; kl < kr0 + KL; ++kl) {
                if (sizeof(T) == 4)
                    _fc3d_tc_cp4(as + kl * SA + mr, src, ok);
                else
                    as[kl * SA + mr] = ok ? _fc3d_tc_tof(*src) : 0.f;
                src += step;
            }
        } else if (uni) { /* NDHWC, the chunk BK consecutive channels of one tap: one bounds test per row */
            const _fc3d_tc_kinfo e = ki[0];
            const int kl0 = lane & 7, ml = lane >> 3;
#pragma unroll
            for (int j = 0; j < BM / (4 * NW); ++j) {
                const int m = (j * NW + warp) * 4 + ml;
                const _fc3d_tc_row rw = RW[m];
                const bool ok = (unsigned)(rw.qd + e.cd) < I0 && (unsigned)(rw.qh + e.ch) < I1 &&
                                (unsigned)(rw.qw + e.cw) < I2;
                const T* src = ok ? x + rw.xbase + e.xoff + kl0 : x;
#pragma unroll
                for (int jj = 0; jj < BK / 8; ++jj) {
                    const int kl = jj * 8 + kl0;
                    if (sizeof(T) == 4)
                        _fc3d_tc_cp4(as + kl * SA + m, ok ? src + jj * 8 : x, ok);
                    else
                        as[kl * SA + m] = ok ? _fc3d_tc_tof(src[jj * 8]) : 0.f;
                }
            }
        } else if (P.layout == 1) {
            const _fc3d_tc_row rw = RW[mr];
            const T* xb = x + rw.xbase;
#pragma unroll 8
            for (int kl = kr0; kl < kr0 + KL; ++kl) {
                const _fc3d_tc_kinfo& e = ki[kl];
                const bool ok = (unsigned)(rw.qd + e.cd) < I0 && (unsigned)(rw.qh + e.ch) < I1 &&
                                (unsigned)(rw.qw + e.cw) < I2;
                if (sizeof(T) == 4)
                    _fc3d_tc_cp4(as + kl * SA + mr, ok ? (const void*)(xb + e.xoff) : (const void*)x, ok);
                else
                    as[kl * SA + mr] = ok ? _fc3d_tc_tof(xb[e.xoff]) : 0.f;
            }
        } else {
            const int kl0 = lane & 7, ml = lane >> 3;
#pragma unroll
            for (int j = 0; j < BM / (4 * NW); ++j) {
                const int m = (j * NW + warp) * 4 + ml;
                const _fc3d_tc_row rw = RW[m];
                const T* xb = x + rw.xbase;
#pragma unroll
                for (int jj = 0; jj < BK / 8; ++jj) {
                    const int kl = jj * 8 + kl0;
                    const _fc3d_tc_kinfo& e = ki[kl];
                    const bool ok = (unsigned)(rw.qd + e.cd) < I0 && (unsigned)(rw.qh + e.ch) < I1 &&
                                    (unsigned)(rw.qw + e.cw) < I2;
                    if (sizeof(T) == 4)
                        _fc3d_tc_cp4(as + kl * SA + m, ok ? (const void*)(xb + e.xoff) : (const void*)x, ok);
                    else
                        as[kl * SA + m] = ok ? _fc3d_tc_tof(xb[e.xoff]) : 0.f;
                }
            }
        }
        constexpr int SEGS = BK * BN / 4;
        if (WG) { /* the chunk's block of the K-major weight (3xTF32: and of its small parts), HALF's
                     16-bit: copied as it lies where C_in/groups is a multiple of 32; else its two
                     pieces interleaved per 8 output channels into the block the MMAs read (PB bytes
                     of piece 0, PB of piece 1, ...), a piece past K zero-filled. Conv alone, TF32,
                     H100, same run: the piece copy for every chunk took L2/61 1.76-1.79 -> 1.89-1.92 ms,
                     L2/77 4.07 -> 4.31 */
            constexpr int EB = MATH == _FC3D_TC_HALF ? 2 : 4, WSEGS = BK * BN * EB / 16;
            if (uni) {
                const char* w0 = reinterpret_cast<const char*>(wt) + ki[0].woff * EB;
                char* b0 = reinterpret_cast<char*>(bs);
#pragma unroll
                for (int i = 0; i < (WSEGS + NT - 1) / NT; ++i) {
                    const int sg = tid + i * NT;
                    if (WSEGS % NT != 0 && sg >= WSEGS) continue;
                    _fc3d_tc_cp16(b0 + sg * 16, w0 + sg * 16, true);
                    if (MATH == _FC3D_TC_3XTF32) _fc3d_tc_cp16(b0 + BK * BN * 4 + sg * 16, w0 + P.ws_half * 4 + sg * 16, true);
                }
                return;
            }
            constexpr int PB = 8 * _FC3D_WG_PIECE * EB; /* bytes of 8 output channels of one piece */
            const _fc3d_tc_kinfo &p0 = ki[0], &p1 = ki[_FC3D_WG_PIECE];
            const char* w0 = reinterpret_cast<const char*>(wt) + p0.woff * EB;
            const char* w1 = reinterpret_cast<const char*>(wt) + p1.woff * EB;
            char* b0 = reinterpret_cast<char*>(bs);
#pragma unroll
            for (int i = 0; i < (WSEGS + NT - 1) / NT; ++i) {
                const int sg = tid + i * NT;
                if (WSEGS % NT != 0 && sg >= WSEGS) continue;
                const int g8 = sg / (2 * PB / 16), pc = (sg / (PB / 16)) & 1, j = sg % (PB / 16);
                const bool ok = pc ? p1.valid != 0 : true; /* piece 0 holds k = 0: always inside K */
                const char* src = ok ? (pc ? w1 : w0) + g8 * PB + j * 16 : reinterpret_cast<const char*>(wt);
                _fc3d_tc_cp16(b0 + sg * 16, src, ok);
                if (MATH == _FC3D_TC_3XTF32)
                    _fc3d_tc_cp16(b0 + BK * BN * 4 + sg * 16, ok ? src + P.ws_half * 4 : src, ok);
            }
            return;
        }
        if (BN >= 64 && uni) { /* the chunk is BK consecutive channels of one tap: BK consecutive weight
                                  rows, all valid, at one offset from the chunk's first (no per-row
                                  descriptor). H100, conv alone, TF32: L2/61 2.40 -> 2.22 ms, L2/77
                                  5.74 -> 5.39; at 32 channels the kernel measured slower with it
                                  (L2/15 0.41 -> 0.51, with C_in 16 it never takes it) */
            const float* w0 = wt + ki[0].woff;
#pragma unroll
            for (int i = 0; i < SEGS / NT; ++i) {
                const int sg = tid + i * NT;
                const int row = sg / (BN / 4), c4 = (sg % (BN / 4)) * 4;
                const float* src = w0 + (row * cout_pad + c4);
                _fc3d_tc_cp16(bs + row * SB + c4, src, true);
                if (MATH == _FC3D_TC_3XTF32) _fc3d_tc_cp16(bs + BK * SB + row * SB + c4, src + P.ws_half, true);
            }
            return;
        }
#pragma unroll
        for (int i = 0; i < SEGS / NT; ++i) {
            const int sg = tid + i * NT;
            const int row = sg / (BN / 4), c4 = (sg % (BN / 4)) * 4;
            const _fc3d_tc_kinfo& e = ki[row];
            const bool ok = e.valid != 0;
            const float* src = ok ? wt + e.woff + c4 : wt;
            _fc3d_tc_cp16(bs + row * SB + c4, src, ok);
            if (MATH == _FC3D_TC_3XTF32)
                _fc3d_tc_cp16(bs + BK * SB + row * SB + c4, ok ? src + P.ws_half : wt, ok);
        }
    };

    if (nchunks > 0) {
        if (warp == 0)
            for (int c = 0; c < ST && c < nchunks; ++c) kinfo(c);
        __syncthreads();
#pragma unroll
        for (int c = 0; c < ST - 1; ++c) {
            if (c < nchunks) load(c);
            _fc3d_tc_commit();
        }
        for (int c = 0; c < nchunks; ++c) {
            _fc3d_tc_wait<ST - 2>();
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
            /* the sm_90a loop's B is read by the tensor cores through the async proxy */
            if (WG) asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
            __syncthreads();
            if (c + ST - 1 < nchunks) load(c + ST - 1);
            _fc3d_tc_commit();
            if (warp == 0 && c + ST < nchunks) kinfo(c + ST);
            const float* as = As + (c % ST) * C::A_FL + wm * C::WM + g;
            const float* bs = Bs + (c % ST) * C::B_FL + wn * C::WN + g;
            if (WG) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
                /* the sm_90a loop: warpgroup MMAs (m64 x BN) per 8-deep (TF32) or 16-deep (HALF) step, A
                   in registers (a warp's fragment as mma.sync's, the same rounding), B read by the
                   tensor cores from shared memory; descriptors advance 256 B (two core matrices) a step */
                const uint32_t sb = _fc3d_tc_smem(Bs + (c % ST) * C::B_FL);
                float* const d = &acc[0][0][0];
                if (MATH != _FC3D_TC_3XTF32) { /* TF32: 8-deep steps; HALF: 16-deep, f16 or bf16 */
                    constexpr bool HF = MATH == _FC3D_TC_HALF, BF = std::is_same<T, __nv_bfloat16>::value;
                    constexpr int KS = HF ? 16 : 8;
                    uint32_t af[BK / KS][4];
#pragma unroll
                    for (int kk = 0; kk < BK / KS; ++kk) {
                        if (HF) _fc3d_tc_frag_a_k16<BF>(as + (kk * 16 + 2 * t) * SA, af[kk]);
                        else _fc3d_tc_frag_a_tf32<RND>(as + (kk * 8 + t) * SA, af[kk]);
                    }
                    const uint64_t d0 = _fc3d_wg_desc(sb, 128, HF ? 512 : 1024);
                    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                    for (int kk = 0; kk < BK / KS; ++kk)
                        _fc3d_wg_mma<BN, HF ? (BF ? 2 : 1) : 0>(d, af[kk], d0 + (uint64_t)(kk * 16), 1);
                    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
                    _fc3d_wg_keep<MI * NT8 * 4>(d);
                    _fc3d_wg_hold<BK / KS * 4>(&af[0][0]); /* registers the MMAs read stay untouched until done */
                } else {
                    /* 3xTF32: small*big + big*small + big*big of the chunk into a fresh accumulator
                       (the first MMA ignores its old value), added into acc with IEEE adds; short K
                       (at most 8 chunks): each step in a fresh one with small*small too, added into
                       acc per step (section note) */
                    float* const e = &wtmp[0][0][0];
                    const uint64_t db = _fc3d_wg_desc(sb, 128, 1024), ds = _fc3d_wg_desc(sb + BK * BN * 4, 128, 1024);
                    if (!sxs) {
                        uint32_t ab[BK / 8][4], al[BK / 8][4];
#pragma unroll
                        for (int kk = 0; kk < BK / 8; ++kk) _fc3d_tc_frag_a_split(as + (kk * 8 + t) * SA, ab[kk], al[kk]);
                        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                        for (int kk = 0; kk < BK / 8; ++kk) {
                            const uint64_t o = (uint64_t)(kk * 16);
                            _fc3d_wg_mma<BN, 0>(e, al[kk], db + o, kk > 0);
                            _fc3d_wg_mma<BN, 0>(e, ab[kk], ds + o, 1);
                            _fc3d_wg_mma<BN, 0>(e, ab[kk], db + o, 1);
                        }
                        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
                        _fc3d_wg_keep<MI * NT8 * 4>(e);
                        _fc3d_wg_hold<BK / 2>(&ab[0][0]);
                        _fc3d_wg_hold<BK / 2>(&al[0][0]);
#pragma unroll
                        for (int i = 0; i < MI * NT8 * 4; ++i) d[i] += e[i];
                    } else {
#pragma unroll
                        for (int kk = 0; kk < BK / 8; ++kk) {
                            const uint64_t o = (uint64_t)(kk * 16);
                            uint32_t ab[4], al[4];
                            _fc3d_tc_frag_a_split(as + (kk * 8 + t) * SA, ab, al);
                            asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
                            _fc3d_wg_mma<BN, 0>(e, al, ds + o, 0);
                            _fc3d_wg_mma<BN, 0>(e, al, db + o, 1);
                            _fc3d_wg_mma<BN, 0>(e, ab, ds + o, 1);
                            _fc3d_wg_mma<BN, 0>(e, ab, db + o, 1);
                            asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                            asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
                            _fc3d_wg_keep<MI * NT8 * 4>(e);
                            _fc3d_wg_hold<4>(ab);
                            _fc3d_wg_hold<4>(al);
#pragma unroll
                            for (int i = 0; i < MI * NT8 * 4; ++i) d[i] += e[i];
                        }
                    }
                }
#endif
            } else if (MATH == _FC3D_TC_HALF) {
                constexpr bool BF = std::is_same<T, __nv_bfloat16>::value;
#pragma unroll
                for (int kk = 0; kk < BK / 16; ++kk) {
                    const float* a0 = as + (kk * 16 + 2 * t) * SA;
                    uint32_t af[MI][4], bf[NT8][2];
#pragma unroll
                    for (int mi = 0; mi < MI; ++mi) _fc3d_tc_frag_a_k16<BF>(a0 + mi * 16, af[mi]);
                    const float* b0 = bs + (kk * 16 + 2 * t) * SB;
#pragma unroll
                    for (int ni = 0; ni < NT8; ++ni) {
                        const float* bp = b0 + ni * 8;
                        bf[ni][0] = _fc3d_tc_pack<BF>(bp[0], bp[SB]);
                        bf[ni][1] = _fc3d_tc_pack<BF>(bp[8 * SB], bp[9 * SB]);
                    }
#pragma unroll
                    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
                        for (int ni = 0; ni < NT8; ++ni) _fc3d_tc_mma_k16<BF>(acc[mi][ni], af[mi], bf[ni]);
                }
            } else if (MATH == _FC3D_TC_TF32) {
#pragma unroll
                for (int kk = 0; kk < BK / 8; ++kk) {
                    const float* a0 = as + (kk * 8 + t) * SA;
                    uint32_t af[MI][4], bf[NT8][2];
#pragma unroll
                    for (int mi = 0; mi < MI; ++mi) _fc3d_tc_frag_a_tf32<RND>(a0 + mi * 16, af[mi]);
                    const float* b0 = bs + (kk * 8 + t) * SB;
#pragma unroll
                    for (int ni = 0; ni < NT8; ++ni) {
                        bf[ni][0] = __float_as_uint(b0[ni * 8]);
                        bf[ni][1] = __float_as_uint(b0[ni * 8 + 4 * SB]);
                    }
#pragma unroll
                    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
                        for (int ni = 0; ni < NT8; ++ni) _fc3d_tc_mma_tf32(acc[mi][ni], af[mi], bf[ni]);
                }
            } else { /* 3xTF32: each 32-deep chunk in a fresh accumulator, added into acc with IEEE
                        adds; tiles of at most 8 chunks take each 8-deep step in a fresh one */
                float tmp[MI][NT8][4];
#pragma unroll
                for (int i = 0; i < MI; ++i)
#pragma unroll
                    for (int j = 0; j < NT8; ++j)
#pragma unroll
                        for (int q = 0; q < 4; ++q) tmp[i][j][q] = 0.f;
#pragma unroll
                for (int kk = 0; kk < BK / 8; ++kk) {
                    const float* a0 = as + (kk * 8 + t) * SA;
                    uint32_t ab[MI][4], asm_[MI][4];
#pragma unroll
                    for (int mi = 0; mi < MI; ++mi) _fc3d_tc_frag_a_split(a0 + mi * 16, ab[mi], asm_[mi]);
                    const float* b0 = bs + (kk * 8 + t) * SB;
                    uint32_t bb[NT8][2], bsm[NT8][2];
#pragma unroll
                    for (int ni = 0; ni < NT8; ++ni) {
                        bb[ni][0] = __float_as_uint(b0[ni * 8]);
                        bb[ni][1] = __float_as_uint(b0[ni * 8 + 4 * SB]);
                        bsm[ni][0] = __float_as_uint(b0[BK * SB + ni * 8]);
                        bsm[ni][1] = __float_as_uint(b0[BK * SB + ni * 8 + 4 * SB]);
                    }
                    if (sxs) { /* short K: a fresh accumulator per step, and small*small */
#pragma unroll
                        for (int ni = 0; ni < NT8; ++ni)
#pragma unroll
                            for (int mi = 0; mi < MI; ++mi) {
                                float d[4];
                                _fc3d_tc_mma_tf32_fresh(d, asm_[mi], bsm[ni]);
                                _fc3d_tc_mma_tf32(d, asm_[mi], bb[ni]);
                                _fc3d_tc_mma_tf32(d, ab[mi], bsm[ni]);
                                _fc3d_tc_mma_tf32(d, ab[mi], bb[ni]);
#pragma unroll
                                for (int q = 0; q < 4; ++q) tmp[mi][ni][q] += d[q];
                            }
                    } else { /* long K: the chunk's sum in one accumulator; each term over every
                                (mi, ni) before the next, so consecutive MMAs are independent */
#pragma unroll
                        for (int mi = 0; mi < MI; ++mi)
#pragma unroll
                            for (int ni = 0; ni < NT8; ++ni) _fc3d_tc_mma_tf32(tmp[mi][ni], asm_[mi], bb[ni]);
#pragma unroll
                        for (int mi = 0; mi < MI; ++mi)
#pragma unroll
                            for (int ni = 0; ni < NT8; ++ni) _fc3d_tc_mma_tf32(tmp[mi][ni], ab[mi], bsm[ni]);
#pragma unroll
                        for (int mi = 0; mi < MI; ++mi)
#pragma unroll
                            for (int ni = 0; ni < NT8; ++ni) _fc3d_tc_mma_tf32(tmp[mi][ni], ab[mi], bb[ni]);
                    }
                }
#pragma unroll
                for (int i = 0; i < MI; ++i)
#pragma unroll
                    for (int j = 0; j < NT8; ++j)
#pragma unroll
                        for (int q = 0; q < 4; ++q) acc[i][j][q] += tmp[i][j][q];
            }
        }
        _fc3d_tc_wait<0>();
        __syncthreads();
    }
    if (ROW) {
        if (pw == 0 && nph > 1) {
#pragma unroll
            for (int i = 0; i < MI; ++i)
#pragma unroll
                for (int j = 0; j < NT8; ++j)
#pragma unroll
                    for (int q = 0; q < 4; ++q) {
                        acc0[ROW ? i : 0][j][q] = acc[i][j][q];
                        acc[i][j][q] = 0.f;
                    }
        }
        __syncthreads(); /* the next phase rewrites the tap and row tables */
    }
    } /* W phases */

    if (ROW) {
        _fc3d_tc_row_epilogue<T, BN, MATH, WG, ROW ? MI : 1>(P, bias, y, epi, acc0, acc, r[0], r[1], Q[1], row0, nrows,
                                                         nph, tile);
        return;
    }

    /* ---- epilogue: stage the tile in shared memory so stores run along the contiguous axis */
    const int CS = P.layout == 1 ? BM + 4 : BM + 1;
    float* Cs = As;
#pragma unroll
    for (int mi = 0; mi < MI; ++mi)
#pragma unroll
        for (int ni = 0; ni < NT8; ++ni) {
            const int m = wm * C::WM + mi * 16 + g, nn = wn * C::WN + ni * 8 + 2 * t;
            Cs[nn * CS + m] = acc[mi][ni][0];
            Cs[(nn + 1) * CS + m] = acc[mi][ni][1];
            Cs[nn * CS + m + 8] = acc[mi][ni][2];
            Cs[(nn + 1) * CS + m + 8] = acc[mi][ni][3];
        }
    __syncthreads();
    const int64_t cbase = (int64_t)gi * P.cout_g + (int64_t)ntile * BN;
    const int nvalid = (int)((P.cout_g - (int64_t)ntile * BN) < BN ? (P.cout_g - (int64_t)ntile * BN) : BN);
    const int64_t tps = gridDim.x;
    /* uniform: a pass with no ops needs no output coordinates, one without statistics no sums */
    const bool ops = epi.op_begin != epi.op_end, stats = P.stats != 0;
    if (P.layout == 1) {
        /* the lane's rows' output offsets, once for all its channels (read per value they were
           reloaded after every store: y might alias shared memory as far as the compiler knows) */
        int64_t os[BM / 32];
#pragma unroll
        for (int i = 0; i < BM / 32; ++i) os[i] = lane + 32 * i < mcount ? RW[lane + 32 * i].ospat : 0;
        /* the channel loop compiled per (statistics, ops needing coordinates), both uniform over
           the launch, instead of testing them per value (this NCDHW epilogue was ~45 % of the
           instructions of L1/77's convolution, ncu) */
        const unsigned want = _fc3d_ops_in(epi.op_begin, epi.op_end);
        const bool generic = ops && (epi.ncmask & want) != want;
        static_assert(BN <= 32 * NW, "a warp's channels of the tile: one slot a lane");
        auto channels = [&](auto stats_c, auto generic_c) {
            constexpr bool STATS = decltype(stats_c)::value, GEN = decltype(generic_c)::value;
            /* the statistics slot of the warp's channel warp + NW j, computed by lane j */
            const int64_t slot_l = STATS && warp + NW * lane < nvalid
                                       ? epi.partial_slot(n, cbase + warp + NW * lane, tile, tps) : 0;
            for (int cl = warp, j = 0; cl < nvalid; cl += NW, ++j) {
                const int64_t cg = cbase + cl;
                const float bv = bias ? _fc3d_tc_tof(bias[cg]) : 0.f;
                const int64_t ybase = (n * P.cout + cg) * P.odhw;
                double s = 0.0, ss = 0.0; /* squares in double, as the direct engine: E[x^2] - mean^2 cancels */
                float vc[BM / 32]; /* the lane's values of channel cl */
#pragma unroll
                for (int i = 0; i < BM / 32; ++i) vc[i] = lane + 32 * i < mcount ? Cs[cl * CS + lane + 32 * i] + bv : 0.f;
                if (!GEN && ops) epi.apply_nc_regs(vc, epi.op_begin, epi.op_end, n, cg); /* fixed by (n, c) */
                if (!GEN && P.store && (P.out_f32 || std::is_same<T, float>::value)) {
                    /* float stores predicated by the row's validity, a row past the tile adding zeros
                       to the sums (as the haloed epilogue; _fc3d_st_if) */
                    float* yb = reinterpret_cast<float*>(y) + ybase;
                    asm("" : "+l"(yb));
#pragma unroll
                    for (int i = 0; i < BM / 32; ++i) {
                        const bool ok = lane + 32 * i < mcount;
                        _fc3d_st_if(yb + os[i], vc[i], ok);
                        if (STATS) {
                            const double d = ok ? (double)vc[i] : 0.0;
                            s += d;
                            ss += d * d;
                        }
                    }
                } else
#pragma unroll
                for (int i = 0; i < BM / 32; ++i) {
                    const int m = lane + 32 * i;
                    if (m >= mcount) continue;
                    float v = vc[i];
                    if (GEN) {
                        const _fc3d_tc_row& rw = RW[m];
                        const int64_t od = (int64_t)P.s[0] * rw.qd + r[0];
                        const int64_t oh = (int64_t)P.s[1] * rw.qh + r[1];
                        const int64_t ow = (int64_t)P.s[2] * rw.qw + r[2];
                        v = epi.apply(v, n, cg, od, oh, ow);
                    }
                    if (P.store && P.out_f32) {
                        reinterpret_cast<float*>(y)[ybase + os[i]] = v;
                    } else if (P.store) {
                        const T tv = _fc3d_tc_fromf<T>(v);
                        y[ybase + os[i]] = tv;
                        v = _fc3d_tc_tof(tv);
                    }
                    if (STATS) { s += v; ss += (double)v * v; }
                }
                if (STATS) {
                    double ds = s, dss = ss;
#pragma unroll
                    for (int o = 16; o > 0; o >>= 1) {
                        ds += __shfl_xor_sync(0xffffffffu, ds, o);
                        dss += __shfl_xor_sync(0xffffffffu, dss, o);
                    }
                    const int64_t slot = __shfl_sync(0xffffffffu, slot_l, j);
                    if (lane == 0) epi.partial_at(slot, ds, dss);
                }
            }
        };
        typedef std::integral_constant<bool, true> yes_;
        typedef std::integral_constant<bool, false> no_;
        if (stats) {
            if (generic) channels(yes_(), yes_());
            else channels(yes_(), no_());
        } else if (generic) {
            channels(no_(), yes_());
        } else {
            channels(no_(), no_());
        }
    } else {
        constexpr int NJ = BN / 32 > 0 ? BN / 32 : 1;
        double s[NJ], ss[NJ];
        float bv[NJ];
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            const int cl = lane + 32 * j;
            s[j] = 0.0; ss[j] = 0.0;
            bv[j] = (bias && cl < nvalid) ? _fc3d_tc_tof(bias[cbase + cl]) : 0.f;
        }
        for (int m = warp; m < mcount; m += NW) {
            const _fc3d_tc_row& rw = RW[m];
            const int64_t od = (int64_t)P.s[0] * rw.qd + r[0];
            const int64_t oh = (int64_t)P.s[1] * rw.qh + r[1];
            const int64_t ow = (int64_t)P.s[2] * rw.qw + r[2];
            T* yr = y + (n * P.odhw + rw.ospat) * P.cout + cbase;
#pragma unroll
            for (int j = 0; j < NJ; ++j) {
                const int cl = lane + 32 * j;
                if (cl < nvalid) {
                    float v = Cs[cl * CS + m] + bv[j];
                    if (ops) v = epi.apply(v, n, cbase + cl, od, oh, ow);
                    if (P.store && P.out_f32) {
                        reinterpret_cast<float*>(y)[(n * P.odhw + rw.ospat) * P.cout + cbase + cl] = v;
                    } else if (P.store) {
                        const T tv = _fc3d_tc_fromf<T>(v);
                        yr[cl] = tv;
                        v = _fc3d_tc_tof(tv);
                    }
                    if (stats) { s[j] += v; ss[j] += (double)v * v; }
                }
            }
        }
        if (P.stats) {
            double2* red = reinterpret_cast<double2*>(Cs + ((BN * CS + 3) & ~3));
#pragma unroll
            for (int j = 0; j < NJ; ++j) red[warp * BN + lane + 32 * j] = make_double2(s[j], ss[j]);
            __syncthreads();
            for (int cl = tid; cl < nvalid; cl += NT) {
                double ds = 0.0, dss = 0.0;
#pragma unroll
                for (int w = 0; w < NW; ++w) {
                    const double2 v = red[w * BN + cl];
                    ds += v.x; dss += v.y;
                }
                epi.partial(n, cbase + cl, tile, tps, ds, dss);
            }
        }
    }
#endif
}

/* >>halo-loop ------------------------------------------------------------------------------------
   The implicit-GEMM engine's haloed main loop (sm_90a): haloed tiles. */
/* The haloed loop (FC3D_MAIN_LOOP_HALO; _fc3d_hx_choose says when the planner takes it;
   bench/halo_loop.cu is its standalone form).
   x is copied per run into xp [n][C / KG][hx_ps][KG] (KG channels = 16 bytes of operands: 16-bit
   values, TF32 math's TF32-rounded values held as f16 (kp.hx_t32, _FC3D_HX_TF32_F16), or TF32-
   rounded floats where TF32 takes its own wgmmas), zero-padded by hx_plo before and up to hx_pad per dim; in H
   and W a row (plane) ends where the input does or where its last output's taps end, whichever is
   later, and the taps that run past it read the next one's leading zeros (a shared halo:
   _fc3d_hx_plan). A
   phase's positions are numbered as virtual rows v = (qd * Hp + qh) * Wp + qw of the padded
   plane, so tap (cd, ch, cw) reads row v + ((cd + plo0) * Hp + ch + plo1) * Wp + cw + plo2. A tile
   is _FC3D_HX_NR consecutive virtual rows of one phase, or, where that issues fewer MMA rows
   (_fc3d_hx_tiling), hx_prows whole rows qh of one padded plane at wgmma n240 or n256 (plane-row
   tiles: no rows qh >= Q1 past the phase's last tile of a plane, no tile across two planes with
   the d taps of both); per channel block (KC channels) and d tap
   a unit: the R rows every (h, w) tap reads, one bulk copy per channel group; each tap's MMAs
   read the unit at another start row. Transposed GEMM: A = the weight piece of a tap (64 output
   channels per consumer warpgroup), B = the unit's rows, m64 x n256 per wgmma. A producer lane
   feeds the unit ring (_FC3D_HX_NA) and the weight ring (_FC3D_HX_NB) on mbarriers, then
   prefetches into L2 the first unit of the CTA likely to start next on its SM (kp.hx_ahead,
   _FC3D_HX_PREFETCH); consumers
   release a slot once the MMAs reading it are done. Rows past the phase (qh >= Q1, qw >= Q2) are
   computed and dropped in the epilogue. A step that zero-fills y (_fc3d_tc_zero_fill) launches
   the tapped phases' tiles only (hx_zcls_start; a tile's phase is then the k-th tapped residue
   per dim of its class).
   Row tiles (a LayerNorm over W at W stride 2: the plan's whole-row passes): a tile is
   hx_rpt = 256 / Wp whole rows (qd, qh) of the padded plane of one (rd, rh) pair, and its two
   consumer warpgroups compute the two W phases of the same 64 output channels over them (BN = 128
   kernel shape: a weight slot holds the tap's piece of each phase side by side; a phase with fewer
   w taps multiplies a zero piece). Their units hold the rows both phases' taps read. The epilogue
   stages both phases as whole output rows ([channel][row][ow], the CM table places each of the 256
   rows) and runs the whole-row epilogue of the tiled loops (_fc3d_tc_rows_out): a row's statistics,
   normalisation, ops and one store, with no pass over y.
   3xTF32 (FP32 math): the operand copy of x and the weight pieces keep a big
   and a small part, each an f16 (x and the weight scaled by a power of two per run:
   _fc3d_hx_x3_scales), the small part of x a whole copy further, a piece's small part right
   after its big one (a unit and a weight slot hold both); units of 32 channels, 64-channel tiles
   whose two consumer warpgroups each take half of the tile's 256 rows (m64n128, three f16
   wgmmas a K step of 16 channels into a chunk accumulator, the chunks' sums added into FP32
   sums: the registers of one m64n256 accumulator). Its row tiles, whose warpgroups each hold a
   W phase's m64n256 accumulator, issue the three wgmmas a K step into that accumulator alone,
   so the plan takes them only where an output sums at most _FC3D_HX_X3_ROWK products
   (_fc3d_hx_x3_rows); past that a chain with a LayerNorm over W stores the rows and one pass
   reads them back (_fc3d_row_pass_kernel). */
#define _FC3D_HX_NR 256
#ifndef _FC3D_HX_NA
#define _FC3D_HX_NA 2 /* unit slots (measurement: 3 where the shared memory allows) */
#endif
#ifndef _FC3D_HX_PREFETCH
#define _FC3D_HX_PREFETCH 1 /* units of the next CTA's tile prefetched into L2 (0: none; measurement) */
#endif
#ifndef _FC3D_HX_NB
#define _FC3D_HX_NB 4 /* weight slots (bench/RESULTS.md: 3 and 2 measured slower; 3 again in its
                         twenty-seventh entry: FP32 on L2/77 and L2/61 3.5-5 % slower, TF32 and half
                         within 1 %); at most 6 with _FC3D_HX_NA 2 (the barriers' 128 bytes) */
#endif
#ifndef _FC3D_HX_ZC_SECTORS
#define _FC3D_HX_ZC_SECTORS 1 /* a zero-completing tile's runs in whole sectors (_fc3d_zero_run_sectors; 0: as they fall) */
#endif
#ifndef _FC3D_HX_ZC_NB
/* weight slots of a zero-completing step's 64-channel tiles (_fc3d_hx_zc_dims) where one slot fewer
   lets a second CTA onto an SM: its epilogue, which stores the tile's whole block of y, then runs
   beside the other's MMAs. L1/77 in TF32: one CTA an SM with 4 slots (117,888 bytes), two with 3:
   0.392 -> 0.307 ms; with 3 slots everywhere, FP32 math on L2/77 and L2/61 took 3.5 and 5 % longer
   (bench/RESULTS.md). 0: never. */
#define _FC3D_HX_ZC_NB 3
#endif
#ifndef _FC3D_HX_BN_MAX
#define _FC3D_HX_BN_MAX 128 /* 64: 64-channel tiles only (two CTAs an SM where the shared memory allows) */
#endif
/* 64-channel tiles for more than 64 output channels where a phase's K (C_in / groups x its taps) is
   below this: each x unit is then copied once per 64 channels, but with one weight slot fewer two
   CTAs share an SM, one's epilogue beside the other's MMAs. Conv alone, H100, two rounds alternated
   with 128-channel tiles (bench/RESULTS.md, seventy-fourth entry): L2/61 (K 1,728) 0.550 / 0.585 ->
   0.538 / 0.540 ms TF32, 0.544 / 0.576 -> 0.531 / 0.530 half; L2/77 (K 8,000) 0.968 -> 1.110, so
   it keeps 128. The bound sits just above L2/61's K, the one short K measured. 0: never. */
#ifndef _FC3D_HX_SHORT_K
#define _FC3D_HX_SHORT_K 2048
#endif
#define _FC3D_HX_TT 256 /* (h, w) taps of a phase at most */
/* Measurement only (bench/hx_trace.cu): with _FC3D_HX_TRACE defined, each haloed CTA writes its
   SM and clock64 stamps of its phases to _fc3d_hx_trace_buf[cta * 16 + i] where that pointer is set
   (0 SM, 1 entry, 2 tables done, 3 first unit in, 4 warpgroup 0's MMAs done, 5 tile staged, 6 the
   last warp's epilogue done, 7 the producer's last copy issued, 8 the tile decoded, 9 thread 0's
   tables written, 10 the producer's barriers made, 11 its first unit's copies issued, 12 the
   producer's tile decoded, 13 its barriers initialised, 14 the producer's entry). Off, the hooks
   compile to nothing. */
#ifdef _FC3D_HX_TRACE
static __device__ unsigned long long* _fc3d_hx_trace_buf;
/* this CTA's 16 stamps, or null where no buffer is set */
static __device__ __forceinline__ unsigned long long* _fc3d_hx_trace_cta() {
    const unsigned long long cta = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    return _fc3d_hx_trace_buf ? _fc3d_hx_trace_buf + cta * 16 : nullptr;
}
#define _FC3D_HX_STAMP(i) \
    do { if (unsigned long long* s_ = _fc3d_hx_trace_cta()) s_[i] = (unsigned long long)clock64(); } while (0)
#define _FC3D_HX_STAMP_MAX(i) \
    do { if (unsigned long long* s_ = _fc3d_hx_trace_cta()) atomicMax(s_ + (i), (unsigned long long)clock64()); } while (0)
#else
#define _FC3D_HX_STAMP(i) do { } while (0)
#define _FC3D_HX_STAMP_MAX(i) do { } while (0)
#endif
#ifndef _FC3D_HX_X3_TAPS
#define _FC3D_HX_X3_TAPS 4 /* 3xTF32: (h, w) taps a chunk accumulator sums (x _FC3D_HX_X3_KC channels: K = 128) */
#endif
#ifndef _FC3D_HX_X3_KC
#define _FC3D_HX_X3_KC 32 /* 3xTF32: channels a unit (16 measured slower: bench/RESULTS.md) */
#endif
#ifndef _FC3D_HX_TF32_F16
/* TF32 math on the haloed loop takes its f16 path (1; 0: TF32 wgmmas, for measurement). A value
   rounded to TF32 (11 significant bits) is exact as an f16 in f16's normal range, so x and the
   weight, each scaled by a power of two per run as 3xTF32's parts are (_fc3d_hx_x3_scales), rounded
   to TF32 as the TF32 path rounds them and held as f16, give the very products the TF32 wgmmas
   form, summed in the same FP32 accumulators, at twice the rate and with half the operand bytes
   (the half-math kernels, kp.hx_t32 set; the sums multiplied back by the two powers of two). A
   weight under about 2^-28 of the weight's largest magnitude falls to f16's subnormal step: an
   error of at most 2^-39 of that largest magnitude, far under TF32's own rounding of each value
   (2^-11 of it). x is held as it is where its largest magnitude lies in [2^-4, 2^15)
   (_fc3d_hx_x_as_is): a value of it under 2^-14 then errs by at most 2^-25 (2^-21 of that
   largest magnitude, against 2^-12 of it for TF32's rounding of the values near it). */
#define _FC3D_HX_TF32_F16 1
#endif

/* row tiles' staging table: a row of it per (W phase, lane quad t), _FC3D_HX_NR / 4 entries and 4
   of padding (the quads' 16-byte loads of one warp then hit distinct banks) */
#define _FC3D_HX_CMS (_FC3D_HX_NR / 4 + 4)
#ifndef _FC3D_HX_SWZ
#define _FC3D_HX_SWZ 1 /* 0: row tiles staged unswizzled (measurement) */
#endif
#ifndef _FC3D_HX_EPI_AHEAD
#define _FC3D_HX_EPI_AHEAD 1 /* 0: the NCDHW epilogue loads a channel's staged values when it gets to it (measurement) */
#endif
#ifndef _FC3D_HX_EPI_PLAIN_SUMS
#define _FC3D_HX_EPI_PLAIN_SUMS 1 /* 0: the NCDHW epilogue's statistics through the general loop always (measurement) */
#endif

/* Bytes an operand element of the haloed loop takes in its copies, its parts together (TF32 4,
   half 2, 3xTF32 4: a big and a small part, each a TF32 value held as f16, see below), and its
   consumer warpgroups: one per 64 output channels, or for 3xTF32 two on the same 64 channels,
   each over half of the tile's rows. The kernels' configuration, the shared-memory layout and the
   planner's workspace all ask here. */
static __host__ __device__ constexpr int _fc3d_hx_sb(int math) {
    return math == _FC3D_TC_HALF ? 2 : 4;
}
static __host__ __device__ constexpr int _fc3d_hx_nwg(int math, int bn) { return math == _FC3D_TC_3XTF32 ? 2 : bn / 64; }

template <int MATH, int BN, int KC>
struct _fc3d_hx_cfg {
    static constexpr bool X3 = MATH == _FC3D_TC_3XTF32;       /* 3xTF32: a big and a small part of each operand */
    static constexpr int EB = MATH == _FC3D_TC_HALF || X3 ? 2 : 4; /* operand bytes (3xTF32: a part's f16) */
    static constexpr int NU = X3 ? 2 : 1;                     /* parts of an operand */
    static constexpr int SB = _fc3d_hx_sb(MATH);              /* bytes an operand element takes, its parts together */
    static_assert(SB == EB * NU, "the operand bytes of _fc3d_hx_sb");
    static constexpr int KG = 16 / EB;                       /* channels of a 16-byte group */
    static constexpr int KS = EB == 2 ? 16 : 8;               /* K of one wgmma */
    static constexpr int NKG = KC / KG;
    /* consumer warpgroups: one per 64 channels, or for 3xTF32 two on the same 64 channels, each
       over half of the tile's rows (m64n128: its chunk accumulator and its FP32 sums fit the
       registers that one m64n256 accumulator takes) */
    static constexpr int NWG = _fc3d_hx_nwg(MATH, BN);
    static constexpr int NT = 32 * (4 * NWG + 1);             /* and the producer warp */
    static constexpr int PIECE = BN * KC * EB;                /* bytes of one tap's weight piece (one part) */
};

/* the bytes of the haloed loop's weight pieces: ntn tiles of bn output channels a group */
static __host__ __device__ inline size_t _fc3d_hx_wbytes(const _fc3d_tc_kparams& P, int64_t ntn, int bn, int math) {
    return (size_t)P.groups * ntn * (size_t)P.k[0] * P.k[1] * P.k[2] * (size_t)P.cin_g * bn * _fc3d_hx_sb(math);
}

/* 3xTF32's parts as f16. A value v is split as 3xTF32 splits it, big = tf32(v), small = tf32(v -
   big), and each part, 11 significant bits, is held as an f16 (exact in its normal range), so the
   three products a K step needs (small x big, big x small, big x big) are f16 wgmmas at twice
   TF32's rate and half its operand bytes: the products are the very ones 3xTF32 forms, exact in
   the FP32 accumulator. To keep the parts in f16's range, x and the weight are each scaled by a
   power of two per run, 2^s with s = 14 - (the exponent of the tensor's largest finite magnitude,
   at least -100), so that magnitude lands in [2^14, 2^15): _fc3d_hx_absmax finds the two
   magnitudes (an integer max over the float bits: bitwise deterministic), the prep kernels scale,
   and the main kernel multiplies its sums by 2^-sx and 2^-sw (exact: powers of two). A part below
   2^-14 after scaling (a value under about 2^-17 of the tensor's largest) rounds to f16's
   subnormal step, 2^-24: an error of at most 2^-39 of the largest magnitude. Non-finite values
   are left out of the maxima and stay non-finite. The two maxima are two words in the workspace
   right after the weight pieces (_fc3d_hx_x3_scales). TF32 math on the f16 path
   (_FC3D_HX_TF32_F16) keeps the big part alone and scales the weight the same way, x only where
   its largest magnitude lies outside [2^-4, 2^15) (_fc3d_hx_x_as_is). */
static __host__ __device__ inline unsigned* _fc3d_hx_x3_scales(const _fc3d_tc_kparams& P, const void* wp) {
    return (unsigned*)((char*)const_cast<void*>(wp) + P.hx_sc_at);
}
/* s (as above) for the largest finite magnitude's bits m; 0 for m = 0 */
static __device__ __forceinline__ int _fc3d_hx_x3_sexp(unsigned m) {
    int e = (int)(m >> 23) - 127;
    e = e < -100 ? -100 : e;
    return m ? 14 - e : 0;
}
/* 2^k for k in [-126, 127] */
static __device__ __forceinline__ float _fc3d_p2(int k) { return __uint_as_float((unsigned)(127 + k) << 23); }
/* 2^(sign * s) for the largest finite magnitude's bits m (s as above; 1 for m = 0) */
static __device__ __forceinline__ float _fc3d_hx_x3_pow2(unsigned m, int sign) {
    return _fc3d_p2(sign * _fc3d_hx_x3_sexp(m));
}
/* Whether the haloed kernels of configuration math scale x and the weight (3xTF32's parts, TF32
   on the f16 path: kp.hx_t32) */
static __host__ __device__ inline bool _fc3d_hx_scaled(int math, const _fc3d_tc_kparams& P) {
    return math == _FC3D_TC_3XTF32 || (math == _FC3D_TC_HALF && P.hx_t32);
}
/* TF32 on the f16 path holds x as it is (scale 1) where x's largest finite magnitude m lies in
   [2^-4, 2^15) (or is 0): no value then leaves f16's range, and one under 2^-14 (its normal
   range) rounds to f16's subnormal step 2^-24 instead of to 11 significant bits, an error of at
   most 2^-25, at most 2^-21 of that largest magnitude, against TF32's own rounding of the values
   near it, 2^-12 of it. Then no launch reads x for its magnitude before the operand copy: the
   copy finds it (_fc3d_hx_prep), and a second copy at the scale of _fc3d_hx_x3_pow2 runs only
   where it lies outside (_fc3d_hx_xfix). The weight keeps its scale: its magnitude, one partial a
   block of _fc3d_hx_wmax in the words after the first four, is found before the copy. */
#define _FC3D_HX_WMAX_BLOCKS 128
static_assert(_FC3D_HX_WMAX_BLOCKS % 32 == 0, "the weight pieces' warps read the partials 32 at a time");
#define _FC3D_HX_SC_BYTES (4 * (4 + _FC3D_HX_WMAX_BLOCKS)) /* the scale words' bytes in the workspace */
static __host__ __device__ inline bool _fc3d_hx_x_as_is(unsigned m) {
    return m < 0x47000000u && (m >= 0x3d800000u || m == 0u); /* (2^15, 2^-4) */
}
/* 2^(sign * s) for x's scale (m: x's largest finite magnitude's bits) */
static __device__ __forceinline__ float _fc3d_hx_xs_pow2(const _fc3d_tc_kparams& P, unsigned m, int sign) {
    return P.hx_t32 && _fc3d_hx_x_as_is(m) ? 1.f : _fc3d_hx_x3_pow2(m, sign);
}
/* a thread's first M sums multiplied back by x's and the weight's scales (exact: powers of two), and
   where addb a bias added, b0 to sums 4 i and 4 i + 1 (a row tile's channel co), b1 to 4 i + 2 and
   4 i + 3 (co + 8). One product (an FFMA with the bias) where the scales' product is a normal
   float, which holds every ordinary scale; else two products, as each alone stays in float's
   range, then the bias. (One FFMA a value for two FMULs and an FADD: a fifth of a row tile's
   per-tile work in its consumers.) */
template <int M, int N>
static __device__ __forceinline__ void _fc3d_hx_unscale(float (&acc)[N], const _fc3d_tc_kparams& P, const void* wp,
                                                        bool addb = false, float b0 = 0.f, float b1 = 0.f) {
    static_assert(M <= N, "the sums lie first");
    const unsigned* m = _fc3d_hx_x3_scales(P, wp);
    const float sx = _fc3d_hx_xs_pow2(P, m[0], -1), sw = _fc3d_hx_x3_pow2(m[1], -1), s = sx * sw;
    if (s >= 1.17549435e-38f && s <= 3.40282347e+38f) {
        if (addb) {
#pragma unroll
            for (int j = 0; j < M; ++j) acc[j] = __fmaf_rn(acc[j], s, (j & 2) ? b1 : b0);
        } else {
#pragma unroll
            for (int j = 0; j < M; ++j) acc[j] *= s;
        }
    } else {
#pragma unroll
        for (int j = 0; j < M; ++j) acc[j] = acc[j] * sx * sw;
        if (addb) {
#pragma unroll
            for (int j = 0; j < M; ++j) acc[j] += (j & 2) ? b1 : b0;
        }
    }
}
/* the largest finite magnitude (float bits compared as integers) of n values at p, this thread's
   share of a grid-stride sweep (i0, st: its first index and the stride) */
static __device__ __forceinline__ unsigned _fc3d_hx_sweep_max(const float* __restrict__ p, int64_t n, int64_t i0, int64_t st) {
    unsigned mx = 0u;
    auto take = [&mx](float v) {
        const unsigned b = __float_as_uint(v) & 0x7fffffffu;
        if (b < 0x7f800000u && b > mx) mx = b;
    };
    if (((uintptr_t)p & 15u) == 0) {
        /* sweeps of 4 x st 16-byte groups, four loads in flight a thread, the last sweep first: the
           prep step then finds the tensor's start, which it reads first, still in L2 */
        const int64_t n4 = n / 4, S = 4 * st;
        for (int64_t b = (n4 + S - 1) / S * S - S + i0; b >= 0; b -= S) {
            float4 v[4];
#pragma unroll
            for (int u = 0; u < 4; ++u)
                v[u] = b + u * st < n4 ? __ldg(reinterpret_cast<const float4*>(p) + b + u * st) : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                take(v[u].x); take(v[u].y); take(v[u].z); take(v[u].w);
            }
        }
        for (int64_t i = 4 * n4 + i0; i < n; i += st) take(p[i]);
    } else {
        for (int64_t i = i0; i < n; i += st) take(p[i]);
    }
    return mx;
}
/* the warp's largest v (sm_80's reduction; shuffles before it: these kernels are compiled for
   every architecture and run only as sm_90a code) */
static __device__ __forceinline__ unsigned _fc3d_warp_umax(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_max_sync(0xffffffffu, v);
#else
    for (int m = 16; m > 0; m >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, m));
    return v;
#endif
}
/* the block's maxima of a and b (every thread of the block calls it), in thread 0: warps, then
   the block in shared memory */
static __device__ __forceinline__ void _fc3d_hx_block_max2(unsigned& a, unsigned& b) {
    __shared__ unsigned red[2][32];
    a = _fc3d_warp_umax(a);
    b = _fc3d_warp_umax(b);
    const int wi = threadIdx.x >> 5, nw32 = (blockDim.x + 31) >> 5;
    if ((threadIdx.x & 31) == 0) {
        red[0][wi] = a;
        red[1][wi] = b;
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        a = threadIdx.x < nw32 ? red[0][threadIdx.x] : 0u;
        b = threadIdx.x < nw32 ? red[1][threadIdx.x] : 0u;
        a = _fc3d_warp_umax(a);
        b = _fc3d_warp_umax(b);
    }
}
/* 3xTF32: the largest finite magnitudes of x (nx values) and of the weight (nw) into m[0], m[1]
   (zeroed before), one atomic a block on each word (one a warp queued 16 K of them on two words
   on L1/77) */
static __global__ void _fc3d_hx_absmax(const float* __restrict__ x, int64_t nx, const float* __restrict__ w, int64_t nw,
                                       unsigned* __restrict__ m)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap(); /* sm_90a code only, as _fc3d_hx_prep */
#else
    const int64_t st = (int64_t)gridDim.x * blockDim.x, i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mx = _fc3d_hx_sweep_max(x, nx, i0, st), mw = _fc3d_hx_sweep_max(w, nw, i0, st);
    _fc3d_hx_block_max2(mx, mw);
    if (threadIdx.x == 0) {
        if (mx) atomicMax(m, mx);
        if (mw) atomicMax(m + 1, mw);
    }
#endif
}
/* TF32 on the f16 path (_fc3d_hx_x_as_is): the weight's largest finite magnitude, one partial a
   block into m[4 + block] (_FC3D_HX_WMAX_BLOCKS blocks: every word written, none zeroed before),
   and x's word m[0] zeroed for the prep step's atomics. Launched as usual (after everything before
   it), it lets the prep step start at once: the prep's copy of x runs beside it. */
static __global__ void _fc3d_hx_wmax(const float* __restrict__ w, int64_t nw, unsigned* __restrict__ m)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap(); /* sm_90a code only, as _fc3d_hx_prep */
#else
    _fc3d_pdl_launch();
    unsigned mw = _fc3d_hx_sweep_max(w, nw, (int64_t)blockIdx.x * blockDim.x + threadIdx.x, (int64_t)gridDim.x * blockDim.x),
             z = 0u;
    _fc3d_hx_block_max2(mw, z);
    if (threadIdx.x == 0) {
        m[4 + blockIdx.x] = mw;
        if (blockIdx.x == 0) m[0] = 0u;
    }
#endif
}

/* Division by a divisor fixed per launch, for numerators under 2^31: q = n / d = (n m) >> sh with
   s = ceil(log2 d), m = ceil(2^(31 + s) / d) < 2^32, sh = 31 + s (the error n (m d - 2^(31+s)) /
   (d 2^(31+s)) stays under 1 / d). The prep step's index decoding took a 64-bit division a level
   (L1/77's copy: 367 instructions a 16-byte group, issue-bound at 69 % of the SMs' throughput
   and 29 % of DRAM's, bench/RESULTS.md). */
typedef struct _fc3d_udiv {
    unsigned m;
    int sh;
} _fc3d_udiv;
static inline _fc3d_udiv _fc3d_udiv_of(int64_t d) {
    int sl = 0;
    while (((int64_t)1 << sl) < d) ++sl;
    _fc3d_udiv v;
    v.m = (unsigned)((((uint64_t)1 << (31 + sl)) + (uint64_t)d - 1) / (uint64_t)d);
    v.sh = 31 + sl;
    return v;
}
static __host__ __device__ __forceinline__ unsigned _fc3d_udiv_q(unsigned n, _fc3d_udiv v) {
    return (unsigned)(((unsigned long long)n * v.m) >> v.sh);
}
/* the prep step's divisors (_fc3d_hx_prep_x_run, _fc3d_hx_prep_w_run), set where every index of
   its part (and of x, for the copy) stays under 2^31 (fx, fw; else the 64-bit decoding) */
typedef struct _fc3d_hx_pdiv {
    _fc3d_udiv ps, ngrp, hw, w, kt, ncb, ntn;
    int fx, fw;
} _fc3d_hx_pdiv;
static inline _fc3d_hx_pdiv _fc3d_hx_pdiv_of(const _fc3d_tc_kparams& P, int kg, int bn, int kc) {
    _fc3d_hx_pdiv q;
    const int64_t ngrp = P.cin / kg, kt = (int64_t)P.k[0] * P.k[1] * P.k[2], ncb = P.cin_g / kc;
    const int64_t xt = P.n * ngrp * P.hx_ps, wt = (int64_t)P.groups * P.ntn * ncb * kt * bn * kc;
    q.fx = !P.hx_wide && xt < ((int64_t)1 << 31) && P.n * P.cin * P.idhw < ((int64_t)1 << 31);
    q.fw = !P.hx_wide && wt < ((int64_t)1 << 31);
    q.ps = _fc3d_udiv_of(q.fx ? P.hx_ps : 1);
    q.ngrp = _fc3d_udiv_of(q.fx ? ngrp : 1);
    q.hw = _fc3d_udiv_of(q.fx ? (int64_t)P.hx_pad[1] * P.hx_pad[2] : 1);
    q.w = _fc3d_udiv_of(q.fx ? P.hx_pad[2] : 1);
    q.kt = _fc3d_udiv_of(q.fw ? kt : 1);
    q.ncb = _fc3d_udiv_of(q.fw ? ncb : 1);
    q.ntn = _fc3d_udiv_of(q.fw ? P.ntn : 1);
    return q;
}

/* x -> xp (the operand copy above): one thread per 16-byte group of channels of one padded row,
   groups i0, i0 + st, .. (sm_90a code only: TF32 rounding needs sm_80, and the run launches the
   haloed loop only there). xs: x's scale (3xTF32, TF32 on the f16 path: P.hx_t32). Returns the
   largest finite magnitude of the values it read where P.hx_t32 (_fc3d_hx_x_as_is), else 0. */
template <typename T, int MATH>
static __device__ __forceinline__ unsigned _fc3d_hx_prep_x_run(const _fc3d_tc_kparams& P, const T* __restrict__ x,
                                                               void* __restrict__ xp, float xs, const _fc3d_hx_pdiv& q,
                                                               int64_t i0, int64_t st)
{
    constexpr int KG = MATH == _FC3D_TC_TF32 ? 4 : 8;
    constexpr bool BF = std::is_same<T, __nv_bfloat16>::value;
    const bool t32 = MATH == _FC3D_TC_HALF && P.hx_t32;
    int mx = 0;
    const int64_t ngrp = P.cin / KG, total = P.n * ngrp * P.hx_ps;
    const int64_t HpWp = (int64_t)P.hx_pad[1] * P.hx_pad[2], vol = HpWp * P.hx_pad[0];
    /* group i's values (rounded as the math mode's operands) into the copy */
    auto emit = [&](int64_t i, float (&v)[KG]) {
        uint4 o;
        uint32_t* ow = reinterpret_cast<uint32_t*>(&o);
        if (MATH == _FC3D_TC_3XTF32) { /* big parts here, the small parts a whole copy further */
            float b[KG], sm[KG];
#pragma unroll
            for (int k = 0; k < KG; ++k) {
                const float sv = v[k] * xs;
                b[k] = __uint_as_float(_fc3d_tc_round(sv));
                sm[k] = __uint_as_float(_fc3d_tc_round(sv - b[k]));
            }
#pragma unroll
            for (int k = 0; k < 4; ++k) ow[k] = _fc3d_tc_pack<false>(b[(2 * k) % KG], b[(2 * k + 1) % KG]);
            reinterpret_cast<uint4*>(xp)[i] = o;
#pragma unroll
            for (int k = 0; k < 4; ++k) ow[k] = _fc3d_tc_pack<false>(sm[(2 * k) % KG], sm[(2 * k + 1) % KG]);
            reinterpret_cast<uint4*>(xp)[i + total] = o;
            return;
        }
        if (MATH == _FC3D_TC_HALF) {
            if (t32) { /* the TF32 value of the scaled x, exact as an f16; x's magnitude */
#pragma unroll
                for (int k = 0; k < KG; ++k) {
                    /* (a finite magnitude's bits + 2^23 stay positive as an int, a non-finite's
                       turn negative: one max) */
                    mx = max(mx, (int)((__float_as_uint(v[k]) & 0x7fffffffu) + 0x00800000u));
                    v[k] = __uint_as_float(_fc3d_tc_round(v[k] * xs));
                }
            }
#pragma unroll
            for (int k = 0; k < 4; ++k) ow[k] = _fc3d_tc_pack<BF>(v[(2 * k) % KG], v[(2 * k + 1) % KG]);
        } else {
#pragma unroll
            for (int k = 0; k < 4; ++k) ow[k] = _fc3d_tc_round(v[k % KG]);
        }
        reinterpret_cast<uint4*>(xp)[i] = o;
    };
    if (q.fx) {
        /* every index, and x's, under 2^31 (_fc3d_hx_pdiv): 32-bit decoding and offsets (a
           position past the padded volume has pd past its planes: no input) */
        for (int64_t i = i0; i < total; i += st) {
            const unsigned u = (unsigned)i, g = _fc3d_udiv_q(u, q.ps), ps = u - g * (unsigned)P.hx_ps;
            const unsigned n = _fc3d_udiv_q(g, q.ngrp), cg = g - n * (unsigned)ngrp, d = _fc3d_udiv_q(ps, q.hw),
                           r = ps - d * (unsigned)HpWp, h = _fc3d_udiv_q(r, q.w);
            const int id = (int)d - P.hx_plo[0], ih = (int)h - P.hx_plo[1], iw = (int)(r - h * (unsigned)P.hx_pad[2]) - P.hx_plo[2];
            const bool in = (unsigned)id < (unsigned)P.in[0] && (unsigned)ih < (unsigned)P.in[1] && (unsigned)iw < (unsigned)P.in[2];
            const unsigned sp = ((unsigned)id * (unsigned)P.in[1] + (unsigned)ih) * (unsigned)P.in[2] + (unsigned)iw,
                           dhw = (unsigned)P.idhw, ci = (unsigned)P.cin;
            const unsigned src = P.layout == 1 ? (n * ci + cg * KG) * dhw + sp : (n * dhw + sp) * ci + cg * KG,
                           step = P.layout == 1 ? dhw : 1u;
            float v[KG];
#pragma unroll
            for (int k = 0; k < KG; ++k) v[k] = in ? _fc3d_tc_tof(x[src + (unsigned)k * step]) : 0.f;
            emit(i, v);
        }
    } else {
        for (int64_t i = i0; i < total; i += st) {
            const int64_t pos = i % P.hx_ps, ng = i / P.hx_ps;
            const int64_t cg = ng % ngrp, n = ng / ngrp;
            bool in = pos < vol;
            int64_t src = 0, step = 0;
            if (in) {
                const int64_t pd = pos / HpWp, rem = pos - pd * HpWp;
                const int64_t id = pd - P.hx_plo[0], ih = rem / P.hx_pad[2] - P.hx_plo[1], iw = rem % P.hx_pad[2] - P.hx_plo[2];
                in = id >= 0 && id < P.in[0] && ih >= 0 && ih < P.in[1] && iw >= 0 && iw < P.in[2];
                const int64_t sp = (id * P.in[1] + ih) * P.in[2] + iw;
                if (P.layout == 1) { src = (n * P.cin + cg * KG) * P.idhw + sp; step = P.idhw; }
                else { src = (n * P.idhw + sp) * P.cin + cg * KG; step = 1; }
            }
            float v[KG];
#pragma unroll
            for (int k = 0; k < KG; ++k) v[k] = in ? _fc3d_tc_tof(x[src + k * step]) : 0.f;
            emit(i, v);
        }
    }
    return mx > 0 ? (unsigned)mx - 0x00800000u : 0u;
}

/* the weight [C_in][C_out/groups][kd][kh][kw] -> pieces [group][channel tile][channel block][tap]
   [BN/8][KC/KG][8][KG]: one tap's KC input channels x BN output channels in K-major core
   matrices, contiguous, rounded as the math mode's operands (3xTF32: each piece's big part, then
   its small part, f16 both, the weight scaled as _fc3d_hx_x3_scales says). TF32 on the f16 path:
   the weight's magnitude from _fc3d_hx_wmax's partials, into x3m[1] by the first thread (e0 0). */
template <typename T, int MATH, int BN, int KC>
static __device__ __forceinline__ void _fc3d_hx_prep_w_run(const _fc3d_tc_kparams& P, const T* __restrict__ w,
                                                           void* __restrict__ wp, unsigned* __restrict__ x3m,
                                                           const _fc3d_hx_pdiv& q, int64_t e0, int64_t st)
{
    typedef _fc3d_hx_cfg<MATH, BN, KC> C;
    constexpr bool BF = std::is_same<T, __nv_bfloat16>::value;
    const int64_t kt = (int64_t)P.k[0] * P.k[1] * P.k[2], ncb = P.cin_g / KC;
    const int64_t total = (int64_t)P.groups * P.ntn * ncb * kt * BN * KC;
    /* 3xTF32 and TF32 on the f16 path (P.hx_t32): the weight's scale */
    const bool t32 = MATH == _FC3D_TC_HALF && P.hx_t32;
    unsigned wm = 0u;
    if (t32) { /* (a warp: the partials 32 at a time) */
        const int l = (int)(threadIdx.x & 31);
#pragma unroll
        for (int j = 0; j < _FC3D_HX_WMAX_BLOCKS / 32; ++j) wm = max(wm, x3m[4 + l + 32 * j]);
        wm = _fc3d_warp_umax(wm);
        if (e0 == 0) x3m[1] = wm;
    } else if (_fc3d_hx_scaled(MATH, P)) {
        wm = x3m[1];
    }
    const float ws = _fc3d_hx_scaled(MATH, P) ? _fc3d_hx_x3_pow2(wm, 1) : 1.f;
    for (int64_t e = e0; e < total; e += st) {
        int64_t r = e;
        const int kk = (int)(r % C::KG); r /= C::KG;
        const int c8 = (int)(r % 8); r /= 8;
        const int kgi = (int)(r % C::NKG); r /= C::NKG;
        const int co8 = (int)(r % (BN / 8)); r /= BN / 8;
        int64_t tap, cb, nt, gi;
        if (q.fw) { /* (every index under 2^31: _fc3d_hx_pdiv) */
            const unsigned u = (unsigned)r, a = _fc3d_udiv_q(u, q.kt), b = _fc3d_udiv_q(a, q.ncb), c = _fc3d_udiv_q(b, q.ntn);
            tap = u - a * (unsigned)kt; cb = a - b * (unsigned)ncb; nt = b - c * (unsigned)P.ntn; gi = c;
        } else {
            tap = r % kt; r /= kt;
            cb = r % ncb; r /= ncb;
            nt = r % P.ntn; gi = r / P.ntn;
        }
        const int64_t ci = gi * P.cin_g + cb * KC + kgi * C::KG + kk, co = nt * BN + co8 * 8 + c8;
        float v = co < P.cout_g ? _fc3d_tc_tof(w[(ci * P.cout_g + co) * kt + tap]) : 0.f;
        if (t32) v = __uint_as_float(_fc3d_tc_round(v * ws)); /* (exact as an f16) */
        if (MATH == _FC3D_TC_HALF) {
            reinterpret_cast<unsigned short*>(wp)[e] =
                BF ? __bfloat16_as_ushort(__float2bfloat16_rn(v)) : __half_as_ushort(__float2half_rn(v));
        } else if (MATH == _FC3D_TC_3XTF32) {
            constexpr int64_t PE = (int64_t)BN * KC; /* a part's elements */
            const int64_t at = e / PE * 2 * PE + e % PE;
            const float sv = v * ws, big = __uint_as_float(_fc3d_tc_round(sv));
            reinterpret_cast<unsigned short*>(wp)[at] = __half_as_ushort(__float2half_rn(big));
            reinterpret_cast<unsigned short*>(wp)[at + PE] =
                __half_as_ushort(__float2half_rn(__uint_as_float(_fc3d_tc_round(sv - big))));
        } else {
            reinterpret_cast<uint32_t*>(wp)[e] = _fc3d_tc_round(v);
        }
    }
}

/* Tile t of a sample (class by class, phase by phase, tile by tile): its phase residues, extents,
   first virtual row, the d taps its rows can reach and the geometry of its units. */
typedef struct _fc3d_hx_tile {
    int r[3], Q[3];
    int64_t v0;
    int nv; /* the tile's virtual rows from v0 (fewer than _FC3D_HX_NR for plane-row tiles) */
    int jlo, nseg, T, offmin, R;
    int nt[3], t0[3], tstep[3], c0[3], cstep[3];
    /* per W phase of the warpgroups (row tiles: phase p for warpgroup p; else both the tile's
       phase): (h, w) taps, w taps nt, t0, tstep, c0, cstep, phase extent; T is the larger count */
    int wT[2], wnt[2], wt0[2], wts[2], wc0[2], wcs[2], wQ[2];
    int vrow0; /* row tiles: the first (qd, qh) row, qd * padded H + qh */
} _fc3d_hx_tile;
static __host__ __device__ inline void _fc3d_hx_span(const _fc3d_tc_kparams& P, _fc3d_hx_tile* h, int qd_lo, int qd_hi,
                                                     int np);
static __host__ __device__ inline _fc3d_hx_tile _fc3d_hx_tile_of(const _fc3d_tc_kparams& P, int64_t t, int skip0)
{
    _fc3d_hx_tile h;
    int c = 0;
    const int64_t* cstart = skip0 ? P.hx_zcls_start : P.hx_cls_start;
    while (c < 7 && t >= cstart[c + 1]) ++c;
    const int64_t local = t - cstart[c];
    const int64_t tpp = P.hx_cls_tpp[c] > 0 ? P.hx_cls_tpp[c] : 1;
    int ph = (int)(local / tpp);
    const int64_t HpWp = (int64_t)P.hx_pad[1] * P.hx_pad[2], tl = local - (int64_t)ph * tpp;
    if (P.hx_prows > 0) { /* plane-row tiles: hx_prows rows of plane qd (fewer in its last tile) */
        const int64_t tpl = P.hx_cls_tpl[c] > 0 ? P.hx_cls_tpl[c] : 1;
        const int qd = (int)(tl / tpl), rb = (int)(tl - qd * tpl), qh0 = rb * P.hx_prows;
        h.v0 = (int64_t)qd * HpWp + (int64_t)qh0 * P.hx_pad[2];
        h.nv = (P.hx_pad[1] - qh0 < P.hx_prows ? P.hx_pad[1] - qh0 : P.hx_prows) * P.hx_pad[2];
    } else {
        h.v0 = tl * _FC3D_HX_NR;
        h.nv = _FC3D_HX_NR;
    }
    if (skip0) { /* ph counts the class's tapped phases: per dim, the k-th tapped residue of its range */
        for (int d = 2; d >= 0; --d) {
            const unsigned m = (P.rtap[d] >> P.cls_base[c][d]) & ((1u << P.cls_cnt[c][d]) - 1u);
            int nd = 0;
            for (unsigned b = m; b; b >>= 1) nd += (int)(b & 1u);
            int k = ph % nd, r = 0;
            ph /= nd;
            while (((m >> r) & 1u) == 0u || k-- > 0) ++r;
            h.r[d] = P.cls_base[c][d] + r;
        }
    } else {
        const int cw = P.cls_cnt[c][2], ch = P.cls_cnt[c][1];
        h.r[2] = P.cls_base[c][2] + ph % cw; ph /= cw;
        h.r[1] = P.cls_base[c][1] + ph % ch;
        h.r[0] = P.cls_base[c][0] + ph / ch;
    }
    for (int d = 0; d < 3; ++d) { /* from the plan's table: the tile's prologue stays short */
        const int* e = P.hx_dt[d][h.r[d]];
        h.Q[d] = P.cls_q[c][d];
        h.nt[d] = e[0]; h.t0[d] = e[1]; h.tstep[d] = e[2]; h.c0[d] = e[3]; h.cstep[d] = e[4];
    }
    for (int p = 0; p < 2; ++p) {
        h.wnt[p] = h.nt[2]; h.wt0[p] = h.t0[2]; h.wts[p] = h.tstep[2]; h.wc0[p] = h.c0[2]; h.wcs[p] = h.cstep[2];
        h.wQ[p] = h.Q[2];
    }
    h.vrow0 = 0;
    _fc3d_hx_span(P, &h, (int)(h.v0 / HpWp), (int)((h.v0 + h.nv - 1) / HpWp), 1);
    return h;
}
static __host__ __device__ inline _fc3d_hx_tile _fc3d_hx_tile_of(const _fc3d_tc_kparams& P, int64_t t)
{
    return _fc3d_hx_tile_of(P, t, P.skip0);
}

/* The d taps a tile's rows (planes qd_lo..qd_hi) reach, its (h, w) tap counts and the rows of
   its units (the w taps of its np W phases together) */
static __host__ __device__ inline void _fc3d_hx_span(const _fc3d_tc_kparams& P, _fc3d_hx_tile* h, int qd_lo, int qd_hi,
                                                     int np)
{
    int jlo = h->nt[0], jhi = -1;
    for (int j = 0; j < h->nt[0]; ++j) {
        const int cd = h->c0[0] - j * h->cstep[0];
        if (qd_hi + cd >= 0 && qd_lo + cd <= P.in[0] - 1) { if (j < jlo) jlo = j; jhi = j; }
    }
    int cwmin = 1 << 30, cwmax = -(1 << 30);
    h->T = 0;
    for (int p = 0; p < 2; ++p) {
        h->wT[p] = p < np ? h->nt[1] * h->wnt[p] : 0;
        if (h->wT[p] > h->T) h->T = h->wT[p];
        if (h->wT[p] == 0) continue;
        if (h->wc0[p] > cwmax) cwmax = h->wc0[p];
        if (h->wc0[p] - (h->wnt[p] - 1) * h->wcs[p] < cwmin) cwmin = h->wc0[p] - (h->wnt[p] - 1) * h->wcs[p];
    }
    if (np == 1) h->wT[1] = h->wT[0];
    h->jlo = jlo;
    h->nseg = jhi >= jlo && h->T > 0 ? jhi - jlo + 1 : 0;
    if (h->T == 0) cwmin = cwmax = 0;
    const int chmin = h->c0[1] - (h->nt[1] - 1) * h->cstep[1];
    h->offmin = (chmin + P.hx_plo[1]) * P.hx_pad[2] + cwmin + P.hx_plo[2];
    h->R = _FC3D_HX_NR + (h->c0[1] - chmin) * P.hx_pad[2] + (cwmax - cwmin);
}

/* Row tile t of a sample (class by class, (rd, rh) pair by pair, tile by tile; _fc3d_hx_plan):
   hx_rpt rows of the padded plane from vrow0, both W phases (W stride 2) */
/* A row tile's fields from its (d, h) residues r0, r1, their extents q0, q1 and its first row:
   the rest are constants of the launch (the decode below, and a tile read from the table,
   _fc3d_hx_tile_at); the span's fields are left to the caller. */
static __host__ __device__ inline void _fc3d_hx_rtile_fill(const _fc3d_tc_kparams& P, _fc3d_hx_tile* h, int r0, int r1,
                                                           int q0, int q1, int vrow0)
{
    h->vrow0 = vrow0;
    h->v0 = (int64_t)vrow0 * P.hx_pad[2];
    h->nv = _FC3D_HX_NR; /* (the CM table drops the rows past the tile's) */
    h->r[0] = r0; h->r[1] = r1; h->r[2] = 0;
    h->Q[0] = q0; h->Q[1] = q1; h->Q[2] = (P.out[2] + 1) / 2;
    for (int d = 0; d < 3; ++d) {
        const int* e = P.hx_dt[d][h->r[d]];
        h->nt[d] = e[0]; h->t0[d] = e[1]; h->tstep[d] = e[2]; h->c0[d] = e[3]; h->cstep[d] = e[4];
    }
    for (int p = 0; p < 2; ++p) {
        const int* e = P.hx_dt[2][p];
        h->wnt[p] = e[0]; h->wt0[p] = e[1]; h->wts[p] = e[2]; h->wc0[p] = e[3]; h->wcs[p] = e[4];
        h->wQ[p] = (P.out[2] - p + 1) / 2;
    }
}
static __host__ __device__ inline _fc3d_hx_tile _fc3d_hx_rtile_of(const _fc3d_tc_kparams& P, int64_t t)
{
    _fc3d_hx_tile h;
    int c = 0;
    while (c < 3 && t >= P.hx_rcls_start[c + 1]) ++c;
    const int64_t local = t - P.hx_rcls_start[c];
    const int64_t tpp = P.hx_rcls_tpp[c] > 0 ? P.hx_rcls_tpp[c] : 1;
    const int c8 = c << 1; /* the (d, h) class with W inside the tile */
    /* 32-bit: the plan keeps a sample's row tiles x _FC3D_HX_NR below 2^31 (a 64-bit division was
       a fifth of the tile's prologue) */
    const int ph = (int)local / (int)tpp;
    _fc3d_hx_rtile_fill(P, &h, P.cls_base[c8][0] + ph / P.cls_cnt[c8][1], P.cls_base[c8][1] + ph % P.cls_cnt[c8][1],
                        P.cls_q[c8][0], P.cls_q[c8][1], ((int)local - ph * (int)tpp) * P.hx_rpt);
    _fc3d_hx_span(P, &h, h.vrow0 / P.hx_pad[1], (h.vrow0 + P.hx_rpt - 1) / P.hx_pad[1], 2);
    return h;
}

/* The decoded tiles of a run's haloed launches (engine workspace region 2, written by the prep
   step): a sample's phase tiles, then a zero-filling step's (its tapped phases only), then its row
   tiles (_fc3d_hx_rtab). A CTA reads its tile there instead of decoding it: the decode (loads at
   run-time indices from the parameters, 64-bit divisions, the span's loops, by every warp) took
   ~2,700 cycles of a CTA's start on L2/61 and L2/77 and ~1,650 on L2/34's row tiles, ~700 from the
   table (bench/hx_trace.cu; bench/RESULTS.md, twentieth entry). _fc3d_hx_tab_count: where the
   phase tiles' kinds start (k = 0, 1) and, for k = 2, how many they are. */
static __host__ __device__ inline int64_t _fc3d_hx_tab_count(const _fc3d_tc_kparams& P, int k)
{
    return (k > 0 ? P.hx_tiles : 0) + (k > 1 ? P.hx_zcls_start[8] : 0);
}
/* Row tiles (after the phase tiles, _FC3D_HX_RTAB_AT) keep only the fields their tile index
   decides; the rest, constants of the launch, are made from the parameters as the decode makes
   them, so that ptxas can rematerialise them rather than hold them (_fc3d_hx_tile_at). */
typedef struct _fc3d_hx_rtab {
    int r[2], Q[2], vrow0, jlo, nseg, T, wT[2], offmin, R;
} _fc3d_hx_rtab;
#define _FC3D_HX_RTAB_AT(P) (_fc3d_hx_tab_count(P, 2) * (int64_t)sizeof(_fc3d_hx_tile))
/* the row tiles the table holds (those of the plan's row passes) */
static __host__ __device__ inline int64_t _fc3d_hx_tab_rows(const _fc3d_tc_kparams& P)
{
    return P.hx_rows ? P.hx_rcls_start[4] : 0;
}
static __host__ __device__ inline int64_t _fc3d_hx_tab_bytes(const _fc3d_tc_kparams& P)
{
    return _FC3D_HX_RTAB_AT(P) + _fc3d_hx_tab_rows(P) * (int64_t)sizeof(_fc3d_hx_rtab);
}
static __device__ __forceinline__ void _fc3d_hx_prep_tab_run(const _fc3d_tc_kparams& P, _fc3d_hx_tile* __restrict__ tab,
                                                             int64_t i0, int64_t st)
{
    const int64_t a = _fc3d_hx_tab_count(P, 1), b = _fc3d_hx_tab_count(P, 2);
    const int64_t total = b + _fc3d_hx_tab_rows(P);
    _fc3d_hx_rtab* rt = reinterpret_cast<_fc3d_hx_rtab*>(reinterpret_cast<char*>(tab) + _FC3D_HX_RTAB_AT(P));
    for (int64_t i = i0; i < total; i += st) {
        if (i < b) {
            tab[i] = i < a ? _fc3d_hx_tile_of(P, i, 0) : _fc3d_hx_tile_of(P, i - a, 1);
            continue;
        }
        const _fc3d_hx_tile h = _fc3d_hx_rtile_of(P, i - b);
        _fc3d_hx_rtab e;
        e.r[0] = h.r[0]; e.r[1] = h.r[1]; e.Q[0] = h.Q[0]; e.Q[1] = h.Q[1];
        e.vrow0 = h.vrow0; e.jlo = h.jlo; e.nseg = h.nseg; e.T = h.T; e.wT[0] = h.wT[0]; e.wT[1] = h.wT[1];
        e.offmin = h.offmin; e.R = h.R;
        rt[i - b] = e;
    }
}
/* The haloed loop's prep step in one launch of 256-thread blocks: blocks 0 .. nbt - 1 decode the
   tiles into the table (nbt 0: no table), the next ones the operand copy of x, the last nbw the
   weight pieces. The table's decoding is latency-bound (a few threads, long integer arithmetic) and
   the pieces small; as three launches they ran one after the other before the copy (L1/77 under
   ncu: 8.4, 4.4 and 37.1 us), in one launch they run beside it (bench/RESULTS.md). The copy takes 32
   registers alone, the decoding 40: held to 32 (eight blocks an SM; the decoding's few threads then
   keep 48 bytes on the stack), for the copy's occupancy (at 44, five blocks an SM, L2/61's copy
   ran 126 -> 138 us under ncu). x3m: the scale words (_fc3d_hx_x3_scales): 3xTF32's two
   magnitudes, found before; TF32 on the f16 path: the weight's partials found before, x's
   magnitude found here (_fc3d_hx_x_as_is). A programmatic dependent of the launch before it: TF32
   on the f16 path, that launch is _fc3d_hx_wmax, which touches none of the table, the copy or x
   (a usual launch, everything before it done), so only the weight's blocks wait for it first and
   the copy's blocks before their atomic on x's word (wmax zeroes it); otherwise every block
   waits first. */
/* where the prep's weight blocks go among the copy's: 0 first, 1 last, 2 after the copy's first
   _FC3D_HX_PREP_WLAG blocks (about a wave of them, by which time _fc3d_hx_wmax is done) */
#ifndef _FC3D_HX_PREP_WAT
#define _FC3D_HX_PREP_WAT 1
#endif
#ifndef _FC3D_HX_PREP_WLAG
#define _FC3D_HX_PREP_WLAG 1024
#endif
/* 1: the haloed phase-tile and row-tile kernels launched as programmatic dependents of the prep
   step (the warp-specialized row tiles never: _fc3d_hx_run::conv_rows_as) */
#ifndef _FC3D_HX_PDL_CONV
#define _FC3D_HX_PDL_CONV 1
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define _FC3D_HX_PREP_MINB 8
#else
#define _FC3D_HX_PREP_MINB 4 /* (off sm_90a the kernel traps; a bound every architecture's threads an SM allow) */
#endif
template <typename T, int MATH, int BN, int KC>
static __global__ void __launch_bounds__(256, _FC3D_HX_PREP_MINB) _fc3d_hx_prep(_fc3d_tc_kparams P, const T* __restrict__ x,
                                                            const T* __restrict__ w, void* __restrict__ xp,
                                                            void* __restrict__ wp, _fc3d_hx_tile* __restrict__ tab,
                                                            unsigned* __restrict__ x3m, _fc3d_hx_pdiv q, unsigned nbt,
                                                            unsigned nbw)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap(); /* sm_90a code only (TF32 rounding needs sm_80); the run launches it only there */
#else
    /* blocks: the table's nbt, then the copy's nbx with the weight's nbw after the first nx1 of
       them (TF32 on the f16 path the weight's wait for _fc3d_hx_wmax: _FC3D_HX_PREP_WAT) */
    const unsigned bk = blockIdx.x, nbx = gridDim.x - nbt - nbw;
    const unsigned nx1 = _FC3D_HX_PREP_WAT == 0   ? 0u
                         : _FC3D_HX_PREP_WAT == 1 ? nbx
                                                  : (nbx < _FC3D_HX_PREP_WLAG ? nbx : (unsigned)_FC3D_HX_PREP_WLAG);
    const bool isw = bk >= nbt + nx1 && bk < nbt + nx1 + nbw;
    const unsigned xr = bk < nbt + nx1 ? bk - nbt : bk - nbt - nbw; /* (a block of the copy: its rank) */
    const bool t32 = MATH == _FC3D_TC_HALF && P.hx_t32;
    _fc3d_pdl_launch();
    if (!t32 || isw) _fc3d_pdl_wait();
    if (bk < nbt)
        _fc3d_hx_prep_tab_run(P, tab, (int64_t)bk * blockDim.x + threadIdx.x, (int64_t)nbt * blockDim.x);
    else if (isw)
        _fc3d_hx_prep_w_run<T, MATH, BN, KC>(P, w, wp, x3m, q, (int64_t)(bk - nbt - nx1) * blockDim.x + threadIdx.x,
                                             (int64_t)nbw * blockDim.x);
    else if (t32) { /* x as it is, its magnitude found (_fc3d_hx_x_as_is) */
        unsigned mx = _fc3d_hx_prep_x_run<T, MATH>(P, x, xp, 1.f, q, (int64_t)xr * blockDim.x + threadIdx.x,
                                                   (int64_t)nbx * blockDim.x),
                 z = 0u;
        _fc3d_hx_block_max2(mx, z);
        _fc3d_pdl_wait(); /* (x's word zeroed by _fc3d_hx_wmax) */
        if (threadIdx.x == 0 && mx) atomicMax(x3m, mx);
    } else {
        _fc3d_hx_prep_x_run<T, MATH>(P, x, xp, _fc3d_hx_scaled(MATH, P) ? _fc3d_hx_x3_pow2(x3m[0], 1) : 1.f, q,
                                     (int64_t)xr * blockDim.x + threadIdx.x, (int64_t)nbx * blockDim.x);
    }
#endif
}
/* TF32 on the f16 path: the operand copy of x made again at x's scale where x's magnitude lies
   outside the range held as it is (_fc3d_hx_x_as_is; every block returns at once where it lies
   inside) */
template <typename T>
static __global__ void __launch_bounds__(256, _FC3D_HX_PREP_MINB) _fc3d_hx_xfix(_fc3d_tc_kparams P, const T* __restrict__ x,
                                                                                void* __restrict__ xp,
                                                                                const unsigned* __restrict__ x3m,
                                                                                _fc3d_hx_pdiv q)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap(); /* sm_90a code only, as _fc3d_hx_prep */
#else
    _fc3d_pdl_enter();
    const unsigned mx = x3m[0];
    if (_fc3d_hx_x_as_is(mx)) return;
    _fc3d_hx_prep_x_run<T, _FC3D_TC_HALF>(P, x, xp, _fc3d_hx_x3_pow2(mx, 1), q, (int64_t)blockIdx.x * blockDim.x + threadIdx.x,
                                          (int64_t)gridDim.x * blockDim.x);
#endif
}
/* a CTA's tile t: from the table where the launch has one */
template <bool ROWS>
static __device__ __forceinline__ _fc3d_hx_tile _fc3d_hx_tile_at(const _fc3d_tc_kparams& P, int64_t t)
{
    if (!ROWS) return P.hx_tab ? reinterpret_cast<const _fc3d_hx_tile*>(P.hx_tab)[t] : _fc3d_hx_tile_of(P, t);
    if (!P.hx_tab) return _fc3d_hx_rtile_of(P, t);
    const _fc3d_hx_rtab e = reinterpret_cast<const _fc3d_hx_rtab*>(P.hx_tab)[t];
    _fc3d_hx_tile h;
    _fc3d_hx_rtile_fill(P, &h, e.r[0], e.r[1], e.Q[0], e.Q[1], e.vrow0);
    h.wT[0] = e.wT[0]; h.wT[1] = e.wT[1];
    h.jlo = e.jlo; h.nseg = e.nseg; h.T = e.T; h.offmin = e.offmin; h.R = e.R;
    return h;
}

/* The tile order of the haloed loop for wgmmas of rn rows and, for plane-row tiles, prows rows qh
   of the padded plane a tile (0: runs of _FC3D_HX_NR virtual rows, which cross planes): hx_rn,
   hx_prows, hx_cls_tpl, hx_cls_tpp, hx_cls_start, hx_tiles. Returns what the tiles issue, in MMA
   rows x K steps of a sample (sum over tiles of d taps x (h, w) taps x rn; past 65536 tiles every
   k-th tile, scaled): the planner keeps the least. Runs of 256 rows pay for the padded plane's
   rows past Q1 (qh >= Q1, every row of them dropped) and, in a tile that crosses two planes, for
   the d taps of both; a plane-row tile holds whole rows of one plane, its last rows short. L2/77
   with a halo of its own per row (padded W 40, Q1 36) took 6 rows of 40 at n240, 10 % fewer MMA rows
   and no tile across planes; with the shared halo (padded 36 x 36) the runs drop no row and win. */
#ifndef _FC3D_HX_PLANE_ROWS
#define _FC3D_HX_PLANE_ROWS 1 /* 0: runs of 256 virtual rows only */
#endif
#ifndef _FC3D_HX_SHARED_HALO
#define _FC3D_HX_SHARED_HALO 1 /* 0: every padded row and plane with zeros of its own on both sides */
#endif
#define _FC3D_HX_PLANE_GAIN 0.02 /* plane-row tiles only where they issue 2 % fewer MMA rows or more */
static double _fc3d_hx_tiling(_fc3d_tc_kparams* P, int rn, int prows)
{
    const int64_t HpWp = (int64_t)P->hx_pad[1] * P->hx_pad[2];
    int64_t start = 0;
    P->hx_rn = rn;
    P->hx_prows = prows;
    for (int c = 0; c < 8; ++c) {
        P->hx_cls_start[c] = start;
        P->hx_cls_tpp[c] = P->hx_cls_tpl[c] = 0;
        if (P->cls_tpp[c] == 0) continue; /* an empty class */
        if (prows > 0) {
            P->hx_cls_tpl[c] = (P->cls_q[c][1] + prows - 1) / prows;
            P->hx_cls_tpp[c] = (int64_t)P->cls_q[c][0] * P->hx_cls_tpl[c];
        } else {
            P->hx_cls_tpp[c] = ((int64_t)P->cls_q[c][0] * HpWp + _FC3D_HX_NR - 1) / _FC3D_HX_NR;
        }
        start += P->hx_cls_tpp[c] * P->cls_nres[c];
    }
    P->hx_cls_start[8] = start;
    P->hx_tiles = start;
    const int64_t step = start > 65536 ? start / 65536 : 1;
    double rows = 0.0;
    int64_t seen = 0;
    for (int64_t t = 0; t < start; t += step, ++seen) {
        const _fc3d_hx_tile h = _fc3d_hx_tile_of(*P, t);
        rows += (double)h.nseg * h.T * rn;
    }
    return seen ? rows * (double)start / (double)seen : 0.0;
}

/* The MMA FLOPs a haloed convolving step issues (plan.exec_flops): every tile's d taps x (h, w)
   taps x C_in / groups x its MMA rows x its output channels, x 2 (x 3 more for 3xTF32): haloed tiles at hx_rn rows and
   hx_bn channels (rows past the phase and taps into the padding included), row tiles at hx_rrn
   rows and 64 channels of each W phase (a phase with fewer taps multiplying the zero piece). */
static double _fc3d_hx_issued_flops(const _fc3d_tc_plan* tp, int row)
{
    _fc3d_tc_kparams P = tp->kp; /* (_fc3d_hx_tiling rewrites the tile order it recounts) */
    double mr = 0.0;
    if (!row) {
        mr = _fc3d_hx_tiling(&P, P.hx_rn, P.hx_prows) * (double)tp->hx_bn;
    } else {
        const int64_t tiles = P.hx_rcls_start[4], step = tiles > 65536 ? tiles / 65536 : 1;
        int64_t seen = 0;
        for (int64_t t = 0; t < tiles; t += step, ++seen) {
            const _fc3d_hx_tile h = _fc3d_hx_rtile_of(P, t);
            mr += (double)h.nseg * h.T * P.hx_rrn * 128.0;
        }
        if (seen) mr *= (double)tiles / (double)seen;
    }
    return 2.0 * mr * (double)P.cin_g * (double)P.groups * (double)tp->hx_ntn * (double)P.n *
           (_fc3d_hx_math(tp) == _FC3D_TC_3XTF32 ? 3.0 : 1.0); /* (3xTF32: three products a step, f16 wgmmas) */
}

/* Shared memory of the haloed kernel (math its mode, whose operand bytes _fc3d_hx_sb gives; kc
   channels a unit, bn output channels a tile or, for row tiles, 64 a W phase): the rings, the epilogue's staging over them, then the
   barriers (128 B), the tap table (the row offset in the unit of each (h, w) tap, one table per
   W phase of row tiles) and, for row tiles, the staged place of each of the 256 rows of each W
   phase (in the order a lane stores them, _FC3D_HX_CMS) and a zero weight piece (the MMAs of a W
   phase with fewer taps than the other). body: where
   the barriers start. */
static __host__ __device__ inline size_t _fc3d_hx_body(const _fc3d_tc_kparams& P, int math, int kc, int bn, int rows,
                                                     int nb = _FC3D_HX_NB)
{
    const int eb = _fc3d_hx_sb(math);
    const size_t nkg = (size_t)kc * eb / 16;
    if (rows) {
        const size_t ring = _FC3D_HX_NA * nkg * P.hx_rrmax * 16 + (size_t)nb * 128 * kc * eb;
        const size_t stg = (size_t)64 * ((size_t)P.hx_rpt * P.out[2] + 32) * 4;
        return ring > stg ? ring : stg;
    }
    const size_t ring = _FC3D_HX_NA * nkg * P.hx_rmax * 16 + (size_t)nb * bn * kc * eb;
    /* the staging, and the NDHWC statistics' double pairs per consumer warp and channel */
    const size_t stg = (size_t)bn * (_FC3D_HX_NR + 4) * 4 + (size_t)4 * _fc3d_hx_nwg(math, bn) * bn * 16;
    return ring > stg ? ring : stg;
}
static __host__ __device__ inline size_t _fc3d_hx_smem(const _fc3d_tc_kparams& P, int math, int kc, int bn, int rows,
                                                     int nb = _FC3D_HX_NB)
{
    return _fc3d_hx_body(P, math, kc, bn, rows, nb) + 128 +
           (rows ? 8 * _FC3D_HX_TT + 32 * _FC3D_HX_CMS + (size_t)64 * kc * _fc3d_hx_sb(math) : 4 * _FC3D_HX_TT);
}

/* Warp-specialized row tiles (_fc3d_hx_rows_ws): a persistent CTA of four warpgroups - two
   consumer warpgroups (the MMAs, one W phase each, then the tile's staging), the producer's (one
   lane issues the copies) and an epilogue warpgroup that writes the staged rows out while the
   consumers run the next tile's MMAs. Its shared memory keeps the staging apart from the rings:
   [units NA][weight slots _FC3D_HX_WS_NB][staging][barriers _FC3D_HX_WS_BARB][the staging table]
   [a LayerNorm's W-affine, 1 KB][a zero weight piece where the W phases' tap counts differ]. The
   registers are split by setmaxnreg from the launch's 128 a thread: producer _FC3D_HX_WS_PREG,
   consumers _FC3D_HX_WS_CREG, epilogue the rest of the SM's 65536. */
#ifndef _FC3D_HX_WS
#define _FC3D_HX_WS 1 /* 0: row tiles on _fc3d_hx_main only (measurement) */
#endif
#ifndef _FC3D_HX_WS_NB
#define _FC3D_HX_WS_NB 4 /* weight slots at most (as many as the shared memory holds, 2 at least) */
#endif
/* the barriers' bytes: full and empty of each slot, the staging's two */
#define _FC3D_HX_WS_BARB ((8 * (2 * (_FC3D_HX_NA + _FC3D_HX_WS_NB) + 2) + 127) / 128 * 128)
#ifndef _FC3D_HX_WS_CREG
#define _FC3D_HX_WS_CREG 176 /* registers of a consumer thread */
#endif
#define _FC3D_HX_WS_PREG 24
#ifndef _FC3D_HX_WS_SPLIT
#define _FC3D_HX_WS_SPLIT 0 /* iterations of 8 rows a consumer warp takes of the row program (_fc3d_hx_ws_split) */
#endif
#define _FC3D_HX_WS_EREG (512 - _FC3D_HX_WS_PREG - 2 * _FC3D_HX_WS_CREG)
/* The staging of the warp-specialized row tiles, per channel the tile's rows one after the other
   (channel stride CS floats), in one of two layouts (kind: _fc3d_hx_ws_kind):
   - the copy (kind 1): a row in W order, column ow at ow ^ _fc3d_row_swz(c) (the consumers' 4-byte
     stores, _fc3d_hx_acc_stage; the copy loop reads whole quads);
   - the row program (kind 2, CS = 8 mod 32): a row its W phase 0's W / 2 positions, then phase
     1's; in each phase half the position pairs (2 P, 2 P + 1) lie at pair P ^ _fc3d_hx_ws_xr(row).
     A consumer's 8-byte stores (_fc3d_hx_acc_stage: four channels of a half-warp, four
     neighbouring pairs each) hit 32 banks, and so do the row program's 8-byte loads, one pair of
     each phase for a quad (four rows of one channel in a half-warp, four pairs each).
   The copy keeps the first: with the pairs its quads took two 8-byte loads each, and L2/34's
   convolution alone ran 0.470 -> 0.488 ms (H200, bench/RESULTS.md fortieth entry). */
static __host__ __device__ inline int _fc3d_hx_ws_cs(const _fc3d_tc_kparams& P, int kind)
{
    const int RS = P.hx_rpt * P.out[2];
    if (kind == 2) return RS + ((8 - RS) & 31);
    int L = 1;
    while (L * _FC3D_TC_ROW_EPL < P.out[2]) L <<= 1;
    return _fc3d_row_cs(RS, L, P.out[2]);
}
/* the pair swizzle of staged row rr (W = wout: the bits 2 .. of a pair index below W / 4) */
static __host__ __device__ inline int _fc3d_hx_ws_xr(int rr, int wout) { return (4 * rr) & ((wout >> 2) - 1) & ~3; }
static __host__ __device__ inline size_t _fc3d_hx_ws_stg(const _fc3d_tc_kparams& P)
{
    const int a = _fc3d_hx_ws_cs(P, 1), b = _fc3d_hx_ws_cs(P, 2);
    return (size_t)64 * (a > b ? a : b) * 4;
}
/* shared memory with nb weight slots */
static __host__ __device__ inline size_t _fc3d_hx_ws_smem_nb(const _fc3d_tc_kparams& P, int eb, int kc, int nb)
{
    const size_t nkg = (size_t)kc * eb / 16;
    const bool z = P.hx_dt[2][0][0] != P.hx_dt[2][1][0];
    return _FC3D_HX_NA * nkg * P.hx_rrmax * 16 + (size_t)nb * 128 * kc * eb + _fc3d_hx_ws_stg(P) + _FC3D_HX_WS_BARB +
           32 * _FC3D_HX_CMS + 2 * 128 * 4 + (z ? (size_t)64 * kc * eb : 0);
}
/* the weight slots the kernel takes (0: it does not fit) */
static __host__ __device__ inline int _fc3d_hx_ws_nb(const _fc3d_tc_kparams& P, int eb, int kc)
{
    for (int nb = _FC3D_HX_WS_NB; nb >= 2; --nb)
        if (_fc3d_hx_ws_smem_nb(P, eb, kc, nb) <= 227 * 1024) return nb;
    return 0;
}

/* The per-dim residue table of the haloed and block loops (hx_dt: taps nt, t0, tstep, c0, cstep per
   residue); 0 where a stride is past its 8 residues. */
static int _fc3d_tc_fill_dt(_fc3d_tc_kparams* P)
{
    for (int d = 0; d < 3; ++d) {
        if (P->s[d] > 8) return 0;
        for (int r = 0; r < 8; ++r) {
            int* e = P->hx_dt[d][r];
            e[0] = e[1] = e[3] = 0; e[2] = e[4] = 1;
            if (r < P->s[d]) _fc3d_tc_dim_taps(r, P->k[d], P->s[d], P->p[d], P->dl[d], &e[0], &e[1], &e[3], &e[2], &e[4]);
        }
    }
    return 1;
}

/* Where a zero-filling step (_fc3d_tc_zero_fill) needs no fill on the haloed loop. Each dim has
   stride 1, or stride 2 with one residue that has taps and at least 2 outputs: every tapped output
   position then has its tap-less neighbour along each such dim on the one side the pairs (2q, 2q +
   1) give, and the last position of the dim, where no pair covers it, belongs to the last q. A
   plane-row tile (whole rows qh of one plane qd) of the one tapped phase then owns a block of y
   per channel that no other tile touches: planes s0 qd .. s0 qd + s0 - 1, rows s1 qa .. s1 qb - 1
   (its rows qa .. qb - 1), every W position, and the dims' last planes and rows with its last q;
   it stores all of it (_fc3d_hx_main's zero-completing epilogue), its tapped values and zeros
   between them, row after row in whole sectors, and every position of y is stored once. L1/77
   (stride and dilation 2, odd positions tapped) moved 571 MB of zeros through a cudaMemsetAsync
   and then wrote its 65 MB of values as half sectors that DRAM completed by reading them back
   (bench/RESULTS.md). dims: the condition on the dims and the layout (NCDHW); geom: on the
   haloed plan (plane-row tiles). */
static __host__ __device__ inline int _fc3d_hx_zc_dims(const _fc3d_tc_kparams& P)
{
    if (P.layout != 1) return 0;
    for (int d = 0; d < 3; ++d) {
        if (P.s[d] == 1) continue;
        const unsigned m = P.rtap[d] & 3u;
        if (P.s[d] != 2 || P.out[d] < 2 || (m != 1u && m != 2u)) return 0;
    }
    return 1;
}
static __host__ __device__ inline int _fc3d_hx_zc_geom(const _fc3d_tc_kparams& P)
{
    return P.hx_ok && P.hx_prows > 0 && _fc3d_hx_zc_dims(P);
}

/* The haloed geometry of a plan (kp's classes set): 0 where the loop cannot take it. *macs: the
   products an output sums, on average (taps x C_in / groups). rows: the row tiles too (their
   (d, h) classes; W stride 2 and the output W of whole-row tiles, the plan's row_ok). max_tiles:
   the most tiles a sample's plane-row tiling may have (the statistics slots; 0: the runs'). zc:
   the plan zero-fills its tap-less phases, so plane-row tiles are taken where the geometry lets
   its tiles store their blocks whole (_fc3d_hx_zc_dims), whatever MMA rows they issue. */
/* Whether 3xTF32 may take the haloed row tiles: their consumers hold one m64n256 accumulator a
   thread (128 registers), no room for the phase tiles' chunk accumulator, so every product of an
   output goes through the tensor core's truncating accumulation; the plan takes them where an
   output sums at most _FC3D_HX_X3_ROWK products (in_channels / groups x the most taps of a phase).
   Chunks of 8 (h, w) taps x 32 channels (K = 256) measured 1.0e-6 to 1.7e-6 rel-L2 against the
   direct engine where 4-tap chunks gave 0.7e-6 to 1.5e-6 (bench/RESULTS.md, twenty-sixth entry;
   the bound is 1e-5). */
#ifndef _FC3D_HX_X3_ROWK
#define _FC3D_HX_X3_ROWK 512
#endif
/* A phase's K at most: C_in / groups x the taps of its fullest phase (per dim, the residue with
   the most taps: all k of them where the dilation is a multiple of the stride). */
static int64_t _fc3d_hx_max_k(const _fc3d_tc_kparams& P)
{
    int64_t k = P.cin_g;
    for (int d = 0; d < 3; ++d) {
        int most = 0;
        for (int r = 0; r < P.s[d]; ++r) {
            int nt, t0, c0, ts, cs;
            _fc3d_tc_dim_taps(r, P.k[d], P.s[d], P.p[d], P.dl[d], &nt, &t0, &c0, &ts, &cs);
            if (nt > most) most = nt;
        }
        k *= most;
    }
    return k;
}
static int _fc3d_hx_x3_rows(const _fc3d_tc_kparams& P) { return _fc3d_hx_max_k(P) <= _FC3D_HX_X3_ROWK; }
static int _fc3d_hx_plan(_fc3d_tc_kparams* P, int math, int bn, double* macs, int rows, int64_t max_tiles, int zc)
{
    double taps = 0.0;
    P->hx_ok = 0;
    *macs = 0.0;
    if ((math == _FC3D_TC_3XTF32 && rows && !_fc3d_hx_x3_rows(*P)) || P->cin_g % 32 != 0) return 0;
    /* 3xTF32: units of _FC3D_HX_X3_KC channels (both parts of the units and the weight pieces in the rings) */
    P->hx_kc = math == _FC3D_TC_3XTF32 ? _FC3D_HX_X3_KC : math == _FC3D_TC_HALF && P->cin_g % 64 == 0 ? 64 : 32;
    if (!_fc3d_tc_fill_dt(P)) return 0;
    int plo[3] = {0, 0, 0}, phi[3] = {0, 0, 0}, qc[3] = {0, 0, 0};
    for (int d = 0; d < 3; ++d)
        for (int r = 0; r < P->s[d] && r < P->out[d]; ++r) {
            int nt, t0, c0, ts, cs;
            _fc3d_tc_dim_taps(r, P->k[d], P->s[d], P->p[d], P->dl[d], &nt, &t0, &c0, &ts, &cs);
            if (nt == 0) continue;
            const int Q = (P->out[d] - r + P->s[d] - 1) / P->s[d];
            const int cmin = c0 - (nt - 1) * cs;
            if (-cmin > plo[d]) plo[d] = -cmin;
            if (Q - 1 + c0 - (P->in[d] - 1) > phi[d]) phi[d] = Q - 1 + c0 - (P->in[d] - 1);
            if (Q + c0 > qc[d]) qc[d] = Q + c0;
        }
    int64_t pad[3];
    for (int d = 0; d < 3; ++d) {
        pad[d] = (int64_t)plo[d] + P->in[d] + phi[d];
        /* shared halo (H and W): a row (plane) needs no zeros of its own past the input where
           the next one's leading zeros serve: position q's tap at offset c reads padded index
           q + c + plo, which past the row's end lands in the next row's first plo (zero)
           columns while it stays below pad + plo, i.e. while pad >= q + c + 1 for every output
           q < Q and offset c <= c0: pad = max(plo + in, Q + c0). L2/77: padded rows of 36 for
           36 outputs (40 without), L2/61 34 for 34 (36): every virtual row an output. */
        if (_FC3D_HX_SHARED_HALO && d > 0)
            pad[d] = (int64_t)plo[d] + P->in[d] > qc[d] ? (int64_t)plo[d] + P->in[d] : qc[d];
        /* every phase's rows fit the padded plane (tap-less phases included) */
        for (int r = 0; r < P->s[d] && r < P->out[d]; ++r)
            if ((P->out[d] - r + P->s[d] - 1) / P->s[d] > pad[d]) pad[d] = (P->out[d] - r + P->s[d] - 1) / P->s[d];
        /* row tiles at W stride 2: an even padded row, so that a consumer's two neighbouring sums
           (positions 2 i, 2 i + 1 of its MMA rows) are one W position apart in one output row and
           go to the staging as one 8-byte store (_fc3d_hx_acc_stage; L2/34: 33 -> 34) */
        if (rows && d == 2 && P->s[2] == 2 && (pad[d] & 1)) ++pad[d];
        if (pad[d] > (1 << 20)) return 0;
        P->hx_plo[d] = plo[d];
        P->hx_pad[d] = (int)pad[d];
    }
    const int64_t HpWp = pad[1] * pad[2];
    P->hx_ps = (pad[0] + 1) * HpWp + 2 * _FC3D_HX_NR;
    int rmax = 0;
    for (int c = 0; c < 8; ++c) {
        if (P->cls_tpp[c] == 0) continue; /* an empty class (cls_nres holds 1 there) */
        /* the classes' phases share per-dim residue classes, not taps: take every residue */
        for (int ph = 0; ph < P->cls_nres[c]; ++ph) {
            int rr[3], q = ph;
            rr[2] = P->cls_base[c][2] + q % P->cls_cnt[c][2]; q /= P->cls_cnt[c][2];
            rr[1] = P->cls_base[c][1] + q % P->cls_cnt[c][1];
            rr[0] = P->cls_base[c][0] + q / P->cls_cnt[c][1];
            int nt[3], t0, c0[3], ts, cs[3];
            for (int d = 0; d < 3; ++d) _fc3d_tc_dim_taps(rr[d], P->k[d], P->s[d], P->p[d], P->dl[d], &nt[d], &t0, &c0[d], &ts, &cs[d]);
            taps += (double)P->cls_q[c][0] * P->cls_q[c][1] * P->cls_q[c][2] * nt[0] * nt[1] * nt[2];
            if (nt[1] * nt[2] > _FC3D_HX_TT) return 0;
            if (nt[1] * nt[2] == 0) continue;
            const int R = _FC3D_HX_NR + (nt[1] - 1) * cs[1] * (int)pad[2] + (nt[2] - 1) * cs[2];
            if (R > rmax) rmax = R;
        }
    }
    /* the tiling: runs of 256 virtual rows, or plane-row tiles where they issue fewer MMA rows
       (and are no more tiles than max_tiles, the tiled loops' tiles that size the statistics
       slots; 0: no more than the runs) */
    const double cost = _fc3d_hx_tiling(P, _FC3D_HX_NR, 0);
    const int64_t start = P->hx_tiles;
    if (start * _FC3D_HX_NR + HpWp > 0x7fffffffLL) return 0; /* a sample's virtual rows in 32 bits */
    int best_rn = _FC3D_HX_NR, best_pr = 0;
    /* (zc: a chain with no statistics, whose tiles' count sizes no slots) */
    const bool zcp = zc && !rows && _fc3d_hx_zc_dims(*P);
    double best = zcp ? HUGE_VAL : cost * (1.0 - _FC3D_HX_PLANE_GAIN);
    for (int rn = _FC3D_HX_NR; _FC3D_HX_PLANE_ROWS && rn >= 240; rn -= 16) {
        const int pr = rn / P->hx_pad[2];
        if (pr < 1) continue;
        const double c2 = _fc3d_hx_tiling(P, rn, pr);
        if (c2 < best && (zcp || P->hx_tiles <= (max_tiles > 0 ? max_tiles : start))) { best = c2; best_rn = rn; best_pr = pr; }
    }
    _fc3d_hx_tiling(P, best_rn, best_pr);
    /* a step that zero-fills y launches the tapped phases' tiles only (_fc3d_hx_tile_of) */
    int64_t zs = 0;
    for (int c = 0; c < 8; ++c) {
        P->hx_zcls_start[c] = zs;
        if (P->cls_tpp[c] == 0) continue;
        int64_t nph = 1;
        for (int d = 0; d < 3; ++d) {
            int k = 0;
            for (int r = P->cls_base[c][d]; r < P->cls_base[c][d] + P->cls_cnt[c][d]; ++r) k += (P->rtap[d] >> r) & 1u;
            nph *= k;
        }
        zs += P->hx_cls_tpp[c] * nph;
    }
    P->hx_zcls_start[8] = zs;
    P->hx_rmax = rmax;
    if (_fc3d_hx_smem(*P, math, P->hx_kc, bn, 0) > 227 * 1024 || rmax > 16383) return 0;
    if ((int64_t)P->out[0] * P->out[1] * P->out[2] > 0x7fffffffLL) return 0; /* an (n, c) slab's offsets too */
    P->hx_rows = 0;
    if (rows) {
        /* row tiles: rpt whole rows of the padded plane (a row's two W phases in one tile), so
           every output row of a tile is complete; tiles run over the (qd, qh) rows of a (rd, rh)
           pair up to its last output row */
        if (P->s[2] != 2 || !P->row_ok || P->hx_pad[2] > _FC3D_HX_NR) return 0;
        const int rpt = _FC3D_HX_NR / P->hx_pad[2];
        int64_t rstart = 0;
        int rrmax = 0;
        P->hx_rpt = rpt;
        /* the wgmma's N: n240 where the tile's rows fit it (L2/34: 7 rows of 33, 231), 6 % fewer MMA rows */
        P->hx_rrn = _FC3D_HX_PLANE_ROWS && rpt * P->hx_pad[2] <= 240 ? 240 : _FC3D_HX_NR;
        for (int c = 0; c < 4; ++c) {
            const int c8 = c << 1, Q0 = P->cls_q[c8][0], Q1 = P->cls_q[c8][1];
            const int64_t nres = (int64_t)P->cls_cnt[c8][0] * P->cls_cnt[c8][1];
            P->hx_rcls_start[c] = rstart;
            P->hx_rcls_tpp[c] = 0;
            if (nres <= 0 || Q0 <= 0 || Q1 <= 0) continue;
            const int64_t tpp = ((int64_t)(Q0 - 1) * P->hx_pad[1] + Q1 + rpt - 1) / rpt;
            P->hx_rcls_tpp[c] = tpp;
            rstart += tpp * nres;
        }
        P->hx_rcls_start[4] = rstart;
        for (int c = 0; c < 4; ++c) /* the units of each pair's first tile (a pair's tiles share them) */
            for (int64_t ph = 0; P->hx_rcls_tpp[c] > 0 && ph < (int64_t)P->cls_cnt[c << 1][0] * P->cls_cnt[c << 1][1]; ++ph) {
                const _fc3d_hx_tile h = _fc3d_hx_rtile_of(*P, P->hx_rcls_start[c] + ph * P->hx_rcls_tpp[c]);
                if (h.T > _FC3D_HX_TT) return 0;
                if (h.T > 0 && h.R > rrmax) rrmax = h.R;
            }
        P->hx_rrmax = rrmax;
        if (rstart <= 0 || rrmax > 16383 || _fc3d_hx_smem(*P, math, P->hx_kc, 64, 1) > 227 * 1024) return 0;
        if (rstart * _FC3D_HX_NR + HpWp > 0x7fffffffLL) return 0;
        P->hx_rows = 1;
    }
    *macs = taps * (double)P->cin_g / (double)P->odhw;
    P->hx_ok = 1;
    return 1;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* wgmma with both operands in shared memory (A K-major: the weight piece; B K-major: the rows) */
#define _FC3D_HX_L16 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15"
#define _FC3D_HX_L32 _FC3D_HX_L16 ",%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define _FC3D_HX_L64 _FC3D_HX_L32 ",%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
                                  "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define _FC3D_HX_L128 _FC3D_HX_L64 ",%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81," \
    "%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105," \
    "%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
#define _FC3D_HX_O4(b) "+f"(d[(b)]), "+f"(d[(b) + 1]), "+f"(d[(b) + 2]), "+f"(d[(b) + 3])
#define _FC3D_HX_O16(b) _FC3D_HX_O4(b), _FC3D_HX_O4((b) + 4), _FC3D_HX_O4((b) + 8), _FC3D_HX_O4((b) + 12)
#define _FC3D_HX_O32(b) _FC3D_HX_O16(b), _FC3D_HX_O16((b) + 16)
#define _FC3D_HX_O128 _FC3D_HX_O32(0), _FC3D_HX_O32(32), _FC3D_HX_O32(64), _FC3D_HX_O32(96)
/* n240 (plane-row tiles, hx_rn 240): the first 120 accumulators */
#define _FC3D_HX_L120 _FC3D_HX_L64 ",%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81," \
    "%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105," \
    "%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119"
#define _FC3D_HX_O120 _FC3D_HX_O32(0), _FC3D_HX_O32(32), _FC3D_HX_O32(64), _FC3D_HX_O16(96), _FC3D_HX_O4(112), \
    _FC3D_HX_O4(116)
#define _FC3D_HX_L60 _FC3D_HX_L32 ",%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47," \
                                  "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59"
#define _FC3D_HX_O64 _FC3D_HX_O32(0), _FC3D_HX_O32(32)
#define _FC3D_HX_O60 _FC3D_HX_O32(0), _FC3D_HX_O16(32), _FC3D_HX_O4(48), _FC3D_HX_O4(52), _FC3D_HX_O4(56)
/* one wgmma of N rows: LIST / OUTS the N / 2 accumulators, AB the operands' descriptors, P the scale-d flag */
#define _FC3D_HX_FN(NAME, KIND, TAIL, LIST, OUTS, AB, P)                                                    \
    static __device__ __forceinline__ void NAME(float* d, uint64_t da, uint64_t db)                          \
    {                                                                                                       \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " P ", 0;\nwgmma.mma_async.sync.aligned." KIND         \
                     " {" LIST "}, " AB ", p, 1, 1" TAIL ";\n}\n"                                              \
                     : OUTS                                                                                 \
                     : "l"(da), "l"(db), "r"(1));                                                           \
    }
_FC3D_HX_FN(_fc3d_hx_tf32, "m64n256k8.f32.tf32.tf32", "", _FC3D_HX_L128, _FC3D_HX_O128, "%128, %129", "%130")
_FC3D_HX_FN(_fc3d_hx_f16, "m64n256k16.f32.f16.f16", ", 0, 0", _FC3D_HX_L128, _FC3D_HX_O128, "%128, %129", "%130")
_FC3D_HX_FN(_fc3d_hx_bf16, "m64n256k16.f32.bf16.bf16", ", 0, 0", _FC3D_HX_L128, _FC3D_HX_O128, "%128, %129", "%130")
_FC3D_HX_FN(_fc3d_hx_tf32_240, "m64n240k8.f32.tf32.tf32", "", _FC3D_HX_L120, _FC3D_HX_O120, "%120, %121", "%122")
_FC3D_HX_FN(_fc3d_hx_f16_240, "m64n240k16.f32.f16.f16", ", 0, 0", _FC3D_HX_L120, _FC3D_HX_O120, "%120, %121", "%122")
_FC3D_HX_FN(_fc3d_hx_bf16_240, "m64n240k16.f32.bf16.bf16", ", 0, 0", _FC3D_HX_L120, _FC3D_HX_O120, "%120, %121", "%122")
/* half a tile's rows in one wgmma (the warp-specialized row tiles, whose launch cap of 128 registers
   a thread is below what one m64n256 or m64n240 asks for): n128 / n120, the accumulators of the
   rows' first or second half exactly as the full wgmma holds them */
_FC3D_HX_FN(_fc3d_hx_tf32_h128, "m64n128k8.f32.tf32.tf32", "", _FC3D_HX_L64, _FC3D_HX_O64, "%64, %65", "%66")
_FC3D_HX_FN(_fc3d_hx_f16_h128, "m64n128k16.f32.f16.f16", ", 0, 0", _FC3D_HX_L64, _FC3D_HX_O64, "%64, %65", "%66")
_FC3D_HX_FN(_fc3d_hx_bf16_h128, "m64n128k16.f32.bf16.bf16", ", 0, 0", _FC3D_HX_L64, _FC3D_HX_O64, "%64, %65", "%66")
_FC3D_HX_FN(_fc3d_hx_tf32_h120, "m64n120k8.f32.tf32.tf32", "", _FC3D_HX_L60, _FC3D_HX_O60, "%60, %61", "%62")
_FC3D_HX_FN(_fc3d_hx_f16_h120, "m64n120k16.f32.f16.f16", ", 0, 0", _FC3D_HX_L60, _FC3D_HX_O60, "%60, %61", "%62")
_FC3D_HX_FN(_fc3d_hx_bf16_h120, "m64n120k16.f32.bf16.bf16", ", 0, 0", _FC3D_HX_L60, _FC3D_HX_O60, "%60, %61", "%62")
/* 3xTF32's m64n128 (half the tile's rows a warpgroup) on its f16 parts, its scale-d flag a
   register: 0 restarts the chunk accumulator */
static __device__ __forceinline__ void _fc3d_hx_f16_128(float* d, uint64_t da, uint64_t db, int accumulate)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\nwgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16"
                 " {" _FC3D_HX_L64 "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
                 : _FC3D_HX_O32(0), _FC3D_HX_O32(32)
                 : "l"(da), "l"(db), "r"(accumulate));
}
#undef _FC3D_HX_FN
#undef _FC3D_HX_O60
#undef _FC3D_HX_O64
#undef _FC3D_HX_L60
#undef _FC3D_HX_O120
#undef _FC3D_HX_L120
#undef _FC3D_HX_O128
#undef _FC3D_HX_O32
#undef _FC3D_HX_O16
#undef _FC3D_HX_O4
#undef _FC3D_HX_L128
#undef _FC3D_HX_L64
#undef _FC3D_HX_L32
#undef _FC3D_HX_L16
static __device__ __forceinline__ void _fc3d_mbar_init(uint64_t* b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(_fc3d_tc_smem(b)), "r"(count) : "memory");
}
static __device__ __forceinline__ void _fc3d_mbar_arrive(uint64_t* b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(_fc3d_tc_smem(b)) : "memory");
}
/* a warpgroup's release of the ring slots its retired MMAs read (-1: none), by its first thread */
static __device__ __forceinline__ void _fc3d_hx_release(int tid, uint64_t* emptyW, int w, uint64_t* emptyU, int u)
{
    if ((tid & 127) == 0) {
        if (w >= 0) _fc3d_mbar_arrive(emptyW + w);
        if (u >= 0) _fc3d_mbar_arrive(emptyU + u);
    }
}
static __device__ __forceinline__ void _fc3d_mbar_expect(uint64_t* b, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(_fc3d_tc_smem(b)), "r"(bytes) : "memory");
}
static __device__ __forceinline__ void _fc3d_mbar_wait(uint64_t* b, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n}\n" ::"r"(_fc3d_tc_smem(b)), "r"(parity) : "memory");
}
static __device__ __forceinline__ void _fc3d_bulk_copy(void* dst, const void* src, uint32_t bytes, uint64_t* bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                     _fc3d_tc_smem(dst)), "l"(src), "r"(bytes), "r"(_fc3d_tc_smem(bar))
                 : "memory");
}
/* bytes of global memory (16-byte aligned, a multiple of 16) brought into L2 ahead of their copy */
static __device__ __forceinline__ void _fc3d_bulk_prefetch(const void* src, uint32_t bytes)
{
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(src), "r"(bytes) : "memory");
}
#endif

/* The shift of the statistics sums undone (sums of v - k over cnt values, k a channel's tap-less
   value: _fc3d_bk_sums): sum v = sum (v - k) + cnt k, sum v^2 = sum (v - k)^2 + k (2 sum (v - k) +
   cnt k), in double. The block loop, the haloed epilogue and the warp-row loop all end here. */
static __device__ __forceinline__ double2 _fc3d_unshift(double s, double ss, double k, double cnt)
{
    return make_double2(s + cnt * k, ss + k * (2.0 * s + cnt * k));
}
/* A value into a lane's sum and sum of squares: float (TF32, half) or double (3xTF32) */
static __device__ __forceinline__ void _fc3d_hx_sum2(float& s, float& ss, float d)
{
    s += d;
    ss = fmaf(d, d, ss);
}
static __device__ __forceinline__ void _fc3d_hx_sum2(double& s, double& ss, float d)
{
    s += d;
    ss = fma((double)d, (double)d, ss);
}

/* Virtual row v of a tile's phase: whether it is an output position of the tile (else dropped), its phase
   coordinates and its output offset within a (sample, channel) slab. 32-bit: the plan keeps a
   sample's virtual rows below 2^31. */
static __device__ __forceinline__ bool _fc3d_hx_row(const _fc3d_tc_kparams& P, const _fc3d_hx_tile& h, int v, int* q,
                                                    int64_t* ospat)
{
    const int HpWp = P.hx_pad[1] * P.hx_pad[2];
    q[0] = v / HpWp;
    const int rem = v - q[0] * HpWp;
    q[1] = rem / P.hx_pad[2];
    q[2] = rem - q[1] * P.hx_pad[2];
    *ospat = (((int64_t)P.s[0] * q[0] + h.r[0]) * P.out[1] + ((int64_t)P.s[1] * q[1] + h.r[1])) * P.out[2] +
             ((int64_t)P.s[2] * q[2] + h.r[2]);
    return q[0] < h.Q[0] && q[1] < h.Q[1] && q[2] < h.Q[2] && v - (int)h.v0 < h.nv;
}

/* Row tiles: the staging table CM (thread i of n fills entries i, i + n, ...): the staged place
   in bytes (-1: none) of row m of the tile, output row m / Wp, ow = 2 (m % Wp) + phase, dropped for
   a padding row or past W (phase 1); wq0 is W phase 0's extent */
static __device__ __forceinline__ void _fc3d_hx_cm_fill(const _fc3d_tc_kparams& P, int* CM, int wq0, int i, int n)
{
    for (; i < 2 * _FC3D_HX_NR; i += n) {
        const int p = i / _FC3D_HX_NR, t = (i / (_FC3D_HX_NR / 4)) & 3, j = i & (_FC3D_HX_NR / 4 - 1);
        const int m = (j >> 1) * 8 + 2 * t + (j & 1);
        const int rr = m / P.hx_pad[2], qw = m - rr * P.hx_pad[2], x = rr * P.out[2] + 2 * qw;
        const bool ok = rr < P.hx_rpt && qw < wq0 && 2 * qw + p < P.out[2];
        CM[(p * 4 + t) * _FC3D_HX_CMS + j] = ok ? 4 * (x + p) : -1;
    }
}
/* Warp-specialized row tiles: the staging table CM (thread i of n fills entries i, i + n, ...):
   row (p, t) entry j, the staged place in bytes (-1: none) of the pair of MMA rows m = 8 j + 2 t,
   m + 1 of W phase p (the layout of _fc3d_hx_ws_cs; an even padded row keeps a pair in one row,
   its W positions qw, qw + 1 with qw even) */
static __device__ __forceinline__ void _fc3d_hx_ws_pair_fill(const _fc3d_tc_kparams& P, int* CM, int i, int n)
{
    const int wout = P.out[2];
    for (; i < 2 * 4 * (_FC3D_HX_NR / 8); i += n) {
        const int p = i / (_FC3D_HX_NR / 2), t = (i / (_FC3D_HX_NR / 8)) & 3, j = i & (_FC3D_HX_NR / 8 - 1);
        const int m = 8 * j + 2 * t, rr = m / P.hx_pad[2], qw = m - rr * P.hx_pad[2];
        const bool ok = rr < P.hx_rpt && qw < (wout >> 1);
        CM[(p * 4 + t) * _FC3D_HX_CMS + j] =
            ok ? 4 * (rr * wout + p * (wout >> 1) + 2 * ((qw >> 1) ^ _fc3d_hx_ws_xr(rr, wout))) : -1;
    }
}
/* A consumer lane's accumulators (channels c0, c1 = c0 + 8 of its W phase) into the staging at
   the byte offsets of its CM row cm, the table read four entries at a time, one load ahead. PAIR
   (the warp-specialized row tiles' row program): an entry is a pair of neighbouring sums (acc
   4 i, 4 i + 1 and 4 i + 2, 4 i + 3), one 8-byte store a channel, the swizzle in the table
   (_fc3d_hx_ws_pair_fill). Otherwise (the copy, _fc3d_hx_main's row tiles) an entry is one sum a
   channel, a 4-byte store at the offset ^ fx: 128 stores and ~400 instructions a tile and warp,
   near half of the consumers' per-tile work (ncu), where the pairs take 64. */
template <int NR, bool PAIR>
static __device__ __forceinline__ void _fc3d_hx_acc_stage(const float* acc, const int4* cm, unsigned char* c0,
                                                          unsigned char* c1, int fx)
{
    constexpr int NE = PAIR ? NR / 8 : NR / 4; /* the table's entries */
    int4 cur = cm[0];
#pragma unroll
    for (int k = 0; k < NE / 4; ++k) {
        const int4 nx = cm[k + 1 < NE / 4 ? k + 1 : k];
        const int xs[4] = {cur.x, cur.y, cur.z, cur.w};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int i = 4 * k + j;
            if (xs[j] < 0) continue;
            if (PAIR) {
                *reinterpret_cast<float2*>(c0 + xs[j]) = make_float2(acc[4 * i], acc[4 * i + 1]);
                *reinterpret_cast<float2*>(c1 + xs[j]) = make_float2(acc[4 * i + 2], acc[4 * i + 3]);
            } else {
                const int a = (i >> 1) * 4 + (i & 1), x = xs[j] ^ fx;
                *reinterpret_cast<float*>(c0 + x) = acc[a];
                *reinterpret_cast<float*>(c1 + x) = acc[a + 2];
            }
        }
        cur = nx;
    }
}

/* The haloed main loop and its epilogue (the mma.sync loop's, over the tile's valid rows). Shared
   memory: [unit ring][weight ring] (the epilogue's staging over them), then the barriers and the
   tap table. */
/* Registers: each of an SM's 4 quarters holds 16384 a lane-row; a warp of 168 registers a thread
   takes 5376, so 3 warps fit a quarter and two 5-warp CTAs (64-channel tiles) an SM; at 170 only 2
   a quarter, one CTA an SM (L2/34's conv alone measured 2.03 ms against 1.53 at 167). The cap
   needs __maxnreg__ (nvcc 12.4 and later); older compilers keep the launch bound. */
#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define _FC3D_HX_REGS(...) __maxnreg__(168)
#else
#define _FC3D_HX_REGS(...) __launch_bounds__(__VA_ARGS__, 1)
#endif
/* Zeros over p[0 .. len) by the 32 lanes of a warp: 16-byte stores from the first 16-byte boundary,
   single values before it and after the last whole quad. */
template <typename T>
static __device__ __forceinline__ void _fc3d_zero_run(T* p, int len, int lane)
{
    const int a = (int)(((16u - (unsigned)((uintptr_t)p & 15u)) & 15u) / sizeof(T)), head = a < len ? a : len;
    const int nq = (int)(((size_t)(len - head) * sizeof(T)) / 16), tail = head + nq * (int)(16 / sizeof(T));
    const T z = _fc3d_tc_fromf<T>(0.f);
    if (lane < head) p[lane] = z;
    uint4* q = reinterpret_cast<uint4*>(p + head);
    for (int i = lane; i < nq; i += 32) q[i] = make_uint4(0u, 0u, 0u, 0u);
    for (int i = tail + lane; i < len; i += 32) p[i] = z;
}
/* A run's zeros in whole 32-byte sectors (_FC3D_HX_ZC_SECTORS): the run leaves the partial sector
   it starts in to the run before it in y, unless it starts y (yb), and carries its last one to the
   sector's end (y's end, total elements, at most). Every run of the step doing so, each sector of
   y is written by one run, whole; the caller makes sure that what a run carries into the next
   one's start is zeros of the final output (the next run's first row holds no tapped value). */
template <typename T>
static __device__ __forceinline__ void _fc3d_zero_run_sectors(T* p, int len, const T* yb, int64_t total, int lane)
{
    uintptr_t s = (uintptr_t)p, e = (uintptr_t)(p + len);
    const uintptr_t yend = (uintptr_t)(yb + total);
    if (p != yb) s = (s + 31u) & ~(uintptr_t)31u;
    e = (e + 31u) & ~(uintptr_t)31u;
    if (e > yend) e = yend;
    /* (the start as p plus an offset, not the integer cast back: the compiler keeps p's global
       state space and stores st.global, not generic) */
    if (e > s) _fc3d_zero_run(p + (s - (uintptr_t)p) / sizeof(T), (int)((e - s) / sizeof(T)), lane);
}
/* ROWS: row tiles (BN = 128: warpgroup p computes W phase p of 64 output channels; a weight slot
   holds both phases' pieces of a tap; the epilogue is the whole-row one). */
template <typename T, int MATH, int BN, int KC, bool ROWS, typename Epi, int NB = _FC3D_HX_NB>
static __global__ void _FC3D_HX_REGS(_fc3d_hx_cfg<MATH, BN, KC>::NT)
_fc3d_hx_main(_fc3d_tc_kparams P, const void* __restrict__ xp, const void* __restrict__ wp, const T* __restrict__ bias,
              T* __restrict__ y, Epi epi)
{
    /* the ring's barriers in the tail's first 128 bytes, the tap table after them (_fc3d_hx_smem):
       _FC3D_HX_NB = 8 had them overrun it (an illegal address in L2/61's chain, bench/RESULTS.md
       seventy-sixth entry) */
    static_assert(2 * (_FC3D_HX_NA + NB) * sizeof(uint64_t) <= 128, "the haloed loop's barriers fit its tail's 128 bytes");
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap(); /* sm_90a code only; the run launches it only there */
#else
    _fc3d_pdl_enter(); /* (launched as the prep step's dependent: _fc3d_hx_run) */
    typedef _fc3d_hx_cfg<MATH, BN, KC> C;
    constexpr int NR = _FC3D_HX_NR, NA = _FC3D_HX_NA, NWARP = 4 * C::NWG;
    constexpr int CB = ROWS ? 64 : BN;           /* output channels of the tile */
    constexpr int PW = 64 * KC * C::EB;          /* bytes of one 64-channel weight piece (one part) */
    constexpr int PW2 = C::NU * PW;              /* row tiles: a W phase's piece, its parts together */
    constexpr bool BF = std::is_same<T, __nv_bfloat16>::value;
    extern __shared__ __align__(128) unsigned char _fc3d_hx_sm[];
    const size_t ustage = (size_t)C::NU * C::NKG * (ROWS ? P.hx_rrmax : P.hx_rmax) * 16;
    unsigned char* Us = _fc3d_hx_sm;
    unsigned char* Ws = Us + NA * ustage;
    unsigned char* tail = _fc3d_hx_sm + _fc3d_hx_body(P, MATH, KC, CB, ROWS, NB);
    uint64_t* bars = reinterpret_cast<uint64_t*>(tail);
    uint64_t *fullU = bars, *emptyU = bars + NA, *fullW = bars + 2 * NA, *emptyW = bars + 2 * NA + NB;
    int* TT = reinterpret_cast<int*>(tail + 128); /* (h, w) taps: their rows in the unit (bytes), per W phase */
    /* row tiles: the staged place in bytes (-1: none) of the rows ni * 8 + 2 t + e of W phase p at
       CM[(p * 4 + t) * _FC3D_HX_CMS + 2 ni + e]: what a lane of quad t of warpgroup p stores, in
       the order it stores it */
    int* CM = reinterpret_cast<int*>(TT + 2 * _FC3D_HX_TT);
    uint4* Z = reinterpret_cast<uint4*>(CM + 8 * _FC3D_HX_CMS); /* row tiles: a zero weight piece */

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
#ifdef _FC3D_HX_TRACE
    if (warp == NWARP && lane == 0) _FC3D_HX_STAMP(14);
    if (tid == 0) {
        _FC3D_HX_STAMP(1);
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        if (unsigned long long* s_ = _fc3d_hx_trace_cta()) s_[0] = sm;
    }
#endif
    const int64_t tile = blockIdx.x;
    const int ntile = blockIdx.y % P.ntn, gi = blockIdx.y / P.ntn;
    const int64_t n = blockIdx.z;
    const _fc3d_hx_tile h = _fc3d_hx_tile_at<ROWS>(P, tile);
    if (tid == 0) _FC3D_HX_STAMP(8);
    if (warp == NWARP && lane == 0) _FC3D_HX_STAMP(12);
    const int64_t HpWp = (int64_t)P.hx_pad[1] * P.hx_pad[2];
    const int nunits = h.nseg * (int)(P.cin_g / KC);
    /* y zero-filled, and no tap reaches this tile (_fc3d_tc_zero_fill); with no fill (P.hx_zc) the
       tile stores its zeros */
    if (!ROWS && P.skip0 && !P.hx_zc && nunits == 0) return;
    const uint32_t unitB = (uint32_t)C::NKG * h.R * 16;
    /* The consumers fill the tables while the producer warp initialises the barriers and goes on to
       its first copies (it computes its weight taps itself): the first unit's latency runs beside
       the tables (named barrier 2: the consumers wait for everyone, the producer only arrives). */
    constexpr int NC = 128 * C::NWG; /* consumer threads */
    if (warp < NWARP) {
        for (int p = 0; p < (ROWS ? 2 : 1); ++p)
            for (int i = tid; i < h.wT[p]; i += NC) {
                const int jh = i / h.wnt[p], jw = i - jh * h.wnt[p];
                const int ch = h.c0[1] - jh * h.cstep[1], cw = h.wc0[p] - jw * h.wcs[p];
                TT[p * _FC3D_HX_TT + i] = ((ch + P.hx_plo[1]) * P.hx_pad[2] + cw + P.hx_plo[2] - h.offmin) * 16;
            }
    } else if (lane < 2 * (NA + NB)) { /* a lane a barrier: full and empty of the unit ring, then of the weight ring */
        _fc3d_mbar_init(bars + lane, (lane < 2 * NA ? lane >= NA : lane >= 2 * NA + NB) ? C::NWG : 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        if (lane == 0) _FC3D_HX_STAMP(13);
    }
    if (ROWS && warp < NWARP) _fc3d_hx_cm_fill(P, CM, h.wQ[0], tid, NC); /* the staging table */
    if (ROWS && h.wT[0] != h.wT[1] && warp < NWARP) {
        for (int i = tid; i < PW2 / 16; i += NC) Z[i] = make_uint4(0u, 0u, 0u, 0u);
        /* the zeros, written through the generic proxy, visible to the wgmmas' reads (async proxy) */
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    }

    if (warp == NWARP) { /* the producer: one lane issues every copy */
        __syncwarp(); /* (the barriers its lanes initialised) */
        asm volatile("bar.arrive 2, %0;\n" ::"n"(C::NT) : "memory");
        if (lane == 0) _FC3D_HX_STAMP(10);
        if (lane == 0 && nunits > 0) {
            const unsigned char* xb = reinterpret_cast<const unsigned char*>(xp);
            const unsigned char* wb = reinterpret_cast<const unsigned char*>(wp);
            const int64_t grp0 = (n * P.cin + (int64_t)gi * P.cin_g) / C::KG, kt = (int64_t)P.k[0] * P.k[1] * P.k[2];
            const int64_t ncb = P.cin_g / KC;
            int iw = 0;
            /* 3xTF32: the small parts a whole copy of x further; a unit holds the big part's
               groups, then the small part's */
            const int64_t xpart = C::X3 ? P.n * (P.cin / C::KG) * P.hx_ps * 16 : 0;
            /* where copy k (of C::NU * C::NKG, t.R rows of 16 bytes each) of unit u of tile t comes
               from, grp the first channel group of the tile's sample and group: the copies and the
               prefetch of the next CTA's unit both ask here */
            auto unit_src = [&](const _fc3d_hx_tile& t, int64_t grp, int u, int k) {
                const int cb = u / t.nseg, sg = u - cb * t.nseg, pt = k / C::NKG, kg = k - pt * C::NKG;
                const int cd = t.c0[0] - (t.jlo + sg) * t.cstep[0];
                const int64_t row = t.v0 + (int64_t)(cd + P.hx_plo[0]) * HpWp + t.offmin;
                return xb + pt * xpart + ((grp + (int64_t)cb * C::NKG + kg) * P.hx_ps + row) * 16;
            };
            auto load_unit = [&](int u) {
                const int s = u % NA;
                _fc3d_mbar_wait(emptyU + s, ((u / NA) & 1) ^ 1);
                _fc3d_mbar_expect(fullU + s, C::NU * unitB);
                for (int k = 0; k < C::NU * C::NKG; ++k)
                    _fc3d_bulk_copy(Us + s * ustage + (size_t)k * h.R * 16, unit_src(h, grp0, u, k),
                                    (uint32_t)h.R * 16, fullU + s);
            };
            /* the weight tap of (h, w) tap i of W phase p (the consumers' table holds its rows) */
            auto wtap = [&](int p, int i) {
                const int wnt = p ? h.wnt[1] : h.wnt[0], jh = i / wnt, jw = i - jh * wnt;
                return (h.t0[1] + jh * h.tstep[1]) * P.k[2] + (p ? h.wt0[1] + jw * h.wts[1] : h.wt0[0] + jw * h.wts[0]);
            };
            auto load_piece = [&](int u, int i) {
                const int s = iw % NB, cb = u / h.nseg, sg = u - cb * h.nseg;
                const int td = h.t0[0] + (h.jlo + sg) * h.tstep[0];
                _fc3d_mbar_wait(emptyW + s, ((iw / NB) & 1) ^ 1);
                const int64_t pc0 = (((int64_t)gi * P.ntn + ntile) * ncb + cb) * kt + (int64_t)td * P.k[1] * P.k[2];
                if (!ROWS) { /* (3xTF32: the piece's two parts, contiguous) */
                    _fc3d_mbar_expect(fullW + s, C::NU * C::PIECE);
                    _fc3d_bulk_copy(Ws + (size_t)s * C::NU * C::PIECE, wb + (pc0 + wtap(0, i)) * C::NU * C::PIECE,
                                    C::NU * C::PIECE, fullW + s);
                } else { /* the tap's piece of each W phase that has one, side by side (3xTF32: each
                            phase's big part, then its small part) */
                    _fc3d_mbar_expect(fullW + s, (i < h.wT[0] ? PW2 : 0) + (i < h.wT[1] ? PW2 : 0));
                    for (int p = 0; p < 2; ++p)
                        if (i < h.wT[p])
                            _fc3d_bulk_copy(Ws + (size_t)s * C::NU * C::PIECE + p * PW2, wb + (pc0 + wtap(p, i)) * PW2, PW2,
                                            fullW + s);
                }
                ++iw;
            };
            load_unit(0);
            _FC3D_HX_STAMP(11);
            const int pre = h.T < NB ? h.T : NB;
            for (int u = 0; u < nunits; ++u) { /* the next unit once this one's first pieces are on their way */
                for (int i = 0; i < pre; ++i) load_piece(u, i);
                if (u + 1 < nunits) load_unit(u + 1);
                for (int i = pre; i < h.T; ++i) load_piece(u, i);
            }
            _FC3D_HX_STAMP(7);
            /* Every copy of this tile issued: the first unit of the CTA that the device will likely
               start next on this SM (CTAs start in index order, hx_ahead at a time) brought into
               L2 while this tile's last MMAs and epilogue run, so that its first copy does not wait
               for DRAM (_FC3D_HX_PREFETCH). */
            if (P.hx_ahead > 0) {
                const int64_t per_z = (int64_t)gridDim.x * gridDim.y;
                const int64_t lin = blockIdx.x + (int64_t)gridDim.x * blockIdx.y + per_z * blockIdx.z + P.hx_ahead;
                if (lin < per_z * gridDim.z) {
                    const int64_t n2 = lin / per_z, r2 = lin - n2 * per_z;
                    const int y2 = (int)(r2 / gridDim.x);
                    const _fc3d_hx_tile h2 = _fc3d_hx_tile_at<ROWS>(P, r2 - (int64_t)y2 * gridDim.x);
                    const int nu2 = h2.T > 0 ? h2.nseg * (int)ncb : 0;
                    const int64_t g2 = (n2 * P.cin + (int64_t)(y2 / P.ntn) * P.cin_g) / C::KG;
                    for (int u2 = 0; u2 < P.hx_pfu && u2 < nu2; ++u2)
                        for (int k = 0; k < C::NU * C::NKG; ++k)
                            _fc3d_bulk_prefetch(unit_src(h2, g2, u2, k), (uint32_t)h2.R * 16);
                }
            }
        }
        return;
    }
    if (tid == 0) _FC3D_HX_STAMP(9);
    asm volatile("bar.sync 2, %0;\n" ::"n"(C::NT) : "memory"); /* the barriers and the tables */
    if (tid == 0) _FC3D_HX_STAMP(2);

    /* consumers: warpgroup wg owns output channels wg * 64 .. + 63 of the tile, all NR rows */
    const int wg = warp >> 2;
    float acc[NR / 2];
#pragma unroll
    for (int i = 0; i < NR / 2; ++i) acc[i] = 0.f;
    if (nunits > 0) {
        const uint32_t u0 = _fc3d_tc_smem(Us), w0 = _fc3d_tc_smem(Ws);
        const int myT = wg ? h.wT[1] : h.wT[0]; /* (selected: an index by wg put the tile in local memory) */
        int iw = 0, prevW = -1, prevU = -1;
        if constexpr (C::X3 && !ROWS) {
            /* 3xTF32 (the tiled loops' scheme, its parts held as f16: _fc3d_hx_x3_scales): per K step
               of 16 channels: small x big, big x small, then big x big (m64n128k16 over the
               warpgroup's half of the rows) into a chunk accumulator (acc[NR / 4 ..]) that each
               chunk's first step restarts; at a chunk's end, once its MMAs are done,
               its sums are added into the FP32 sums (acc[0 .. NR / 4)). A chunk is _FC3D_HX_X3_TAPS
               (h, w) taps of a unit (_FC3D_HX_X3_KC channels each), so the tensor core's truncating
               accumulation never runs over more than _FC3D_HX_X3_KC x that many products (bench/RESULTS.md) */
            float* ch = acc + NR / 4;
            const uint32_t sp = (uint32_t)C::NKG * h.R * 16; /* the small part's offset in a unit */
            for (int u = 0; u < nunits; ++u) {
                const int su = u % NA;
                _fc3d_mbar_wait(fullU + su, (u / NA) & 1);
#ifdef _FC3D_HX_TRACE
                if (tid == 0 && u == 0) _FC3D_HX_STAMP(3);
#endif
                const uint32_t ub = u0 + su * (uint32_t)ustage + wg * (NR / 2) * 16;
                /* (the chunk's sums are read after its taps' loop, on no branch: a read of MMA
                   registers on one path of a branch inside it made ptxas wait for every tap's
                   MMAs where the paths meet, C7517) */
                for (int c0 = 0; c0 < h.T; c0 += _FC3D_HX_X3_TAPS) {
                    const int ce = c0 + _FC3D_HX_X3_TAPS < h.T ? c0 + _FC3D_HX_X3_TAPS : h.T;
                    for (int i = c0; i < ce; ++i) {
                        const int sw = iw % NB;
                        _fc3d_mbar_wait(fullW + sw, (iw / NB) & 1);
                        const uint32_t xa = ub + TT[i], wa = w0 + sw * (C::NU * C::PIECE);
                        const uint64_t dwb = _fc3d_wg_desc(wa, 128, C::NKG * 128);
                        const uint64_t dws = _fc3d_wg_desc(wa + C::PIECE, 128, C::NKG * 128);
                        const uint64_t dxb = _fc3d_wg_desc(xa, h.R * 16, 128);
                        const uint64_t dxs = _fc3d_wg_desc(xa + sp, h.R * 16, 128);
                        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                        for (int kk = 0; kk < KC / C::KS; ++kk) {
                            const uint64_t a = (uint64_t)(kk * 16), b = (uint64_t)(kk * 2 * h.R);
                            _fc3d_hx_f16_128(ch, dws + a, dxb + b, (i - c0) | kk); /* (0: the chunk's first step) */
                            _fc3d_hx_f16_128(ch, dwb + a, dxs + b, 1);
                            _fc3d_hx_f16_128(ch, dwb + a, dxb + b, 1);
                        }
                        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); /* the previous tap's MMAs are done */
                        if ((tid & 127) == 0 && prevW >= 0) _fc3d_mbar_arrive(emptyW + prevW);
                        prevW = sw;
                        ++iw;
                    }
                    /* the chunk's end: all its MMAs done, its sums added */
                    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
                    if ((tid & 127) == 0) {
                        _fc3d_mbar_arrive(emptyW + prevW);
                        if (ce == h.T) _fc3d_mbar_arrive(emptyU + su);
                    }
                    prevW = -1;
#pragma unroll
                    for (int j = 0; j < NR / 4; ++j) acc[j] += ch[j];
                }
            }
            _fc3d_hx_unscale<NR / 4>(acc, P, wp); /* the scales undone */
            (void)prevU;
            _fc3d_wg_keep<NR / 2>(acc);
        } else {
            /* the loop per wgmma N (rn: 256, or 240 for plane-row tiles and row tiles whose rows fit
               it; a uniform choice around the whole loop, whose wgmmas stay unbranched) */
            auto mainloop = [&](auto rn) {
                for (int u = 0; u < nunits; ++u) {
                    const int su = u % NA;
                    _fc3d_mbar_wait(fullU + su, (u / NA) & 1);
#ifdef _FC3D_HX_TRACE
                    if (tid == 0 && u == 0) _FC3D_HX_STAMP(3);
#endif
                    for (int i = 0; i < h.T; ++i) {
                        const int sw = iw % NB;
                        _fc3d_mbar_wait(fullW + sw, (iw / NB) & 1);
                        /* a row tile's W phase with fewer taps than the other multiplies the zero piece
                           (selected, not branched: a wgmma under a branch is serialised by ptxas) */
                        const bool tap = !ROWS || i < myT;
                        const uint32_t xa = u0 + su * (uint32_t)ustage + (tap ? TT[(ROWS ? wg * _FC3D_HX_TT : 0) + i] : 0);
                        const uint32_t wa = tap ? w0 + sw * C::NU * C::PIECE + wg * PW2 : _fc3d_tc_smem(Z);
                        /* each K step's descriptors: the tap's plus the step's offset in 16 B, added to the
                           start field (bits 0-13: shared addresses stay below 2^18, no carry out of it); built
                           per step they were a fifth of L2/61's GEMM-step instructions (ncu) */
                        const uint64_t dw0 = _fc3d_wg_desc(wa, 128, C::NKG * 128), dx0 = _fc3d_wg_desc(xa, h.R * 16, 128);
                        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                        for (int kk = 0; kk < KC / C::KS; ++kk) {
                            const uint64_t dw = dw0 + (uint64_t)(kk * 16);
                            const uint64_t dx = dx0 + (uint64_t)(kk * 2 * h.R);
                            if constexpr (C::X3) {
                                /* 3xTF32 row tiles (no chunk accumulator: the plan takes them only where
                                   an output sums at most _FC3D_HX_X3_ROWK products, _fc3d_hx_x3_rows):
                                   small x big, big x small, big x big, the small parts a part further
                                   (the weight's PW bytes, the unit's NKG x R rows of 16 bytes) */
                                const uint64_t dws = dw + (uint64_t)(PW / 16), dxs = dx + (uint64_t)(C::NKG * h.R);
                                if (decltype(rn)::value == 240) {
                                    _fc3d_hx_f16_240(acc, dws, dx); _fc3d_hx_f16_240(acc, dw, dxs); _fc3d_hx_f16_240(acc, dw, dx);
                                } else {
                                    _fc3d_hx_f16(acc, dws, dx); _fc3d_hx_f16(acc, dw, dxs); _fc3d_hx_f16(acc, dw, dx);
                                }
                            } else if (decltype(rn)::value == 240) {
                                if (MATH != _FC3D_TC_HALF) _fc3d_hx_tf32_240(acc, dw, dx);
                                else if (BF) _fc3d_hx_bf16_240(acc, dw, dx);
                                else _fc3d_hx_f16_240(acc, dw, dx);
                            } else {
                                if (MATH != _FC3D_TC_HALF) _fc3d_hx_tf32(acc, dw, dx);
                                else if (BF) _fc3d_hx_bf16(acc, dw, dx);
                                else _fc3d_hx_f16(acc, dw, dx);
                            }
                        }
                        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); /* the previous tap's MMAs are done */
                        _fc3d_hx_release(tid, emptyW, prevW, emptyU, prevU);
                        prevW = sw;
                        prevU = i == h.T - 1 ? su : -1;
                        ++iw;
                    }
                }
                /* each path retires its MMAs before the paths meet (a register move for the merge
                   between a wgmma and its wait would serialise every wgmma; ptxas C7515) */
                asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
                _fc3d_wg_keep<NR / 2>(acc);
            };
            _fc3d_wg_keep<NR / 2>(acc); /* the zeros in their registers before the paths part */
            if ((ROWS ? P.hx_rrn : P.hx_rn) == 240) mainloop(std::integral_constant<int, 240>());
            else mainloop(std::integral_constant<int, 256>());
            if ((MATH == _FC3D_TC_HALF && P.hx_t32) || C::X3) _fc3d_hx_unscale<NR / 2>(acc, P, wp);
        }
    }
    if (tid == 0) _FC3D_HX_STAMP(4);

    if (ROWS) { /* ---- row tiles: the two W phases staged as whole output rows, then the rows out */
        asm volatile("bar.sync 1, %0;\n" ::"n"(128 * C::NWG) : "memory");
        float* Cs = reinterpret_cast<float*>(_fc3d_hx_sm);
        const int wout = P.out[2], RS = P.hx_rpt * wout;
        int L = 1;
        while (L * _FC3D_TC_ROW_EPL < wout) L <<= 1;
        const int CS = _fc3d_row_cs(RS, L, wout);
        {
            /* the warpgroup's byte offsets from the table, four at a time and one load ahead (one
               load a pair, each waited for, took 22 % of L2/34's convolution alone; ncu), two rows'
               bases. Rows of exactly L x _FC3D_TC_ROW_EPL floats are staged swizzled: the value of
               column ow of channel c at ow ^ ((c >> 1) & 3), so that a store's 8 channels x 4
               columns (channel stride 16 banks, column stride 4) hit 32 banks, not 8
               (_fc3d_tc_rows_out undoes it on its 16-byte loads) */
            const int w4 = warp & 3, g = lane >> 2, t = lane & 3, co = w4 * 16 + g;
            const int4* cm = reinterpret_cast<const int4*>(CM + (wg * 4 + t) * _FC3D_HX_CMS);
            /* (the condition of _fc3d_tc_rows_out's FULL rows; channel co + 8 has co's swizzle) */
            const int fx = _FC3D_HX_SWZ && std::is_same<T, float>::value && wout == L * _FC3D_TC_ROW_EPL
                               ? 4 * _fc3d_row_swz(co) : 0;
            _fc3d_hx_acc_stage<NR, false>(acc, cm, reinterpret_cast<unsigned char*>(Cs + co * CS),
                                          reinterpret_cast<unsigned char*>(Cs + (co + 8) * CS), fx);
        }
        asm volatile("bar.sync 1, %0;\n" ::"n"(128 * C::NWG) : "memory");
        if (tid == 0) _FC3D_HX_STAMP(5);
        const int64_t cbase = (int64_t)gi * P.cout_g + (int64_t)ntile * CB;
        const int nvalid = (int)((P.cout_g - (int64_t)ntile * CB) < CB ? (P.cout_g - (int64_t)ntile * CB) : CB);
        const int Hp = P.hx_pad[1];
        /* the output coordinates of the tile's row j in lane j's registers (-1: a row to drop), where
           the tile has at most 32 rows: a shuffle a row in the epilogue instead of a division (46
           instructions a row and warp, 5 % of L2/34's chain kernel; ncu) */
        const bool few = P.hx_rpt <= 32;
        int rod = -1, roh = 0;
        {
            const int row = h.vrow0 + lane, qd = row / Hp, qh = row - qd * Hp;
            if (few && lane < P.hx_rpt && qd < h.Q[0] && qh < h.Q[1]) {
                rod = P.s[0] * qd + h.r[0];
                roh = P.s[1] * qh + h.r[1];
            }
        }
        _fc3d_tc_rows_out<T, 128 * C::NWG, _FC3D_HX_SWZ != 0>(P, bias, y, epi, Cs, CS, P.hx_rpt, cbase, nvalid, n, tile, P.hx_parts,
                                           [&](int rr, int64_t* od, int64_t* oh, int64_t* roff) {
                                               if (few) { /* (every lane calls it, rr the same in all) */
                                                   const int a = __shfl_sync(0xffffffffu, rod, rr);
                                                   const int b = __shfl_sync(0xffffffffu, roh, rr);
                                                   *od = a;
                                                   *oh = b;
                                                   *roff = (a * P.out[1] + b) * wout; /* the slab is below 2^31 here */
                                                   return a >= 0;
                                               }
                                               const int row = h.vrow0 + rr, qd = row / Hp, qh = row - qd * Hp;
                                               *od = (int64_t)P.s[0] * qd + h.r[0];
                                               *oh = (int64_t)P.s[1] * qh + h.r[1];
                                               *roff = (int)((*od * P.out[1] + *oh) * wout);
                                               return qd < h.Q[0] && qh < h.Q[1];
                                           });
        if (P.stats && tile == 0) /* the slots past the haloed row tiles (the plan sizes them by the tiled ones) */
            for (int cl = tid; cl < nvalid; cl += 128 * C::NWG)
                for (int64_t z = gridDim.x; z < P.hx_parts; ++z) epi.partial(n, cbase + cl, z, P.hx_parts, 0.0, 0.0);
        if (lane == 0) _FC3D_HX_STAMP_MAX(6);
        return;
    }

    /* ---- epilogue: the tile staged as [channel][row], then the mma.sync loop's, row validity
       from the row table */
    asm volatile("bar.sync 1, %0;\n" ::"n"(128 * C::NWG) : "memory");
    constexpr int CS = NR + 4;
    float* Cs = reinterpret_cast<float*>(_fc3d_hx_sm);
    {
        /* (3xTF32: both warpgroups on the tile's 64 channels, warpgroup wg on rows wg * NR / 2 ..) */
        const int w4 = warp & 3, g = lane >> 2, t = lane & 3, co = (C::X3 ? 0 : wg * 64) + w4 * 16 + g;
        float* const cr = Cs + (C::X3 ? wg * (NR / 2) : 0) + 2 * t;
#pragma unroll
        for (int ni = 0; ni < (C::X3 ? NR / 16 : NR / 8); ++ni) {
            *reinterpret_cast<float2*>(cr + co * CS + ni * 8) = make_float2(acc[ni * 4], acc[ni * 4 + 1]);
            *reinterpret_cast<float2*>(cr + (co + 8) * CS + ni * 8) = make_float2(acc[ni * 4 + 2], acc[ni * 4 + 3]);
        }
    }
    asm volatile("bar.sync 1, %0;\n" ::"n"(128 * C::NWG) : "memory");
    if (tid == 0) _FC3D_HX_STAMP(5);
    const int64_t cbase = (int64_t)gi * P.cout_g + (int64_t)ntile * BN;
    const int nvalid = (int)((P.cout_g - (int64_t)ntile * BN) < BN ? (P.cout_g - (int64_t)ntile * BN) : BN);
    /* statistics slots: the plan sizes them by the tiled loops' tiles (hx_parts >= the haloed
       tiles); the finalize reads the first gridDim.x of a cell's, those these tiles write
       (_fc3d_tc_slots_written) */
    const int64_t tps = P.hx_parts;
    const bool ops = epi.op_begin != epi.op_end, stats = P.stats != 0;
    if (P.hx_zc) {
        /* A zero-filling step with no fill (_fc3d_hx_zc_dims): the tile's block of y, channel by
           channel and plane by plane a contiguous run of whole rows, a warp a channel: the run's
           zeros in 16-byte stores, then (the tapped plane) the staged values over them, row by
           tapped row, their ops applied (the ops keep zero and the step has no bias). The values'
           half sectors land on lines the zeros just brought into L2, which DRAM sees written
           whole, once. Value by value in order, with the tapped test per position, the run took
           37 instructions a value at 4 warps an SM: L1/77 1.21 ms against 0.35 behind the fill
           (bench/RESULTS.md). */
        const int Wp = P.hx_pad[2], W = P.out[2];
        const int64_t HpWp = (int64_t)P.hx_pad[1] * Wp;
        const int qd = (int)(h.v0 / HpWp), qa = (int)((h.v0 - qd * HpWp) / Wp);
        const int qb = qa + h.nv / Wp < h.Q[1] ? qa + h.nv / Wp : h.Q[1];
        if (qa < qb) {
            const int dlo = P.s[0] * qd, dhi = qd == h.Q[0] - 1 ? P.out[0] - 1 : P.s[0] * (qd + 1) - 1;
            const int hlo = P.s[1] * qa, hhi = qb == h.Q[1] ? P.out[1] - 1 : P.s[1] * qb - 1;
            const int dm = P.s[0] * qd + h.r[0], len = (hhi - hlo + 1) * W;
            /* whole sectors where every run starts with an untapped row of at least 8 values
               (H stride 2, odd rows tapped: a block's first row, hlo, is even; so is a plane's
               first): the 4-byte-aligned ends of 65-value rows had left DRAM two half-written
               sectors a run to complete (bench/zc_store.cu: L1/77's stores alone 0.242 ms, in
               whole sectors 0.208, a memset of y 0.182) */
            const bool sect = _FC3D_HX_ZC_SECTORS && P.s[1] == 2 && h.r[1] == 1 && W >= 8;
            const int64_t ytotal = P.n * P.cout * P.odhw;
            for (int cl = warp; cl < nvalid; cl += NWARP) {
                const int64_t cg = cbase + cl;
                const float* cs = Cs + cl * CS; /* row qh's position qw at cs[(qh - qa) Wp + qw] */
                for (int dd = dlo; dd <= dhi; ++dd) {
                    T* yr = y + (((n * P.cout + cg) * P.out[0] + dd) * (int64_t)P.out[1] + hlo) * W;
                    if (sect) _fc3d_zero_run_sectors(yr, len, y, ytotal, lane);
                    else _fc3d_zero_run(yr, len, lane);
                    if (dd != dm) continue;
                    __syncwarp(); /* the zeros before the values at the same places (memory order in the warp) */
                    for (int j = 0; j < qb - qa; ++j) {
                        const int hh = P.s[1] * (qa + j) + h.r[1];
                        T* yw = yr + (int64_t)(hh - hlo) * W + h.r[2];
                        for (int qw = lane; qw < h.Q[2]; qw += 32) {
                            float v = cs[j * Wp + qw];
                            if (ops) v = epi.apply(v, n, cg, dd, hh, P.s[2] * qw + h.r[2]);
                            yw[P.s[2] * qw] = _fc3d_tc_fromf<T>(v);
                        }
                    }
                }
            }
        }
    } else if (P.layout == 1) {
        /* the lane's rows lane + 32 i: their offsets in the (n, c) slab (32 bits: the plan keeps a
           slab below 2^31) and validity, for every channel */
        uint32_t osp[NR / 32];
        unsigned vm = 0;
        constexpr unsigned VALL = NR / 32 >= 32 ? 0xffffffffu : (1u << (NR / 32)) - 1u; /* every row valid */
#pragma unroll
        for (int i = 0; i < NR / 32; ++i) {
            int q[3];
            int64_t o;
            if (_fc3d_hx_row(P, h, (int)h.v0 + lane + 32 * i, q, &o)) vm |= 1u << i;
            osp[i] = (uint32_t)o;
        }
        /* (the branches are uniform and hoisted out of the unrolled loops: the measured cost of this
           epilogue was its per-value branching, a third of the kernel's time on L2/61) */
        const bool plain = P.store && !P.out_f32 && !stats;
        /* the bias of the warp's channels warp + NWARP j, loaded up front by lane j (at most
           BN / NWARP = 16 of them): no dependent global load in the channel loop */
        float bl = 0.f;
        if (bias && warp + NWARP * lane < nvalid) bl = _fc3d_tc_tof(bias[cbase + warp + NWARP * lane]);
        /* and the statistics slot of that channel (_fc3d_tc_epi::partial_slot) */
        const int64_t slot_l = stats && warp + NWARP * lane < nvalid
                                   ? epi.partial_slot(n, cbase + warp + NWARP * lane, tile, tps) : 0;
        /* a lone ReLU or scale (L2/61's ReLU before its GroupNorm, L2/77's scale before its
           BatchNorm) applied straight, not through the op loop and its switch per channel: L2/61's
           GEMM step 1.167 -> 1.094 ms under ncu (215 M -> 203 M instructions), its chain 1.289 ->
           1.230 ms */
        const int k1 = epi.op_end == epi.op_begin + 1 ? (int)epi.chain.ops[epi.op_begin].kind : -1;
        _fc3d_unit_op r1 = {};
        if (k1 >= 0) r1.f0 = epi.chain.ops[epi.op_begin].value;
        /* the slabs' base: a channel adds cl slabs (64-bit, once per channel; the stores below add
           only the row offsets) */
        T* const yc0 = y + (n * P.cout + cbase) * P.odhw;
        float* const yf0 = reinterpret_cast<float*>(y) + (n * P.cout + cbase) * P.odhw;
        /* the warp's next channel's staged values are loaded before this channel's stores, so that
           their latency hides behind the stores and sums (_FC3D_HX_EPI_AHEAD) */
        float raw[NR / 32];
#pragma unroll
        for (int i = 0; i < NR / 32; ++i) raw[i] = _FC3D_HX_EPI_AHEAD && warp < nvalid ? Cs[warp * CS + lane + 32 * i] : 0.f;
        for (int cl = warp, j = 0; cl < nvalid; cl += NWARP, ++j) {
            const int64_t cg = cbase + cl;
            const float bv = __shfl_sync(0xffffffffu, bl, j);
            T* yc = yc0 + (int64_t)cl * P.odhw;
            float* yf = yf0 + (int64_t)cl * P.odhw;
            float* cs = Cs + cl * CS + lane;
            /* vc[NR / 32]: the channel's tap-less value (the bias through the ops), the shift of
               the statistics sums (_fc3d_bk_sums), taken through the ops with the values */
            float vc[NR / 32 + 1];
#pragma unroll
            for (int i = 0; i < NR / 32; ++i) vc[i] = (_FC3D_HX_EPI_AHEAD ? raw[i] : cs[32 * i]) + bv;
            vc[NR / 32] = bv;
            if (_FC3D_HX_EPI_AHEAD && cl + NWARP < nvalid) {
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) raw[i] = cs[NWARP * CS + 32 * i];
            }
            if (k1 == FC3D_OP_RELU) {
#pragma unroll
                for (int i = 0; i <= NR / 32; ++i) vc[i] = _fc3d_uop<_FC3D_UOP_RELU>(r1, vc[i]);
            } else if (k1 == FC3D_OP_SCALE) {
#pragma unroll
                for (int i = 0; i <= NR / 32; ++i) vc[i] = _fc3d_uop<_FC3D_UOP_SCALE>(r1, vc[i]);
            } else if (ops && !epi.apply_nc_regs(vc, epi.op_begin, epi.op_end, n, cg)) {
                /* ops that need the coordinates: value by value, in the staging row */
#pragma unroll 1
                for (int i = 0; i < NR / 32; ++i) {
                    if (!((vm >> i) & 1u)) continue;
                    int q[3];
                    int64_t o;
                    _fc3d_hx_row(P, h, (int)h.v0 + lane + 32 * i, q, &o);
                    cs[32 * i] = epi.apply(cs[32 * i] + bv, n, cg, (int64_t)P.s[0] * q[0] + h.r[0],
                                           (int64_t)P.s[1] * q[1] + h.r[1], (int64_t)P.s[2] * q[2] + h.r[2]);
                }
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) vc[i] = cs[32 * i];
                vc[NR / 32] = 0.f; /* (no shift: the ops depend on the position) */
            }
            const float kc = stats ? vc[NR / 32] : 0.f;
            /* A lane's NR / 32 values of the channel summed in float, then the sums in double from
               there on (parked, flushed, finalized) instead of a conversion and two double
               operations a value (conversions to double issue at 16 a clock an SM): L2/61's chain
               1.295 -> 1.277 ms. A float sum of 8 values is within 8 ulp of exact (Numerics in the
               design note). */
            double s = 0.0, ss = 0.0;
            /* (3xTF32: the lane's sums in double, FP32 math's statistics as accurate as the
               tiled loops') */
            typename std::conditional<C::X3, double, float>::type fs = 0, fss = 0;
            /* one loop per (store, statistics) case, the uniform tests outside it; only the store
               depends on the row's validity (a dropped row adds zeros to the sums): a branch around
               the sums cost 18 instructions a value with its convergence barriers (ncu, L2/61) */
            if (plain && std::is_same<T, float>::value) {
                asm("" : "+l"(yf)); /* the slab's base in registers, not rebuilt per value */
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) _fc3d_st_if(yf + osp[i], vc[i], (vm >> i) & 1u);
            } else if (plain) {
#pragma unroll
                for (int i = 0; i < NR / 32; ++i)
                    if ((vm >> i) & 1u) yc[osp[i]] = _fc3d_tc_fromf<T>(vc[i]);
            } else if (!P.store) {
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) {
                    const float d = (vm >> i) & 1u ? vc[i] - kc : 0.f;
                    _fc3d_hx_sum2(fs, fss, d);
                }
            } else if ((P.out_f32 || std::is_same<T, float>::value) && _FC3D_HX_EPI_PLAIN_SUMS && vm == VALL &&
                       kc == 0.f) {
                /* every row of the lane's valid and no shift (no bias: L2/61's ReLU): the stores
                   unpredicated and the values summed as they are, the sums the general loop's bit
                   for bit (v - 0 is v, and only valid rows). L2/61's convolving pass 632 -> 629 us
                   under ncu, its chain 0.8090 -> 0.8046 ms TF32, 0.8002 -> 0.7958 half (H100,
                   three rounds alternated; bench/RESULTS.md sixty-ninth entry) */
                asm("" : "+l"(yf));
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) {
                    _fc3d_st_g(yf + osp[i], vc[i]); /* (through yf's register a plain store was a generic ST) */
                    _fc3d_hx_sum2(fs, fss, vc[i]);
                }
            } else if (P.out_f32 || std::is_same<T, float>::value) {
                asm("" : "+l"(yf)); /* the slab's base in registers, not rebuilt per value */
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) {
                    const bool ok = (vm >> i) & 1u;
                    _fc3d_st_if(yf + osp[i], vc[i], ok);
                    const float d = ok ? vc[i] - kc : 0.f;
                    _fc3d_hx_sum2(fs, fss, d);
                }
            } else {
#pragma unroll
                for (int i = 0; i < NR / 32; ++i) {
                    const bool ok = (vm >> i) & 1u;
                    const T tv = _fc3d_tc_fromf<T>(vc[i]);
                    if (ok) yc[osp[i]] = tv;
                    const float d = ok ? _fc3d_tc_tof(tv) - kc : 0.f;
                    _fc3d_hx_sum2(fs, fss, d);
                }
            }
            /* the shift undone over the lane's valid values, in double */
            const double2 u = _fc3d_unshift((double)fs, (double)fss, (double)kc, (double)__popc(vm));
            s = u.x;
            ss = u.y;
            if (stats) {
                static_assert(CS >= 128, "a staged row parks the warp's 64 partial doubles");
                __syncwarp(); /* every lane has read the row: its sums are parked there */
                epi.park(Cs + cl * CS, lane, s, ss);
            }
        }
        if (stats) {
            __syncwarp();
            epi.flush_parked(Cs, CS, warp, NWARP, nvalid, lane, slot_l);
        }
    } else {
        constexpr int NJ = BN / 32;
        double s[NJ], ss[NJ];
        float bv[NJ];
#pragma unroll
        for (int j = 0; j < NJ; ++j) {
            const int cl = lane + 32 * j;
            s[j] = 0.0; ss[j] = 0.0;
            bv[j] = (bias && cl < nvalid) ? _fc3d_tc_tof(bias[cbase + cl]) : 0.f;
        }
        if (ops) /* first the ops, value by value in the staging tile (bias added): the same thread
                    owns (m, cl) below */
            for (int m = warp; m < NR; m += NWARP) {
                int q[3];
                int64_t ospat;
                if (!_fc3d_hx_row(P, h, (int)h.v0 + m, q, &ospat)) continue;
                for (int cl = lane; cl < nvalid; cl += 32) {
                    float* c = Cs + cl * CS + m;
                    *c = epi.apply(*c + (bias ? _fc3d_tc_tof(bias[cbase + cl]) : 0.f), n, cbase + cl,
                                   (int64_t)P.s[0] * q[0] + h.r[0], (int64_t)P.s[1] * q[1] + h.r[1],
                                   (int64_t)P.s[2] * q[2] + h.r[2]);
                }
            }
        for (int m = warp; m < NR; m += NWARP) {
            int q[3];
            int64_t ospat;
            if (!_fc3d_hx_row(P, h, (int)h.v0 + m, q, &ospat)) continue;
            const int64_t yb = (n * P.odhw + ospat) * P.cout + cbase;
#pragma unroll
            for (int j = 0; j < NJ; ++j) {
                const int cl = lane + 32 * j;
                if (cl >= nvalid) continue;
                float v = Cs[cl * CS + m] + (ops ? 0.f : bv[j]);
                if (P.store && P.out_f32) {
                    reinterpret_cast<float*>(y)[yb + cl] = v;
                } else if (P.store) {
                    const T tv = _fc3d_tc_fromf<T>(v);
                    y[yb + cl] = tv;
                    v = _fc3d_tc_tof(tv);
                }
                if (stats) { s[j] += v; ss[j] += (double)v * v; }
            }
        }
        if (stats) {
            double2* red = reinterpret_cast<double2*>(Cs + BN * CS);
#pragma unroll
            for (int j = 0; j < NJ; ++j) red[warp * BN + lane + 32 * j] = make_double2(s[j], ss[j]);
            asm volatile("bar.sync 1, %0;\n" ::"n"(128 * C::NWG) : "memory");
            for (int cl = tid; cl < nvalid; cl += 128 * C::NWG) {
                double ds = 0.0, dss = 0.0;
#pragma unroll
                for (int w = 0; w < NWARP; ++w) {
                    const double2 v = red[w * BN + cl];
                    ds += v.x; dss += v.y;
                }
                epi.partial(n, cbase + cl, tile, tps, ds, dss);
            }
        }
    }
    if (lane == 0) _FC3D_HX_STAMP_MAX(6);
#endif
}

/* What the warp-specialized row tiles make of a pass's rows: 0 not theirs, 1 a copy (no ops: the
   consumers add the bias before the staging), 2 the pass's row program (_fc3d_tc_epi::row_prog: a
   LayerNorm or mean subtraction over W first, the bias cancelled, then at most two of ReLU, scale,
   GELU). Both for a store with no statistics of float y in NCDHW, 16-byte aligned, rows of 16, 32,
   64 or 128 floats (whole quads: _fc3d_tc_rows_out's FULL rows), an even padded row (the
   staging's pairs; the plan pads row tiles' rows so). */
template <typename T, typename Epi>
static __host__ __device__ inline int _fc3d_hx_ws_kind(const _fc3d_tc_kparams& P, const Epi& epi, const T* y)
{
    const int w = P.out[2];
    if (!(std::is_same<T, float>::value && (w == 16 || w == 32 || w == 64 || w == 128) && P.store && !P.out_f32 &&
          !P.stats && P.layout == 1 && ((uintptr_t)y & 15u) == 0 && (P.hx_pad[2] & 1) == 0))
        return 0;
    if (epi.op_begin == epi.op_end) return 1;
    typename Epi::row_prog_t rp;
    return epi.row_prog(rp) ? 2 : 0;
}
/* The iterations of 8 rows a consumer warp takes of a row tile's row program (_FC3D_HX_WS_SPLIT;
   the epilogue warpgroup the rest, _fc3d_hx_rows_ws): only for the compiled program of rows of 64,
   a LayerNorm over W (its affine or none) then a GELU (L2/34's), in TF32 or half math (3xTF32's
   consumers spill more with it: 44 -> 688 bytes loaded), and 0 for any other. */
template <int MATH, typename T, typename Epi>
static __host__ __device__ inline int _fc3d_hx_ws_split(const _fc3d_tc_kparams& P, const Epi& epi, const T* y)
{
    if (_FC3D_HX_WS_SPLIT <= 0 || MATH == _FC3D_TC_3XTF32 || P.out[2] != 64 || _fc3d_hx_ws_kind(P, epi, y) != 2) return 0;
    typename Epi::row_prog_t rp;
    epi.row_prog(rp);
    const bool ln = (rp.code & 1u) == 0u;
    return ln && ((rp.code >> 2) & 3u) == 1u && ((rp.code >> 4) & 15u) == (unsigned)FC3D_OP_GELU ? _FC3D_HX_WS_SPLIT : 0;
}
/* the jobs a consumer warp takes of an epilogue warp's list of 16 rpt (two consumer warps a list):
   8 a split iteration, at most a quarter of the list each */
static __host__ __device__ inline int _fc3d_hx_ws_jobs_off(int split, int rpt)
{
    return 8 * split < 4 * rpt ? 8 * split : 4 * rpt;
}
/* A warp's share of a staged row tile's row program (_fc3d_hx_rows_ws: the epilogue's warps, and
   the consumers' where _fc3d_hx_ws_split gives them jobs): a row (channel c, row rr) in a group of
   Lr lanes as _fc3d_tc_rows_out's FULL rows hold it (lane subr: quads k Lr + subr), Gr rows a warp
   at once (the next rows' quads loaded ahead spilled and measured slower). Epilogue warp ew's list
   of jobs j = ci rpt + rr (ci < 16, rr < rpt) takes its ci-th channel c = 8 (ci >> 1) + 2 ew + (ci
   & 1); this warp runs the jobs [jbeg, jend) of list ew, grpr + Gr i from jbeg, (ci, rr) stepped
   without a division. Every lane loads its row, a channel past the tile's (c & 63) or past C_out
   included (staged, not stored): the zeros selected for them cost L2/34's chain 0.759 -> 0.745 ms.
   PK and LC as the epilogue's rows_of; the W-affine of a LayerNorm from the registers aw and ab,
   or (AFS) from AF in shared memory (weight, then bias at AF + 128; 1 and 0 where it has none), the
   same values either way. yc0: channel 0 of the tile in the sample. */
template <int PK, int LC, bool AFS, typename Epi>
static __device__ __forceinline__ void _fc3d_hx_ws_row_jobs(
    const Epi& epi, const typename Epi::row_prog_t& rp, const bool ln, const float4 (&aw)[_FC3D_TC_ROW_EPL / 4],
    const float4 (&ab)[_FC3D_TC_ROW_EPL / 4], const float* AF, const float* Cs, const int CS, float* const yc0,
    const int64_t odhw, const int roffl, const int rpt, const int ew, const int jbeg, const int jend,
    const int nvalid, const int L, const int wout, const int lane)
{
    const int Lr = LC ? LC : L, wr = LC ? LC * _FC3D_TC_ROW_EPL : wout, hwr = wr >> 1;
    const int Gr = 32 / Lr, grpr = lane / Lr, subr = lane - grpr * Lr;
    const int dc = Gr / rpt, dr = Gr - dc * rpt;
    int ci = (jbeg + grpr) / rpt, rr = jbeg + grpr - ci * rpt;
    for (int j0 = jbeg; j0 < jend; j0 += Gr) {
        float v[_FC3D_TC_ROW_EPL];
        const int c = 8 * (ci >> 1) + 2 * ew + (ci & 1);
        const bool act = j0 + grpr < jend && c < nvalid;
        const float* vr = Cs + (c & 63) * CS + rr * wr;
        const int xr = _fc3d_hx_ws_xr(rr, wr);
        /* (at L = 4 the swizzle xr is 4 (rr & 3): pair kq Lr + subr lies at 8 (kq ^ (rr & 3)) +
           2 subr, one offset and three XORs of immediates) */
#pragma unroll
        for (int kq = 0; kq < _FC3D_TC_ROW_EPL / 4; ++kq) {
            const int pq = LC == 4 ? 2 * subr + ((8 * kq) ^ (2 * xr)) : 2 * ((kq * Lr + subr) ^ xr);
            const float2 a = *reinterpret_cast<const float2*>(vr + pq);
            const float2 b = *reinterpret_cast<const float2*>(vr + hwr + pq);
            v[4 * kq] = a.x; v[4 * kq + 1] = b.x; v[4 * kq + 2] = a.y; v[4 * kq + 3] = b.y;
        }
        const int ro = __shfl_sync(0xffffffffu, roffl, rr);
        if (PK >= 0 || ln) { /* the W-affine; the same arithmetic as _fc3d_row_affine */
            const float is = epi.template row_centre<true>(v, wr, subr, Lr, grpr * Lr, false, rp.eps);
#pragma unroll
            for (int kq = 0; kq < _FC3D_TC_ROW_EPL / 4; ++kq) {
                const float4 a = AFS ? reinterpret_cast<const float4*>(AF)[kq * Lr + subr] : aw[kq];
                const float4 b = AFS ? reinterpret_cast<const float4*>(AF + 128)[kq * Lr + subr] : ab[kq];
                v[4 * kq] = v[4 * kq] * is * a.x + b.x;
                v[4 * kq + 1] = v[4 * kq + 1] * is * a.y + b.y;
                v[4 * kq + 2] = v[4 * kq + 2] * is * a.z + b.z;
                v[4 * kq + 3] = v[4 * kq + 3] * is * a.w + b.w;
            }
            if (PK > 0) {
                _fc3d_straight_op_regs(PK, rp.value[0], v);
            } else if (PK < 0) {
#pragma unroll
                for (int i = 0; i < 2; ++i) {
                    if (i >= (int)((rp.code >> 2) & 3u)) break;
                    _fc3d_straight_op_regs((int)((rp.code >> (4 + 4 * i)) & 15u), rp.value[i], v);
                }
            }
        } else {
            epi.template apply_row_prog<true>(v, wr, subr, Lr, grpr * Lr, rp); /* (every lane: shuffles) */
        }
        if (act && ro >= 0) {
            float4* yq = reinterpret_cast<float4*>(yc0 + (int64_t)c * odhw + ro) + subr;
#pragma unroll
            for (int kq = 0; kq < _FC3D_TC_ROW_EPL / 4; ++kq, yq += Lr)
                *yq = make_float4(v[4 * kq], v[4 * kq + 1], v[4 * kq + 2], v[4 * kq + 3]);
        }
        ci += dc;
        rr += dr;
        if (rr >= rpt) {
            rr -= rpt;
            ++ci;
        }
    }
}
/* Warp-specialized persistent row tiles (see _fc3d_hx_ws_smem_nb): CTA b takes the row tiles b, b +
   gridDim.x, ... of the launch (x: a sample's tiles, then the channel tiles and groups, then the
   samples, as _fc3d_hx_main's grid). Rings as _fc3d_hx_main's, their slot counters running across
   the CTA's tiles; the staging is one buffer between the consumers and the epilogue warpgroup
   (barriers sfull: 256 consumer arrivals, sempty: 128 epilogue arrivals). The consumers compute
   a tap's row offset in the unit as they go (no tap table to rebuild per tile). */
template <typename T, int MATH, int KC, typename Epi>
static __global__ void __launch_bounds__(512, 1)
_fc3d_hx_rows_ws(_fc3d_tc_kparams P, const void* __restrict__ xp, const void* __restrict__ wp,
                 const T* __restrict__ bias, T* __restrict__ y, Epi epi)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __trap(); /* sm_90a code only; the run launches it only there */
#else
    _fc3d_pdl_enter(); /* (a usual launch, _fc3d_hx_run::conv_rows_as: the wait returns at once) */
    typedef _fc3d_hx_cfg<MATH, 128, KC> C;
    static_assert(C::NWG == 2, "row tiles: two consumer warpgroups");
    constexpr int NR = _FC3D_HX_NR, NA = _FC3D_HX_NA, MB = _FC3D_HX_WS_NB;
    /* (two unit slots at least: the producer copies unit u + 1 before unit u's last pieces, which
       the consumers need before they release unit u) */
    static_assert(NA >= 2, "the warp-specialized row tiles need two unit slots");
    constexpr int PW = 64 * KC * C::EB; /* bytes of one W phase's weight piece (one part) */
    constexpr int PW2 = C::NU * PW;     /* a W phase's piece, its parts together (3xTF32: big, then small) */
    constexpr int SLOT = C::NU * C::PIECE; /* a weight slot: both W phases' pieces */
    const int NB = _fc3d_hx_ws_nb(P, C::SB, KC); /* weight slots (the launch's) */
    static_assert(2 * (NA + MB) + 2 <= 32, "the barriers: one lane of warp 8 initialises each");
    constexpr bool BF = std::is_same<T, __nv_bfloat16>::value;
    extern __shared__ __align__(128) unsigned char _fc3d_hx_sm[];
    const size_t ustage = (size_t)C::NU * C::NKG * P.hx_rrmax * 16; /* (3xTF32: the big part's groups, then the small's) */
    unsigned char* Us = _fc3d_hx_sm;
    unsigned char* Ws = Us + NA * ustage;
    float* Cs = reinterpret_cast<float*>(Ws + (size_t)NB * SLOT);
    unsigned char* tail = reinterpret_cast<unsigned char*>(Cs) + _fc3d_hx_ws_stg(P);
    uint64_t* bars = reinterpret_cast<uint64_t*>(tail);
    uint64_t *fullU = bars, *emptyU = bars + NA, *fullW = bars + 2 * NA, *emptyW = bars + 2 * NA + MB;
    uint64_t *sfull = bars + 2 * (NA + MB), *sempty = sfull + 1;
    int* CM = reinterpret_cast<int*>(tail + _FC3D_HX_WS_BARB); /* as _fc3d_hx_main's */
    float* AF = reinterpret_cast<float*>(CM + 8 * _FC3D_HX_CMS); /* a LayerNorm's W-affine: weight, bias */
    uint4* Z = reinterpret_cast<uint4*>(AF + 2 * 128);
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    constexpr int EW = 4; /* the epilogue's warps (12 .. 15) */
    const int64_t per = P.hx_rcls_start[4], ny = (int64_t)P.groups * P.ntn, total = per * ny * P.n;
    const int64_t HpWp = (int64_t)P.hx_pad[1] * P.hx_pad[2];
    auto tile_of = [&](int64_t lin, int64_t* t, int* ntile, int* gi, int64_t* n) {
        *t = lin % per;
        const int64_t r = lin / per;
        const int yy = (int)(r % ny);
        *n = r / ny;
        *ntile = yy % P.ntn;
        *gi = yy / P.ntn;
    };
    /* what the row program needs of tile lin: its sample, first channel and valid channels, and
       lane l's row l's output coordinates (rod -1 where it has none; as _fc3d_hx_main's row tiles) */
    auto tile_rows = [&](int64_t lin, int64_t* n, int64_t* cbase, int* nvalid, int* rod, int* roh) {
        int64_t tile;
        int ntile, gi;
        tile_of(lin, &tile, &ntile, &gi, n);
        const _fc3d_hx_tile h = _fc3d_hx_tile_at<true>(P, tile);
        *cbase = (int64_t)gi * P.cout_g + (int64_t)ntile * 64;
        *nvalid = (int)((P.cout_g - (int64_t)ntile * 64) < 64 ? (P.cout_g - (int64_t)ntile * 64) : 64);
        const int Hp = P.hx_pad[1], row = h.vrow0 + lane, qd = row / Hp, qh = row - qd * Hp;
        *rod = -1;
        *roh = 0;
        if (lane < P.hx_rpt && qd < h.Q[0] && qh < h.Q[1]) {
            *rod = P.s[0] * qd + h.r[0];
            *roh = P.s[1] * qh + h.r[1];
        }
    };

    if (warp == 8) { /* a lane a barrier */
        if (lane < 2 * (NA + MB) + 2) { /* (slots past NB initialised, unused) */
            const int cnt = lane == 2 * (NA + MB) ? 256
                          : lane == 2 * (NA + MB) + 1 ? 32 * EW + (_fc3d_hx_ws_split<MATH>(P, epi, y) ? 256 : 0)
                          : (lane < 2 * NA ? lane >= NA : lane >= 2 * NA + MB) ? C::NWG : 1;
            _fc3d_mbar_init(bars + lane, cnt);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    } else if (warp < 8) {
        if (_fc3d_hx_ws_kind(P, epi, y) == 2) _fc3d_hx_ws_pair_fill(P, CM, tid, 256);
        else _fc3d_hx_cm_fill(P, CM, (P.out[2] + 1) / 2, tid, 256); /* (W phase 0's extent: every row tile's) */
        if (_fc3d_hx_ws_split<MATH>(P, epi, y) && tid < 64) { /* the W-affine for the consumers' row jobs too */
            const _fc3d_dev_op& op0 = epi.chain.ops[epi.op_begin];
            const bool aff = (op0.flags & FC3D_OP_AFFINE) != 0;
            AF[tid] = aff ? op0.weight[tid] : 1.f;
            AF[128 + tid] = aff ? op0.bias[tid] : 0.f;
        }
        if (P.hx_dt[2][0][0] != P.hx_dt[2][1][0]) {
            for (int i = tid; i < PW2 / 16; i += 256) Z[i] = make_uint4(0u, 0u, 0u, 0u);
            asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        }
    }
    __syncthreads();

    if (warp >= 8 && warp < 12) { /* ---- the producer: one lane issues every copy */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(_FC3D_HX_WS_PREG));
        if (warp != 8 || lane != 0) return;
        const unsigned char* xb = reinterpret_cast<const unsigned char*>(xp);
        const unsigned char* wb = reinterpret_cast<const unsigned char*>(wp);
        const int64_t kt = (int64_t)P.k[0] * P.k[1] * P.k[2], ncb = P.cin_g / KC;
        int ug = 0, ws = 0, wph = 0; /* unit copies so far; the weight ring's slot and its phase */
        const int64_t xpart = C::X3 ? P.n * (P.cin / C::KG) * P.hx_ps * 16 : 0; /* the small parts of x: a copy further */
        for (int64_t lin = blockIdx.x; lin < total; lin += gridDim.x) {
            int64_t tile, n;
            int ntile, gi;
            tile_of(lin, &tile, &ntile, &gi, &n);
            const _fc3d_hx_tile h = _fc3d_hx_tile_at<true>(P, tile);
            const int nunits = h.T > 0 ? h.nseg * (int)ncb : 0;
            const int64_t grp0 = (n * P.cin + (int64_t)gi * P.cin_g) / C::KG;
            auto load_unit = [&](int u) {
                const int s = ug % NA, cb = u / h.nseg, sg = u - cb * h.nseg;
                _fc3d_mbar_wait(emptyU + s, ((ug / NA) & 1) ^ 1);
                _fc3d_mbar_expect(fullU + s, (uint32_t)(C::NU * C::NKG) * h.R * 16);
                const int cd = h.c0[0] - (h.jlo + sg) * h.cstep[0];
                const int64_t row = h.v0 + (int64_t)(cd + P.hx_plo[0]) * HpWp + h.offmin;
                for (int pt = 0; pt < C::NU; ++pt)
                    for (int kg = 0; kg < C::NKG; ++kg)
                        _fc3d_bulk_copy(Us + s * ustage + (size_t)(pt * C::NKG + kg) * h.R * 16,
                                        xb + pt * xpart + ((grp0 + (int64_t)cb * C::NKG + kg) * P.hx_ps + row) * 16,
                                        (uint32_t)h.R * 16, fullU + s);
                ++ug;
            };
            /* piece i of a unit: its (h, w) taps per W phase (jh[p], jw[p]) stepped as i runs 0 .. T - 1 */
            int jh[2], jw[2];
            auto load_piece = [&](int64_t pc0, int i) {
                _fc3d_mbar_wait(emptyW + ws, wph ^ 1);
                _fc3d_mbar_expect(fullW + ws, (i < h.wT[0] ? PW2 : 0) + (i < h.wT[1] ? PW2 : 0));
                for (int p = 0; p < 2; ++p) {
                    if (i < h.wT[p]) {
                        const int tap = (h.t0[1] + jh[p] * h.tstep[1]) * P.k[2] +
                                        (p ? h.wt0[1] + jw[p] * h.wts[1] : h.wt0[0] + jw[p] * h.wts[0]);
                        _fc3d_bulk_copy(Ws + (size_t)ws * SLOT + p * PW2, wb + (pc0 + tap) * PW2, PW2, fullW + ws);
                    }
                    if (++jw[p] == (p ? h.wnt[1] : h.wnt[0])) {
                        jw[p] = 0;
                        ++jh[p];
                    }
                }
                if (++ws == NB) {
                    ws = 0;
                    wph ^= 1;
                }
            };
            if (nunits == 0) continue;
            load_unit(0);
            const int pre = h.T < NB ? h.T : NB;
            for (int u = 0, cb = 0, sg = 0; u < nunits; ++u) {
                const int td = h.t0[0] + (h.jlo + sg) * h.tstep[0];
                const int64_t pc0 = (((int64_t)gi * P.ntn + ntile) * ncb + cb) * kt + (int64_t)td * P.k[1] * P.k[2];
                jh[0] = jh[1] = jw[0] = jw[1] = 0;
                for (int i = 0; i < pre; ++i) load_piece(pc0, i);
                if (u + 1 < nunits) load_unit(u + 1);
                for (int i = pre; i < h.T; ++i) load_piece(pc0, i);
                if (++sg == h.nseg) {
                    sg = 0;
                    ++cb;
                }
            }
        }
        return;
    }

    if (warp < 8) { /* ---- the consumers: warpgroup wg computes W phase wg of the tile's 64 channels */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(_FC3D_HX_WS_CREG));
        const int wg = warp >> 2;
        const uint32_t u0 = _fc3d_tc_smem(Us), w0 = _fc3d_tc_smem(Ws), z0 = _fc3d_tc_smem(Z);
        const int kind = _fc3d_hx_ws_kind(P, epi, y), CS = _fc3d_hx_ws_cs(P, kind), wout = P.out[2];
        const int split = _fc3d_hx_ws_split<MATH>(P, epi, y);
        typename Epi::row_prog_t rp{};
        if (split) epi.row_prog(rp);
        const float4 aw0[_FC3D_TC_ROW_EPL / 4] = {}; /* (unused: the consumers' affine is AF's) */
        const int w4 = warp & 3, g = lane >> 2, t = lane & 3, co = w4 * 16 + g;
        const int4* cm = reinterpret_cast<const int4*>(CM + (wg * 4 + t) * _FC3D_HX_CMS);
        int L = 1;
        while (L * _FC3D_TC_ROW_EPL < wout) L <<= 1;
        /* the copy's staging swizzle (kind 1; the row program's pairs carry theirs in the table) */
        const int fx = _FC3D_HX_SWZ && std::is_same<T, float>::value && wout == L * _FC3D_TC_ROW_EPL
                           ? 4 * _fc3d_row_swz(co) : 0;
        unsigned char* c0 = reinterpret_cast<unsigned char*>(Cs + co * CS);
        unsigned char* c1 = reinterpret_cast<unsigned char*>(Cs + (co + 8) * CS);
        const int64_t ncb = P.cin_g / KC;
        auto run = [&](auto rn) {
            int ug = 0, ws = 0, wph = 0, k = 0; /* ws, wph: the weight ring's slot and its phase */
            for (int64_t lin = blockIdx.x; lin < total; lin += gridDim.x, ++k) {
                int64_t tile, n;
                int ntile, gi;
                tile_of(lin, &tile, &ntile, &gi, &n);
                const _fc3d_hx_tile h = _fc3d_hx_tile_at<true>(P, tile);
                const int nunits = h.T > 0 ? h.nseg * (int)ncb : 0;
                /* this warpgroup's W phase (selected: an index by wg put the tile in local memory) */
                const int myT = wg ? h.wT[1] : h.wT[0], wnt = wg ? h.wnt[1] : h.wnt[0];
                const int wc0 = wg ? h.wc0[1] : h.wc0[0], wcs = wg ? h.wcs[1] : h.wcs[0];
                const int wn = wnt > 0 ? wnt : 1;
                const int rbase = (h.c0[1] + P.hx_plo[1]) * P.hx_pad[2] + wc0 + P.hx_plo[2] - h.offmin;
                float acc[NR / 2];
#pragma unroll
                for (int i = 0; i < NR / 2; ++i) acc[i] = 0.f;
                _fc3d_wg_keep<NR / 2>(acc);
                int prevW = -1, prevU = -1;
                for (int u = 0; u < nunits; ++u, ++ug) {
                    const int su = ug % NA;
                    _fc3d_mbar_wait(fullU + su, (ug / NA) & 1);
                    /* tap i's (h, w) taps (jh, jw), stepped: a division by the run's W taps a tap was
                       on the consumers' serial path between their MMA groups */
                    for (int i = 0, jh = 0, jw = 0; i < h.T; ++i) {
                        const int sw = ws;
                        _fc3d_mbar_wait(fullW + sw, wph);
                        /* the tap's rows in the unit; the zero piece past this phase's taps */
                        const bool tap = i < myT;
                        const uint32_t off = (uint32_t)(rbase - jh * h.cstep[1] * P.hx_pad[2] - jw * wcs) * 16;
                        const uint32_t xa = u0 + su * (uint32_t)ustage + (tap ? off : 0);
                        const uint32_t wa = tap ? w0 + sw * SLOT + wg * PW2 : z0;
                        const uint64_t dw0 = _fc3d_wg_desc(wa, 128, C::NKG * 128), dx0 = _fc3d_wg_desc(xa, h.R * 16, 128);
                        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
                        for (int kk = 0; kk < KC / C::KS; ++kk) {
                            const uint64_t dw = dw0 + (uint64_t)(kk * 16);
                            const uint64_t dx = dx0 + (uint64_t)(kk * 2 * h.R);
                            /* the rows' two halves (their second half rn / 2 rows of 16 bytes on) */
                            constexpr int HN = decltype(rn)::value / 2;
                            const uint64_t dx2 = dx + (uint64_t)HN;
                            if constexpr (C::X3) {
                                /* 3xTF32 as _fc3d_hx_main's row tiles: small x big, big x small, big x big
                                   into the one accumulator (_fc3d_hx_x3_rows bounds its K) */
                                const uint64_t dws = dw + (uint64_t)(PW / 16), dxs = (uint64_t)(C::NKG * h.R);
                                if (HN == 120) {
                                    _fc3d_hx_f16_h120(acc, dws, dx); _fc3d_hx_f16_h120(acc + 60, dws, dx2);
                                    _fc3d_hx_f16_h120(acc, dw, dx + dxs); _fc3d_hx_f16_h120(acc + 60, dw, dx2 + dxs);
                                    _fc3d_hx_f16_h120(acc, dw, dx); _fc3d_hx_f16_h120(acc + 60, dw, dx2);
                                } else {
                                    _fc3d_hx_f16_h128(acc, dws, dx); _fc3d_hx_f16_h128(acc + 64, dws, dx2);
                                    _fc3d_hx_f16_h128(acc, dw, dx + dxs); _fc3d_hx_f16_h128(acc + 64, dw, dx2 + dxs);
                                    _fc3d_hx_f16_h128(acc, dw, dx); _fc3d_hx_f16_h128(acc + 64, dw, dx2);
                                }
                            } else if (HN == 120) {
                                if (MATH != _FC3D_TC_HALF) { _fc3d_hx_tf32_h120(acc, dw, dx); _fc3d_hx_tf32_h120(acc + 60, dw, dx2); }
                                else if (BF) { _fc3d_hx_bf16_h120(acc, dw, dx); _fc3d_hx_bf16_h120(acc + 60, dw, dx2); }
                                else { _fc3d_hx_f16_h120(acc, dw, dx); _fc3d_hx_f16_h120(acc + 60, dw, dx2); }
                            } else {
                                if (MATH != _FC3D_TC_HALF) { _fc3d_hx_tf32_h128(acc, dw, dx); _fc3d_hx_tf32_h128(acc + 64, dw, dx2); }
                                else if (BF) { _fc3d_hx_bf16_h128(acc, dw, dx); _fc3d_hx_bf16_h128(acc + 64, dw, dx2); }
                                else { _fc3d_hx_f16_h128(acc, dw, dx); _fc3d_hx_f16_h128(acc + 64, dw, dx2); }
                            }
                        }
                        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
                        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
                        _fc3d_hx_release(tid, emptyW, prevW, emptyU, prevU);
                        prevW = sw;
                        prevU = i == h.T - 1 ? su : -1;
                        if (++ws == NB) {
                            ws = 0;
                            wph ^= 1;
                        }
                        if (++jw == wn) {
                            jw = 0;
                            ++jh;
                        }
                    }
                }
                asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
                _fc3d_wg_keep<NR / 2>(acc);
                _fc3d_hx_release(tid, emptyW, prevW, emptyU, prevU); /* the tile's last slots */
                /* the bias here where the epilogue's rows are a copy (with the scales undone: one FFMA) */
                const bool addb = kind == 1 && bias;
                float b0 = 0.f, b1 = 0.f;
                if (addb) {
                    const int64_t cb = (int64_t)gi * P.cout_g + (int64_t)ntile * 64, cv = P.cout_g - (int64_t)ntile * 64;
                    b0 = co < cv ? _fc3d_tc_tof(bias[cb + co]) : 0.f;
                    b1 = co + 8 < cv ? _fc3d_tc_tof(bias[cb + co + 8]) : 0.f;
                }
                if ((MATH == _FC3D_TC_HALF && P.hx_t32) || C::X3) {
                    _fc3d_hx_unscale<NR / 2>(acc, P, wp, addb, b0, b1);
                } else if (addb) {
#pragma unroll
                    for (int i = 0; i < NR / 2; i += 4) {
                        acc[i] += b0; acc[i + 1] += b0; acc[i + 2] += b1; acc[i + 3] += b1;
                    }
                }
                /* the staging, once the epilogue is done with the last tile's */
                _fc3d_mbar_wait(sempty, (k & 1) ^ 1);
                if (kind == 2) _fc3d_hx_acc_stage<NR, true>(acc, cm, c0, c1, 0);
                else _fc3d_hx_acc_stage<NR, false>(acc, cm, c0, c1, fx);
                _fc3d_mbar_arrive(sfull);
                if (split) {
                    /* the last 2 J jobs of each epilogue warp's list (_fc3d_hx_ws_jobs_off): consumer
                       warps w and w + 4 take J each of list w, once both warpgroups staged theirs;
                       the tile found again from an index the compiler cannot follow (its fields
                       held across the MMA loop spill) */
                    int64_t l2 = lin, tn, tcb;
                    asm volatile("mov.b64 %0, %0;" : "+l"(l2));
                    int tnv, rod, roh;
                    tile_rows(l2, &tn, &tcb, &tnv, &rod, &roh);
                    const int roffl = rod >= 0 ? (rod * P.out[1] + roh) * 64 : -1;
                    _fc3d_mbar_wait(sfull, k & 1);
                    const int J = _fc3d_hx_ws_jobs_off(split, P.hx_rpt);
                    const int jb = 16 * P.hx_rpt - (2 - (warp >> 2)) * J;
                    _fc3d_hx_ws_row_jobs<FC3D_OP_GELU, 4, true>(epi, rp, true, aw0, aw0, AF, Cs, CS,
                                                                reinterpret_cast<float*>(y) + (tn * P.cout + tcb) * P.odhw,
                                                                P.odhw, roffl, P.hx_rpt, warp & 3, jb, jb + J, tnv, 4, 64,
                                                                lane);
                    _fc3d_mbar_arrive(sempty);
                }
            }
        };
        if (P.hx_rrn == 240) run(std::integral_constant<int, 240>());
        else run(std::integral_constant<int, 256>());
        return;
    }

    /* ---- the epilogue warpgroup: the staged rows out, tile by tile (a copy or the row program) */
    if (_FC3D_HX_WS_EREG < 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(_FC3D_HX_WS_EREG));
    else if (_FC3D_HX_WS_EREG > 128) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(_FC3D_HX_WS_EREG));
    const int wout = P.out[2];
    int L = 1;
    while (L * _FC3D_TC_ROW_EPL < wout) L <<= 1;
    const int kind = _fc3d_hx_ws_kind(P, epi, y), CS = _fc3d_hx_ws_cs(P, kind);
    typename Epi::row_prog_t rp;
    if (kind == 2) epi.row_prog(rp);
    const int sub = lane & (L - 1);
    /* a LayerNorm's W-affine, copied to AF (here, not before the register split: there it made
       ptxas spill ~450 bytes) */
    const bool affr = kind == 2 && (rp.code & 3u) == 2u;
    const int split = _fc3d_hx_ws_split<MATH>(P, epi, y); /* (then the consumers wrote AF before the CTA's barrier) */
    if (affr && !split) {
        const _fc3d_dev_op& op0 = epi.chain.ops[epi.op_begin];
        for (int i = tid - 384; i < wout; i += 32 * EW) {
            AF[i] = op0.weight[i];
            AF[128 + i] = op0.bias[i];
        }
        asm volatile("bar.sync 1, %0;\n" ::"n"(32 * EW) : "memory");
    }
    /* the CTA's tiles: rows(n, cbase, nvalid, rod, roh) on each once the consumers staged it */
    auto tiles = [&](auto&& rows) {
        int k = 0;
        for (int64_t lin = blockIdx.x; lin < total; lin += gridDim.x, ++k) {
            int64_t n, cbase;
            int nvalid, rod, roh;
            tile_rows(lin, &n, &cbase, &nvalid, &rod, &roh);
            _fc3d_mbar_wait(sfull, k & 1);
            rows(n, cbase, nvalid, rod, roh);
            _fc3d_mbar_arrive(sempty);
        }
    };
    if (kind == 2) {
        /* the LayerNorm's W-affine: the lane's 16 columns of it, the same in every row, in
           registers (only in this loop: live across the copy loop too they cost it 2 %) */
        float4 aw[_FC3D_TC_ROW_EPL / 4], ab[_FC3D_TC_ROW_EPL / 4];
        /* Warp ew takes the channels c = 8 k + 2 ew + b (16 of a tile's 64, every row of them); a
           lane's quad kq L + sub (W positions 4 Q .. 4 Q + 3) is pair Q of each W phase, two 8-byte
           loads (_fc3d_hx_ws_cs), its values in W order */
#pragma unroll
        for (int kq = 0; kq < _FC3D_TC_ROW_EPL / 4; ++kq) {
            aw[kq] = affr ? reinterpret_cast<const float4*>(AF)[kq * L + sub] : make_float4(1.f, 1.f, 1.f, 1.f);
            ab[kq] = affr ? reinterpret_cast<const float4*>(AF + 128)[kq * L + sub] : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        /* The row loop for one shape of program, fixed at compile time where it is a common one:
           PK >= 0 a LayerNorm over W with its W-affine or none (then 1 and 0 in aw and ab: a
           scaled value of -0 leaves as +0), then the one op of kind PK (FC3D_OP_NONE: none); PK <
           0 the program as rp holds it, its ops' kinds tested per row: a LayerNorm on the same
           registers' affine, a mean subtraction over W through apply_row_prog. LC > 0 fixes the
           lane width L (rows of LC x 16 values) at compile time as well, so that the staged
           values' and the stores' offsets are immediates: the LayerNorm and GELU on rows of 64
           (L2/34's chain 0.788 -> 0.759 ms TF32; H200, bench/RESULTS.md fifty-fourth entry).
           Other widths, ops and programs run with L at run time. */
        const bool ln = (rp.code & 1u) == 0u; /* a LayerNorm (its affine or 1 and 0), not a mean subtraction */
        auto rows_of = [&](auto pk, auto lc) {
            constexpr int PK = decltype(pk)::value, LC = decltype(lc)::value;
            const int ew = warp - 12;
            tiles([&](int64_t n, int64_t cbase, int nvalid, int rod, int roh) {
                const int wr = LC ? LC * _FC3D_TC_ROW_EPL : wout;
                const int roffl = rod >= 0 ? (rod * P.out[1] + roh) * wr : -1; /* row `lane`'s offset in a slab */
                /* warp ew: its list's jobs but the last 2 J the consumers take (all where they take none) */
                _fc3d_hx_ws_row_jobs<PK, LC, false>(epi, rp, ln, aw, ab, AF, Cs, CS,
                                                    reinterpret_cast<float*>(y) + (n * P.cout + cbase) * P.odhw, P.odhw,
                                                    roffl, P.hx_rpt, ew, 0,
                                                    16 * P.hx_rpt - 2 * _fc3d_hx_ws_jobs_off(split, P.hx_rpt), nvalid,
                                                    L, wout, lane);
            });
        };
        const unsigned nops = (rp.code >> 2) & 3u, k0 = (rp.code >> 4) & 15u;
        using R0 = std::integral_constant<int, 0>;
        if (ln && nops == 1u && k0 == (unsigned)FC3D_OP_GELU) {
            if (L == 4) rows_of(std::integral_constant<int, FC3D_OP_GELU>(), std::integral_constant<int, 4>());
            else rows_of(std::integral_constant<int, FC3D_OP_GELU>(), R0());
        } else if (ln && nops == 1u && k0 == (unsigned)FC3D_OP_RELU) rows_of(std::integral_constant<int, FC3D_OP_RELU>(), R0());
        else if (ln && nops == 0u) rows_of(std::integral_constant<int, FC3D_OP_NONE>(), R0());
        else rows_of(std::integral_constant<int, -1>(), R0());
    } else {
        /* a row (channel c, row rr of the tile) is wout / 4 quads, a lane each, JW rows a warp
           instruction; warp ew takes channels ew + 4 i. Per group of JW rows (the lane's row rr,
           its offset in a slab from one shuffle) the warp's channels go four at a time, their loads
           before their stores, each address an offset of two pointers stepped per four channels.
           Channel c = ew + 4 i was staged with swizzle ((c >> 1) & 3) = (ew >> 1) | 2 (i & 1): the
           pair swap a constant of the warp (S1, a branch around the loop), the half swap fixed by
           the channel's place among the four. The form before (a shuffle, a 64-bit offset and a
           dozen predicates a quad, the swizzle selected per quad: 54 instructions a quad, 37 % of
           the instructions of L2/34's convolution alone, ncu) held the consumers at the staging's
           empty barrier for a quarter of their time. */
        auto copy = [&](auto s1c) {
            constexpr bool S1 = _FC3D_HX_SWZ && decltype(s1c)::value;
            constexpr bool SW = _FC3D_HX_SWZ != 0;
            tiles([&](int64_t n, int64_t cbase, int nvalid, int rod, int roh) {
                const int QR = wout >> 2, JW = 32 / QR, jl = lane / QR, ql = lane - jl * QR;
                const int ew = warp - 12, rpt = P.hx_rpt, RG = (rpt + JW - 1) / JW, nci = (nvalid - ew + 3) >> 2;
                const int roffl = rod >= 0 ? (rod * P.out[1] + roh) * wout : -1; /* row `lane`'s offset in a slab */
                const int64_t ys = 4 * P.odhw;
                float* const yb = reinterpret_cast<float*>(y) + (n * P.cout + cbase + ew) * P.odhw + 4 * ql;
                const float* const sb = Cs + ew * CS + 4 * ql;
                for (int rg = 0; rg < RG; ++rg) {
                    const int rr = rg * JW + jl;
                    const int ro = __shfl_sync(0xffffffffu, roffl, rr & 31);
                    const bool rok = rr < rpt && ro >= 0;
                    const float* sp = sb + rr * wout;
                    float* yp = yb + ro;
                    for (int ci = 0; ci < nci; ci += 4, sp += 16 * CS, yp += 4 * ys) {
                        float4 q[4];
#pragma unroll
                        for (int u = 0; u < 4; ++u) {
                            float4 v = rok && ci + u < nci ? *reinterpret_cast<const float4*>(sp + u * 4 * CS)
                                                           : make_float4(0.f, 0.f, 0.f, 0.f);
                            if (S1) v = make_float4(v.y, v.x, v.w, v.z); /* element e holds column e ^ swz */
                            if (SW && (u & 1)) v = make_float4(v.z, v.w, v.x, v.y);
                            q[u] = v;
                        }
#pragma unroll
                        for (int u = 0; u < 4; ++u)
                            if (rok && ci + u < nci) *reinterpret_cast<float4*>(yp + u * ys) = q[u];
                    }
                }
            });
        };
        if ((warp - 12) >> 1) copy(std::true_type());
        else copy(std::false_type());
    }
#endif
}

/* A warp's per-lane float sums and sums of squares of its channels (lane (g, t) holds channels
   8 j + 2 t + h) summed over the lanes of one t in double by a butterfly, the sums of channel c at
   red[c] (lanes g = 0 store): the first step of the block and warp-row loops' statistics partials,
   in a fixed order. */
template <int NT8>
static __device__ __forceinline__ void _fc3d_lane_sums(const float (&ssum)[NT8][2], const float (&ssq)[NT8][2],
                                                       double2* red, int lane) {
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int j = 0; j < NT8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            double ds = ssum[j][h], dq = ssq[j][h];
#pragma unroll
            for (int o = 4; o < 32; o <<= 1) {
                ds += __shfl_xor_sync(0xffffffffu, ds, o);
                dq += __shfl_xor_sync(0xffffffffu, dq, o);
            }
            if (g == 0) red[8 * j + 2 * t + h] = make_double2(ds, dq);
        }
}

/* >>warp-row-loop --------------------------------------------------------------------------------
   The implicit-GEMM engine's warp-row loop (FC3D_MAIN_LOOP_WARP_ROWS): the decoders' up-sampling
   convolution - kernel 3, stride 2, padding 1 along every dim, dilation 1 - at 16 input channels
   and up to 32 output channels, input H and W up to 32 (L2/15's shape and its kin). There the
   block loop's units (16 positions of a W phase, a tap table and a store pattern each) spend
   ~1,700 warp instructions an output row of 32 channels; here a warp computes a whole output row
   (n, od, oh): both W phases, 32 positions each, times 32 channels in 64 accumulators.
     The prep step writes x once into the workspace as f16 [n][d][h][w][ci] (a position's 16
   channels 32 contiguous bytes), each value rounded to 11 significant bits (cvt.rn: TF32's
   rounding in f16's normal range), as it is where x's largest finite magnitude lies in
   [2^-4, 2^15) (_fc3d_hx_x_as_is; the copy finds it), else again at the power of two that puts it
   in [2^14, 2^15) (a second kernel, which returns at once otherwise); the weight as
   [tap][co][ci] f16 at its own power of two (TF32-rounded first), its channels past C_out zero.
   Half math holds both as they are (no powers of two), as the other loops' half math does.
     The kernel: persistent CTAs (a storing pass 12 warps, a statistics-only pass 8) take
   contiguous ranges of output rows (a pass with
   statistics: of segments (n, od), whole). A segment's rows read one input plane (od even) or two
   (od odd); the planes sit in shared buffers of [h][33 positions][16 channels] (positions past W
   zero: the odd phase's last tap reads one past the row), brought by cp.async. The CTA's warps
   share the rows of a unit between two barriers: a segment (two buffers, the next segment's
   missing plane loading while this one computes), or with _FC3D_WR_NB_STORE 3 two segments of a
   sample in a storing pass without statistics (two planes between them; three buffers, the next
   unit's new plane loading into the third). L2/15's 63 rows a segment on 12 warps leave 9 warps
   idle in a segment's last round (one of 6), 126 rows 6 in one of 11: the units halve the
   barrier stall under ncu and still time slower on an H100 (a row finds its segment, taps and
   buffers itself; 8 staged channels to fit an A100), so they are off by default. A row's (d, h)
   taps (1, 2 or 4) each run 4 ldmatrix.x4 of x (positions m and m + 1, two m16 tiles), 6 of the weight (W taps 1,
   0, 2) and 24 mma.sync m16n8k16 (a storing pass: the taps twice, 16 channels each, 32
   accumulators a lane instead of 64, x's fragments loaded twice: 122 registers against 156, so
   the pass holds no more registers than 16 warps could); a position's two 16-byte halves are
   swapped where bit 2 of w is set, a weight row's where bit 2 of co is set, so every ldmatrix
   phase touches 32 banks. The epilogue
   applies one map a v + b per channel - the bias, the scales' powers of two and every op of the
   pass composed in double per segment (_fc3d_uop_compose) where the ops are affine per (n, c),
   else (sc, bias) and then the ops resolved per (n, c) (epi.apply_nc_regs: ReLU, GELU) - then
   sums the values for the pass's statistics (a lane's in float over the segment's rows, then in
   double across lanes and warps in a fixed order, one slot per (n, c, od); with the map alone the
   lane sums the accumulators, v - b being a times them, and a and a^2 come in once a segment,
   the positions past a phase's end zeroed first) and, in a storing pass,
   writes the row through the warp's staging (16 channels at a time, 8 with three buffers;
   [co][68 floats], its 8-byte
   writes on 32 banks): one store instruction a channel row, 8-byte pairs as the row's address
   allows (the odd value of a pair shuffled from the lane before). Storing passes run one CTA an
   SM (154 KB of shared memory at input H 32; 158 KB with three buffers and 8 staged channels,
   within an A100's 163 KB),
   statistics-only passes two (100 KB). The launches after x's copy are programmatic dependent
   launches (_fc3d_launch_pdl): each kernel's start overlaps the previous one's end.
     Measured standalone first (bench/l15_rows.cu, H200, L2 flushed, median of 20; bench/RESULTS.md
   fifty-eighth entry): L2/15's convolution 0.100 ms (1.10x its floor; the block loop 0.161 in the
   same run), its statistics pass 0.034, its recompute/moments chain (statistics pass, finalize,
   storing pass) 0.157 against the library's 0.345. */
#define _FC3D_WR_NT 256 /* threads a CTA of the statistics-only pass (two CTAs an SM) */
#ifndef _FC3D_WR_NT_STORE
#define _FC3D_WR_NT_STORE 384 /* threads a CTA of a storing pass (one CTA an SM): 12 warps, 3 a scheduler (10
                                 take 3, 3, 2, 2: the register file is split by scheduler; 168 registers
                                 a thread, the storing pass 156 without spills). L2/15's storing pass,
                                 ncu: 8 warps 162 us, 10 146, 12 131 (bench/RESULTS.md sixty-third) */
#endif
static __host__ __device__ constexpr int _fc3d_wr_nt(bool store) { return store ? _FC3D_WR_NT_STORE : _FC3D_WR_NT; }
#define _FC3D_WR_CI 16                                /* input channels */
#define _FC3D_WR_CO 32                                /* output channels, padded */
#define _FC3D_WR_MAXHW 32                             /* input H and W at most */
#define _FC3D_WR_XW (_FC3D_WR_MAXHW + 1)              /* staged positions of an input row */
#define _FC3D_WR_XROW (_FC3D_WR_XW * _FC3D_WR_CI * 2) /* bytes of a staged input row: 1,056 */
#define _FC3D_WR_TAP (_FC3D_WR_CO * _FC3D_WR_CI * 2)  /* bytes of a tap's weight [co][ci]: 1,024 */
#define _FC3D_WR_WB (27 * _FC3D_WR_TAP)               /* the weight's bytes: 27,648 */
#define _FC3D_WR_WORDS 16                             /* bytes after the weight: its magnitude, x's */
#define _FC3D_WR_STW 68                               /* floats of a staged channel row: 64 + 4 */
#ifndef _FC3D_WR_STCH
#define _FC3D_WR_STCH 16 /* channels a warp stages at a time: 16 (154 KB of shared memory a storing CTA
                            of 12 warps at input H 32 on two plane buffers), or 8 (three buffers: 158 KB
                            there, within an A100's 163 KB; 16 channels would take 183 KB) */
#endif
#ifndef _FC3D_WR_NTG
#define _FC3D_WR_NTG 2 /* n-tiles of 8 channels a storing pass's row taps run at a time: 4 (the row's 32 channels, 64
                          accumulators a lane) or 2 (the taps twice, 16 channels and 32 accumulators each,
                          x's fragments loaded twice) */
#endif
#ifndef _FC3D_WR_NB_STORE
#define _FC3D_WR_NB_STORE 2 /* input-plane buffers of a storing pass: 2, or 3 (units of two segments, the
                               next unit's new plane loading into the third while they run; half the
                               barrier stall, slower timed: bench/RESULTS.md sixty-fifth entry) */
#endif
static __host__ __device__ constexpr int _fc3d_wr_nb(bool store) { return store ? _FC3D_WR_NB_STORE : 2; }
static __host__ __device__ inline size_t _fc3d_wr_plane_bytes(int h) {
    return ((size_t)h * _FC3D_WR_XROW + 127) & ~(size_t)127;
}
/* Shared memory: the weight, two input planes, the per-channel map, the statistics' cross-warp
   sums, and in a storing pass each warp's staging */
static __host__ __device__ inline size_t _fc3d_wr_smem(int h, bool store) {
    const size_t nw = (size_t)_fc3d_wr_nt(store) / 32;
    return (size_t)_FC3D_WR_WB + _fc3d_wr_nb(store) * _fc3d_wr_plane_bytes(h) + _FC3D_WR_CO * 8 + nw * _FC3D_WR_CO * 16 +
           (store ? nw * _FC3D_WR_STCH * _FC3D_WR_STW * 4 : 0);
}
/* the copy of x's grid: a thread a position, at most 4096 CTAs of 256 or 1024 of 1024 threads
   (grid-stride beyond) */
static inline unsigned _fc3d_wr_prep_grid(const _fc3d_tc_kparams& P, int nt) {
    const int64_t b = (P.n * P.idhw + nt - 1) / nt, cap = ((int64_t)1 << 20) / nt;
    return (unsigned)(b < 1 ? 1 : b > cap ? cap : b);
}
/* the rescale's grid (_fc3d_wr_prep_x<true>): at most 256 CTAs of 256 threads, grid-stride. Most
   runs need no rescale and its CTAs only read x's magnitude word: L2/15's 1024 CTAs took 3.6 to
   4.0 us under ncu doing that, 256 take 2.9 */
static inline unsigned _fc3d_wr_fix_grid(const _fc3d_tc_kparams& P) {
    const unsigned g = _fc3d_wr_prep_grid(P, 256);
    return g < 256u ? g : 256u;
}
/* the op kinds the loop applies: each fixed by (n, c) once its statistics are known */
static int _fc3d_wr_kind_ok(int kind) {
    return _fc3d_kind_affine_nc(kind) || kind == FC3D_OP_RELU || kind == FC3D_OP_GELU || kind == FC3D_OP_GELU_TANH ||
           kind == FC3D_OP_GLOBAL_AVG_POOL;
}

/* four 8x8 b16 matrices: lane l gives the address of row l & 7 of matrix l >> 3 and receives, of
   each matrix i in r[i], row l / 4, elements 2 (l % 4) and + 1 */
static __device__ __forceinline__ void _fc3d_wr_ldm4(uint32_t a, uint32_t (&r)[4]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
}
/* d = a b, m16n8k16, f16 operands, FP32 accumulation, a zero accumulator input (a row's first tap;
   the others accumulate by _fc3d_tc_mma_k16) */
static __device__ __forceinline__ void _fc3d_wr_mma_fresh(float (&d)[4], const uint32_t (&a)[4], const uint32_t* b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%10,%10,%10};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.0f));
}
/* one W tap of a row's phase over NP n-tile pairs: 8 NP MMAs, pair p of B by ldmatrix.x4 at
   wb + boff[p] */
template <bool FIRST, int NP>
static __device__ __forceinline__ void _fc3d_wr_wtap(float (&acc)[2][2 * NP][4], const uint32_t (&a)[2][4], uint32_t wb,
                                                     const uint32_t* boff) {
    uint32_t b[NP][4];
#pragma unroll
    for (int p = 0; p < NP; p++) _fc3d_wr_ldm4(wb + boff[p], b[p]);
#pragma unroll
    for (int mt = 0; mt < 2; mt++)
#pragma unroll
        for (int nt = 0; nt < 2 * NP; nt++)
            if (FIRST) _fc3d_wr_mma_fresh(acc[mt][nt], a[mt], &b[nt >> 1][(nt & 1) * 2]);
            else _fc3d_tc_mma_k16<false>(acc[mt][nt], a[mt], &b[nt >> 1][(nt & 1) * 2]);
}
/* one (d, h) tap of a row over NP n-tile pairs (B at boff[0 .. NP)): 12 NP MMAs into
   acc[phase][mt][nt] (FIRST: the row's first, no C) */
template <bool FIRST, int NP>
static __device__ __forceinline__ void _fc3d_wr_tap(float (&acc)[2][2][2 * NP][4], uint32_t xrow, uint32_t wtap,
                                                    const uint32_t (&aoff)[2], const uint32_t* boff) {
    uint32_t a0[2][4], a1[2][4];
#pragma unroll
    for (int mt = 0; mt < 2; mt++) _fc3d_wr_ldm4(xrow + aoff[0] + mt * 512, a0[mt]); /* iw = m */
    _fc3d_wr_wtap<FIRST, NP>(acc[0], a0, wtap + 1 * _FC3D_WR_TAP, boff);             /* even ow = 2 m: W tap 1 */
#pragma unroll
    for (int mt = 0; mt < 2; mt++) _fc3d_wr_ldm4(xrow + aoff[1] + mt * 512, a1[mt]); /* iw = m + 1 */
    _fc3d_wr_wtap<FIRST, NP>(acc[1], a1, wtap + 0 * _FC3D_WR_TAP, boff);             /* odd ow = 2 m + 1: W tap 0 */
    _fc3d_wr_wtap<false, NP>(acc[1], a0, wtap + 2 * _FC3D_WR_TAP, boff);             /* and W tap 2 at iw = m */
}

/* The weight [16][C_out][3][3][3] -> f16 [tap][32][16] (channels past C_out zero), TF32-rounded and
   times the power of two that puts its largest finite magnitude in [2^14, 2^15) (half math: as it
   is); that magnitude's bits in the word after the pieces. One CTA of 1024 threads (13,824 values at
   most): block 0 of x's copy (below), beside it. */
static __device__ __forceinline__ void _fc3d_wr_prep_w(int cout, const float* __restrict__ w, __half* __restrict__ wh,
                                                       int half) {
    /* the weight read once, coalesced, into shared memory (dynamic: 16 C_out 27 floats, 55,296
       bytes at C_out 32), then laid out from there: read twice from global memory, the second
       time a line a lane, it took 10.9 us of L2/15's chain (ncu, bench/RESULTS.md sixty-first
       entry) */
    extern __shared__ float _fc3d_wr_wsm[];
    __shared__ unsigned red[32];
    constexpr int PER = (_FC3D_WR_CI * _FC3D_WR_CO * 27 + 1023) / 1024; /* (14) */
    const int n = _FC3D_WR_CI * cout * 27;
    unsigned m = 0u;
    float v[PER]; /* every load in flight before the first use (one at a time, the loop waited out 14
                     DRAM latencies: after an L2 flush most of the kernel's time) */
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int i = threadIdx.x + k * 1024;
        v[k] = i < n ? w[i] : 0.f;
    }
#pragma unroll
    for (int k = 0; k < PER; k++) {
        const int i = threadIdx.x + k * 1024;
        if (i >= n) break;
        _fc3d_wr_wsm[i] = v[k];
        const unsigned b = __float_as_uint(v[k]) & 0x7fffffffu;
        if (!half && b < 0x7f800000u) m = max(m, b);
    }
    m = _fc3d_warp_umax(m);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = m;
    __syncthreads();
    m = _fc3d_warp_umax(red[threadIdx.x & 31]);
    const float sc = half ? 1.f : _fc3d_hx_x3_pow2(m, 1);
    for (int e = threadIdx.x; e < 27 * _FC3D_WR_CO * _FC3D_WR_CI; e += 1024) {
        const int tap = e >> 9, co = (e >> 4) & 31, ci = e & 15;
        float v = 0.f;
        if (co < cout) {
            v = _fc3d_wr_wsm[(ci * cout + co) * 27 + tap];
            if (!half) v = __uint_as_float(_fc3d_tc_round(v)) * sc;
        }
        wh[e] = __float2half_rn(v);
    }
    if (threadIdx.x == 0) reinterpret_cast<unsigned*>(wh + 27 * _FC3D_WR_CO * _FC3D_WR_CI)[0] = m;
}
/* x [n][16][d][h][w] -> f16 [n][d][h][w][16]: as it is, its largest finite magnitude (TF32) into
   the word after the weight's (FIX = false: CTAs of 1024 threads, block 0 the weight's prep, the
   word zeroed before the launch); FIX: again at the power of two of that magnitude where it lies
   outside [2^-4, 2^15) (_fc3d_hx_x_as_is), else nothing (CTAs of 256). A thread a position at a
   time, its 16 loads each coalesced across the warp, two 16-byte stores. The weight's prep ran as a
   kernel of its own before the copy: 9.3 us of L2/15's convolution under ncu (one CTA), 0.150 ->
   0.144 ms for that convolution with it beside the copy (bench/RESULTS.md sixty-third entry). */
template <bool FIX>
static __global__ void __launch_bounds__(FIX ? 256 : 1024)
_fc3d_wr_prep_x(_fc3d_tc_kparams P, const float* __restrict__ x, __half* __restrict__ xh, unsigned* __restrict__ words,
                const float* __restrict__ w, __half* __restrict__ wh) {
    constexpr int NT = FIX ? 256 : 1024;
    const bool half = P.wr_half != 0;
    float sc = 1.f;
    _fc3d_pdl_launch(); /* the next kernel (launched by _fc3d_launch_pdl) waits for this one's end */
    if (FIX) {
        _fc3d_pdl_wait();
        if (half || _fc3d_hx_x_as_is(words[1])) return;
        sc = _fc3d_hx_x3_pow2(words[1], 1);
    } else if (blockIdx.x == 0) {
        _fc3d_wr_prep_w((int)P.cout, w, wh, half);
        return;
    }
    const int64_t sp = P.idhw, np = P.n * sp;
    const int64_t b0 = FIX ? blockIdx.x : blockIdx.x - 1, nb = FIX ? gridDim.x : gridDim.x - 1;
    unsigned m = 0u;
    for (int64_t p = b0 * NT + threadIdx.x; p < np; p += nb * NT) {
        const int64_t n = p / sp, s = p - n * sp;
        const float* src = x + n * _FC3D_WR_CI * sp + s;
        uint32_t o[8];
#pragma unroll
        for (int c = 0; c < 8; c++) {
            const float a = src[(2 * c) * sp], b = src[(2 * c + 1) * sp];
            if (!FIX && !half) {
                const unsigned ua = __float_as_uint(a) & 0x7fffffffu, ub = __float_as_uint(b) & 0x7fffffffu;
                if (ua < 0x7f800000u) m = max(m, ua);
                if (ub < 0x7f800000u) m = max(m, ub);
            }
            o[c] = _fc3d_tc_pack<false>(a * sc, b * sc);
        }
        uint4* d = reinterpret_cast<uint4*>(xh + p * _FC3D_WR_CI);
        d[0] = make_uint4(o[0], o[1], o[2], o[3]);
        d[1] = make_uint4(o[4], o[5], o[6], o[7]);
    }
    if (!FIX && !half) { /* one atomic a CTA (one a warp sent L2/15's 8,192 to the one word at once),
                            the CTA's largest by the haloed prep's reduction */
        unsigned z = 0u;
        _fc3d_hx_block_max2(m, z);
        if (threadIdx.x == 0 && m) atomicMax(words + 1, m);
    }
}

/* The kernel. STORE: the pass writes y (through the warps' staging, one CTA an SM); STATS: it
   gathers its statistics op's per-(n, c) partials (slot (n, c, od); its CTAs take whole
   segments); LIST: its ops are not one affine map per (n, c) (applied by epi.apply_nc_regs after
   the bias). */
template <bool STORE, bool STATS, bool LIST, typename Epi>
static __global__ void __launch_bounds__(_fc3d_wr_nt(STORE), STORE ? 1 : 2)
_fc3d_wr_main(_fc3d_tc_kparams P, const __half* __restrict__ xh, const __half* __restrict__ wh,
              const float* __restrict__ bias, float* __restrict__ y, Epi epi)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap(); /* ldmatrix, mma.sync f16 and cp.async need sm_80; the run refuses older devices first */
#else
    constexpr int NT = _fc3d_wr_nt(STORE), NW = NT / 32, CO = _FC3D_WR_CO, XROW = _FC3D_WR_XROW, TAP = _FC3D_WR_TAP;
    constexpr int NTG = STORE ? _FC3D_WR_NTG : 4, STCH = _FC3D_WR_STCH; /* (statistics-only passes: 4, 128 registers) */
    constexpr int NB = _fc3d_wr_nb(STORE), SPAN = STORE && !STATS && NB == 3 ? 2 : 1; /* plane buffers, a unit's segments */
    static_assert((NTG == 2 || NTG == 4) && STCH % 8 == 0 && (8 * NTG) % STCH == 0, "_FC3D_WR_NTG / _FC3D_WR_STCH");
    extern __shared__ __align__(128) unsigned char _fc3d_wr_sm[];
    unsigned char* const sm = _fc3d_wr_sm;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
    const int D = P.in[0], H = P.in[1], W = P.in[2], OD = P.out[0], OH = P.out[1], OW = P.out[2];
    const int cout = (int)P.cout;
    const int64_t odhw = P.odhw;
    const int PLB = (int)_fc3d_wr_plane_bytes(H);
    unsigned char* const pl0 = sm + _FC3D_WR_WB; /* NB plane buffers, PLB bytes apart */
    float2* const Map = reinterpret_cast<float2*>(pl0 + NB * PLB);
    double2* const Red = reinterpret_cast<double2*>(Map + CO);
    float* const Stg = reinterpret_cast<float*>(Red + NW * CO) + warp * (_FC3D_WR_STCH * _FC3D_WR_STW);
    const uint32_t sw = _fc3d_tc_smem(sm);
    _fc3d_pdl_wait(); /* (launched by _fc3d_launch_pdl: every read and write of global memory after it) */
    /* the weight, once per CTA (the grid is persistent) */
    for (int c = tid; c < 27 * CO * 2; c += NT) {
        const int tap = c >> 6, co = (c >> 1) & 31, hf = c & 1;
        _fc3d_tc_cp16(sm + tap * TAP + co * 32 + ((hf ^ ((co >> 2) & 1)) << 4), wh + (int64_t)c * 8, true);
    }
    /* positions W .. 32 of every staged row, every buffer: zero (no copy writes them) */
    const int zp = _FC3D_WR_XW - W;
    for (int i = tid; i < NB * H * zp * 2; i += NT) {
        const int hf = i & 1, r = i >> 1, pos = W + r % zp, row = r / zp;
        *reinterpret_cast<uint4*>(pl0 + (row / H) * PLB + (row % H) * XROW + pos * 32 + hf * 16) = make_uint4(0u, 0u, 0u, 0u);
    }
    _fc3d_tc_commit();
    /* the scales: x's power of two (0 where held as it is), the weight's; where 2^-(both) is not a
       normal float, 2^-(x's) on the accumulators first (two) */
    const unsigned* words = reinterpret_cast<const unsigned*>(wh + 27 * CO * _FC3D_WR_CI);
    const bool half = P.wr_half != 0;
    const int ex = half || _fc3d_hx_x_as_is(words[1]) ? 0 : _fc3d_hx_x3_sexp(words[1]);
    const int ew = half ? 0 : _fc3d_hx_x3_sexp(words[0]), et = ex + ew;
    const bool two = et > 126 || et < -126;
    const double dsc = ldexp(1.0, two ? -ew : -et);
    const float sc1 = _fc3d_p2(-ex);
    /* a lane's ldmatrix offsets: A rows (positions) r = lane & 7 | 8 (lane >> 3 & 1), half lane >> 4
       (the m16 tile 16 positions on is 512 bytes on: bit 2 of w, the swizzle's, the same) */
    uint32_t aoff[2], boff[2];
#pragma unroll
    for (int sh = 0; sh < 2; sh++) {
        const int iw = sh + (lane & 7) + 8 * ((lane >> 3) & 1), hf = lane >> 4;
        aoff[sh] = iw * 32 + ((hf ^ ((iw >> 2) & 1)) << 4);
    }
#pragma unroll
    for (int p = 0; p < 2; p++) { /* B: matrices (n tile 2 p, half 0), (2 p, 1), (2 p + 1, 0), (2 p + 1, 1) */
        const int q = lane >> 3, co = 8 * (2 * p + (q >> 1)) + (lane & 7), hf = q & 1;
        boff[p] = co * 32 + ((hf ^ ((co >> 2) & 1)) << 4);
    }
    /* a plane of x's copy (n D + id: [h][w][16]) into a buffer */
    const float rW = 1.0f / (float)W; /* hw / W as (hw + 0.5) / W in float: exact for hw < 2^22 */
    auto load_plane = [&](unsigned char* buf, int plane) {
        const __half* src = xh + plane * ((int64_t)H * W * _FC3D_WR_CI);
        for (int c = tid; c < H * W * 2; c += NT) {
            const int hw = c >> 1, h = (int)(((float)hw + 0.5f) * rW), w = hw - h * W, hf = c & 1;
            _fc3d_tc_cp16(buf + h * XROW + w * 32 + ((hf ^ ((w >> 2) & 1)) << 4), src + (int64_t)c * 8, true);
        }
    };
    /* rows and planes are counted in 32 bits (the plan bounds them, _fc3d_wr_choose); offsets in 64 */
    const int64_t S = P.n * OD, R = S * OH;
    const int r0 = (int)(STATS ? (int64_t)blockIdx.x * S / gridDim.x * OH : (int64_t)blockIdx.x * R / gridDim.x);
    const int r1 = (int)(STATS ? ((int64_t)blockIdx.x + 1) * S / gridDim.x * OH : ((int64_t)blockIdx.x + 1) * R / gridDim.x);
    const int ne = (OW + 1) >> 1, no = OW >> 1; /* positions of the even and the odd W phase */
    /* a unit: the rows of SPAN consecutive segments of one sample (within the CTA's range), the planes
       lo .. hi (one or two) that its rows read */
    auto unit = [&](int r, int& rend, int& lo, int& hi) {
        const int seg = r / OH, n = seg / OD, se = min(seg + SPAN - 1, n * OD + OD - 1);
        rend = min(r1, (se + 1) * OH);
        const int od0 = seg - n * OD, od1 = (rend - 1) / OH - n * OD;
        lo = n * D + (od0 >> 1);
        hi = n * D + min((od1 + 1) >> 1, D - 1);
    };
    int tag[NB]; /* the plane each buffer holds (or is loading) */
#pragma unroll
    for (int i = 0; i < NB; i++) tag[i] = -1;
    /* plane p, unless a buffer holds it, into the first buffer whose plane lies outside [a0, a1] and
       [b0, b1] (the planes of the units that read them); none: the unit that reads p loads it */
    auto fetch = [&](int p, int a0, int a1, int b0, int b1) {
        bool have = false;
#pragma unroll
        for (int i = 0; i < NB; i++) have |= tag[i] == p;
#pragma unroll
        for (int i = 0; i < NB; i++)
            if (!have && (tag[i] < a0 || tag[i] > a1) && (tag[i] < b0 || tag[i] > b1)) {
                load_plane(pl0 + i * PLB, p);
                tag[i] = p;
                have = true;
            }
    };
    for (int r = r0; r < r1;) {
        int rend, lo, hi;
        unit(r, rend, lo, hi);
        const int r0u = r / OH, n = r0u / OD, odu = r0u - n * OD; /* (the unit's first segment) */
        __syncthreads(); /* every warp done with the unit before */
        for (int p = lo; p <= hi; p++) fetch(p, lo, hi, lo, hi); /* its planes not loaded yet */
        _fc3d_tc_commit();
        if (tid < CO) { /* the channel's map: bias, scales and (not LIST) the pass's ops, in double */
            const int c = tid;
            double a = c < cout ? 1.0 : 0.0, b = bias && c < cout ? (double)bias[c] : 0.0;
            if (!LIST && c < cout) {
                const int64_t co[5] = {n, c, 0, 0, 0};
                for (int o = epi.op_begin; o < epi.op_end; ++o)
                    _fc3d_uop_compose(_fc3d_resolve_op(epi.chain.ops[o], epi.ext, co), a, b);
            }
            Map[c] = make_float2((float)(a * dsc), (float)b);
        }
        _fc3d_tc_wait<0>();
        __syncthreads();
        uint32_t xlo = 0, xhi = 0; /* the buffers of planes lo and hi */
#pragma unroll
        for (int i = 0; i < NB; i++) {
            if (tag[i] == lo) xlo = _fc3d_tc_smem(pl0 + i * PLB);
            if (tag[i] == hi) xhi = _fc3d_tc_smem(pl0 + i * PLB);
        }
        if (rend < r1) { /* the next unit's missing planes into buffers this one does not read */
            int rn, lo2, hi2;
            unit(rend, rn, lo2, hi2);
            for (int p = lo2; p <= hi2; p++) fetch(p, lo, hi, lo2, hi2);
            _fc3d_tc_commit();
        }
        const int cnt = rend - r;
        float ssum[4][2], ssq[4][2];
#pragma unroll
        for (int nt = 0; nt < 4; nt++) ssum[nt][0] = ssum[nt][1] = ssq[nt][0] = ssq[nt][1] = 0.f;
        for (int k = 0; k * NW < cnt; k++) {
            const int j = k * NW + ((k & 1) ? NW - 1 - warp : warp); /* alternate: both parities share a warp */
            if (j >= cnt) continue;
            /* the row's segment (SPAN 1: the unit's, no division a row; SPAN 2: the unit's first or
               second) and its planes: od even, plane od / 2 (D tap 1); odd, (od - 1) / 2 (tap 2)
               and, within the input, + 1 (tap 0) */
            const int rs = SPAN == 1 ? r0u : (r + j) / OH, od = rs - n * OD, oh = r + j - rs * OH;
            const bool dB = (od & 1) && (od >> 1) + 1 < D;
            const int tdA = (od & 1) ? 2 : 1;
            const uint32_t xa = n * D + (od >> 1) == lo ? xlo : xhi, xb = xhi;
            /* H taps: oh even, tap 1 at ih = oh / 2; odd, tap 2 at (oh - 1) / 2 and, within the input,
               tap 0 at (oh + 1) / 2 */
            const int thA = (oh & 1) ? 2 : 1, ih = oh >> 1;
            const bool hB = (oh & 1) && ih + 1 < H;
            float* const yrow = y + (((int64_t)n * cout * OD + od) * OH + oh) * OW;
#pragma unroll
            for (int gq = 0; gq < 4 / NTG; gq++) { /* NTG n-tiles (8 NTG channels) at a time */
                const uint32_t* const bo = boff + gq * (NTG / 2);
                float acc[2][2][NTG][4];
                _fc3d_wr_tap<true, NTG / 2>(acc, xa + ih * XROW, sw + (tdA * 9 + thA * 3) * TAP, aoff, bo);
                if (hB) _fc3d_wr_tap<false, NTG / 2>(acc, xa + (ih + 1) * XROW, sw + (tdA * 9) * TAP, aoff, bo);
                if (dB) {
                    _fc3d_wr_tap<false, NTG / 2>(acc, xb + ih * XROW, sw + (thA * 3) * TAP, aoff, bo);
                    if (hB) _fc3d_wr_tap<false, NTG / 2>(acc, xb + (ih + 1) * XROW, sw, aoff, bo);
                }
                if (two)
#pragma unroll
                    for (int i = 0; i < 16 * NTG; i++) (&acc[0][0][0][0])[i] *= sc1;
                if (STATS && !LIST) {
                    /* the sums of v - k, k the channel's tap-less value (_fc3d_bk_sums): with the map
                       alone, v - k is the accumulator times the map's a, so the lane sums the
                       accumulators and the segment's sums take a and a^2 once, in double (below).
                       Positions past a phase's end (8 s + g >= ne or no) leave the sums as zeros, set
                       only in the position blocks that hold one (a test of the warp's, not a select
                       a value; such a position is never stored). The even phase's accumulators, whose
                       MMAs come first in a tap, are summed first. */
#pragma unroll
                    for (int s = 0; s < 4; s++)
#pragma unroll
                        for (int ph = 0; ph < 2; ph++)
                            if (8 * s + 7 >= (ph ? no : ne) && 8 * s + g >= (ph ? no : ne))
#pragma unroll
                                for (int nl = 0; nl < NTG; nl++) {
                                    acc[ph][s >> 1][nl][2 * (s & 1)] = 0.f;
                                    acc[ph][s >> 1][nl][2 * (s & 1) + 1] = 0.f;
                                }
#pragma unroll
                    for (int ph = 0; ph < 2; ph++)
#pragma unroll
                        for (int nl = 0; nl < NTG; nl++)
#pragma unroll
                            for (int cp = 0; cp < 2; cp++) {
                                const int nt = gq * NTG + nl;
                                const float e0 = acc[ph][0][nl][cp], e1 = acc[ph][0][nl][2 + cp],
                                            e2 = acc[ph][1][nl][cp], e3 = acc[ph][1][nl][2 + cp];
                                ssum[nt][cp] += (e0 + e1) + (e2 + e3);
                                ssq[nt][cp] = fmaf(e3, e3, fmaf(e2, e2, fmaf(e1, e1, fmaf(e0, e0, ssq[nt][cp]))));
                            }
                }
#pragma unroll
                for (int hh = 0; hh < 8 * NTG / STCH; hh++) { /* STCH channels at a time */
                    const int cb = gq * 8 * NTG + hh * STCH; /* the chunk's first channel */
#pragma unroll
                    for (int nl = hh * (STCH / 8); nl < (hh + 1) * (STCH / 8); nl++)
#pragma unroll
                        for (int cp = 0; cp < 2; cp++) {
                            /* lane (g, t): channel 8 nt + 2 t + cp, positions m = 8 s + g of both phases */
                            const int nt = gq * NTG + nl, co = 8 * nt + 2 * t + cp;
                            const float2 mp = Map[co];
                            float v[8]; /* [s]: even phase, [4 + s]: odd */
#pragma unroll
                            for (int s = 0; s < 4; s++) {
                                v[s] = fmaf(acc[0][s >> 1][nl][2 * (s & 1) + cp], mp.x, mp.y);
                                v[4 + s] = fmaf(acc[1][s >> 1][nl][2 * (s & 1) + cp], mp.x, mp.y);
                            }
                            if (LIST && co < cout) epi.apply_nc_regs(v, epi.op_begin, epi.op_end, n, co);
                            if (STATS && LIST) {
                                /* the sums of v - k, k the channel's tap-less value (_fc3d_bk_sums) */
                                float k[1] = {mp.y};
                                if (LIST && co < cout) epi.apply_nc_regs(k, epi.op_begin, epi.op_end, n, co);
#pragma unroll
                                for (int s = 0; s < 4; s++) {
                                    const float e = 8 * s + g < ne ? v[s] - k[0] : 0.f,
                                                o = 8 * s + g < no ? v[4 + s] - k[0] : 0.f;
                                    ssum[nt][cp] += e + o;
                                    ssq[nt][cp] = fmaf(e, e, fmaf(o, o, ssq[nt][cp]));
                                }
                            }
                            if (STORE)
#pragma unroll
                                for (int s = 0; s < 4; s++)
                                    *reinterpret_cast<float2*>(Stg + (co - cb) * _FC3D_WR_STW + 2 * (8 * s + g)) =
                                        make_float2(v[s], v[4 + s]);
                        }
                    if (STORE) { /* a store instruction a channel row: 8-byte pairs as the row's address allows */
                        __syncwarp();
                        /* the staged channels unrolled (their shared-memory reads ahead of the stores),
                           the row stepped by the channel stride, its 8-byte alignment the first row's,
                           flipped each channel where odhw is odd (L2/15's storing pass spent 45 % of a
                           warp's cycles on fixed-latency dependencies with a channel a loop trip: ncu,
                           bench/RESULTS.md sixty-first entry) */
                        const int p0 = 2 * lane;
                        float* const yb = yrow + (int64_t)cb * odhw;
                        const bool al0 = (reinterpret_cast<uintptr_t>(yb) & 7) == 0, flip = (odhw & 1) != 0;
#pragma unroll
                        for (int cl = 0; cl < STCH; cl++) {
                            /* (the staging holds STCH channels: read before the channel test) */
                            const float2 v = *reinterpret_cast<const float2*>(Stg + cl * _FC3D_WR_STW + 2 * lane);
                            if (cb + cl >= cout) break;
                            float* const yr = yb + (int64_t)cl * odhw;
                            if (al0 != (flip && (cl & 1))) { /* pairs (2 l, 2 l + 1) */
                                if (p0 + 1 < OW) *reinterpret_cast<float2*>(yr + p0) = v;
                                else if (p0 < OW) yr[p0] = v.x;
                            } else { /* ow 0 alone, pairs (2 l - 1, 2 l), ow 63 alone */
                                const float pv = __shfl_up_sync(0xffffffffu, v.y, 1);
                                if (lane == 0) yr[0] = v.x;
                                else if (p0 < OW) *reinterpret_cast<float2*>(yr + p0 - 1) = make_float2(pv, v.x);
                                else if (p0 - 1 < OW) yr[p0 - 1] = pv;
                                if (lane == 31 && p0 + 1 < OW) yr[p0 + 1] = v.y;
                            }
                        }
                        __syncwarp(); /* the staging's reads done before its next writes */
                    }
                }
            }
        }
        if (STATS) { /* the segment's partial per (n, c): lanes of one t, then warps, in a fixed order */
            _fc3d_lane_sums<4>(ssum, ssq, Red + warp * CO, lane);
            __syncthreads();
            if (tid < cout) {
                double ds = 0.0, dq = 0.0;
#pragma unroll
                for (int wi = 0; wi < NW; ++wi) {
                    const double2 rv = Red[wi * CO + tid];
                    ds += rv.x;
                    dq += rv.y;
                }
                if (!LIST) { /* the accumulators' sums as the sums of v - k (above) */
                    const double a = Map[tid].x;
                    ds *= a;
                    dq *= a * a;
                }
                /* the shift undone (the variance is the shifted values' whatever k is: any k close to
                   the lanes' serves) over the segment's cnt x OW values */
                float k[1] = {Map[tid].y};
                if (LIST) epi.apply_nc_regs(k, epi.op_begin, epi.op_end, n, tid);
                const double2 u = _fc3d_unshift(ds, dq, (double)k[0], (double)cnt * OW);
                epi.partial(n, tid, odu, P.hx_parts, u.x, u.y); /* (hx_parts = OD; a unit one segment) */
            }
        }
        r = rend;
    }
    _fc3d_tc_wait<0>();
#endif
}

/* Whether the run takes the warp-row loop (tp->wr_ok, else tp->wr_why): desc.main_loop AUTO (where
   the haloed loop is not taken) or WARP_ROWS; TF32 or half math; float32 NCDHW tensors, groups 1,
   16 input channels, out_channels up to 32; kernel 3, stride 2, padding 1 and dilation 1 along
   every dim (output padding 0 or 1); input H and W up to 32; ops each fixed by (n, c) once their
   statistics are known (no LayerNorm); its storing kernel within desc.smem_per_block (154 KB at
   input H 32: not on sm_86 / sm_89's 99 KB). Its statistics slots are its segments (n, od)
   (_fc3d_tc_slots). Sets kp.wr_half. */
enum { _FC3D_WR_NO_LOOP = 1, _FC3D_WR_NO_HALO, _FC3D_WR_NO_MATH, _FC3D_WR_NO_DTYPE, _FC3D_WR_NO_LAYOUT,
       _FC3D_WR_NO_GROUPS, _FC3D_WR_NO_CHANNELS, _FC3D_WR_NO_GEOMETRY, _FC3D_WR_NO_SIZE, _FC3D_WR_NO_OPS,
       _FC3D_WR_NO_SMEM };
static const char* _fc3d_wr_why_text(int why) {
    switch (why) {
    case _FC3D_WR_NO_LOOP: return "desc.main_loop forces another loop";
    case _FC3D_WR_NO_HALO: return "the haloed loop takes the plan";
    case _FC3D_WR_NO_MATH: return "it runs TF32 and half math";
    case _FC3D_WR_NO_DTYPE: return "16-bit tensors run on the tiled loops";
    case _FC3D_WR_NO_LAYOUT: return "NDHWC runs on the tiled loops";
    case _FC3D_WR_NO_GROUPS: return "groups other than 1 run on the tiled loops";
    case _FC3D_WR_NO_CHANNELS: return "in_channels is not 16, or out_channels is past 32";
    case _FC3D_WR_NO_GEOMETRY: return "the kernel is not 3, stride 2, padding 1, dilation 1 along every dim";
    case _FC3D_WR_NO_SIZE: return "the input H or W is past 32 (or 2^31 output rows)";
    case _FC3D_WR_NO_OPS: return "an op is not fixed by (n, c) (a LayerNorm)";
    case _FC3D_WR_NO_SMEM: return "its storing kernel's shared memory is past desc.smem_per_block";
    default: return "";
    }
}
static void _fc3d_wr_choose(const fc3d_plan* p, _fc3d_tc_plan* tp, int rows) {
    const int loop = _fc3d_enum_int(&p->desc.main_loop);
    _fc3d_tc_kparams& P = tp->kp;
    int why = 0, i;
    tp->wr_ok = 0;
    if (loop != FC3D_MAIN_LOOP_AUTO && loop != FC3D_MAIN_LOOP_WARP_ROWS) why = _FC3D_WR_NO_LOOP;
    else if (tp->hx_ok) why = _FC3D_WR_NO_HALO;
    else if (tp->math != _FC3D_TC_TF32 && tp->math != _FC3D_TC_HALF) why = _FC3D_WR_NO_MATH;
    else if (_fc3d_enum_int(&p->desc.dtype) != FC3D_DTYPE_F32) why = _FC3D_WR_NO_DTYPE;
    else if (P.layout != 1) why = _FC3D_WR_NO_LAYOUT;
    else if (P.groups != 1) why = _FC3D_WR_NO_GROUPS;
    else if (P.cin != _FC3D_WR_CI || P.cout > _FC3D_WR_CO) why = _FC3D_WR_NO_CHANNELS;
    for (i = 0; i < 3 && !why; i++)
        if (P.k[i] != 3 || P.s[i] != 2 || P.p[i] != 1 || P.dl[i] != 1) why = _FC3D_WR_NO_GEOMETRY;
    if (!why && (P.in[1] > _FC3D_WR_MAXHW || P.in[2] > _FC3D_WR_MAXHW || P.n * P.out[0] * P.out[1] > 0x7fffffff ||
                 P.n * P.in[0] > 0x7fffffff))
        why = _FC3D_WR_NO_SIZE; /* (its rows and input planes counted in 32 bits) */
    if (!why && rows) why = _FC3D_WR_NO_OPS;
    for (i = 0; i < p->desc.num_ops && !why; i++)
        if (!_fc3d_wr_kind_ok(_fc3d_enum_int(&p->desc.ops[i].kind))) why = _FC3D_WR_NO_OPS;
    if (!why && _fc3d_wr_smem(P.in[1], true) > (size_t)P.smem_max) why = _FC3D_WR_NO_SMEM; /* (154 KB at H 32) */
    tp->wr_why = why;
    if (why) return;
    P.wr_half = tp->math == _FC3D_TC_HALF;
    tp->wr_xbytes = (size_t)P.n * (size_t)P.idhw * _FC3D_WR_CI * 2;
    tp->wr_ok = 1;
}

/* >>block-loop -----------------------------------------------------------------------------------
   The implicit-GEMM engine's block loop (FC3D_MAIN_LOOP_BLOCK): short K at small channel counts.
   The tiled loops pay a fixed cost per 128-row tile (row and tap tables, pipeline fill, barriers,
   an epilogue staged through shared memory): L2/15 (C_in 16, C_out 32, 1 to 8 taps a phase)
   retired ~37 M tiles a second there, 4x its convolution's floor, with its MMAs under 5 % of the
   instructions. Here a CTA keeps the whole weight in shared memory (rounded to TF32 and laid out
   in mma.sync's B fragment order, loaded once: the grid is persistent) and walks blocks of
   bk_bd x bk_bh output rows (od, oh) of one sample, every W position and channel of them. Per
   block, the input rows every tap of those rows reads (bk_ed x bk_eh rows of the padded W, each
   input channel bk_cs floats apart, = 8 mod 32 so that a fragment's 32 loads hit 32 banks) come
   into one of two buffers by cp.async (16-byte chunks where the input W is a multiple of 4 and x
   is 16-byte aligned, else 4 bytes; zero-filled outside the input), the next block's while this
   one computes, and are rounded in place by the threads that copied them. A warp's
   unit is 16 consecutive positions of one W phase of one row x every output channel (NT8 x 8):
   for each tap of the row's phase an m16n8k8 per 8 input channels and 8 output channels, A read
   from the input block at the tap's offset (no gather, no table), B from the weight. The
   accumulators get the bias and the pass's ops (those fixed by (n, c) resolved once per block and
   channel into shared memory) and are stored straight from registers (the W phases of the same
   positions run on neighbouring warps at once, so their stride-2 stores meet in L2). At W stride
   2 in a pass with a store and no ops (L2/15's convolution alone and its GEMM step), or ops that
   compose into one map a v + b per (n, c) (the map composed per block and channel, AFF), a unit
   is instead 16 positions of both W phases (_FC3D_BK_PAIRS), a warp computing the two one after the other, and
   the epilogue writes (2 q, 2 q + 1) or (2 q + 1, 2 q + 2) pairs as 8-byte stores, whichever the
   row's alignment allows (_fc3d_bk_store_pairs): whole sectors from one instruction;
   statistics partials are summed per lane in float over the block's units, in double across
   lanes and warps in a fixed order, one slot per (block, n, c) (the plan sizes slots by the tiled
   loops' tiles; each block zeroes its share of the rest).
   Where C_in is a multiple of 16 (_FC3D_BK_F16) the operands are held as f16 and the MMAs are
   m16n8k16: a thread copies the rows of a channel pair and converts them into an f16 copy of the
   block (cvt.rn to f16 is TF32's rounding for values in f16's normal range), as it is where the
   block's largest magnitude lies in [2^-4, 2^15) and else at the block's own power of two; the
   weight pieces at the weight's power of two; the epilogue's FFMA undoes both. Half the MMAs and
   fragment loads a tap: L2/15's convolution kernel 196-197 -> 188-190 us under ncu (54.1 M ->
   51.0 M warp instructions), its chain 0.349-0.350 -> 0.345 ms, its convolution alone 0.160 ->
   0.160 (H200, one run, two rounds; bench/RESULTS.md fiftieth entry): the unit's loop is bound by
   its latency and its stores more than by its MMAs. Where the f16 copy leaves too small a block
   the f32 operands stay. HALF math on float32 tensors runs the same kernels with x and the weight
   rounded to f16 as they are (P.bk_half: no powers of two, the weight not rounded to TF32 first;
   half math's operands on the direct engine and the tiled and haloed loops alike: past 65504 a
   value is infinite, under 2^-14 it keeps f16's subnormal step), so that a plan's half math means
   one thing whichever loop runs it; where every operand lies in f16's normal range its result is
   TF32's on this path. The block loop refuses HALF where the f16 path does not apply. L2/15 in
   half math (`make bench`, H200): its chain 0.564 -> 0.344-0.345 ms, its convolution alone 0.353
   -> 0.160-0.163 (the tiled wgmma loop before; bench/RESULTS.md fiftieth and fifty-first
   entries). */
#ifndef _FC3D_BK_NW
#define _FC3D_BK_NW 8 /* warps a CTA. 6 (a 3 x 3 block's 18 units of both W phases in three full
                          rounds, 164 registers) took L2/15's convolution alone 0.185 -> 0.182 ms and
                          its chain 0.373 -> 0.370, but small runs of few blocks 0.040 -> 0.049 ms
                          (conv_alone S7, S8); 9: 96 registers, spills, 0.210 (bench/RESULTS.md
                          thirty-second entry) */
#endif
#ifndef _FC3D_BK_CTAS
#define _FC3D_BK_CTAS 2 /* CTAs an SM (the persistent grid; the registers' cap) */
#endif
#ifndef _FC3D_BK_SMEM
#define _FC3D_BK_SMEM (112 * 1024) /* shared memory a CTA: two an SM */
#endif
#define _FC3D_BK_NT (32 * _FC3D_BK_NW)
#ifndef _FC3D_BK_PAIRS
#define _FC3D_BK_PAIRS 1 /* units of both W phases where the W stride is 2 and the pass stores, its
                            ops (if any) one affine map per (n, c) */
#endif
#ifndef _FC3D_BK_PAIRS_NS
#define _FC3D_BK_PAIRS_NS 1 /* and where it does not store (statistics only) */
#endif
#define _FC3D_BK_NCOPS 4 /* ops fixed by (n, c) a pass may have for them to be resolved per block */
#ifndef _FC3D_BK_F16
#define _FC3D_BK_F16 1 /* TF32's operands as f16 where C_in is a multiple of 16 (m16n8k16: half the MMAs and
                          fragment loads a tap; _fc3d_bk_main's F16); HALF math takes the block loop
                          only through it */
#endif
/* Whether ops [b, e) of the chain compose into one map a v + b per (n, c) once their statistics are
   known (_fc3d_kind_affine_nc), at most _FC3D_BK_NCOPS of them; true for no ops. Op: fc3d_op or
   _fc3d_dev_op. */
template <typename Op>
static inline bool _fc3d_bk_ops_affine(const Op* ops, int b, int e)
{
    if (e - b > _FC3D_BK_NCOPS) return false;
    for (int i = b; i < e; i++)
        if (!_fc3d_kind_affine_nc((int)ops[i].kind)) return false;
    return true;
}
/* Whether a convolving pass runs the block loop's units of both W phases: 32 channels of
   accumulators (NT8 4), W stride 2, a store or none (_FC3D_BK_PAIRS_NS), and ops that are one
   affine map per (n, c) (affine: _fc3d_bk_ops_affine), none included. The launch, the planner's
   estimate and the tests ask the same question here. */
static __host__ __device__ inline bool _fc3d_bk_pairs(int nt8, int s2, bool store, bool affine)
{
    return _FC3D_BK_PAIRS && nt8 == 4 && s2 == 2 && (store || _FC3D_BK_PAIRS_NS) && affine;
}

static __host__ __device__ inline int _fc3d_floordiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Shared memory of the block loop: the weight, two input blocks, the statistics' cross-warp sums,
   two unit tables (the block's, the next block's), the block's resolved ops, its channels' shifts of
   the statistics sums (_fc3d_bk_sums), the rows' tap counts and
   the input rows' descriptors; with f16 operands (P.bk_f16) the block's f16 copy and four words
   of its magnitude after them */
static __host__ __device__ inline size_t _fc3d_bk_smem(const _fc3d_tc_kparams& P, int nt8)
{
    const size_t kt = (size_t)P.k[0] * P.k[1] * P.k[2];
    return kt * (size_t)(P.cin_g / (P.bk_f16 ? 16 : 8)) * nt8 * 64 * 4 + 2 * (size_t)P.cin_g * P.bk_cs * 4 +
           (size_t)_FC3D_BK_NW * nt8 * 8 * 16 + (size_t)P.bk_units * 64 +
           (size_t)_FC3D_BK_NCOPS * nt8 * 8 * sizeof(_fc3d_unit_op) + (size_t)nt8 * 8 * 4 +
           (size_t)((P.bk_bd * P.bk_bh + 3) & ~3) * 4 +
           (size_t)P.cin_g * P.bk_ed * P.bk_eh * 16 + (P.bk_f16 ? (size_t)(P.cin_g / 2) * P.bk_cs * 4 + 16 : 0);
}

/* The weight [C_in][C_out][kd][kh][kw] -> [tap][k-step][n8 tile][lane][2] (per run, as the tiled
   loops' re-layout): lane (g, t) of an m16n8k8 holds B(k = t, n = g) and B(k = t + 4, n = g),
   rounded as cuDNN's TF32; output channels past C_out are zero. F16 (P.bk_f16): lane (g, t) of an
   m16n8k16 holds the f16 pairs B(k = 2 t, 2 t + 1; n = g) and B(k = 2 t + 8, 2 t + 9; n = g), each
   value rounded as cuDNN's TF32, then scaled by the power of two that puts the weight's largest
   finite magnitude in [2^14, 2^15) (the haloed loop's rule, _fc3d_hx_x3_pow2: the rounded values
   stay within 2^15; exact: 11 significant bits in f16's range; values under 2^-28
   of it round to f16's subnormal step, an error of at most 2^-39 of that magnitude); that magnitude's
   bits in the word after the pieces (_fc3d_bk_main unscales by it). Every block finds it over the
   whole weight (the block loop's weight fits its shared memory: a few thousand values; the launch
   has at most 16 blocks of 1024 threads, four 16-byte loads in flight a thread: at 256 threads
   and a load at a time, L2/15's 13,824 values took 17 us, a tenth of its convolution). In half
   math (P.bk_half) the values are rounded to f16 as they are, unscaled, and the word is 2^14's
   bits (a scale exponent of 0): no sweep. */
template <int NT8, bool F16 = false>
static __global__ void __launch_bounds__(1024) _fc3d_bk_prep_w(_fc3d_tc_kparams P, const float* __restrict__ w, float* __restrict__ wf)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap();
#else
    const int KT = P.k[0] * P.k[1] * P.k[2], cout = (int)P.cout;
    if (F16) {
        __shared__ unsigned wmx[32];
        const int64_t nw = P.cin_g * (int64_t)cout * KT;
        /* half math: the weight as it is, its magnitude word 2^14's bits (a scale exponent of 0) */
        unsigned m = 0x46800000u;
        if (!P.bk_half) {
            m = _fc3d_warp_umax(_fc3d_hx_sweep_max(w, nw, threadIdx.x, blockDim.x));
            if ((threadIdx.x & 31) == 0) wmx[threadIdx.x >> 5] = m;
            __syncthreads();
            m = 0u;
            for (int i = 0; i < (int)(blockDim.x >> 5); ++i) m = max(m, wmx[i]);
        }
        const float ws = _fc3d_hx_x3_pow2(m, 1);
        const bool rnd = !P.bk_half;
        const int KS = (int)P.cin_g / 16;
        const int64_t total = (int64_t)KT * KS * NT8 * 64;
        uint32_t* const wh = reinterpret_cast<uint32_t*>(wf);
        for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
            const int hi = (int)(e & 1), l = (int)((e >> 1) & 31);
            const int64_t f = e >> 6;
            const int j = (int)(f % NT8), kk = (int)((f / NT8) % KS), tap = (int)(f / (NT8 * KS));
            const int ci = kk * 16 + 2 * (l & 3) + 8 * hi, co = j * 8 + (l >> 2);
            float v0 = co < cout ? w[((int64_t)ci * cout + co) * KT + tap] : 0.f;
            float v1 = co < cout ? w[((int64_t)(ci + 1) * cout + co) * KT + tap] : 0.f;
            if (rnd) { /* (half math: as they are, ws = 1) */
                v0 = __uint_as_float(_fc3d_tc_round(v0));
                v1 = __uint_as_float(_fc3d_tc_round(v1));
            }
            wh[e] = _fc3d_tc_pack<false>(v0 * ws, v1 * ws);
        }
        if (blockIdx.x == 0 && threadIdx.x == 0) wh[total] = m;
        return;
    }
    const int KS = (int)P.cin_g / 8;
    const int64_t total = (int64_t)KT * KS * NT8 * 64;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int hi = (int)(e & 1), l = (int)((e >> 1) & 31);
        const int64_t f = e >> 6;
        const int j = (int)(f % NT8), kk = (int)((f / NT8) % KS), tap = (int)(f / (NT8 * KS));
        const int ci = kk * 8 + (l & 3) + 4 * hi, co = j * 8 + (l >> 2);
        const float v = co < cout ? w[((int64_t)ci * cout + co) * KT + tap] : 0.f;
        wf[e] = __uint_as_float(_fc3d_tc_round(v));
    }
#endif
}

static __device__ __forceinline__ void _fc3d_st2_if(float* p, float a, float b, bool ok)
{
    asm volatile("{\n.reg .pred q;\nsetp.ne.b32 q, %3, 0;\n@q st.global.v2.f32 [%0], {%1, %2};\n}\n" ::"l"(p), "f"(a),
                 "f"(b), "r"((int)ok));
}

/* A pairs' epilogue value: the accumulator and the bias (bv), or, with the pass's ops (AFF), the
   accumulator through the channel's map a v + b (ab: the block's maps from the lane's first
   channel on, each composed in double from the bias and the ops: _fc3d_bk_main). With f16
   operands (F16) the accumulator is first multiplied by sc, the power of two that undoes the
   operands' scales (exact), in the same FFMA. */
template <bool AFF, bool F16>
static __device__ __forceinline__ float2 _fc3d_bk_map(float bv, const float2* ab, int k, float sc)
{
    return AFF ? (F16 ? make_float2(ab[k].x * sc, ab[k].y) : ab[k]) : make_float2(F16 ? sc : 1.0f, bv);
}
template <bool FMA>
static __device__ __forceinline__ float _fc3d_bk_val(float acc, float2 m)
{
    return FMA ? fmaf(acc, m.x, m.y) : acc + m.y;
}

/* The block loop's statistics sums are of v - k, k the channel's value where the accumulator is
   0 (the bias through the pass's ops: what a tap-less output holds), unshifted in double per
   block (_fc3d_bk_main). Plain float sums lose a channel's variance under ~1e-7 of its mean
   squared to rounding: where every output of a channel is tap-less (or x is 0) the variance is
   0, and a GroupNorm after a training BatchNorm, whose statistics the moments plan derives from
   the BatchNorm's variance (scaled by 1 / (var + eps)), took the rounding as signal (relative L2
   0.037 against the direct engine on such a desc, tests/test_gpu.cu block_loop_constant). Up to
   four values of one channel, each where its predicate holds. */
static __device__ __forceinline__ void _fc3d_bk_sums(float v0, float v1, float v2, float v3, bool o0, bool o1, bool o2,
                                                     bool o3, float k, float& ssum, float& ssq)
{
    const float s0 = o0 ? v0 - k : 0.f, s1 = o1 ? v1 - k : 0.f, s2 = o2 ? v2 - k : 0.f, s3 = o3 ? v3 - k : 0.f;
    ssum += (s0 + s1) + (s2 + s3);
    ssq += (s0 * s0 + s1 * s1) + (s2 * s2 + s3 * s3);
}

/* _fc3d_bk_store_pairs for a unit whose channels are all within C_out and whose positions are all
   within the output but phase 1's last one, which lies past it where lb1 is 0 on lane g = 7
   (L2/15: 63 outputs a row, 32 and 31 a phase, every unit so). The row's parity is the same for a
   warp's lanes (their channels are 2 t apart), so the choice between the two store patterns is
   made once per h (par: ow = 2 q0 of channel 2 t + h is odd), the address steps by 8 channels, and
   the predicates are the lane's own: 6 stores a (j, h) pattern, 3 of them predicated. */
template <int NT8, bool ST, bool AFF, bool F16>
static __device__ __forceinline__ void _fc3d_bk_store_pairs_near(const float (&a0)[NT8][4], const float (&a1)[NT8][4],
                                                                 const float (&bv)[NT8][2], const float2* ab, float sc,
                                                                 float* y0, int64_t odhw, const unsigned (&par)[2],
                                                                 int lane, bool lb1, float (&ssum)[NT8][2],
                                                                 float (&ssq)[NT8][2])
{
    constexpr bool FMA = AFF || F16;
    const int g = lane >> 2, src = (lane + 4) & 31;
    const bool g0 = g == 0, gl7 = g < 7, g7b = g == 7 && lb1;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float* p = y0 + h * odhw;
        if (!par[h]) {
#pragma unroll
            for (int j = 0; j < NT8; ++j, p += 8 * odhw) {
                const float2 m = _fc3d_bk_map<AFF, F16>(bv[j][h], ab, 8 * j + h, sc);
                const float v00 = _fc3d_bk_val<FMA>(a0[j][h], m), v01 = _fc3d_bk_val<FMA>(a0[j][2 + h], m);
                const float v10 = _fc3d_bk_val<FMA>(a1[j][h], m), v11 = _fc3d_bk_val<FMA>(a1[j][2 + h], m);
                _fc3d_st2_if(p, v00, v10, true);
                _fc3d_st2_if(p + 16, v01, v11, lb1);
                _fc3d_st_if(p + 16, v01, !lb1);
                if (ST) _fc3d_bk_sums(v00, v01, v10, v11, true, true, true, lb1, m.y, ssum[j][h], ssq[j][h]);
            }
        } else {
#pragma unroll
            for (int j = 0; j < NT8; ++j, p += 8 * odhw) {
                const float2 m = _fc3d_bk_map<AFF, F16>(bv[j][h], ab, 8 * j + h, sc);
                const float v00 = _fc3d_bk_val<FMA>(a0[j][h], m), v01 = _fc3d_bk_val<FMA>(a0[j][2 + h], m);
                const float v10 = _fc3d_bk_val<FMA>(a1[j][h], m), v11 = _fc3d_bk_val<FMA>(a1[j][2 + h], m);
                const float nA = __shfl_sync(0xffffffffu, v00, src), nB = __shfl_sync(0xffffffffu, v01, src);
                _fc3d_st_if(p, v00, g0);
                _fc3d_st2_if(p + 1, v10, gl7 ? nA : nB, true);
                _fc3d_st2_if(p + 17, v11, nB, gl7);
                _fc3d_st_if(p + 17, v11, g7b);
                if (ST) _fc3d_bk_sums(v00, v01, v10, v11, true, true, true, lb1, m.y, ssum[j][h], ssq[j][h]);
            }
        }
    }
}

/* The block loop's epilogue for a unit of both W phases (W stride 2; no ops, or AFF's map): lane
   (g, t) holds, for channel 8 j + 2 t + h, phase 0 (ow = 2 q) and phase 1 (ow = 2 q + 1) at
   positions q = q0 + g and q0 + g + 8, the bias added. Where the channel's row is 8-byte aligned at
   ow = 2 q0 (uniform over a store instruction: its lanes' channels are 2 t apart, an even number
   of floats), the pairs (2 q, 2 q + 1) are stored as one 8-byte write each (W = 63 rows alternate
   in parity); else the pairs (2 q + 1, 2 q + 2), the phase-0 value of
   position q + 1 taken from the lane that holds it (g + 1, or g = 0's second position for g = 7),
   with 2 q0 (g = 0) and the unit's last odd position (g = 7's second) alone. Every element once; the
   sums as the one-phase epilogue's, over the valid values. A pass that stores nothing takes the
   sums alone (where the unit is full, with the last position's test only). */
template <int NT8, bool AFF, bool F16>
static __device__ __forceinline__ void _fc3d_bk_store_pairs(const _fc3d_tc_kparams& P, const float (&a0)[NT8][4],
                                                            const float (&a1)[NT8][4], const float (&bv)[NT8][2],
                                                            const float2* ab, float sc, float* yn, int4 uc,
                                                            int64_t odhw, int lane, float (&ssum)[NT8][2],
                                                            float (&ssq)[NT8][2])
{
    constexpr bool FMA = AFF || F16;
    const int g = lane >> 2, t = lane & 3;
    const int od = uc.x, oh = uc.y, q0 = uc.z, Qa = uc.w & 0xffff, Qb = uc.w >> 16;
    const bool a_0 = q0 + g < Qa, a_1 = q0 + g + 8 < Qa, b_0 = q0 + g < Qb, b_1 = q0 + g + 8 < Qb;
    const bool n_0 = q0 + g + 1 < Qa, n_1 = g < 7 && q0 + g + 9 < Qa; /* phase 0 at q + 1, within the unit */
    float* const y0 = yn + (int64_t)(2 * t) * odhw + ((int64_t)od * P.out[1] + oh) * P.out[2] + 2 * (q0 + g);
    if (P.store && P.cout >= 8 * NT8 && q0 + 16 <= Qa && q0 + 15 <= Qb) { /* _fc3d_bk_store_pairs_near */
        unsigned par[2];
        par[0] = (unsigned)(reinterpret_cast<uintptr_t>(y0 - 2 * g) >> 2) & 1u;
        par[1] = par[0] ^ (unsigned)(odhw & 1);
        if (P.stats) _fc3d_bk_store_pairs_near<NT8, true, AFF, F16>(a0, a1, bv, ab, sc, y0, odhw, par, lane, b_1, ssum, ssq);
        else _fc3d_bk_store_pairs_near<NT8, false, AFF, F16>(a0, a1, bv, ab, sc, y0, odhw, par, lane, b_1, ssum, ssq);
        return;
    }
    if (!P.store && P.cout >= 8 * NT8 && q0 + 16 <= Qa && q0 + 15 <= Qb) { /* the sums alone, of a full unit */
        if (P.stats)
#pragma unroll
            for (int j = 0; j < NT8; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const float2 m = _fc3d_bk_map<AFF, F16>(bv[j][h], ab, 8 * j + h, sc);
                    const float v00 = _fc3d_bk_val<FMA>(a0[j][h], m), v01 = _fc3d_bk_val<FMA>(a0[j][2 + h], m);
                    const float v10 = _fc3d_bk_val<FMA>(a1[j][h], m), v11 = _fc3d_bk_val<FMA>(a1[j][2 + h], m);
                    _fc3d_bk_sums(v00, v01, v10, v11, true, true, true, b_1, m.y, ssum[j][h], ssq[j][h]);
                }
        return;
    }
    const int src = (lane + 4) & 31;
#pragma unroll
    for (int j = 0; j < NT8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const bool cok = 8 * j + 2 * t + h < P.cout;
            const float2 m = _fc3d_bk_map<AFF, F16>(bv[j][h], ab, 8 * j + h, sc);
            const float v00 = _fc3d_bk_val<FMA>(a0[j][h], m), v01 = _fc3d_bk_val<FMA>(a0[j][2 + h], m);
            const float v10 = _fc3d_bk_val<FMA>(a1[j][h], m), v11 = _fc3d_bk_val<FMA>(a1[j][2 + h], m);
            float* const p = y0 + (int64_t)(8 * j + h) * odhw;
            if (P.store) {
                const float* const row = p - 2 * g; /* ow = 2 q0 of this lane's channel */
                const bool odd = (reinterpret_cast<uintptr_t>(row) >> 2) & 1u;
                if (!odd) {
                    _fc3d_st2_if(p, v00, v10, cok && a_0 && b_0);
                    _fc3d_st_if(p, v00, cok && a_0 && !b_0);
                    _fc3d_st2_if(p + 16, v01, v11, cok && a_1 && b_1);
                    _fc3d_st_if(p + 16, v01, cok && a_1 && !b_1);
                } else {
                    const float nA = __shfl_sync(0xffffffffu, v00, src), nB = __shfl_sync(0xffffffffu, v01, src);
                    const float n0 = g < 7 ? nA : nB;
                    _fc3d_st_if(p, v00, cok && g == 0 && a_0);
                    _fc3d_st2_if(p + 1, v10, n0, cok && b_0 && n_0);
                    _fc3d_st_if(p + 1, v10, cok && b_0 && !n_0);
                    _fc3d_st2_if(p + 17, v11, nB, cok && b_1 && n_1);
                    _fc3d_st_if(p + 17, v11, cok && b_1 && !n_1);
                }
            }
            if (P.stats) _fc3d_bk_sums(v00, v01, v10, v11, a_0, a_1, b_0, b_1, m.y, ssum[j][h], ssq[j][h]);
        }
}

/* The block loop's unit order. A unit costs its row's (d, h) taps times the W taps (the same for
   every row) plus its stores, and a block's rows differ: L2/15's 3 x 3 blocks hold rows of 1, 2
   and 4 (d, h) taps, 18 units for 8 warps. Round i gives warp w unit i NW + (w + i) mod NW; with
   the units in row order one warp could get two of the costliest, and the others waited for it at
   the block's barriers (ncu, L2/15's convolution alone: 23.7 % of the stall samples at the two
   barriers; a model of the costs puts the busiest warp at 1.45x the mean). The table lists the rows
   by their (d, h) tap count, most first, ties in row order (the model: 1.19x), a row's units
   together; rows past the output (no taps) last: L2/15's convolution 0.210 -> 0.206 ms (H200, three
   rounds), the barriers 18.7 % of the samples (the last round's two units holding six warps; 6
   warps a CTA, three full rounds, measured: _FC3D_BK_NW). The table of a block is built during the
   block before it, by one warp after its units (_fc3d_bk_main's build_table): the rows' counts
   into shared memory (Rk), then the rank of each by a loop over them. Built between a block's two
   barriers instead, by warp 0 (its first 18 threads on L2/15), it held the other seven at the
   middle barrier (ncu: 9.5 % of the stall samples there). The same units on the same warps at
   every run: the statistics partials stay deterministic. */
static __device__ __forceinline__ int _fc3d_bk_row_taps(const _fc3d_tc_kparams& P, int od, int oh)
{
    return od < P.out[0] && oh < P.out[1] ? P.hx_dt[0][od % P.s[0]][0] * P.hx_dt[1][oh % P.s[1]][0] : 0;
}
static __device__ __forceinline__ int _fc3d_bk_row_rank(const int* Rk, int R, int rr)
{
    const int key = Rk[rr];
    int rank = 0;
    for (int r = 0; r < R; ++r) {
        const int k = Rk[r];
        rank += k > key || (k == key && r < rr);
    }
    return rank;
}

/* The W tap pattern of a run's units of both W phases where _fc3d_bk_pair_taps takes them in a kernel
   of their own: phase 0's W taps x 4 + phase 1's, for (1, 2), (2, 1), (2, 2) and (1, 1) taps at 2 or
   4 k-steps (C_in 16 or 32); (1, 2) and (2, 1) only where the phases' taps read one input column in
   common, phase 0's first with phase 1's second or first (_fc3d_bk_pair_taps' SH: kernel 3, W
   stride 2, dilation 1, any padding); 0 where the generic loop or the dispatching kernel runs them.
   A unit whose phase has no positions (past the output W) runs the generic loop as well. */
static __host__ __device__ inline int _fc3d_bk_pair_pattern(const _fc3d_tc_kparams& P)
{
    const int ks = (int)P.cin_g / 8, pat = P.hx_dt[2][0][0] * 4 + P.hx_dt[2][1][0];
    const int *e0 = P.hx_dt[2][0], *e1 = P.hx_dt[2][1];
    const bool taps = (pat == 6 && e1[3] - e1[4] == e0[3]) || (pat == 9 && e1[3] == e0[3]) || pat == 10 || pat == 5;
    return P.s[2] == 2 && P.out[2] >= 2 && (ks == 2 || ks == 4) && taps ? pat : 0;
}

/* One tap of one k-step of a unit's W phase: the A fragment from the input block at xa (lane (g, t):
   positions g and g + 8 of channels t and t + 4 of the k-step), the NT8 B fragments from the weight at
   wb, NT8 m16n8k8 MMAs into acc. F16: the block's f16 copy holds a word per channel pair and
   position where the f32 block holds a float per channel and position (the same offsets), so the
   same loads give lane (g, t) the pairs (2 t, 2 t + 1) and (2 t + 8, 2 t + 9) of a 16-channel
   k-step, and NT8 m16n8k16 MMAs take them (_fc3d_bk_prep_w's pieces). */
static __device__ __forceinline__ void _fc3d_bk_a_frag(uint32_t (&a)[4], const float* xa, int kk, int CS)
{
    a[0] = __float_as_uint(xa[kk * 8 * CS]);
    a[1] = __float_as_uint(xa[kk * 8 * CS + 8]);
    a[2] = __float_as_uint(xa[(kk * 8 + 4) * CS]);
    a[3] = __float_as_uint(xa[(kk * 8 + 4) * CS + 8]);
}
template <int NT8, bool F16>
static __device__ __forceinline__ void _fc3d_bk_b_mmas(float (&acc)[NT8][4], const uint32_t (&a)[4], const float* wb, int kk)
{
#pragma unroll
    for (int j = 0; j < NT8; ++j) {
        const float2 bb = *reinterpret_cast<const float2*>(wb + (kk * NT8 + j) * 64);
        const uint32_t bf[2] = {__float_as_uint(bb.x), __float_as_uint(bb.y)};
        if (F16) _fc3d_tc_mma_k16<false>(acc[j], a, bf);
        else _fc3d_tc_mma_tf32(acc[j], a, bf);
    }
}
template <int NT8, bool F16>
static __device__ __forceinline__ void _fc3d_bk_tap_step(float (&acc)[NT8][4], const float* xa, const float* wb, int kk,
                                                         int CS)
{
    uint32_t a[4];
    _fc3d_bk_a_frag(a, xa, kk, CS);
    _fc3d_bk_b_mmas<NT8, F16>(acc, a, wb, kk);
}

/* A unit of both W phases whose W tap counts (N0 for phase 0, N1 for phase 1) and k-steps (KS) are
   known at compile time: per (d, h) tap, the phases' W taps and k-steps run unrolled side by side,
   2 NT8 independent accumulator chains, every fragment address an offset of four pointers. Each
   accumulator sums its products in the order of the generic loop (d, h, w tap, then k-step), but
   with SH: at (1, 2) W taps (SH 1) phase 0's tap reads the input column of phase 1's second, at
   (2, 1) (SH 2) phase 0's first that of phase 1's (kernel 3, W stride 2: _fc3d_bk_pair_pattern), and
   one A fragment serves both, the k-steps outermost (phase 1's sums in the order k-step, then w
   tap): 16 fragment loads per (d, h) tap of L2/15's 24.
   A run whose pattern this takes launches the kernel of its pattern (_fc3d_bk_main's PT, one per
   pattern and k-step count: _fc3d_bk_run::pairs). Behind one run-time dispatch among the eight,
   each unit's zeroed accumulators went through about 60 register moves before its taps (ncu's
   SASS of L2/15's convolution alone), which took 0.171 ms against 0.167 with its own kernel. */
template <int NT8, int KS, int N0, int N1, int SH, bool F16>
static __device__ __forceinline__ void _fc3d_bk_pair_taps(float (&a0)[NT8][4], float (&a1)[NT8][4], const float* x0,
                                                          const float* x1, const float* w0, const float* w1, int xw0,
                                                          int xw1, int ww0, int ww1, int ntd, int nth, int xd, int xh,
                                                          int wd, int wh, int CS)
{
    for (int jd = 0; jd < ntd; ++jd, x0 -= xd, x1 -= xd, w0 += wd, w1 += wd) {
        const float *xa0 = x0, *xa1 = x1, *wb0 = w0, *wb1 = w1;
        for (int jh = 0; jh < nth; ++jh, xa0 -= xh, xa1 -= xh, wb0 += wh, wb1 += wh) {
            if constexpr (SH != 0) {
#pragma unroll
                for (int kk = 0; kk < KS; ++kk) {
                    uint32_t as[4], ab[4];
                    _fc3d_bk_a_frag(as, xa0, kk, CS); /* phase 0's first tap */
                    _fc3d_bk_b_mmas<NT8, F16>(a0, as, wb0, kk);
                    if (SH == 2) { /* (2, 1): phase 0's second tap, phase 1's one */
                        _fc3d_bk_a_frag(ab, xa0 - xw0, kk, CS);
                        _fc3d_bk_b_mmas<NT8, F16>(a0, ab, wb0 + ww0, kk);
                        _fc3d_bk_b_mmas<NT8, F16>(a1, as, wb1, kk);
                    } else { /* (1, 2): phase 1's first tap, then its second */
                        _fc3d_bk_a_frag(ab, xa1, kk, CS);
                        _fc3d_bk_b_mmas<NT8, F16>(a1, ab, wb1, kk);
                        _fc3d_bk_b_mmas<NT8, F16>(a1, as, wb1 + ww1, kk);
                    }
                }
            } else {
#pragma unroll
                for (int jw = 0; jw < (N0 > N1 ? N0 : N1); ++jw)
#pragma unroll
                    for (int kk = 0; kk < KS; ++kk) {
                        if (jw < N0) _fc3d_bk_tap_step<NT8, F16>(a0, xa0 - jw * xw0, wb0 + jw * ww0, kk, CS);
                        if (jw < N1) _fc3d_bk_tap_step<NT8, F16>(a1, xa1 - jw * xw1, wb1 + jw * ww1, kk, CS);
                    }
            }
        }
    }
}

/* The block loop's kernel. PT: 0, or C_in / 8 x 16 + the W tap pattern (_fc3d_bk_pair_pattern)
   of a run whose units of both W phases it runs unrolled (_fc3d_bk_pair_taps). F16 (P.bk_f16):
   TF32's operands held as f16 (the weight from _fc3d_bk_prep_w's pieces, the input block converted
   once staged, below), m16n8k16 MMAs: 16-channel k-steps, half the MMAs and fragment loads of
   m16n8k8's 8-channel ones, into the same FP32 accumulators; the sums multiplied back by the
   scales (powers of two) in the epilogue's FFMA. */
template <int NT8, int PH, typename Epi, bool AFF = false, int PT = 0, bool F16 = false>
static __global__ void __launch_bounds__(_FC3D_BK_NT, _FC3D_BK_CTAS)
_fc3d_bk_main(_fc3d_tc_kparams P, const float* __restrict__ x, const float* __restrict__ wf,
              const float* __restrict__ bias, float* __restrict__ y, Epi epi)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap(); /* mma.sync TF32 and cp.async need sm_80; the run refuses older devices before launching */
#else
    constexpr int NW = _FC3D_BK_NW, NT = _FC3D_BK_NT, CO = 8 * NT8;
    extern __shared__ __align__(16) unsigned char _fc3d_bk_sm[];
    const int KS = (int)P.cin_g / (F16 ? 16 : 8), WT = KS * NT8 * 64; /* k-steps; words of one tap's weight */
    constexpr int KD = F16 ? 2 : 1; /* (C_in / 8 over the k-steps) */
    const int KT = P.k[0] * P.k[1] * P.k[2], CIN = (int)P.cin_g, CS = P.bk_cs;
    const int U = P.bk_units;
    float* Ws = reinterpret_cast<float*>(_fc3d_bk_sm);
    float* Xs = Ws + (size_t)KT * WT;
    double2* Red = reinterpret_cast<double2*>(Xs + 2 * CIN * CS);
    /* two unit tables (this block's, the next block's), two int4 a unit */
    int4* const Ut0 = reinterpret_cast<int4*>(Red + NW * CO);
    _fc3d_unit_op* Uo = reinterpret_cast<_fc3d_unit_op*>(Ut0 + 4 * U); /* the pass's ops per channel */
    /* the block's rows' (d, h) tap counts, R rounded up to 4: ptxas reads the rank loop's last
       keys in pairs (one LDS.64 where one key is left), so the words past R are allocated */
    /* the block's channels' shifts of the statistics sums (_fc3d_bk_sums) */
    float* const Kc = reinterpret_cast<float*>(Uo + _FC3D_BK_NCOPS * CO);
    int* Rk = reinterpret_cast<int*>(Kc + CO);
    int4* const Cd = reinterpret_cast<int4*>(Rk + ((P.bk_bd * P.bk_bh + 3) & ~3)); /* the input rows (rows_of) */
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
    const int cout = (int)P.cout;

    /* the weight, once per CTA (the grid is persistent), with the first block's input rows */
    for (int i = tid; i < KT * WT / 4; i += NT) _fc3d_tc_cp16(Ws + 4 * i, wf + 4 * i, true);
    float bv[NT8][2];
#pragma unroll
    for (int j = 0; j < NT8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int c = 8 * j + 2 * t + h;
            bv[j][h] = bias && c < cout ? bias[c] : 0.f;
        }

    const int BD = P.bk_bd, BH = P.bk_bh, ED = P.bk_ed, EH = P.bk_eh, WP = P.bk_wp, PLW = P.bk_plw, QT = P.bk_qt;
    /* F16: the block's f16 copy (a word per channel pair and position, at the f32 block's offsets) and
       the block's largest magnitude (MX[0], MX[1]: one per buffer; MX[2]: the finite one where the
       block holds an infinity), after the input rows' descriptors; the weight's largest magnitude
       after its pieces */
    float* const X2 = reinterpret_cast<float*>(Cd + CIN * ED * EH);
    unsigned* const MX = reinterpret_cast<unsigned*>(X2 + (CIN / 2) * CS);
    const unsigned wmag = F16 ? reinterpret_cast<const unsigned*>(wf)[KT * WT] : 0u;
    const int s0 = P.s[0], s1 = P.s[1], s2 = P.s[2];
    const int64_t bps = P.bk_blocks, nblk = bps * P.n;
    /* block b: sample, first output rows, first input rows */
    const bool nb32 = nblk <= 0x7fffffff; /* a 32-bit division then */
    auto origin = [&](int64_t b, int64_t* n, int* od0, int* oh0, int* id0, int* ih0) {
        *n = nb32 ? (int64_t)((unsigned)b / (unsigned)bps) : b / bps;
        const int r = (int)(b - *n * bps), bd = r / P.bk_nbh, bh = r - bd * P.bk_nbh;
        *od0 = bd * BD;
        *oh0 = bh * BH;
        *id0 = _fc3d_floordiv(*od0 + P.p[0] - P.dl[0] * (P.k[0] - 1), s0);
        *ih0 = _fc3d_floordiv(*oh0 + P.p[1] - P.dl[1] * (P.k[1] - 1), s1);
    };
    /* The input rows (channel, d, h) of block b. Where the input W is a multiple of 4 floats and x
       16-byte aligned: 16-byte copies, a row's chunks on consecutive lanes (32 / chunks rows a warp
       step), the columns no copy writes (padding) zeroed once per CTA; else 4-byte copies, a warp
       per row and its lanes along the padded W. A thread copies the same rows of every block: each
       row's offsets are computed once per CTA into shared memory (Cd: in x from the block's first
       input row, 64 bits in .x and .y; d | h << 16 in .z; in the input block, .w), and a block adds
       its own origin (where they were computed per row and block, by multiply-high division, the
       copy took 53 instructions a warp's row step and the rounding 25 more: ncu, L2/15's
       convolution alone, bench/RESULTS.md forty-second entry). `round`: the same elements, rounded
       in place once this thread's copies have landed. */
    const int EDH = ED * EH, nrow = CIN * EDH;
    /* F16: a row step copies the rows of a channel pair (2 p, 2 p + 1) at once, so that the thread
       that copied them converts them (their f16 pairs), as the f32 path rounds its own rows */
    const int nrw = F16 ? nrow / 2 : nrow;
    const int64_t XCS = (int64_t)P.in[0] * P.in[1] * P.in[2]; /* (x's channel stride) */
    const bool vec = P.bk_vec && (reinterpret_cast<uintptr_t>(x) & 15) == 0;
    const int CW = P.in[2] / 4, RPW = vec && CW < 32 ? 32 / CW : 1;
    const int lr = vec && CW < 32 ? lane / CW : 0, lc = vec && CW < 32 ? lane % CW : lane;
    const bool lact = !vec || CW >= 32 || lane < RPW * CW;
    for (int rr = tid; rr < nrw; rr += NT) {
        const int q = F16 ? rr / EDH * 2 * EDH + rr % EDH : rr; /* (F16: the row of channel 2 p) */
        const int ci = q / EDH, rem = q - ci * EDH, dd = rem / EH, hh = rem - dd * EH;
        const int64_t so = ((int64_t)ci * P.in[0] + dd) * ((int64_t)P.in[1] * P.in[2]) + (int64_t)hh * P.in[2];
        Cd[rr] = make_int4((int)(uint32_t)(uint64_t)so, (int)(uint32_t)((uint64_t)so >> 32), dd | hh << 16,
                           ci * CS + (dd * EH + hh) * WP);
    }
    auto rows_of = [&](int64_t b, float* xs, auto per) {
        int64_t n;
        int od0, oh0, id0, ih0;
        origin(b, &n, &od0, &oh0, &id0, &ih0);
        if (!lact) return;
        const int64_t bo = ((n * P.cin * P.in[0] + id0) * P.in[1] + ih0) * P.in[2]; /* (n, 0, id0, ih0, 0) */
        for (int rr = warp * RPW + lr; rr < nrw; rr += NW * RPW) {
            const int4 cd = Cd[rr];
            const int id = id0 + (cd.z & 0xffff), ih = ih0 + (cd.z >> 16);
            const bool rok = (unsigned)id < (unsigned)P.in[0] && (unsigned)ih < (unsigned)P.in[1];
            const float* src = rok ? x + (bo + (int64_t)((uint64_t)(uint32_t)cd.y << 32 | (uint32_t)cd.x)) : x;
            float* dst = xs + cd.w;
            float* h = F16 ? X2 + (cd.w - rr / EDH * CS) : nullptr; /* (F16: the pair's f16 row) */
            if (vec) {
                for (int c = lc; c < CW; c += CW < 32 ? CW : 32)
                    per(std::integral_constant<int, 4>(), dst + PLW + 4 * c, src + 4 * c, rok, h + (F16 ? PLW + 4 * c : 0));
            } else {
                for (int col = lane; col < WP; col += 32) {
                    const int iw = col - PLW;
                    per(std::integral_constant<int, 1>(), dst + col, src + iw, rok && (unsigned)iw < (unsigned)P.in[2],
                        h + (F16 ? col : 0));
                }
            }
        }
    };
    auto load = [&](int64_t b, float* xs) {
        rows_of(b, xs, [&](auto vt, float* d, const float* s, bool ok, float*) {
            if (decltype(vt)::value == 4) {
                _fc3d_tc_cp16(d, ok ? s : x, ok);
                if (F16) _fc3d_tc_cp16(d + CS, ok ? s + XCS : x, ok);
            } else {
                _fc3d_tc_cp4(d, ok ? s : x, ok);
                if (F16) _fc3d_tc_cp4(d + CS, ok ? s + XCS : x, ok);
            }
        });
    };
    auto round = [&](int64_t b, float* xs) {
        rows_of(b, xs, [&](auto vt, float* d, const float*, bool, float*) {
            if (decltype(vt)::value == 4) {
                float4 v = *reinterpret_cast<float4*>(d);
                v.x = __uint_as_float(_fc3d_tc_round(v.x)); v.y = __uint_as_float(_fc3d_tc_round(v.y));
                v.z = __uint_as_float(_fc3d_tc_round(v.z)); v.w = __uint_as_float(_fc3d_tc_round(v.w));
                *reinterpret_cast<float4*>(d) = v;
            } else {
                *d = __uint_as_float(_fc3d_tc_round(*d));
            }
        });
    };
    /* F16: the pairs of channel rows this thread copied (f32 in xs) into X2 as f16 pairs of channels
       (2 p, 2 p + 1) a word, multiplied by xsc (1, or the block's power of two). cvt.rn to f16
       rounds a value in f16's normal range to 11 significant bits, to nearest, ties to even:
       TF32's rounding (and of the scaled value, the scaled TF32 value); under 2^-14 to f16's
       subnormal step, an error of at most 2^-25. Returns the largest |value| the thread converted
       (NaN left out, infinity kept: the caller then takes the finite largest, finite_max) where
       `track`. */
    auto convert = [&](int64_t b, float* xs, float xsc, bool track) {
        float m = 0.f;
        rows_of(b, xs, [&](auto vt, float* d, const float*, bool, float* h) {
            if (decltype(vt)::value == 4) {
                float4 a = *reinterpret_cast<const float4*>(d), c = *reinterpret_cast<const float4*>(d + CS);
                if (track)
                    m = fmaxf(fmaxf(fmaxf(m, fabsf(a.x)), fmaxf(fabsf(a.y), fabsf(a.z))),
                              fmaxf(fmaxf(fabsf(a.w), fabsf(c.x)), fmaxf(fabsf(c.y), fmaxf(fabsf(c.z), fabsf(c.w)))));
                if (xsc != 1.f) {
                    a.x *= xsc; a.y *= xsc; a.z *= xsc; a.w *= xsc;
                    c.x *= xsc; c.y *= xsc; c.z *= xsc; c.w *= xsc;
                }
                uint4 o;
                o.x = _fc3d_tc_pack<false>(a.x, c.x); o.y = _fc3d_tc_pack<false>(a.y, c.y);
                o.z = _fc3d_tc_pack<false>(a.z, c.z); o.w = _fc3d_tc_pack<false>(a.w, c.w);
                *reinterpret_cast<uint4*>(h) = o;
            } else {
                const float a = d[0], c = d[CS];
                if (track) m = fmaxf(m, fmaxf(fabsf(a), fabsf(c)));
                *reinterpret_cast<uint32_t*>(h) = _fc3d_tc_pack<false>(a * xsc, c * xsc);
            }
        });
        return __float_as_uint(m);
    };
    const int XV = EDH * WP; /* (a channel's positions in a block) */
    /* the largest finite |value| of the block in xs (the thread's share), where it holds an infinity */
    auto finite_max = [&](const float* xs) {
        unsigned m = 0u;
        for (int f = tid; f < CIN * XV; f += NT) {
            const int ci = f / XV, i = f - ci * XV;
            const unsigned bb = __float_as_uint(xs[ci * CS + i]) & 0x7fffffffu;
            if (bb < 0x7f800000u) m = max(m, bb);
        }
        return m;
    };
    /* the padding columns stay zero: both buffers zeroed once, before any copy into them */
    for (int i = tid; i < 2 * CIN * CS / 4; i += NT) reinterpret_cast<float4*>(Xs)[i] = make_float4(0.f, 0.f, 0.f, 0.f);
    if (F16) { /* and the f16 copy's (no conversion writes them) */
        for (int i = tid; i < CIN / 2 * CS / 4; i += NT) reinterpret_cast<float4*>(X2)[i] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (tid < 4) MX[tid] = 0u;
    }
    /* Block b's unit table into Ut, built by the calling threads (every thread of the CTA, all, or
       one warp, i0 its lane and step 32): its rows' (d, h) tap counts (Rk), then the units, the
       rows ranked by them (_fc3d_bk_row_rank), then m-tile, the W phase fastest (consecutive warps
       run a row's W phases side by side): the input-block offset and weight offset of the unit's
       first tap, its tap counts and residues; its row, first position and phase extent.
       .z = 0: nothing to compute (past the output, or tap-less behind a zero fill; rows past the
       output are not stored either: .w of the second holds the positions, 0 there).
       Each block's table is built during the block before it (two tables, Ut0), by the warp that
       the unit deal gives the fewest units (builder, below), after its units: built between the
       block's barriers by the threads of its first units, warp 0 alone, it held the other warps
       at the middle barrier (ncu, L2/15's convolution alone: 9.5 % of the stall samples there). */
    auto build_table = [&](int64_t b, int4* Ut, int i0, int step, bool all) {
        int64_t n;
        int od0, oh0, id0, ih0;
        origin(b, &n, &od0, &oh0, &id0, &ih0);
        for (int r = i0; r < BD * BH; r += step) Rk[r] = _fc3d_bk_row_taps(P, od0 + r / BH, oh0 + r % BH);
        if (all) __syncthreads();
        else __syncwarp();
        for (int u = i0; u < U / PH; u += step) {
            const int rest = PH == 1 ? u / s2 : u, mt = rest % QT, rr = rest / QT;
            const int od = od0 + rr / BH, oh = oh0 + rr % BH, q0 = mt * 16;
            int4 c = make_int4(od, oh, q0, 0);
            /* the unit's slot: the rows by their (d, h) tap count, most first (ties in row order),
               a row's units together in their order (_fc3d_bk_row_rank) */
            const int upr = U / PH / (BD * BH), at = _fc3d_bk_row_rank(Rk, BD * BH, rr) * upr + (u - rr * upr);
            for (int p = 0; p < PH; ++p) {
                const int rw = PH == 1 ? u % s2 : p;
                const int Q2 = (P.out[2] - rw + s2 - 1) / s2;
                int4 a = make_int4(0, 0, 0, 0);
                if (od < P.out[0] && oh < P.out[1] && q0 < Q2) {
                    const int rd = od % s0, qd = od / s0, rh = oh % s1, qh = oh / s1;
                    const int *ed = P.hx_dt[0][rd], *eh = P.hx_dt[1][rh], *ew = P.hx_dt[2][rw];
                    a.x = ((qd + ed[3] - id0) * EH + qh + eh[3] - ih0) * WP + PLW + q0 + ew[3];
                    a.y = ((ed[1] * P.k[1] + eh[1]) * P.k[2] + ew[1]) * WT;
                    a.z = ed[0] | eh[0] << 8 | ew[0] << 16;
                    a.w = rd | rh << 8 | rw << 16;
                    if (P.skip0 && (ed[0] == 0 || eh[0] == 0 || ew[0] == 0)) a.z = 0; /* y holds its zeros */
                    c.w |= Q2 << (16 * p);
                }
                if (PH == 1) c.z |= rw << 16;
                Ut[2 * PH * at + p] = a;
            }
            Ut[2 * PH * at + PH] = c;
        }
        if (!all) __syncwarp(); /* (Rk is read again by the next build) */
    };
    /* the builder: the warp whose last round the deal leaves empty (round i gives warp w unit
       i NW + (w + i) mod NW; the last round, rl, its first UP mod NW offsets) */
    const int UP = U / PH, rl = (UP - 1) / NW, builder = ((NW - 1 - rl) % NW + NW) % NW;
    /* the first block's table by every thread (one warp alone measured slower on runs of a block
       or two a CTA: S8 0.043 -> 0.051 ms, bench/RESULTS.md forty-second entry; with this and the
       rows' offsets computed once, 0.040: forty-third) */
    if ((int64_t)blockIdx.x < nblk) build_table(blockIdx.x, Ut0, tid, NT, true);
    __syncthreads();
    const bool ops = epi.op_begin != epi.op_end, stats = P.stats != 0;
    const unsigned want = _fc3d_ops_in(epi.op_begin, epi.op_end);
    const bool generic = ops && (epi.ncmask & want) != want;
    const int nops = epi.op_end - epi.op_begin;
    /* ops fixed by (n, c): resolved once per block and channel (a block is one sample) */
    const bool resolved = !AFF && ops && !generic && nops <= _FC3D_BK_NCOPS;
    /* AFF (units of both W phases with ops): the bias and the ops composed per block into one map
       a v + b per channel, in double (_fc3d_uop_compose), held in Uo's space; channels past C_out
       get (0, 0) */
    float2* const Uab = reinterpret_cast<float2*>(Uo);
    const int64_t odhw = P.odhw;

    int64_t b = blockIdx.x;
    int buf = 0;
    if (b < nblk) load(b, Xs);
    _fc3d_tc_commit();
    for (; b < nblk; b += gridDim.x) {
        if (b + gridDim.x < nblk) load(b + gridDim.x, Xs + (buf ^ 1) * CIN * CS);
        _fc3d_tc_commit();
        int64_t n;
        int od0, oh0, id0, ih0;
        origin(b, &n, &od0, &oh0, &id0, &ih0);
        if (resolved)
            for (int i = tid; i < nops * cout; i += NT) {
                const int o = i / cout, c = i - o * cout;
                const int64_t co[5] = {n, c, 0, 0, 0};
                Uo[o * CO + c] = _fc3d_resolve_op(epi.chain.ops[epi.op_begin + o], epi.ext, co);
            }
        if (AFF)
            for (int c = tid; c < CO; c += NT) {
                double a = c < cout ? 1.0 : 0.0, bb = bias && c < cout ? (double)bias[c] : 0.0;
                const int64_t co[5] = {n, c, 0, 0, 0};
                for (int o = 0; o < nops && c < cout; ++o)
                    _fc3d_uop_compose(_fc3d_resolve_op(epi.chain.ops[epi.op_begin + o], epi.ext, co), a, bb);
                Uab[c] = make_float2((float)a, (float)bb);
                Kc[c] = (float)bb;
            }
        else if (stats)
            /* the value of a tap-less output (the bias through the ops; 0 where they depend on the
               position): the shift of the statistics sums (_fc3d_bk_sums) */
            for (int c = tid; c < CO; c += NT) {
                float k[2];
                k[0] = k[1] = bias && c < cout ? bias[c] : 0.f;
                const int64_t co[5] = {n, c, 0, 0, 0};
                if (c >= cout || generic) k[0] = 0.f;
                else if (resolved)
                    for (int o = 0; o < nops; ++o)
                        _fc3d_apply_unit_op_regs(_fc3d_resolve_op(epi.chain.ops[epi.op_begin + o], epi.ext, co), k);
                else if (ops)
                    epi.apply_nc_regs(k, epi.op_begin, epi.op_end, n, c);
                Kc[c] = k[0];
            }
        _fc3d_tc_wait<1>();
        float* xs = Xs + buf * CIN * CS;
        if (F16) {
            /* as it is first; its largest magnitude into MX[buf] (a warp's maximum an atomic; half
               math: as it is, no magnitude) */
            const unsigned m = _fc3d_warp_umax(convert(b, xs, 1.f, !P.bk_half));
            if (lane == 0 && m) atomicMax(MX + buf, m);
        } else {
            round(b, xs);
        }
        __syncthreads();
        /* F16: the block's x held as it is (always in half math, P.bk_half) where its largest finite
           magnitude lies in [2^-4, 2^15) (_fc3d_hx_x_as_is: TF32's rule on the haloed loop), else
           converted again at the power of two that puts it in [2^14, 2^15) (uniform over the CTA:
           every thread reads the one word); sc undoes both scales in the epilogue's FFMA, or, where
           2^-(x's + the weight's exponents) is not a normal float (extreme magnitudes), sc1 =
           2^-(x's) first and sc = 2^-(the weight's). MX[buf ^ 1], which the block before read
           before its last barrier, is zeroed for the next block. */
        float sc = 1.f, sc1 = 1.f;
        bool two = false;
        if (F16) {
            unsigned mx = MX[buf];
            if (mx >= 0x7f800000u && !P.bk_half) { /* an infinity: the largest finite magnitude instead, in MX[2] */
                __syncthreads();
                if (tid == 0) MX[2] = 0u;
                __syncthreads();
                const unsigned m = _fc3d_warp_umax(finite_max(xs));
                if (lane == 0 && m) atomicMax(MX + 2, m);
                __syncthreads();
                mx = MX[2];
            }
            if (tid == 0) MX[buf ^ 1] = 0u;
            const bool asis = P.bk_half || _fc3d_hx_x_as_is(mx);
            if (!asis) {
                convert(b, xs, _fc3d_hx_x3_pow2(mx, 1), false);
                __syncthreads();
            }
            const int ex = asis ? 0 : _fc3d_hx_x3_sexp(mx), ew = _fc3d_hx_x3_sexp(wmag), et = ex + ew;
            two = et > 126 || et < -127;
            sc = _fc3d_p2(two ? -ew : -et);
            sc1 = _fc3d_p2(-ex);
        }
        const float* const xf = F16 ? X2 : xs; /* the fragments' block */
        const int4* const Ut = Ut0 + buf * 2 * U; /* this block's table (the next one's: the other) */
        float ssum[NT8][2], ssq[NT8][2];
#pragma unroll
        for (int j = 0; j < NT8; ++j) ssum[j][0] = ssum[j][1] = ssq[j][0] = ssq[j][1] = 0.f;
        float* const yn = y + n * P.cout * odhw;
        /* round i gives warp w unit i NW + (w + i) mod NW: a warp's units rotate through the W
           phases and rows (at W stride 2 with a fixed slot per warp, half the warps held the
           phase with twice the w taps) */
        for (int i = 0, u = warp; u < U / PH; ++i, u = i * NW + (warp + i) % NW) {
            const int4 uc = Ut[2 * PH * u + PH];
            if (uc.w == 0) continue; /* past the output (uniform over the warp) */
            float accp[PH][NT8][4];
#pragma unroll
            for (int p = 0; p < PH; ++p)
#pragma unroll
                for (int j = 0; j < NT8; ++j) accp[p][j][0] = accp[p][j][1] = accp[p][j][2] = accp[p][j][3] = 0.f;
            bool done = false;
            if (PH == 2 && (KS == 2 / KD || KS == 4 / KD)) {
                /* both W phases tapped with a W tap pattern of the fixed ones: _fc3d_bk_pair_taps
                   (the W taps are the same for every unit of a run: the branch is uniform) */
                const int4 u0 = Ut[2 * PH * u], u1 = Ut[2 * PH * u + 1];
                const int n0 = u0.z >> 16, n1 = u1.z >> 16;
                const int pat = u0.z != 0 && u1.z != 0 ? n0 * 4 + n1 : 0;
                if (PT != 0 ? pat == (PT & 15) : pat == 6 || pat == 9 || pat == 10 || pat == 5) {
                    const int ntd = u0.z & 255, nth = (u0.z >> 8) & 255;
                    const int *ed = P.hx_dt[0][u0.w & 255], *eh = P.hx_dt[1][(u0.w >> 8) & 255],
                              *e0 = P.hx_dt[2][u0.w >> 16], *e1 = P.hx_dt[2][u1.w >> 16];
                    const int xd = ed[4] * EH * WP, xh = eh[4] * WP;
                    const int wd = ed[2] * P.k[1] * P.k[2] * WT, wh = eh[2] * P.k[2] * WT;
                    const float *x0 = xf + u0.x + g + t * CS, *x1 = xf + u1.x + g + t * CS;
                    const float *w0 = Ws + u0.y + 2 * lane, *w1 = Ws + u1.y + 2 * lane;
                    const int xw0 = e0[4], xw1 = e1[4], ww0 = e0[2] * WT, ww1 = e1[2] * WT;
                    /* a pattern's kernel shares phase 0's first input column (_fc3d_bk_pair_pattern) */
                    constexpr int sh = (PT & 15) == 6 ? 1 : (PT & 15) == 9 ? 2 : 0;
#define _FC3D_BK_PT(ks, a, b_)                                                                            \
    _fc3d_bk_pair_taps<NT8, ks, a, b_, sh, F16>(accp[0], accp[PH - 1], x0, x1, w0, w1, xw0, xw1, ww0, ww1, ntd, nth, \
                                       xd, xh, wd, wh, CS)
                    if constexpr (PT != 0)
                        _FC3D_BK_PT((PT >> 4 & 15) / KD, (PT >> 2 & 3), (PT & 3));
                    else if (KS == 2 / KD) {
                        if (pat == 6) _FC3D_BK_PT(2 / KD, 1, 2);
                        else if (pat == 9) _FC3D_BK_PT(2 / KD, 2, 1);
                        else if (pat == 10) _FC3D_BK_PT(2 / KD, 2, 2);
                        else _FC3D_BK_PT(2 / KD, 1, 1);
                    } else {
                        if (pat == 6) _FC3D_BK_PT(4 / KD, 1, 2);
                        else if (pat == 9) _FC3D_BK_PT(4 / KD, 2, 1);
                        else if (pat == 10) _FC3D_BK_PT(4 / KD, 2, 2);
                        else _FC3D_BK_PT(4 / KD, 1, 1);
                    }
#undef _FC3D_BK_PT
                    done = true;
                }
            }
#pragma unroll
            for (int p = 0; p < PH; ++p) {
                const int4 ua = Ut[2 * PH * u + p];
                float(&acc)[NT8][4] = accp[p];
                if (ua.z != 0 && !done) {
                    const int ntd = ua.z & 255, nth = (ua.z >> 8) & 255, ntw = ua.z >> 16;
                    const int *ed = P.hx_dt[0][ua.w & 255], *eh = P.hx_dt[1][(ua.w >> 8) & 255],
                              *ew = P.hx_dt[2][ua.w >> 16];
                    /* per tap step: input-block offset and weight offset */
                    const int xd = ed[4] * EH * WP, xh = eh[4] * WP, xw = ew[4];
                    const int wd = ed[2] * P.k[1] * P.k[2] * WT, wh = eh[2] * P.k[2] * WT, ww = ew[2] * WT;
                    const float* xd0 = xf + ua.x + g + t * CS;
                    const float* wd0 = Ws + ua.y + 2 * lane;
                    for (int jd = 0; jd < ntd; ++jd, xd0 -= xd, wd0 += wd) {
                        const float* xh0 = xd0;
                        const float* wh0 = wd0;
                        for (int jh = 0; jh < nth; ++jh, xh0 -= xh, wh0 += wh) {
                            const float* xa = xh0;
                            const float* wb = wh0;
                            for (int jw = 0; jw < ntw; ++jw, xa -= xw, wb += ww) {
#pragma unroll
                                for (int kk = 0; kk < 4; ++kk) {
                                    if (kk >= KS) break;
                                    _fc3d_bk_tap_step<NT8, F16>(acc, xa, wb, kk, CS);
                                }
                            }
                        }
                    }
                }
            }
            if (F16 && two) /* (extreme magnitudes: sc1 first, then sc in the epilogue) */
#pragma unroll
                for (int p = 0; p < PH; ++p)
#pragma unroll
                    for (int j = 0; j < NT8; ++j)
#pragma unroll
                        for (int r = 0; r < 4; ++r) accp[p][j][r] *= sc1;
            if (PH == 2) { /* both W phases (W stride 2; no ops, or AFF): written as 8-byte pairs */
                _fc3d_bk_store_pairs<NT8, AFF, F16>(P, accp[0], accp[PH - 1], bv, Uab + 2 * t, sc, yn, uc, odhw,
                                                    lane, ssum, ssq);
                continue;
            }
            float(&acc)[NT8][4] = accp[0];
            /* epilogue: lane (g, t) holds positions q0 + g and q0 + g + 8 of channels 8 j + 2 t + h */
            const int od = uc.x, oh = uc.y, q0 = uc.z & 0xffff, rw = uc.z >> 16, Q2 = uc.w;
            const bool ok0 = q0 + g < Q2, ok1 = q0 + g + 8 < Q2;
            const int ow0 = s2 * (q0 + g) + rw, ow1 = ow0 + 8 * s2;
            if (!ops) {
                /* no ops: the bias, the stores (predicated) and the sums; a lane's channel c at
                   y0 + (c - 2 t) odhw */
                float* const y0 = yn + (int64_t)(2 * t) * odhw + ((int64_t)od * P.out[1] + oh) * P.out[2] + ow0;
#pragma unroll
                for (int j = 0; j < NT8; ++j)
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const bool cok = 8 * j + 2 * t + h < cout;
                        const float v0 = F16 ? fmaf(acc[j][h], sc, bv[j][h]) : acc[j][h] + bv[j][h],
                                    v1 = F16 ? fmaf(acc[j][2 + h], sc, bv[j][h]) : acc[j][2 + h] + bv[j][h];
                        if (P.store) {
                            float* const p = y0 + (int64_t)(8 * j + h) * odhw;
                            _fc3d_st_if(p, v0, ok0 && cok);
                            _fc3d_st_if(p + 8 * s2, v1, ok1 && cok);
                        }
                        if (stats) _fc3d_bk_sums(v0, v1, 0.f, 0.f, ok0, ok1, false, false, bv[j][h], ssum[j][h], ssq[j][h]);
                    }
                continue;
            }
            float* yr = yn + ((int64_t)od * P.out[1] + oh) * P.out[2];
#pragma unroll
            for (int j = 0; j < NT8; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int c = 8 * j + 2 * t + h;
                    if (c >= cout) continue;
                    float v[2] = {F16 ? fmaf(acc[j][h], sc, bv[j][h]) : acc[j][h] + bv[j][h],
                                  F16 ? fmaf(acc[j][2 + h], sc, bv[j][h]) : acc[j][2 + h] + bv[j][h]};
                    if (resolved) {
                        for (int o = 0; o < nops; ++o) _fc3d_apply_unit_op_regs(Uo[o * CO + c], v);
                    } else if (generic) {
                        v[0] = epi.apply(v[0], n, c, od, oh, ow0);
                        v[1] = epi.apply(v[1], n, c, od, oh, ow1);
                    } else {
                        epi.apply_nc_regs(v, epi.op_begin, epi.op_end, n, c);
                    }
                    if (P.store) {
                        float* yc = yr + (int64_t)c * odhw;
                        _fc3d_st_if(yc + ow0, v[0], ok0);
                        _fc3d_st_if(yc + ow1, v[1], ok1);
                    }
                    if (stats) _fc3d_bk_sums(v[0], v[1], 0.f, 0.f, ok0, ok1, false, false, Kc[c], ssum[j][h], ssq[j][h]);
                }
        }
        if (warp == builder && b + gridDim.x < nblk) build_table(b + gridDim.x, Ut0 + (buf ^ 1) * 2 * U, lane, 32, false);
        if (stats) { /* the block's partial per (n, c): lanes of one t, then warps, in a fixed order */
            _fc3d_lane_sums<NT8>(ssum, ssq, Red + warp * CO, lane);
            __syncthreads();
            const int64_t blk = b - n * bps, tps = P.hx_parts;
            /* the block's outputs a channel (its rows within the output, every W position) */
            const double cnt = (double)min(BD, P.out[0] - od0) * min(BH, P.out[1] - oh0) * P.out[2];
            for (int c = tid; c < cout; c += NT) {
                double ds = 0.0, dq = 0.0;
#pragma unroll
                for (int wi = 0; wi < NW; ++wi) {
                    const double2 r = Red[wi * CO + c];
                    ds += r.x;
                    dq += r.y;
                }
                const double2 u = _fc3d_unshift(ds, dq, Kc[c], cnt); /* the shift undone */
                epi.partial(n, c, blk, tps, u.x, u.y); /* (tps = bps: _fc3d_tc_slots) */
            }
        }
        __syncthreads(); /* the next block's copies reuse this buffer, Red and this block's unit table */
        buf ^= 1;
    }
#endif
}

/* Block-loop geometry (no CUDA calls): the W padding, the m-tiles, and the block shape that loads
   the fewest input rows per output row within _FC3D_BK_SMEM and desc.smem_per_block (P->smem_max).
   Returns 0 where the loop cannot take the geometry. */
static int _fc3d_bk_geometry(_fc3d_tc_kparams* P, int nt8)
{
    if (!_fc3d_tc_fill_dt(P)) return 0;
    const int s2 = P->s[2];
    const int q2max = (P->out[2] + s2 - 1) / s2;
    P->bk_qt = (q2max + 15) / 16;
    int plw = 0, reach = P->in[2] - 1;
    for (int r = 0; r < s2 && r < P->out[2]; ++r) {
        const int* e = P->hx_dt[2][r];
        if (e[0] == 0) continue;
        const int cmin = e[3] - (e[0] - 1) * e[4];
        if (-cmin > plw) plw = -cmin;
        if (P->bk_qt * 16 - 1 + e[3] > reach) reach = P->bk_qt * 16 - 1 + e[3];
    }
    P->bk_vec = P->in[2] % 4 == 0;
    if (P->bk_vec) plw = (plw + 3) & ~3;
    P->bk_plw = plw;
    P->bk_wp = plw + reach + 1;
    if (P->bk_vec) P->bk_wp = (P->bk_wp + 3) & ~3;
    if ((int64_t)P->bk_wp > 4096) return 0;
    /* input rows a block of B output rows starting at o0 = b B reads: periodic in b */
    auto ext = [&](int d, int B) {
        const int nb = (P->out[d] + B - 1) / B;
        int m = 0;
        for (int b = 0; b < nb && b < 8 * P->s[d]; ++b) {
            const int o0 = b * B;
            const int lo = _fc3d_floordiv(o0 + P->p[d] - P->dl[d] * (P->k[d] - 1), P->s[d]);
            const int hi = _fc3d_floordiv(o0 + B - 1 + P->p[d], P->s[d]);
            if (hi - lo + 1 > m) m = hi - lo + 1;
        }
        return m;
    };
    double best = 0.0;
    int found = 0;
    const size_t cap = (size_t)P->smem_max < (size_t)_FC3D_BK_SMEM ? (size_t)P->smem_max : (size_t)_FC3D_BK_SMEM;
    for (int bd = 1; bd <= 8 && bd <= P->out[0]; ++bd)
        for (int bh = 1; bh <= 64 && bh <= P->out[1]; ++bh) {
            if (bd * bh > 64) break;
            _fc3d_tc_kparams Q = *P;
            Q.bk_bd = bd; Q.bk_bh = bh;
            Q.bk_units = bd * bh * P->bk_qt * s2;
            Q.bk_ed = ext(0, bd); Q.bk_eh = ext(1, bh);
            const int64_t vol = (int64_t)Q.bk_ed * Q.bk_eh * Q.bk_wp;
            if (vol > (1 << 20)) continue;
            Q.bk_cs = (int)(vol + ((8 - vol % 32) + 32) % 32);
            if (_fc3d_bk_smem(Q, nt8) > cap) continue;
            const double score = (double)(bd * bh) / (double)(Q.bk_ed * Q.bk_eh);
            if (!found || score > best * (1.0 + 1e-9) || (score > best * (1.0 - 1e-9) && bd * bh > P->bk_bd * P->bk_bh)) {
                *P = Q;
                best = score;
                found = 1;
            }
        }
    if (!found) return 0;
    P->bk_nbd = (P->out[0] + P->bk_bd - 1) / P->bk_bd;
    P->bk_nbh = (P->out[1] + P->bk_bh - 1) / P->bk_bh;
    P->bk_blocks = (int64_t)P->bk_nbd * P->bk_nbh;
    P->bk_units = P->bk_bd * P->bk_bh * P->bk_qt * s2;
    return 1;
}

/* ---------------------------------------------------------------- host side */
/* Output-channel tile of whole-row tiles: the second W phase's accumulators stay in registers
   while the first's are kept, so the tile is at most 64 wide (32 for 3xTF32). */
static int _fc3d_tc_row_bn(int math) { return math == _FC3D_TC_3XTF32 ? 32 : 64; }

/* The share of dim d's output positions in residues with taps (P.rtap; 1 past 32 residues): the
   zero fill's tap-less share (zfrac) and the sectors its tapped stores touch both derive from it. */
static double _fc3d_tc_tapped_share(const _fc3d_tc_kparams& P, int d) {
    if (P.s[d] > 32) return 1.0;
    int64_t pos = 0;
    for (int r = 0; r < P.s[d] && r < P.out[d]; ++r)
        if ((P.rtap[d] >> r) & 1u) pos += ((int64_t)P.out[d] - r + P.s[d] - 1) / P.s[d];
    return (double)pos / (double)P.out[d];
}

/* Plan: no CUDA calls. math: _FC3D_TC_*; rows: whole-row tiles will be used (caps the channel
   tile). Returns 0 on success. */
static int _fc3d_tc_plan_init(_fc3d_tc_plan* pl, const _fc3d_tc_geom* g, int math, int rows)
{
    _fc3d_tc_kparams& P = pl->kp;
    pl->ok = 0;
    if (g->groups <= 0 || g->cin % g->groups || g->cout % g->groups) return 1;
    if (g->layout != 1 && g->layout != 2) return 2;
    P.n = g->n; P.cin = g->cin; P.cout = g->cout;
    P.groups = g->groups;
    P.cin_g = g->cin / g->groups;
    P.cout_g = g->cout / g->groups;
    const int64_t I[3] = {g->di, g->hi, g->wi}, O[3] = {g->d, g->h, g->w};
    for (int d = 0; d < 3; ++d) {
        if (I[d] <= 0 || O[d] <= 0 || g->k[d] <= 0 || g->s[d] <= 0 || g->dl[d] <= 0 || g->p[d] < 0) return 3;
        if (I[d] > (1 << 30) || O[d] > (1 << 30)) return 3;
        P.in[d] = (int)I[d]; P.out[d] = (int)O[d];
        P.k[d] = g->k[d]; P.s[d] = g->s[d]; P.p[d] = g->p[d]; P.dl[d] = g->dl[d];
    }
    P.idhw = I[0] * I[1] * I[2];
    P.odhw = O[0] * O[1] * O[2];
    {   /* the residues with taps, and the share of positions that none reaches */
        double tapped = 1.0;
        for (int d = 0; d < 3; ++d) {
            P.rtap[d] = 0u;
            for (int r = 0; r < P.s[d] && r < P.out[d] && r < 32; ++r) {
                int nt, t0, c0, ts, cs;
                _fc3d_tc_dim_taps(r, P.k[d], P.s[d], P.p[d], P.dl[d], &nt, &t0, &c0, &ts, &cs);
                if (nt != 0) P.rtap[d] |= 1u << r;
            }
            if (P.s[d] > 32) P.rtap[d] = 0xffffffffu; /* (no skipping past 32 residues) */
            tapped *= _fc3d_tc_tapped_share(P, d);
        }
        pl->zfrac = 1.0 - tapped;
    }
    P.skip0 = 0;
    P.hx_zc = 0;
    P.hx_short = 0;
    int bn = P.cout_g <= 32 ? 32 : (P.cout_g <= 64 ? 64 : 128);
    if (math == _FC3D_TC_3XTF32 && bn > 64) bn = 64;
    if (rows && bn > _fc3d_tc_row_bn(math)) bn = _fc3d_tc_row_bn(math);
    /* within the shared memory a block may take (128-channel tiles: 110 KB, past sm_86's 99 KB;
       64: 86 KB) */
    P.smem_max = g->smem > 0 ? g->smem : FC3D_SMEM_PER_BLOCK_MAX;
    while (bn > 32 && _fc3d_tc_sync_smem(bn, math) > (size_t)P.smem_max) bn /= 2;
    pl->bn = bn;
    pl->math = math;
    pl->wg_ok = P.cin_g % _FC3D_WG_PIECE == 0;
    P.cout_pad = (P.cout_g + bn - 1) / bn * bn;
    P.ntn = (int)(P.cout_pad / bn);
    P.layout = g->layout;
    P.store = 1; P.stats = 0; P.out_f32 = 0;
    const int64_t kt = (int64_t)g->k[0] * g->k[1] * g->k[2];
    P.ws_half = (int64_t)g->groups * kt * P.cin_g * P.cout_pad;
    if (P.ws_half * (int64_t)(P.cin_g) > ((int64_t)1 << 60)) return 4;
    if (kt * P.cin_g > ((int64_t)1 << 30)) return 4;
    if (P.cout_pad * _FC3D_TC_BK > 0x7fffffffLL) return 4; /* a chunk's weight rows at 32-bit offsets */
    pl->ws_bytes = (size_t)P.ws_half * sizeof(float) * (math == _FC3D_TC_3XTF32 ? 2 : 1);
    int64_t tot = 0;
    for (int c = 0; c < 8; ++c) {
        const int cb[3] = {(c >> 2) & 1, (c >> 1) & 1, c & 1};
        int64_t nres = 1, mp = 1;
        for (int d = 0; d < 3; ++d) {
            const int64_t qq = O[d] / g->s[d], rem = O[d] % g->s[d];
            const int64_t cnt = cb[d] ? g->s[d] - rem : rem;
            const int64_t q = cb[d] ? qq : qq + 1;
            P.cls_cnt[c][d] = (int)cnt;
            P.cls_base[c][d] = cb[d] ? (int)rem : 0;
            P.cls_q[c][d] = (int)q;
            nres *= cnt; mp *= q;
        }
        if (mp > 0x7fffffffLL - _FC3D_TC_BM) return 5;
        const int64_t tpp = mp > 0 && nres > 0 ? (mp + _FC3D_TC_BM - 1) / _FC3D_TC_BM : 0;
        P.cls_nres[c] = nres > 0 ? nres : 1;
        P.cls_tpp[c] = tpp;
        tot += nres * tpp;
    }
    pl->tiles_per_sample = tot;
    if (tot <= 0 || tot > 0x7fffffffLL) return 5;
    /* levels (section note): a segment per distinct tile count, ascending */
    {
        int64_t lvl = 0, start = 0;
        P.nseg = 0;
        for (;;) {
            int64_t next = 0, size = 0;
            for (int c = 0; c < 8; ++c)
                if (P.cls_tpp[c] > lvl) {
                    size += P.cls_nres[c];
                    if (!next || P.cls_tpp[c] < next) next = P.cls_tpp[c];
                }
            if (!size) break;
            P.seg_start[P.nseg] = start;
            P.seg_size[P.nseg] = size;
            P.seg_lvl0[P.nseg] = (int)lvl;
            ++P.nseg;
            start += (next - lvl) * size;
            lvl = next;
        }
        P.seg_start[P.nseg] = start;
        if (start != tot) return 5; /* the levels cover every tile once */
        P.lblock = _FC3D_TC_LBLOCK;
    }
    /* whole-row tiles: every W phase of a row in one tile (at most 2 of them: their accumulators
       are registers), W <= _FC3D_TC_ROW_WMAX */
    P.row_ok = 0;
    P.rrows = 0;
    pl->row_tiles_per_sample = 0;
    if (g->s[2] <= 2 && O[2] <= _FC3D_TC_ROW_WMAX) {
        const int q2max = (int)((O[2] + g->s[2] - 1) / g->s[2]);
        int64_t rtot = 0;
        P.rrows = _FC3D_TC_BM / q2max;
        for (int c = 0; c < 4; ++c) {
            const int c8 = c << 1; /* the W class bit is 0: the W phases run inside the tile */
            const int64_t nres = (int64_t)P.cls_cnt[c8][0] * P.cls_cnt[c8][1];
            const int64_t rows = (int64_t)P.cls_q[c8][0] * P.cls_q[c8][1];
            P.rprefix[c] = rtot;
            P.rcls_nres[c] = nres > 0 ? nres : 1;
            rtot += nres * ((rows + P.rrows - 1) / P.rrows);
        }
        P.rprefix[4] = rtot;
        if (rtot > 0 && rtot <= 0x7fffffffLL) {
            P.row_ok = 1;
            pl->row_tiles_per_sample = rtot;
        }
    }
    if ((int64_t)g->groups * P.ntn > 65535 || g->n > 65535 || g->n <= 0) return 6;
    pl->ok = 1;
    return 0;
}

static size_t _fc3d_tc_workspace_bytes(const _fc3d_tc_plan* pl) { return pl->ws_bytes; }

template <typename T, int MATH, int RND, int BN, bool ROW, bool WG, typename Epi>
static cudaError_t _fc3d_tc_launch_main(const _fc3d_tc_kparams& P, int64_t tiles, const T* x, const float* ws,
                                        const T* bias, T* y, const Epi& epi, cudaStream_t st)
{
    typedef _fc3d_tc_cfg<BN, MATH, WG> C;
    auto kern = _fc3d_tc_main<T, MATH, RND, BN, ROW, WG, Epi>;
    cudaError_t e = _fc3d_smem_attr((const void*)kern, C::SMEM);
    if (e != cudaSuccess) return e;
    dim3 grid((unsigned)tiles, (unsigned)(P.groups * P.ntn), (unsigned)P.n);
    const size_t smem = C::SMEM - (P.cin_g % _FC3D_TC_BK == 0 ? 0 : C::TT); /* (no tap table) */
    kern<<<grid, C::NT, smem, st>>>(P, x, ws, bias, y, epi);
    return cudaPeekAtLastError();
}

/* The MMA FLOPs one channel tile of one group of one sample issues: each tile's K chunks (the taps
   some position of the tile reaches, times C_in/groups, in BK-deep chunks) x BM x BN x 2, with 3xTF32's
   three products per chunk (four for tiles of at most 8 chunks). Past 65536 tiles a sample, every
   k-th tile is counted and the sum scaled. plan.exec_flops. */
static double _fc3d_hx_issued_flops(const _fc3d_tc_plan* tp, int row);
static double _fc3d_tc_issued_flops(const _fc3d_tc_plan* tp, int row) {
    const _fc3d_tc_kparams& P = tp->kp;
    if (tp->hx_ok) return _fc3d_hx_issued_flops(tp, row);
    if (tp->wr_ok) { /* the warp-row loop: a row's (d, h) taps x 3 W taps of 32 positions x 32 channels */
        double f = 2.0 * (double)P.n * _FC3D_WR_CI * _FC3D_WR_CO * 32.0 * 3.0;
        for (int d = 0; d < 2; ++d) {
            double taps = 0.0;
            for (int o = 0; o < P.out[d]; ++o) taps += (o & 1) && (o >> 1) + 1 < P.in[d] ? 2.0 : 1.0;
            f *= taps;
        }
        return f;
    }
    if (tp->bk_ok) { /* the block loop: every tap of a row's phase, 16-position m-tiles, padded channels */
        double f = 2.0 * (double)P.n * (double)P.cin * 8.0 * tp->bk_nt8 * 16.0 * P.bk_qt;
        for (int d = 0; d < 3; ++d) {
            double taps = 0.0;
            for (int r = 0; r < P.s[d] && r < P.out[d]; ++r)
                taps += (double)P.hx_dt[d][r][0] * (d < 2 ? (double)((P.out[d] - r + P.s[d] - 1) / P.s[d]) : 1.0);
            f *= taps;
        }
        return f;
    }
    const int64_t tiles = row ? tp->row_tiles_per_sample : tp->tiles_per_sample;
    const int64_t step = tiles > 65536 ? tiles / 65536 : 1;
    double chunks = 0.0;
    int64_t seen = 0, t;
    for (t = 0; t < tiles; t += step, seen++) {
        int r[3] = {0, 0, 0}, Q[3] = {0, 0, 0}, m0 = 0, mcount = 0, nph = 1, row0 = 0, nrows = 0, pw;
        if (!row) {
            int cls, tl, ph;
            _fc3d_tc_tile_of(P, t, &cls, &tl, &ph);
            r[2] = P.cls_base[cls][2] + ph % P.cls_cnt[cls][2]; ph /= P.cls_cnt[cls][2];
            r[1] = P.cls_base[cls][1] + ph % P.cls_cnt[cls][1];
            r[0] = P.cls_base[cls][0] + ph / P.cls_cnt[cls][1];
            Q[0] = P.cls_q[cls][0]; Q[1] = P.cls_q[cls][1]; Q[2] = P.cls_q[cls][2];
            m0 = tl * _FC3D_TC_BM;
            mcount = Q[0] * Q[1] * Q[2] - m0 < _FC3D_TC_BM ? Q[0] * Q[1] * Q[2] - m0 : _FC3D_TC_BM;
        } else { /* the kernel's decoding of a whole-row tile */
            int c4 = 0;
            while (c4 < 3 && t >= P.rprefix[c4 + 1]) ++c4;
            const int cls = c4 << 1, local = (int)(t - P.rprefix[c4]), nres = (int)P.rcls_nres[c4];
            const int tl = local / nres, ph = local - tl * nres;
            r[1] = P.cls_base[cls][1] + ph % P.cls_cnt[cls][1];
            r[0] = P.cls_base[cls][0] + ph / P.cls_cnt[cls][1];
            Q[0] = P.cls_q[cls][0]; Q[1] = P.cls_q[cls][1];
            row0 = tl * P.rrows;
            nrows = Q[0] * Q[1] - row0 < P.rrows ? Q[0] * Q[1] - row0 : P.rrows;
            nph = P.s[2];
            m0 = 0; mcount = 0;
        }
        for (pw = 0; pw < nph; pw++) {
            int d, tr[5];
            int64_t k = P.cin_g, c;
            if (row) {
                r[2] = pw;
                Q[2] = P.out[2] / P.s[2] + (pw < P.out[2] % P.s[2] ? 1 : 0);
                m0 = row0 * Q[2];
                mcount = nrows * Q[2];
                if (mcount <= 0) continue;
            }
            for (d = 0; d < 3; d++) {
                _fc3d_tc_tap_range(d, r[d], P.k[d], P.s[d], P.p[d], P.dl[d], P.in[d], Q[1], Q[2], m0, mcount, tr);
                k *= tr[0];
            }
            c = (k + _FC3D_TC_BK - 1) / _FC3D_TC_BK;
            chunks += (double)c * (tp->math == _FC3D_TC_3XTF32 ? (c <= 8 ? 4.0 : 3.0) : 1.0);
        }
    }
    if (seen) chunks *= (double)tiles / (double)seen;
    return chunks * _FC3D_TC_BM * tp->bn * _FC3D_TC_BK * 2.0 * (double)P.ntn * (double)P.groups * (double)P.n;
}

/* How the implicit-GEMM engine plugs into the plan: its plan-time data lives in
   plan._private.engine_data; its steps are one weight re-layout per run, then one GEMM launch per
   pass that computes the convolution. Passes that read the intermediate back, and statistics the
   GEMM tiles cannot gather (groups that keep D, H or W, e.g. a LayerNorm over W), run as direct
   passes over the stored intermediate.
   Step arguments of _FC3D_STEP_TC_CONV: arg[0] store, arg[1] op_begin, arg[2] op_end, arg[3] whole-row
   tiles, arg[4] the row ops they take statistics for (a bit per op), arg[5] the stored tensor
   zero-filled first and the tiles of tap-less phases skipped (_fc3d_tc_zero_fill); variant (both
   TC steps) = _FC3D_TC_* math. */
typedef char _fc3d_tc_plan_fits[sizeof(_fc3d_tc_plan) <= FC3D_ENGINE_DATA_BYTES_ ? 1 : -1];

/* Whether a convolving step stores its tap-less phases by a zero fill of the stored tensor (one
   cudaMemsetAsync: 16-byte writes of whole lines) and skips their tiles (the tiled loops' and the
   haloed loop's), which would store every s-th value of a line, half sectors for a stride of 2, at
   the engine's cost per tile: where those phases hold at least half the positions, their value is
   zero (no conv bias, and the step's ops keep zero: ReLU, scale, GELU) and the step gathers no
   statistics. L1/77 (stride and dilation 2: only odd coordinates get taps, 88 % of y is zero):
   see the design note. */
static int _fc3d_tc_zero_fill(const fc3d_plan* p, const _fc3d_tc_plan* tp, int op_begin, int op_end) {
    int i;
    if (p->desc.conv.bias || tp->zfrac < 0.5) return 0;
    for (i = op_begin; i < op_end; i++) {
        const int k = _fc3d_enum_int(&p->desc.ops[i].kind);
        if (k != FC3D_OP_RELU && k != FC3D_OP_SCALE && k != FC3D_OP_GELU && k != FC3D_OP_GELU_TANH) return 0;
    }
    return 1;
}

static int _fc3d_tc_math_of(int math) {
    return math == FC3D_MATH_TF32 ? _FC3D_TC_TF32 : math == FC3D_MATH_HALF ? _FC3D_TC_HALF : _FC3D_TC_3XTF32;
}

/* Row ops: statistics over single rows along W (a LayerNorm over W). Whole-row tiles hold every
   value of such a group, so they take its mean and variance from the row itself, in the epilogue,
   and no pass needs to gather them. */
static unsigned _fc3d_tc_rowops(const fc3d_plan* p) {
    unsigned m = 0u;
    int i;
    for (i = 0; i < p->desc.num_ops; i++) {
        const int st = _fc3d_op_info_of(&p->desc.ops[i])->stats;
        if ((st == _FC3D_ST_NORMALIZE || st == _FC3D_ST_SUB_MEAN) &&
            p->_private.stat[i].keep == (unsigned)(_FC3D_K_N | _FC3D_K_C | _FC3D_K_D | _FC3D_K_H))
            m |= 1u << i;
    }
    return m;
}

/* The implicit GEMM step that gathers the partials finalize step s reduces, or NULL (another producer). */
static const fc3d_step_* _fc3d_tc_gathering_step(const fc3d_plan_private_* pr, const fc3d_step_* s) {
    int i;
    for (i = 0; i < pr->num_steps; i++) {
        const fc3d_step_* c = &pr->steps[i];
        if (c->kind == _FC3D_STEP_TC_CONV && c->pass == s->pass && c->stat_op == s->stat_op) return c;
    }
    return NULL;
}

/* Whether a run with sm_90a code takes the haloed loop (tp->hx_ok, else tp->hx_why): desc.main_loop
   AUTO or HALO, TF32 or half math on float32 tensors, C_in / groups a multiple of 32, where the
   plan takes whole-row tiles (rows: a LayerNorm over W) W stride 2 for the haloed row tiles (64
   channels a tile, so the pieces serve the plan's other passes too), a geometry _fc3d_hx_plan
   takes, no more tiles than the tiled loops (the statistics
   slots are sized by theirs: the haloed tiles zero the rest), and for AUTO at least
   _FC3D_HX_MIN_MACS products an output (fewer measured slower: the copy of x and the bias-only
   rows of tap-less phases outweigh the loop's gain). Sets the haloed fields of tp->kp. */
#define _FC3D_HX_MIN_MACS 128.0
enum { _FC3D_HX_NO_LOOP = 1, _FC3D_HX_NO_MATH, _FC3D_HX_NO_DTYPE, _FC3D_HX_NO_CHANNELS, _FC3D_HX_NO_ROWS,
       _FC3D_HX_NO_GEOMETRY, _FC3D_HX_NO_TILES, _FC3D_HX_NO_MACS, _FC3D_HX_NO_SMEM };
static const char* _fc3d_hx_why_text(int why) {
    switch (why) {
    case _FC3D_HX_NO_LOOP: return "desc.main_loop forces another loop";
    case _FC3D_HX_NO_MATH: return "FP32 math (3xTF32) takes haloed row tiles only where an output sums at most 512 products";
    case _FC3D_HX_NO_DTYPE: return "16-bit tensors run on the tiled loops";
    case _FC3D_HX_NO_CHANNELS: return "in_channels / groups is not a multiple of 32";
    case _FC3D_HX_NO_ROWS: return "a LayerNorm over W with a W stride other than 2 takes the tiled whole-row tiles";
    case _FC3D_HX_NO_GEOMETRY:
        return "the geometry (a stride past 8, a phase with more than 256 (h, w) taps, shared memory past 227 KB, "
               "a sample's padded rows or an (n, c) slab of y past 2^31, or for a LayerNorm over W a padded W past "
               "256)";
    case _FC3D_HX_NO_TILES: return "more haloed tiles than tiled ones";
    case _FC3D_HX_NO_MACS: return "under 128 products an output on average (AUTO: measured slower there)";
    case _FC3D_HX_NO_SMEM: return "desc.smem_per_block is below sm_90's 227 KB (the loop runs on sm_90 only)";
    default: return "";
    }
}
/* Whether every convolving step of the plan will zero-fill its tap-less phases
   (_fc3d_tc_zero_fill for a chain with no statistics op): the haloed loop's products per output
   are then counted over the tapped outputs only. */
static int _fc3d_tc_zero_chain(const fc3d_plan* p, const _fc3d_tc_plan* tp) {
    return _fc3d_tc_zero_fill(p, tp, 0, p->desc.num_ops); /* (it refuses statistics ops) */
}
static void _fc3d_hx_choose(const fc3d_plan* p, _fc3d_tc_plan* tp, int rows) {
    const int loop = _fc3d_enum_int(&p->desc.main_loop);
    _fc3d_tc_kparams& P = tp->kp;
    tp->hx_ok = 0;
    tp->hx_why = 0;
    P.hx_ok = 0;
    /* TF32 on the f16 path: the half-math kernels' configuration (_FC3D_HX_TF32_F16) */
    P.hx_t32 = _FC3D_HX_TF32_F16 && tp->math == _FC3D_TC_TF32;
    P.hx_sc_at = 0;
    P.hx_wide = 0;
    if (loop != FC3D_MAIN_LOOP_AUTO && loop != FC3D_MAIN_LOOP_HALO) tp->hx_why = _FC3D_HX_NO_LOOP;
    else if (p->desc.smem_per_block < FC3D_SMEM_PER_BLOCK_MAX) tp->hx_why = _FC3D_HX_NO_SMEM;
    else if (_fc3d_enum_int(&p->desc.dtype) != FC3D_DTYPE_F32) tp->hx_why = _FC3D_HX_NO_DTYPE;
    else if (P.cin_g % 32 != 0) tp->hx_why = _FC3D_HX_NO_CHANNELS;
    else if (tp->math == _FC3D_TC_3XTF32 && rows && !_fc3d_hx_x3_rows(P))
        tp->hx_why = _FC3D_HX_NO_MATH; /* (_fc3d_tc_plan_of: without rows) */
    else if (rows && P.s[2] != 2) tp->hx_why = _FC3D_HX_NO_ROWS;
    if (tp->hx_why) return;
    /* (row tiles: 64 channels of each W phase; 3xTF32: 64-channel tiles, _fc3d_hx_cfg) */
    const bool wide = P.cout_g > 64 && !rows && tp->math != _FC3D_TC_3XTF32 && _FC3D_HX_BN_MAX >= 128;
    P.hx_short = wide && _fc3d_hx_max_k(P) < _FC3D_HX_SHORT_K; /* (a phase's K at most) */
    tp->hx_bn = wide && !P.hx_short ? 128 : 64;
    const int zchain = !rows && _fc3d_tc_zero_chain(p, tp);
    if (!_fc3d_hx_plan(&P, _fc3d_hx_math(tp), tp->hx_bn, &tp->hx_macs, rows, tp->tiles_per_sample, zchain)) {
        tp->hx_why = _FC3D_HX_NO_GEOMETRY;
        return;
    }
    /* (a zero chain's tiles that store every position: no statistics, no slots to bound them) */
    if ((P.hx_tiles > tp->tiles_per_sample && !(zchain && _fc3d_hx_zc_geom(P))) ||
        (rows && P.hx_rcls_start[4] > tp->row_tiles_per_sample))
        tp->hx_why = _FC3D_HX_NO_TILES;
    else if (loop == FC3D_MAIN_LOOP_AUTO && tp->hx_macs < _FC3D_HX_MIN_MACS * (zchain ? 1.0 - tp->zfrac : 1.0))
        tp->hx_why = _FC3D_HX_NO_MACS;
    if (tp->hx_why) {
        P.hx_ok = 0;
        return;
    }
    const int eb = _fc3d_hx_sb(_fc3d_hx_math(tp)); /* (3xTF32: both parts) */
    tp->hx_ntn = (int)((P.cout_g + tp->hx_bn - 1) / tp->hx_bn);
    tp->hx_wbytes = _fc3d_hx_wbytes(P, tp->hx_ntn, tp->hx_bn, _fc3d_hx_math(tp));
    P.hx_sc_at = (int64_t)tp->hx_wbytes;
    tp->hx_xbytes = (size_t)P.n * (size_t)(P.cin * eb / 16) * (size_t)P.hx_ps * 16;
    tp->hx_ok = 1;
}

/* Whether the run takes the block loop (tp->bk_ok, else tp->bk_why): desc.main_loop AUTO (where the
   haloed loop is not taken) or BLOCK, TF32 math (or HALF where in_channels is a multiple of 16 and
   the f16 operands fit), float32 NCDHW tensors, groups 1, in_channels a multiple of 8 up to 32,
   out_channels up to 64, no whole-row passes, a weight and two input
   blocks within _FC3D_BK_SMEM; under AUTO, no more blocks a sample than the tiled loops' tiles
   (_FC3D_BK_NO_SMALL). Its statistics slots are its blocks (_fc3d_tc_slots). Sets the block
   fields of tp->kp. */
enum { _FC3D_BK_NO_LOOP = 1, _FC3D_BK_NO_HALO, _FC3D_BK_NO_MATH, _FC3D_BK_NO_DTYPE, _FC3D_BK_NO_LAYOUT,
       _FC3D_BK_NO_GROUPS, _FC3D_BK_NO_CHANNELS, _FC3D_BK_NO_ROWS, _FC3D_BK_NO_GEOMETRY,
       _FC3D_BK_NO_WROWS, _FC3D_BK_NO_SMALL };
static const char* _fc3d_bk_why_text(int why) {
    switch (why) {
    case _FC3D_BK_NO_LOOP: return "desc.main_loop forces another loop";
    case _FC3D_BK_NO_HALO: return "the haloed loop takes the plan";
    case _FC3D_BK_NO_MATH: return "it runs TF32 math, and half math only where in_channels is a multiple of 16 (f16 operands)";
    case _FC3D_BK_NO_DTYPE: return "16-bit tensors run on the tiled loops";
    case _FC3D_BK_NO_LAYOUT: return "NDHWC runs on the tiled loops";
    case _FC3D_BK_NO_GROUPS: return "groups other than 1 run on the tiled loops";
    case _FC3D_BK_NO_CHANNELS: return "in_channels is not a multiple of 8 up to 32, or out_channels is past 64";
    case _FC3D_BK_NO_ROWS: return "a LayerNorm over W takes the whole-row tiles";
    case _FC3D_BK_NO_GEOMETRY:
        return "the geometry: a stride past 8, a padded W past 4096, or blocks past 112 KB / smem_per_block";
    case _FC3D_BK_NO_WROWS: return "the warp-row loop takes the plan";
    case _FC3D_BK_NO_SMALL: return "AUTO: more blocks a sample than the tiled loops' tiles (small blocks)";
    default: return "";
    }
}
static void _fc3d_bk_choose(const fc3d_plan* p, _fc3d_tc_plan* tp, int rows) {
    const int loop = _fc3d_enum_int(&p->desc.main_loop);
    _fc3d_tc_kparams& P = tp->kp;
    /* HALF: the f16 path's kernels on x and the weight as they are (bk_half), or none (the f32
       operands would be TF32 math) */
    const bool half = tp->math == _FC3D_TC_HALF;
    tp->bk_ok = 0;
    tp->bk_why = 0;
    if (loop != FC3D_MAIN_LOOP_AUTO && loop != FC3D_MAIN_LOOP_BLOCK) tp->bk_why = _FC3D_BK_NO_LOOP;
    else if (tp->hx_ok) tp->bk_why = _FC3D_BK_NO_HALO;
    else if (tp->wr_ok) tp->bk_why = _FC3D_BK_NO_WROWS;
    else if (tp->math != _FC3D_TC_TF32 && !(half && _FC3D_BK_F16 && P.cin % 16 == 0)) tp->bk_why = _FC3D_BK_NO_MATH;
    else if (_fc3d_enum_int(&p->desc.dtype) != FC3D_DTYPE_F32) tp->bk_why = _FC3D_BK_NO_DTYPE;
    else if (P.layout != 1) tp->bk_why = _FC3D_BK_NO_LAYOUT;
    else if (P.groups != 1) tp->bk_why = _FC3D_BK_NO_GROUPS;
    else if (P.cin % 8 != 0 || P.cin > 32 || P.cout > 64) tp->bk_why = _FC3D_BK_NO_CHANNELS;
    else if (rows) tp->bk_why = _FC3D_BK_NO_ROWS;
    if (tp->bk_why) return;
    const int nt8 = P.cout <= 32 ? 4 : 8;
    _fc3d_tc_kparams Q = P;
    Q.bk_f16 = _FC3D_BK_F16 && P.cin % 16 == 0;
    /* AUTO: blocks that outnumber the tiled loops' tiles a sample are small ones (a few output rows
       of a short W each), where the block loop has not been measured faster: the tiled loops keep
       such a desc (desc.main_loop = BLOCK still takes it) */
    const bool autol = loop == FC3D_MAIN_LOOP_AUTO;
    if (Q.bk_f16 && !half && !(_fc3d_bk_geometry(&Q, nt8) && !(autol && Q.bk_blocks > tp->tiles_per_sample))) {
        Q = P; /* (the f16 copy's shared memory leaves too small a block: f32 operands) */
        Q.bk_f16 = 0;
    }
    if (!_fc3d_bk_geometry(&Q, nt8)) tp->bk_why = _FC3D_BK_NO_GEOMETRY;
    else if (autol && Q.bk_blocks > tp->tiles_per_sample) tp->bk_why = _FC3D_BK_NO_SMALL;
    if (tp->bk_why) return;
    Q.bk_half = half;
    P = Q;
    tp->bk_nt8 = nt8;
    tp->bk_wbytes = (size_t)P.k[0] * P.k[1] * P.k[2] * (size_t)(P.cin / (P.bk_f16 ? 16 : 8)) * nt8 * 64 * 4 +
                    (P.bk_f16 ? 16 : 0); /* (F16: the weight's magnitude after the pieces) */
    tp->bk_ok = 1;
}

/* The most shared memory a block of the plan's mma.sync-family launches takes (*loop: which loop):
   what a run on a device that takes no sm_90a code checks against the device's grant before it
   launches anything (fc3d_plan_run). The sm_90a loops run on sm_90 devices only, which grant the
   227 KB they are planned within. */
static size_t _fc3d_tc_sync_need(const _fc3d_tc_plan* tp, const char** loop) {
    if (tp->wr_ok) { /* (its storing kernel: the planner asks it to fit, whether or not a pass stores) */
        *loop = "warp-row";
        return _fc3d_wr_smem(tp->kp.in[1], true);
    }
    if (tp->bk_ok) {
        *loop = "block";
        return _fc3d_bk_smem(tp->kp, tp->bk_nt8);
    }
    *loop = "mma.sync";
    size_t need = _fc3d_tc_sync_smem(tp->bn, tp->math);
    if (tp->kp.row_ok) { /* whole-row tiles' channel tile (_fc3d_tc_launch_bn) */
        const size_t r = _fc3d_tc_sync_smem(tp->bn == 32 || tp->math == _FC3D_TC_3XTF32 ? 32 : 64, tp->math);
        if (r > need) need = r;
    }
    return need;
}

#ifndef _FC3D_ROWS_ALWAYS
#define _FC3D_ROWS_ALWAYS 0 /* measurement: whole-row tiles for every storing pass at W stride 2 (bench/RESULTS.md) */
#endif
#ifndef _FC3D_ROWS_STORE
#define _FC3D_ROWS_STORE 1 /* 0: a chain without statistics keeps the phase tiles (measurement) */
#endif
/* The engine's plan with (rows) or without whole-row tiles: the tiles, then which main loops take it. */
static int _fc3d_tc_plan_rows(const fc3d_plan* p, _fc3d_tc_plan* tp, const _fc3d_tc_geom* tg, int math, int rows) {
    memset(tp, 0, sizeof *tp);
    int code = _fc3d_tc_plan_init(tp, tg, math, rows);
    if (code == 0 && rows && !tp->kp.row_ok) { /* no row tiles for this geometry: no cap on the channel tile */
        memset(tp, 0, sizeof *tp);
        code = _fc3d_tc_plan_init(tp, tg, math, 0);
    }
    if (_fc3d_enum_int(&p->desc.main_loop) == FC3D_MAIN_LOOP_MMA_SYNC) tp->wg_ok = 0; /* forced off */
    if (p->desc.smem_per_block < FC3D_SMEM_PER_BLOCK_MAX) tp->wg_ok = 0; /* (a device other than sm_90) */
    if (code == 0) _fc3d_hx_choose(p, tp, rows && tp->kp.row_ok);
    if (code == 0) _fc3d_wr_choose(p, tp, rows && tp->kp.row_ok);
    if (code == 0) _fc3d_bk_choose(p, tp, rows && tp->kp.row_ok);
    return code;
}
static int _fc3d_tc_plan_of(const fc3d_plan* p, _fc3d_tc_plan* tp) {
    const fc3d_geom_* g = &p->_private.geom;
    _fc3d_tc_geom tg;
    int k;
    tg.n = g->n; tg.cin = g->cin; tg.cout = g->cout; tg.di = g->di; tg.hi = g->hi; tg.wi = g->wi;
    tg.d = g->d; tg.h = g->h; tg.w = g->w;
    for (k = 0; k < 3; k++) { tg.k[k] = g->k[k]; tg.s[k] = g->s[k]; tg.p[k] = g->p[k]; tg.dl[k] = g->dl[k]; }
    tg.groups = g->groups;
    tg.layout = g->layout;
    tg.smem = p->desc.smem_per_block;
    const int math = _fc3d_tc_math_of(_fc3d_enum_int(&p->desc.math));
    const int rows = _fc3d_tc_rowops(p) != 0 || (_FC3D_ROWS_ALWAYS && g->s[2] == 2);
    const int code = _fc3d_tc_plan_rows(p, tp, &tg, math, rows);
    /* A chain without statistics at W stride 2 that the haloed loop takes (not the block loop, no
       zero fill) runs on the haloed row tiles too: both W phases of a row in one tile store whole
       rows, where the phase tiles store every other W value, sectors DRAM completes by reading
       them back (L2/34's convolution alone, bench/RESULTS.md: 1.24 -> 1.05 ms TF32, 1.17 -> 0.92
       half). */
    if (code == 0 && !rows && _FC3D_ROWS_STORE && g->s[2] == 2 && tp->hx_ok && !tp->bk_ok &&
        !_fc3d_tc_zero_chain(p, tp)) {
        int st = 0;
        for (k = 0; k < p->desc.num_ops; k++) st |= _fc3d_op_info_of(&p->desc.ops[k])->stats != _FC3D_ST_NONE;
        _fc3d_tc_plan alt;
        if (!st && _fc3d_tc_plan_rows(p, &alt, &tg, math, 1) == 0 && alt.kp.row_ok && alt.hx_ok && alt.kp.hx_rows) {
            alt.rows_store = 1;
            *tp = alt;
        }
    }
    /* FP32 math with a row norm (a LayerNorm over W) that the haloed loop's 3xTF32 row tiles do not
       take (an output summing more than _FC3D_HX_X3_ROWK products, _fc3d_hx_x3_rows, or a W stride
       other than 2): the tiled loops' whole-row tiles run 3xTF32 on mma.sync (L2/34's chain 4.70 ms
       against 1.61 for its haloed convolution alone, bench/RESULTS.md). Where the haloed loop takes the
       convolution without row tiles, the plan runs it so, storing the rows, and the pass that
       reads them back takes their statistics from them (_fc3d_row_pass_ok, _fc3d_add_row_pass).
       NCDHW only: an NDHWC row's values lie a channel apart, and its read-back took L2/34's chain
       to 11.09 ms against 7.64 on the row tiles. A chain forced to recompute keeps the row tiles
       (their epilogue is where its passes take the rows' statistics from); the planner's own
       choice then refuses recompute here, whose estimate on the tiled 3xTF32 tiles (1.32 ms for
       L2/34) is far under what they take (4.70). */
    if (code == 0 && rows && _FC3D_ROW_PASS && !tp->hx_ok &&
        (tp->hx_why == _FC3D_HX_NO_MATH || (math == _FC3D_TC_3XTF32 && tp->hx_why == _FC3D_HX_NO_ROWS)) &&
        g->layout == FC3D_LAYOUT_NCDHW && _fc3d_enum_int(&p->desc.strategy) != FC3D_STRATEGY_RECOMPUTE) {
        _fc3d_tc_plan alt;
        if (_fc3d_tc_plan_rows(p, &alt, &tg, math, 0) == 0 && alt.hx_ok) {
            alt.kp.row_ok = 0; /* no row tiles: the row ops' statistics from the read-back */
            *tp = alt;
        } else if (alt.hx_why) {
            tp->hx_why = alt.hx_why; /* why the haloed loop cannot take it without row tiles either */
        }
    }
    return code;
}

/* Whether the GEMM tiles of a conv pass can write op i's partials: a tile covers one phase of one
   sample, so only groups over whole (n, channel) blocks. */
static int _fc3d_tc_gathers(const fc3d_plan* p, int i) {
    return !(p->_private.stat[i].keep & (_FC3D_K_D | _FC3D_K_H | _FC3D_K_W));
}

static int _fc3d_igemm_can_implement(const fc3d_plan* p, char* why, size_t n) {
    static const char* const limit[7] = {
        "", "groups do not divide the channels", "layout", "a dimension past 2^30",
        "the weight is too large for its 32-bit tap indexing", "a phase of one sample has 2^31 or more outputs",
        "batch > 65535, or groups x channel tiles > 65535 (grid limits)"};
    _fc3d_tc_plan tp;
    if (p->desc.smem_per_block < FC3D_SMEM_PER_BLOCK_TC) {
        snprintf(why, n, "desc.smem_per_block = %d is below %d: a device before compute capability 8.0",
                 p->desc.smem_per_block, FC3D_SMEM_PER_BLOCK_TC);
        return 0;
    }
    const int code = _fc3d_tc_plan_of(p, &tp);
    int i;
    if (code) {
        snprintf(why, n, "%s", limit[code > 0 && code < 7 ? code : 0]);
        return 0;
    }
    for (i = 0; i < p->num_passes; i++) {
        const fc3d_pass* ps = &p->passes[i];
        if (p->strategy == FC3D_STRATEGY_RECOMPUTE && ps->stat_op >= 0 && !_fc3d_tc_gathers(p, _fc3d_gather_of(ps)) &&
            !(tp.kp.row_ok && ((_fc3d_tc_rowops(p) >> ps->stat_op) & 1u))) {
            snprintf(why, n, "ops[%d] (%s) keeps statistics per row or plane, which a recomputing pass cannot gather "
                             "from GEMM tiles", ps->stat_op, _fc3d_op_info_of(&p->desc.ops[ps->stat_op])->name);
            return 0;
        }
    }
    if (why && n) why[0] = 0;
    return 1;
}

/* Whether some pass computes the convolution (and so needs the re-laid weight). */
static int _fc3d_tc_convolves(const fc3d_plan* p) {
    int i;
    for (i = 0; i < p->num_passes; i++)
        if (p->passes[i].source == FC3D_SOURCE_CONV) return 1;
    return 0;
}

/* Whether pass i of an implicit-GEMM plan reads back with its row norm's statistics taken from the
   rows (_fc3d_add_row_pass): _fc3d_row_pass_ok, right after the convolving pass whose statistics
   for that norm no row tiles took (rowmask: the ops whose statistics whole-row tiles take). Both
   sides ask it: the convolving pass then adds no statistics read-back. */
static int _fc3d_tc_row_pass(const fc3d_plan* p, unsigned rowmask, int i) {
    return _fc3d_row_pass_ok(p, i) && p->passes[i - 1].source == FC3D_SOURCE_CONV &&
           !((rowmask >> p->passes[i].op_begin) & 1u);
}

static void _fc3d_igemm_plan_steps(fc3d_plan* p) {
    fc3d_plan_private_* pr = &p->_private;
    _fc3d_tc_plan* tp = (_fc3d_tc_plan*)pr->engine_data.bytes;
    fc3d_step_* s;
    int i;
    _fc3d_tc_plan_of(p, tp);
    if (_fc3d_tc_convolves(p)) { /* none where linear statistics leave no pass to convolve (a pooled chain) */
        const int64_t wn = tp->bk_ok ? (int64_t)(tp->bk_wbytes / 4) : tp->kp.ws_half;
        s = _fc3d_add_step(pr, _FC3D_STEP_TC_PREP, 0, -1);
        s->variant = tp->math;
        s->block = 256;
        const int64_t cap = tp->bk_ok && tp->kp.bk_f16 ? 16 : 4096; /* (_fc3d_bk_run::prep) */
        s->block = tp->bk_ok && tp->kp.bk_f16 ? 1024 : 256;
        s->grid = (unsigned)((wn + s->block - 1) / s->block < cap ? (wn + s->block - 1) / s->block : cap);
        if (tp->wr_ok) { /* the warp-row loop's copy of x (_fc3d_wr_run::prep): a thread a position */
            s->grid = 1 + _fc3d_wr_prep_grid(tp->kp, 1024); /* (block 0: the weight's) */
            s->block = 1024;
        }
    }
    const unsigned rowmask = tp->kp.row_ok ? _fc3d_tc_rowops(p) : 0u;
    for (i = 0; i < p->num_passes; i++) {
        const fc3d_pass* ps = &p->passes[i];
        const int first = i;
        int op_end = ps->op_end, store = ps->store, stat_op = _fc3d_gather_of(ps);
        if (ps->source == FC3D_SOURCE_INPUT_SUMS) {
            _fc3d_add_input_sums(p, i);
            continue;
        }
        if (ps->source != FC3D_SOURCE_CONV) {
            if (_fc3d_tc_row_pass(p, rowmask, i))
                _fc3d_add_row_pass(p, i); /* its statistics from the rows it reads (the conv pass gathered none) */
            else
                _fc3d_direct_add_pass(p, i, ps->source, ps->op_begin, ps->op_end, ps->store, stat_op);
            continue;
        }
        if (stat_op >= 0 && ((rowmask >> stat_op) & 1u)) {
            /* a row op's statistics come from whole-row tiles: a recomputing pass that would gather
               them has nothing to do (the passes after it convolve again and take them from their
               rows); a materialising one takes over the pass that reads its output back */
            if (p->strategy == FC3D_STRATEGY_RECOMPUTE) continue;
            while (stat_op >= 0 && ((rowmask >> stat_op) & 1u) && i + 1 < p->num_passes &&
                   p->passes[i + 1].source == FC3D_SOURCE_INTERMEDIATE) {
                i++;
                op_end = p->passes[i].op_end;
                store = p->passes[i].store;
                stat_op = p->passes[i].stat_op;
            }
        }
        /* (a chain without statistics on the haloed row tiles, _fc3d_tc_plan_of, or _FC3D_ROWS_ALWAYS:
           a bit past the ops' for a storing pass without statistics) */
        const bool rows_all = (_FC3D_ROWS_ALWAYS || tp->rows_store) && tp->kp.row_ok && store != FC3D_STORE_NONE &&
                              stat_op < 0;
        const unsigned rows = (rowmask & _fc3d_ops_in(ps->op_begin, op_end)) | (rows_all ? 0x80000000u : 0u);
        const int64_t tiles = rows ? tp->row_tiles_per_sample : tp->tiles_per_sample;
        const int tiles_gather = stat_op >= 0 && _fc3d_tc_gathers(p, stat_op);
        s = _fc3d_add_step(pr, _FC3D_STEP_TC_CONV, first, tiles_gather ? stat_op : -1);
        s->variant = tp->math;
        s->block = tp->wr_ok ? _fc3d_wr_nt(store != FC3D_STORE_NONE) : tp->bk_ok ? _FC3D_BK_NT : 32 * _fc3d_tc_warps(tp->math, tp->bn, tp->wg_ok != 0);
        /* a sample's (the block loop: its blocks; the warp-row loop: its output planes; both run a
           persistent grid) */
        s->grid = (unsigned)(tp->wr_ok ? tp->kp.out[0] : tp->bk_ok ? tp->kp.bk_blocks : tiles);
        s->arg[0] = store;
        s->arg[1] = ps->op_begin;
        s->arg[2] = op_end;
        s->arg[3] = rows != 0u;
        s->arg[4] = rows;
        s->arg[5] = !rows && !tiles_gather && store != FC3D_STORE_NONE && _fc3d_tc_zero_fill(p, tp, ps->op_begin, op_end);
        if (tiles_gather) {
            fc3d_stat_geom_* sg = &pr->stat[stat_op];
            /* slots: (n, channel within group) where the group does not keep them, then the tile */
            sg->slots = ((sg->keep & _FC3D_K_N) ? 1 : pr->geom.n) * ((sg->keep & _FC3D_K_C) ? sg->cpg : pr->geom.cout) *
                        _fc3d_tc_slots(tp, rows != 0u);
            _fc3d_add_finalize(p, first, stat_op);
        } else if (stat_op >= 0 && !_fc3d_tc_row_pass(p, rowmask, i + 1)) {
            /* the stored intermediate read back once for statistics the tiles cannot gather (a row
               norm's next: the pass that applies it takes them from its rows, _fc3d_add_row_pass) */
            _fc3d_direct_add_pass(p, first, FC3D_SOURCE_INTERMEDIATE, op_end, op_end, FC3D_STORE_NONE, stat_op);
        }
    }
}

static void _fc3d_igemm_workspace(fc3d_plan* p) {
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p->_private.engine_data.bytes;
    if (!_fc3d_tc_convolves(p)) return;
    /* region 0: the re-laid weight (the tiled loops'), the haloed loop's weight pieces or the block
       loop's fragment-ordered weight, whichever the run takes; region 1: the haloed loop's operand
       copy of x; region 2: its decoded tiles (_fc3d_hx_prep). The scale words of 3xTF32 and of
       TF32 on the f16 path follow the pieces (_fc3d_hx_x3_scales, _FC3D_HX_SC_BYTES). */
    if (tp->wr_ok) { /* the warp-row loop: its f16 weight and scale words; its f16 copy of x */
        _fc3d_ws_add(&p->_private, _FC3D_WS_ENGINE + 0, (size_t)_FC3D_WR_WB + _FC3D_WR_WORDS);
        _fc3d_ws_add(&p->_private, _FC3D_WS_ENGINE + 1, tp->wr_xbytes);
        return;
    }
    if (tp->bk_ok) {
        _fc3d_ws_add(&p->_private, _FC3D_WS_ENGINE + 0, tp->bk_wbytes);
        return;
    }
    const size_t wb = _fc3d_tc_workspace_bytes(tp),
                 hw = tp->hx_wbytes + (_fc3d_hx_scaled(_fc3d_hx_math(tp), tp->kp) ? _FC3D_HX_SC_BYTES : 0);
    _fc3d_ws_add(&p->_private, _FC3D_WS_ENGINE + 0, tp->hx_ok && hw > wb ? hw : wb);
    if (tp->hx_ok) _fc3d_ws_add(&p->_private, _FC3D_WS_ENGINE + 1, tp->hx_xbytes);
    if (tp->hx_ok) _fc3d_ws_add(&p->_private, _FC3D_WS_ENGINE + 2, (size_t)_fc3d_hx_tab_bytes(tp->kp));
}

/* The epilogue the GEMM tiles apply before their one store: the pass's ops, and the statistics
   partials of the pass's op at (group, slot). */
typedef struct _fc3d_tc_epi {
    _fc3d_dev_chain chain;
    int op_begin, op_end;
    unsigned rowops; /* ops whose statistics whole-row tiles take from the row itself */
    unsigned ncmask; /* ops fixed by (n, c) (_fc3d_nc_uniform): resolved once per channel */
    int64_t ext[5];
    double2* partials;
    fc3d_stat_geom_ sg;
    __device__ float apply(float v, int64_t n, int64_t c, int64_t od, int64_t oh, int64_t ow) const {
        if (op_begin == op_end) return v;
        const int64_t co[5] = {n, c, od, oh, ow};
        return _fc3d_apply_ops(chain, op_begin, op_end, v, ext, co);
    }
    /* Ops [b, end) on E values of channel c of sample n held in registers, when each is fixed by
       (n, c): resolved once and applied kind by kind (the same bits as apply). Returns false, the
       values untouched, when some op needs the values' coordinates. */
    template <int E>
    __device__ bool apply_nc_regs(float (&v)[E], int b, int end, int64_t n, int64_t c) const {
        const unsigned want = _fc3d_ops_in(b, end);
        if ((ncmask & want) != want) return false;
        const int64_t co[5] = {n, c, 0, 0, 0};
        for (int i = b; i < end; ++i) {
            /* the kinds that read nothing of (n, c) are applied straight from the op: resolving each
               per channel cost 80 instructions a channel and warp, a tenth of L2/61's GEMM step
               (its ReLU; ncu) */
            const _fc3d_dev_op& op = chain.ops[i];
            /* a scale by 1 leaves every value as it is (L2/34's `x * 1.0`): skipped, a uniform test
               instead of a multiply a value; in the haloed row epilogue it cost 0.09 ms of L2/34's
               1.84 (bench/RESULTS.md) */
            if (op.kind == FC3D_OP_SCALE && op.value == 1.0f) continue;
            if (!_fc3d_straight_op_regs((int)op.kind, op.value, v))
                _fc3d_apply_unit_op_regs(_fc3d_resolve_op(op, ext, co), v);
        }
        return true;
    }
    /* The ops on one output row of wout values held in registers by a group of L lanes (L a power
       of two, L * _FC3D_TC_ROW_EPL >= wout), lane s of the group holding ow = s + L e in v[e]; the
       group's first lane is `leader`. A row op's mean comes from sums shifted by the row's first
       value (in float: four chains a lane, then the group's lanes by a fixed butterfly, so every
       lane gets the same bits), so its error is relative to the row's spread, not to its
       distance from zero: each value is centred as (v - shift) - mean(v - shift), two roundings
       of numbers of the spread's size (the first exact where |mean| dominates; the pair
       hi + lo = shift + mean by TwoSum, each value centred as (v - hi) - lo, cost a subtraction
       more a value), the variance summed from the centred values (on full rows, LayerNorm's
       common case, each lane's mean and centred sum of squares merged across the group by
       Chan's pairwise formula instead: two levels of independent shuffles where the sum and
       the sum of squares took four in a chain; L2/34's chain 1.023 -> 0.990-0.997 ms TF32,
       0.988 -> 0.961-0.969 half, bench/RESULTS.md thirty-fifth entry), the inverse deviation from it
       by rsqrt.approx (2 ulp; __frsqrt_rn's correct rounding cost 25 instructions a row and warp,
       2.5 % of L2/34's chain kernel, ncu; the variance plus eps is never subnormal), the op
       applied in float (a few ulp of the result; the direct engine's double path and this agree
       to ~1e-7 relative). Row ops keep N, C, D and H, so a normalized-dims affine runs over W
       (index ow = _fc3d_row_ow), read per row (_fc3d_row_affine). Every lane of the warp calls it
       (shuffles).
       In shared memory with double arithmetic per element this epilogue took L2/34's GEMM step
       from 3.2 to 6.2 ms (ncu). */
    /* Row op `op`'s statistics from the row itself: the values centred in v, returned the
       inverse deviation (1 for a mean subtraction, which needs no more). */
    template <bool FULL>
    __device__ float row_centre(float (&v)[_FC3D_TC_ROW_EPL], int wout, int sub, int L, int leader,
                                bool sub_mean, float eps) const {
        constexpr int E = _FC3D_TC_ROW_EPL;
        const float invw = 1.0f / (float)wout; /* (the rows' loop keeps it: no division per row) */
        const float shift = __shfl_sync(0xffffffffu, v[0], leader);
        /* each value shifted by the row's first one, d = v - shift (exact where the row's values
           lie within a factor of two of it: a mean far from zero), d summed in four chains a
           lane, added in a fixed order, then across the group by a butterfly in float (x + y and
           y + x are the same bits: every lane of the group gets the same sum); the centred
           value d - mean(d), so every rounding is relative to the row's spread, not to its
           distance from zero. No double arithmetic or conversion on the row's path. */
        float s4[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
        for (int e = 0; e < E; ++e)
            if (FULL || _fc3d_row_ow<FULL>(e, sub, L) < wout) {
                v[e] -= shift;
                s4[e & 3] = FULL && e < 4 ? v[e] : s4[e & 3] + v[e]; /* (full rows: each chain from its first value) */
            }
        if (FULL && !sub_mean) {
            /* LayerNorm's full rows: each lane's mean and centred sum of squares of its E values,
               then the lanes' pairs merged (Chan et al.: equal counts n each, M2 = M2a + M2b +
               (ma - mb)^2 n / 2, m = (ma + mb) / 2; symmetric in a and b, so every lane of the
               group gets the same bits): two levels of independent shuffles for the row's
               statistics where the sum and then the sum of squares took four in a chain */
            float m = ((s4[0] + s4[1]) + (s4[2] + s4[3])) * (1.0f / (float)E);
            float q4[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
            for (int e = 0; e < E; ++e) {
                const float d = v[e] - m;
                q4[e & 3] = fmaf(d, d, q4[e & 3]);
            }
            float m2 = (q4[0] + q4[1]) + (q4[2] + q4[3]);
            float hn = 0.5f * (float)E;
            if (L == 4) {
                _fc3d_group_merge(m, m2, hn, 2);
                _fc3d_group_merge(m, m2, hn, 1);
            } else {
                for (int k = L >> 1; k > 0; k >>= 1) _fc3d_group_merge(m, m2, hn, k);
            }
#pragma unroll
            for (int e = 0; e < E; ++e) v[e] -= m;
            return _fc3d_rsqrt_ftz(fmaf(m2, invw, eps));
        }
        float sd = (s4[0] + s4[1]) + (s4[2] + s4[3]);
        _fc3d_group_sum(sd, L);
        const float md = sd * invw;
        if (sub_mean) {
#pragma unroll
            for (int e = 0; e < E; ++e)
                if (FULL || _fc3d_row_ow<FULL>(e, sub, L) < wout) v[e] -= md;
            return 1.f;
        }
        float q4[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
        for (int e = 0; e < E; ++e)
            if (FULL || _fc3d_row_ow<FULL>(e, sub, L) < wout) {
                v[e] -= md;
                q4[e & 3] = fmaf(v[e], v[e], q4[e & 3]);
            }
        float qd = (q4[0] + q4[1]) + (q4[2] + q4[3]);
        _fc3d_group_sum(qd, L);
        return _fc3d_rsqrt_ftz(fmaf(qd, invw, eps));
    }
    template <bool FULL>
    __device__ void apply_row_regs(float (&v)[_FC3D_TC_ROW_EPL], int wout, int sub, int L, int leader, int64_t n,
                                   int64_t c, int64_t od, int64_t oh) const {
        constexpr int E = _FC3D_TC_ROW_EPL;
        int b = op_begin;
        while (b < op_end) {
            int ri = b;
            while (ri < op_end && !((rowops >> ri) & 1u)) ++ri;
            if (b < ri && !apply_nc_regs(v, b, ri, n, c)) {
#pragma unroll
                for (int e = 0; e < E; ++e) {
                    const int ow = _fc3d_row_ow<FULL>(e, sub, L);
                    if (FULL || ow < wout) {
                        const int64_t co[5] = {n, c, od, oh, ow};
                        v[e] = _fc3d_apply_ops(chain, b, ri, v[e], ext, co);
                    }
                }
            }
            if (ri == op_end) break;
            const _fc3d_dev_op& op = chain.ops[ri];
            b = ri + 1;
            const bool sub_mean = op.stats == _FC3D_ST_SUB_MEAN;
            const float is = row_centre<FULL>(v, wout, sub, L, leader, sub_mean, op.eps);
            if (sub_mean) continue;
            /* the centred values scaled */
            const bool aff = (op.flags & FC3D_OP_AFFINE) != 0, per_c = op.affine == _FC3D_AFF_CHANNEL;
            if (aff && !per_c) {
                _fc3d_row_affine<FULL>(v, is, op.weight, op.bias, sub, L, wout);
                continue;
            }
            const float cw = aff ? op.weight[c] : 1.f, cb = aff ? op.bias[c] : 0.f;
#pragma unroll
            for (int e = 0; e < E; ++e) {
                float t = v[e] * is;
                if (aff) t = t * cw + cb;
                v[e] = t;
            }
        }
    }
    /* The common shape of a row pass resolved once per tile (row_prog): the pass's first op a
       row op (LayerNorm or mean subtraction over W, with no affine or an affine over W), then at most two ops that read nothing of
       (n, c) (ReLU, scale, GELU; a scale by 1 dropped). Walking the op list per row (the row-op
       search, the op table's loads, the kind switch) cost ~85 instructions a row and warp, 9 % of
       L2/34's chain kernel (ncu). */
    struct row_prog_t { /* (packed: it stays in registers through the row loop) */
        unsigned code; /* bit 0 a mean subtraction, bit 1 the affine over W,
                          bits 2-3 the ops after it, bits 4-7 and 8-11 their kinds */
        float eps, value[2];
    };
    __host__ __device__ bool row_prog(row_prog_t& rp) const {
        if (op_begin >= op_end || !((rowops >> op_begin) & 1u)) return false;
        const _fc3d_dev_op& op = chain.ops[op_begin];
        const bool aff = (op.flags & FC3D_OP_AFFINE) != 0, per_c = op.affine == _FC3D_AFF_CHANNEL;
        if (aff && per_c) return false;
        unsigned np = 0, kinds = 0;
        rp.eps = op.eps;
        rp.value[0] = rp.value[1] = 0.f;
        for (int i = op_begin + 1; i < op_end; ++i) {
            const _fc3d_dev_op& o = chain.ops[i];
            if (o.kind == FC3D_OP_SCALE && o.value == 1.0f) continue;
            if (!_fc3d_straight_kind((int)o.kind) || np == 2) return false;
            kinds |= ((unsigned)o.kind & 15u) << (4 * np);
            rp.value[np++] = o.value;
        }
        rp.code = (op.stats == _FC3D_ST_SUB_MEAN ? 1u : 0u) | (aff ? 2u : 0u) | np << 2 | kinds << 4;
        return true;
    }
    /* A row through row program rp; the same arithmetic as apply_row_regs. */
    template <bool FULL>
    __device__ void apply_row_prog(float (&v)[_FC3D_TC_ROW_EPL], int wout, int sub, int L, int leader,
                                   const row_prog_t& rp) const {
        constexpr int E = _FC3D_TC_ROW_EPL;
        const float is = row_centre<FULL>(v, wout, sub, L, leader, (rp.code & 1u) != 0, rp.eps);
        if (!(rp.code & 1u)) {
            if (rp.code & 2u) {
                const _fc3d_dev_op& op = chain.ops[op_begin];
                _fc3d_row_affine<FULL>(v, is, op.weight, op.bias, sub, L, wout);
            } else {
#pragma unroll
                for (int e = 0; e < E; ++e) v[e] = v[e] * is;
            }
        }
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            if (i >= (int)((rp.code >> 2) & 3u)) break;
            _fc3d_straight_op_regs((int)((rp.code >> (4 + 4 * i)) & 15u), rp.value[i], v);
        }
    }
    __device__ void partial(int64_t n, int64_t c, int64_t tile, int64_t tiles, double sum, double sumsq) const {
        partials[partial_slot(n, c, tile, tiles)] = make_double2(sum, sumsq);
    }
    /* Where partial() writes. The NCDHW epilogues compute the slots of a warp's channels up
       front, lane j the slot of the warp's j-th channel: the tiled one shuffles each to lane 0,
       which stores one channel's partial at a time; in the haloed one lane j stores its channel's
       (flush_parked). Per channel on lane 0, the slot's divisions were 11 % of the instructions of
       L2/61's GEMM step with its GroupNorm partials (ncu). */
    __device__ int64_t partial_slot(int64_t n, int64_t c, int64_t tile, int64_t tiles) const {
        return _fc3d_nc_partial_index(sg, ext[1], n, c, tiles, tile);
    }
    __device__ void partial_at(int64_t slot, double sum, double sumsq) const { partials[slot] = make_double2(sum, sumsq); }
    /* The haloed NCDHW epilogue's partials without a shuffle chain per channel. Once the warp has
       read a channel's staged row, each lane parks its (sum, sum of squares) there (lane l at [l]
       and [32 + l], as doubles: a row holds 128 floats or more); after the warp's last channel,
       lane j sums the 32 of the warp's j-th channel (row first + step j) and stores them at its
       slot. The order is fixed (lane j starts at element j: with rows 128 B apart modulo the
       banks, the lanes would otherwise read one bank), so two runs give the same bits. A
       butterfly of double shuffles per channel is a serial chain of ten shuffles and adds that
       the warp waits on: with 16 channels a warp and one CTA an SM (L2/61) parking measured
       1.455 -> 1.414 ms for the chain; the tiled loop's epilogue keeps the butterfly (4 channels
       a warp in L2/15's 32-channel tiles, 3 CTAs an SM: parked, its chain went 0.635 -> 0.655). */
    static __device__ __forceinline__ void park(float* row, int lane, double s, double ss) {
        double* r = reinterpret_cast<double*>(row);
        r[lane] = s;
        r[32 + lane] = ss;
    }
    __device__ void flush_parked(const float* Cs, int CS, int first, int step, int nvalid, int lane, int64_t slot) const {
        const int cl = first + step * lane;
        if (cl >= nvalid) return;
        const double* r = reinterpret_cast<const double*>(Cs + (size_t)cl * CS);
        double a[4] = {0.0, 0.0, 0.0, 0.0}, b[4] = {0.0, 0.0, 0.0, 0.0};
#pragma unroll
        for (int i = 0; i < 32; ++i) {
            const int e = (i + lane) & 31;
            a[i & 3] += r[e];
            b[i & 3] += r[32 + e];
        }
        partial_at(slot, (a[0] + a[1]) + (a[2] + a[3]), (b[0] + b[1]) + (b[2] + b[3]));
    }
} _fc3d_tc_epi;

/* >>engines --------------------------------------------------------------------------------------
   In priority order: the planner takes the first that can implement the desc. */
typedef struct _fc3d_engine_info {
    fc3d_engine id;
    const char* name;
    int (*can_implement)(const fc3d_plan* p, char* why, size_t n); /* 1 = yes; else why says why not */
    void (*plan_steps)(fc3d_plan* p);                              /* steps for p->passes */
    void (*workspace)(fc3d_plan* p);                               /* adds the engine's regions */
} _fc3d_engine_info;

static const _fc3d_engine_info _fc3d_engines[] = {
    {FC3D_ENGINE_IMPLICIT_GEMM, "implicit_gemm", _fc3d_igemm_can_implement, _fc3d_igemm_plan_steps,
     _fc3d_igemm_workspace},
    {FC3D_ENGINE_DIRECT, "direct", _fc3d_direct_can_implement, _fc3d_direct_plan_steps, _fc3d_direct_workspace},
};
#define _FC3D_NUM_ENGINES ((int)(sizeof _fc3d_engines / sizeof _fc3d_engines[0]))

static const _fc3d_engine_info* _fc3d_engine_by_id(int id) {
    int i;
    for (i = 0; i < _FC3D_NUM_ENGINES; i++)
        if ((int)_fc3d_engines[i].id == id) return &_fc3d_engines[i];
    return NULL;
}

FC3D_API const char* fc3d_engine_name(fc3d_engine engine) {
    const int id = _fc3d_enum_int(&engine);
    const _fc3d_engine_info* e = _fc3d_engine_by_id(id);
    return id == FC3D_ENGINE_AUTO ? "auto" : e ? e->name : "unknown";
}

/* >>planning -------------------------------------------------------------------------------------
   The passes of a chain, by strategy (materialize / recompute) and statistics plan (per op /
   moments); their costs; the choice among the alternatives the chain allows. */
#define _FC3D_H100_BYTES_PER_S 2945e9 /* PROBLEMS.md: device copy, bytes read + written */
#define _FC3D_H100_TF32_PER_S 403e12
#define _FC3D_H100_FP32_PER_S 52e12
#define _FC3D_H100_HALF_PER_S 732e12
/* What the engines sustain on the H100, for the planner's estimate (not the floor): the implicit
   GEMM retires at most ~37 M tiles a second whatever their depth (L2/15's convolution alone:
   15424 tiles of K <= 128 in 0.415 ms; each tile's table setup, pipeline fill and epilogue), and
   the direct engine's FP32 FMAs run at 0.6 to 3 TFLOP/s (bench/RESULTS.md). */
#define _FC3D_TC_TILES_PER_S 37e6
/* the block loop's output values (positions x channels of the convolution, conv_elems) a second
   with no store and no ops, and what a store and each op of the pass add to its time: L2/15 (63.0 M
   values; H200, the same SMs and clock as the H100; example timer, its kernels' shares from ncu;
   bench/RESULTS.md, thirty-third entry) 0.216 ms with its statistics alone (2.9e11 a second), 0.423
   storing y after a BatchNorm and a mean subtraction resolved per (n, c) (1.96x: a store 0.3 as
   measured on the H100 at 257 / 333 us under ncu, each op 0.33 on the one-phase units; none on the
   pairs', whose ops are one FMA a value) */
#define _FC3D_BK_VALUES_PER_S 2.9e11
/* the warp-row loop's statistics-only pass: L2/15's 63.0 M values of the convolution in 46 us
   under ncu, and its storing pass 0.151 ms (the convolution alone, 12 warps a CTA), 1.70x the
   bytes it moves at the copy rate: the library's kernels on an H100 (bench/RESULTS.md sixty-first
   to sixty-third entries; 0.171 and 1.93 before the staged stores were unrolled, 0.155 and 1.75
   with 8 warps a CTA; the standalone bench/l15_rows.cu ran 0.034 and 0.100 ms on an H200,
   fifty-eighth entry) */
#define _FC3D_WR_VALUES_PER_S 1.37e12
#define _FC3D_WR_STORE_OVER 1.70
#define _FC3D_BK_STORE_COST 0.3
#define _FC3D_BK_OP_COST 0.33
/* a pass with no ops or ops of one map per (n, c) at W stride 2 runs units of both W phases
   (_FC3D_BK_PAIRS), whose time is mostly the taps: L2/15 under ncu (H200, bench/RESULTS.md
   forty-fourth entry), its statistics pass 193 us without a store against 256 for one phase a
   unit, 207 storing y through the pass's composed map; with its statistics, 194 for the
   convolution alone (0.161 ms out of ncu) */
#define _FC3D_BK_PAIRS_GAIN 0.75
#define _FC3D_BK_PAIRS_STORE_COST 0.07
#define _FC3D_DIRECT_EST_PER_S 2e12
/* the warp-specialized row tiles' row program (_fc3d_hx_rows_ws, kind 2: a LayerNorm or mean
   subtraction over W, then at most two straight ops) on the epilogue warpgroup's four warps, which
   bounds such a pass where its bytes and MMAs do not: values of y a second with the LayerNorm
   alone, and what each GELU after it adds. L2/34 (268.4 M values, rows of 64; H200, the H100's SMs
   and clock; bench/chain_loops.cu, median of 20, bench/RESULTS.md fifty-sixth entry): the LayerNorm
   with or without its affine 0.577-0.578 ms, with the erf GELU and x 1.0 0.738-0.740, of which the
   steps before the row kernel (the weight's magnitude, x's copy, its check) ~0.03 ms: the row
   kernel 0.548 and 0.709 ms. ReLU and a scale are counted at nothing, the tanh GELU as the erf one
   and a mean subtraction over W as the LayerNorm (none of them measured on this kernel). */
#define _FC3D_HX_ROWPROG_VALUES_PER_S 4.9e11
#define _FC3D_HX_ROWPROG_GELU_COST 0.29
/* The haloed loop's tiles other than the warp-specialized row tiles run a tile's MMAs, then its
   epilogue and stores, one after the other (_fc3d_hx_main), so a step that stores the convolution's
   size takes about the MMAs' time at the math mode's rate plus the stores' at the copy rate rather
   than the larger of the two: the main kernels of the convolutions alone (H200, `make bench`'s
   times less their prep steps, bench/RESULTS.md fifty-sixth entry) L2/77 ~0.95 ms for 686 GFLOP
   issued (730 TFLOP/s: its stores are 3 MB), L2/61 ~0.48 for 263 GFLOP and 322 MB stored (0.36 +
   0.12: the stores at 2.7 TB/s), L1/77 ~0.24 for 33 GFLOP and 545 MB (0.044 + 0.195: 2.8 TB/s).
   The row tiles store a tile while the next one's MMAs run: the larger of the two there. */

static int _fc3d_ends_in_reduce(const fc3d_plan_desc* d) {
    return d->num_ops > 0 && _fc3d_op_info_of(&d->ops[d->num_ops - 1])->stats == _FC3D_ST_REDUCE;
}

/* Whether the chain can take every statistics op's statistics from the per-(n, c) moments of one
   pass (FC3D_STATS_PLAN_MOMENTS): the first statistics op, or -1 with the reason in why. The ops
   from the first statistics op on must each map an (n, c) slab by an affine function once their
   statistics are known, and their statistics groups must be unions of whole slabs. */
static int _fc3d_moments_first(const fc3d_plan_desc* d, char* why, size_t n) {
    int i, first = -1, nstat = 0;
    for (i = 0; i < d->num_ops; i++) {
        const int kind = _fc3d_enum_int(&d->ops[i].kind);
        if (_fc3d_op_info_of(&d->ops[i])->stats != _FC3D_ST_NONE) {
            if (first < 0) first = i;
            nstat++;
        }
        if (first < 0 || _fc3d_kind_affine_nc(kind) || kind == FC3D_OP_GLOBAL_AVG_POOL) continue;
        if (why) snprintf(why, n, "ops[%d] (%s) after the first statistics op is not affine per (n, c)", i,
                          _fc3d_op_info_of(&d->ops[i])->name);
        return -1;
    }
    if (nstat < 2) {
        if (why) snprintf(why, n, "the chain has %d statistics op%s; moments serve two or more", nstat, nstat == 1 ? "" : "s");
        return -1;
    }
    return first;
}

/* Whether the chain's statistics are all means linear in x (FC3D_STATS_PLAN_LINEAR): every op
   affine per (n, c), the statistics ops spatial-mean subtractions or a final pool. Returns the
   first statistics op, or -1 with the reason in why. */
static int _fc3d_linear_first(const fc3d_plan_desc* d, char* why, size_t n) {
    int i, first = -1;
    for (i = 0; i < d->num_ops; i++) {
        const int kind = _fc3d_enum_int(&d->ops[i].kind);
        switch (kind) {
        case FC3D_OP_SCALE: case FC3D_OP_ADD_CHANNEL: case FC3D_OP_BATCHNORM_INFER: break;
        case FC3D_OP_SUB_SPATIAL_MEAN: case FC3D_OP_GLOBAL_AVG_POOL:
            if (first < 0) first = i;
            break;
        default:
            if (why) snprintf(why, n, "ops[%d] (%s) is not an affine op or a mean", i, _fc3d_op_info_of(&d->ops[i])->name);
            return -1;
        }
    }
    if (first < 0 && why) snprintf(why, n, "the chain has no statistics op");
    return first;
}

/* Appends one logical pass. */
static void _fc3d_push_pass(fc3d_plan* p, int source, int op_begin, int op_end, int store, int stat_op, int moments) {
    fc3d_pass* ps = &p->passes[p->num_passes++];
    ps->source = (fc3d_source)source;
    ps->op_begin = op_begin;
    ps->op_end = op_end;
    ps->store = (fc3d_store)store;
    ps->stat_op = stat_op;
    ps->moments = moments;
}

/* The passes for a strategy and a statistics plan the chain can take (the caller checked). */
static void _fc3d_build_passes(fc3d_plan* p, int strategy, int stats_plan) {
    const fc3d_plan_desc* d = &p->desc;
    const int reduce = _fc3d_ends_in_reduce(d), mat = strategy == FC3D_STRATEGY_MATERIALIZE;
    int cuts[FC3D_MAX_OPS], ncuts = 0, i, j;
    memset(p->passes, 0, sizeof p->passes);
    p->num_passes = 0;
    p->strategy = (fc3d_strategy)strategy;
    p->stats_plan = (fc3d_stats_plan)stats_plan;
    for (i = 0; i < d->num_ops; i++)
        if (_fc3d_op_info_of(&d->ops[i])->stats != _FC3D_ST_NONE) cuts[ncuts++] = i;
    if (stats_plan == FC3D_STATS_PLAN_LINEAR || stats_plan == FC3D_STATS_PLAN_MOMENTS) {
        /* one statistics pass (from x, or a convolution pass storing the intermediate or nothing),
           then - unless the statistics steps write the pooled y - one pass applying the rest */
        const int lin = stats_plan == FC3D_STATS_PLAN_LINEAR;
        const int f = lin ? _fc3d_linear_first(d, NULL, 0) : _fc3d_moments_first(d, NULL, 0);
        _fc3d_push_pass(p, lin ? FC3D_SOURCE_INPUT_SUMS : FC3D_SOURCE_CONV, 0, lin ? 0 : f,
                        mat ? FC3D_STORE_INTERMEDIATE : FC3D_STORE_NONE, f, 1);
        if (!reduce)
            _fc3d_push_pass(p, mat ? FC3D_SOURCE_INTERMEDIATE : FC3D_SOURCE_CONV, mat ? f : 0, d->num_ops,
                            FC3D_STORE_Y, -1, 0);
        return;
    }
    if (!mat) {
        for (j = 0; j < ncuts; j++) _fc3d_push_pass(p, FC3D_SOURCE_CONV, 0, cuts[j], FC3D_STORE_NONE, cuts[j], 0);
        if (!reduce) _fc3d_push_pass(p, FC3D_SOURCE_CONV, 0, d->num_ops, FC3D_STORE_Y, -1, 0);
        return;
    }
    for (j = 0; j <= ncuts; j++)
        _fc3d_push_pass(p, j == 0 ? FC3D_SOURCE_CONV : FC3D_SOURCE_INTERMEDIATE, j == 0 ? 0 : cuts[j - 1],
                        j < ncuts ? cuts[j] : d->num_ops, j < ncuts ? FC3D_STORE_INTERMEDIATE : FC3D_STORE_Y,
                        j < ncuts ? cuts[j] : -1, 0);
}

/* The H100 rate of an engine's arithmetic in the plan's math mode (fc3d_plan_floor_ms). */
static double _fc3d_default_rate(const fc3d_plan* p) {
    const int math = _fc3d_enum_int(&p->desc.math);
    if (p->engine == FC3D_ENGINE_DIRECT) return _FC3D_H100_FP32_PER_S; /* FP32 FMAs in every mode */
    if (p->engine == FC3D_ENGINE_IMPLICIT_GEMM) {
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p->_private.engine_data.bytes;
        if (tp->hx_ok && _fc3d_hx_scaled(_fc3d_hx_math(tp), tp->kp))
            return _FC3D_H100_HALF_PER_S; /* the haloed loop's 3xTF32 and TF32 products are f16 wgmmas */
    }
    return math == FC3D_MATH_HALF ? _FC3D_H100_HALF_PER_S : _FC3D_H100_TF32_PER_S;
}

static double _fc3d_passes_floor_ms(const fc3d_pass* ps, int np, double bw, double rate) {
    double t = 0.0;
    int i;
    for (i = 0; i < np; i++) {
        const double tb = ps[i].bytes / bw, tf = ps[i].flops / rate;
        t += tb > tf ? tb : tf;
    }
    return t * 1e3;
}

/* The DRAM bytes of a zero-filling step's stores of its tapped phases (_fc3d_tc_zero_fill), y of
   element size es already filled: each 32-byte sector those stores touch, written again, and read
   first where they write part of it (a W stride with tap-less W residues: the sector is completed
   from DRAM before it is written back). A sector holds 32 / es positions of a row, so every sector
   of a tapped (d, h) row is touched unless the tapped W positions are sparser than that. L1/77:
   2 x 136 MB against 65 MB of values (bench/RESULTS.md). */
static double _fc3d_tc_tapped_sector_bytes(const _fc3d_tc_plan* tp, double es) {
    const _fc3d_tc_kparams& P = tp->kp;
    const double frac[3] = {_fc3d_tc_tapped_share(P, 0), _fc3d_tc_tapped_share(P, 1), _fc3d_tc_tapped_share(P, 2)};
    const double spw = 32.0 / es, tw = frac[2] * spw < 1.0 ? frac[2] * spw : 1.0;
    const double touched = (double)P.n * (double)P.cout * (double)P.out[0] * (double)P.out[1] * (double)P.out[2] * es *
                           frac[0] * frac[1] * tw;
    return frac[2] < 1.0 ? 2.0 * touched : touched;
}

/* The bytes of the haloed loop's operand copy of x that its convolving step reads: the padded
   planes that hold input (a tile skips the d taps that reach only zero planes; the copy's other
   planes and its slack are written by the prep step and never read). ncu, TF32: L2/77 reads 91 MB
   of its 135 MB copy (16 of 25 planes), L2/61 155 of 177 (bench/RESULTS.md). */
static double _fc3d_hx_copy_read_bytes(const _fc3d_tc_plan* tp) {
    const _fc3d_tc_kparams& P = tp->kp;
    const double rows = (double)P.in[0] * (double)P.hx_pad[1] * (double)P.hx_pad[2];
    return P.hx_ps > 0 ? (double)tp->hx_xbytes * (rows < (double)P.hx_ps ? rows / (double)P.hx_ps : 1.0) : 0.0;
}

/* The bytes of the weight as the implicit GEMM's kernels read it: the block loop's re-layout, the
   haloed loop's pieces, or the tiled loops' re-layout. */
static double _fc3d_tc_wcopy_bytes(const _fc3d_tc_plan* tp) {
    return (double)(tp->wr_ok ? (size_t)_FC3D_WR_WB : tp->bk_ok ? tp->bk_wbytes : tp->hx_ok ? tp->hx_wbytes : tp->ws_bytes);
}

static int _fc3d_hx_ws_step_kind(const fc3d_plan* p, const _fc3d_tc_plan* tp, const fc3d_step_* st, int* gelu);

/* What the plan's steps cost, per pass and in total (plan.exec_flops, exec_bytes, floor_ms): the
   FLOPs each step issues and the device bytes it reads and writes - x, the weight and its re-laid
   copy (the haloed loop: its weight pieces and its operand copy of x, written by the prep step,
   read by the convolving one), the bias once per convolution step; the float32 intermediate per
   read and per store; y, and the sectors a zero-filling step's partial stores read and write again;
   the statistics partials written and read back. Ops' own vectors are not counted. Where the plan
   has the haloed loop (hx_ok), its FLOPs and bytes are counted: the loop an H100 runs from an
   sm_90a binary. */
static void _fc3d_plan_costs(fc3d_plan* p) {
    fc3d_plan_private_* pr = &p->_private;
    const double es = (double)fc3d_dtype_size(p->desc.dtype);
    const double conv_elems = (double)pr->geom.n * (double)pr->geom.cout * (double)pr->geom.d * (double)pr->geom.h *
                              (double)pr->geom.w;
    const double xwb = ((double)p->x_elements + (double)p->weight_elements + (p->desc.conv.bias ? (double)pr->geom.cout : 0.0)) * es;
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
    double est = 0.0;
    int i;
    for (i = 0; i < p->num_passes; i++) p->passes[i].flops = p->passes[i].bytes = 0.0;
    for (i = 0; i < pr->num_steps; i++) {
        const fc3d_step_* st = &pr->steps[i];
        double f = 0.0, b = 0.0;
        int store = 0;
        double part = st->stat_op >= 0 ? (double)pr->stat[st->stat_op].groups * (double)pr->stat[st->stat_op].slots * 16.0 : 0.0;
        if (st->kind == _FC3D_STEP_TC_CONV || st->kind == _FC3D_STEP_FINALIZE ||
            (st->kind == _FC3D_STEP_MOMENTS_TAIL && st->arg[0])) {
            /* the slots the haloed phase tiles write, where the run takes them (_fc3d_tc_slots_written) */
            const fc3d_step_* c = st->kind == _FC3D_STEP_TC_CONV ? st : _fc3d_tc_gathering_step(pr, st);
            if (c && part > 0.0)
                part *= (double)_fc3d_tc_slots_written(tp, (int)c->arg[3], 1) / (double)_fc3d_tc_slots(tp, (int)c->arg[3]);
        }
        switch (st->kind) {
        case _FC3D_STEP_TC_PREP: /* the weight read, its re-layout written; the haloed loop's copy of x
                                    (3xTF32: x and the weight read once more, for their scales; TF32
                                    on the f16 path: the weight, x's copy finding x's) */
            b = (double)p->weight_elements * es + _fc3d_tc_wcopy_bytes(tp);
            if (tp->hx_ok) b += (double)p->x_elements * es + (double)tp->hx_xbytes;
            if (tp->wr_ok) b += (double)p->x_elements * es + (double)tp->wr_xbytes; /* (the warp-row loop's copy) */
            if (tp->hx_ok && _fc3d_hx_scaled(_fc3d_hx_math(tp), tp->kp))
                b += ((tp->kp.hx_t32 ? 0.0 : (double)p->x_elements) + (double)p->weight_elements) * es;
            break;
        case _FC3D_STEP_TC_CONV: /* the re-laid weight instead of the weight; the haloed loop's copy of x
                                    (its planes that hold input) instead of x */
            f = _fc3d_tc_issued_flops(tp, (int)st->arg[3]);
            b = xwb - (double)p->weight_elements * es + _fc3d_tc_wcopy_bytes(tp) + part;
            if (tp->hx_ok) b += _fc3d_hx_copy_read_bytes(tp) - (double)p->x_elements * es;
            if (tp->wr_ok) b += (double)tp->wr_xbytes - (double)p->x_elements * es; /* (its f16 copy, once) */
            store = (int)st->arg[0];
            /* the zero fill is the store below, the tapped phases' sectors stored again; with no fill
               (the haloed tiles store every position, _fc3d_hx_zc_geom) the store below alone */
            if (st->arg[5] && !_fc3d_hx_zc_geom(tp->kp))
                b += _fc3d_tc_tapped_sector_bytes(tp, store == FC3D_STORE_INTERMEDIATE ? 4.0 : es);
            break;
        case _FC3D_STEP_DIRECT_PASS:
            if (st->variant / 4 == FC3D_SOURCE_CONV) { f = p->flops; b = xwb; }
            else b = conv_elems * 4.0;
            b += part;
            store = (int)st->arg[3];
            break;
        case _FC3D_STEP_FINALIZE:
            b = part + (st->stat_op == _FC3D_MOMENTS ? (double)pr->stat[_FC3D_MOMENTS].groups * 16.0 : 0.0);
            if (st->stat_op != _FC3D_MOMENTS && _fc3d_op_info_of(&p->desc.ops[st->stat_op])->stats == _FC3D_ST_REDUCE)
                b += (double)p->y_elements * es;
            break;
        case _FC3D_STEP_XSUMS: { /* x once, the row and plane stages written and read, the box sums written */
            int64_t r_at, p_at;
            const double all = (double)_fc3d_xsums_doubles(&pr->geom, &r_at, &p_at);
            b = (double)p->x_elements * es + 2.0 * 8.0 * (all - (double)r_at) + 8.0 * (double)r_at;
            break;
        }
        case _FC3D_STEP_XCONTRACT: { /* the weight, the box sums, the per-(n, c) sums */
            int64_t r_at, p_at;
            _fc3d_xsums_doubles(&pr->geom, &r_at, &p_at);
            b = (double)p->weight_elements * es + 8.0 * (double)r_at + 16.0 * (double)pr->geom.n * (double)pr->geom.cout;
            break;
        }
        case _FC3D_STEP_MOMENTS_TAIL: { /* the partials or the cells' sums, the statistics, and a pooled y */
            int j;
            b = st->arg[0] ? part : (double)pr->geom.n * (double)pr->geom.cout * 16.0;
            for (j = p->passes[st->pass].stat_op; j < p->desc.num_ops; j++) {
                const int stats = _fc3d_op_info_of(&p->desc.ops[j])->stats;
                if (stats == _FC3D_ST_REDUCE) b += (double)p->y_elements * es;
                else if (stats != _FC3D_ST_NONE) b += (double)pr->stat[j].groups * 16.0;
            }
            break;
        }
        default: /* _FC3D_STEP_MOMENTS: the cells' sums and maps, and a pooled y */
            b = (double)pr->geom.n * (double)pr->geom.cout * 48.0;
            if (_fc3d_op_info_of(&p->desc.ops[st->stat_op])->stats == _FC3D_ST_REDUCE) b += (double)p->y_elements * es;
            break;
        }
        if (store == FC3D_STORE_INTERMEDIATE) b += conv_elems * 4.0;
        else if (store == FC3D_STORE_Y) b += (double)p->y_elements * es;
        pr->steps[i].flops = f;
        pr->steps[i].bytes = b;
        p->passes[st->pass].flops += f;
        p->passes[st->pass].bytes += b;
        {   /* the estimate: the floor of the step, or what the engine sustains where that is slower */
            double t = b / _FC3D_H100_BYTES_PER_S, tf = f / _fc3d_default_rate(p);
            if (tf > t) t = tf;
            if (st->kind == _FC3D_STEP_TC_CONV && tp->wr_ok) {
                /* the warp-row loop: its statistics-only pass at what its rows sustain, a storing
                   pass at its stores' share of the copy rate (_FC3D_WR_*) */
                const double tw = st->arg[0] != FC3D_STORE_NONE ? b / _FC3D_H100_BYTES_PER_S * _FC3D_WR_STORE_OVER
                                                                : conv_elems / _FC3D_WR_VALUES_PER_S;
                if (tw > t) t = tw;
            } else if (st->kind == _FC3D_STEP_TC_CONV && tp->bk_ok) {
                const bool pairs = _fc3d_bk_pairs(tp->bk_nt8, tp->kp.s[2], st->arg[0] != FC3D_STORE_NONE,
                                                  _fc3d_bk_ops_affine(p->desc.ops, (int)st->arg[1], (int)st->arg[2]));
                /* the pairs' ops are one FMA a value (their map composed per block), their stores
                   8 bytes a pair */
                const double sc = st->arg[0] != FC3D_STORE_NONE ? 1.0 : 0.0;
                const double tb = conv_elems / _FC3D_BK_VALUES_PER_S *
                                  (pairs ? _FC3D_BK_PAIRS_GAIN * (1.0 + sc * _FC3D_BK_PAIRS_STORE_COST)
                                         : 1.0 + sc * _FC3D_BK_STORE_COST +
                                               _FC3D_BK_OP_COST * (double)(st->arg[2] - st->arg[1]));
                if (tb > t) t = tb;
            } else if (st->kind == _FC3D_STEP_TC_CONV) {
                const double tt = (double)st->grid * (double)tp->kp.groups * (double)tp->kp.ntn * (double)tp->kp.n /
                                  _FC3D_TC_TILES_PER_S * (st->arg[5] ? 1.0 - tp->zfrac : 1.0);
                if (tt > t) t = tt;
                int gelu;
                const int ws = _fc3d_hx_ws_step_kind(p, tp, st, &gelu);
                if (ws == 2) { /* the row program on the epilogue warpgroup */
                    const double tr =
                        (double)p->y_elements / _FC3D_HX_ROWPROG_VALUES_PER_S * (1.0 + _FC3D_HX_ROWPROG_GELU_COST * gelu);
                    if (tr > t) t = tr;
                }
                if (tp->hx_ok && store != FC3D_STORE_NONE && ws == 0) {
                    /* the haloed tiles' MMAs and stores in series */
                    const double ys = store == FC3D_STORE_INTERMEDIATE ? conv_elems * 4.0 : (double)p->y_elements * es;
                    const double ts = tf + ys / _FC3D_H100_BYTES_PER_S;
                    if (ts > t) t = ts;
                }
            }
            if (st->kind == _FC3D_STEP_DIRECT_PASS && f / _FC3D_DIRECT_EST_PER_S > t) t = f / _FC3D_DIRECT_EST_PER_S;
            est += t;
        }
    }
    p->exec_flops = p->exec_bytes = 0.0;
    for (i = 0; i < p->num_passes; i++) {
        p->exec_flops += p->passes[i].flops;
        p->exec_bytes += p->passes[i].bytes;
    }
    p->floor_ms = _fc3d_passes_floor_ms(p->passes, p->num_passes, _FC3D_H100_BYTES_PER_S, _fc3d_default_rate(p));
    p->_private.est_ms = est * 1e3;
}

static fc3d_result _fc3d_choose_engine(fc3d_plan* p, const _fc3d_engine_info** out);

/* The alternatives the chain allows - (strategy, statistics plan), in the order ties go - each
   planned in a scratch copy on the engine that would run it and costed from its steps
   (_fc3d_plan_costs: the floor of what would run). The cheapest that the desc's forced fields
   allow is built into p->passes. Returns FC3D_SUCCESS, or the error of a forced choice the chain
   cannot take. */
static fc3d_result _fc3d_choose_passes(fc3d_plan* p) {
    const fc3d_plan_desc* d = &p->desc;
    fc3d_plan_private_* pr = &p->_private;
    const int fs = _fc3d_enum_int(&d->strategy), fp = _fc3d_enum_int(&d->stats_plan);
    const int reduce = _fc3d_ends_in_reduce(d);
    char why[FC3D_MESSAGE_LEN], why_lin[FC3D_MESSAGE_LEN];
    const int mom = _fc3d_moments_first(d, why, sizeof why) >= 0;
    const int lin = _fc3d_linear_first(d, why_lin, sizeof why_lin) >= 0;
    /* the alternatives in the order ties go */
    static const int alts[5][2] = {{FC3D_STRATEGY_RECOMPUTE, FC3D_STATS_PLAN_LINEAR},
                                   {FC3D_STRATEGY_MATERIALIZE, FC3D_STATS_PLAN_MOMENTS},
                                   {FC3D_STRATEGY_RECOMPUTE, FC3D_STATS_PLAN_MOMENTS},
                                   {FC3D_STRATEGY_MATERIALIZE, FC3D_STATS_PLAN_PER_OP},
                                   {FC3D_STRATEGY_RECOMPUTE, FC3D_STATS_PLAN_PER_OP}};
    int k, best = -1, first_allowed = -1, nstat = 0;
    double best_ms = 0.0;
    fc3d_plan* q;
    for (k = 0; k < d->num_ops; k++) nstat += _fc3d_op_info_of(&d->ops[k])->stats != _FC3D_ST_NONE;
    if (fs == FC3D_STRATEGY_MATERIALIZE && reduce) {
        return _fc3d_fail(p->message, FC3D_ERROR_STRATEGY,
                          "strategy = materialize: the chain ends in ops[%d] (global_avg_pool), so y holds no "
                          "convolution-sized tensor to materialize into", d->num_ops - 1);
    }
    if (fs == FC3D_STRATEGY_RECOMPUTE && nstat == 0) {
        return _fc3d_fail(p->message, FC3D_ERROR_STRATEGY,
                          "strategy = recompute: the chain has no statistics op, so one pass computes everything");
    }
    if (fp == FC3D_STATS_PLAN_MOMENTS && !mom) {
        return _fc3d_fail(p->message, FC3D_ERROR_STATS_PLAN, "stats_plan = moments: %s", why);
    }
    if (fp == FC3D_STATS_PLAN_LINEAR && !lin) {
        return _fc3d_fail(p->message, FC3D_ERROR_STATS_PLAN, "stats_plan = linear: %s", why_lin);
    }
    if (fp == FC3D_STATS_PLAN_LINEAR && fs == FC3D_STRATEGY_MATERIALIZE) {
        return _fc3d_fail(p->message, FC3D_ERROR_STATS_PLAN,
                          "stats_plan = linear with strategy = materialize: linear statistics store nothing to "
                          "read back (their plan recomputes)");
    }
    q = (fc3d_plan*)malloc(sizeof *q); /* the scratch plan each alternative is costed in */
    pr->num_alts = 0;
    for (k = 0; k < 5; k++) {
        const int st = alts[k][0], sp = alts[k][1];
        const _fc3d_engine_info* e = NULL;
        double ms = -1.0;
        if (sp == FC3D_STATS_PLAN_MOMENTS && !mom) continue;
        if (sp == FC3D_STATS_PLAN_LINEAR && !lin) continue;
        if (st == FC3D_STRATEGY_MATERIALIZE && reduce) continue;
        if (st == FC3D_STRATEGY_RECOMPUTE && nstat == 0) continue;
        _fc3d_build_passes(p, st, sp);
        if (q) {
            memcpy(q, p, sizeof *q);
            if (_fc3d_choose_engine(q, &e) == FC3D_SUCCESS) {
                q->engine = e->id;
                e->plan_steps(q);
                _fc3d_plan_costs(q);
                ms = q->_private.est_ms;
                pr->alt_floor_ms[pr->num_alts] = q->floor_ms;
            }
        }
        pr->alt_strategy[pr->num_alts] = st;
        pr->alt_stats_plan[pr->num_alts] = sp;
        pr->alt_engine[pr->num_alts] = e ? (int)e->id : 0;
        pr->alt_ms[pr->num_alts++] = ms;
        if ((fs != FC3D_STRATEGY_NONE && fs != st) || (fp != FC3D_STATS_PLAN_AUTO && fp != sp)) continue;
        if (first_allowed < 0) first_allowed = k;
        if (ms >= 0.0 && (best < 0 || ms < best_ms)) { best = k; best_ms = ms; }
    }
    free(q);
    if (best < 0) best = first_allowed; /* its engine refuses it: _fc3d_choose_engine says why */
    _fc3d_build_passes(p, alts[best][0], alts[best][1]);
    return FC3D_SUCCESS;
}

/* The one workspace layout: shared regions, then the engine's. Called once, by fc3d_plan_init. */
static void _fc3d_workspace_layout(fc3d_plan* p, const _fc3d_engine_info* e) {
    fc3d_plan_private_* pr = &p->_private;
    size_t partials = 0;
    int i, any = 0, moments = 0;
    for (i = 0; i <= _FC3D_MOMENTS; i++) {
        const fc3d_stat_geom_* s = &pr->stat[i];
        const size_t b = (size_t)(s->groups * s->slots) * sizeof(double) * 2;
        if (i < p->desc.num_ops && s->groups) any = 1;
        if (b > partials) partials = b;
    }
    for (i = 0; i < p->num_passes; i++) moments |= p->passes[i].moments;
    if (any && p->strategy == FC3D_STRATEGY_MATERIALIZE && p->desc.dtype != FC3D_DTYPE_F32)
        _fc3d_ws_add(pr, _FC3D_WS_INTERMEDIATE, (size_t)(pr->geom.n * pr->geom.cout * pr->geom.d * pr->geom.h * pr->geom.w) *
                                                    sizeof(float));
    _fc3d_ws_add(pr, _FC3D_WS_PARTIALS, partials);
    for (i = 0; i < p->desc.num_ops; i++)
        if (pr->stat[i].groups && _fc3d_op_info_of(&p->desc.ops[i])->stats != _FC3D_ST_REDUCE)
            _fc3d_ws_add(pr, _FC3D_WS_STATS + i, (size_t)pr->stat[i].groups * 2 * sizeof(double));
    if (moments) _fc3d_ws_add(pr, _FC3D_WS_MOMENTS, (size_t)(pr->geom.n * pr->geom.cout) * 4 * sizeof(double));
    if (p->stats_plan == FC3D_STATS_PLAN_LINEAR) {
        int64_t r_at, p_at;
        _fc3d_ws_add(pr, _FC3D_WS_XSUMS, (size_t)_fc3d_xsums_doubles(&pr->geom, &r_at, &p_at) * sizeof(double));
    }
    e->workspace(p);
}

/* The engine for the plan: the forced one, or the first in priority order that can implement it. */
static fc3d_result _fc3d_choose_engine(fc3d_plan* p, const _fc3d_engine_info** out) {
    char why[FC3D_MESSAGE_LEN];
    const int forced = _fc3d_enum_int(&p->desc.engine);
    int i;
    for (i = 0; i < _FC3D_NUM_ENGINES; i++) {
        const _fc3d_engine_info* e = &_fc3d_engines[i];
        if (forced != FC3D_ENGINE_AUTO && (int)e->id != forced) continue;
        if (e->can_implement(p, why, sizeof why)) {
            *out = e;
            return FC3D_SUCCESS;
        }
        if (forced != FC3D_ENGINE_AUTO)
            return _fc3d_fail(p->message, FC3D_ERROR_ENGINE_REFUSED, "engine %s: %s", e->name, why);
    }
    /* the direct engine accepts every valid desc, so only a forced id without an entry gets here */
    return _fc3d_fail(p->message, FC3D_ERROR_ENGINE, "engine = %d", forced);
}

/* desc.main_loop against the plan: a forced loop needs the implicit_gemm engine, wgmma its
   condition (C_in/groups a multiple of 16), the haloed loop its own (_fc3d_hx_choose). Sets
   plan.main_loop. */
static fc3d_result _fc3d_check_main_loop(fc3d_plan* p) {
    const int loop = _fc3d_enum_int(&p->desc.main_loop);
    static const char* const name[6] = {"auto", "mma_sync", "wgmma", "halo", "block", "warp_rows"};
    p->main_loop = FC3D_MAIN_LOOP_AUTO;
    if (p->engine != FC3D_ENGINE_IMPLICIT_GEMM) {
        if (loop == FC3D_MAIN_LOOP_AUTO) return FC3D_SUCCESS;
        return _fc3d_fail(p->message, FC3D_ERROR_MAIN_LOOP, "main_loop = %s: the %s engine has no tensor-core main loop",
                          name[loop], fc3d_engine_name(p->engine));
    }
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)p->_private.engine_data.bytes;
    if (loop == FC3D_MAIN_LOOP_WGMMA && p->desc.smem_per_block < FC3D_SMEM_PER_BLOCK_MAX)
        return _fc3d_fail(p->message, FC3D_ERROR_MAIN_LOOP,
                          "main_loop = wgmma runs on sm_90 only, and desc.smem_per_block = %d is below sm_90's %d",
                          p->desc.smem_per_block, FC3D_SMEM_PER_BLOCK_MAX);
    if (loop == FC3D_MAIN_LOOP_WGMMA && !tp->wg_ok)
        return _fc3d_fail(p->message, FC3D_ERROR_MAIN_LOOP,
                          "main_loop = wgmma needs in_channels / groups a multiple of %d (here %lld)", _FC3D_WG_PIECE,
                          (long long)tp->kp.cin_g);
    if (loop == FC3D_MAIN_LOOP_HALO && !tp->hx_ok)
        return _fc3d_fail(p->message, FC3D_ERROR_MAIN_LOOP, "main_loop = halo cannot take this plan: %s",
                          _fc3d_hx_why_text(tp->hx_why));
    if (loop == FC3D_MAIN_LOOP_BLOCK && !tp->bk_ok)
        return _fc3d_fail(p->message, FC3D_ERROR_MAIN_LOOP, "main_loop = block cannot take this plan: %s",
                          _fc3d_bk_why_text(tp->bk_why));
    if (loop == FC3D_MAIN_LOOP_WARP_ROWS && !tp->wr_ok)
        return _fc3d_fail(p->message, FC3D_ERROR_MAIN_LOOP, "main_loop = warp_rows cannot take this plan: %s",
                          _fc3d_wr_why_text(tp->wr_why));
    p->main_loop = tp->hx_ok   ? FC3D_MAIN_LOOP_HALO
                   : tp->wr_ok ? FC3D_MAIN_LOOP_WARP_ROWS
                   : tp->bk_ok ? FC3D_MAIN_LOOP_BLOCK
                   : tp->wg_ok ? FC3D_MAIN_LOOP_WGMMA
                               : FC3D_MAIN_LOOP_MMA_SYNC;
    return FC3D_SUCCESS;
}

FC3D_API fc3d_result fc3d_plan_init(fc3d_plan* plan, const fc3d_plan_desc* desc) {
    fc3d_plan* p = plan;
    fc3d_plan_private_* pr;
    const _fc3d_engine_info* engine = NULL;
    fc3d_result r;
    int64_t cd[5];
    int i;
    if (!p) return FC3D_ERROR_NULL_ARGUMENT;
    memset(p, 0, sizeof *p);
    pr = &p->_private;
    if (!desc) {
        p->result = _fc3d_fail(p->message, FC3D_ERROR_NULL_ARGUMENT, "desc is NULL");
        return p->result;
    }
#define _FC3D_CHECK(expr)                       \
    do {                                        \
        r = (expr);                             \
        if (r != FC3D_SUCCESS) goto failed;     \
    } while (0)
    p->desc = fc3d_plan_desc_defaults(desc);
    _FC3D_CHECK(_fc3d_validate_conv(&p->desc.conv, p->message));
    _FC3D_CHECK(_fc3d_validate_enums(&p->desc, p->message));
    {
        const fc3d_conv_desc* c = &p->desc.conv;
        fc3d_geom_* g = &pr->geom;
        int64_t xe, we, taps = 1;
        for (i = 0; i < 3; i++) {
            int64_t o = ((int64_t)c->in_size[i] - 1) * c->stride[i] - 2 * (int64_t)c->padding[i] +
                        (int64_t)c->dilation[i] * (c->kernel[i] - 1) + c->output_padding[i] + 1;
            if (o <= 0)
                _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_CONV_OUTPUT_SIZE, "output size[%d] (%s) = %lld", i,
                                       _fc3d_dim_name[i], (long long)o));
            if (o > 0x7fffffff)
                _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_SIZE_OVERFLOW, "output size[%d] (%s) = %lld", i,
                                       _fc3d_dim_name[i], (long long)o));
            p->conv_size[i] = o;
            taps = _fc3d_mul(taps, c->kernel[i]);
            g->k[i] = c->kernel[i]; g->s[i] = c->stride[i]; g->p[i] = c->padding[i]; g->dl[i] = c->dilation[i];
        }
        g->n = c->batch; g->cin = c->in_channels; g->cout = c->out_channels;
        g->di = c->in_size[0]; g->hi = c->in_size[1]; g->wi = c->in_size[2];
        g->d = p->conv_size[0]; g->h = p->conv_size[1]; g->w = p->conv_size[2];
        g->groups = c->groups;
        g->layout = _fc3d_enum_int(&p->desc.layout);
        _fc3d_conv_dims(g, cd);
        xe = _fc3d_mul(_fc3d_mul(_fc3d_mul(c->batch, c->in_channels), _fc3d_mul(c->in_size[0], c->in_size[1])),
                       c->in_size[2]);
        we = taps < 0 ? -1 : _fc3d_mul(_fc3d_mul(c->in_channels, c->out_channels / c->groups), taps);
        p->y_elements = _fc3d_mul(_fc3d_mul(_fc3d_mul(cd[0], cd[1]), _fc3d_mul(cd[2], cd[3])), cd[4]);
        if (xe < 0 || we < 0 || p->y_elements < 0)
            _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_SIZE_OVERFLOW, "x %s, weight %s, conv output %s",
                                   xe < 0 ? "too large" : "ok", we < 0 ? "too large" : "ok",
                                   p->y_elements < 0 ? "too large" : "ok"));
        p->x_elements = xe;
        p->weight_elements = we;
        /* every output element gathers (C_in/groups) taps per input position that reaches it; the
           dense count is what cuDNN and PyTorch report */
        p->flops = 2.0 * (double)xe * (double)(c->out_channels / c->groups) * (double)taps;
    }
    for (i = 0; i < p->desc.num_ops; i++) {
        _FC3D_CHECK(_fc3d_validate_op(&p->desc, cd, i, p->message));
        p->op_tensors[i] = _fc3d_op_tensor_sizes_of(&p->desc.ops[i], cd);
        pr->stat[i] = _fc3d_stat_geom_of(&p->desc.ops[i], cd);
    }
    {   /* the per-(n, c) moments (FC3D_STATS_PLAN_MOMENTS) */
        fc3d_stat_geom_* m = &pr->stat[_FC3D_MOMENTS];
        m->keep = _FC3D_K_N | _FC3D_K_C;
        m->cpg = 1;
        m->groups = cd[0] * cd[1];
        m->count = (double)cd[2] * (double)cd[3] * (double)cd[4];
    }
    for (i = 0; i < 5; i++) p->y_dims[i] = cd[i];
    pr->desc = p->desc;
    p->y_elements = 1;
    for (i = 0; i < 5; i++) {
        if (!_fc3d_y_keeps(pr, i)) p->y_dims[i] = 1;
        p->y_elements *= p->y_dims[i];
    }
    _FC3D_CHECK(_fc3d_choose_passes(p));
    _FC3D_CHECK(_fc3d_choose_engine(p, &engine));
    p->engine = engine->id;
    engine->plan_steps(p);
    _FC3D_CHECK(_fc3d_check_main_loop(p));
    _fc3d_workspace_layout(p, engine);
    _fc3d_plan_costs(p);
    p->workspace_bytes = pr->ws_used ? pr->ws_used + (_FC3D_ALIGN - 1) : 0;
    pr->num_passes = p->num_passes;
    memcpy(pr->passes, p->passes, sizeof pr->passes);
    p->result = FC3D_SUCCESS;
    return FC3D_SUCCESS;
failed:
    {
        char keep[FC3D_MESSAGE_LEN];
        memcpy(keep, p->message, sizeof keep);
        memset(p, 0, sizeof *p);
        memcpy(p->message, keep, sizeof keep);
        p->result = r;
        return r;
    }
#undef _FC3D_CHECK
}

FC3D_API double fc3d_plan_floor_ms(const fc3d_plan* p, double bytes_per_second, double flops_per_second) {
    if (!p || _fc3d_enum_int(&p->result) != FC3D_SUCCESS || p->num_passes <= 0 || p->num_passes > FC3D_MAX_PASSES)
        return -1.0;
    return _fc3d_passes_floor_ms(p->passes, p->num_passes, bytes_per_second > 0.0 ? bytes_per_second : _FC3D_H100_BYTES_PER_S,
                                 flops_per_second > 0.0 ? flops_per_second : _fc3d_default_rate(p));
}

static const char* const _fc3d_strategy_name[3] = {"none", "materialize", "recompute"};
static const char* const _fc3d_stats_plan_name[4] = {"auto", "per op", "moments", "linear"};

static const char* const _fc3d_step_name[_FC3D_STEP_KIND_COUNT_] = {"?", "finalize", "direct pass",
                                                                    "weight re-layout", "implicit GEMM",
                                                                    "statistics from moments", "box sums of x",
                                                                    "conv sums from box sums", "moments tail"};

FC3D_API int fc3d_plan_describe(const fc3d_plan* p, char* buf, size_t n) {
    /* appended piece by piece; `len` counts what the whole text needs, as snprintf does */
    int len = 0, i;
    char line[1024];
#define _FC3D_PUT(...)                                                                              \
    do {                                                                                            \
        const int k_ = snprintf(line, sizeof line, __VA_ARGS__);                                    \
        if (k_ > 0) {                                                                               \
            if ((size_t)len + 1 < n) {                                                              \
                const size_t room_ = n - 1 - (size_t)len, c_ = (size_t)k_ < room_ ? (size_t)k_ : room_; \
                memcpy(buf + len, line, c_);                                                        \
                buf[(size_t)len + c_] = 0;                                                          \
            }                                                                                       \
            len += k_;                                                                              \
        }                                                                                           \
    } while (0)
    if (buf && n) buf[0] = 0;
    if (!buf) n = 0;
    if (!p || p->result != FC3D_SUCCESS) {
        _FC3D_PUT("invalid plan: %s\n", p ? p->message : "NULL");
        return len;
    }
    {
        const fc3d_conv_desc* c = &p->desc.conv;
        const fc3d_plan_private_* pr = &p->_private;
        _FC3D_PUT("conv_transpose3d %dx%dx%dx%dx%d -> %lldx%lldx%lldx%lldx%lld, kernel %dx%dx%d, stride %dx%dx%d, "
                  "padding %dx%dx%d, output_padding %dx%dx%d, dilation %dx%dx%d, groups %d, %s\n",
                  c->batch, c->in_channels, c->in_size[0], c->in_size[1], c->in_size[2], (long long)c->batch,
                  (long long)c->out_channels, (long long)p->conv_size[0], (long long)p->conv_size[1],
                  (long long)p->conv_size[2], c->kernel[0], c->kernel[1], c->kernel[2], c->stride[0], c->stride[1],
                  c->stride[2], c->padding[0], c->padding[1], c->padding[2], c->output_padding[0],
                  c->output_padding[1], c->output_padding[2], c->dilation[0], c->dilation[1], c->dilation[2],
                  c->groups, c->bias ? "bias" : "no bias");
        _FC3D_PUT("%s %s, math %s, %.3g GFLOP; y %lldx%lldx%lldx%lldx%lld\n", _fc3d_dtype_name(_fc3d_enum_int(&p->desc.dtype)),
                  _fc3d_layout_name(_fc3d_enum_int(&p->desc.layout)), _fc3d_math_name(_fc3d_enum_int(&p->desc.math)), p->flops * 1e-9,
                  (long long)p->y_dims[0], (long long)p->y_dims[1], (long long)p->y_dims[2], (long long)p->y_dims[3],
                  (long long)p->y_dims[4]);
        _FC3D_PUT("ops:");
        for (i = 0; i < p->desc.num_ops; i++) _FC3D_PUT(" %d:%s", i, _fc3d_op_info_of(&p->desc.ops[i])->name);
        _FC3D_PUT("%s\n", p->desc.num_ops ? "" : " none");
        _FC3D_PUT("engine: %s%s\n", fc3d_engine_name(p->engine),
                  _fc3d_enum_int(&p->desc.engine) == FC3D_ENGINE_AUTO ? " (chosen)" : " (forced)");
        for (i = 0; i < _FC3D_NUM_ENGINES && _fc3d_engines[i].id != p->engine; i++) {
            char why[FC3D_MESSAGE_LEN];
            if (_fc3d_enum_int(&p->desc.engine) != FC3D_ENGINE_AUTO) break;
            if (!_fc3d_engines[i].can_implement(p, why, sizeof why))
                _FC3D_PUT("  engine %s refused: %s\n", _fc3d_engines[i].name, why);
        }
        if (p->main_loop == FC3D_MAIN_LOOP_HALO) {
            const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
            /* behind a zero fill (_fc3d_tc_zero_fill) the tapped phases' tiles alone are launched */
            char zt[128] = "";
            const int zc = _fc3d_tc_zero_chain(p, tp);
            if (zc)
                snprintf(zt, sizeof zt,
                         _fc3d_hx_zc_geom(tp->kp) ? " (%lld with taps launched, storing the tap-less positions around theirs: no fill)"
                                                  : " (%lld with taps launched, behind the zero fill)",
                         (long long)tp->kp.hx_zcls_start[8]);
            _FC3D_PUT("main loop: haloed wgmma%s; %d-channel tiles, %lld haloed tiles a sample%s, %.4g products an "
                      "output on average%s\n",
                      _fc3d_enum_int(&p->desc.main_loop) == FC3D_MAIN_LOOP_HALO
                          ? " (forced: a run without sm_90a code for its device fails)"
                          : " where the run's device and binary allow it (sm_90a code on an sm_90 device), else "
                            "mma.sync",
                      tp->hx_bn, (long long)tp->kp.hx_tiles, zt, zc ? tp->hx_macs / (1.0 - tp->zfrac) : tp->hx_macs,
                      zc ? " over the outputs a tap reaches" : "");
            if (tp->kp.hx_short)
                _FC3D_PUT("  64-channel tiles for %lld output channels: a tile's K (C_in / groups x a phase's taps) under "
                          "%d, so two CTAs share an SM (one weight slot fewer where that lets the second on)\n",
                          (long long)tp->kp.cout_g, _FC3D_HX_SHORT_K);
            _FC3D_PUT("  padded planes of %d x %d rows (H x W; %s)\n", tp->kp.hx_pad[1], tp->kp.hx_pad[2],
                      _FC3D_HX_SHARED_HALO ? "halos shared between neighbouring rows and planes"
                                           : "every row and plane with a halo of its own");
            if (tp->kp.hx_prows)
                _FC3D_PUT("  tiles: %d rows of one padded plane (%d x %d virtual rows, wgmma n%d)\n", tp->kp.hx_prows,
                          tp->kp.hx_prows, tp->kp.hx_pad[2], tp->kp.hx_rn);
            else
                _FC3D_PUT("  tiles: runs of %d virtual rows across the padded planes (wgmma n%d)\n", _FC3D_HX_NR,
                          tp->kp.hx_rn);
            if (tp->math == _FC3D_TC_3XTF32)
                _FC3D_PUT("  3xTF32: x and the weight in big and small TF32 parts held as f16 (each tensor scaled by a "
                          "power of two); a tile's 64 channels on two warpgroups of m64n128 (half its rows each), three "
                          "f16 wgmmas a K step of 16 channels, %d (h, w) taps a chunk accumulator%s\n",
                          _FC3D_HX_X3_TAPS,
                          tp->kp.hx_rows ? "; row tiles: three f16 wgmmas a K step into one accumulator (at most "
                                           "512 products an output)" : "");
            if (tp->kp.hx_t32)
                _FC3D_PUT("  TF32 on the f16 path: x and the weight rounded to TF32 and held as f16 (each tensor scaled "
                          "by a power of two), f16 wgmmas at twice TF32's rate\n");
            if (tp->kp.hx_rows)
                _FC3D_PUT("  row passes: %lld haloed row tiles a sample, %d padded rows of both W phases each (wgmma "
                          "n%d)\n", (long long)tp->kp.hx_rcls_start[4], tp->kp.hx_rpt, tp->kp.hx_rrn);
        } else if (p->main_loop == FC3D_MAIN_LOOP_BLOCK) {
            const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
            const _fc3d_tc_kparams& K = tp->kp;
            _FC3D_PUT("main loop: block (mma.sync)%s; blocks of %d x %d output rows (D x H, every W), %lld a sample, "
                      "each reading %d x %d input rows of %d padded W; %d-channel units, %d a block\n",
                      _fc3d_enum_int(&p->desc.main_loop) == FC3D_MAIN_LOOP_BLOCK ? " (forced)" : "", K.bk_bd, K.bk_bh,
                      (long long)K.bk_blocks, K.bk_ed, K.bk_eh, K.bk_wp, 8 * tp->bk_nt8, K.bk_units);
            if (K.bk_f16 && K.bk_half)
                _FC3D_PUT("  operands as f16 (m16n8k16): x and the weight rounded to f16 as they are (half math)\n");
            else if (K.bk_f16)
                _FC3D_PUT("  operands as f16 (m16n8k16): x rounded as TF32 and held as f16 per block (at the block's own "
                          "power of two where its magnitudes need it), the weight at its own\n");
        } else if (p->main_loop == FC3D_MAIN_LOOP_WARP_ROWS) {
            const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
            _FC3D_PUT("main loop: warp rows (mma.sync m16n8k16)%s; a warp an output row of both W phases and %d "
                      "channels, %lld rows a sample; x copied once per run as f16 [n][d][h][w][c] (%zu bytes), %s\n",
                      _fc3d_enum_int(&p->desc.main_loop) == FC3D_MAIN_LOOP_WARP_ROWS ? " (forced)" : "", _FC3D_WR_CO,
                      (long long)tp->kp.out[0] * tp->kp.out[1], tp->wr_xbytes,
                      tp->kp.wr_half ? "x and the weight rounded to f16 as they are (half math)"
                                     : "x and the weight rounded as TF32, each at its own power of two where it needs one");
        } else if (p->main_loop == FC3D_MAIN_LOOP_WGMMA)
            _FC3D_PUT("main loop: wgmma%s\n", _fc3d_enum_int(&p->desc.main_loop) == FC3D_MAIN_LOOP_WGMMA
                                                 ? " (forced: a run without sm_90a code for its device fails)"
                                                 : " where the run's device and binary allow it (sm_90a code on "
                                                   "an sm_90 device), else mma.sync");
        else if (p->main_loop == FC3D_MAIN_LOOP_MMA_SYNC)
            _FC3D_PUT("main loop: mma.sync%s\n",
                      _fc3d_enum_int(&p->desc.main_loop) == FC3D_MAIN_LOOP_MMA_SYNC ? " (forced)"
                      : p->desc.smem_per_block < FC3D_SMEM_PER_BLOCK_MAX
                          ? " (desc.smem_per_block is below sm_90's 227 KB: no sm_90a loop)"
                          : " (wgmma needs in_channels / groups a multiple of 16)");
        if (p->main_loop == FC3D_MAIN_LOOP_WGMMA || p->main_loop == FC3D_MAIN_LOOP_MMA_SYNC) {
            const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
            if (tp->hx_why && tp->hx_why != _FC3D_HX_NO_LOOP) _FC3D_PUT("  haloed loop not taken: %s\n", _fc3d_hx_why_text(tp->hx_why));
            if (tp->wr_why && tp->wr_why != _FC3D_WR_NO_LOOP && tp->wr_why != _FC3D_WR_NO_HALO)
                _FC3D_PUT("  warp-row loop not taken: %s\n", _fc3d_wr_why_text(tp->wr_why));
            if (tp->bk_why && tp->bk_why != _FC3D_BK_NO_LOOP) _FC3D_PUT("  block loop not taken: %s\n", _fc3d_bk_why_text(tp->bk_why));
        }
        if (p->engine == FC3D_ENGINE_IMPLICIT_GEMM && _fc3d_tc_convolves(p)) {
            const char* ln = "";
            const size_t need = _fc3d_tc_sync_need((const _fc3d_tc_plan*)pr->engine_data.bytes, &ln);
            _FC3D_PUT("  shared memory a block: %zu bytes on the %s loop, which a run's device must grant where it "
                      "takes no sm_90a code (planned within desc.smem_per_block = %d)\n",
                      need, ln, p->desc.smem_per_block);
        }
        _FC3D_PUT("strategy %s, statistics %s%s, %d pass%s, workspace %zu bytes\n",
                  _fc3d_strategy_name[p->strategy == FC3D_STRATEGY_RECOMPUTE ? 2 : 1],
                  _fc3d_stats_plan_name[p->stats_plan >= FC3D_STATS_PLAN_PER_OP && p->stats_plan <= FC3D_STATS_PLAN_LINEAR ? p->stats_plan : 0],
                  (_fc3d_enum_int(&p->desc.strategy) || _fc3d_enum_int(&p->desc.stats_plan)) ? " (forced)" : "",
                  p->num_passes, p->num_passes == 1 ? "" : "es", p->workspace_bytes);
        _FC3D_PUT("cost: %.4g GFLOP executed (useful %.4g), %.4g MB moved; floor %.4g ms on an H100, estimated %.4g\n",
                  p->exec_flops * 1e-9, p->flops * 1e-9, p->exec_bytes * 1e-6, p->floor_ms, pr->est_ms);
        for (i = 0; i < pr->num_alts; i++) {
            const int chosen = pr->alt_strategy[i] == (int)p->strategy && pr->alt_stats_plan[i] == (int)p->stats_plan;
            if (pr->alt_ms[i] < 0.0)
                _FC3D_PUT("  alternative %s, statistics %s: refused by every engine%s\n", _fc3d_strategy_name[pr->alt_strategy[i]],
                          _fc3d_stats_plan_name[pr->alt_stats_plan[i]], chosen ? " (forced)" : "");
            else
                _FC3D_PUT("  alternative %s, statistics %s: estimated %.4g ms (floor %.4g) on %s%s\n",
                          _fc3d_strategy_name[pr->alt_strategy[i]], _fc3d_stats_plan_name[pr->alt_stats_plan[i]], pr->alt_ms[i],
                          pr->alt_floor_ms[i], fc3d_engine_name((fc3d_engine)pr->alt_engine[i]), chosen ? "  <- chosen" : "");
        }
        for (i = 0; i < p->num_passes; i++) {
            const fc3d_pass* ps = &p->passes[i];
            int k;
            _FC3D_PUT("  pass %d: %s -> ops [%d,%d) -> %s", i,
                      ps->source == FC3D_SOURCE_CONV ? "conv" : ps->source == FC3D_SOURCE_INPUT_SUMS ? "sums of x" : "read intermediate",
                      ps->op_begin, ps->op_end,
                      ps->store == FC3D_STORE_Y ? "store y" : ps->store ? "store intermediate" : "no store");
            if (ps->stat_op >= 0 && ps->source == FC3D_SOURCE_INPUT_SUMS)
                _FC3D_PUT("; per-(n, c) sums of the convolution from box sums of x and the weight, for op %d (%s) and "
                          "every statistics op after it", ps->stat_op, _fc3d_op_info_of(&p->desc.ops[ps->stat_op])->name);
            else if (ps->stat_op >= 0 && ps->moments)
                _FC3D_PUT("; per-(n, c) moments, %lld groups x %lld slots, for op %d (%s) and every statistics op after it",
                          (long long)pr->stat[_FC3D_MOMENTS].groups, (long long)pr->stat[_FC3D_MOMENTS].slots, ps->stat_op,
                          _fc3d_op_info_of(&p->desc.ops[ps->stat_op])->name);
            else if (ps->stat_op >= 0 && _fc3d_row_pass_of(pr, i + 1))
                _FC3D_PUT("; statistics for op %d (%s), %lld groups: taken by the next pass from the rows it reads",
                          ps->stat_op, _fc3d_op_info_of(&p->desc.ops[ps->stat_op])->name,
                          (long long)pr->stat[ps->stat_op].groups);
            else if (ps->stat_op >= 0)
                _FC3D_PUT("; statistics for op %d (%s), %lld groups x %lld slots", ps->stat_op,
                          _fc3d_op_info_of(&p->desc.ops[ps->stat_op])->name, (long long)pr->stat[ps->stat_op].groups,
                          (long long)pr->stat[ps->stat_op].slots);
            _FC3D_PUT("; %.4g GFLOP, %.4g MB\n", ps->flops * 1e-9, ps->bytes * 1e-6);
            int own = 0;
            for (k = 0; k < pr->num_steps; k++)
                if (pr->steps[k].pass == i) {
                    const fc3d_step_* st = &pr->steps[k];
                    own += st->kind != _FC3D_STEP_TC_PREP;
                    _FC3D_PUT("    step %d: %s, grid %u x %u", k, _fc3d_step_name[st->kind], st->grid, st->block);
                    const fc3d_step_* gs = st->kind == _FC3D_STEP_FINALIZE ? _fc3d_tc_gathering_step(pr, st) : NULL;
                    if (gs) {
                        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
                        const int64_t all = _fc3d_tc_slots(tp, (int)gs->arg[3]);
                        const int64_t written = _fc3d_tc_slots_written(tp, (int)gs->arg[3], 1);
                        if (written < all)
                            _FC3D_PUT(" (where the run takes the haloed tiles: their %lld slots of a cell's %lld)",
                                      (long long)written, (long long)all);
                    }
                    if (st->kind == _FC3D_STEP_TC_PREP && ((const _fc3d_tc_plan*)pr->engine_data.bytes)->wr_ok)
                        _FC3D_PUT(" (the warp-row loop's f16 weight on block 0 of x's f16 copy, after x's magnitude word "
                                  "zeroed; the copy made again at x's scale in a second launch where x needs one)");
                    if (st->kind == _FC3D_STEP_TC_PREP && ((const _fc3d_tc_plan*)pr->engine_data.bytes)->hx_ok) {
                        const _fc3d_tc_plan* htp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
                        _FC3D_PUT(" (the haloed loop's decoded tiles, weight pieces and operand copy of x, one launch%s)",
                                  htp->kp.hx_t32 ? "; the weight's magnitude found in one before, x's as the copy goes, "
                                                   "the copy made again at x's scale in one after where x needs one"
                                  : _fc3d_hx_scaled(_fc3d_hx_math(htp), htp->kp) ? "; x's and the weight's magnitudes found in one before"
                                                                                : "");
                    }
                    if (st->kind == _FC3D_STEP_TC_CONV)
                        _FC3D_PUT(" (ops [%d,%d)%s%s)", (int)st->arg[1], (int)st->arg[2],
                                  st->arg[3] ? ", whole-row tiles: row statistics in the epilogue" : "",
                                  !st->arg[5]                   ? ""
                                  : _fc3d_hx_zc_geom(((const _fc3d_tc_plan*)pr->engine_data.bytes)->kp)
                                      ? ", tap-less phases stored by the haloed tiles, their own tiles skipped (the mma.sync loop: a zero fill first)"
                                      : ", tap-less phases zero-filled, their tiles skipped");
                    if (st->kind == _FC3D_STEP_MOMENTS_TAIL && st->arg[0]) {
                        _FC3D_PUT(" (a block %lld channel%s of every sample: their partials summed, %d threads a "
                                  "cell, then every statistics op's moments step)", (long long)st->arg[2],
                                  st->arg[2] == 1 ? "" : "s", (int)st->arg[1]);
                    } else if (st->kind == _FC3D_STEP_MOMENTS_TAIL) {
                        _FC3D_PUT(" (a block %lld channel%s of every sample: every statistics op's moments step "
                                  "from the cells' sums)", (long long)st->arg[2], st->arg[2] == 1 ? "" : "s");
                    }
                    if (st->kind == _FC3D_STEP_DIRECT_PASS && st->arg[7])
                        _FC3D_PUT(" (streamed: ops fixed per (n, c), 16-byte loads)");
                    if (st->kind == _FC3D_STEP_DIRECT_PASS && (st->variant & _FC3D_DIRECT_ROWS))
                        _FC3D_PUT(" (op %d's row statistics from the rows it reads, %d at once a warp)", (int)st->arg[4],
                                  8 / ((st->variant - _FC3D_DIRECT_ROWS) & 15));
                    if (st->flops > 0.0) _FC3D_PUT("; %.4g GFLOP", st->flops * 1e-9);
                    _FC3D_PUT("; %.4g MB\n", st->bytes * 1e-6);
                }
            if (!own)
                _FC3D_PUT("    no step of its own: a step above or below covers it (row statistics from whole-row "
                          "tiles)\n");
        }
    }
#undef _FC3D_PUT
    return len;
}

/* >>run-checks -----------------------------------------------------------------------------------
   What fc3d_plan_run checks before anything is launched. They read the plan's private copy of the
   desc, so fields a caller changed after fc3d_plan_init cannot steer a launch. */

/* The plan is one fc3d_plan_init made and nobody changed since. */
static fc3d_result _fc3d_check_plan(const fc3d_plan* p, char* msg) {
    const fc3d_plan_private_* pr = &p->_private;
    const fc3d_plan_desc* d = &pr->desc;
    int i;
    if (_fc3d_enum_int(&p->result) != FC3D_SUCCESS || p->num_passes <= 0)
        return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "plan.result = %d, plan.num_passes = %d",
                          _fc3d_enum_int(&p->result), p->num_passes);
    if (memcmp(&p->desc, d, sizeof *d) != 0 || p->num_passes != pr->num_passes ||
        memcmp(p->passes, pr->passes, sizeof pr->passes) != 0)
        return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "fc3d_plan.desc or .passes changed after fc3d_plan_init");
    if (_fc3d_validate_enums(d, NULL) != FC3D_SUCCESS || pr->num_passes > FC3D_MAX_PASSES || pr->num_steps <= 0 ||
        pr->num_steps > FC3D_MAX_STEPS_ || pr->num_regions < 0 || pr->num_regions > FC3D_MAX_WS_REGIONS_)
        return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "plan._private is not one fc3d_plan_init wrote");
    for (i = 0; i < d->num_ops; i++)
        if (!_fc3d_op_info_of(&d->ops[i]))
            return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "plan._private.desc.ops[%d].kind = %d", i,
                              _fc3d_enum_int(&d->ops[i].kind));
    for (i = 0; i < pr->num_steps; i++) {
        const fc3d_step_* s = &pr->steps[i];
        if (s->kind <= 0 || s->kind >= _FC3D_STEP_KIND_COUNT_)
            return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "plan._private.steps[%d].kind = %d", i, s->kind);
        if (s->kind == _FC3D_STEP_MOMENTS_TAIL) { /* what _fc3d_mtail_kernel's blocks can take */
            const int64_t tpc = s->arg[1], w = s->arg[2];
            if (w < 1 || w != _fc3d_mtail_w(p, s->pass) || s->grid != (unsigned)(pr->geom.cout / w) || tpc < 1 ||
                tpc > 32 || (tpc & (tpc - 1)) || s->block != _FC3D_MT_THREADS)
                return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID,
                                  "plan._private.steps[%d] (moments tail): %lld channels a block, grid %u x %u, %lld "
                                  "threads a cell", i, (long long)w, s->grid, s->block, (long long)tpc);
        }
    }
    return FC3D_SUCCESS;
}

static const char* const _fc3d_op_tensor_name[6] = {"weight", "bias", "running_mean", "running_var", "save_mean",
                                                    "save_invstd"};

static void _fc3d_op_tensor_ptrs(const fc3d_op_tensors* o, const void* ptr[6]) {
    ptr[0] = o->weight; ptr[1] = o->bias; ptr[2] = o->running_mean;
    ptr[3] = o->running_var; ptr[4] = o->save_mean; ptr[5] = o->save_invstd;
}

/* No tensor the run writes may overlap any other tensor it binds: a kernel reading x, a weight or
   a statistic another kernel (or block) is writing would give order-dependent results. Every range
   is compared as uintptr_t, and one that wraps the address space is refused. The workspace counts
   as the bytes the run uses, from the aligned base. */
static fc3d_result _fc3d_check_aliasing(const fc3d_plan* p, const fc3d_run_args* a, char* msg) {
    enum { MAX_REGIONS = 5 + 6 * FC3D_MAX_OPS };
    const fc3d_plan_private_* pr = &p->_private;
    const fc3d_plan_desc* d = &pr->desc;
    const fc3d_geom_* g = &pr->geom;
    uintptr_t lo[MAX_REGIONS];
    size_t bytes[MAX_REGIONS];
    char name[MAX_REGIONS][32];
    int written[MAX_REGIONS], n = 0, i, j, t;
    int64_t cd[5], y_elements = 1;
    const size_t es = fc3d_dtype_size(d->dtype);
#define _FC3D_REGION(p_, b_, w_, ...)                                                              \
    do {                                                                                            \
        lo[n] = (uintptr_t)(p_);                                                                    \
        bytes[n] = (p_) ? (b_) : 0;                                                                 \
        written[n] = (w_);                                                                          \
        snprintf(name[n], sizeof name[n], __VA_ARGS__);                                             \
        n++;                                                                                        \
    } while (0)
    _fc3d_conv_dims(g, cd);
    for (i = 0; i < 5; i++) y_elements *= _fc3d_y_keeps(pr, i) ? cd[i] : 1;
    _FC3D_REGION(a->x, (size_t)(g->n * g->cin * g->di * g->hi * g->wi) * es, 0, "x");
    _FC3D_REGION(a->weight, (size_t)(g->cin * (g->cout / g->groups) * g->k[0] * g->k[1] * g->k[2]) * es, 0, "weight");
    _FC3D_REGION(a->bias, (size_t)g->cout * es, 0, "bias");
    _FC3D_REGION(a->y, (size_t)y_elements * es, 1, "y");
    _FC3D_REGION(a->workspace ? (const void*)(((uintptr_t)a->workspace + (_FC3D_ALIGN - 1)) & ~(uintptr_t)(_FC3D_ALIGN - 1))
                              : NULL,
                 pr->ws_used, 1, "workspace");
    for (i = 0; i < d->num_ops; i++) {
        const void* op_ptr[6];
        const fc3d_op_tensor_sizes s = _fc3d_op_tensor_sizes_of(&d->ops[i], cd);
        const int64_t cnt[6] = {s.weight, s.bias, s.running_mean, s.running_var, s.save_mean, s.save_invstd};
        _fc3d_op_tensor_ptrs(&a->ops[i], op_ptr);
        for (t = 0; t < 6; t++)
            _FC3D_REGION(op_ptr[t], (size_t)cnt[t] * sizeof(float),
                         t >= 4 || (t >= 2 && (d->ops[i].flags & FC3D_OP_UPDATE_RUNNING_STATS)), "ops[%d].%s", i,
                         _fc3d_op_tensor_name[t]);
    }
#undef _FC3D_REGION
    if (a->workspace && ((uintptr_t)a->workspace + a->workspace_bytes < (uintptr_t)a->workspace ||
                         lo[4] < (uintptr_t)a->workspace))
        return _fc3d_fail(msg, FC3D_ERROR_ARG_RANGE, "workspace (%p, %zu bytes) wraps the address space", a->workspace,
                          a->workspace_bytes);
    for (i = 0; i < n; i++)
        if (bytes[i] && lo[i] + bytes[i] - 1 < lo[i])
            return _fc3d_fail(msg, FC3D_ERROR_ARG_RANGE, "%s (%p, %zu bytes) wraps the address space", name[i],
                              (void*)lo[i], bytes[i]);
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if ((written[i] || written[j]) && bytes[i] && bytes[j] && lo[i] <= lo[j] + (bytes[j] - 1) &&
                lo[j] <= lo[i] + (bytes[i] - 1))
                return _fc3d_fail(msg, FC3D_ERROR_ARG_ALIAS, "%s (%p, %zu bytes) overlaps %s (%p, %zu bytes)", name[i],
                                  (void*)lo[i], bytes[i], name[j], (void*)lo[j], bytes[j]);
    return FC3D_SUCCESS;
}

/* Checks everything fc3d_plan_run binds, before anything is launched. */
static fc3d_result _fc3d_check_args(const fc3d_plan* p, const fc3d_run_args* a, char* msg) {
    const fc3d_plan_private_* pr = &p->_private;
    const fc3d_plan_desc* d = &pr->desc;
    const size_t es = fc3d_dtype_size(d->dtype);
    const size_t ws_needed = pr->ws_used ? pr->ws_used + (_FC3D_ALIGN - 1) : 0;
    int64_t cd[5];
    int i, t;
    _fc3d_conv_dims(&pr->geom, cd);
    if (!a->x || (uintptr_t)a->x % es) return _fc3d_fail(msg, FC3D_ERROR_ARG_X, "x = %p", a->x);
    if (!a->weight || (uintptr_t)a->weight % es)
        return _fc3d_fail(msg, FC3D_ERROR_ARG_WEIGHT, "weight = %p", a->weight);
    if ((d->conv.bias && (!a->bias || (uintptr_t)a->bias % es)) || (!d->conv.bias && a->bias))
        return _fc3d_fail(msg, FC3D_ERROR_ARG_BIAS, "bias = %p, conv bias %s", a->bias, d->conv.bias ? "on" : "off");
    if (!a->y || (uintptr_t)a->y % es) return _fc3d_fail(msg, FC3D_ERROR_ARG_Y, "y = %p", a->y);
    if (ws_needed && !a->workspace)
        return _fc3d_fail(msg, FC3D_ERROR_ARG_WORKSPACE, "workspace = NULL, %zu bytes needed", ws_needed);
    if (a->workspace_bytes < ws_needed)
        return _fc3d_fail(msg, FC3D_ERROR_ARG_WORKSPACE_SIZE, "workspace_bytes = %zu, %zu needed", a->workspace_bytes,
                          ws_needed);
    for (i = 0; i < FC3D_MAX_OPS; i++) {
        const void* ptr[6];
        const fc3d_op_tensor_sizes n = i < d->num_ops ? _fc3d_op_tensor_sizes_of(&d->ops[i], cd)
                                                      : fc3d_op_tensor_sizes{0, 0, 0, 0, 0, 0};
        const int64_t need[6] = {n.weight, n.bias, n.running_mean, n.running_var, n.save_mean, n.save_invstd};
        _fc3d_op_tensor_ptrs(&a->ops[i], ptr);
        for (t = 0; t < 6; t++) {
            const int wanted = need[t] != 0;
            if (i >= d->num_ops && ptr[t])
                return _fc3d_fail(msg, FC3D_ERROR_ARG_OP_TENSOR, "ops[%d].%s = %p, but num_ops = %d", i,
                                  _fc3d_op_tensor_name[t], ptr[t], d->num_ops);
            if (wanted != (ptr[t] != NULL))
                return _fc3d_fail(msg, FC3D_ERROR_ARG_OP_TENSOR, "ops[%d].%s = %p, but %s %s it", i,
                                  _fc3d_op_tensor_name[t], ptr[t], _fc3d_op_info_of(&d->ops[i])->name,
                                  wanted ? "with these flags needs" : "does not use");
            if ((uintptr_t)ptr[t] % sizeof(float))
                return _fc3d_fail(msg, FC3D_ERROR_ARG_OP_TENSOR_ALIGNMENT, "ops[%d].%s = %p", i,
                                  _fc3d_op_tensor_name[t], ptr[t]);
        }
    }
    return _fc3d_check_aliasing(p, a, msg);
}

/* >>executor -------------------------------------------------------------------------------------
   Walks the plan's steps in order on the run's stream; each step kind's launcher binds the run's
   pointers into the step's plan-time arguments. */
typedef struct _fc3d_bound {
    const fc3d_plan* plan;
    const fc3d_run_args* args;
    char* base;          /* the aligned workspace */
    _fc3d_dev_chain chain;
    cudaStream_t stream;
} _fc3d_bound;

/* After each launch. Peek, not Get: a launch error is the caller's to see and clear too (a sticky
   error could not be cleared anyway). fc3d_plan_run refuses to start over a pending error, so what
   this finds is the launch's own. */
static fc3d_result _fc3d_launched(char* msg, const char* what, cudaError_t e = cudaSuccess) {
    if (e == cudaSuccess) e = cudaPeekAtLastError(); /* (e: what _fc3d_launch_pdl returned) */
    if (e == cudaSuccess) return FC3D_SUCCESS;
    return _fc3d_fail(msg, FC3D_ERROR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}

/* The chain's scalars and table columns from the plan, no pointers (the planner asks the launch's
   questions of it: _fc3d_hx_ws_step_kind). */
static void _fc3d_chain_of(const fc3d_plan_private_* pr, _fc3d_dev_chain* ch) {
    int i;
    memset(ch, 0, sizeof *ch);
    ch->num_ops = pr->desc.num_ops;
    for (i = 0; i < pr->desc.num_ops; i++) {
        const fc3d_op* op = &pr->desc.ops[i];
        const _fc3d_op_info* info = _fc3d_op_info_of(op);
        _fc3d_dev_op* o = &ch->ops[i];
        o->kind = op->kind;
        o->stats = info->stats;
        o->affine = info->affine;
        o->keep = pr->stat[i].keep;
        o->cpg = pr->stat[i].cpg ? pr->stat[i].cpg : 1;
        o->flags = op->flags;
        o->value = op->value;
        o->eps = op->eps;
    }
}

/* The chain as the kernels see it: scalars and table columns from the plan, the run's pointers. */
static void _fc3d_bind_chain(const fc3d_plan_private_* pr, const fc3d_run_args* a, char* base, _fc3d_dev_chain* ch) {
    int i;
    _fc3d_chain_of(pr, ch);
    for (i = 0; i < pr->desc.num_ops; i++) {
        _fc3d_dev_op* o = &ch->ops[i];
        o->weight = a->ops[i].weight;
        o->bias = a->ops[i].bias;
        o->running_mean = a->ops[i].running_mean;
        o->running_var = a->ops[i].running_var;
        o->stats_of = (const double2*)_fc3d_ws_at(pr, base, _FC3D_WS_STATS + i);
    }
}

/* The finalize parameters of op i (its groups, statistics, running and saved tensors, y). */
static _fc3d_finalize_params _fc3d_finalize_of(const _fc3d_bound* b, int i) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    const fc3d_op* op = &pr->desc.ops[i];
    const fc3d_op_tensors* t = &b->args->ops[i];
    _fc3d_finalize_params F;
    memset(&F, 0, sizeof F);
    F.stats = _fc3d_op_info_of(op)->stats;
    F.flags = op->flags;
    F.eps = op->eps;
    F.momentum = op->momentum;
    F.sg = pr->stat[i];
    F.partials = (const double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_PARTIALS);
    F.stats_of = (double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_STATS + i);
    F.running_mean = t->running_mean;
    F.running_var = t->running_var;
    F.save_mean = t->save_mean;
    F.save_invstd = t->save_invstd;
    F.y = b->args->y;
    return F;
}

template <typename T>
static fc3d_result _fc3d_launch_moments(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    _fc3d_moments_params M;
    memset(&M, 0, sizeof M);
    M.F = _fc3d_finalize_of(b, s->stat_op);
    M.chain = b->chain;
    M.fold_begin = (int)s->arg[0];
    M.op = s->stat_op;
    M.init = (int)s->arg[1];
    M.n = pr->geom.n;
    M.c = pr->geom.cout;
    M.per_cell = (double)pr->geom.d * (double)pr->geom.h * (double)pr->geom.w;
    M.sums = (const double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_MOMENTS);
    M.ab = (double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_MOMENTS) + pr->geom.n * pr->geom.cout;
    return _fc3d_launched(msg, "statistics-from-moments kernel",
                          _fc3d_launch_pdl(_fc3d_moments_kernel<T>, s->grid, s->block, 0, b->stream, M));
}

static _fc3d_finalize_params _fc3d_finalize_raw_of(const _fc3d_bound* b, const fc3d_step_* s);
/* The moments tail (_fc3d_mtail_kernel): the pass's statistics ops in order, each with the ops since
   the one before folded first, as _fc3d_add_moment_steps lays out its steps. A step the kernel
   cannot take (its channels a block not the plan's, a lane count that is not a power of two up to
   32) was refused by the run checks (_fc3d_check_plan) before anything launched. */
template <typename T>
static fc3d_result _fc3d_launch_mtail(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    const fc3d_plan* p = b->plan;
    const fc3d_plan_private_* pr = &p->_private;
    const int tpc = (int)s->arg[1];
    _fc3d_mtail_params M;
    int j, k = 0, fold = p->passes[s->pass].op_end;
    memset(&M, 0, sizeof M);
    for (j = p->passes[s->pass].stat_op; j >= 0 && j < p->desc.num_ops && k < _FC3D_MT_OPS; j++) {
        if (_fc3d_op_info_of(&p->desc.ops[j])->stats == _FC3D_ST_NONE) continue;
        M.op[k] = j;
        M.fold_begin[k] = fold;
        M.F[k] = _fc3d_finalize_of(b, j);
        k++;
        fold = j + 1;
    }
    M.num_ops = k;
    M.tpc = tpc;
    M.w = (int)s->arg[2];
    M.chain = b->chain;
    M.n = (int)pr->geom.n;
    M.c = (int)pr->geom.cout;
    M.per_cell = (double)pr->geom.d * (double)pr->geom.h * (double)pr->geom.w;
    if (s->arg[0]) M.raw = _fc3d_finalize_raw_of(b, s); /* (its sums stay in shared memory) */
    else M.sums = (const double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_MOMENTS);
    return _fc3d_launched(msg, "moments tail kernel",
                          _fc3d_launch_pdl(_fc3d_mtail_kernel<T>, s->grid, s->block,
                                           (size_t)M.n * (size_t)M.w * 2 * sizeof(double2), b->stream, M));
}

template <typename T>
static fc3d_result _fc3d_launch_xsums(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    _fc3d_xsum_params P;
    int64_t r_at, p_at;
    double* scratch = (double*)_fc3d_ws_at(pr, b->base, _FC3D_WS_XSUMS);
    memset(&P, 0, sizeof P);
    _fc3d_xsums_doubles(&pr->geom, &r_at, &p_at);
    P.g = pr->geom;
    P.x = b->args->x;
    P.w = b->args->weight;
    P.bias = b->args->bias;
    P.box = scratch;
    P.rows = scratch + r_at;
    P.planes = scratch + p_at;
    P.sums = (double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_MOMENTS);
    P.math = _fc3d_enum_int(&pr->desc.math);
    if (s->kind == _FC3D_STEP_XSUMS) _fc3d_xsums_kernel<T><<<s->grid, s->block, 0, b->stream>>>(P);
    else _fc3d_xcontract_kernel<T><<<s->grid, s->block, 0, b->stream>>>(P);
    return _fc3d_launched(msg, s->kind == _FC3D_STEP_XSUMS ? "box-sums kernel" : "conv-sums kernel");
}

static int _fc3d_tc_halo_runs(const _fc3d_tc_plan* tp);
/* The slots of each cell the finalize of step s reads (F->parts, F->used): those the convolving
   step of its pass writes at this run (_fc3d_tc_slots_written), every slot for any other producer. */
static void _fc3d_finalize_used(const fc3d_plan_private_* pr, const fc3d_step_* s, _fc3d_finalize_params* F) {
    const fc3d_step_* c = _fc3d_tc_gathering_step(pr, s);
    F->parts = F->used = 0;
    if (c) {
        const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
        F->parts = _fc3d_tc_slots(tp, (int)c->arg[3]);
        F->used = _fc3d_tc_slots_written(tp, (int)c->arg[3], _fc3d_tc_halo_runs(tp));
    }
}

/* The finalize parameters of step s's per-(n, c) moments, kept raw (sums) in the moments region. */
static _fc3d_finalize_params _fc3d_finalize_raw_of(const _fc3d_bound* b, const fc3d_step_* s) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    _fc3d_finalize_params F;
    memset(&F, 0, sizeof F);
    F.stats = _FC3D_ST_RAW;
    F.sg = pr->stat[_FC3D_MOMENTS];
    F.partials = (const double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_PARTIALS);
    F.stats_of = (double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_MOMENTS);
    _fc3d_finalize_used(pr, s, &F);
    return F;
}

template <typename T>
static fc3d_result _fc3d_launch_finalize(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    _fc3d_finalize_params F;
    if (s->stat_op == _FC3D_MOMENTS) { /* the moments, kept raw for the moments steps */
        F = _fc3d_finalize_raw_of(b, s);
    } else {
        F = _fc3d_finalize_of(b, s->stat_op);
        _fc3d_finalize_used(&b->plan->_private, s, &F);
    }
    return _fc3d_launched(msg, "finalize kernel", _fc3d_launch_pdl(_fc3d_finalize_kernel<T>, s->grid, s->block, 0, b->stream, F));
}

template <typename T>
static fc3d_result _fc3d_launch_direct_pass(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    const fc3d_run_args* a = b->args;
    _fc3d_direct_params P;
    memset(&P, 0, sizeof P);
    P.g = pr->geom;
    P.x = a->x; P.wt = a->weight; P.bias = a->bias; P.y = a->y;
    P.unit_rows = s->arg[0];
    P.units_per_plane = s->arg[1];
    P.units = s->arg[2];
    P.store = (int)s->arg[3];
    P.op_begin = (int)s->arg[4];
    P.op_end = (int)s->arg[5];
    P.gather = s->stat_op >= 0;
    P.warp_units = (int)s->arg[6];
    if (P.gather) P.sg = pr->stat[s->stat_op];
    P.partials = (double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_PARTIALS);
    P.inter = (float*)_fc3d_ws_at(pr, b->base, _FC3D_WS_INTERMEDIATE);
    if (!P.inter) P.inter = (float*)a->y; /* f32 y is its own intermediate */
    P.chain = b->chain;
    cudaError_t le = cudaSuccess; /* (the read-back passes: programmatic dependent launches) */
    if (s->arg[7]) {
        return _fc3d_launched(msg, "streamed read-back kernel",
                              _fc3d_launch_pdl(_fc3d_stream_pass_kernel<T>, s->grid, s->block, 0, b->stream, P));
    }
    if (s->variant & _FC3D_DIRECT_ROWS) {
        const int vg = _fc3d_row_vec_g(pr, s);
        const void* dst = P.store == FC3D_STORE_INTERMEDIATE ? (const void*)P.inter : P.y;
        if (vg && ((uintptr_t)P.inter | (uintptr_t)dst) % 16 == 0) { /* 16-byte rows */
            const unsigned grid = _fc3d_grid_warps((P.units + 32 / vg * _FC3D_ROW_VEC_U - 1) / (32 / vg * _FC3D_ROW_VEC_U));
#define _FC3D_ROWV(g) \
    case g: le = _fc3d_launch_pdl(_fc3d_row_pass_vec_kernel<g>, grid, s->block, 0, b->stream, P); break;
            switch (vg) {
                _FC3D_ROWV(1) _FC3D_ROWV(2) _FC3D_ROWV(4) _FC3D_ROWV(8) _FC3D_ROWV(16) _FC3D_ROWV(32)
            default: return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "row pass lanes %d", vg);
            }
#undef _FC3D_ROWV
            return _fc3d_launched(msg, "row read-back kernel (16-byte rows)", le);
        }
#define _FC3D_ROWK(e, st)                                                                      \
    case e + (st ? _FC3D_DIRECT_ROWS_STRAIGHT : 0):                                             \
        le = _fc3d_launch_pdl(_fc3d_row_pass_kernel<T, e, st>, s->grid, s->block, 0, b->stream, P); \
        break;
        switch (s->variant - _FC3D_DIRECT_ROWS) {
            _FC3D_ROWK(1, true) _FC3D_ROWK(2, true) _FC3D_ROWK(4, true) _FC3D_ROWK(8, true)
            _FC3D_ROWK(1, false) _FC3D_ROWK(2, false) _FC3D_ROWK(4, false) _FC3D_ROWK(8, false)
        default: return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "row pass variant %d", s->variant);
        }
#undef _FC3D_ROWK
        return _fc3d_launched(msg, "row read-back kernel", le);
    }
#define _FC3D_DIRECT(source, math) \
    case source * 4 + math: _fc3d_direct_pass_kernel<T, source, math><<<s->grid, s->block, 0, b->stream>>>(P); break;
    switch (s->variant) {
        _FC3D_DIRECT(FC3D_SOURCE_CONV, FC3D_MATH_FP32)
        _FC3D_DIRECT(FC3D_SOURCE_CONV, FC3D_MATH_TF32)
        _FC3D_DIRECT(FC3D_SOURCE_CONV, FC3D_MATH_HALF)
        _FC3D_DIRECT(FC3D_SOURCE_INTERMEDIATE, FC3D_MATH_FP32)
    default: return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "direct pass variant %d", s->variant);
    }
#undef _FC3D_DIRECT
    return _fc3d_launched(msg, "direct pass kernel");
}

/* Whether the run takes the sm_90a loop: the plan allows it and the image loaded for the current
   device is the sm_90a build (_fc3d_wg_probe_kernel). Asked per launch; a host-side query. */
static int _fc3d_tc_wgmma_runs(const _fc3d_tc_plan* tp) {
#if defined(FC3D_NO_WGMMA)
    (void)tp;
    return 0;
#else
    cudaFuncAttributes fa;
    if (!tp->wg_ok) return 0; /* (0 too where desc.main_loop forced mma.sync) */
    if (cudaFuncGetAttributes(&fa, _fc3d_wg_probe_kernel) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return fa.sharedSizeBytes > 0;
#endif
}

/* The haloed loop's launches: float32 tensors only (the plan sees to it). */
template <typename T>
struct _fc3d_hx_run {
    static cudaError_t prep(const _fc3d_tc_plan*, const T*, const T*, void*, void*, void*, cudaStream_t) {
        return cudaErrorInvalidValue;
    }
    static cudaError_t conv(const _fc3d_tc_plan*, const _fc3d_tc_kparams&, int, const void*, const void*, const void*,
                            const T*, T*, const _fc3d_tc_epi&, cudaStream_t) {
        return cudaErrorInvalidValue;
    }
};
template <>
struct _fc3d_hx_run<float> {
    /* the weight pieces (per run, like the tiled loops' re-layout) and the operand copy of x */
    template <int MATH, int BN, int KC>
    static cudaError_t prep_as(const _fc3d_tc_kparams& P, const float* x, const float* w, void* xp, void* wp,
                               void* tab, int64_t nt, cudaStream_t st) {
        const int64_t wn = (int64_t)P.groups * P.ntn * P.k[0] * P.k[1] * P.k[2] * P.cin_g * BN;
        const int64_t xn = P.n * (P.cin / _fc3d_hx_cfg<MATH, BN, KC>::KG) * P.hx_ps;
        unsigned* x3m = nullptr;
        cudaError_t e;
        const bool t32 = MATH == _FC3D_TC_HALF && P.hx_t32;
        if (t32) {
            /* TF32 on the f16 path: the weight's magnitude, x's word zeroed (_fc3d_hx_x_as_is) */
            x3m = _fc3d_hx_x3_scales(P, wp);
            const int64_t nw = (int64_t)P.groups * P.cin_g * P.cout_g * P.k[0] * P.k[1] * P.k[2];
            _fc3d_hx_wmax<<<_FC3D_HX_WMAX_BLOCKS, 256, 0, st>>>(w, nw, x3m);
            if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
        } else if (_fc3d_hx_scaled(MATH, P)) {
            /* 3xTF32: the two magnitudes its parts are scaled by (_fc3d_hx_x3_scales) */
            x3m = _fc3d_hx_x3_scales(P, wp);
            const int64_t nx = P.n * P.cin * P.idhw, nw = (int64_t)P.groups * P.cin_g * P.cout_g * P.k[0] * P.k[1] * P.k[2];
            if ((e = cudaMemsetAsync(x3m, 0, 2 * sizeof(unsigned), st)) != cudaSuccess) return e;
            const int64_t nb = (nx / 16 + 255) / 256; /* (four 16-byte groups a thread and sweep) */
            _fc3d_hx_absmax<<<(unsigned)(nb < 1 ? 1 : nb < 1024 ? nb : 1024), 256, 0, st>>>(x, nx, w, nw, x3m);
            if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
        }
        /* the table, the weight pieces and the copy of x in one launch (_fc3d_hx_prep) */
        const unsigned nbt = tab && nt > 0 ? (unsigned)((nt + 255) / 256) : 0u;
        const unsigned nbw = (unsigned)((wn + 255) / 256 < 4096 ? (wn + 255) / 256 : 4096);
        const unsigned nbx = (unsigned)((xn + 255) / 256 < 8192 ? (xn + 255) / 256 : 8192);
        const _fc3d_hx_pdiv q = _fc3d_hx_pdiv_of(P, _fc3d_hx_cfg<MATH, BN, KC>::KG, BN, KC);
        /* (prep, xfix and the convolution after them: programmatic dependent launches, each
           scheduled while the one before it drains; _fc3d_pdl_enter) */
        e = _fc3d_launch_pdl(_fc3d_hx_prep<float, MATH, BN, KC>, nbt + nbw + nbx, 256, 0, st, P, x, w, xp, wp,
                             (_fc3d_hx_tile*)tab, x3m, q, nbt, nbw);
        if (e != cudaSuccess || !t32) return e;
        /* the copy again at x's scale where x's magnitude needs one: blocks that read one word and
           return, in the common case (at most 256: a wave of 1024 took 3.2-3.5 us under ncu) */
        return _fc3d_launch_pdl(_fc3d_hx_xfix<float>, nbx < 256 ? nbx : 256u, 256, 0, st, P, x, xp, (const unsigned*)x3m, q);
    }
    /* the CTAs of kern the device holds at once (kp.hx_ahead: the producer's prefetch), where
       _FC3D_HX_PREFETCH. Asked at every launch (the plan is made without a device): the three
       queries take 0.2 us of host time, a launch 3.2 (H100, bench/RESULTS.md fifteenth entry). */
    template <typename K>
    static cudaError_t ahead(K kern, int threads, size_t smem, _fc3d_tc_kparams* Q) {
        Q->hx_ahead = 0;
        Q->hx_pfu = _FC3D_HX_PREFETCH;
        if (!_FC3D_HX_PREFETCH) return cudaSuccess;
        int dev = 0, sms = 0, per = 0;
        cudaError_t err = cudaGetDevice(&dev);
        if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, threads, smem);
        Q->hx_ahead = (int64_t)sms * per;
        return err;
    }
    /* Whether conv_as<MATH, BN, KC> has a launch with _FC3D_HX_ZC_NB weight slots: 64-channel
       tiles in TF32 or half (FP32's take one CTA an SM whatever their slots, by registers). */
    static constexpr bool zc_nb(int math, int bn) {
        return bn == 64 && math != _FC3D_TC_3XTF32 && _FC3D_HX_ZC_NB > 0 && _FC3D_HX_ZC_NB < _FC3D_HX_NB;
    }
    /* The weight slots a launch of conv_as<MATH, BN, KC> takes: _FC3D_HX_ZC_NB for a zero-completing
       step, or a plan's short-K 64-channel tiles (kp.hx_short), where zc_nb allows and the device
       then holds more of its CTAs an SM, else _FC3D_HX_NB (*nb). The tests ask here too. */
    template <int MATH, int BN, int KC>
    static cudaError_t slots(const _fc3d_tc_kparams& P, int* nb) {
        *nb = _FC3D_HX_NB;
        if (!P.hx_zc && !P.hx_short) return cudaSuccess;
        if constexpr (zc_nb(MATH, BN)) {
            typedef _fc3d_hx_cfg<MATH, BN, KC> C;
            auto k4 = _fc3d_hx_main<float, MATH, BN, KC, false, _fc3d_tc_epi>;
            auto k3 = _fc3d_hx_main<float, MATH, BN, KC, false, _fc3d_tc_epi, _FC3D_HX_ZC_NB>;
            const size_t s4 = _fc3d_hx_smem(P, MATH, KC, BN, 0), s3 = _fc3d_hx_smem(P, MATH, KC, BN, 0, _FC3D_HX_ZC_NB);
            int o4 = 0, o3 = 0;
            cudaError_t err = _fc3d_smem_attr((const void*)k4, s4);
            if (err == cudaSuccess) err = _fc3d_smem_attr((const void*)k3, s3);
            if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o4, k4, C::NT, s4);
            if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o3, k3, C::NT, s3);
            if (err == cudaSuccess && o3 > o4) *nb = _FC3D_HX_ZC_NB;
            return err;
        }
        return cudaSuccess;
    }
    template <int MATH, int BN, int KC>
    static cudaError_t conv_as(const _fc3d_tc_kparams& P, const void* xp, const void* wp, const float* bias, float* y,
                               const _fc3d_tc_epi& e, cudaStream_t st) {
        int nb = _FC3D_HX_NB;
        cudaError_t err = slots<MATH, BN, KC>(P, &nb);
        if (err != cudaSuccess) return err;
        if constexpr (zc_nb(MATH, BN))
            if (nb == _FC3D_HX_ZC_NB)
                return conv_nb<MATH, BN, KC, _FC3D_HX_ZC_NB>(P, xp, wp, bias, y, e, st);
        return conv_nb<MATH, BN, KC, _FC3D_HX_NB>(P, xp, wp, bias, y, e, st);
    }
    template <int MATH, int BN, int KC, int NB>
    static cudaError_t conv_nb(const _fc3d_tc_kparams& P, const void* xp, const void* wp, const float* bias, float* y,
                               const _fc3d_tc_epi& e, cudaStream_t st) {
        typedef _fc3d_hx_cfg<MATH, BN, KC> C;
        auto kern = _fc3d_hx_main<float, MATH, BN, KC, false, _fc3d_tc_epi, NB>;
        const size_t smem = _fc3d_hx_smem(P, MATH, KC, BN, 0, NB);
        cudaError_t err = _fc3d_smem_attr((const void*)kern, smem);
        if (err != cudaSuccess) return err;
        /* a zero-filling step: the tapped phases' tiles only */
        const dim3 grid((unsigned)(P.skip0 ? P.hx_zcls_start[8] : P.hx_tiles), (unsigned)(P.groups * P.ntn),
                        (unsigned)P.n);
        if (grid.x == 0) return cudaSuccess; /* every phase tap-less: the fill wrote y */
        _fc3d_tc_kparams Q = P;
        if ((err = ahead(kern, C::NT, smem, &Q)) != cudaSuccess) return err;
        return _fc3d_launch_ex(_FC3D_HX_PDL_CONV, kern, grid, C::NT, smem, st, Q, xp, wp, bias, y, e);
    }
    /* row tiles: both W phases of 64 channels (BN 128: a warpgroup each), the whole-row epilogue */
    template <int MATH, int KC>
    static cudaError_t conv_rows_as(const _fc3d_tc_kparams& P, const void* xp, const void* wp, const float* bias,
                                    float* y, const _fc3d_tc_epi& e, cudaStream_t st) {
        typedef _fc3d_hx_cfg<MATH, 128, KC> C;
        cudaError_t err;
        const int wnb = _fc3d_hx_ws_nb(P, C::SB, KC);
        if (_FC3D_HX_WS && wnb > 0 && P.hx_rpt <= 32 && _fc3d_hx_ws_kind<float>(P, e, y) > 0) {
            const size_t wsm = _fc3d_hx_ws_smem_nb(P, C::SB, KC, wnb);
            /* warp-specialized, persistent, a CTA an SM */
            auto kern = _fc3d_hx_rows_ws<float, MATH, KC, _fc3d_tc_epi>;
            if ((err = _fc3d_smem_attr((const void*)kern, wsm)) != cudaSuccess)
                return err;
            int dev = 0, sms = 0;
            if ((err = cudaGetDevice(&dev)) != cudaSuccess) return err;
            if ((err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return err;
            const int64_t total = P.hx_rcls_start[4] * P.groups * P.ntn * P.n;
            /* (a usual launch: as a programmatic dependent L2/34's convolution alone took 0.516 ->
               0.521 ms, H100, three rounds alternated; bench/RESULTS.md sixty-eighth entry) */
            return _fc3d_launch_ex(false, kern, (unsigned)(total < sms ? total : sms), 512, wsm, st, P, xp, wp, bias, y,
                                   e);
        }
        auto kern = _fc3d_hx_main<float, MATH, 128, KC, true, _fc3d_tc_epi>;
        const size_t smem = _fc3d_hx_smem(P, MATH, KC, 64, 1);
        err = _fc3d_smem_attr((const void*)kern, smem);
        if (err != cudaSuccess) return err;
        const dim3 grid((unsigned)P.hx_rcls_start[4], (unsigned)(P.groups * P.ntn), (unsigned)P.n);
        _fc3d_tc_kparams Q = P;
        if ((err = ahead(kern, C::NT, smem, &Q)) != cudaSuccess) return err;
        return _fc3d_launch_ex(_FC3D_HX_PDL_CONV, kern, grid, C::NT, smem, st, Q, xp, wp, bias, y, e);
    }
    static _fc3d_tc_kparams params(const _fc3d_tc_plan* tp, const _fc3d_tc_kparams& kp, int row) {
        _fc3d_tc_kparams P = kp;
        P.ntn = tp->hx_ntn;
        P.hx_parts = row ? tp->row_tiles_per_sample : tp->tiles_per_sample;
        return P;
    }
    static cudaError_t prep(const _fc3d_tc_plan* tp, const float* x, const float* w, void* xp, void* wp, void* tab,
                            cudaStream_t st) {
        const _fc3d_tc_kparams P = params(tp, tp->kp, 0);
        const int64_t nt = _fc3d_hx_tab_count(P, 2) + _fc3d_hx_tab_rows(P); /* the decoded tiles (tab: where to) */
        if (_fc3d_hx_math(tp) == _FC3D_TC_3XTF32) return prep_as<_FC3D_TC_3XTF32, 64, _FC3D_HX_X3_KC>(P, x, w, xp, wp, tab, nt, st);
        if (_fc3d_hx_math(tp) == _FC3D_TC_HALF && P.hx_kc == 64)
            return tp->hx_bn == 128 ? prep_as<_FC3D_TC_HALF, 128, 64>(P, x, w, xp, wp, tab, nt, st)
                                    : prep_as<_FC3D_TC_HALF, 64, 64>(P, x, w, xp, wp, tab, nt, st);
        if (_fc3d_hx_math(tp) == _FC3D_TC_HALF)
            return tp->hx_bn == 128 ? prep_as<_FC3D_TC_HALF, 128, 32>(P, x, w, xp, wp, tab, nt, st)
                                    : prep_as<_FC3D_TC_HALF, 64, 32>(P, x, w, xp, wp, tab, nt, st);
#if _FC3D_HX_TF32_F16 /* (TF32 takes the half kernels: _fc3d_hx_math) */
        return cudaErrorInvalidValue;
#else
        return tp->hx_bn == 128 ? prep_as<_FC3D_TC_TF32, 128, 32>(P, x, w, xp, wp, tab, nt, st)
                                : prep_as<_FC3D_TC_TF32, 64, 32>(P, x, w, xp, wp, tab, nt, st);
#endif
    }
    static cudaError_t conv(const _fc3d_tc_plan* tp, const _fc3d_tc_kparams& kp, int row, const void* xp,
                            const void* wp, const void* tab, const float* bias, float* y, const _fc3d_tc_epi& e,
                            cudaStream_t st) {
        _fc3d_tc_kparams P = params(tp, kp, row);
        /* this launch's part of the decoded tiles: the row tiles', a zero-filling step's or the
           phase tiles' */
        P.hx_tab = !tab || (row && !P.hx_rows) ? nullptr
                   : row ? (const void*)((const char*)tab + _FC3D_HX_RTAB_AT(P))
                         : (const void*)((const _fc3d_hx_tile*)tab + _fc3d_hx_tab_count(P, P.skip0 ? 1 : 0));
        if (row && _fc3d_hx_math(tp) == _FC3D_TC_3XTF32) /* (3xTF32 row tiles: _fc3d_hx_x3_rows) */
            return conv_rows_as<_FC3D_TC_3XTF32, _FC3D_HX_X3_KC>(P, xp, wp, bias, y, e, st);
        if (row) /* (a plan with row passes took 64-channel tiles: tp->hx_bn is 64) */
#if _FC3D_HX_TF32_F16
            return _fc3d_hx_math(tp) != _FC3D_TC_HALF ? cudaErrorInvalidValue
#else
            return _fc3d_hx_math(tp) != _FC3D_TC_HALF ? conv_rows_as<_FC3D_TC_TF32, 32>(P, xp, wp, bias, y, e, st)
#endif
                   : P.hx_kc == 64           ? conv_rows_as<_FC3D_TC_HALF, 64>(P, xp, wp, bias, y, e, st)
                                             : conv_rows_as<_FC3D_TC_HALF, 32>(P, xp, wp, bias, y, e, st);
        if (_fc3d_hx_math(tp) == _FC3D_TC_3XTF32) return conv_as<_FC3D_TC_3XTF32, 64, _FC3D_HX_X3_KC>(P, xp, wp, bias, y, e, st);
        if (_fc3d_hx_math(tp) == _FC3D_TC_HALF && P.hx_kc == 64)
            return tp->hx_bn == 128 ? conv_as<_FC3D_TC_HALF, 128, 64>(P, xp, wp, bias, y, e, st)
                                    : conv_as<_FC3D_TC_HALF, 64, 64>(P, xp, wp, bias, y, e, st);
        if (_fc3d_hx_math(tp) == _FC3D_TC_HALF)
            return tp->hx_bn == 128 ? conv_as<_FC3D_TC_HALF, 128, 32>(P, xp, wp, bias, y, e, st)
                                    : conv_as<_FC3D_TC_HALF, 64, 32>(P, xp, wp, bias, y, e, st);
#if _FC3D_HX_TF32_F16
        return cudaErrorInvalidValue;
#else
        return tp->hx_bn == 128 ? conv_as<_FC3D_TC_TF32, 128, 32>(P, xp, wp, bias, y, e, st)
                                : conv_as<_FC3D_TC_TF32, 64, 32>(P, xp, wp, bias, y, e, st);
#endif
    }
};

/* Whether a plain row pass of this plan (no ops, no statistics: a convolution alone) runs the
   warp-specialized row tiles (the launch asks the same of the pass, _fc3d_hx_ws_kind; the tests
   ask here) */
static inline int _fc3d_hx_ws_takes(const _fc3d_tc_plan* tp)
{
    if (!_FC3D_HX_WS || !tp->hx_ok || !tp->kp.hx_rows) return 0;
    const _fc3d_tc_kparams P = _fc3d_hx_run<float>::params(tp, tp->kp, 1);
    const int w = P.out[2];
    return _fc3d_hx_ws_nb(P, _fc3d_hx_sb(_fc3d_hx_math(tp)), P.hx_kc) > 0 && P.hx_rpt <= 32 && P.layout == 1 &&
           (w == 16 || w == 32 || w == 64 || w == 128) && (P.hx_pad[2] & 1) == 0;
}

/* What the warp-specialized row tiles make of a convolving step of the plan: the launch's
   _fc3d_hx_ws_kind asked of the plan's chain and the step's store and statistics (y taken as
   16-byte aligned: its alignment is the run's), behind the row tiles' geometry (_fc3d_hx_ws_takes).
   0 not theirs, 1 a copy, 2 a row program, then *gelu its GELUs (either form). */
static int _fc3d_hx_ws_step_kind(const fc3d_plan* p, const _fc3d_tc_plan* tp, const fc3d_step_* st, int* gelu)
{
    *gelu = 0;
    if (_fc3d_enum_int(&p->desc.dtype) != FC3D_DTYPE_F32 || !_fc3d_hx_ws_takes(tp)) return 0;
    _fc3d_tc_kparams P = _fc3d_hx_run<float>::params(tp, tp->kp, 1);
    P.store = st->arg[0] != FC3D_STORE_NONE; /* (as _fc3d_launch_tc_conv; float y is its own intermediate) */
    P.stats = st->stat_op >= 0;
    P.out_f32 = 0;
    _fc3d_tc_epi e;
    memset(&e, 0, sizeof e);
    _fc3d_chain_of(&p->_private, &e.chain);
    e.op_begin = (int)st->arg[1];
    e.op_end = (int)st->arg[2];
    e.rowops = (unsigned)st->arg[4];
    const int kind = _fc3d_hx_ws_kind<float>(P, e, (const float*)nullptr);
    _fc3d_tc_epi::row_prog_t rp{};
    if (kind == 2 && e.row_prog(rp)) {
        for (unsigned i = 0; i < ((rp.code >> 2) & 3u); i++) {
            const unsigned k = (rp.code >> (4 + 4 * i)) & 15u;
            *gelu += k == (unsigned)FC3D_OP_GELU || k == (unsigned)FC3D_OP_GELU_TANH;
        }
    }
    return kind;
}

/* Whether the run takes the haloed loop: the plan chose it and the run takes wgmma. */
static int _fc3d_tc_halo_runs(const _fc3d_tc_plan* tp) { return tp->hx_ok && _fc3d_tc_wgmma_runs(tp); }

/* The block loop's launch: float32 tensors only (the plan sees to it); a persistent grid of two
   CTAs an SM. */
template <typename T>
struct _fc3d_bk_run {
    static cudaError_t prep(const _fc3d_tc_plan*, const T*, float*, cudaStream_t) { return cudaErrorInvalidValue; }
    static cudaError_t conv(const _fc3d_tc_plan*, const _fc3d_tc_kparams&, const T*, const float*, const T*, T*,
                            const _fc3d_tc_epi&, cudaStream_t) {
        return cudaErrorInvalidValue;
    }
};
template <>
struct _fc3d_bk_run<float> {
    static cudaError_t prep(const _fc3d_tc_plan* tp, const float* w, float* wf, cudaStream_t st) {
        const int64_t n = (int64_t)(tp->bk_wbytes / 4);
        const int64_t cap = tp->kp.bk_f16 ? 16 : 4096; /* (F16: every block reads the whole weight) */
        const int nt = tp->kp.bk_f16 ? 1024 : 256;
        const unsigned grid = (unsigned)((n + nt - 1) / nt < cap ? (n + nt - 1) / nt : cap);
        if (tp->kp.bk_f16) {
            if (tp->bk_nt8 == 4) _fc3d_bk_prep_w<4, true><<<grid, nt, 0, st>>>(tp->kp, w, wf);
            else _fc3d_bk_prep_w<8, true><<<grid, nt, 0, st>>>(tp->kp, w, wf);
        } else {
            if (tp->bk_nt8 == 4) _fc3d_bk_prep_w<4><<<grid, 256, 0, st>>>(tp->kp, w, wf);
            else _fc3d_bk_prep_w<8><<<grid, 256, 0, st>>>(tp->kp, w, wf);
        }
        return cudaPeekAtLastError();
    }
    template <int NT8, int PH, bool AFF = false, int PT = 0, bool F16 = false>
    static cudaError_t conv_as(const _fc3d_tc_kparams& P, const float* x, const float* w, const float* bias, float* y,
                               const _fc3d_tc_epi& e, cudaStream_t st) {
        auto kern = _fc3d_bk_main<NT8, PH, _fc3d_tc_epi, AFF, PT, F16>;
        const size_t smem = _fc3d_bk_smem(P, NT8);
        cudaError_t err = _fc3d_smem_attr((const void*)kern, smem);
        if (err != cudaSuccess) return err;
        int dev = 0, sms = 0;
        if ((err = cudaGetDevice(&dev)) != cudaSuccess) return err;
        if ((err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return err;
        const int64_t blocks = P.bk_blocks * P.n;
        const int64_t ctas = (int64_t)_FC3D_BK_CTAS * sms;
        const unsigned grid = (unsigned)(blocks < ctas ? blocks : ctas);
        kern<<<grid, _FC3D_BK_NT, smem, st>>>(P, x, w, bias, y, e);
        return cudaPeekAtLastError();
    }
    /* units of both W phases: a kernel per W tap pattern and C_in of _fc3d_bk_pair_taps (PT = C_in / 8
       x 16 + the pattern: C_in 16 or 32, whose operands are f16 where _FC3D_BK_F16), the one that
       dispatches among them where none applies */
    template <bool AFF, bool F16>
    static cudaError_t pairs(const _fc3d_tc_kparams& P, const float* x, const float* w, const float* bias, float* y,
                             const _fc3d_tc_epi& e, cudaStream_t st) {
        constexpr bool H = _FC3D_BK_F16 != 0;
        const int pat = _fc3d_bk_pair_pattern(P);
        switch (pat == 0 || P.bk_f16 != (int)H ? 0 : (int)P.cin_g / 8 * 16 + pat) {
        case 0x25: return conv_as<4, 2, AFF, 0x25, H>(P, x, w, bias, y, e, st);
        case 0x26: return conv_as<4, 2, AFF, 0x26, H>(P, x, w, bias, y, e, st);
        case 0x29: return conv_as<4, 2, AFF, 0x29, H>(P, x, w, bias, y, e, st);
        case 0x2a: return conv_as<4, 2, AFF, 0x2a, H>(P, x, w, bias, y, e, st);
        case 0x45: return conv_as<4, 2, AFF, 0x45, H>(P, x, w, bias, y, e, st);
        case 0x46: return conv_as<4, 2, AFF, 0x46, H>(P, x, w, bias, y, e, st);
        case 0x49: return conv_as<4, 2, AFF, 0x49, H>(P, x, w, bias, y, e, st);
        case 0x4a: return conv_as<4, 2, AFF, 0x4a, H>(P, x, w, bias, y, e, st);
        default: return conv_as<4, 2, AFF, 0, F16>(P, x, w, bias, y, e, st);
        }
    }
    template <bool F16>
    static cudaError_t conv_of(const _fc3d_tc_plan* tp, const _fc3d_tc_kparams& P, const float* x, const float* w,
                               const float* bias, float* y, const _fc3d_tc_epi& e, cudaStream_t st) {
        if (tp->bk_nt8 == 8) return conv_as<8, 1, false, 0, F16>(P, x, w, bias, y, e, st);
        /* W stride 2 and no ops or one affine map per (n, c): a warp's unit takes both W phases
           (8-byte stores; a pass that stores nothing, the sums alone) */
        if (_fc3d_bk_pairs(tp->bk_nt8, P.s[2], P.store != 0, _fc3d_bk_ops_affine(e.chain.ops, e.op_begin, e.op_end)))
            return e.op_begin == e.op_end ? pairs<false, F16>(P, x, w, bias, y, e, st)
                                          : pairs<true, F16>(P, x, w, bias, y, e, st);
        return conv_as<4, 1, false, 0, F16>(P, x, w, bias, y, e, st);
    }
    static cudaError_t conv(const _fc3d_tc_plan* tp, const _fc3d_tc_kparams& kp, const float* x, const float* w,
                            const float* bias, float* y, const _fc3d_tc_epi& e, cudaStream_t st) {
        _fc3d_tc_kparams P = kp;
        P.hx_parts = _fc3d_tc_slots(tp, 0); /* the statistics slots: a sample's blocks */
        return P.bk_f16 ? conv_of<true>(tp, P, x, w, bias, y, e, st) : conv_of<false>(tp, P, x, w, bias, y, e, st);
    }
};

/* The warp-row loop's launches: float32 tensors only (the plan sees to it). prep: x's magnitude word
   zeroed, the weight's f16 copy (block 0) beside x's (a thread a position), x's again at its scale
   where it needs one (the kernel returns at once where not); conv: a persistent grid, one CTA an SM for a storing pass (the
   warps' staging), two for a statistics-only one. */
template <typename T>
struct _fc3d_wr_run {
    static cudaError_t prep(const _fc3d_tc_plan*, const T*, const T*, void*, void*, cudaStream_t) { return cudaErrorInvalidValue; }
    static cudaError_t conv(const _fc3d_tc_plan*, const _fc3d_tc_kparams&, const void*, const void*, const T*, T*,
                            const _fc3d_tc_epi&, cudaStream_t) {
        return cudaErrorInvalidValue;
    }
};
template <>
struct _fc3d_wr_run<float> {
    static cudaError_t prep(const _fc3d_tc_plan* tp, const float* x, const float* w, void* wsw, void* wsx, cudaStream_t st) {
        __half* wh = (__half*)wsw;
        unsigned* words = (unsigned*)(wh + 27 * _FC3D_WR_CO * _FC3D_WR_CI);
        /* the weight's prep on block 0 of x's copy, its shared memory (55,296 bytes at C_out 32) on
           every block: two CTAs of 1024 an SM, the copy's full occupancy */
        const size_t wsm = (size_t)_FC3D_WR_CI * tp->kp.cout * 27 * sizeof(float);
        cudaError_t e = _fc3d_smem_attr((const void*)_fc3d_wr_prep_x<false>, wsm);
        if (e != cudaSuccess) return e;
        if ((e = cudaMemsetAsync(words + 1, 0, sizeof(unsigned), st)) != cudaSuccess) return e; /* x's magnitude */
        _fc3d_wr_prep_x<false><<<1 + _fc3d_wr_prep_grid(tp->kp, 1024), 1024, wsm, st>>>(tp->kp, x, (__half*)wsx, words, w, wh);
        if ((e = cudaPeekAtLastError()) != cudaSuccess) return e;
        if (!tp->kp.wr_half)
            return _fc3d_launch_pdl(_fc3d_wr_prep_x<true>, _fc3d_wr_fix_grid(tp->kp), 256, 0, st, tp->kp, x,
                                    (__half*)wsx, words, w, wh);
        return cudaSuccess;
    }
    template <bool STORE, bool STATS, bool LIST>
    static cudaError_t conv_as(const _fc3d_tc_kparams& P, const void* wsw, const void* wsx, const float* bias, float* y,
                               const _fc3d_tc_epi& e, cudaStream_t st) {
        auto kern = _fc3d_wr_main<STORE, STATS, LIST, _fc3d_tc_epi>;
        const size_t smem = _fc3d_wr_smem(P.in[1], STORE);
        cudaError_t err = _fc3d_smem_attr((const void*)kern, smem);
        if (err != cudaSuccess) return err;
        int dev = 0, sms = 0;
        if ((err = cudaGetDevice(&dev)) != cudaSuccess) return err;
        if ((err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return err;
        const int64_t work = STATS ? P.n * P.out[0] : P.n * P.out[0] * P.out[1]; /* segments, or rows */
        const int64_t ctas = (int64_t)(STORE ? 1 : 2) * sms;
        const unsigned grid = (unsigned)(work < ctas ? work : ctas);
        return _fc3d_launch_pdl(kern, grid, _fc3d_wr_nt(STORE), smem, st, P, (const __half*)wsx, (const __half*)wsw, bias,
                                y, e);
    }
    static cudaError_t conv(const _fc3d_tc_plan* tp, const _fc3d_tc_kparams& kp, const void* wsw, const void* wsx,
                            const float* bias, float* y, const _fc3d_tc_epi& e, cudaStream_t st) {
        _fc3d_tc_kparams P = kp;
        P.hx_parts = _fc3d_tc_slots(tp, 0); /* the statistics slots: a sample's output planes */
        const bool list = !_fc3d_bk_ops_affine(e.chain.ops, e.op_begin, e.op_end); /* (more than _FC3D_BK_NCOPS ops too) */
        if (P.store && P.stats)
            return list ? conv_as<true, true, true>(P, wsw, wsx, bias, y, e, st) : conv_as<true, true, false>(P, wsw, wsx, bias, y, e, st);
        if (P.store)
            return list ? conv_as<true, false, true>(P, wsw, wsx, bias, y, e, st) : conv_as<true, false, false>(P, wsw, wsx, bias, y, e, st);
        if (P.stats)
            return list ? conv_as<false, true, true>(P, wsw, wsx, bias, y, e, st) : conv_as<false, true, false>(P, wsw, wsx, bias, y, e, st);
        return cudaSuccess; /* (no pass neither stores nor gathers) */
    }
};

template <typename T>
static fc3d_result _fc3d_launch_tc_prep(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
    float* ws = (float*)_fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 0);
    const T* w = (const T*)b->args->weight;
    if (tp->wr_ok) {
        const cudaError_t e = _fc3d_wr_run<T>::prep(tp, (const T*)b->args->x, w, ws,
                                                    _fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 1), b->stream);
        if (e != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "warp-row loop copies: %s", cudaGetErrorString(e));
        return FC3D_SUCCESS;
    }
    if (tp->bk_ok) {
        const cudaError_t e = _fc3d_bk_run<T>::prep(tp, w, ws, b->stream);
        if (e != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "block loop weight: %s", cudaGetErrorString(e));
        return FC3D_SUCCESS;
    }
    if (_fc3d_tc_halo_runs(tp)) {
        const cudaError_t e = _fc3d_hx_run<T>::prep(tp, (const T*)b->args->x, w,
                                                    _fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 1), ws,
                                                    _fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 2), b->stream);
        if (e != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "haloed loop copies: %s", cudaGetErrorString(e));
        return FC3D_SUCCESS;
    }
    const bool km = _fc3d_tc_wgmma_runs(tp) != 0; /* the sm_90a loop's K-major copy */
    constexpr int R = _FC3D_TC_TF32_RND;
    switch (s->variant) {
    case _FC3D_TC_TF32:
        if (km) _fc3d_tc_prep<T, _FC3D_TC_TF32, R, true><<<s->grid, s->block, 0, b->stream>>>(tp->kp, w, ws);
        else _fc3d_tc_prep<T, _FC3D_TC_TF32, R, false><<<s->grid, s->block, 0, b->stream>>>(tp->kp, w, ws);
        break;
    case _FC3D_TC_3XTF32:
        if (km) _fc3d_tc_prep<T, _FC3D_TC_3XTF32, R, true><<<s->grid, s->block, 0, b->stream>>>(tp->kp, w, ws);
        else _fc3d_tc_prep<T, _FC3D_TC_3XTF32, R, false><<<s->grid, s->block, 0, b->stream>>>(tp->kp, w, ws);
        break;
    default:
        if (km) _fc3d_tc_prep<T, _FC3D_TC_HALF, R, true><<<s->grid, s->block, 0, b->stream>>>(tp->kp, w, ws);
        else _fc3d_tc_prep<T, _FC3D_TC_HALF, R, false><<<s->grid, s->block, 0, b->stream>>>(tp->kp, w, ws);
        break;
    }
    return _fc3d_launched(msg, "implicit_gemm weight re-layout kernel");
}

template <typename T, int MATH, bool WG>
static cudaError_t _fc3d_tc_launch_bn(const _fc3d_tc_plan* tp, const _fc3d_tc_kparams& kp, int row, const T* x,
                                      const float* ws, const T* bias, void* y, const _fc3d_tc_epi& e, cudaStream_t st) {
    const int64_t tiles = row ? tp->row_tiles_per_sample : tp->tiles_per_sample;
    /* whole-row tiles come in the channel tiles _fc3d_tc_row_bn allows (the plan capped bn) */
    constexpr int RBN = MATH == _FC3D_TC_3XTF32 ? 32 : 64;
    constexpr int R = _FC3D_TC_TF32_RND;
    if (row && tp->bn == 32)
        return _fc3d_tc_launch_main<T, MATH, R, 32, true, WG, _fc3d_tc_epi>(kp, tiles, x, ws, bias, (T*)y, e, st);
    if (row) return _fc3d_tc_launch_main<T, MATH, R, RBN, true, WG, _fc3d_tc_epi>(kp, tiles, x, ws, bias, (T*)y, e, st);
    switch (tp->bn) {
    case 32: return _fc3d_tc_launch_main<T, MATH, R, 32, false, WG, _fc3d_tc_epi>(kp, tiles, x, ws, bias, (T*)y, e, st);
    case 64: return _fc3d_tc_launch_main<T, MATH, R, 64, false, WG, _fc3d_tc_epi>(kp, tiles, x, ws, bias, (T*)y, e, st);
    default: /* 128; 3xTF32 plans never exceed 64 */
        return _fc3d_tc_launch_main<T, MATH, R, MATH == _FC3D_TC_3XTF32 ? 64 : 128, false, WG, _fc3d_tc_epi>(
            kp, tiles, x, ws, bias, (T*)y, e, st);
    }
}

template <typename T>
static fc3d_result _fc3d_launch_tc_conv(const _fc3d_bound* b, const fc3d_step_* s, char* msg) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)pr->engine_data.bytes;
    const fc3d_run_args* a = b->args;
    const float* ws = (const float*)_fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 0);
    _fc3d_tc_kparams kp = tp->kp;
    _fc3d_tc_epi e;
    void* y = a->y;
    cudaError_t err;
    kp.store = s->arg[0] != FC3D_STORE_NONE;
    kp.stats = s->stat_op >= 0;
    kp.out_f32 = 0;
    if (s->arg[0] == FC3D_STORE_INTERMEDIATE && _fc3d_ws_at(pr, b->base, _FC3D_WS_INTERMEDIATE)) {
        y = _fc3d_ws_at(pr, b->base, _FC3D_WS_INTERMEDIATE); /* 16-bit y: the float32 intermediate */
        kp.out_f32 = 1;
    }
    memset(&e, 0, sizeof e);
    e.chain = b->chain;
    e.op_begin = (int)s->arg[1];
    e.op_end = (int)s->arg[2];
    _fc3d_conv_dims(&pr->geom, e.ext);
    e.rowops = (unsigned)s->arg[4];
    for (int i = e.op_begin; i < e.op_end; i++)
        if (_fc3d_op_nc_uniform(e.chain.ops[i])) e.ncmask |= 1u << i;
    e.partials = (double2*)_fc3d_ws_at(pr, b->base, _FC3D_WS_PARTIALS);
    if (s->stat_op >= 0) e.sg = pr->stat[s->stat_op];
    const int row = (int)s->arg[3];
    const bool wg = _fc3d_tc_wgmma_runs(tp) != 0;
    if (s->arg[5]) { /* the tap-less phases' zeros (_fc3d_tc_zero_fill), before either loop, unless
                        the haloed tiles store them (_fc3d_hx_zc_geom) */
        kp.hx_zc = !tp->bk_ok && tp->hx_ok && wg && _fc3d_hx_zc_geom(kp);
        if (!kp.hx_zc) {
            const fc3d_geom_* g = &pr->geom;
            const size_t n = (size_t)g->n * (size_t)g->cout * (size_t)g->d * (size_t)g->h * (size_t)g->w;
            err = cudaMemsetAsync(y, 0, n * (kp.out_f32 ? sizeof(float) : sizeof(T)), b->stream);
            if (err != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "zero fill of the tap-less phases: %s", cudaGetErrorString(err));
        }
        kp.skip0 = 1;
    }
    const T* x = (const T*)a->x;
    const T* bias = (const T*)a->bias;
    if (tp->wr_ok) {
        err = _fc3d_wr_run<T>::conv(tp, kp, ws, _fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 1), bias, (T*)y, e, b->stream);
        if (err != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "warp-row loop kernel: %s", cudaGetErrorString(err));
        return FC3D_SUCCESS;
    }
    if (tp->bk_ok) {
        err = _fc3d_bk_run<T>::conv(tp, kp, x, ws, bias, (T*)y, e, b->stream);
        if (err != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "block loop kernel: %s", cudaGetErrorString(err));
        return FC3D_SUCCESS;
    }
    if (tp->hx_ok && wg) { /* (row passes: the haloed row tiles) */
        err = _fc3d_hx_run<T>::conv(tp, kp, row, _fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 1), ws,
                                    _fc3d_ws_at(pr, b->base, _FC3D_WS_ENGINE + 2), bias, (T*)y, e, b->stream);
        if (err != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "haloed loop kernel: %s", cudaGetErrorString(err));
        return FC3D_SUCCESS;
    }
    switch (s->variant) {
    case _FC3D_TC_TF32:
        err = wg ? _fc3d_tc_launch_bn<T, _FC3D_TC_TF32, true>(tp, kp, row, x, ws, bias, y, e, b->stream)
                 : _fc3d_tc_launch_bn<T, _FC3D_TC_TF32, false>(tp, kp, row, x, ws, bias, y, e, b->stream);
        break;
    case _FC3D_TC_3XTF32:
        err = wg ? _fc3d_tc_launch_bn<T, _FC3D_TC_3XTF32, true>(tp, kp, row, x, ws, bias, y, e, b->stream)
                 : _fc3d_tc_launch_bn<T, _FC3D_TC_3XTF32, false>(tp, kp, row, x, ws, bias, y, e, b->stream);
        break;
    default:
        err = wg ? _fc3d_tc_launch_bn<T, _FC3D_TC_HALF, true>(tp, kp, row, x, ws, bias, y, e, b->stream)
                 : _fc3d_tc_launch_bn<T, _FC3D_TC_HALF, false>(tp, kp, row, x, ws, bias, y, e, b->stream);
        break;
    }
    if (err != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "implicit_gemm kernel: %s", cudaGetErrorString(err));
    return FC3D_SUCCESS;
}

template <typename T>
static fc3d_result _fc3d_execute(const _fc3d_bound* b, char* msg) {
    const fc3d_plan_private_* pr = &b->plan->_private;
    typedef fc3d_result (*launcher)(const _fc3d_bound*, const fc3d_step_*, char*);
    static const launcher launch[_FC3D_STEP_KIND_COUNT_] = {NULL, _fc3d_launch_finalize<T>, _fc3d_launch_direct_pass<T>,
                                                            _fc3d_launch_tc_prep<T>, _fc3d_launch_tc_conv<T>,
                                                            _fc3d_launch_moments<T>, _fc3d_launch_xsums<T>,
                                                            _fc3d_launch_xsums<T>, _fc3d_launch_mtail<T>};
    for (int i = 0; i < pr->num_steps; i++) {
        const fc3d_result r = launch[pr->steps[i].kind](b, &pr->steps[i], msg);
        if (r != FC3D_SUCCESS) return r;
    }
    return FC3D_SUCCESS;
}

/* What the implicit-GEMM engine's convolving steps ask of the run's device, checked before
   anything launches: compute capability 8.0 or newer, and where the sm_90a loops do not run, the
   shared memory a block of its mma.sync-family launches takes (_fc3d_tc_sync_need; the plan caps
   it by desc.smem_per_block). _fc3d_smem_grant_cap, where set, stands for a device granting that
   much (tests of the refusal on a device that grants more). */
static int _fc3d_smem_grant_cap = 0;
static fc3d_result _fc3d_tc_device_check(const fc3d_plan* plan, int dev, char* msg) {
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)plan->_private.engine_data.bytes;
    int major = 0, grant = 0;
    cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&grant, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "cudaDeviceGetAttribute: %s", cudaGetErrorString(e));
    if (major < 8) /* (the grant of such a device is below FC3D_SMEM_PER_BLOCK_TC: planned with it, AUTO is direct) */
        return _fc3d_fail(msg, FC3D_ERROR_CUDA,
                          "the implicit_gemm engine needs compute capability 8.0 or newer (device %d has %d.x; nothing "
                          "launched): plan with desc.smem_per_block = %d, its grant, or desc.engine = FC3D_ENGINE_DIRECT",
                          dev, major, grant);
    if (_fc3d_tc_wgmma_runs(tp)) return FC3D_SUCCESS;
    if (_fc3d_smem_grant_cap > 0 && _fc3d_smem_grant_cap < grant) grant = _fc3d_smem_grant_cap;
    const char* loop = "";
    const size_t need = _fc3d_tc_sync_need(tp, &loop);
    if (need > (size_t)grant)
        return _fc3d_fail(msg, FC3D_ERROR_SMEM_PER_BLOCK,
                          "its %s loop takes %zu bytes of shared memory a block, device %d grants %d (nothing "
                          "launched): plan with smem_per_block = %d",
                          loop, need, dev, grant, grant);
    return FC3D_SUCCESS;
}

/* >>public ---------------------------------------------------------------------------------------*/
FC3D_API fc3d_result fc3d_plan_run(const fc3d_plan* plan, const fc3d_run_args* args, fc3d_message* message) {
    char* msg = message ? message->text : NULL;
    fc3d_result r;
    _fc3d_bound b;
    int dev;
    if (msg) msg[0] = 0;
    if (!plan || !args) return _fc3d_fail(msg, FC3D_ERROR_NULL_ARGUMENT, "%s is NULL", plan ? "args" : "plan");
    if ((r = _fc3d_check_plan(plan, msg)) != FC3D_SUCCESS) return r;
    if ((r = _fc3d_check_args(plan, args, msg)) != FC3D_SUCCESS) return r;
    {
        const cudaError_t e = cudaGetDevice(&dev);
        if (e != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "cudaGetDevice: %s", cudaGetErrorString(e));
    }
    if (plan->engine == FC3D_ENGINE_IMPLICIT_GEMM &&
        (_fc3d_enum_int(&plan->_private.desc.main_loop) == FC3D_MAIN_LOOP_WGMMA ||
         _fc3d_enum_int(&plan->_private.desc.main_loop) == FC3D_MAIN_LOOP_HALO) &&
        !_fc3d_tc_wgmma_runs((const _fc3d_tc_plan*)plan->_private.engine_data.bytes))
        return _fc3d_fail(msg, FC3D_ERROR_MAIN_LOOP,
                          "main_loop = %s, but device %d runs no sm_90a code of this binary (nothing launched): "
                          "build with -gencode arch=compute_90a,code=sm_90a and run on an sm_90 device",
                          _fc3d_enum_int(&plan->_private.desc.main_loop) == FC3D_MAIN_LOOP_HALO ? "halo" : "wgmma", dev);
    {
        /* an error left by an earlier call would read as this run's launch failure halfway through
           the steps: refuse to start instead, with nothing launched */
        const cudaError_t e = cudaPeekAtLastError();
        if (e != cudaSuccess)
            return _fc3d_fail(msg, FC3D_ERROR_CUDA, "an earlier CUDA error is pending (nothing launched): %s",
                              cudaGetErrorString(e));
    }
    /* (a plan with no convolving step, statistics from x's sums alone, launches no tensor-core
       kernel: nothing to check) */
    if (plan->engine == FC3D_ENGINE_IMPLICIT_GEMM && _fc3d_tc_convolves(plan) &&
        (r = _fc3d_tc_device_check(plan, dev, msg)) != FC3D_SUCCESS)
        return r;
    b.plan = plan;
    b.args = args;
    b.base = (char*)(((uintptr_t)args->workspace + (_FC3D_ALIGN - 1)) & ~(uintptr_t)(_FC3D_ALIGN - 1));
    b.stream = (cudaStream_t)args->stream;
    _fc3d_bind_chain(&plan->_private, args, b.base, &b.chain);
    switch (_fc3d_enum_int(&plan->_private.desc.dtype)) {
    case FC3D_DTYPE_F16: return _fc3d_execute<__half>(&b, msg);
    case FC3D_DTYPE_BF16: return _fc3d_execute<__nv_bfloat16>(&b, msg);
    default: return _fc3d_execute<float>(&b, msg);
    }
}

FC3D_API int fc3d_plan_main_loop(const fc3d_plan* plan) {
    if (!plan || _fc3d_check_plan(plan, NULL) != FC3D_SUCCESS) return -1;
    if (plan->engine != FC3D_ENGINE_IMPLICIT_GEMM) return FC3D_MAIN_LOOP_AUTO;
    const _fc3d_tc_plan* tp = (const _fc3d_tc_plan*)plan->_private.engine_data.bytes;
    if (tp->wr_ok) return FC3D_MAIN_LOOP_WARP_ROWS;
    if (tp->bk_ok) return FC3D_MAIN_LOOP_BLOCK;
    if (!_fc3d_tc_wgmma_runs(tp)) return FC3D_MAIN_LOOP_MMA_SYNC;
    return tp->hx_ok ? FC3D_MAIN_LOOP_HALO : FC3D_MAIN_LOOP_WGMMA;
}

#endif /* FUSEDCONV3D_IMPLEMENTATION */

/* >>history
   0.1.0  plan API, validation, direct GPU path for every accepted desc, CPU reference.

   >>license
   MIT License. Copyright (c) 2026 the fusedconv3d authors.
   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
   associated documentation files (the "Software"), to deal in the Software without restriction,
   including without limitation the rights to use, copy, modify, merge, publish, distribute,
   sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions: the above copyright notice and this
   permission notice shall be included in all copies or substantial portions of the Software.
   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
*/
