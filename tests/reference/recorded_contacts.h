// Shared by box_clip_reference_test.cc and native_ccd_reference_test.cc: contact lists that
// MuJoCo 3.12 computed at random poses of a two-body model (recorded by regen.sh with
// mjcf3/box_contacts.cc or mjcf3/convex_contacts.cc), the model held by Gauss's collision
// driver with a list of collider plugins, and the comparison of the two lists pose by pose.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../core/src/collision.h"
#include "../../core/src/data_alloc.h"
#include "../../core/src/pipeline.h"
#include "collision_pair.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "support/test_support.h"

namespace gauss::test {

// One recorded pose: qpos and MuJoCo 3.12's contacts (dist, pos0..2, normal0..2 each).
struct RecordedPose {
  std::vector<double> qpos;
  std::vector<std::vector<double>> contacts;
};

// (CSV of `pose,index,ncon,qpos...` rows each followed by its `contact,index,dist,pos,normal`
// rows; `path` relative to tests/reference/mjcf3) => the poses
inline std::vector<RecordedPose> ReadRecordedPoses(const std::string& path) {
  std::ifstream in(std::string(GAUSS_SOURCE_DIR) + "/tests/reference/mjcf3/" + path);
  EXPECT_TRUE(in) << path;
  std::vector<RecordedPose> poses;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string kind, cell;
    std::getline(row, kind, ',');
    std::vector<double> values;
    while (std::getline(row, cell, ',')) values.push_back(std::stod(cell));
    if (kind == "pose") {
      poses.push_back({std::vector<double>(values.begin() + 2, values.end()), {}});
    } else {
      EXPECT_EQ(static_cast<int>(values[0]), static_cast<int>(poses.size()) - 1) << path;
      poses.back().contacts.emplace_back(values.begin() + 1, values.end());
    }
  }
  return poses;
}

// A model file (tests/models/...) held by Gauss's collision driver with the collider plugins
// `names` in priority order; its Model is a mutable copy, so a test can switch flags.
struct RecordedPair {
  std::shared_ptr<Model> model;
  Data d;
  PluginRegistry registry;
  std::vector<PluginInstance<Collider>> colliders;
  CollisionTable table;

  RecordedPair(const std::string& test_model, const std::vector<std::string>& names)
      : model(std::make_shared<Model>(*LoadModel(TestModel(test_model)))) {
    AllocateData(*model, d);
    std::vector<const Collider*> list;
    for (const std::string& name : names) {
      colliders.push_back(registry.Create<Collider>(PluginKind::kCollider, name));
      list.push_back(colliders.back().instance.get());
    }
    BuildCollisionTable(list, table);
  }
  // (pose) => d.contact[0..ncon)
  void Collide(const RecordedPose& pose) {
    std::copy(pose.qpos.begin(), pose.qpos.end(), d.qpos.begin());
    Kinematics(*model, d);
    ComPosition(*model, d);
    Collision(*model, d, table);
  }
};

// Largest difference between Gauss's and MuJoCo's contacts over all poses (infinity when a
// count differs), the number of poses whose lists differ by more than the count tolerance, and
// the number whose lists agree in another order.
struct ContactAgreement {
  double worst = 0;
  int mismatched = 0;
  int reordered = 0;
};

// (pair, poses) => how far Gauss's contact lists are from the recorded ones: each MuJoCo
// contact against the nearest unused Gauss contact (the larger of the dist, position and normal
// differences). With `report`, a count that differs and a pose beyond `report_tolerance` are
// test failures; poses beyond `count_tolerance` are counted in `mismatched`.
inline ContactAgreement CompareRecordedContacts(RecordedPair& pair,
                                                const std::vector<RecordedPose>& poses,
                                                double report_tolerance, double count_tolerance,
                                                bool report) {
  ContactAgreement a;
  for (std::size_t p = 0; p < poses.size(); ++p) {
    pair.Collide(poses[p]);
    const auto& want = poses[p].contacts;
    const int n = pair.d.ncon;
    double worst = 0;
    if (n != static_cast<int>(want.size())) {
      worst = INFINITY;
      if (report) {
        ADD_FAILURE() << "pose " << p << ": " << n << " contacts, MuJoCo 3.12 " << want.size();
      }
    } else {
      std::vector<bool> used(n, false);
      bool same_order = true;
      for (int c = 0; c < n; ++c) {
        double best = INFINITY;
        int best_i = -1;
        for (int i = 0; i < n; ++i) {
          if (used[i]) continue;
          const Contact& got = pair.d.contact[i];
          const double e = std::max({std::fabs(got.dist - want[c][0]),
                                     MaxAbs(got.pos, want[c].data() + 1, 3),
                                     MaxAbs(got.frame, want[c].data() + 4, 3)});
          if (e < best) {
            best = e;
            best_i = i;
          }
        }
        if (best_i < 0) {  // NaN in Gauss's contacts
          worst = INFINITY;
          break;
        }
        used[best_i] = true;
        same_order = same_order && best_i == c;
        worst = std::max(worst, best);
      }
      a.reordered += !same_order;
      if (report) {
        EXPECT_LE(worst, report_tolerance) << "pose " << p;
      }
    }
    a.worst = std::max(a.worst, worst);
    if (worst > count_tolerance) ++a.mismatched;
  }
  return a;
}

}  // namespace gauss::test
