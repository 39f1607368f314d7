#!/bin/sh
# Checks the gauss Python package installed by `cmake --install` (the prefix the CTest fixture
# gauss_installed_sdk installs into, tests/install): files in place, importable from the prefix
# alone, libgauss found through the extension's relative RPATH and the plugins found in the
# prefix's plugin directory.
#
# usage: install_check.sh <prefix> <python dir relative to prefix> <python interpreter>
set -eu
prefix=$1
pydir=$prefix/$2
python=$3

fail() {
  echo "python install check FAILED: $*" >&2
  exit 1
}

ls "$pydir"/gauss/_gauss*.so >/dev/null 2>&1 || fail "no extension module in $pydir/gauss"
for f in __init__.py config.py env.py names.py models/cartpole.xml; do
  [ -e "$pydir/gauss/$f" ] || fail "not installed: $pydir/gauss/$f"
done

cd /  # not the source or build tree
env -u PYTHONPATH -u GAUSS_PLUGIN_PATH PYTHONPATH="$pydir" PYTHONDONTWRITEBYTECODE=1 "$python" - "$prefix" <<'PY' ||
import os, sys
import gauss
prefix = os.path.realpath(sys.argv[1])
assert os.path.realpath(gauss.__file__).startswith(prefix), gauss.__file__
env = gauss.CartPoleEnv()
obs, _ = env.reset(seed=0)
obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
assert obs.shape == (4,) and env.data.time > 0
for p in env.engine.plugins_in_use():
    assert os.path.realpath(p["file"]).startswith(prefix), p
print("installed gauss package works:", gauss.__file__)
PY
  fail "importing and running the installed package"
echo "python install check passed"
