#!/bin/sh
# Every test: install dependencies (with MuJoCo 2.2.2 for the reference cross-checks), build
# (Release, warnings on) and run the whole CTest suite: unit, reference, install, docs.
# The options the suite needs are forced, so that a build/ configured before (e.g. by
# scripts/demo.sh, which turns tests off) still builds and runs every test; ctest fails when
# it finds no test instead of passing.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh --with-reference
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_BUILD_TESTS=ON -DGAUSS_BUILD_BENCH=ON \
  -DGAUSS_SANITIZE=OFF
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure --no-tests=error -j "$(nproc)"
