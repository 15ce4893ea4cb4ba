/* fusedconv3d.cuh - 3D transposed convolution fused with its epilogue, for CUDA GPUs.

   Do this:
       #define FUSEDCONV3D_IMPLEMENTATION
   before you include this file in *one* CUDA (.cu) translation unit, compiled by nvcc.
   Every other file - C or C++, nvcc or not - includes it without the define and sees only the
   declarations, which are plain C99.

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
                         >>optable >>result-strings >>defaults >>validation >>planning
                         >>device-helpers >>kernels >>launchers >>public
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

   The plan is a caller-owned struct. fc3d_plan_init() validates the desc, computes the output
   shape, chooses the strategy and the passes, and sizes the workspace - on the host, with no GPU
   and no CUDA call, so it can run anywhere. It stores no data pointers: one plan serves any number
   of tensors, streams and threads (fc3d_plan_run only reads it).

   Passes. An op that needs statistics of its whole input (training BatchNorm, GroupNorm,
   LayerNorm, spatial-mean subtraction, pooling) cannot be applied until every element it
   normalises exists. The plan cuts the chain before each such "statistics op" and runs one pass per
   piece; plan.passes[] lists them (what each reads, which ops it applies, whether it writes y,
   which op's statistics it gathers). fc3d_plan_describe() prints them.

   Workspace. Statistics are reduced through the workspace: call fc3d_plan_init, allocate
   plan.workspace_bytes of device memory (any alignment: the size includes the slack to align it),
   pass it at run. Too small a workspace is an error, never a silent fallback. Zero bytes means none
   is needed and the pointer may be NULL.

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
    FC3D_MATH_HALF = 3     /* operands rounded to 16 bits: bf16 when dtype is BF16, else f16 */
} fc3d_math;

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
   num_ops    0 (the convolution alone)
   ops[]      see fc3d_op; only ops[0 .. num_ops-1] are read */
typedef struct fc3d_plan_desc {
    fc3d_conv_desc conv;
    fc3d_layout layout;
    fc3d_dtype dtype;
    fc3d_math math;
    int num_ops;
    fc3d_op ops[FC3D_MAX_OPS];
} fc3d_plan_desc;

typedef enum fc3d_strategy {
    FC3D_STRATEGY_NONE = 0,
    /* The first pass runs the convolution and stores its result (after the ops before the first
       statistics op) as a float32 intermediate (y itself when y is float32); later passes read it
       back, apply the next piece of the chain and store it again, the last one into y. Used
       whenever y is as large as the convolution output. */
    FC3D_STRATEGY_DIRECT_MATERIALIZE = 1,
    /* Every pass recomputes the convolution; nothing of its size is ever stored. Used when the
       chain ends in a pool, so y is N x C. */
    FC3D_STRATEGY_DIRECT_RECOMPUTE = 2
} fc3d_strategy;

