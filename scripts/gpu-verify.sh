#!/usr/bin/env bash
# Verification on a machine with an NVIDIA GPU (the lent H200), from a headless build carried
# there: GPU trace == CPU trace and the production kernels (pplab_gpu_tests, which also runs
# compute-sanitizer's racecheck, synccheck and memcheck over the untraced kernels and expects
# racecheck to flag the planted barrier-less tree), then whatever timing runs are asked for.
#   scripts/gpu-verify.sh BUILD_DIR OUT_DIR [tests] [explore] [bench]
# Each part writes its log to OUT_DIR as it goes, so a part cut short still reports.
set -uo pipefail
build=${1:?build folder}
out=${2:?output folder}
shift 2
export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/device.txt" 2>&1
for part in "$@"; do
  start=$(date +%s)
  case "$part" in
    tests)
      timeout 400 "$build/tests/gpu/pplab_gpu_tests" --gtest_brief=1 >"$out/gpu-tests.log" 2>&1
      echo "gpu tests: exit $? in $(($(date +%s) - start)) s" >>"$out/summary.txt" ;;
    explore)
      timeout 150 "$build/bench/pplab_explore_scan" >"$out/explore-scan.log" 2>&1
      echo "explore: exit $? in $(($(date +%s) - start)) s" >>"$out/summary.txt" ;;
    bench)
      timeout 300 "$build/app/pplab" bench ${PPLAB_BENCH_IMAGE:+--image "$PPLAB_BENCH_IMAGE"} --json "$out/bench.json" >"$out/bench.log" 2>&1
      echo "bench: exit $? in $(($(date +%s) - start)) s" >>"$out/summary.txt" ;;
    *) echo "unknown part $part" >>"$out/summary.txt" ;;
  esac
done
cat "$out/summary.txt"
