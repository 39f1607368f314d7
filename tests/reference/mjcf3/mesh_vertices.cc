// Records the generated vertices of every mesh of an MJCF model as MuJoCo 3.12 makes them, for
// tests/reference/mjcf3_test.cc (built and run by regen.sh; not part of the CMake build).
// MuJoCo keeps a mesh's vertices in single precision in a frame at its center of mass and
// principal axes (mesh_pos, mesh_quat); mapping them back, v = quat * mesh_vert + mesh_pos, gives
// the points its generator made (to single precision). Output: CSV `mesh,x,y,z`, one row per
// vertex in MuJoCo's order, %.9g (enough to restore a float).
// Usage: mesh_vertices MODEL.xml > out.csv
#include <cstdio>

#include <mujoco/mujoco.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL.xml\n", argv[0]);
    return 2;
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], nullptr, error, sizeof error);
  if (!m) {
    std::fprintf(stderr, "%s: %s\n", argv[1], error);
    return 1;
  }
  std::printf("mesh,x,y,z\n");
  for (int i = 0; i < m->nmesh; ++i) {
    const char* name = m->names + m->name_meshadr[i];
    for (int k = 0; k < m->mesh_vertnum[i]; ++k) {
      const float* stored = m->mesh_vert + 3 * (m->mesh_vertadr[i] + k);
      const mjtNum local[3] = {stored[0], stored[1], stored[2]};
      mjtNum v[3];
      mju_rotVecQuat(v, local, m->mesh_quat + 4 * i);
      std::printf("%s,%.9g,%.9g,%.9g\n", name, v[0] + m->mesh_pos[3 * i],
                  v[1] + m->mesh_pos[3 * i + 1], v[2] + m->mesh_pos[3 * i + 2]);
    }
  }
  mj_deleteModel(m);
  return 0;
}
