# fusedconv3d - build and test.
#   make               build the tests, examples and tools under build/
#   make test          every test: compile checks, CPU reference vs PyTorch goldens, plan validation
#                      (also under UBSan); with a GPU, builds `all` and runs the GPU tests; without
#                      one, compiles the GPU programs to PTX only and prints a "GPU tests skipped"
#                      line. Ends with "N passed, M failed, K skipped". make -j test builds in
#                      parallel.
#   make test-sanitize compute-sanitizer memcheck, racecheck and synccheck over a subset of the GPU tests
#   make demo          the five reference workloads at full size (GPU), or a small CPU-reference run
#   make goldens       regenerate tests/golden/data from PyTorch (needs python3 with torch)
#   make check-workloads  the PyTorch drop-ins against PyTorch on the five workloads (GPU + torch)
#   make bench         the library against PyTorch on the workloads, one process (GPU + torch): tables
#                      to bench/bench_tables.md, plot to bench/speed.png; ARGS="--quick --only L2/61"
#   make bench-conv    the convolution alone per math mode, timed and checked against the direct
#                      engine, no PyTorch (GPU); ARGS="20 L2/61,L1/77 tf32" (runs, ids, maths)
#   build/chain_loops  L2/34's chain (whole-row tiles) on each main loop, timed and checked against
#                      the direct engine, no PyTorch (GPU); arguments in bench/chain_loops.cu
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),/usr/local/cuda/bin/nvcc)
# CC and CXX given in the environment or on the command line are kept as given; only make's built-in
# defaults are replaced by gcc and g++ where found. PyTorch's extension build reads CC (nvcc's
# -ccbin) and CXX into its build file, so a CC that make changed and exported would make the bridge
# rebuild (minutes) each time it is loaded alternately under make and outside it. For the same
# reason the test runner's bridge suite gets back the environment make was started with
# (FC3D_BRIDGE_UNSET names what make set and the environment did not have).
_FC3D_CC_ORIGIN := $(origin CC)
_FC3D_CXX_ORIGIN := $(origin CXX)
ifeq ($(_FC3D_CC_ORIGIN),default)
CC := $(or $(shell command -v gcc 2>/dev/null),cc)
endif
CLANG ?= $(shell command -v clang 2>/dev/null)
ifeq ($(_FC3D_CXX_ORIGIN),default)
CXX := $(or $(shell command -v g++ 2>/dev/null),c++)
endif
PYTHON ?= python3
# sm_80 (mma.sync) and sm_90a: Hopper's own image, which the runtime loads on an H100/H200 and which
# carries the wgmma main loop (a binary with only -gencode arch=compute_90,code=sm_90 runs mma.sync)
ARCH ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a
# --threads 0: nvcc builds a program's architectures side by side (the same CPU time, half the wall
# time of `make all` where there are cores to spare); --split-compile 0, where this nvcc has it:
# its optimizer and ptxas take a program's functions on every core (the PyTorch extension's sm_90a
# image on a 16-core machine 442 -> 188 s, 194 of 197 kernels the same machine code, README)
ifeq ($(origin SPLIT),undefined)
SPLIT := $(if $(shell $(NVCC) --help 2>/dev/null | grep -e '--split-compile '),--split-compile 0)
endif
NVFLAGS ?= -std=c++17 -O2 -I. -Itests --threads 0 $(SPLIT) --Werror all-warnings -Xcompiler -Wall,-Wextra
# test_plan launches no kernel (every check comes before a launch, or there is no GPU): its device
# code goes in as unoptimized PTX for one architecture, 17 s of build against about 16 minutes of
# CPU time for cicc and ptxas at full optimization on $(ARCH) (6 for sm_80, 10 for sm_90a, on one
# core of a 2-core x86 machine); the compile checks of `make test` build those, one per arch
PLAN_ARCH ?= -gencode arch=compute_80,code=compute_80 -Xcicc -O0
CFLAGS ?= -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I. -Itests
B := build
HEADERS := fusedconv3d.cuh fusedconv3d_cpu.h $(wildcard tests/*.h)
EXAMPLES := $(patsubst examples/%.cu,$(B)/%,$(wildcard examples/*.cu))

.PHONY: all test test-sanitize demo goldens check-workloads bench bench-conv clean
all: $(B)/test_plan $(B)/test_cpu_golden $(B)/test_gpu $(B)/gpu_probe $(B)/conv_alone $(B)/chain_loops $(EXAMPLES)

$(B):
	mkdir -p $(B)

$(B)/test_plan: tests/test_plan.cu $(HEADERS) | $(B)
	$(NVCC) $(NVFLAGS) $(PLAN_ARCH) $< -o $@

$(B)/test_gpu: tests/test_gpu.cu $(HEADERS) | $(B)
	$(NVCC) $(NVFLAGS) $(ARCH) -lineinfo $< -o $@

$(B)/gpu_probe: tests/gpu_probe.cu | $(B)
	$(NVCC) $(NVFLAGS) $(ARCH) $< -o $@

$(B)/conv_alone: bench/conv_alone.cu $(HEADERS) examples/example_common.h | $(B)
	$(NVCC) $(NVFLAGS) $(ARCH) $< -o $@

$(B)/chain_loops: bench/chain_loops.cu $(HEADERS) examples/example_common.h | $(B)
	$(NVCC) $(NVFLAGS) $(ARCH) $< -o $@

$(B)/test_cpu_golden: tests/test_cpu_golden.c $(HEADERS) | $(B)
	$(CC) $(CFLAGS) $< -lm -o $@

$(B)/%: examples/%.cu $(HEADERS) examples/example_common.h | $(B)
	$(NVCC) $(NVFLAGS) $(ARCH) $< -o $@

# the GPU programs are built by run_tests.sh only when the probe finds a GPU (`make all` there)
test: $(B)/test_plan $(B)/test_cpu_golden $(B)/gpu_probe
	+MAKE="$(MAKE)" NVCC="$(NVCC)" CC="$(CC)" CLANG="$(CLANG)" CXX="$(CXX)" ARCH="$(ARCH)" NVFLAGS="$(NVFLAGS)" \
	  FC3D_BRIDGE_UNSET="$(strip $(if $(filter default,$(_FC3D_CC_ORIGIN)),CC) $(if $(filter default,$(_FC3D_CXX_ORIGIN)),CXX))" \
	  bash tests/run_tests.sh

test-sanitize: all
	bash tests/run_sanitize.sh

# the probe first; examples/demo.sh builds the workload programs only when it finds a GPU
demo: $(B)/gpu_probe
	MAKE="$(MAKE)" bash examples/demo.sh

goldens:
	$(PYTHON) tests/golden/make_goldens.py tests/golden/data

check-workloads:
	$(PYTHON) examples/pytorch/check_workloads.py

bench:
	$(PYTHON) bench/bench.py $(ARGS)

bench-conv: $(B)/conv_alone
	$(B)/conv_alone $(ARGS)

clean:
	rm -rf $(B)
