/* c_enum_args.c - enum values outside their enum, passed by value from C. In C an enum object holds
   any value of its integer type, so these calls are well-defined here; in C++ (test_plan.cu) making
   such a value is itself undefined, so they are made from this file. Linked with the implementation
   compiled by nvcc; makes no CUDA call. */
#include "fusedconv3d.cuh"
#include "check.h"

#include <limits.h>
#include <string.h>

int main(void) {
    const int bad_dtype[] = {-1, INT_MIN, (int)FC3D_DTYPE_BF16 + 1, 9, INT_MAX};
    const int bad_engine[] = {-1, INT_MIN, (int)FC3D_ENGINE_COUNT_, 99, INT_MAX};
    const int bad_result[] = {12345, 1, -4, -99, INT_MIN, INT_MAX};
    char name[64];
    size_t i;
    for (i = 0; i < sizeof bad_dtype / sizeof bad_dtype[0]; i++) {
        const size_t size = fc3d_dtype_size((fc3d_dtype)bad_dtype[i]);
        snprintf(name, sizeof name, "c_enum.dtype_size_%d", bad_dtype[i]);
        check(size == 0, name, "fc3d_dtype_size(%d) = %zu, want 0", bad_dtype[i], size);
    }
    for (i = 0; i < sizeof bad_engine / sizeof bad_engine[0]; i++) {
        const char* text = fc3d_engine_name((fc3d_engine)bad_engine[i]);
        snprintf(name, sizeof name, "c_enum.engine_name_%d", bad_engine[i]);
        check(text && strcmp(text, "unknown") == 0, name, "fc3d_engine_name(%d) = \"%s\"", bad_engine[i],
              text ? text : "(null)");
    }
    for (i = 0; i < sizeof bad_result / sizeof bad_result[0]; i++) {
        const char* text = fc3d_result_string((fc3d_result)bad_result[i]);
        snprintf(name, sizeof name, "c_enum.result_string_%d", bad_result[i]);
        check(text && strcmp(text, "unknown fc3d_result") == 0, name, "fc3d_result_string(%d) = \"%s\"",
              bad_result[i], text ? text : "(null)");
    }
    check(fc3d_dtype_size(FC3D_DTYPE_F32) == 4 && strcmp(fc3d_engine_name(FC3D_ENGINE_DIRECT), "direct") == 0,
          "c_enum.valid_values", "%s", "a valid value gives the wrong answer");
    return check_summary();
}
