// Builds the scene JSON of a viewer page (view_scene.h).
#include "view_scene.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "common.h"
#include "contact_csv.h"
#include "csv.h"
#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/sensor_support.h"
#include "gauss/visual.h"

namespace gauss::cli {
namespace {

namespace fs = std::filesystem;

const char* kGeomTypeNames[kNumGeomTypes] = {"plane",    "hfield", "sphere", "capsule",
                                             "ellipsoid", "cylinder", "box",   "mesh"};

// Appends `v` in the shortest form that keeps 7 significant digits (enough for drawing);
// non-finite values (a diverged run) become 0 so that the JSON stays valid.
void AppendNumber(double v, std::string& out) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", std::isfinite(v) ? v : 0.0);
  out += buf;
}

// Appends "[v0,v1,...]" of n values from `v`.
void AppendArray(const double* v, int n, std::string& out) {
  out += '[';
  for (int i = 0; i < n; ++i) {
    if (i) out += ',';
    AppendNumber(v[i], out);
  }
  out += ']';
}

// (model, geom or site type, body, size, pos, quat) => the common fields of a drawn part.
void AppendPart(const char* type, int body, const double* size, const double* pos,
                const double* quat, std::string& out) {
  out += "\"type\":\"";
  out += type;
  out += "\",\"body\":" + std::to_string(body) + ",\"size\":";
  AppendArray(size, 3, out);
  out += ",\"pos\":";
  AppendArray(pos, 3, out);
  out += ",\"quat\":";
  AppendArray(quat, 4, out);
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorLocation{path, 0, "", ""}, "cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// (contacts CSV, number of trajectory rows) => JSON [frame,px,py,pz,nx,ny,nz,fn,ft, ...].
std::string ContactFileJson(const std::string& path, std::size_t nrow) {
  const CsvTable t = ReadCsv(path);
  const char* names[] = {"row",     "pos0",    "pos1",    "pos2",         "normal0",
                         "normal1", "normal2", "force_normal", "force_tangent"};
  int col[9];
  for (int k = 0; k < 9; ++k) {
    col[k] = t.Column(names[k]);
    if (col[k] < 0) {
      throw Error(ErrorLocation{path, 1, names[k], ""},
                  "missing column: a contacts file (gauss run --contacts) has row, pos0..2, "
                  "normal0..2, force_normal and force_tangent");
    }
  }
  std::string out = "[";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const double row = t.rows[r][col[0]];
    if (!(row >= 0) || row >= static_cast<double>(nrow) || row != std::floor(row)) {
      throw Error(ErrorLocation{path, t.row_line[r], "row", ""},
                  "not a row of the trajectory (0.." + std::to_string(nrow - 1) + ")");
    }
    for (int k = 0; k < 9; ++k) {
      if (r || k) out += ',';
      AppendNumber(t.rows[r][col[k]], out);
    }
  }
  return out + "]";
}

}  // namespace

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

ViewTrajectory TrajectoryWithSidecars(const std::string& csv_path) {
  ViewTrajectory t;
  t.csv_path = csv_path;
  t.label = fs::path(csv_path).filename().string();
  const std::string config = csv_path + ".config.yaml";
  if (fs::exists(config)) t.config_path = config;
  const std::string contacts = ContactCsvPath(csv_path);
  if (fs::exists(contacts)) t.contacts_path = contacts;
  return t;
}

