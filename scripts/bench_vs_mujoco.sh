#!/bin/sh
# Gauss vs MuJoCo 2.2.2 and 3.12, side by side: for each model x variant (solver and cone, or
# integrator), `gauss bench` (GAUSS, default build/bin/gauss), `mjref bench` (MuJoCo 2.2.2) and
# `mjref3 bench` (MuJoCo 3.12, constraint islands on as in its default), and the ratio of Gauss
# to the faster of the two MuJoCo versions. MuJoCo is never linked into Gauss: the reference
# tools are separate programs (../shared/tools/mjref; MJREF=... and MJREF3=... point elsewhere).
# Every run starts from the reset with zero controls.
#
# usage: scripts/bench_vs_mujoco.sh [options] [MODEL.xml...]
#   --models LIST     comma-separated model files (or positional arguments); default: MuJoCo's
#                     humanoid, 22_humanoids and humanoid100 (/usr/share/mujoco/model)
#   --variants LIST   comma-separated, from: own (the model's own options), newton, cg, pgs
#                     (pyramidal cones), newton-elliptic, cg-elliptic, pgs-elliptic, rk4,
#                     implicit, implicitfast (integrators, with the model's own solver); or all
#                     (default: all but own)
#   --steps N         steps per run, at least (default 1000); see --min-time
#   --min-time S      wall clock: each model x variant runs more steps than --steps when Gauss
#                     would finish them in less than S seconds (a calibration run of Gauss
#                     first; rounded up to a multiple of 1000, at most 200000), so that short
#                     steps are timed over long enough runs; 0 turns it off (default 0.5). The
#                     steps of each row are in its last column. Not used with --instructions
#   --rounds K        interleaved rounds: Gauss, 2.2.2, 3.12, Gauss, ...; the table shows the
#                     median of the K rounds (default 3)
#   --island          Gauss solves each constraint island on its own (flags.island=true), as
#                     MuJoCo 3.12 does by default (Gauss does so by default only in files that
#                     use MuJoCo 3.x features, docs/islands.md; the humanoids are 2.2.2 files)
#   --paired          each MuJoCo against Gauss running the same algorithm: Gauss without
#                     islands (flags.island=false) against MuJoCo 2.2.2, Gauss with islands
#                     against MuJoCo 3.12 (both Gauss runs interleaved with the MuJoCo ones);
#                     columns for both pairings, ratio = the smaller of the two
#   --instructions    instead of wall clock: instructions per step counted by valgrind's
#                     callgrind (runs of N and 2N steps, difference / N; one round); the ratio
#                     is then MuJoCo's count / Gauss's (higher = Gauss does less work)
# example:
#   scripts/bench_vs_mujoco.sh --variants cg,pgs-elliptic --steps 500 --rounds 5
set -eu
cd "$(dirname "$0")/.."

steps=1000
min_time=0.5
rounds=3
models=""
variants=all
island=false
paired=false
instructions=false
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) steps=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --min-time) min_time=$2; shift 2 ;;
    --models) models=$(echo "$2" | tr ',' ' '); shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --island) island=true; shift ;;
    --paired) paired=true; shift ;;
    --instructions) instructions=true; shift ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "bench_vs_mujoco.sh: unknown option $1" >&2; exit 2 ;;
    *) models="$models $1"; shift ;;
  esac
done
if [ -z "$models" ]; then
  for m in humanoid/humanoid.xml humanoid/22_humanoids.xml humanoid100/humanoid100.xml; do
    [ -f "/usr/share/mujoco/model/$m" ] && models="$models /usr/share/mujoco/model/$m"
  done
fi
[ "$variants" = all ] &&
  variants=newton,cg,pgs,newton-elliptic,cg-elliptic,pgs-elliptic,rk4,implicit,implicitfast
variants=$(echo "$variants" | tr ',' ' ')
if [ "$instructions" = true ]; then
  command -v valgrind >/dev/null || { echo "bench_vs_mujoco.sh: --instructions needs valgrind" >&2; exit 1; }
  rounds=1
fi

gauss=${GAUSS:-build/bin/gauss}
[ -x "$gauss" ] || { echo "bench_vs_mujoco.sh: no Gauss program at $gauss (set GAUSS=...)" >&2; exit 1; }

