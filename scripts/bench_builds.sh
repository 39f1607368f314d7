#!/bin/sh
# Several builds of Gauss and MuJoCo 3.12 on the same models, in interleaved rounds: for
# comparing build configurations (docs/performance.md, "Build flags: LTO, interposition, AVX").
# Each cell is the CPU time of one step (perf stat's task-clock of `bench --steps N` minus that
# of `--steps 10`, divided by N - 10: the loading cancels), the median of K rounds; each round
# runs every build and MuJoCo once per row, in turn. With --instructions, callgrind's
# instruction count instead ((Ir of 2N steps - Ir of N steps) / N, one round). Gauss runs with
# islands (flags.island=true), as MuJoCo 3.12 does by default.
#
# usage: scripts/bench_builds.sh [--steps N] [--rounds K] [--instructions] \
#          NAME=GAUSS_PROGRAM... -- MODEL.xml:VARIANT...
#   VARIANT: own, newton, cg, pgs, newton-elliptic, cg-elliptic, pgs-elliptic, rk4, implicit,
#   implicitfast (as in scripts/bench_vs_mujoco.sh)
# example:
#   scripts/bench_builds.sh --rounds 5 base=build-base/bin/gauss lto=build-lto/bin/gauss -- \
#     /usr/share/mujoco/model/humanoid/humanoid.xml:newton models/small/acrobot.xml:own
set -eu
cd "$(dirname "$0")/.."

steps=2000
rounds=5
instructions=false
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --instructions) instructions=true; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    --) shift; break ;;
    *=*) builds="${builds:-} $1"; shift ;;
    *) echo "bench_builds.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
rows="$*"
[ -n "${builds:-}" ] && [ -n "$rows" ] || { sed -n '2,17p' "$0"; exit 2; }
mjref3=${MJREF3:-/work/tools/mjref/build3/mjref3}
[ "$instructions" = true ] && rounds=1

# Options of a variant for Gauss (gauss_opts) and MuJoCo (mj_opts).
variant_options() {
  case "$1" in
    own) gauss_opts=""; mj_opts="" ;;
    newton|cg|pgs) gauss_opts="--set solver=$1 --set cone=pyramidal"; mj_opts="--solver $1 --cone pyramidal" ;;
    *-elliptic)
      gauss_opts="--set solver=${1%-elliptic} --set cone=elliptic"
      mj_opts="--solver ${1%-elliptic} --cone elliptic" ;;
    rk4|implicit|implicitfast) gauss_opts="--set integrator=$1"; mj_opts="--integrator $1" ;;
    *) echo "bench_builds.sh: unknown variant $1" >&2; exit 2 ;;
  esac
  gauss_opts="$gauss_opts --set flags.island=true"
}

# CPU milliseconds of one run: `$@ --steps N --repeat 1`, N the first argument.
cpu_ms() {
  n=$1; shift
  perf stat -x, -e task-clock "$@" --steps "$n" --repeat 1 2>&1 >/dev/null |
    awk -F, '$3 == "task-clock" { print $1 }'
}
# Instructions of one run (callgrind total).
instr() {
  n=$1; shift
  out=$(mktemp /tmp/bench_builds.XXXXXX)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" --steps "$n" --repeat 1 >/dev/null 2>&1 || true
  sed -n 's/^summary: *//p' "$out"
  rm -f "$out"
}
# One cell: microseconds per step, or instructions per step.
measure() {
  if [ "$instructions" = true ]; then
    a=$(instr "$steps" "$@"); b=$(instr $((2 * steps)) "$@")
    awk -v a="$a" -v b="$b" -v n="$steps" 'BEGIN { if (b > a) printf "%.0f", (b - a) / n; else print "error" }'
  else
    a=$(cpu_ms 10 "$@"); b=$(cpu_ms "$steps" "$@")
    awk -v a="$a" -v b="$b" -v n="$steps" 'BEGIN { if (b > a) printf "%.2f", 1000 * (b - a) / (n - 10); else print "error" }'
  fi
}
median() {
  printf '%s\n' "$@" | awk '$1 + 0 > 0' | sort -g |
    awk '{ v[n++] = $1 } END { if (!n) { print "error"; exit }
          printf "%s\n", n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
}

unit="us/step (CPU)"
[ "$instructions" = true ] && unit="Ir/step"
printf '%-28s' "model:variant"
for b in $builds; do printf ' %12s' "${b%%=*}"; done
printf ' %12s\n' mujoco3.12
for row in $rows; do
  model=${row%:*}; variant=${row##*:}
  variant_options "$variant"
  results=$(mktemp /tmp/bench_builds.XXXXXX)
  k=0
  while [ "$k" -lt "$rounds" ]; do
    for b in $builds; do
      # shellcheck disable=SC2086  # the option strings split into words on purpose
      echo "${b%%=*} $(measure "${b#*=}" bench "$model" $gauss_opts)" >>"$results"
    done
    # shellcheck disable=SC2086
    echo "mujoco3.12 $(measure "$mjref3" bench "$model" $mj_opts)" >>"$results"
    k=$((k + 1))
  done
  printf '%-28s' "$(basename "$model" .xml):$variant"
  for name in $(for b in $builds; do echo "${b%%=*}"; done) mujoco3.12; do
    # shellcheck disable=SC2046
    printf ' %12s' "$(median $(awk -v n="$name" '$1 == n { print $2 }' "$results"))"
  done
  printf '\n'
  [ -n "${BENCH_BUILDS_KEEP:-}" ] && sed "s|^|$row |" "$results" >>"$BENCH_BUILDS_KEEP"
  rm -f "$results"
done
echo "($unit, median of $rounds interleaved rounds; $steps steps from the reset; Gauss with islands)"
