#!/bin/sh
# Gauss vs MuJoCo 2.2.2 simulation speed, side by side: for each model, `gauss bench` (the
# Gauss build given by GAUSS, default build/bin/gauss) and `mjref bench` (the shared MuJoCo
# reference tool, ../shared/tools/mjref; MuJoCo is never linked into Gauss).
# Both run the model's own options (integrator, solver, timestep) from mj_resetData / Reset
# with zero controls, R repeats of N steps each, and report the median steps per second.
#
# usage: scripts/bench_vs_mujoco.sh [--steps N] [--repeat R] [MODEL.xml...]
#   default models: models/*.xml and MuJoCo's humanoid.xml and humanoid100.xml
# example:
#   GAUSS=build/bin/gauss scripts/bench_vs_mujoco.sh --steps 2000 models/damped_chain.xml
set -eu
cd "$(dirname "$0")/.."

steps=2000
repeat=5
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    -*) echo "bench_vs_mujoco.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -eq 0 ]; then
  set -- models/*.xml
  for m in humanoid/humanoid.xml humanoid100/humanoid100.xml; do
    [ -f "/usr/share/mujoco/model/$m" ] && set -- "$@" "/usr/share/mujoco/model/$m"
  done
fi

gauss=${GAUSS:-build/bin/gauss}
[ -x "$gauss" ] || { echo "bench_vs_mujoco.sh: no Gauss program at $gauss (set GAUSS=...)" >&2; exit 1; }

# ---------------------------------------------------------------- the MuJoCo side
# `mjref bench` from the shared tools (../shared/tools/mjref, MJREF=... to point elsewhere),
# built with its own build.sh when missing and libmujoco-dev is installed. Gauss never links
# MuJoCo; only tests/reference and this external tool do.
mjref=${MJREF:-../shared/tools/mjref/build/mjref}
if [ ! -x "$mjref" ] && [ -f /usr/include/mujoco/mujoco.h ] && [ -x "$(dirname "$mjref")/../build.sh" ]; then
  (cd "$(dirname "$mjref")/.." && ./build.sh) >/dev/null 2>&1 ||
    echo "bench_vs_mujoco.sh: could not build mjref" >&2
fi
[ -x "$mjref" ] || { echo "bench_vs_mujoco.sh: no mjref at $mjref: Gauss column only" >&2; mjref=""; }

# ---------------------------------------------------------------- the table
printf '%-28s %14s %14s %8s\n' model gauss_steps/s mujoco_steps/s ratio
for model in "$@"; do
  name=$(basename "$model" .xml)
  g=$("$gauss" bench "$model" --steps "$steps" --repeat "$repeat" 2>/dev/null |
      sed -n 's/^steps_per_second=//p')
  [ -n "$g" ] || g="error"
  m="-"
  if [ -n "$mjref" ]; then
    m=$("$mjref" bench "$model" --steps "$steps" --repeat "$repeat" 2>/dev/null |
        sed -n 's/^steps_per_second=//p')
    [ -n "$m" ] || m="error"
  fi
  ratio=$(awk -v g="$g" -v m="$m" 'BEGIN { if (g + 0 > 0 && m + 0 > 0) printf "%.2f", g / m; else print "-" }')
  printf '%-28s %14s %14s %8s\n' "$name" "$g" "$m" "$ratio"
done
echo "(ratio = Gauss / MuJoCo; median of $repeat repeats of $steps steps, zero controls)"