# The first of the candidate paths that is an executable, else "".
first_tool() {
  for t in "$@"; do
    [ -x "$t" ] && { echo "$t"; return; }
  done
  echo ""
}
mjref=$(first_tool "${MJREF:-}" ../shared/tools/mjref/build/mjref /work/tools/mjref/build/mjref)
mjref3=$(first_tool "${MJREF3:-}" ../shared/tools/mjref/build3/mjref3 /work/tools/mjref/build3/mjref3)
[ -n "$mjref" ] || echo "bench_vs_mujoco.sh: no mjref (MuJoCo 2.2.2) found: column left empty" >&2
[ -n "$mjref3" ] || echo "bench_vs_mujoco.sh: no mjref3 (MuJoCo 3.12) found: column left empty" >&2

# Options of variant $1 for Gauss (gauss_opts) and for mjref/mjref3 (mj_opts); mj2_ok=false
# when MuJoCo 2.2.2 has no such variant (implicitfast).
variant_options() {
  mj2_ok=true
  case "$1" in
    own) gauss_opts=""; mj_opts="" ;;
    newton|cg|pgs)
      gauss_opts="--set solver=$1 --set cone=pyramidal"; mj_opts="--solver $1 --cone pyramidal" ;;
    newton-elliptic|cg-elliptic|pgs-elliptic)
      s=${1%-elliptic}
      gauss_opts="--set solver=$s --set cone=elliptic"; mj_opts="--solver $s --cone elliptic" ;;
    rk4|implicit|implicitfast)
      gauss_opts="--set integrator=$1"; mj_opts="--integrator $1"
      [ "$1" = implicitfast ] && mj2_ok=false ;;
    *) echo "bench_vs_mujoco.sh: unknown variant $1" >&2; exit 2 ;;
  esac
  [ "$island" = true ] && gauss_opts="$gauss_opts --set flags.island=true"
  return 0
}

# Instructions of one run of `$@ --steps N` (callgrind total), N given as the first argument.
count_instructions() {
  n=$1; shift
  out=$(mktemp /tmp/bench_vs_mujoco.XXXXXX)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" --steps "$n" >/dev/null 2>&1 || true
  sed -n 's/^summary: *//p' "$out"
  rm -f "$out" "$out".*
}

# One measurement of program $1 with the remaining arguments over $run_steps steps: steps/s,
# or instructions/step.
measure() {
  if [ "$instructions" = true ]; then
    a=$(count_instructions "$run_steps" "$@" --repeat 1)
    b=$(count_instructions $((2 * run_steps)) "$@" --repeat 1)
    awk -v a="$a" -v b="$b" -v n="$run_steps" \
      'BEGIN { if (a > 0 && b > a) printf "%.0f", (b - a) / n; else print "error" }'
  else
    r=$("$@" --steps "$run_steps" --repeat 1 2>/dev/null | sed -n 's/^steps_per_second=//p')
    echo "${r:-error}"
  fi
}

# The steps of one row (sets run_steps): --steps, or more when one run of the program given as
# arguments (Gauss) over --steps steps lasts less than --min-time seconds. A 1000-step run of the
# one-humanoid model lasts 15-40 ms, too short to time reliably on a shared machine.
calibrate_steps() {
  run_steps=$steps
  if [ "$instructions" = true ] || awk -v t="$min_time" 'BEGIN { exit !(t + 0 <= 0) }'; then
    return 0
  fi
  r=$("$@" --steps "$steps" --repeat 1 2>/dev/null | sed -n 's/^steps_per_second=//p')
  run_steps=$(awk -v r="${r:-0}" -v s="$steps" -v t="$min_time" 'BEGIN {
    n = r * t
    if (n <= s) { print s; exit }
    n = int((n + 999) / 1000) * 1000
    print (n > 200000 ? 200000 : n) }')
}

# Median of the numbers given as arguments ("-" or "error" when none is a number).
median() {
  nums=$(printf '%s\n' "$@" | awk '$1 + 0 > 0' | sort -g)
  if [ -z "$nums" ]; then
    case " $* " in *" - "*) echo "-" ;; *) echo error ;; esac
    return
  fi
  echo "$nums" | awk '{ v[n++] = $1 } END {
    m = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
    printf (m >= 100 ? "%.0f\n" : "%.4g\n"), m }'
}

unit="steps/s"
[ "$instructions" = true ] && unit="Ir/step"
[ "$paired" = true ] && [ "$island" = true ] &&
  { echo "bench_vs_mujoco.sh: --paired already runs Gauss with and without islands" >&2; exit 2; }

# Gauss's ratio to MuJoCo's number (a = Gauss, b = MuJoCo; "-" when either is missing):
# steps/s Gauss / MuJoCo, or instructions MuJoCo / Gauss, so that higher is better for Gauss.
ratio_of() {
  awk -v g="$1" -v m="$2" -v ir="$instructions" 'BEGIN {
    if (g + 0 <= 0 || m + 0 <= 0) { print "-"; exit }
    printf "%.2f", ir == "true" ? m / g : g / m }'
}

