#!/bin/sh
# Installs a Gauss build tree into a scratch prefix and checks that the installed SDK works for a
# third party: the expected files are there, the installed `gauss` runs from that prefix, a
# standalone CMake project finds the package with find_package(gauss), builds a plugin with
# gauss_add_plugin() and a program with gauss::core, and the program loads the plugin through
# GAUSS_PLUGIN_PATH. Any failing step fails the test.
#
# usage: install_test.sh <build dir> <out_of_tree_plugin source dir> <scratch dir> <libdir> [cmake]
set -eu

build=$1
project=$2
work=$3
libdir=$4
cmake=${5:-cmake}
prefix=$work/prefix

fail() {
  echo "install test FAILED: $*" >&2
  exit 1
}

# Prints a log file and fails, for steps whose output is only interesting when they fail.
fail_with_log() {
  cat "$2" >&2
  fail "$1 (log above: $2)"
}

rm -rf "$work"
mkdir -p "$work"

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  fail_with_log "cmake --install failed (is the whole project built?)" "$work/install.log"

for f in \
  bin/gauss \
  "$libdir/libgauss.so" \
  include/gauss/plugin.h \
  include/gauss/registry.h \
  include/gauss/engine.h \
  "$libdir/cmake/gauss/gaussConfig.cmake" \
  "$libdir/cmake/gauss/gaussConfigVersion.cmake" \
  "$libdir/cmake/gauss/gaussTargets.cmake" \
  "$libdir/cmake/gauss/GaussPlugin.cmake"; do
  [ -e "$prefix/$f" ] || fail "not installed: $prefix/$f"
done
plugin_dir=$prefix/$libdir/gauss/plugins
ls "$plugin_dir"/*.so >/dev/null 2>&1 || fail "no plugin installed in $plugin_dir"

echo "== configure $project against $prefix"
# The package registry is off so that only the scratch prefix can provide the package.
"$cmake" -S "$project" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  >"$work/configure.log" 2>&1 || fail_with_log "configuring the out-of-tree project failed" "$work/configure.log"
found=$(sed -n 's/^gauss_DIR:PATH=//p' "$work/build/CMakeCache.txt")
[ "$found" = "$prefix/$libdir/cmake/gauss" ] ||
  fail "find_package(gauss) used '$found', expected $prefix/$libdir/cmake/gauss"

echo "== build the out-of-tree plugin and check program"
"$cmake" --build "$work/build" -j2 >"$work/build.log" 2>&1 ||
  fail_with_log "building the out-of-tree project failed" "$work/build.log"
[ -f "$work/build/plugins/libgauss_oot_scaled.so" ] ||
  fail "gauss_add_plugin() did not produce $work/build/plugins/libgauss_oot_scaled.so"

echo "== gauss_add_plugin() compiles with the Release flags when the consumer sets no build type"
"$cmake" -S "$project" -B "$work/build-no-type" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  >"$work/configure-no-type.log" 2>&1 ||
  fail_with_log "configuring without a build type failed" "$work/configure-no-type.log"
release_flags=$(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:STRING=//p' "$work/build-no-type/CMakeCache.txt")
[ -n "$release_flags" ] || fail "no CMAKE_CXX_FLAGS_RELEASE in the consumer's cache"
plugin_command=$(grep -F '"command"' "$work/build-no-type/compile_commands.json" | grep -F scaled_actuator.cc)
case "$plugin_command" in
  *"$release_flags"*) ;;
  *) fail "the plugin compiles without '$release_flags' when no build type is set: $plugin_command" ;;
esac

echo "== run the installed gauss program from the scratch prefix"
"$prefix/bin/gauss" plugins >"$work/gauss_plugins.log" 2>&1 ||
  fail_with_log "the installed '$prefix/bin/gauss plugins' failed" "$work/gauss_plugins.log"
grep -qF "$plugin_dir" "$work/gauss_plugins.log" ||
  fail_with_log "'gauss plugins' of the install does not search $plugin_dir" "$work/gauss_plugins.log"

echo "== run the check program"
GAUSS_PLUGIN_PATH="$work/build/plugins" "$work/build/check_plugin" "$plugin_dir" ||
  fail "check_plugin failed"
echo "install test passed"
