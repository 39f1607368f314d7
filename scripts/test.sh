#!/bin/sh
# Every test: install dependencies (with MuJoCo 2.2.2 for the reference cross-checks), build
# (Release, warnings on, MPI on) and run the whole CTest suite: unit, reference, install.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh --with-reference
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_WITH_MPI=ON
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
