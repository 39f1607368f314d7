// The data of a viewer page (docs/viewer.md): the model's drawable parts and the trajectories
// to play, as the JSON object the page script (viewer/src) reads.
//
// Scene JSON: {"model": {name, file, timestep, bodies, geoms, sites, skins, meshes, hfields,
//                        cameras},
//              "rest": poses, "restSkins": skin vertices, "restCameras": camera poses
//              (reference configuration),
//              "trajectories": [{label, file, summary, config, time, poses, skins, cameras,
//                                contacts}],
//              "camera": the model camera the page starts with (-1: the free camera),
//              "live": bool}
// poses hold, per frame, every body but the world as x y z qw qx qy qz (world frame);
// cameras likewise every model camera (cam_xpos, cam_xmat as a quaternion; the camera looks
// along its -z axis with y up, as three.js cameras do);
// skins hold, per frame, the posed vertices of every skin (gauss/visual.h SkinVertices) as
// x y z, skin after skin (nskinvert x 3 numbers per frame);
// contacts hold per contact its frame index, point, normal, normal and friction force:
// [frame,px,py,pz,nx,ny,nz,fn,ft, frame,...].
#pragma once

#include <string>
#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/model.h"

namespace gauss::cli {

// A string that is valid inside a JSON string literal and inside an HTML <script> element
// (quotes, backslashes, control characters and < > & escaped).
std::string JsonString(const std::string& text);

// One trajectory to show: a CSV with time and qpos0..qpos{nq-1} columns (`gauss run --out` or
// an experiment trace), a legend label and the configuration it was run with.
struct ViewTrajectory {
  std::string csv_path;
  std::string label;        // legend name (default: the file name)
  std::string config_path;  // resolved configuration YAML ("" if none): shown in the legend
  std::string contacts_path;  // contacts CSV (contact_csv.h), "" if none
};

// (trajectory CSV) => ViewTrajectory with the files found beside it: TRAJ.csv.config.yaml and
// TRAJ.csv.contacts.csv when they exist.
ViewTrajectory TrajectoryWithSidecars(const std::string& csv_path);

// (model) => the "model" JSON object: bodies (name, parent), geoms and sites (type, body, size,
// local pose, the rgba they are drawn with (own or material, gauss/visual.h), group, collides),
// skins (name, rgba, group, faces, vertex count), meshes (compiled vertices and triangles),
// cameras (name, vertical field of view in degrees).
std::string ModelJson(const Model& m, const std::string& model_path);

// (engine, trajectory) => the trajectory JSON object. Each CSV row's qpos is put through
// Forward on `d` (any qvel/act columns too) to get the body poses. Throws gauss::Error naming
// the file and column when qpos columns are missing or do not match the model.
std::string TrajectoryJson(const Engine& engine, Data& d, const ViewTrajectory& trajectory);

// (d after Forward) => "x y z qw qx qy qz" of bodies 1..nbody-1, appended to `out` as JSON
// numbers separated by commas (no brackets).
void AppendBodyPoses(const Model& m, const Data& d, std::string& out);

// (d after Forward) => "x y z qw qx qy qz" of every camera (cam_xpos, cam_xmat), appended to
// `out` like AppendBodyPoses (nothing for a model without cameras).
void AppendCameraPoses(const Model& m, const Data& d, std::string& out);

// (model, --camera argument) => the camera index the page starts with: -1 for "" (the free
// camera), else the camera of that name, or of that index; throws UsageError naming the
// model's cameras otherwise.
int ViewCameraIndex(const Model& m, const std::string& camera);

// (d after Forward) => the posed vertices of every skin, "x,y,z,..." appended to `out` (no
// brackets; nothing for a model without skins).
void AppendSkinVertices(const Model& m, const Data& d, std::string& out);

// (d after Forward) => the contacts of `d` as a JSON array [0,px,py,pz,nx,ny,nz,fn,ft, ...]
// (the trajectory contact format with every contact in frame 0).
std::string ContactsJson(const Model& m, const Data& d);

// "solver=newton integrator=euler timestep=0.002 cone=pyramidal" from a resolved config file.
std::string ConfigSummary(const std::string& config_yaml_text);

}  // namespace gauss::cli
