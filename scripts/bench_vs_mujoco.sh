#!/bin/sh
# Gauss vs MuJoCo 2.2.2 simulation speed, side by side: for each model, `gauss bench` (the
# Gauss build given by GAUSS, default build/bin/gauss) and a tiny MuJoCo benchmark compiled
# here under /tmp (only when libmujoco-dev is installed; MuJoCo is never linked into Gauss).
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

# ---------------------------------------------------------------- the MuJoCo side, under /tmp
mjbench=""
if [ -f /usr/include/mujoco/mujoco.h ]; then
  dir=${TMPDIR:-/tmp}/gauss_mjbench
  mkdir -p "$dir"
  cat >"$dir/mjbench.c" <<'CODE'
/* R repeats of (mj_resetData + N x mj_step) with zero controls; prints the median steps/s. */
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int warnings = 0;
static void CountWarning(const char* msg) { (void)msg; ++warnings; }

static int Ascending(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  if (argc != 4) { fprintf(stderr, "usage: mjbench MODEL.xml STEPS REPEAT\n"); return 2; }
  char error[1000] = "";
  mju_user_warning = CountWarning;
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof(error));
  if (!m) { fprintf(stderr, "mjbench: %s\n", error); return 1; }
  mjData* d = mj_makeData(m);
  const long steps = atol(argv[2]);
  const int repeat = atoi(argv[3]);
  double* rate = malloc(sizeof(double) * repeat);
  for (int r = 0; r < repeat; ++r) {
    struct timespec t0, t1;
    mj_resetData(m, d);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < steps; ++i) mj_step(m, d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    rate[r] = steps / s;
  }
  qsort(rate, repeat, sizeof(double), Ascending);
  printf("steps_per_second=%.6g\nwarnings=%d\n", rate[repeat / 2], warnings);
  free(rate);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
CODE
  if cc -O2 -o "$dir/mjbench" "$dir/mjbench.c" -lmujoco 2>"$dir/build.log"; then
    mjbench=$dir/mjbench
  else
    echo "bench_vs_mujoco.sh: could not build the MuJoCo benchmark (see $dir/build.log)" >&2
  fi
else
  echo "bench_vs_mujoco.sh: libmujoco-dev not installed: Gauss column only" >&2
fi

# ---------------------------------------------------------------- the table
printf '%-28s %14s %14s %8s\n' model gauss_steps/s mujoco_steps/s ratio
for model in "$@"; do
  name=$(basename "$model" .xml)
  g=$("$gauss" bench "$model" --steps "$steps" --repeat "$repeat" 2>/dev/null |
      sed -n 's/^steps_per_second=//p')
  [ -n "$g" ] || g="error"
  m="-"
  if [ -n "$mjbench" ]; then
    m=$("$mjbench" "$model" "$steps" "$repeat" 2>/dev/null | sed -n 's/^steps_per_second=//p')
    [ -n "$m" ] || m="error"
  fi
  ratio=$(awk -v g="$g" -v m="$m" 'BEGIN { if (g + 0 > 0 && m + 0 > 0) printf "%.2f", g / m; else print "-" }')
  printf '%-28s %14s %14s %8s\n' "$name" "$g" "$m" "$ratio"
done
echo "(ratio = Gauss / MuJoCo; median of $repeat repeats of $steps steps, zero controls)"
