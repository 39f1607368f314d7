#!/bin/sh
# Records the MuJoCo 3.12.1 reference data of tests/reference/mjcf3_test.cc: for each model of
# tests/models/mjcf3/, `mjref3 info` (compiled sizes, joints, actuators) and a 200-step
# `mjref3 run` trajectory driven by random controls (seed, noise below), with the controls
# recorded (--with-ctrl) and MuJoCo 3.12's default constraint islands: these files use 3.x
# features, so Gauss solves them by island too (docs/islands.md, "Default").
# mjref3 is the shared tool built by ../shared/tools/mjref/build3.sh: MJREF3=..., else
# ../shared/tools/mjref/build3/mjref3, else /work/tools/mjref/build3/mjref3.
set -eu
cd "$(dirname "$0")/../../.."
mjref3=${MJREF3:-../shared/tools/mjref/build3/mjref3}
[ -x "$mjref3" ] || mjref3=/work/tools/mjref/build3/mjref3
out=tests/reference/mjcf3
# A fourth field "converged" runs the solver to convergence (tolerance 1e-15, 1000 iterations;
# the test sets the same): newton_cradle's stiff contacts make two solvers that stop at the
# default tolerance part by 1e-5.
for spec in "servo 1 0.8" "frames 2 0.3" "sites 3 0" "mujoco/dampratio 4 1" \
            "mujoco/tendon_dampratio 5 1" "mujoco/car 6 1" "replicate 7 1" "gravcomp 9 0.5" \
            "deadband 10 1" "sensors3 7 1" "attach 11 1" "builtin_mesh 12 1" "align 13 1" \
            "tendon_armature 11 1" "contact3 12 0 converged" \
            "actearly3 13 1" "mujoco/ten_armature_1 14 0" "mujoco/ten_armature_3 15 0" \
            "mujoco/tendon_force_clamp 16 2" "mujoco/actearly 17 1" \
            "mujoco/newton_cradle 8 0 converged" "builtin_shapes 19 1" \
            "contact_sensor 18 1 converged" "actfrcrange 18 1" "actfrcrange_implicit 19 1" \
            "actfrcrange_free 22 1" "actgroup 20 1" "mujoco/actuator_group_disable 21 1" \
            "mujoco/connect 18 0" \
            "mujoco/jdotv_connect_3d 19 0" "mujoco/jdotv_weld_3d 20 0" "mujoco/soft_weld 21 0" \
            "cameras 22 1" "mujoco/freejoint 23 0" "refsite_turn 24 1" "site_weld 24 0" \
            "poly_stiffness 25 0.5" "actgravcomp 24 1" "eulerdamp 25 1" "tausmooth 26 1" \
            "box_stack 24 0" "margin_gap 27 0" "geom_distance 28 1" \
            "slide_weights 28 1 converged" "rk4_warmstart 29 1"; do
  set -- $spec
  model=tests/models/mjcf3/$1.xml
  name=$(basename "$1")
  solver=""
  [ "${4:-}" = converged ] && solver="--tolerance 1e-15 --iterations 1000"
  "$mjref3" info "$model" | sed "1s|^model=.*|model=$model|" > "$out/$name.info"
  "$mjref3" run "$model" --steps 200 --ctrl-seed "$2" --ctrl-noise "$3" --with-ctrl $solver \
    --out "$out/$name.run.csv"
done

# The vertex sets of the procedural meshes (<mesh builtin>): mesh_vertices.cc, built here against
# the same MuJoCo 3.12.1 library as mjref3 (MUJOCO3=..., else ../shared/tools/mujoco3, else
# /work/shared/tools/mujoco3).
mujoco3=${MUJOCO3:-../shared/tools/mujoco3}
[ -d "$mujoco3/include" ] || mujoco3=/work/shared/tools/mujoco3
tool=$(mktemp -d)/mesh_vertices
g++ -std=c++17 -O1 "$out/mesh_vertices.cc" -I"$mujoco3/include" "$mujoco3"/lib/libmujoco.so.* \
  -Wl,-rpath,"$mujoco3/lib" -o "$tool"
"$tool" tests/models/mjcf3/builtin_vertices.xml > "$out/builtin_vertices.csv"
rm -r "$(dirname "$tool")"

# The box-box contacts of 300 random poses of box_pair.xml (box_clip_reference_test.cc):
# box_contacts.cc, built here against the same MuJoCo 3.12.1 library.
tool=$(mktemp -d)/box_contacts
g++ -std=c++17 -O1 "$out/box_contacts.cc" -I"$mujoco3/include" "$mujoco3"/lib/libmujoco.so.* \
  -Wl,-rpath,"$mujoco3/lib" -o "$tool"
"$tool" tests/models/mjcf3/box_pair.xml 100 > "$out/box_contacts.csv"
rm -r "$(dirname "$tool")"
