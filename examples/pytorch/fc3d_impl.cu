// fc3d_impl.cu - the library's implementation for the PyTorch extension (fc3d_ext.cpp holds the
// binding). A translation unit of its own, with no PyTorch header: nvcc compiles the kernels here
// while the host compiler builds the binding from PyTorch's headers, and neither waits for the other.
#define FUSEDCONV3D_IMPLEMENTATION
#include "fusedconv3d.cuh"
