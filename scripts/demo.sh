#!/bin/sh
# The main job: install dependencies, build Gauss (Release) and simulate a shipped model,
# printing a summary and writing the trajectory to build/double_pendulum.csv.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_BUILD_TESTS=OFF -DGAUSS_BUILD_BENCH=OFF
cmake --build build -j "$(nproc)"
build/bin/gauss run models/double_pendulum.xml --duration 10 --every 100 --out build/double_pendulum.csv
