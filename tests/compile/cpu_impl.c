/* The CPU reference with its implementation, compiled as C99 and C++ with every warning an error. */
#define FUSEDCONV3D_CPU_IMPLEMENTATION
#include <string.h>

#include "fusedconv3d_cpu.h"

int cpu_shape(void);
int cpu_shape(void) {
    fc3d_plan_desc d;
    int64_t y[5];
    memset(&d, 0, sizeof d); /* = {0}, without C++'s missing-initializer warning */
    d.conv.batch = d.conv.in_channels = d.conv.out_channels = 1;
    d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 2;
    d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 2;
    return fc3d_cpu_output_dims(&d, y, NULL);
}
