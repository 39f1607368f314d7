// The MJCF compiler: from a ModelSpec to the flat, immutable Model.
//
// Stages (each in its own file):
//   compile_mesh.cc     mesh assets: files, mass properties, principal frame, convex hulls
//   compile_hfield.cc   height field assets: PNG and binary files, inline data, scaling
//   compile_visual.cc   materials (their colours) and skins: visual only
//   compile_tree.cc     body order, frames (incl. coordinate="global"), joints, dofs, geoms,
//                       sites, kinematic-tree bookkeeping, qpos0
//   body_inertia.cc     mass properties of bodies (from <inertial> or from geoms)
//   compile_elements.cc actuators, tendons (and their spring lengths), equality
//                       constraints, contact pairs/excludes
//   compile_sensors.cc  sensors, keyframes, custom numerics
//   load_model.cc       the driver (CompileModel) and the public entry points
// CompileModel runs them in that order, then resolves tendon spring lengths and calls
// SetConstants last (both use the kernel's kinematics on the finished model).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gauss/model.h"
#include "mjcf/spec.h"

namespace gauss::mjcf {

// Name -> id for one kind of element; unnamed elements are not entered.
class NameTable {
 public:
  // Records `name` for `id`; throws when the name is already used by this kind.
  void Add(const std::string& name, int id, const Source& src, const std::string& kind);
  int Find(const std::string& name) const;  // -1 if absent
  // The id of `name`, or a located error "unknown <kind> '<name>'" at (src, attribute).
  int Require(const std::string& name, const Source& src, const std::string& attribute,
              const std::string& kind) const;