typedef enum fc3d_source {
    FC3D_SOURCE_CONV = 1,        /* the pass computes the convolution from x and weight */
    FC3D_SOURCE_INTERMEDIATE = 2 /* the pass reads back the intermediate the previous pass stored */
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
   (-1: none). */
typedef struct fc3d_pass {
    fc3d_source source;
    int op_begin;
    int op_end;
    fc3d_store store;
    int stat_op;
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

/* A plan: fill it with fc3d_plan_init. Every public field is an output; read them, don't write
   them. Fields that start with an underscore are private. */
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
    double flops;                   /* 2 * multiply-adds of the convolution (dense count) */
    fc3d_strategy strategy;
    int num_passes;
    fc3d_pass passes[FC3D_MAX_PASSES];
    size_t workspace_bytes;         /* device bytes fc3d_plan_run needs; alignment slack included */
    int64_t _unit_rows;             /* output rows (along H) in one statistics unit */
    int64_t _units;                 /* statistics units: N * C * D * ceil(H / _unit_rows) */
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

/* The message for a result code (static storage; never NULL; unknown codes give a fixed text). */
FC3D_API const char* fc3d_result_string(fc3d_result result);

/* desc with every zero-means-default field replaced by its default. Does not validate.
   desc: host, read. Returns the filled copy (a zeroed desc if desc is NULL). */
FC3D_API fc3d_plan_desc fc3d_plan_desc_defaults(const fc3d_plan_desc* desc);

/* Validates desc and fills plan: output shape, strategy, passes and workspace size. Host only:
   makes no CUDA call and needs no GPU.
   plan: host, written whole (on failure too: result and message say why; a failed plan cannot run).
   desc: host, read; not retained.
   Returns FC3D_SUCCESS, FC3D_ERROR_NULL_ARGUMENT, FC3D_ERROR_SIZE_OVERFLOW or one of the
   FC3D_ERROR_CONV_*, _LAYOUT, _DTYPE, _MATH, FC3D_ERROR_NUM_OPS and FC3D_ERROR_OP_* codes.
   Reentrant. */
FC3D_API fc3d_result fc3d_plan_init(fc3d_plan* plan, const fc3d_plan_desc* desc);

/* Writes a human-readable summary of the plan (shape, strategy, passes, workspace) into buf
   (host, buf_size bytes, always NUL-terminated when buf_size > 0). Returns the length the full
   text needs, like snprintf. */
FC3D_API int fc3d_plan_describe(const fc3d_plan* plan, char* buf, size_t buf_size);

/* Enqueues the plan's passes on args->stream. Checks the bound tensors first (NULL, alignment,
   workspace size, and that nothing the run writes - y, the workspace, updated or saved
   statistics - overlaps another bound tensor); on any such error nothing is launched or written.
   Does not synchronise. Running statistics of a training BatchNorm with UPDATE are updated in
   place, once per run.
   plan: host, read (shared by concurrent runs safely).  args: host, read; the tensors it names
   are device memory. message: host, optional (NULL); receives the detail of an error, "" on success.
   Returns FC3D_SUCCESS, FC3D_ERROR_NULL_ARGUMENT, FC3D_ERROR_PLAN_INVALID, one of the
   FC3D_ERROR_ARG_* codes, or FC3D_ERROR_CUDA: no CUDA device is usable or an error from an earlier
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
   Strategies. Today there is one family, the direct (gather) path: every output element is the
   sum over the input taps that reach it, computed by one thread, with the epilogue applied in the
   same kernel before the store. It is correct for every desc the plan accepts (all conv
   parameters, both layouts, three element types, three math modes) and is the GPU reference for
   faster paths.

   Statistics units. Output elements are grouped into units: a unit is `_unit_rows` consecutive
   rows along H of one (n, c, d) plane. One block computes one unit, so each unit's partial sums
   (sum and sum of squares, in double) come from one block in a fixed order and land in their own
   slot of the workspace: no atomics, bitwise-reproducible. Every statistic any op needs is a fixed
   -order sum of whole units (a channel, an (n, group), an (n, c), an (n, c, d) plane), because
   units never straddle a plane; a chain with LAYERNORM over W alone uses one row per unit so a
   unit is exactly one normalised row. A finalize kernel then reduces each statistics group over its
   units (one warp per group, fixed order) into (mean, 1/std), updates BatchNorm running
   statistics, writes saved batch statistics, or writes the pooled output.

   Passes. The chain is cut before each statistics op. With FC3D_STRATEGY_DIRECT_MATERIALIZE (y has
   the convolution's shape) the first pass computes the convolution and the ops before the first
   cut and stores them as the intermediate; each later pass reads it back, applies the next piece
   and stores it again, the last one into y.
   With FC3D_STRATEGY_DIRECT_RECOMPUTE (the chain ends in a pool, so y is N x C) each pass
   recomputes the convolution and the ops so far, and only the statistics leave the block; the full
   convolution output is never stored. The planner picks by the shape of y alone.

   The value a materializing pass hands to the next is float32: y itself when y is float32, a
   workspace buffer when y is 16-bit, so that statistics and normalisation see unrounded values
   (an intermediate stored in bf16 cost up to 2e-2 relative error after a GroupNorm).

   Workspace layout (_fc3d_workspace_layout, used by the size query and by the run): the float32
   intermediate (16-bit y with statistics ops only), the unit partials (units x 2 doubles, reused
   by every pass, since passes run in stream order), then for each statistics op except a final
   pool, its groups x (mean, 1/std) floats. Every region is 256-byte aligned from an aligned base;
   the size includes 255 bytes of slack for aligning the caller's pointer.

   Numerics. Products and sums of the convolution are float32 (after the math mode's operand
   rounding); unit partials and group statistics are double, the variance E[x^2] - mean^2 taken in
   double, which stays accurate while |mean| / std is below about 1e6; the epilogue is float32. */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/* >>optable --------------------------------------------------------------------------------------
   One row per op kind: name, whether it needs statistics of its whole input, the flags it takes,
   which scalar fields it uses, and which tensors it always needs. */
enum {
    _FC3D_T_WEIGHT = 1, _FC3D_T_BIAS = 2, _FC3D_T_RMEAN = 4, _FC3D_T_RVAR = 8,
    _FC3D_T_SMEAN = 16, _FC3D_T_SINVSTD = 32
};
enum { _FC3D_F_VALUE = 1, _FC3D_F_EPS = 2, _FC3D_F_MOMENTUM = 4, _FC3D_F_GROUPS = 8, _FC3D_F_NDIMS = 16 };

#define _FC3D_OP_TABLE(X)                                                                            \
    /* kind                     name                stats flags-taken                 fields     tensors */ \
    X(FC3D_OP_SCALE,            "scale",            0, 0u,                             _FC3D_F_VALUE, 0) \
    X(FC3D_OP_ADD_CHANNEL,      "add_channel",      0, 0u,                             0, _FC3D_T_BIAS) \
    X(FC3D_OP_RELU,             "relu",             0, 0u,                             0, 0)           \
    X(FC3D_OP_GELU,             "gelu",             0, 0u,                             0, 0)           \
    X(FC3D_OP_GELU_TANH,        "gelu_tanh",        0, 0u,                             0, 0)           \
    X(FC3D_OP_BATCHNORM_TRAIN,  "batchnorm_train",  1,                                               \
      (unsigned)(FC3D_OP_AFFINE | FC3D_OP_UPDATE_RUNNING_STATS | FC3D_OP_SAVE_BATCH_STATS),          \
      _FC3D_F_EPS | _FC3D_F_MOMENTUM, 0)                                                              \
    X(FC3D_OP_BATCHNORM_INFER,  "batchnorm_infer",  0, (unsigned)FC3D_OP_AFFINE, _FC3D_F_EPS,        \
      _FC3D_T_RMEAN | _FC3D_T_RVAR)                                                                   \
    X(FC3D_OP_GROUPNORM,        "groupnorm",        1, (unsigned)FC3D_OP_AFFINE,                      \
      _FC3D_F_EPS | _FC3D_F_GROUPS, 0)                                                                \
    X(FC3D_OP_LAYERNORM,        "layernorm",        1, (unsigned)FC3D_OP_AFFINE,                      \
      _FC3D_F_EPS | _FC3D_F_NDIMS, 0)                                                                 \
    X(FC3D_OP_SUB_SPATIAL_MEAN, "sub_spatial_mean", 1, 0u,                             0, 0)           \
    X(FC3D_OP_GLOBAL_AVG_POOL,  "global_avg_pool",  1, 0u,                             0, 0)

typedef struct _fc3d_op_info {
    const char* name;
    int needs_stats;
    unsigned flags_taken;
    int fields;
    int tensors;
} _fc3d_op_info;

static const _fc3d_op_info* _fc3d_op_info_of(fc3d_op_kind kind) {
    static const _fc3d_op_info table[FC3D_OP_KIND_COUNT_] = {
        {"none", 0, 0u, 0, 0},
#define _FC3D_X_INFO(kind, name, stats, flags, fields, tensors) {name, stats, flags, fields, tensors},
        _FC3D_OP_TABLE(_FC3D_X_INFO)
#undef _FC3D_X_INFO
    };
    if ((int)kind <= (int)FC3D_OP_NONE || (int)kind >= (int)FC3D_OP_KIND_COUNT_) return NULL;
    return &table[kind];
}

/* Tensors an op needs, given its flags: the table's fixed ones plus those its flags ask for. */
static int _fc3d_op_tensor_mask(const fc3d_op* op) {
    const _fc3d_op_info* info = _fc3d_op_info_of(op->kind);
    int mask = info ? info->tensors : 0;
    if (op->flags & FC3D_OP_AFFINE) mask |= _FC3D_T_WEIGHT | _FC3D_T_BIAS;
    if (op->flags & FC3D_OP_UPDATE_RUNNING_STATS) mask |= _FC3D_T_RMEAN | _FC3D_T_RVAR;
    if (op->flags & FC3D_OP_SAVE_BATCH_STATS) mask |= _FC3D_T_SMEAN | _FC3D_T_SINVSTD;
    return mask;
}

/* >>result-strings ---------------------------------------------------------------------------------*/
FC3D_API const char* fc3d_result_string(fc3d_result result) {
    switch (result) {
#define _FC3D_X_STRING(name, value, text) case name: return text;
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
    switch (dtype) {
    case FC3D_DTYPE_DEFAULT:
    case FC3D_DTYPE_F32: return 4;
    case FC3D_DTYPE_F16:
    case FC3D_DTYPE_BF16: return 2;
    default: return 0;
    }
}

/* >>defaults -------------------------------------------------------------------------------------*/
#define _FC3D_DEFAULT_EPS 1e-5f
#define _FC3D_DEFAULT_MOMENTUM 0.1f

FC3D_API fc3d_plan_desc fc3d_plan_desc_defaults(const fc3d_plan_desc* desc) {
    fc3d_plan_desc d;
    int i;
    memset(&d, 0, sizeof d);
    if (!desc) return d;
    d = *desc;
    for (i = 0; i < 3; i++) {
        if (d.conv.stride[i] == 0) d.conv.stride[i] = 1;
        if (d.conv.dilation[i] == 0) d.conv.dilation[i] = 1;
    }
    if (d.conv.groups == 0) d.conv.groups = 1;
    d.conv.bias = d.conv.bias ? 1 : 0;
    if (d.layout == FC3D_LAYOUT_DEFAULT) d.layout = FC3D_LAYOUT_NCDHW;
    if (d.dtype == FC3D_DTYPE_DEFAULT) d.dtype = FC3D_DTYPE_F32;
    if (d.math == FC3D_MATH_DEFAULT) d.math = FC3D_MATH_FP32;
    for (i = 0; i < FC3D_MAX_OPS && i < d.num_ops; i++) {
        fc3d_op* op = &d.ops[i];
        const _fc3d_op_info* info = _fc3d_op_info_of(op->kind);
        if (!info) continue;
        if ((info->fields & _FC3D_F_EPS) && op->eps == 0.0f) op->eps = _FC3D_DEFAULT_EPS;
        if ((info->fields & _FC3D_F_MOMENTUM) && op->momentum == 0.0f) op->momentum = _FC3D_DEFAULT_MOMENTUM;
    }
    return d;
}

/* >>validation -----------------------------------------------------------------------------------*/
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
        if (c->stride[i] < 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_STRIDE, "stride[%d] (%s) = %d", i, _fc3d_dim_name[i], c->stride[i]);
        if (c->padding[i] < 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_PADDING, "padding[%d] (%s) = %d", i, _fc3d_dim_name[i], c->padding[i]);
        if (c->dilation[i] < 0)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_DILATION, "dilation[%d] (%s) = %d", i, _fc3d_dim_name[i], c->dilation[i]);
    }
    for (i = 0; i < 3; i++) {
        int s = c->stride[i] ? c->stride[i] : 1, dl = c->dilation[i] ? c->dilation[i] : 1;
        if (c->output_padding[i] < 0 || (c->output_padding[i] >= s && c->output_padding[i] >= dl))
            return _fc3d_fail(msg, FC3D_ERROR_CONV_OUTPUT_PADDING, "output_padding[%d] (%s) = %d, stride %d, dilation %d",
                              i, _fc3d_dim_name[i], c->output_padding[i], s, dl);
    }
    if (c->groups < 0) return _fc3d_fail(msg, FC3D_ERROR_CONV_GROUPS, "groups = %d", c->groups);
    {
        int g = c->groups ? c->groups : 1;
        if (c->in_channels % g)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_GROUPS_IN_CHANNELS, "in_channels = %d, groups = %d", c->in_channels, g);
        if (c->out_channels % g)
            return _fc3d_fail(msg, FC3D_ERROR_CONV_GROUPS_OUT_CHANNELS, "out_channels = %d, groups = %d", c->out_channels, g);
    }
    return FC3D_SUCCESS;
}

