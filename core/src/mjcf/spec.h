// The parsed model: what the MJCF file says, after default classes are applied, before
// compilation into the flat Model arrays.
//
// Each *Spec struct starts from MuJoCo 2.2.2's built-in defaults; a default class holds one
// template of each kind, and an element is a copy of its class's template overwritten by the
// attributes it sets. Orientations and sizes stay as written (angles in the file's unit) until
// compilation, because defaults may carry them too.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/options.h"
#include "gauss/types.h"
#include "lengthrange.h"

namespace gauss::mjcf {

// Where an element was written: for errors raised during compilation.
struct Source {
  std::string file;
  int line = 0;
  std::string element;
  ErrorLocation Where(const std::string& attribute = "") const {
    return ErrorLocation{file, line, element, attribute};
  }
};

// The five ways MJCF writes a rotation. Defaults may set any of them, and an element inherits
// all of them; when several are present the compiler applies them in MuJoCo 2.2.2's order of
// precedence (measured): euler > zaxis > xyaxes > axisangle > quat.
struct Orientation {
  double quat[4] = {1, 0, 0, 0};
  bool has_axisangle = false, has_xyaxes = false, has_zaxis = false, has_euler = false;
  double axisangle[4] = {0, 0, 1, 0};
  double xyaxes[6] = {1, 0, 0, 0, 1, 0};
  double zaxis[3] = {0, 0, 1};
  double euler[3] = {0, 0, 0};
};

struct JointSpec {
  Source src;
  std::string name;
  JointType type = JointType::kHinge;
  bool is_freejoint_element = false;  // written as <freejoint>
  int group = 0;
  double pos[3] = {0, 0, 0};
  double axis[3] = {0, 0, 1};
  double springdamper[2] = {0, 0};
  int limited = 2;  // 0 false, 1 true, 2 auto
  double solref_limit[kNRef] = {0.02, 1};
  double solimp_limit[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double solref_friction[kNRef] = {0.02, 1};
  double solimp_friction[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double stiffness = 0;
  double range[2] = {0, 0};
  double margin = 0;
  double ref = 0;
  double springref = 0;
  double armature = 0;
  double damping = 0;
  double frictionloss = 0;
};

struct GeomSpec {
  Source src;
  std::string name;
  GeomType type = GeomType::kSphere;
  int contype = 1;
  int conaffinity = 1;
  int condim = 3;
  int group = 0;
  int priority = 0;
  double size[3] = {0, 0, 0};
  std::string material;
  double friction[3] = {1, 0.005, 0.0001};
  bool has_mass = false;  // an explicit mass overrides density
  double mass = 0;
  double density = 1000;
  bool shellinertia = false;
  double solmix = 1;
  double solref[kNRef] = {0.02, 1};
  double solimp[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0;
  double gap = 0;
  bool has_fromto = false;
  double fromto[6] = {0, 0, 0, 0, 0, 0};
  bool has_pos = false;  // "pos" written together with "fromto" is an error
  double pos[3] = {0, 0, 0};
  Orientation orient;
  std::string hfield, mesh;
  double rgba[4] = {0.5, 0.5, 0.5, 1};
  bool fluid_ellipsoid = false;  // fluidshape="ellipsoid"
  // blunt drag, slender drag, angular drag, Kutta lift, Magnus lift (fluidcoef)
  double fluidcoef[5] = {0.5, 0.25, 1.5, 1.0, 1.0};
};

struct SiteSpec {
  Source src;
  std::string name;
  GeomType type = GeomType::kSphere;
  int group = 0;
  double pos[3] = {0, 0, 0};
  bool has_pos = false;
  Orientation orient;
  std::string material;
  double size[3] = {0.005, 0.005, 0.005};
  bool has_fromto = false;
  double fromto[6] = {0, 0, 0, 0, 0, 0};
  double rgba[4] = {0.5, 0.5, 0.5, 1};
};

// <asset><mesh>: the geometry of mesh geoms, from a file or inline vertex/face lists.
struct MeshSpec {
  Source src;
  std::string name;             // "" until resolved: the file's stem
  std::string file;             // as written; "" for an inline mesh
  double scale[3] = {1, 1, 1};  // from the default class, then the element
  double refpos[3] = {0, 0, 0};
  double refquat[4] = {1, 0, 0, 0};
  std::vector<double> vertex;   // inline vertices (n x 3)
  std::vector<int> face;        // inline triangles (m x 3); none: the convex hull's
};

// Cameras and lights are visual: only what other elements may refer to is kept.
struct VisualObjectSpec {
  Source src;
  std::string name;
  std::string target;  // body name for the target* modes
};

struct InertialSpec {
  Source src;
  double pos[3] = {0, 0, 0};
  Orientation orient;
  double mass = 0;
  bool has_diag = false, has_full = false;
  double diaginertia[3] = {0, 0, 0};
  double fullinertia[6] = {0, 0, 0, 0, 0, 0};  // Ixx Iyy Izz Ixy Ixz Iyz
};

struct BodySpec {
  Source src;
  std::string name;
  std::string childclass;
  double pos[3] = {0, 0, 0};
  Orientation orient;
  bool mocap = false;
  bool has_inertial = false;
  InertialSpec inertial;
  std::vector<JointSpec> joints;
  std::vector<GeomSpec> geoms;
  std::vector<SiteSpec> sites;
  std::vector<VisualObjectSpec> cameras, lights;
  std::vector<std::unique_ptr<BodySpec>> children;
};

// Every actuator shortcut compiles into this <general> form.
struct ActuatorSpec {
  Source src;
  std::string name;
  int group = 0;
  int ctrllimited = 2, forcelimited = 2, actlimited = 2;  // 0 false, 1 true, 2 auto
  double ctrlrange[2] = {0, 0};
  double forcerange[2] = {0, 0};
  double actrange[2] = {0, 0};
  double lengthrange[2] = {0, 0};
  double gear[6] = {1, 0, 0, 0, 0, 0};
  double cranklength = 0;
  DynType dyntype = DynType::kNone;
  GainType gaintype = GainType::kFixed;
  BiasType biastype = BiasType::kNone;
  double dynprm[kNDyn] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  double gainprm[kNGain] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  double biasprm[kNBias] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  // transmission target: which attribute named it, and the names
  std::string target_attr;  // "joint", "jointinparent", "tendon", "cranksite", "site", "body"
  std::string target, target2;  // target2: slidersite (slider-crank) or refsite (site)
  // ActuatorDynamics plugin named by a non-builtin dyntype ("" = builtin); see docs/mjcf.md
  std::string plugin;
};

struct WrapSpec {
  Source src;
  WrapType type = WrapType::kNone;  // kJoint, kPulley, kSite, kSphere/kCylinder (a geom)
  std::string name;                 // joint, site or geom name
  std::string sidesite;
  double prm = 0;                   // joint coef or pulley divisor
};

struct TendonSpec {
  Source src;
  std::string name;
  bool spatial = false;
  int group = 0;
  int limited = 2;
  double range[2] = {0, 0};
  double solref_limit[kNRef] = {0.02, 1};
  double solimp_limit[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double solref_friction[kNRef] = {0.02, 1};
  double solimp_friction[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double frictionloss = 0;
  double springlength = -1;  // negative: the length at qpos0
  double margin = 0;
  double stiffness = 0;
  double damping = 0;
  std::string material;  // visual; checked to exist
  std::vector<WrapSpec> path;
};

struct EqualitySpec {
  Source src;
  std::string name;
  EqType type = EqType::kConnect;
  bool active = true;
  double solref[kNRef] = {0.02, 1};
  double solimp[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  std::string name1, name2;  // bodies, joints or tendons
  double anchor[3] = {0, 0, 0};
  double relpose[7] = {0, 0, 0, 0, 0, 0, 0};  // quaternion part all zero: take it from qpos0
  double torquescale = 1;
  double polycoef[5] = {0, 1, 0, 0, 0};
};

struct PairSpec {
  Source src;
  std::string name;
  std::string geom1, geom2;
  int condim = 3;
  double friction[5] = {1, 1, 0.005, 0.0001, 0.0001};
  double solref[kNRef] = {0.02, 1};
  double solimp[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0;
  double gap = 0;
};

struct ExcludeSpec {
  Source src;
  std::string body1, body2;
};

struct SensorSpec {
  Source src;
  std::string type;  // MJCF element name, e.g. "jointpos"
  std::string name;
  std::string objtype, objname, reftype, refname;  // objtype/reftype as written (frame, user)
  double cutoff = 0;
  double noise = 0;
  int user_dim = 0;                     // <user> sensors only
  Stage user_stage = Stage::kAcceleration;
};

struct KeySpec {
  Source src;
  std::string name;
  double time = 0;
  std::vector<double> qpos, qvel, act, ctrl;  // empty: not given
  std::vector<double> mpos, mquat;            // mocap bodies' poses; empty: not given
};

struct NumericSpec {
  Source src;
  std::string name;
  int size = -1;  // -1: the length of data
  std::vector<double> data;
};

struct CompilerSpec {
  bool autolimits = false;
  double boundmass = 0;
  double boundinertia = 0;
  double settotalmass = -1;
  bool balanceinertia = false;
  bool degree = true;  // angle="degree" (the default) or "radian"
  bool global = false; // coordinate="global"
  std::string eulerseq = "xyz";
  int inertiafromgeom = 2;  // 0 false, 1 true, 2 auto
  int inertiagrouprange[2] = {0, 5};
  bool fusestatic = false;
  bool discardvisual = false;
  std::string meshdir, texturedir;
  bool strippath = false;
  bool exactmeshinertia = false;  // mesh mass properties: exact (true) or MuJoCo's legacy rule
  LengthRangeOptions lengthrange;  // <compiler><lengthrange> (used by SetLengthRanges)
};

struct SizeSpec {
  int njmax = -1, nconmax = -1, nkey = 0;
};

struct StatisticSpec {
  bool has_meaninertia = false, has_meanmass = false, has_extent = false;
  double meaninertia = 0, meanmass = 0, extent = 0;
};

// A default class: one template per element kind.
struct DefaultClass {
  std::string name;
  int parent = -1;
  JointSpec joint;
  GeomSpec geom;
  SiteSpec site;
  ActuatorSpec actuator;
  TendonSpec tendon;
  EqualitySpec equality;
  PairSpec pair;
  double mesh_scale[3] = {1, 1, 1};  // <default><mesh scale>
};

struct ModelSpec {
  std::string name;
  std::string source_file;  // the model file, "" when loaded from a string
  std::string base_path;    // file or virtual path that relative asset paths start from
  CompilerSpec compiler;
  Options option;
  SizeSpec size;
  StatisticSpec statistic;
  std::vector<DefaultClass> defaults;  // [0] is "main"
  std::vector<std::pair<std::string, Source>> materials, textures;  // asset names
  std::vector<std::pair<std::string, Source>> material_textures;     // textures materials use
  std::vector<MeshSpec> meshes;
  BodySpec world;
  std::vector<ActuatorSpec> actuators;
  std::vector<TendonSpec> tendons;
  std::vector<EqualitySpec> equalities;
  std::vector<PairSpec> pairs;
  std::vector<ExcludeSpec> excludes;
  std::vector<SensorSpec> sensors;
  std::vector<KeySpec> keys;
  std::vector<NumericSpec> numerics;
};

}  // namespace gauss::mjcf