 private:
  std::map<std::string, int> ids_;
};

// Mass properties and frame of a compiled mesh (compile_mesh.cc), used by its geoms.
struct MeshProps {
  double pos[3] = {0, 0, 0};       // centre of mass in the mesh's reference frame
  double quat[4] = {1, 0, 0, 0};   // principal axes in the reference frame
  double volume = 0;               // volume that gives geom mass = density x volume
  double inertia[3] = {0, 0, 0};   // principal moments per unit mass, decreasing
  double size[3] = {0, 0, 0};      // largest |coordinate| of the vertices along each axis
  double rbound = 0;               // |size|: bounding radius MuJoCo uses for mesh geoms
};

// Working state shared by the compile stages.
struct CompileContext {
  ModelSpec* spec = nullptr;
  Model* m = nullptr;
  std::vector<BodySpec*> bodies;      // by body id (preorder, [0] = world)
  std::vector<const JointSpec*> joints;  // by joint id
  std::vector<const GeomSpec*> geoms;    // by geom id
  std::vector<const SiteSpec*> sites;    // by site id
  std::vector<double> geom_mass;         // (ngeom)
  std::vector<double> geom_inertia;      // (ngeom x 3) principal moments in the geom frame
  std::vector<double> xpos, xquat;       // (nbody x 3 / 4) global body frames at qpos0
  std::vector<MeshProps> meshes;         // (nmesh)
  NameTable mesh_names, hfield_names;
  NameTable body_names, joint_names, geom_names, site_names, camera_names, light_names,
      tendon_names, actuator_names, material_names, texture_names, equality_names, pair_names,
      exclude_names, sensor_names, key_names, numeric_names;
};

// Compiles the whole model. (spec) => (model)
void CompileModel(ModelSpec* spec, Model* m);

// compiler discardvisual="true" (discard_visual.cc): the visual geoms removed from the spec as
// the file's MuJoCo version does (3.x: named ones kept, the bodies' mass kept as an explicit
// inertial). (spec) => (spec bodies' geoms and inertials)
void DiscardVisualGeoms(ModelSpec* spec);

// ---------------------------------------------------------------- stages
// The file a <mesh file> or <skin file> names: strippath drops the directories, a relative
// path starts at the model file's folder plus compiler meshdir.
std::string ResolveMeshPath(const ModelSpec& spec, const std::string& file);
// Skins in file order, .skn files read, bones bound to bodies, weights normalized per vertex.
// Needs the bodies (after CompileTree). (spec skins) => (nskin*, skin_*)
void CompileSkins(CompileContext* c);
// Materials in file order: names (material ids), the textures they name checked to exist.
// (spec materials) => (nmat, mat_rgba, mat_name, c->material_names)
void CompileMaterials(CompileContext* c);
// Meshes: files read, mass properties, vertices in the principal frame, convex hulls.
// (spec meshes) => (mesh_*, nmesh*, c->meshes)
void CompileMeshes(CompileContext* c);
// The file a <mesh file> or <hfield file> names (MuJoCo 2.2.2 looks for both in meshdir):
// strippath drops the directories, a relative path starts at the model file's folder plus
// compiler meshdir.
std::string ResolveMeshPath(const ModelSpec& spec, const std::string& file);
// Height fields: files read (PNG, MuJoCo's binary format), data scaled to [0, 1].
// (spec hfields) => (hfield_*, nhfield*, c->hfield_names)
void CompileHfields(CompileContext* c);
// Size of an hfield geom from its height field (MuJoCo 2.2.2: radius_x, radius_y, half the
// total height); returns the height field id. (geom spec) => (size)
int PlaceHfieldGeom(const CompileContext& c, const GeomSpec& g, double size[3]);
// Frame, size, bounding radius, mass and inertia of a mesh geom from its mesh; returns the
// mesh id. (geom spec, placed pos/quat) => (pos, quat, size, rbound, mass, inertia)
int PlaceMeshGeom(const CompileContext& c, const GeomSpec& g, double pos[3], double quat[4],
                  double size[3], double* rbound, double* mass, double inertia[3]);
// Body ids, frames, joints, dofs, geoms, sites, cameras, tree bookkeeping, qpos0 and
// qpos_spring.
void CompileTree(CompileContext* c);
// compile_tree.cc: a pose written inside <frame>s of body `body` (or in world coordinates
// under compiler coordinate="global") => the pose in the body frame.
void PlaceInBody(const CompileContext& c, int body, const FramePose& frame, double pos[3],
                 double quat[4]);
// compile_camera.cc: the cameras of body b, in file order (needs every body's name).
// (spec cameras) => (ncam, cam_*, c->camera_names)
void CompileCameras(CompileContext* c, int b);
// jnt_stiffness and dof_damping of joints with springdamper; needs dof_invweight0, so it
// runs after SetConstants.
void ApplySpringDampers(CompileContext* c);
// body_mass, body_ipos, body_iquat, body_inertia (incl. boundmass, balanceinertia, the
// moving-body check and settotalmass), then body_subtreemass.
void CompileBodyInertia(CompileContext* c);
// 3.x freejoint align / compiler alignfree (align_free.cc): each aligned free body's frame
// moves to its inertial frame. Needs the body inertia, and runs before the tendons,
// equalities and sensors read site and body frames.
// (body_*, geom/site poses, qpos0, c->xpos) => (the same, re-framed)
void AlignFreeBodies(CompileContext* c);
// 3.x dampratio of position / intvelocity servos into biasprm[2] (compile_servo.cc); needs
// the complete model, so it runs after SetConstants.
void ApplyDampRatios(CompileContext* c);
// Actuators, tendons (incl. lengthspring at qpos0), equality constraints, pairs, excludes.
void CompileActuators(CompileContext* c);
void CompileTendons(CompileContext* c);
void CompileEqualities(CompileContext* c);
void CompileContacts(CompileContext* c);
// Sensors, keyframes, custom numerics.
void CompileSensors(CompileContext* c);
// compile_plugins.cc: a <sensor><plugin>'s plugin name and parameters, from its own plugin=
// and <config>, or from the <extension> instance it names. (spec.plugin_instances, s) =>
// (plugin, config)
void ResolveSensorPlugin(const CompileContext& c, const SensorSpec& s, std::string* plugin,
                         std::map<std::string, std::string>* config);
void CompileKeysAndNumerics(CompileContext* c);

// ---------------------------------------------------------------- helpers
// tendon_lengthspring left negative by CompileTendons (no springlength given) becomes the
// tendon's length at qpos_spring. Needs the complete model (runs the kinematics stage).
void ResolveTendonSpringLengths(CompileContext* c);

// Principal axes of a symmetric inertia tensor given as (xx, yy, zz, xy, xz, yz): moments in
// decreasing order and the rotation (quaternion) whose columns are the axes. Returns the
// smallest eigenvalue.
double PrincipalAxes(const double full[6], double inertia[3], double quat[4]);

}  // namespace gauss::mjcf
