#include "mujoco_reference.h"

#include <gtest/gtest.h>

namespace gauss::test {

MjModelPtr LoadMujoco(const std::string& path) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (!m) ADD_FAILURE() << "MuJoCo could not load " << path << ": " << error;
  return MjModelPtr(m);
}

MjDataPtr MakeMujocoData(const mjModel* m) { return MjDataPtr(mj_makeData(m)); }

}  // namespace gauss::test