static fc3d_result _fc3d_validate_op(const fc3d_plan_desc* d, const int64_t conv_dims[5], int i, char* msg) {
    const fc3d_op* op = &d->ops[i];
    const _fc3d_op_info* info = _fc3d_op_info_of(op->kind);
    if (!info) return _fc3d_fail(msg, FC3D_ERROR_OP_KIND, "ops[%d].kind = %d", i, (int)op->kind);
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
    if (op->kind == FC3D_OP_GLOBAL_AVG_POOL && i != d->num_ops - 1)
        return _fc3d_fail(msg, FC3D_ERROR_OP_POOL_NOT_LAST, "ops[%d] is a pool but num_ops = %d", i, d->num_ops);
    if (op->kind == FC3D_OP_BATCHNORM_TRAIN && conv_dims[0] * conv_dims[2] * conv_dims[3] * conv_dims[4] <= 1)
        return _fc3d_fail(msg, FC3D_ERROR_OP_BATCHNORM_COUNT, "ops[%d]: N*D*H*W = 1", i);
    return FC3D_SUCCESS;
}

/* >>planning -------------------------------------------------------------------------------------*/
/* Elements one statistics unit aims for: enough work for a block, few enough partials. */
#define _FC3D_UNIT_TARGET 4096
#define _FC3D_ALIGN 256

typedef struct _fc3d_ws_layout {
    size_t intermediate;             /* offset of the float32 intermediate; only for 16-bit y */
    size_t intermediate_bytes;       /* 0: the intermediate is y itself, or there is none */
    size_t partials;                 /* offset of the unit partials (units x 2 doubles) */
    size_t stats[FC3D_MAX_OPS];      /* offset of op i's (mean, 1/std) per group; 0 if none */
    int64_t groups[FC3D_MAX_OPS];    /* statistics groups of op i */
    size_t total;                    /* bytes from the aligned base */
} _fc3d_ws_layout;

static size_t _fc3d_align_up(size_t v) { return (v + (_FC3D_ALIGN - 1)) & ~(size_t)(_FC3D_ALIGN - 1); }

/* Statistics groups of a statistics op, from the conv output's logical dims. */
static int64_t _fc3d_stat_groups(const fc3d_op* op, const int64_t cd[5]) {
    switch (op->kind) {
    case FC3D_OP_BATCHNORM_TRAIN: return cd[1];
    case FC3D_OP_GROUPNORM: return cd[0] * op->groups;
    case FC3D_OP_LAYERNORM: {
        int64_t g = cd[0];
        int k;
        for (k = 1; k < 5 - op->norm_dims; k++) g *= cd[k];
        return g;
    }
    case FC3D_OP_SUB_SPATIAL_MEAN:
    case FC3D_OP_GLOBAL_AVG_POOL: return cd[0] * cd[1];
    default: return 0;
    }
}

/* The one place that places workspace regions; the size query and fc3d_plan_run both call it. */
static void _fc3d_workspace_layout(const fc3d_plan* p, _fc3d_ws_layout* l) {
    const int64_t cd[5] = {p->desc.conv.batch, p->desc.conv.out_channels, p->conv_size[0], p->conv_size[1],
                           p->conv_size[2]};
    size_t off = 0;
    int i, any = 0;
    memset(l, 0, sizeof *l);
    for (i = 0; i < p->desc.num_ops; i++)
        if (_fc3d_op_info_of(p->desc.ops[i].kind)->needs_stats) any = 1;
    if (!any) return;
    if (p->strategy == FC3D_STRATEGY_DIRECT_MATERIALIZE && p->desc.dtype != FC3D_DTYPE_F32) {
        l->intermediate = off;
        l->intermediate_bytes = (size_t)(cd[0] * cd[1] * cd[2] * cd[3] * cd[4]) * sizeof(float);
        off = _fc3d_align_up(off + l->intermediate_bytes);
    }
    l->partials = off;
    off = _fc3d_align_up(off + (size_t)p->_units * 2 * sizeof(double));
    for (i = 0; i < p->desc.num_ops; i++) {
        const fc3d_op* op = &p->desc.ops[i];
        if (!_fc3d_op_info_of(op->kind)->needs_stats) continue;
        l->groups[i] = _fc3d_stat_groups(op, cd);
        if (op->kind == FC3D_OP_GLOBAL_AVG_POOL) continue; /* its finalize writes y directly */
        l->stats[i] = off;
        off = _fc3d_align_up(off + (size_t)l->groups[i] * 2 * sizeof(float));
    }
    l->total = off;
}

