/* fusedconv3d.cuh - 3D transposed convolution fused with its epilogue, for CUDA GPUs.

   Do this:
       #define FUSEDCONV3D_IMPLEMENTATION
   before you include this file in *one* CUDA (.cu) translation unit, compiled by nvcc.
   Every other file - C or C++, nvcc or not - includes it without the define and sees only the
   declarations, which are plain C99.

   Optional defines, before the include that carries the implementation:
       FUSEDCONV3D_STATIC   every public symbol becomes `static` (file-local), so two copies of the
                            library can live in one program; define it wherever you include this file.

   ============================================================================================
   CONTENTS (grep for the marker)
       >>overview        what is computed, in PyTorch terms
       >>quickstart      the calls in order
       >>concepts        descs, defaults, the epilogue chain, passes, workspace, determinism
       >>limits          what is refused, and why
       >>results         result codes and their messages (one X-macro list)
       >>types           enums and descs, each with a table of defaults
       >>api             public functions
       >>implementation  (behind FUSEDCONV3D_IMPLEMENTATION) design note first
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
   fc3d_plan_run enqueues kernels on args.stream and returns without synchronising; it reads
   device properties of the current device. The workspace must not be shared by runs that can
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
    X(FC3D_ERROR_SIZE_OVERFLOW, -3, "a tensor would hold more than 2^53 elements")                    \
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
    X(FC3D_ERROR_ARG_ALIAS, -64, "fc3d_run_args.y must not overlap x, weight, bias or the workspace") \
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
       statistics op) in y; later passes read y back, apply the next piece of the chain and store
       it again. Used whenever y is as large as the convolution output. */
    FC3D_STRATEGY_DIRECT_MATERIALIZE = 1,
    /* Every pass recomputes the convolution; nothing of its size is ever stored. Used when the
       chain ends in a pool, so y is N x C. */
    FC3D_STRATEGY_DIRECT_RECOMPUTE = 2
} fc3d_strategy;

typedef enum fc3d_source {
    FC3D_SOURCE_CONV = 1,  /* the pass computes the convolution from x and weight */
    FC3D_SOURCE_OUTPUT = 2 /* the pass reads back what an earlier pass stored in y */
} fc3d_source;

/* One pass over the output: computes its values from `source`, applies ops[op_begin, op_end),
   stores the result in y if writes_y, and gathers the statistics of that result for
   ops[stat_op] (-1: none). */
typedef struct fc3d_pass {
    fc3d_source source;
    int op_begin;
    int op_end;
    int writes_y;
    int stat_op;
} fc3d_pass;

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
    int64_t op_tensor_elements[FC3D_MAX_OPS]; /* elements of ops[i]'s weight and bias tensors:
                                               C for channel ops, prod(normalized shape) for
                                               LAYERNORM, 0 where the op has none */
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
   overlap of y with the inputs, workspace size); on any error nothing is launched or written.
   Does not synchronise. Running statistics of a training BatchNorm with UPDATE are updated in
   place, once per run.
   plan: host, read (shared by concurrent runs safely).  args: host, read; the tensors it names
   are device memory. message: host, optional (NULL); receives the detail of an error, "" on success.
   Returns FC3D_SUCCESS, FC3D_ERROR_NULL_ARGUMENT, FC3D_ERROR_PLAN_INVALID, one of the
   FC3D_ERROR_ARG_* codes, or FC3D_ERROR_CUDA (a launch failed, or no CUDA device is usable).
   Only in the translation unit compiled by nvcc with the implementation. */
FC3D_API fc3d_result fc3d_plan_run(const fc3d_plan* plan, const fc3d_run_args* args,
                                   fc3d_message* message);

#ifdef __cplusplus
}
#endif

#endif /* FUSEDCONV3D_H */
