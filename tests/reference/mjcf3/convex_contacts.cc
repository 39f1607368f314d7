// Records the contacts MuJoCo 3.12 computes for random poses of the two free bodies of a model
// (tests/models/mjcf3/convex_*.xml), for tests/reference/native_ccd_reference_test.cc (built and
// run by regen.sh; not part of the CMake build).
// Poses: body 1 keeps its initial position and gets a random orientation; body 2 is placed at
// body 1's position plus a random offset of length `reach` x uniform(0.3, 1) in a random
// direction, with a random orientation. Random numbers: one std::mt19937_64(seed),
// uniform(-1, 1), drawn in program order.
// Output: CSV `pose,index,ncon,qpos0..qpos13` rows followed by
// `contact,pose,dist,pos0..2,normal0..2` rows (%.17g), the contacts in MuJoCo's order.
// Usage: convex_contacts MODEL.xml COUNT SEED REACH > out.csv
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <mujoco/mujoco.h>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s MODEL.xml COUNT SEED REACH\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], nullptr, error, sizeof error);
  if (!m || m->nq != 14) {
    std::fprintf(stderr, "%s: %s (expected two free bodies)\n", argv[1], error);
    return 1;
  }
  const int count = std::atoi(argv[2]);
  const double reach = std::atof(argv[4]);
  mjData* d = mj_makeData(m);
  std::mt19937_64 gen(std::strtoull(argv[3], nullptr, 10));
  std::uniform_real_distribution<double> u(-1, 1);
  std::printf("kind,pose,ncon,qpos0..13 | kind,pose,dist,pos0,pos1,pos2,normal0,normal1,normal2\n");
  for (int pose = 0; pose < count; ++pose) {
    mj_resetData(m, d);
    double dir[3] = {u(gen), u(gen), u(gen)};
    mju_normalize3(dir);
    const double len = reach * (0.65 + 0.35 * u(gen));
    for (int i = 0; i < 3; ++i) d->qpos[7 + i] = d->qpos[i] + len * dir[i];
    for (int b = 0; b < 2; ++b) {
      double q[4];
      for (double& c : q) c = u(gen);
      mju_normalize4(q);
      for (int i = 0; i < 4; ++i) d->qpos[7 * b + 3 + i] = q[i];
    }
    mj_kinematics(m, d);
    mj_collision(m, d);
    std::printf("pose,%d,%d", pose, d->ncon);
    for (int i = 0; i < m->nq; ++i) std::printf(",%.17g", d->qpos[i]);
    std::printf("\n");
    for (int c = 0; c < d->ncon; ++c) {
      const mjContact& con = d->contact[c];
      std::printf("contact,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", pose, con.dist,
                  con.pos[0], con.pos[1], con.pos[2], con.frame[0], con.frame[1], con.frame[2]);
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
