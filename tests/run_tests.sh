#!/usr/bin/env bash
# Runs every test of `make test` and ends with the line "<N> passed, <M> failed, <K> skipped".
# Compile checks count one each; each test program counts its own checks (its closing line).
# K counts the suites and check groups that could not run here (no GPU, no CUDA-enabled PyTorch,
# no clang outside CI, no UBSan in the host compiler); each prints its own "... skipped: why" line.
# Logs: build/logs/<name>.log.
set -u
cd "$(dirname "$0")/.." || exit 1
B=build
L=$B/logs
mkdir -p "$L"
: "${NVCC:=nvcc}" "${CC:=gcc}" "${CLANG:=}" "${CXX:=g++}" "${NVFLAGS:=-std=c++17 -O2 -I. -Itests}"
: "${ARCH:=-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a}"
passed=0
failed=0
skipped=0

# skip WHAT WHY: a suite or group of checks that cannot run here.
skip() {
    echo "$1 skipped: $2"
    skipped=$((skipped + 1))
}

# check NAME COMMAND...: one check that passes when COMMAND exits 0.
# report NAME OK: counts a finished check (OK = 0 means it passed) and shows a failure's log tail;
# both return 0 for a pass, 1 for a failure
report() {
    if [ "$2" = 0 ]; then
        echo "ok $1"
        passed=$((passed + 1))
        return 0
    fi
    echo "FAIL $1 (log: $L/$1.log)"
    sed 's/^/    /' "$L/$1.log" | tail -n 20
    failed=$((failed + 1))
    return 1
}

check() {
    local name=$1
    shift
    "$@" >"$L/$name.log" 2>&1
    report "$name" $?
}

# background NAME COMMAND...: starts a check that takes long (an nvcc build of the implementation)
# now; `collect NAME` waits for it and counts it like `check`. The builds run side by side, at most
# JOBS at a time (default: the number of cores, fewer where the available memory holds fewer builds
# at 2.5 GiB each: one full build holds up to 2 GiB).
if [ -z "${JOBS:-}" ]; then
    JOBS=$(nproc 2>/dev/null || echo 2)
    mem_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
    if [ -n "$mem_kib" ] && [ "$((mem_kib / 2621440))" -lt "$JOBS" ]; then
        JOBS=$((mem_kib / 2621440))
    fi
    [ "$JOBS" -ge 1 ] || JOBS=1
