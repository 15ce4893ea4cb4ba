/* One of two translation units that each carry the implementation; with FUSEDCONV3D_STATIC the two
   copies are file-local and link side by side. Without it, this unit alone is the library. */
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"
#include "fusedconv3d.cuh" /* a second include must be harmless */

#ifdef FUSEDCONV3D_STATIC
int plan_in_a(void);
int plan_in_a(void) {
    fc3d_plan p;
    return (int)fc3d_plan_init(&p, NULL);
}
#endif
