/* fusedconv3d_cpu.h - plain C99 reference implementation of fusedconv3d plans, in double.

   Do this:
       #define FUSEDCONV3D_CPU_IMPLEMENTATION
   before you include this file in *one* C or C++ file. Define FUSEDCONV3D_CPU_STATIC as well to
   make every symbol file-local.

   This is the oracle the GPU library is tested against. It shares only the *declarations* of
   fusedconv3d.cuh (the desc types, so one desc drives both), and none of its code: it computes the
   output shape, the defaults and every op itself, straight from PyTorch's definitions, with every
   sum accumulated in double. It is written for clarity, not speed.

   Conventions:
   - Every tensor is double, contiguous, in the *logical* NCDHW order: desc->layout, desc->dtype and
     desc->math are ignored (layouts and element types are storage questions for the GPU side).
   - x: N x C_in x D x H x W.  weight: C_in x C_out/groups x kD x kH x kW.  bias: C_out or NULL.
   - y: the plan's output: N x C_out x Do x Ho x Wo, or N x C_out x 1 x 1 x 1 after a pool.
   - ops[i] carries the same tensors as fc3d_op_tensors, in double; running statistics are updated
     in place exactly as PyTorch does (momentum, unbiased variance).
   - The desc must be valid (fc3d_plan_init accepts it); fc3d_cpu_run checks only what it needs to
     stay memory-safe and returns -1 otherwise.
*/
#ifndef FUSEDCONV3D_CPU_H
#define FUSEDCONV3D_CPU_H

#include "fusedconv3d.cuh"

#if defined(FUSEDCONV3D_CPU_STATIC)
#define FC3D_CPU_API static
#else
#define FC3D_CPU_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fc3d_cpu_op_tensors {
    const double* weight;
    const double* bias;
    double* running_mean;
    double* running_var;
    double* save_mean;
    double* save_invstd;
} fc3d_cpu_op_tensors;

/* Logical dims N, C, D, H, W of the plan's output y (after a pool: D = H = W = 1) and of the
   convolution output (conv_dims, may be NULL). Returns 0, or -1 if the desc gives no valid shape. */
FC3D_CPU_API int fc3d_cpu_output_dims(const fc3d_plan_desc* desc, int64_t y_dims[5],
                                      int64_t conv_dims[5]);

/* Runs the whole plan: conv_transpose3d then ops[0 .. num_ops-1]. ops may be NULL when no op
   needs a tensor. Returns 0, or -1 (nothing written) if the desc or a needed pointer is bad. */
FC3D_CPU_API int fc3d_cpu_run(const fc3d_plan_desc* desc, const double* x, const double* weight,
                              const double* bias, const fc3d_cpu_op_tensors* ops, double* y);

/* Storage helpers for tests: IEEE binary16 and bfloat16 bits <-> double (round to nearest even). */
FC3D_CPU_API double fc3d_cpu_f16_to_double(uint16_t bits);
FC3D_CPU_API uint16_t fc3d_cpu_double_to_f16(double v);
FC3D_CPU_API double fc3d_cpu_bf16_to_double(uint16_t bits);
FC3D_CPU_API uint16_t fc3d_cpu_double_to_bf16(double v);

#ifdef __cplusplus
}
#endif

#endif /* FUSEDCONV3D_CPU_H */
