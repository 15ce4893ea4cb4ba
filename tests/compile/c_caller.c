/* A C translation unit that calls the library implemented in impl_a.cu: C linkage across the two. */
#include <stdio.h>
#include "fusedconv3d.cuh"

int main(void) {
    fc3d_plan_desc d = {0};
    fc3d_plan p;
    d.conv.batch = 2;
    d.conv.in_channels = 4;
    d.conv.out_channels = 6;
    d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 3;
    d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 2;
    if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS) {
        printf("%s\n", p.message);
        return 1;
    }
    return p.y_dims[2] == 4 ? 0 : 1;
}
