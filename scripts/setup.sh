#!/bin/sh
# Installs the Debian packages Gauss needs to build and test (run as root, or with sudo
# available). Idempotent: does nothing when everything is already installed.
set -eu
packages="cmake g++ make pkg-config libboost-dev libboost-program-options-dev libeigen3-dev
  libyaml-cpp-dev libtinyxml2-dev libccd-dev libqhull-dev libgtest-dev libbenchmark-dev
  gnuplot-nox pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib
  libopenmpi-dev openmpi-bin libpng-dev"
# gnuplot-nox: `gauss experiment` draws its plots with it (docs/experiments.md)
# pybind11-dev python3-dev python3-numpy: the `gauss` Python package (python/, docs/python.md);
# python3-pytest runs its tests, python3-matplotlib its solver-comparison example
# The viewer's page script is built with node and npm, which the machine image provides
# (docs/viewer.md).
# libopenmpi-dev, openmpi-bin: `mpirun -np R gauss experiment` across ranks (docs/parallel.md)
# libpng-dev: PNG height fields (<hfield file="x.png">, docs/mjcf.md)
if [ "${1:-}" = "--with-reference" ]; then
  # Test-only packages. MuJoCo 2.2.2: only the cross-check tests in tests/reference link it.
  # chromium: the headless browser of the viewer's tests (CTest label "browser").
  packages="$packages libmujoco-dev libmujoco-samples chromium"
fi
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