static void _fc3d_plan_passes(fc3d_plan* p) {
    const fc3d_plan_desc* d = &p->desc;
    int cuts[FC3D_MAX_OPS], ncuts = 0, i, j;
    for (i = 0; i < d->num_ops; i++)
        if (_fc3d_op_info_of(d->ops[i].kind)->needs_stats) cuts[ncuts++] = i;
    p->num_passes = 0;
    if (d->num_ops > 0 && d->ops[d->num_ops - 1].kind == FC3D_OP_GLOBAL_AVG_POOL) {
        p->strategy = FC3D_STRATEGY_DIRECT_RECOMPUTE;
        for (j = 0; j < ncuts; j++) {
            fc3d_pass* ps = &p->passes[p->num_passes++];
            ps->source = FC3D_SOURCE_CONV;
            ps->op_begin = 0;
            ps->op_end = cuts[j];
            ps->store = FC3D_STORE_NONE;
            ps->stat_op = cuts[j];
        }
        return;
    }
    p->strategy = FC3D_STRATEGY_DIRECT_MATERIALIZE;
    for (j = 0; j <= ncuts; j++) {
        fc3d_pass* ps = &p->passes[p->num_passes++];
        ps->source = j == 0 ? FC3D_SOURCE_CONV : FC3D_SOURCE_INTERMEDIATE;
        ps->op_begin = j == 0 ? 0 : cuts[j - 1];
        ps->op_end = j < ncuts ? cuts[j] : d->num_ops;
        ps->store = j < ncuts ? FC3D_STORE_INTERMEDIATE : FC3D_STORE_Y;
        ps->stat_op = j < ncuts ? cuts[j] : -1;
    }
}

FC3D_API fc3d_result fc3d_plan_init(fc3d_plan* plan, const fc3d_plan_desc* desc) {
    fc3d_plan* p = plan;
    fc3d_result r;
    int64_t cd[5];
    int i, has_ln_w = 0;
    if (!p) return FC3D_ERROR_NULL_ARGUMENT;
    memset(p, 0, sizeof *p);
    if (!desc) {
        p->result = _fc3d_fail(p->message, FC3D_ERROR_NULL_ARGUMENT, "desc is NULL");
        return p->result;
    }
#define _FC3D_CHECK(expr)                       \
    do {                                        \
        r = (expr);                             \
        if (r != FC3D_SUCCESS) goto failed;     \
    } while (0)
    _FC3D_CHECK(_fc3d_validate_conv(&desc->conv, p->message));
    if ((int)desc->layout < 0 || (int)desc->layout > (int)FC3D_LAYOUT_NDHWC)
        _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_LAYOUT, "layout = %d", (int)desc->layout));
    if ((int)desc->dtype < 0 || (int)desc->dtype > (int)FC3D_DTYPE_BF16)
        _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_DTYPE, "dtype = %d", (int)desc->dtype));
    if ((int)desc->math < 0 || (int)desc->math > (int)FC3D_MATH_HALF)
        _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_MATH, "math = %d", (int)desc->math));
    if (desc->num_ops < 0 || desc->num_ops > FC3D_MAX_OPS)
        _FC3D_CHECK(_fc3d_fail(p->message, FC3D_ERROR_NUM_OPS, "num_ops = %d", desc->num_ops));

    p->desc = fc3d_plan_desc_defaults(desc);
    {
        const fc3d_conv_desc* c = &p->desc.conv;
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
        }
        cd[0] = c->batch; cd[1] = c->out_channels;
        cd[2] = p->conv_size[0]; cd[3] = p->conv_size[1]; cd[4] = p->conv_size[2];
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
        const fc3d_op* op = &p->desc.ops[i];
        _FC3D_CHECK(_fc3d_validate_op(&p->desc, cd, i, p->message));
        {
            /* per-channel tensors have C elements; LAYERNORM's weight and bias its normalised shape */
            const int mask = _fc3d_op_tensor_mask(op);
            int64_t wb = cd[1];
            int k;
            fc3d_op_tensor_sizes* t = &p->op_tensors[i];
            if (op->kind == FC3D_OP_LAYERNORM)
                for (wb = 1, k = 5 - op->norm_dims; k < 5; k++) wb *= cd[k];
            t->weight = (mask & _FC3D_T_WEIGHT) ? wb : 0;
            t->bias = (mask & _FC3D_T_BIAS) ? wb : 0;
            t->running_mean = (mask & _FC3D_T_RMEAN) ? cd[1] : 0;
            t->running_var = (mask & _FC3D_T_RVAR) ? cd[1] : 0;
            t->save_mean = (mask & _FC3D_T_SMEAN) ? cd[1] : 0;
            t->save_invstd = (mask & _FC3D_T_SINVSTD) ? cd[1] : 0;
            if (op->kind == FC3D_OP_LAYERNORM && op->norm_dims == 1) has_ln_w = 1;
        }
    }
    for (i = 0; i < 5; i++) p->y_dims[i] = cd[i];
    if (p->desc.num_ops > 0 && p->desc.ops[p->desc.num_ops - 1].kind == FC3D_OP_GLOBAL_AVG_POOL) {
        p->y_dims[2] = p->y_dims[3] = p->y_dims[4] = 1;
        p->y_elements = cd[0] * cd[1];
    }
    /* a unit is whole rows of one (n, c, d) plane: one row when a LAYERNORM normalises W alone, so
       that its statistics groups are single units */
    p->_unit_rows = has_ln_w ? 1 : (_FC3D_UNIT_TARGET + cd[4] - 1) / cd[4];
    if (p->_unit_rows > cd[3]) p->_unit_rows = cd[3];
    p->_units = cd[0] * cd[1] * cd[2] * ((cd[3] + p->_unit_rows - 1) / p->_unit_rows);
    _fc3d_plan_passes(p);
    {
        _fc3d_ws_layout l;
        _fc3d_workspace_layout(p, &l);
        p->workspace_bytes = l.total ? l.total + (_FC3D_ALIGN - 1) : 0;
    }
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