std::string ModelJson(const Model& m, const std::string& model_path) {
  std::string out = "{\"name\":" + JsonString(m.name) + ",\"file\":" +
                    JsonString(fs::path(model_path).filename().string()) + ",\"timestep\":";
  AppendNumber(m.opt.timestep, out);
  out += ",\"bodies\":[";
  for (int b = 0; b < m.nbody; ++b) {
    out += std::string(b ? "," : "") + "{\"name\":" + JsonString(m.body_name[b]) +
           ",\"parent\":" + std::to_string(m.body_parentid[b]) + "}";
  }
  out += "],\"geoms\":[";
  for (int g = 0; g < m.ngeom; ++g) {
    out += g ? ",{" : "{";
    out += "\"name\":" + JsonString(m.geom_name[g]) + ",";
    AppendPart(kGeomTypeNames[static_cast<int>(m.geom_type[g])], m.geom_bodyid[g],
               &m.geom_size[3 * g], &m.geom_pos[3 * g], &m.geom_quat[4 * g], out);
    double rgba[4];
    GeomRgba(m, g, rgba);  // its own rgba or its material's (gauss/visual.h)
    out += ",\"rgba\":";
    AppendArray(rgba, 4, out);
    out += ",\"group\":" + std::to_string(m.geom_group[g]);
    // A geom collides when its contype or conaffinity is set (spec "Collision detection");
    // geoms with both zero are visual only.
    const bool collides = m.geom_contype[g] != 0 || m.geom_conaffinity[g] != 0;
    out += std::string(",\"collides\":") + (collides ? "true" : "false");
    out += ",\"mesh\":" + std::to_string(m.geom_type[g] == GeomType::kMesh ? m.geom_dataid[g] : -1);
    out += ",\"hfield\":" +
           std::to_string(m.geom_type[g] == GeomType::kHfield ? m.geom_dataid[g] : -1);
    out += "}";
  }
  out += "],\"sites\":[";
  for (int s = 0; s < m.nsite; ++s) {
    out += s ? ",{" : "{";
    out += "\"name\":" + JsonString(m.site_name[s]) + ",";
    const int type = m.site_type[s];
    AppendPart(type >= 0 && type < kNumGeomTypes ? kGeomTypeNames[type] : "sphere",
               m.site_bodyid[s], &m.site_size[3 * s], &m.site_pos[3 * s], &m.site_quat[4 * s], out);
    double rgba[4];
    SiteRgba(m, s, rgba);
    out += ",\"rgba\":";
    AppendArray(rgba, 4, out);
    out += "}";
  }
  out += "],\"skins\":[";
  for (int k = 0; k < m.nskin; ++k) {
    out += std::string(k ? "," : "") + "{\"name\":" + JsonString(m.skin_name[k]) + ",\"rgba\":";
    double rgba[4];
    SkinRgba(m, k, rgba);
    AppendArray(rgba, 4, out);
    out += ",\"group\":" + std::to_string(m.skin_group[k]) + ",\"face\":[";
    for (int i = 0; i < 3 * m.skin_facenum[k]; ++i) {
      out += (i ? "," : "") + std::to_string(m.skin_face[3 * m.skin_faceadr[k] + i]);
    }
    out += "],\"nvert\":" + std::to_string(m.skin_vertnum[k]) + "}";
  }
  out += "],\"meshes\":[";
  for (int k = 0; k < m.nmesh; ++k) {
    out += std::string(k ? "," : "") + "{\"name\":" + JsonString(m.mesh_name[k]) + ",\"vert\":";
    AppendArray(&m.mesh_vert[3 * m.mesh_vertadr[k]], 3 * m.mesh_vertnum[k], out);
    out += ",\"face\":[";
    for (int i = 0; i < 3 * m.mesh_facenum[k]; ++i) {
      out += (i ? "," : "") + std::to_string(m.mesh_face[3 * m.mesh_faceadr[k] + i]);
    }
    out += "]}";
  }
  // Height fields: the grid as the physics sees it (row r at y = (2r/(nrow-1) - 1) size_y,
  // column c at x = (2c/(ncol-1) - 1) size_x, elevation data * size_z); the page triangulates it.
  out += "],\"hfields\":[";
  for (int k = 0; k < m.nhfield; ++k) {
    out += std::string(k ? "," : "") + "{\"name\":" + JsonString(m.hfield_name[k]) +
           ",\"nrow\":" + std::to_string(m.hfield_nrow[k]) +
           ",\"ncol\":" + std::to_string(m.hfield_ncol[k]) + ",\"size\":";
    AppendArray(&m.hfield_size[4 * k], 4, out);
    out += ",\"data\":";
    AppendArray(&m.hfield_data[m.hfield_adr[k]], m.hfield_nrow[k] * m.hfield_ncol[k], out);
    out += "}";
  }
  out += "],\"cameras\":[";
  for (int k = 0; k < m.ncam; ++k) {
    out += std::string(k ? "," : "") + "{\"name\":" + JsonString(m.cam_name[k]) + ",\"fovy\":";
    AppendNumber(m.cam_fovy[k], out);
    out += "}";
  }
  return out + "]}";
}

