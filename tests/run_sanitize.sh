#!/usr/bin/env bash
# `make test-sanitize`: compute-sanitizer memcheck, racecheck and synccheck over the --quick subset
# of the GPU tests (every few goldens, 24 random cases, 3 determinism cases; not the pending-error
# test, whose deliberately failing cudaMalloc memcheck would report). Ends with "N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 1
B=build
mkdir -p "$B/logs"
if ! "$B/gpu_probe" >/dev/null 2>&1; then
    echo "GPU tests skipped: no GPU (test-sanitize needs one)"
    echo "0 passed, 0 failed"
    exit 0
fi
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
passed=0
failed=0
for tool in memcheck racecheck synccheck; do
    log="$B/logs/sanitize_$tool.log"
    "$CS" --tool "$tool" --error-exitcode 99 "$B/test_gpu" --quick tests/golden/data >"$log" 2>&1
    rc=$?
    summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)
    tests=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ] && [ -n "$tests" ] && [[ "$tests" == *" 0 failed" ]]; then
        echo "ok sanitize.$tool ($summary; tests: $tests)"
        passed=$((passed + 1))
    else
        echo "FAIL sanitize.$tool: exit $rc ($summary; tests: ${tests:-none}; log: $log)"
        grep -E '=========|^FAIL' "$log" | head -n 30
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
