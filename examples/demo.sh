#!/usr/bin/env bash
# demo.sh - `make demo`: the five reference workloads at full size on the GPU, or, without a GPU,
# the CPU reference on a small case. Run from anywhere. Builds what it runs: build/gpu_probe first,
# then the five workload programs only when the probe finds a GPU (through make, so NVCC= and ARCH=
# given to `make demo` apply).
#   DEMO_RUNS=N   timed runs per workload (default 5; the median is reported)
#   DEMO_ARGS=... extra options for every workload program (e.g. --tf32)
# Each program's full output goes to build/logs/demo_<name>.log. Exit status 1 if any workload
# fails verification, crashes or prints no RESULT line.
set -u
cd "$(dirname "$0")/.." || exit 1
B=build
L=$B/logs
mkdir -p "$L"
WORKLOADS="l2_15_bn_submean l2_77_scale_bn_pool l2_34_layernorm_gelu l2_61_relu_groupnorm l1_77_convt"

MAKE=${MAKE:-make}
"$MAKE" --no-print-directory "$B/gpu_probe" >/dev/null || exit 1
if ! "$B/gpu_probe"; then
    echo "no GPU: running the CPU reference on a small case instead"
    "${CC:-gcc}" -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I. examples/cpu_demo.c -lm -o "$B/cpu_demo" || exit 1
    exec "$B/cpu_demo"
fi

targets=()
for w in $WORKLOADS; do targets+=("$B/$w"); done
echo "building the workload programs (make ${targets[*]})"
"$MAKE" -s -k --no-print-directory "${targets[@]}" || echo "demo: building a workload program failed"

failed=0
results=()
for w in $WORKLOADS; do
    wid=$(echo "$w" | sed -E 's|^l([0-9])_([0-9]+)_.*|L\1/\2|') # l2_15_bn_submean -> L2/15
    if [ ! -x "$B/$w" ] || ! "$MAKE" --no-print-directory -q "$B/$w" >/dev/null 2>&1; then
        echo "$w: $B/$w not built or out of date (see the make output above)"
        results+=("RESULT $wid MISSING err=- ms=- tflops=- gbs=-")
        failed=1
        continue
    fi
    echo "== $w (log: $L/demo_$w.log)"
    # shellcheck disable=SC2086
    "$B/$w" --runs "${DEMO_RUNS:-5}" ${DEMO_ARGS:-} >"$L/demo_$w.log" 2>&1
    rc=$?
    line=$(grep '^RESULT ' "$L/demo_$w.log" | tail -n 1)
    if [ -z "$line" ]; then
        line="RESULT $wid CRASH err=- ms=- tflops=- gbs=-"
    fi
    echo "   $line"
    if [ "$rc" -ne 0 ] || [ -z "${line##* FAIL *}" ] || [ -z "${line##* CRASH *}" ]; then
        echo "   $w exited with status $rc; last lines of its log:"
        tail -n 8 "$L/demo_$w.log" | sed 's/^/     /'
        failed=1
    fi
    results+=("$line")
done

echo
printf '%-8s %-9s %-11s %12s %10s %10s\n' workload verified error "time ms" "TFLOP/s" "GB/s"
for line in "${results[@]}"; do
    # RESULT <id> <status> err=<e> ms=<t> tflops=<f> gbs=<g> ...
    read -r _ id status err ms tf gb _ <<<"$line"
    err=${err#err=} ms=${ms#ms=} tf=${tf#tflops=} gb=${gb#gbs=}
    printf '%-8s %-9s %-11s %12s %10s %10s\n' "$id" "$status" "$err" "$ms" "$tf" "$gb"
done
if [ "$failed" -ne 0 ]; then
    echo "demo: at least one workload FAILED"
    exit 1
fi
echo "demo: all workloads verified"