void AppendCameraPoses(const Model& m, const Data& d, std::string& out) {
  for (int k = 0; k < m.ncam; ++k) {
    if (k) out += ',';
    for (int c = 0; c < 3; ++c) {
      AppendNumber(d.cam_xpos[3 * k + c], out);
      out += ',';
    }
    double q[4];
    math::MatToQuat(q, &d.cam_xmat[9 * k]);
    for (int c = 0; c < 4; ++c) {
      AppendNumber(q[c], out);
      if (c < 3) out += ',';
    }
  }
}

int ViewCameraIndex(const Model& m, const std::string& camera) {
  if (camera.empty()) return -1;
  const int id = m.CameraId(camera);
  if (id >= 0) return id;
  if (camera.find_first_not_of("0123456789") == std::string::npos && camera.size() < 9 &&
      std::stoi(camera) < m.ncam) {
    return std::stoi(camera);
  }
  std::string names;
  for (int k = 0; k < m.ncam; ++k) {
    names += (k ? ", " : "") + (m.cam_name[k].empty() ? std::to_string(k) : m.cam_name[k]);
  }
  throw UsageError("--camera: the model " + m.name + " has no camera '" + camera + "' (" +
                   (m.ncam ? "its cameras: " + names + ", or an index 0.." +
                                 std::to_string(m.ncam - 1)
                           : std::string("it has no cameras")) +
                   ")");
}

void AppendBodyPoses(const Model& m, const Data& d, std::string& out) {
  for (int b = 1; b < m.nbody; ++b) {
    if (b > 1) out += ',';
    for (int k = 0; k < 3; ++k) {
      AppendNumber(d.xpos[3 * b + k], out);
      out += ',';
    }
    for (int k = 0; k < 4; ++k) {
      AppendNumber(d.xquat[4 * b + k], out);
      if (k < 3) out += ',';
    }
  }
}

void AppendSkinVertices(const Model& m, const Data& d, std::string& out) {
  std::vector<double> vert(3 * m.nskinvert);
  for (int k = 0; k < m.nskin; ++k) {
    SkinVertices(m, k, d.xpos.data(), d.xquat.data(), &vert[3 * m.skin_vertadr[k]]);
  }
  for (int i = 0; i < 3 * m.nskinvert; ++i) {
    if (i) out += ',';
    AppendNumber(vert[i], out);
  }
}

std::string ContactsJson(const Model& m, const Data& d) {
  std::string out = "[";
  for (int c = 0; c < d.ncon; ++c) {
    double force[6];
    ContactForce(m, d, c, force);
    const double values[9] = {0, d.contact[c].pos[0],   d.contact[c].pos[1],   d.contact[c].pos[2],
                              d.contact[c].frame[0], d.contact[c].frame[1], d.contact[c].frame[2],
                              force[0],              std::hypot(force[1], force[2])};
    for (int k = 0; k < 9; ++k) {
      if (c || k) out += ',';
      AppendNumber(values[k], out);
    }
  }
  return out + "]";
}

