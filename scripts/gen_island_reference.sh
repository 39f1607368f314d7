#!/bin/sh
# Regenerates the MuJoCo 3.12 reference files of tests/reference/island_reference_test.cc
# (tests/reference/data/islands_*.csv, sleep_piles_mjref3.csv) with mjref3 (islands on, MuJoCo 3's default): states
# sampled by simulating MuJoCo 3.12, then its forward dynamics at each of them. Newton and pgs
# with pyramidal cones: there MuJoCo 3.12's problem equals 2.2.2's (to 1e-11), while its
# elliptic-cone and cg solutions differ from 2.2.2's by up to 8e-4 (relative) islands or not.
# Usage: scripts/gen_island_reference.sh [path/to/mjref3]
set -eu
cd "$(dirname "$0")/.."
MJREF3=${1:-/work/tools/mjref/build3/mjref3}
OUT=tests/reference/data
mkdir -p "$OUT"

# name model states-options forward-options
gen() {
  name=$1 model=$2 count=$3 between=$4
  shift 4
  "$MJREF3" states "$model" --count "$count" --seed 7 --steps-between "$between" --ctrl-noise 0.1 \
    --qvel-noise 0.5 --reset-every 10 --with-warmstart --out "$OUT/islands_${name}_states.csv" "$@"
  "$MJREF3" forward "$model" --states "$OUT/islands_${name}_states.csv" \
    --out "$OUT/islands_${name}_forward.csv" "$@"
}

gen groups_pyramidal tests/models/islands_groups.xml 30 25
gen humanoids22 /usr/share/mujoco/model/humanoid/22_humanoids.xml 8 60

# pgs on MuJoCo's humanoid (one island), states sampled by MuJoCo 3.12's own pgs: Gauss's pgs by
# island follows 3.12's shuffled sweeps with momentum sweep for sweep (its sweep counts are
# compared too). Not the many-island models: there 3.12 scales each island's stopping test by
# the whole model's nv, Gauss by the island's (docs/performance.md, "pgs: MuJoCo 3.12's sweeps").
for cone in pyramidal elliptic; do
  "$MJREF3" states /usr/share/mujoco/model/humanoid/humanoid.xml --count 40 --seed 3 \
    --steps-between 10 --with-warmstart --solver pgs --cone $cone \
    --out "$OUT/islands_humanoid_pgs_${cone}_states.csv"
  "$MJREF3" forward /usr/share/mujoco/model/humanoid/humanoid.xml --solver pgs --cone $cone \
    --states "$OUT/islands_humanoid_pgs_${cone}_states.csv" \
    --out "$OUT/islands_humanoid_pgs_${cone}_forward.csv"
done

# sleeping: a 300-step trajectory with sleep on
"$MJREF3" run tests/models/sleep_piles.xml --steps 300 --sleep --out "$OUT/sleep_piles_mjref3.csv"
