#!/bin/sh
# The main job: install dependencies, build Gauss (Release) and simulate a shipped model,
# printing a summary and writing the trajectory to build/pile.csv.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3 -DGAUSS_BUILD_TESTS=OFF -DGAUSS_BUILD_BENCH=OFF
cmake --build build -j "$(nproc)"
build/bin/gauss run models/pile.xml --duration 6 --every 500 --out build/pile.csv
