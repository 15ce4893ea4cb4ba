// bench/standalone_mma.h - device helpers the row-kernel measurements share (bench/l15_rows.cu,
// bench/l34_rows.cu; no library code): TF32 rounding as the library's TF32 mode rounds (nearest,
// ties to even, 10 mantissa bits), cp.async, ldmatrix and mma.sync m16n8k16 on f16 operands.
#pragma once
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__host__ __device__ inline float tf32(float v) {
    uint32_t r;
    memcpy(&r, &v, 4);
    if ((r & 0x7f800000u) != 0x7f800000u) r = (r + 0xfffu + ((r >> 13) & 1u)) & 0xffffe000u;
    float f;
    memcpy(&f, &r, 4);
    return f;
}

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp16(uint32_t s, const void* g) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }
__device__ __forceinline__ void cp_wait_but_last() { asm volatile("cp.async.wait_group 1;\n" ::: "memory"); }
// four 8x8 b16 matrices: lane l gives the address of row l & 7 of matrix l >> 3 and receives, of
// each matrix i in r[i], row l / 4, elements 2 (l % 4) and + 1
__device__ __forceinline__ void ldm4(uint32_t a, uint32_t (&r)[4]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a)
                 : "memory");
}
// d = a b + c, m16n8k16, f16 operands, FP32 accumulation
__device__ __forceinline__ void mma16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1, const float (&c)[4]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(c[0]), "f"(c[1]), "f"(c[2]),
                   "f"(c[3]));
}