# The smaller of the ratios given as arguments ("-" when none is a number): against the faster
# MuJoCo, Gauss's ratio is the smaller of its ratios to each.
smaller() {
  low=$(printf '%s\n' "$@" | awk '$1 + 0 > 0' | sort -g | head -n 1)
  echo "${low:--}"
}

if [ "$paired" = true ]; then
  printf '%-14s %-16s %12s %12s %6s %12s %12s %6s %7s %7s\n' model variant "gauss" "mujoco2.2.2" \
    "ratio" "gauss+isl" "mujoco3.12" "ratio" "min" "steps"
  for model in $models; do
    name=$(basename "$model" .xml)
    for v in $variants; do
      variant_options "$v"
      # shellcheck disable=SC2086
      calibrate_steps "$gauss" bench "$model" $gauss_opts --set flags.island=true
      gs=""; gis=""; m2s=""; m3s=""
      k=0
      # shellcheck disable=SC2086  # the option strings split into words on purpose
      while [ "$k" -lt "$rounds" ]; do
        gs="$gs $(measure "$gauss" bench "$model" $gauss_opts --set flags.island=false)"
        if [ -n "$mjref" ] && [ "$mj2_ok" = true ]; then
          m2s="$m2s $(measure "$mjref" bench "$model" $mj_opts)"
        else
          m2s="$m2s -"
        fi
        gis="$gis $(measure "$gauss" bench "$model" $gauss_opts --set flags.island=true)"
        if [ -n "$mjref3" ]; then m3s="$m3s $(measure "$mjref3" bench "$model" $mj_opts)"; else m3s="$m3s -"; fi
        k=$((k + 1))
      done
      # shellcheck disable=SC2086
      g=$(median $gs); gi=$(median $gis); m2=$(median $m2s); m3=$(median $m3s)
      r2=$(ratio_of "$g" "$m2"); r3=$(ratio_of "$gi" "$m3")
      low=$(smaller "$r2" "$r3")
      printf '%-14s %-16s %12s %12s %6s %12s %12s %6s %7s %7s\n' "$name" "$v" "$g" "$m2" "$r2" \
        "$gi" "$m3" "$r3" "$low" "$run_steps"
    done
  done
  echo "($unit, median of $rounds interleaved rounds of the row's steps from the reset (instructions:" \
       "one round); Gauss without islands against MuJoCo 2.2.2, with islands against MuJoCo 3.12;" \
       "ratios: higher is better for Gauss)"
  exit 0
fi

printf '%-14s %-16s %12s %12s %12s %7s %7s\n' model variant "gauss" "mujoco2.2.2" "mujoco3.12" \
  ratio steps
for model in $models; do
  name=$(basename "$model" .xml)
  for v in $variants; do
    variant_options "$v"
    # shellcheck disable=SC2086
    calibrate_steps "$gauss" bench "$model" $gauss_opts
    gs=""; m2s=""; m3s=""
    k=0
    # shellcheck disable=SC2086  # the option strings split into words on purpose
    while [ "$k" -lt "$rounds" ]; do
      gs="$gs $(measure "$gauss" bench "$model" $gauss_opts)"
      if [ -n "$mjref" ] && [ "$mj2_ok" = true ]; then
        m2s="$m2s $(measure "$mjref" bench "$model" $mj_opts)"
      else
        m2s="$m2s -"
      fi
      if [ -n "$mjref3" ]; then m3s="$m3s $(measure "$mjref3" bench "$model" $mj_opts)"; else m3s="$m3s -"; fi
      k=$((k + 1))
    done
    # shellcheck disable=SC2086
    g=$(median $gs)
    m2=$(median $m2s)
    m3=$(median $m3s)
    ratio=$(smaller "$(ratio_of "$g" "$m2")" "$(ratio_of "$g" "$m3")")
    printf '%-14s %-16s %12s %12s %12s %7s %7s\n' "$name" "$v" "$g" "$m2" "$m3" "$ratio" \
      "$run_steps"
  done
done
if [ "$instructions" = true ]; then
  echo "($unit: callgrind, (Ir of $((2 * steps)) steps - Ir of $steps steps) / $steps;" \
       "ratio = the smaller MuJoCo count / Gauss's)"
else
  echo "($unit: median of $rounds interleaved rounds of the row's steps from the reset;" \
       "ratio = Gauss / the faster MuJoCo)"
fi
[ "$island" = true ] && echo "(Gauss with flags.island=true)"
exit 0
