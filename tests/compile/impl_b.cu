/* The second static copy; main() calls into both. */
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"

int plan_in_a(void);
int main(void) {
    fc3d_plan p;
    return plan_in_a() == (int)fc3d_plan_init(&p, NULL) && plan_in_a() == FC3D_ERROR_NULL_ARGUMENT ? 0 : 1;
}
