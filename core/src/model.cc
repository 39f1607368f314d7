#include "gauss/model.h"

namespace gauss {
namespace {

int FindName(const std::vector<std::string>& names, const std::string& name) {
  if (name.empty()) return -1;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

int Model::BodyId(const std::string& n) const { return FindName(body_name, n); }
int Model::JointId(const std::string& n) const { return FindName(jnt_name, n); }
int Model::GeomId(const std::string& n) const { return FindName(geom_name, n); }
int Model::SiteId(const std::string& n) const { return FindName(site_name, n); }
int Model::CameraId(const std::string& n) const { return FindName(cam_name, n); }
int Model::ActuatorId(const std::string& n) const { return FindName(actuator_name, n); }

}  // namespace gauss
