// MuJoCo 2.2.2 as a reference: RAII ownership of mjModel/mjData and small helpers shared by the
// reference tests. Only tests/reference may include MuJoCo.
#pragma once

#include <memory>
#include <string>

#include <mujoco/mujoco.h>

namespace gauss::test {

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

// Loads an MJCF file with MuJoCo; fails the current test (and returns null) on error.
MjModelPtr LoadMujoco(const std::string& path);
MjDataPtr MakeMujocoData(const mjModel* m);

}  // namespace gauss::test
