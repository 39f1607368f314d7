#!/bin/sh
# The out-of-tree example plugins (examples/plugins: example_jacobi, example_dcmotor and the
# smaller example_explicit_euler, example_sphere_plane, example_kinetic_energy) built
# against the Gauss SDK that the install test (install_test.sh) installed into its scratch
# prefix, loaded through GAUSS_PLUGIN_PATH and used in simulations:
#   - the example project configures with find_package(gauss) from that prefix and builds;
#   - the installed `gauss plugins` lists all five (not refused);
#   - example_demo checks their physics (motor speeds and currents, Jacobi vs Newton, forward
#     Euler's energy growth, the ball resting on the plane, the sensor's kinetic energy);
#   - the installed `gauss run` simulates with each of them from the command line.
# Any failing step fails the test.
#
# usage: examples_test.sh <installed prefix> <examples/plugins dir> <scratch dir> <libdir> [cmake]
set -eu

prefix=$1
project=$2
work=$3
libdir=$4
cmake=${5:-cmake}

fail() {
  echo "examples test FAILED: $*" >&2
  exit 1
}

fail_with_log() {
  cat "$2" >&2
  fail "$1 (log above: $2)"
}

[ -x "$prefix/bin/gauss" ] || fail "no installed Gauss in $prefix (the install test sets it up)"
rm -rf "$work"
mkdir -p "$work"

echo "== configure $project against $prefix"
"$cmake" -S "$project" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  >"$work/configure.log" 2>&1 || fail_with_log "configuring the examples failed" "$work/configure.log"
found=$(sed -n 's/^gauss_DIR:PATH=//p' "$work/build/CMakeCache.txt")
[ "$found" = "$prefix/$libdir/cmake/gauss" ] ||
  fail "find_package(gauss) used '$found', expected $prefix/$libdir/cmake/gauss"

echo "== build the example plugins and example_demo"
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 ||
  fail_with_log "building the examples failed" "$work/build.log"
if grep -q "warning:" "$work/build.log"; then
  fail_with_log "the examples compile with warnings" "$work/build.log"
fi

plugins=$work/build/plugins
export GAUSS_PLUGIN_PATH="$plugins"
gauss=$prefix/bin/gauss

echo "== the installed gauss lists the example plugins"
"$gauss" plugins >"$work/plugins.log" 2>&1 || fail_with_log "gauss plugins failed" "$work/plugins.log"
for p in "solver *example_jacobi" "actuator *example_dcmotor" \
  "integrator *example_explicit_euler" "collider *example_sphere_plane" \
  "sensor *example_kinetic_energy"; do
  grep -q "^$p " "$work/plugins.log" || fail_with_log "'gauss plugins' does not list $p" "$work/plugins.log"
done
if grep -q "example_.*REFUSED" "$work/plugins.log"; then
  fail_with_log "an example plugin is refused" "$work/plugins.log"
fi

echo "== example_demo: the plugins' physics"
box=$prefix/share/gauss/models/sliding_box.xml
"$work/build/example_demo" "$project/models" "$prefix/share/gauss/models" >"$work/demo.log" 2>&1 ||
  fail_with_log "example_demo failed" "$work/demo.log"
cat "$work/demo.log"

echo "== gauss run with the DC motors (6 V for 1 s: the free wheel turns at 20 rad/s)"
printf 'ctrl0,ctrl1\n6,6\n' >"$work/ctrl.csv"
"$gauss" run "$project/models/motor_wheels.xml" --duration 1 --every 2000 \
  --controls "$work/ctrl.csv" --out "$work/motor.csv" >"$work/motor.log" 2>&1 ||
  fail_with_log "gauss run with example_dcmotor failed" "$work/motor.log"
grep -q "actuator example_dcmotor 1.0.0" "$work/motor.log" ||
  fail_with_log "the run did not use example_dcmotor" "$work/motor.log"
# columns: time, qpos0, qpos1, qvel0, qvel1, act0, act1
tail -n 1 "$work/motor.csv" | awk -F, '{ if ($4 < 19.98 || $4 > 20.02 || $5 < 9.98 || $5 > 10.02) exit 1 }' ||
  fail_with_log "final wheel speeds are not 20 and 10 rad/s: $(tail -n 1 "$work/motor.csv")" "$work/motor.log"

echo "== gauss run with the Jacobi solver"
"$gauss" run "$box" --steps 200 --set solver=example_jacobi --set solver.iterations=5000 \
  --set solver.params.omega=1.2 >"$work/jacobi.log" 2>&1 ||
  fail_with_log "gauss run with example_jacobi failed" "$work/jacobi.log"
grep -q "solver example_jacobi 1.0.0" "$work/jacobi.log" ||
  fail_with_log "the run did not use example_jacobi" "$work/jacobi.log"
if "$gauss" run "$box" --steps 1 --set solver=example_jacobi --set solver.params.omega=3 \
  >"$work/omega.log" 2>&1; then
  fail "omega=3 was accepted"
fi
grep -q "omega must be in (0, 2)" "$work/omega.log" ||
  fail_with_log "no clear message for omega=3" "$work/omega.log"
echo "examples test passed"
