// Records the keyframes of an MJCF model as MuJoCo 3.12 compiles them, for
// tests/reference/mjcf3_test.cc (built and run by regen.sh; not part of the CMake build).
// Output: CSV with a header line `key,name,field,values`, then one row per key and field
// (time qpos qvel act ctrl mpos mquat, in that order): the key's index, its name, the field
// and its values, %.17g (doubles round-trip exactly). Rows of empty fields end after the field.
// Usage: keyframes MODEL.xml > out.csv
#include <cstdio>

#include <mujoco/mujoco.h>

namespace {

void Row(int key, const char* name, const char* field, const mjtNum* values, int n) {
  std::printf("%d,%s,%s", key, name, field);
  for (int i = 0; i < n; ++i) std::printf(",%.17g", values[i]);
  std::printf("\n");
}

}  // namespace

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
  std::printf("key,name,field,values\n");
  for (int k = 0; k < m->nkey; ++k) {
    const char* name = m->names + m->name_keyadr[k];
    Row(k, name, "time", m->key_time + k, 1);
    Row(k, name, "qpos", m->key_qpos + k * m->nq, m->nq);
    Row(k, name, "qvel", m->key_qvel + k * m->nv, m->nv);
    Row(k, name, "act", m->key_act + k * m->na, m->na);
    Row(k, name, "ctrl", m->key_ctrl + k * m->nu, m->nu);
    Row(k, name, "mpos", m->key_mpos + 3 * k * m->nmocap, 3 * m->nmocap);
    Row(k, name, "mquat", m->key_mquat + 4 * k * m->nmocap, 4 * m->nmocap);
  }
  mj_deleteModel(m);
  return 0;
}
