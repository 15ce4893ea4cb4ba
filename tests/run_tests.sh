#!/usr/bin/env bash
# Runs every test of `make test` and ends with the line "<N> passed, <M> failed".
# Compile checks count one each; each test program counts its own checks (its closing line).
# Logs: build/logs/<name>.log.
set -u
cd "$(dirname "$0")/.."
B=build
L=$B/logs
mkdir -p "$L"
: "${NVCC:=nvcc}" "${CC:=gcc}" "${CLANG:=}" "${CXX:=g++}" "${NVFLAGS:=-std=c++17 -O2 -I. -Itests}"
: "${ARCH:=-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90}"
passed=0
failed=0

# check NAME COMMAND...: one check that passes when COMMAND exits 0.
check() {
    local name=$1
    shift
    if "$@" >"$L/$name.log" 2>&1; then
        echo "ok $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name (log: $L/$name.log)"
        sed 's/^/    /' "$L/$name.log" | tail -n 20
        failed=$((failed + 1))
    fi
}

# suite NAME PROGRAM ARGS...: a test program; its closing "N passed, M failed" line is added in.
# A program that exits non-zero without counting a failure (a crash) counts as one failure.
suite() {
    local name=$1 rc p f line
    shift
    echo "== $name: $*"
    "$@" >"$L/$name.log" 2>&1
    rc=$?
    grep -E '^(FAIL|# )' "$L/$name.log" | head -n 60
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$L/$name.log" | tail -n 1)
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    [ -n "$line" ] || { p=0; f=0; }
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $name exited with status $rc (log: $L/$name.log)"
        tail -n 5 "$L/$name.log" | sed 's/^/    /'
        f=1
    fi
    echo "   $name: $p passed, $f failed"
    passed=$((passed + p))
    failed=$((failed + f))
}

echo "== compile checks"
W="-Wall -Wextra -pedantic -Werror -I. -fsyntax-only"
check decls_c99_gcc "$CC" -std=c99 $W -x c tests/compile/decls.c
check decls_cxx_gxx "$CXX" -std=c++11 $W -x c++ tests/compile/decls.c
check cpu_c99_gcc "$CC" -std=c99 $W -x c tests/compile/cpu_impl.c
check cpu_cxx_gxx "$CXX" -std=c++11 $W -x c++ tests/compile/cpu_impl.c
if [ -n "$CLANG" ]; then
    check decls_c99_clang "$CLANG" -std=c99 $W -x c tests/compile/decls.c
    check cpu_c99_clang "$CLANG" -std=c99 $W -x c tests/compile/cpu_impl.c
elif [ -n "${CI:-}" ]; then
    echo "FAIL clang not found: CI runs the C99 checks with gcc and clang"
    failed=$((failed + 1))
else
    echo "clang checks skipped: clang not installed here (CI installs it and runs them)"
fi
check nvcc_sm80_werror "$NVCC" -std=c++17 -I. -gencode arch=compute_80,code=sm_80 --Werror all-warnings \
    -Xcompiler -Wall,-Wextra -c tests/compile/impl_a.cu -o "$B/impl_a_sm80.o"
check nvcc_sm90_werror "$NVCC" -std=c++17 -I. -gencode arch=compute_90,code=sm_90 --Werror all-warnings \
    -Xcompiler -Wall,-Wextra -c tests/compile/impl_a.cu -o "$B/impl_a_sm90.o"
check static_two_units_link "$NVCC" -std=c++17 -I. $ARCH --Werror all-warnings -DFUSEDCONV3D_STATIC \
    tests/compile/impl_a.cu tests/compile/impl_b.cu -o "$B/static_two_units"
check static_two_units_run "$B/static_two_units"
check c_caller_link bash -c "'$CC' -std=c99 -Wall -Wextra -pedantic -Werror -I. -c tests/compile/c_caller.c -o '$B/c_caller.o' \
    && '$NVCC' -std=c++17 -I. $ARCH --Werror all-warnings '$B/c_caller.o' tests/compile/impl_a.cu -o '$B/c_caller' \
    && '$B/c_caller'"

suite plan "$B/test_plan"
suite cpu_golden "$B/test_cpu_golden" tests/golden/data

PYTHON=${PYTHON:-python3}
if "$B/gpu_probe" >"$L/gpu_probe.log" 2>&1; then
    cat "$L/gpu_probe.log"
    suite gpu "$B/test_gpu" tests/golden/data
    if "$PYTHON" -c "import torch; assert torch.cuda.is_available()" >/dev/null 2>&1; then
        suite bridge "$PYTHON" tests/test_torch_bridge.py
    else
        echo "PyTorch bridge tests skipped: $PYTHON has no CUDA-enabled torch"
    fi
else
    echo "GPU tests skipped: no GPU ($(cat "$L/gpu_probe.log"))"
    echo "PyTorch bridge tests skipped: no GPU"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
