#!/usr/bin/env bash
# Installs the dependencies, builds with the `ci` preset (warnings are errors, the window's
# offscreen tests included, CUDA compiled when nvcc is present) and runs every test.
# GPU tests skip, saying why, where no GPU answers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