static const char* _fc3d_layout_name(fc3d_layout l) { return l == FC3D_LAYOUT_NDHWC ? "NDHWC" : "NCDHW"; }
static const char* _fc3d_dtype_name(fc3d_dtype t) {
    return t == FC3D_DTYPE_F16 ? "f16" : t == FC3D_DTYPE_BF16 ? "bf16" : "f32";
}
static const char* _fc3d_math_name(fc3d_math m) {
    return m == FC3D_MATH_TF32 ? "tf32" : m == FC3D_MATH_HALF ? "half" : "fp32";
}

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
        _FC3D_PUT("conv_transpose3d %dx%dx%dx%dx%d -> %lldx%lldx%lldx%lldx%lld, kernel %dx%dx%d, stride %dx%dx%d, "
                  "padding %dx%dx%d, output_padding %dx%dx%d, dilation %dx%dx%d, groups %d, %s\n",
                  c->batch, c->in_channels, c->in_size[0], c->in_size[1], c->in_size[2], (long long)c->batch,
                  (long long)c->out_channels, (long long)p->conv_size[0], (long long)p->conv_size[1],
                  (long long)p->conv_size[2], c->kernel[0], c->kernel[1], c->kernel[2], c->stride[0], c->stride[1],
                  c->stride[2], c->padding[0], c->padding[1], c->padding[2], c->output_padding[0],
                  c->output_padding[1], c->output_padding[2], c->dilation[0], c->dilation[1], c->dilation[2],
                  c->groups, c->bias ? "bias" : "no bias");
        _FC3D_PUT("%s %s, math %s, %.3g GFLOP; y %lldx%lldx%lldx%lldx%lld\n", _fc3d_dtype_name(p->desc.dtype),
                  _fc3d_layout_name(p->desc.layout), _fc3d_math_name(p->desc.math), p->flops * 1e-9,
                  (long long)p->y_dims[0], (long long)p->y_dims[1], (long long)p->y_dims[2], (long long)p->y_dims[3],
                  (long long)p->y_dims[4]);
        _FC3D_PUT("ops:");
        for (i = 0; i < p->desc.num_ops; i++) _FC3D_PUT(" %d:%s", i, _fc3d_op_info_of(p->desc.ops[i].kind)->name);
        _FC3D_PUT("%s\n", p->desc.num_ops ? "" : " none");
        _FC3D_PUT("strategy %s, %d pass%s, workspace %zu bytes\n",
                  p->strategy == FC3D_STRATEGY_DIRECT_RECOMPUTE ? "direct-recompute" : "direct-materialize",
                  p->num_passes, p->num_passes == 1 ? "" : "es", p->workspace_bytes);
        for (i = 0; i < p->num_passes; i++) {
            const fc3d_pass* ps = &p->passes[i];
            _FC3D_PUT("  pass %d: %s -> ops [%d,%d) -> %s", i,
                      ps->source == FC3D_SOURCE_CONV ? "conv" : "read intermediate", ps->op_begin, ps->op_end,
                      ps->store == FC3D_STORE_Y ? "store y" : ps->store ? "store intermediate" : "no store");
            if (ps->stat_op >= 0)
                _FC3D_PUT("; statistics for op %d (%s)", ps->stat_op,
                          _fc3d_op_info_of(p->desc.ops[ps->stat_op].kind)->name);
            _FC3D_PUT("\n");
        }
    }
#undef _FC3D_PUT
    return len;
}

/* >>device-helpers -------------------------------------------------------------------------------*/
#define _FC3D_THREADS 256

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

/* A convolution operand as the math mode sees it. TF32 rounds to nearest, ties away from zero, as
   the tensor cores' cvt.rna does; HALF rounds to the 16-bit type of the data (f16 for f32 data). */
template <int MATH, typename T>
static __device__ __forceinline__ float _fc3d_operand(float v) {
    if (MATH == FC3D_MATH_TF32) {
        unsigned b = __float_as_uint(v);
        if ((b & 0x7f800000u) != 0x7f800000u) b = (b + 0x1000u) & 0xffffe000u;
        return __uint_as_float(b);
    }
    if (MATH == FC3D_MATH_HALF && sizeof(T) == 4) return __half2float(__float2half_rn(v));
    return v; /* 16-bit data is already exact in every mode */
}

/* One op as the kernels see it: the desc's fields plus its bound tensors and its statistics. */
typedef struct _fc3d_dev_op {
    int kind;
    unsigned flags;
    float value;
    float eps;
    int groups;
    int norm_dims;
    const float* weight;
    const float* bias;
    const float* running_mean;
    const float* running_var;
    const float2* stats; /* (mean, 1/std) per statistics group, in the workspace */
} _fc3d_dev_op;

typedef struct _fc3d_dims {
    int64_t n, cin, cout, di, hi, wi, d, h, w; /* input and conv-output sizes */
    int k[3], s[3], p[3], dl[3];
    int groups;
    int layout;
} _fc3d_dims;

typedef struct _fc3d_pass_params {
    _fc3d_dims g;
    const void* x;
    const void* wt;
    const void* bias;
    void* y;
    int op_begin, op_end;
    int store;           /* fc3d_store */
    int gather;          /* gather unit partials */
    float* inter;        /* the float32 intermediate, conv-output sized, in y's layout */
    double2* partials;   /* units x (sum, sum of squares) */
    int64_t unit_rows, units_per_plane, units;
    _fc3d_dev_op ops[FC3D_MAX_OPS];
} _fc3d_pass_params;

