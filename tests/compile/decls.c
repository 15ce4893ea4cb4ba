/* Compiled as C99 (and C++) with every warning an error: the declarations of fusedconv3d.cuh must
   parse as plain C, and a C program must be able to fill a desc and call the API. */
#include <string.h>

#include "fusedconv3d.cuh"

int use_api(void);
int use_api(void) {
    fc3d_plan_desc d;
    fc3d_plan p;
    fc3d_run_args a;
    fc3d_message m;
    memset(&d, 0, sizeof d); /* = {0}, without C++'s missing-initializer warning */
    memset(&a, 0, sizeof a);
    d.conv.batch = 1;
    d.conv.in_channels = d.conv.out_channels = 1;
    d.conv.in_size[0] = d.conv.in_size[1] = d.conv.in_size[2] = 1;
    d.conv.kernel[0] = d.conv.kernel[1] = d.conv.kernel[2] = 1;
    d.ops[0].kind = FC3D_OP_RELU;
    d.num_ops = 1;
    if (fc3d_plan_init(&p, &d) != FC3D_SUCCESS) return 1;
    (void)fc3d_plan_describe(&p, NULL, 0);
    return fc3d_plan_run(&p, &a, &m) == FC3D_SUCCESS ? 0 : (int)fc3d_result_string(p.result)[0];
}