std::string ConfigSummary(const std::string& config_yaml_text) {
  try {
    const YAML::Node root = YAML::Load(config_yaml_text);
    std::string out;
    auto add = [&out](const std::string& key, const YAML::Node& node) {
      if (node && node.IsScalar()) out += (out.empty() ? "" : " ") + key + "=" + node.as<std::string>();
    };
    if (root["solver"]) add("solver", root["solver"]["name"]);
    if (root["integrator"]) add("integrator", root["integrator"]["name"]);
    add("timestep", root["timestep"]);
    add("cone", root["cone"]);
    return out;
  } catch (const YAML::Exception&) {
    return "";  // not a resolved configuration: the legend shows the file name only
  }
}

std::string TrajectoryJson(const Engine& engine, Data& d, const ViewTrajectory& trajectory) {
  const Model& m = engine.model();
  const CsvTable t = ReadCsv(trajectory.csv_path);
  const int time_col = t.Column("time");
  if (time_col < 0) {
    throw Error(ErrorLocation{trajectory.csv_path, 1, "time", ""}, "missing column 'time'");
  }
  // Columns qpos0..qpos{nq-1} (required), qvel and act (used when present).
  struct Group {
    const char* prefix;
    int count;
    std::vector<double>* target;
    bool required;
    std::vector<int> col;
  };
  std::vector<Group> groups = {{"qpos", m.nq, &d.qpos, true, {}},
                               {"qvel", m.nv, &d.qvel, false, {}},
                               {"act", m.na, &d.act, false, {}}};
  for (Group& g : groups) {
    for (const std::string& name : IndexedNames(g.prefix, g.count)) {
      const int c = t.Column(name);
      if (c < 0 && g.required) {
        throw Error(ErrorLocation{trajectory.csv_path, 1, name, ""},
                    "missing column: the model " + m.name + " has nq=" + std::to_string(m.nq) +
                        ", so the trajectory needs qpos0..qpos" + std::to_string(m.nq - 1));
      }
      g.col.push_back(c);
    }
    for (int c : g.col) {
      if (c < 0) g.col.clear();  // an optional group is used only when complete
    }
  }
  if (t.Column("qpos" + std::to_string(m.nq)) >= 0) {
    throw Error(ErrorLocation{trajectory.csv_path, 1, "qpos" + std::to_string(m.nq), ""},
                "more qpos columns than the model's nq=" + std::to_string(m.nq) +
                    ": the trajectory is of another model");
  }
  std::string times = "[", poses = "[", skins = "[", cameras = "[";
  engine.Reset(d);
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    for (const Group& g : groups) {
      for (std::size_t k = 0; k < g.col.size(); ++k) (*g.target)[k] = t.rows[r][g.col[k]];
    }
    d.time = t.rows[r][time_col];
    engine.Forward(d);  // the position stage gives xpos/xquat of the row's qpos
    if (r) {
      times += ',';
      poses += ',';
      if (m.nskinvert) skins += ',';
      if (m.ncam) cameras += ',';
    }
    AppendNumber(d.time, times);
    AppendBodyPoses(m, d, poses);
    AppendSkinVertices(m, d, skins);
    AppendCameraPoses(m, d, cameras);
  }
  std::string config, summary;
  if (!trajectory.config_path.empty()) {
    config = ReadWholeFile(trajectory.config_path);
    summary = ConfigSummary(config);
  }
  std::string out = "{\"label\":" + JsonString(trajectory.label) +
                    ",\"file\":" + JsonString(trajectory.csv_path) +
                    ",\"summary\":" + JsonString(summary) + ",\"config\":" + JsonString(config) +
                    ",\"time\":" + times + "],\"poses\":" + poses + "],\"skins\":" + skins +
                    "],\"cameras\":" + cameras + "],\"contacts\":";
  out += trajectory.contacts_path.empty() ? "[]"
                                          : ContactFileJson(trajectory.contacts_path, t.rows.size());
  return out + "}";
}

}  // namespace gauss::cli