static __device__ __forceinline__ int64_t _fc3d_y_index(const _fc3d_dims& g, int64_t n, int64_t c, int64_t d,
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
static __device__ float _fc3d_conv_at(const _fc3d_pass_params& P, int64_t n, int64_t c, int64_t od, int64_t oh,
                                      int64_t ow) {
    const _fc3d_dims& g = P.g;
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

/* Applies ops [begin, end) to the value at logical position (n, c, d, h, w). */
static __device__ float _fc3d_apply_ops(const _fc3d_pass_params& P, float v, int64_t n, int64_t c, int64_t d,
                                        int64_t h, int64_t w) {
    const _fc3d_dims& g = P.g;
    for (int i = P.op_begin; i < P.op_end; i++) {
        const _fc3d_dev_op& op = P.ops[i];
        switch (op.kind) {
        case FC3D_OP_SCALE: v *= op.value; break;
        case FC3D_OP_ADD_CHANNEL: v += op.bias[c]; break;
        case FC3D_OP_RELU: v = v < 0.0f ? 0.0f : v; break; /* NaN stays NaN, as in PyTorch */
        case FC3D_OP_GELU: v = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); break;
        case FC3D_OP_GELU_TANH:
            v = 0.5f * v * (1.0f + tanhf(0.79788456080286536f * (v + 0.044715f * v * v * v)));
            break;
        case FC3D_OP_BATCHNORM_TRAIN: {
            const float2 st = op.stats[c];
            v = (v - st.x) * st.y;
            if (op.flags & FC3D_OP_AFFINE) v = v * op.weight[c] + op.bias[c];
            break;
        }
        case FC3D_OP_BATCHNORM_INFER:
            v = (v - op.running_mean[c]) / sqrtf(op.running_var[c] + op.eps);
            if (op.flags & FC3D_OP_AFFINE) v = v * op.weight[c] + op.bias[c];
            break;
        case FC3D_OP_GROUPNORM: {
            const float2 st = op.stats[n * op.groups + c / (g.cout / op.groups)];
            v = (v - st.x) * st.y;
            if (op.flags & FC3D_OP_AFFINE) v = v * op.weight[c] + op.bias[c];
            break;
        }
        case FC3D_OP_LAYERNORM: {
            /* group: the leading 5 - norm_dims logical indices; position: the trailing ones */
            int64_t grp, pos;
            switch (op.norm_dims) {
            case 1: grp = ((n * g.cout + c) * g.d + d) * g.h + h; pos = w; break;
            case 2: grp = (n * g.cout + c) * g.d + d; pos = h * g.w + w; break;
            case 3: grp = n * g.cout + c; pos = (d * g.h + h) * g.w + w; break;
            default: grp = n; pos = ((c * g.d + d) * g.h + h) * g.w + w; break;
            }
            const float2 st = op.stats[grp];
            v = (v - st.x) * st.y;
            if (op.flags & FC3D_OP_AFFINE) v = v * op.weight[pos] + op.bias[pos];
            break;
        }
        case FC3D_OP_SUB_SPATIAL_MEAN: v -= op.stats[n * g.cout + c].x; break;
        default: break; /* a pool is never applied per element: its finalize writes y */
        }
    }
    return v;
}

/* Fixed-order sum over the block: each warp by a butterfly (lanes combine in a fixed pattern and
   IEEE addition commutes, so every lane agrees), then warp 0 over the warps in index order. */
static __device__ double2 _fc3d_block_sum(double2 v, double2* scratch) {
    for (int m = 16; m > 0; m >>= 1) {
        v.x += __shfl_xor_sync(0xffffffffu, v.x, m);
        v.y += __shfl_xor_sync(0xffffffffu, v.y, m);
    }
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

/* >>kernels --------------------------------------------------------------------------------------*/
/* One pass: each block owns whole statistics units (rows [h0, h0 + unit_rows) of one (n, c, d)
   plane), computes or reads their values, applies the pass's ops, stores and/or gathers. */
template <typename T, int SOURCE, int MATH>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_pass_kernel(const _fc3d_pass_params P) {
    __shared__ double2 scratch[_FC3D_THREADS / 32];
    const _fc3d_dims& g = P.g;
    T* y = (T*)P.y;
    for (int64_t u = blockIdx.x; u < P.units; u += gridDim.x) {
        int64_t t = u / P.units_per_plane;
        const int64_t h0 = (u % P.units_per_plane) * P.unit_rows;
        const int64_t d = t % g.d;
        t /= g.d;
        const int64_t c = t % g.cout, n = t / g.cout;
        const int64_t rows = h0 + P.unit_rows <= g.h ? P.unit_rows : g.h - h0;
        double2 part = make_double2(0.0, 0.0);
        for (int64_t e = threadIdx.x; e < rows * g.w; e += blockDim.x) {
            const int64_t h = h0 + e / g.w, w = e % g.w;
            const int64_t yi = _fc3d_y_index(g, n, c, d, h, w);
            float v = SOURCE == FC3D_SOURCE_CONV ? _fc3d_conv_at<T, MATH>(P, n, c, d, h, w) : P.inter[yi];
            v = _fc3d_apply_ops(P, v, n, c, d, h, w);
            if (P.store == FC3D_STORE_INTERMEDIATE) {
                P.inter[yi] = v;
            } else if (P.store == FC3D_STORE_Y) {
                _fc3d_store(y, yi, v);
                v = _fc3d_round_to(v, y); /* statistics of what was stored */
            }
            part.x += (double)v;
            part.y += (double)v * (double)v;
        }
        if (P.gather) {
            part = _fc3d_block_sum(part, scratch);
            if (threadIdx.x == 0) P.partials[u] = part;
        }
    }
}

typedef struct _fc3d_finalize_params {
    int kind;
    unsigned flags;
    float eps, momentum;
    int64_t groups;
    int64_t units_per_group; /* partial units summed into one group */
    int64_t bn_stride;       /* BATCHNORM_TRAIN: units of one (n, c) block; 0 for contiguous groups */
    int64_t bn_channels;
    double count;            /* elements per group */
    const double2* partials;
    float2* stats;
    float* running_mean;
    float* running_var;
    float* save_mean;
    float* save_invstd;
    void* y; /* pool: N x C output */
} _fc3d_finalize_params;

/* One statistics group, by one warp: a fixed-order sum of its units' partials, then the group's
   mean and 1/std and whatever the op writes from them. */
template <typename T>
static __device__ void _fc3d_finalize_group(const _fc3d_finalize_params& F, int64_t grp, int lane) {
    double2 s = make_double2(0.0, 0.0);
    for (int64_t j = lane; j < F.units_per_group; j += 32) {
        /* a channel's units are one block of bn_stride units per batch image */
        const int64_t u = F.bn_stride ? ((j / F.bn_stride) * F.bn_channels + grp) * F.bn_stride + j % F.bn_stride
                                      : grp * F.units_per_group + j;
        s.x += F.partials[u].x;
        s.y += F.partials[u].y;
    }
    for (int m = 16; m > 0; m >>= 1) {
        s.x += __shfl_xor_sync(0xffffffffu, s.x, m);
        s.y += __shfl_xor_sync(0xffffffffu, s.y, m);
    }
    if (lane) return;
    const double mean = s.x / F.count;
    double var = s.y / F.count - mean * mean;
    if (var < 0.0) var = 0.0; /* rounding can take a constant group's variance below zero */
    const double invstd = 1.0 / sqrt(var + (double)F.eps);
    if (F.kind == FC3D_OP_GLOBAL_AVG_POOL) {
        _fc3d_store((T*)F.y, grp, (float)mean);
        return;
    }
    F.stats[grp] = make_float2((float)mean, (float)invstd);
    if (F.flags & FC3D_OP_UPDATE_RUNNING_STATS) {
        const double m = F.momentum;
        F.running_mean[grp] = (float)((1.0 - m) * F.running_mean[grp] + m * mean);
        F.running_var[grp] = (float)((1.0 - m) * F.running_var[grp] + m * var * F.count / (F.count - 1.0));
    }
    if (F.flags & FC3D_OP_SAVE_BATCH_STATS) {
        F.save_mean[grp] = (float)mean;
        F.save_invstd[grp] = (float)invstd;
    }
}

/* Every statistics group, one warp each (grid-stride, so any number of groups is covered). */
template <typename T>
static __global__ void __launch_bounds__(_FC3D_THREADS) _fc3d_finalize_kernel(const _fc3d_finalize_params F) {
    const int lane = threadIdx.x % 32;
    const int64_t warps = (int64_t)gridDim.x * (_FC3D_THREADS / 32);
    /* the loop bound is warp-uniform, so _fc3d_finalize_group's shuffles always see a whole warp */
    for (int64_t grp = (int64_t)blockIdx.x * (_FC3D_THREADS / 32) + threadIdx.x / 32; grp < F.groups; grp += warps)
        _fc3d_finalize_group<T>(F, grp, lane);
}

/* >>launchers ------------------------------------------------------------------------------------*/
static int _fc3d_overlaps(const void* a, size_t an, const void* b, size_t bn) {
    const char* pa = (const char*)a;
    const char* pb = (const char*)b;
    return a && b && an && bn && pa < pb + bn && pb < pa + an;
}

/* No tensor the run writes may overlap any other tensor it binds: a pass reading x, a weight or a
   statistic another pass (or block) is writing would give order-dependent results. The workspace
   counts as the bytes the run uses, from the aligned base. */
static fc3d_result _fc3d_check_aliasing(const fc3d_plan* p, const fc3d_run_args* a, char* msg) {
    enum { MAX_REGIONS = 5 + 6 * FC3D_MAX_OPS };
    static const char* const tname[6] = {"weight", "bias", "running_mean", "running_var", "save_mean", "save_invstd"};
    const void* ptr[MAX_REGIONS];
    size_t bytes[MAX_REGIONS];
    char name[MAX_REGIONS][32];
    int written[MAX_REGIONS], n = 0, i, j, t;
    const size_t es = fc3d_dtype_size(p->desc.dtype);
    _fc3d_ws_layout l;
#define _FC3D_REGION(p_, b_, w_, ...)                                                              \
    do {                                                                                            \
        ptr[n] = (p_);                                                                              \
        bytes[n] = (b_);                                                                            \
        written[n] = (w_);                                                                          \
        snprintf(name[n], sizeof name[n], __VA_ARGS__);                                             \
        n++;                                                                                        \
    } while (0)
    _fc3d_workspace_layout(p, &l);
    _FC3D_REGION(a->x, (size_t)p->x_elements * es, 0, "x");
    _FC3D_REGION(a->weight, (size_t)p->weight_elements * es, 0, "weight");
    _FC3D_REGION(a->bias, a->bias ? (size_t)p->desc.conv.out_channels * es : 0, 0, "bias");
    _FC3D_REGION(a->y, (size_t)p->y_elements * es, 1, "y");
    _FC3D_REGION((const void*)(((uintptr_t)a->workspace + (_FC3D_ALIGN - 1)) & ~(uintptr_t)(_FC3D_ALIGN - 1)),
                 a->workspace ? l.total : 0, 1, "workspace");
    for (i = 0; i < p->desc.num_ops; i++) {
        const fc3d_op_tensors* o = &a->ops[i];
        const void* op_ptr[6] = {o->weight, o->bias, o->running_mean, o->running_var, o->save_mean, o->save_invstd};
        const fc3d_op_tensor_sizes* s = &p->op_tensors[i];
        const int64_t cnt[6] = {s->weight, s->bias, s->running_mean, s->running_var, s->save_mean, s->save_invstd};
        for (t = 0; t < 6; t++)
            _FC3D_REGION(op_ptr[t], (size_t)cnt[t] * sizeof(float),
                         t >= 4 || (t >= 2 && p->desc.ops[i].kind == FC3D_OP_BATCHNORM_TRAIN), "ops[%d].%s", i,
                         tname[t]);
    }
#undef _FC3D_REGION
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if ((written[i] || written[j]) && _fc3d_overlaps(ptr[i], bytes[i], ptr[j], bytes[j]))
                return _fc3d_fail(msg, FC3D_ERROR_ARG_ALIAS, "%s (%p, %zu bytes) overlaps %s (%p, %zu bytes)", name[i],
                                  ptr[i], bytes[i], name[j], ptr[j], bytes[j]);
    return FC3D_SUCCESS;
}

/* Checks everything fc3d_plan_run binds, before anything is launched. */
static fc3d_result _fc3d_check_args(const fc3d_plan* p, const fc3d_run_args* a, char* msg) {
    const size_t es = fc3d_dtype_size(p->desc.dtype);
    static const char* const tname[6] = {"weight", "bias", "running_mean", "running_var", "save_mean", "save_invstd"};
    int i, t;
    if (!a->x || (uintptr_t)a->x % es) return _fc3d_fail(msg, FC3D_ERROR_ARG_X, "x = %p", a->x);
    if (!a->weight || (uintptr_t)a->weight % es)
        return _fc3d_fail(msg, FC3D_ERROR_ARG_WEIGHT, "weight = %p", a->weight);
    if ((p->desc.conv.bias && (!a->bias || (uintptr_t)a->bias % es)) || (!p->desc.conv.bias && a->bias))
        return _fc3d_fail(msg, FC3D_ERROR_ARG_BIAS, "bias = %p, conv bias %s", a->bias,
                          p->desc.conv.bias ? "on" : "off");
    if (!a->y || (uintptr_t)a->y % es) return _fc3d_fail(msg, FC3D_ERROR_ARG_Y, "y = %p", a->y);
    if (p->workspace_bytes && !a->workspace)
        return _fc3d_fail(msg, FC3D_ERROR_ARG_WORKSPACE, "workspace = NULL, %zu bytes needed", p->workspace_bytes);
    if (a->workspace_bytes < p->workspace_bytes)
        return _fc3d_fail(msg, FC3D_ERROR_ARG_WORKSPACE_SIZE, "workspace_bytes = %zu, %zu needed", a->workspace_bytes,
                          p->workspace_bytes);
    for (i = 0; i < p->desc.num_ops; i++) {
        const fc3d_op_tensors* o = &a->ops[i];
        const void* ptr[6] = {o->weight, o->bias, o->running_mean, o->running_var, o->save_mean, o->save_invstd};
        const fc3d_op_tensor_sizes* n = &p->op_tensors[i];
        const int64_t need[6] = {n->weight, n->bias, n->running_mean, n->running_var, n->save_mean, n->save_invstd};
        for (t = 0; t < 6; t++) {
            const int wanted = need[t] != 0;
            if (wanted != (ptr[t] != NULL) || (uintptr_t)ptr[t] % sizeof(float))
                return _fc3d_fail(msg, FC3D_ERROR_ARG_OP_TENSOR, "ops[%d].%s = %p, but %s %s it", i, tname[t], ptr[t],
                                  _fc3d_op_info_of(p->desc.ops[i].kind)->name,
                                  wanted ? "with these flags needs" : "does not use");
        }
    }
    return _fc3d_check_aliasing(p, a, msg);
}

/* After each launch. Peek, not Get: a launch error is the caller's to see and clear too (a sticky
   error could not be cleared anyway). fc3d_plan_run refuses to start over a pending error, so what
   this finds is the launch's own. */
static fc3d_result _fc3d_launched(char* msg, const char* what) {
    const cudaError_t e = cudaPeekAtLastError();
    if (e == cudaSuccess) return FC3D_SUCCESS;
    return _fc3d_fail(msg, FC3D_ERROR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}

template <typename T>
static void _fc3d_launch_pass(const _fc3d_pass_params& P, int source, fc3d_math math, unsigned grid, cudaStream_t s) {
    if (source == FC3D_SOURCE_INTERMEDIATE)
        _fc3d_pass_kernel<T, FC3D_SOURCE_INTERMEDIATE, FC3D_MATH_FP32><<<grid, _FC3D_THREADS, 0, s>>>(P);
    else if (math == FC3D_MATH_TF32)
        _fc3d_pass_kernel<T, FC3D_SOURCE_CONV, FC3D_MATH_TF32><<<grid, _FC3D_THREADS, 0, s>>>(P);
    else if (math == FC3D_MATH_HALF)
        _fc3d_pass_kernel<T, FC3D_SOURCE_CONV, FC3D_MATH_HALF><<<grid, _FC3D_THREADS, 0, s>>>(P);
    else
        _fc3d_pass_kernel<T, FC3D_SOURCE_CONV, FC3D_MATH_FP32><<<grid, _FC3D_THREADS, 0, s>>>(P);
}

static unsigned _fc3d_grid(int64_t blocks) { return (unsigned)(blocks < 0x7fffffff ? blocks : 0x7fffffff); }

/* Fills the finalize parameters of statistics op i: which units make a group, and how many
   elements. */
static void _fc3d_finalize_params_of(const fc3d_plan* p, int i, const _fc3d_ws_layout* l, char* base,
                                     const fc3d_run_args* a, _fc3d_finalize_params* F) {
    const fc3d_op* op = &p->desc.ops[i];
    const int64_t C = p->desc.conv.out_channels, D = p->conv_size[0], H = p->conv_size[1], W = p->conv_size[2];
    const int64_t hu = p->_units / (p->desc.conv.batch * C * D); /* units per (n, c, d) plane */
    memset(F, 0, sizeof *F);
    F->kind = op->kind;
    F->flags = op->flags;
    F->eps = op->eps;
    F->momentum = op->momentum;
    F->groups = l->groups[i];
    F->partials = (const double2*)(base + l->partials);
    F->stats = op->kind == FC3D_OP_GLOBAL_AVG_POOL ? NULL : (float2*)(base + l->stats[i]);
    F->running_mean = a->ops[i].running_mean;
    F->running_var = a->ops[i].running_var;
    F->save_mean = a->ops[i].save_mean;
    F->save_invstd = a->ops[i].save_invstd;
    F->y = a->y;
    switch (op->kind) {
    case FC3D_OP_BATCHNORM_TRAIN:
        F->units_per_group = p->desc.conv.batch * D * hu;
        F->bn_stride = D * hu;
        F->bn_channels = C;
        F->count = (double)p->desc.conv.batch * D * H * W;
        break;
    case FC3D_OP_GROUPNORM:
        F->units_per_group = C / op->groups * D * hu;
        F->count = (double)(C / op->groups) * D * H * W;
        break;
    case FC3D_OP_LAYERNORM: {
        const int64_t per_dim[4] = {1, hu, D * hu, C * D * hu}; /* units in 1..4 trailing dims */
        const double cnt[4] = {(double)W, (double)H * W, (double)D * H * W, (double)C * D * H * W};
        F->units_per_group = per_dim[op->norm_dims - 1];
        F->count = cnt[op->norm_dims - 1];
        break;
    }
    default: /* SUB_SPATIAL_MEAN, GLOBAL_AVG_POOL: per (n, c) */
        F->units_per_group = D * hu;
        F->count = (double)D * H * W;
        break;
    }
}

template <typename T>
static fc3d_result _fc3d_run_typed(const fc3d_plan* p, const fc3d_run_args* a, char* msg) {
    const cudaStream_t stream = (cudaStream_t)a->stream;
    const fc3d_conv_desc* c = &p->desc.conv;
    _fc3d_ws_layout l;
    _fc3d_pass_params P;
    char* base = (char*)(((uintptr_t)a->workspace + (_FC3D_ALIGN - 1)) & ~(uintptr_t)(_FC3D_ALIGN - 1));
    int i, k;
    fc3d_result r;
    _fc3d_workspace_layout(p, &l);
    memset(&P, 0, sizeof P);
    P.g.n = c->batch; P.g.cin = c->in_channels; P.g.cout = c->out_channels;
    P.g.di = c->in_size[0]; P.g.hi = c->in_size[1]; P.g.wi = c->in_size[2];
    P.g.d = p->conv_size[0]; P.g.h = p->conv_size[1]; P.g.w = p->conv_size[2];
    for (k = 0; k < 3; k++) {
        P.g.k[k] = c->kernel[k]; P.g.s[k] = c->stride[k]; P.g.p[k] = c->padding[k]; P.g.dl[k] = c->dilation[k];
    }
    P.g.groups = c->groups;
    P.g.layout = p->desc.layout;
    P.x = a->x; P.wt = a->weight; P.bias = a->bias; P.y = a->y;
    P.partials = (double2*)(base + l.partials);
    P.inter = l.intermediate_bytes ? (float*)(base + l.intermediate) : (float*)a->y;
    P.unit_rows = p->_unit_rows;
    P.units = p->_units;
    P.units_per_plane = (P.g.h + P.unit_rows - 1) / P.unit_rows;
    for (i = 0; i < p->desc.num_ops; i++) {
        const fc3d_op* op = &p->desc.ops[i];
        _fc3d_dev_op* o = &P.ops[i];
        o->kind = op->kind; o->flags = op->flags; o->value = op->value; o->eps = op->eps;
        o->groups = op->groups; o->norm_dims = op->norm_dims;
        o->weight = a->ops[i].weight; o->bias = a->ops[i].bias;
        o->running_mean = a->ops[i].running_mean; o->running_var = a->ops[i].running_var;
        o->stats = l.stats[i] ? (const float2*)(base + l.stats[i]) : NULL;
    }
    for (i = 0; i < p->num_passes; i++) {
        const fc3d_pass* ps = &p->passes[i];
        P.op_begin = ps->op_begin;
        P.op_end = ps->op_end;
        P.store = ps->store;
        P.gather = ps->stat_op >= 0;
        _fc3d_launch_pass<T>(P, ps->source, p->desc.math, _fc3d_grid(P.units), stream);
        if ((r = _fc3d_launched(msg, "pass kernel")) != FC3D_SUCCESS) return r;
        if (ps->stat_op >= 0) {
            _fc3d_finalize_params F;
            _fc3d_finalize_params_of(p, ps->stat_op, &l, base, a, &F);
            _fc3d_finalize_kernel<T><<<_fc3d_grid((F.groups + _FC3D_THREADS / 32 - 1) / (_FC3D_THREADS / 32)),
                                       _FC3D_THREADS, 0, stream>>>(F);
            if ((r = _fc3d_launched(msg, "finalize kernel")) != FC3D_SUCCESS) return r;
        }
    }
    return FC3D_SUCCESS;
}

/* >>public ---------------------------------------------------------------------------------------*/
FC3D_API fc3d_result fc3d_plan_run(const fc3d_plan* plan, const fc3d_run_args* args, fc3d_message* message) {
    char* msg = message ? message->text : NULL;
    fc3d_result r;
    int dev;
    if (msg) msg[0] = 0;
    if (!plan || !args) return _fc3d_fail(msg, FC3D_ERROR_NULL_ARGUMENT, "%s is NULL", plan ? "args" : "plan");
    if (plan->result != FC3D_SUCCESS || plan->num_passes <= 0)
        return _fc3d_fail(msg, FC3D_ERROR_PLAN_INVALID, "plan.result = %d", (int)plan->result);
    if ((r = _fc3d_check_args(plan, args, msg)) != FC3D_SUCCESS) return r;
    {
        const cudaError_t e = cudaGetDevice(&dev);
        if (e != cudaSuccess) return _fc3d_fail(msg, FC3D_ERROR_CUDA, "cudaGetDevice: %s", cudaGetErrorString(e));
    }
    {
        /* an error left by an earlier call would read as this run's launch failure halfway through
           the passes: refuse to start instead, with nothing launched */
        const cudaError_t e = cudaPeekAtLastError();
        if (e != cudaSuccess)
            return _fc3d_fail(msg, FC3D_ERROR_CUDA, "an earlier CUDA error is pending (nothing launched): %s",
                              cudaGetErrorString(e));
    }
    switch (plan->desc.dtype) {
    case FC3D_DTYPE_F16: return _fc3d_run_typed<__half>(plan, args, msg);
    case FC3D_DTYPE_BF16: return _fc3d_run_typed<__nv_bfloat16>(plan, args, msg);
    default: return _fc3d_run_typed<float>(plan, args, msg);
    }
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