fi
background() {
    local name=$1
    shift
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    rm -f "$L/$name.rc"
    ( "$@" >"$L/$name.log" 2>&1; echo $? >"$L/$name.rc" ) &
    eval "pid_$name=$!"
}
collect() {
    local name=$1 pid
    eval "pid=\$pid_$name"
    wait "$pid" 2>/dev/null
    report "$name" "$(cat "$L/$name.rc" 2>/dev/null)"
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
    skip "clang checks" "clang not installed here (CI installs it and runs them)"
fi
# Warnings as errors per architecture, cicc and ptxas at full optimization as the GPU programs build
# (sm_75 has no tensor-core engine code: its kernels compile to a trap the run never reaches). The
# longest first: sm_90a's ptxas alone runs over ten minutes on one core here.
for sm in 90a 90 80 75; do
    background "nvcc_sm${sm}_werror" "$NVCC" -std=c++17 -I. -gencode "arch=compute_$sm,code=sm_$sm" --Werror all-warnings \
        -Xcompiler -Wall,-Wextra -c tests/compile/impl_a.cu -o "$B/impl_a_sm$sm.o"
done
# The link checks, the snippet and the GPU programs without a GPU need the device code to build, not
# to run: unoptimized PTX for one architecture (-Xcicc -O0, no ptxas), under a minute each.
PTX_ARCH="-gencode arch=compute_90a,code=compute_90a -Xcicc -O0"
# shellcheck disable=SC2086
background static_two_units_link "$NVCC" -std=c++17 -I. $PTX_ARCH --Werror all-warnings -DFUSEDCONV3D_STATIC \
    tests/compile/impl_a.cu tests/compile/impl_b.cu -o "$B/static_two_units"

# The usage snippet of README.md (the fenced block after the readme-snippet marker) compiles as written.
readme_snippet() {
    awk '/<!-- readme-snippet/ { marked = 1; next }
         marked == 1 && /^```/ { marked = 2; next }
         marked == 2 && /^```/ { exit }
         marked == 2 { print }' README.md >"$B/readme_snippet.cu"
    if [ ! -s "$B/readme_snippet.cu" ]; then
        echo "README.md has no fenced block after a <!-- readme-snippet --> marker"
        return 1
    fi
    # shellcheck disable=SC2086
    "$NVCC" -std=c++17 -I. $PTX_ARCH --Werror all-warnings -Xcompiler -Wall,-Wextra -c "$B/readme_snippet.cu" \
        -o "$B/readme_snippet.o"
}
background readme_snippet readme_snippet

# The GPU programs (tests, examples, bench tools): with a GPU, `make all` builds them in full before
# the GPU suites run; without one they are compiled here, each its own check, as PTX only.
gpu_programs="tests/test_gpu.cu bench/conv_alone.cu bench/chain_loops.cu $(echo examples/*.cu)"
have_gpu=0
"$B/gpu_probe" >"$L/gpu_probe.log" 2>&1 && have_gpu=1
if [ "$have_gpu" = 0 ]; then
    mkdir -p "$B/ptx_only"
    for src in $gpu_programs; do
        prog=$(basename "$src" .cu)
        # shellcheck disable=SC2086
        background "ptx_only_$prog" "$NVCC" $NVFLAGS $PTX_ARCH "$src" -o "$B/ptx_only/$prog"
    done
fi

collect static_two_units_link
check static_two_units_run "$B/static_two_units"
collect readme_snippet
collect nvcc_sm90a_werror
collect nvcc_sm90_werror
# C linkage: a C caller linked with the sm_90 object above.
rm -f "$B/c_caller"
check c_caller_link bash -c "'$CC' -std=c99 -Wall -Wextra -pedantic -Werror -I. -c tests/compile/c_caller.c -o '$B/c_caller.o' \
    && '$NVCC' '$B/c_caller.o' '$B/impl_a_sm90.o' -o '$B/c_caller' && '$B/c_caller'"
collect nvcc_sm80_werror
collect nvcc_sm75_werror
# Out-of-range enum values passed by value, from C (see the file); linked with the sm_80 object above.
rm -f "$B/c_enum_args"
check c_enum_args_link bash -c "'$CC' -std=c99 -Wall -Wextra -pedantic -Werror -I. -Itests -c tests/c_enum_args.c \
    -o '$B/c_enum_args.o' && '$NVCC' '$B/c_enum_args.o' '$B/impl_a_sm80.o' -o '$B/c_enum_args'"
[ -x "$B/c_enum_args" ] && suite c_enum_args "$B/c_enum_args"


suite plan "$B/test_plan"
suite cpu_golden "$B/test_cpu_golden" tests/golden/data
# bench/bench.py's timing and bookkeeping on a stand-in for torch (the bench itself needs a GPU)
if command -v "${PYTHON:-python3}" >/dev/null 2>&1; then
    suite bench_logic "${PYTHON:-python3}" tests/test_bench_logic.py
else
    skip "bench_logic (bench/bench.py on a stand-in for torch)" "no ${PYTHON:-python3} on PATH"
fi

# test_plan again, built with the host compiler's UndefinedBehaviorSanitizer: a finding stops the
# program at once (no recovery) with UBSan's exit status, which the suite counts as a failure. A tiny
# program asks first whether the host compiler builds and links with it (nvcc hands -Xcompiler flags
# to the link too; where it does not, libubsan is linked by name), and whether a finding stops it.
UBSAN_FLAGS="-Xcompiler -fsanitize=undefined,-fno-sanitize-recover=all,-fno-omit-frame-pointer"
UBSAN_ENV="UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86"
UBSAN_LIBS=
ubsan_probe() {
    printf '%s\n' '#include <stdio.h>' \
        'int main(int argc, char** argv) { int v = 0x7fffffff; (void)argv; v += argc - 1; printf("%d\n", v); return 0; }' \
        >"$B/ubsan_probe.cu"
    rm -f "$B/ubsan_probe"
    # shellcheck disable=SC2086
    "$NVCC" -std=c++17 $UBSAN_FLAGS "$B/ubsan_probe.cu" -o "$B/ubsan_probe" && return 0
    UBSAN_LIBS=-lubsan
    # shellcheck disable=SC2086
    "$NVCC" -std=c++17 $UBSAN_FLAGS "$B/ubsan_probe.cu" -o "$B/ubsan_probe" $UBSAN_LIBS
}
if ! ubsan_probe >"$L/ubsan_probe.log" 2>&1; then
    why=$(grep -m1 -iE 'error|fatal|unrecognized|unknown|not supported' "$L/ubsan_probe.log" || head -n 1 "$L/ubsan_probe.log")
    skip "plan_ubsan (test_plan under UBSan)" "the host compiler cannot build with -fsanitize=undefined: $why (log: $L/ubsan_probe.log)"
elif ! env "$UBSAN_ENV" "$B/ubsan_probe" >/dev/null 2>&1 ||
    env "$UBSAN_ENV" "$B/ubsan_probe" overflow >"$L/ubsan_probe.log" 2>&1 ||
    ! grep -q "runtime error:" "$L/ubsan_probe.log"; then
    echo "FAIL plan_ubsan: a -fsanitize=undefined build does not stop on a finding (log: $L/ubsan_probe.log)"
    failed=$((failed + 1))
else
    # UBSan checks the host code: the device code goes in as unoptimized PTX for one architecture,
    # as in build/test_plan (no ptxas run; test_plan's checks all come before any launch)
    rm -f "$B/test_plan_ubsan"
    # shellcheck disable=SC2086
    check plan_ubsan_build "$NVCC" $NVFLAGS -O1 -g $UBSAN_FLAGS $PTX_ARCH tests/test_plan.cu \
        -o "$B/test_plan_ubsan" $UBSAN_LIBS
    if [ -x "$B/test_plan_ubsan" ]; then
        suite plan_ubsan env "$UBSAN_ENV" "$B/test_plan_ubsan"
        # a finding reads "<file>:<line>:<col>: runtime error: <what>", then the stack
        grep -A 6 "runtime error:" "$L/plan_ubsan.log" | head -n 14 | sed 's/^/    /'
    fi
fi

PYTHON=${PYTHON:-python3}
if [ "$have_gpu" = 1 ]; then
    cat "$L/gpu_probe.log"
    if ! check build_gpu_programs "${MAKE:-make}" --no-print-directory -j"$JOBS" all; then
        echo "# the GPU suites did not run: building the GPU programs failed (an older build/test_gpu is not run)"
    else
        suite gpu "$B/test_gpu" tests/golden/data
        # the whole suite again with every case asking for one main loop (mma.sync, the tiled wgmma
        # loop, the haloed loop; a case the loop cannot take falls back to the planner's choice)
        suite gpu_loop_mma_sync "$B/test_gpu" --loop 1 tests/golden/data
        suite gpu_loop_wgmma "$B/test_gpu" --loop 2 tests/golden/data
        suite gpu_loop_halo "$B/test_gpu" --loop 3 tests/golden/data
        if "$PYTHON" -c "import torch; assert torch.cuda.is_available()" >/dev/null 2>&1; then
            # in the environment make was started with (the Makefile's FC3D_BRIDGE_UNSET): the
            # extension's build file holds CC and CXX, and the same build is reused outside make
            unset_args=()
            for v in ${FC3D_BRIDGE_UNSET:-}; do unset_args+=(-u "$v"); done
            suite bridge env ${unset_args[@]+"${unset_args[@]}"} "$PYTHON" tests/test_torch_bridge.py
        else
            skip "PyTorch bridge tests" "$PYTHON has no CUDA-enabled torch"
        fi
    fi
else
    for src in $gpu_programs; do collect "ptx_only_$(basename "$src" .cu)"; done
    echo "# no GPU: the GPU programs above were compiled to PTX only; \`make all\` builds them in full"
    skip "GPU tests" "$(head -n 1 "$L/gpu_probe.log")"
    skip "PyTorch bridge tests" "no GPU"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
