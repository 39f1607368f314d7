// Shared by collision_test.cc and ccd_reference_test.cc: one model held by MuJoCo 2.2.2 and by
// Gauss's collision driver (core/src/collision.cc) with a list of collider plugins, and small
// helpers for comparing and reporting contacts.
#pragma once

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../core/src/collision.h"
#include "../../core/src/data_alloc.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "mujoco_reference.h"

namespace gauss::test {

// One model on both sides, the Gauss collision table built from the collider plugins `names`
// (in priority order). mj stays null when MuJoCo cannot load the file.
struct CollisionPair {
  MjModelPtr mj;
  MjDataPtr mjd;
  std::shared_ptr<const Model> model;
  Data d;
  PluginRegistry registry;
  std::vector<PluginInstance<Collider>> colliders;
  CollisionTable table;

  CollisionPair(const std::string& path, const std::vector<std::string>& names) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mjd = MakeMujocoData(mj.get());
    model = LoadModel(path);
    AllocateData(*model, d);
    std::vector<const Collider*> list;
    for (const std::string& name : names) {
      colliders.push_back(registry.Create<Collider>(PluginKind::kCollider, name));
      list.push_back(colliders.back().instance.get());
    }
    BuildCollisionTable(list, table);
  }
};

// Largest |a - b| over n values.
inline double MaxAbs(const double* a, const double* b, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

// "1.2e-16": worst errors for the test report.
inline std::string Sci(double v) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(1) << v;
  return out.str();
}

}  // namespace gauss::test
