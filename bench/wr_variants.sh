#!/usr/bin/env bash
# bench/wr_variants.sh - the warp-row loop's storing-pass variants on L2/15, side by side (GPU to run).
#   bash bench/wr_variants.sh build   builds build/wrv/ca_<v> (bench/conv_alone.cu) and build/wrv/l215_<v>
#                                     (examples/l2_15_bn_submean.cu) for each variant, sm_90a only
#   bash bench/wr_variants.sh run     each variant's output against the direct engine, then the convolution
#                                     alone (median of 20, L2 flushed) and the chain, alternating, two rounds
# Variants (macros of fusedconv3d.cuh's >>warp-row-loop): ntg4 (a row's taps over its 32 channels at
# once, two plane buffers, 16 staged channels, no programmatic dependent launch: main's loop before
# them), ntg2 (16 channels at a time), units (ntg2 with units of two segments on three buffers, 8 staged
# channels), units16 (units with 16 staged channels and PDL: 183 KB of shared memory, more than an
# A100 grants), default (the header's own settings: ntg2 with PDL). VARIANTS="..." picks some.
set -u
cd "$(dirname "$0")/.." || exit 1
NVCC=${NVCC:-nvcc}
O=build/wrv
V=${VARIANTS:-"ntg4 ntg2 units16 default"}
flags() {
    case "$1" in
    ntg4) echo "-D_FC3D_WR_NTG=4 -D_FC3D_WR_NB_STORE=2 -D_FC3D_WR_STCH=16 -D_FC3D_PDL=0" ;;
    ntg2) echo "-D_FC3D_WR_NTG=2 -D_FC3D_WR_NB_STORE=2 -D_FC3D_WR_STCH=16 -D_FC3D_PDL=0" ;;
    units) echo "-D_FC3D_WR_NTG=2 -D_FC3D_WR_NB_STORE=3 -D_FC3D_WR_STCH=8 -D_FC3D_PDL=0" ;;
    units16) echo "-D_FC3D_WR_NTG=2 -D_FC3D_WR_NB_STORE=3 -D_FC3D_WR_STCH=16 -D_FC3D_PDL=1" ;;
    default) echo "" ;;
    *) echo "unknown variant $1" >&2; exit 2 ;;
    esac
}
case "${1:-}" in
build)
    mkdir -p "$O"
    for v in $V; do
        f=$(flags "$v") || exit 2
        for p in "ca:bench/conv_alone.cu" "l215:examples/l2_15_bn_submean.cu"; do
            "$NVCC" -std=c++17 -O2 -I. -Itests -gencode arch=compute_90a,code=sm_90a $f "${p#*:}" -o "$O/${p%%:*}_$v" || exit 1
        done
    done ;;
run)
    for v in $V; do echo "-- $v"; "$O/ca_$v" 3 L2/15 tf32,half 1 | tail -n 2; done
    for r in 1 2; do
        for v in $V; do echo "-- $v, round $r"; "$O/ca_$v" 20 L2/15 tf32,half 0 | grep L2/15; done
        for v in $V; do for m in tf32 half; do echo "-- $v $m, round $r"; "$O/l215_$v" --$m --runs 20 | grep RESULT; done; done
    done ;;
*) sed -n '2,9p' "$0"; exit 2 ;;
esac
