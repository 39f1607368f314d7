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

// The pose of the 3.x <frame> elements around an element, composed (identity when none): the
// compiler maps the element's own pose p to frame_pos + R(frame_quat) p.
struct FramePose {
  double pos[3] = {0, 0, 0};
  double quat[4] = {1, 0, 0, 0};
  bool identity = true;
};

// What a keyframe of an attached model gives one element (attach_keys.cc): `key` is the
// KeySpec::attached id of the key, `field` one of qpos qvel (joints), ctrl act (actuators),
// mpos mquat (mocap bodies).
struct AttachedKeyValue {
  int key = -1;
  std::string field;
  std::vector<double> values;
};

struct JointSpec {
  Source src;
  std::vector<AttachedKeyValue> key_values;
  FramePose frame;
  std::string name;
  JointType type = JointType::kHinge;
  bool is_freejoint_element = false;  // written as <freejoint>
  int free_align = 2;  // 3.x freejoint align: 0 false, 1 true, 2 auto (compiler alignfree)
  int group = 0;
  double pos[3] = {0, 0, 0};
  double axis[3] = {0, 0, 1};
  double springdamper[2] = {0, 0};
  int limited = 2;  // 0 false, 1 true, 2 auto
  double solref_limit[kNRef] = {0.02, 1};
  double solimp_limit[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double solref_friction[kNRef] = {0.02, 1};
  double solimp_friction[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  double stiffness[3] = {0, 0, 0};  // 3.x: 1..3 polynomial coefficients (k x + k2 x^2 + k3 x^3)
  double range[2] = {0, 0};
  double margin = 0;
  double ref = 0;
  double springref = 0;
  double armature = 0;
  double damping = 0;
  double frictionloss = 0;
  // 3.x: a limit on the total actuator force at the joint (refused when limited, see
  // docs/mjcf.md) and gravity compensation through the actuators (refused when true)
  int actfrclimited = 2;
  double actfrcrange[2] = {0, 0};
  bool actgravcomp = false;
};

struct GeomSpec {
  Source src;
  FramePose frame;
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
  double surfacevel[6] = {0, 0, 0, 0, 0, 0};  // 3.x: linear, angular in the geom frame
  double adhesion = 0;                         // 3.x: the pull its contacts may exert
};

struct SiteSpec {
  Source src;
  FramePose frame;
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
  // 3.x inertia="legacy|exact|convex|shell" as an index; -1: not written (compiler's rule)
  int inertia = -1;
};

// <asset><hfield>: a height field from a PNG or binary file, inline elevations, or zeros.
struct HfieldSpec {
  Source src;
  std::string name;              // "" until resolved: the file's stem
  std::string file;              // as written; "" without a file
  int nrow = 0, ncol = 0;        // given without a file: the grid size
  double size[4] = {0, 0, 0, 0};
  std::vector<double> elevation; // inline samples, first row = largest y (as MuJoCo 3.x)
};

// <asset><material>: only its colour is compiled (textures are checked to exist, not drawn).
struct MaterialSpec {
  Source src;
  std::string name;
  double rgba[4] = {1, 1, 1, 1};  // from the default class, then the element
  std::string texture;            // "" if none
};

// <asset><skin>: a visual mesh whose vertices follow bone bodies. Inline data, or a .skn file
// read by the compiler (compile_visual.cc) into the same fields.
struct SkinBoneSpec {
  Source src;
  std::string body;
  double bindpos[3] = {0, 0, 0};
  double bindquat[4] = {1, 0, 0, 0};
  std::vector<int> vertid;
  std::vector<double> vertweight;
};

struct SkinSpec {
  Source src;
  std::string name;
  std::string file;  // as written; "" for inline data
  std::string material;
  double rgba[4] = {0.5, 0.5, 0.5, 1};
  double inflate = 0;
  int group = 0;
  std::vector<double> vertex;  // (n x 3) in the bind pose
  std::vector<int> face;       // (m x 3)
  std::vector<SkinBoneSpec> bones;
};

// Lights are visual: only what other elements may refer to is kept.
struct VisualObjectSpec {
  Source src;
  std::string name;
  std::string target;  // body name for the target* modes
};

// <camera> (and its <default> template): pose, mode and intrinsics (MuJoCo 3.x semantics).
struct CameraSpec {
  Source src;
  FramePose frame;
  std::string name;
  std::string target;   // body name for the target* modes
  int mode = 0;         // a CamMode
  double pos[3] = {0, 0, 0};
  Orientation orient;
  double fovy = 45;
  double ipd = 0.068;
  bool orthographic = false;  // projection="orthographic"
  int resolution[2] = {1, 1};
  // 3.x intrinsics, 0 = not written
  double focal[2] = {0, 0}, focalpixel[2] = {0, 0};
  double principal[2] = {0, 0}, principalpixel[2] = {0, 0};
  double sensorsize[2] = {0, 0};
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
  std::vector<AttachedKeyValue> key_values;  // mocap bodies: mpos, mquat
  FramePose frame;
  std::string name;
  std::string childclass;
  double pos[3] = {0, 0, 0};
  Orientation orient;
  bool mocap = false;
  int sleep = 0;  // body/sleep: a SleepPolicy (auto, never, allowed, init)
  double gravcomp = 0;  // 3.x body/gravcomp: the fraction of its weight compensated
  bool has_inertial = false;
  InertialSpec inertial;
  std::vector<JointSpec> joints;
  std::vector<GeomSpec> geoms;
  std::vector<SiteSpec> sites;
  std::vector<CameraSpec> cameras;
  std::vector<VisualObjectSpec> lights;
  std::vector<std::unique_ptr<BodySpec>> children;
};

// Every actuator shortcut compiles into this <general> form.
struct ActuatorSpec {
  Source src;
  std::vector<AttachedKeyValue> key_values;  // ctrl, act
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
  // 3.x position / intvelocity servos: kv wins over dampratio (the last written of the two,
  // as in MuJoCo); dampratio > 0 sets kv from the reflected inertia at qpos0 (compiler)
  double dampratio = 0;
  double inheritrange = 0;  // > 0: ctrlrange (position) or actrange (intvelocity) from the
                            // target joint's or tendon's range, scaled about its centre
  bool actearly = false;    // 3.x: the force uses the next activation
  int actdim = -1;          // 3.x; -1 not written
  double tausmooth = 0;     // 3.x muscles: dynprm[2], the activation time constant's blend
  bool timeconst_servo = false;  // 3.x position with timeconst > 0: filterexact dynamics
  bool servo_damping = false;    // biasprm[2] / dampratio written by a 3.x kv or dampratio
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
  double springlength_high = -1;  // 3.x dead band [springlength, high]; < 0: none
  double armature = 0;            // 3.x
  // 3.x; the default is false, not auto: MuJoCo 3.12.1 ignores a tendon's actuatorfrcrange
  // unless actuatorfrclimited is written true (or auto, which autolimits resolves) (measured)
  int actfrclimited = 0;
  double actfrcrange[2] = {0, 0};
  double margin = 0;
  double stiffness[3] = {0, 0, 0};  // 3.x: 1..3 polynomial coefficients, as for joints
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
  bool sites = false;        // 3.x connect/weld between site1 and site2 (name1, name2)
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
  double solreffriction[kNRef] = {0, 0};  // 3.x; (0, 0): as solref
  double adhesion = 0;                    // 3.x; replaces the geoms' sum
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
  SensorDataType user_datatype = SensorDataType::kReal;
  // 3.x <contact> sensors: the fields of `data` (bit k = field k of found, force, torque, dist,
  // pos, normal, tangent), `reduce` (none, mindist, maxforce, netforce) and `num`
  int contact_data = 1, contact_reduce = 0, contact_num = 1;
  // 3.x <rangefinder data>: bit k = field k of dist, dir, origin, point, normal, depth
  int ray_data = 1;
  // <plugin> sensors (MuJoCo 3.x syntax; parse_plugins.cc): the plugin named directly, or the
  // <extension> instance it uses, and its own <config> entries
  std::string plugin, instance;
  std::vector<std::pair<std::string, std::string>> config;
};

// <extension><plugin plugin="NAME"><instance name="I"><config key value/></instance>
struct PluginInstanceSpec {
  Source src;
  std::string plugin, name;
  std::vector<std::pair<std::string, std::string>> config;
};

struct KeySpec {
  Source src;
  std::string name;
  double time = 0;
  std::vector<double> qpos, qvel, act, ctrl;  // empty: not given
  std::vector<double> mpos, mquat;            // mocap bodies' poses; empty: not given
  // >= 0: a key of an attached model (attach_keys.cc): its values are held by the elements
  // (AttachedKeyValue::key == attached), every other element keeps its qpos0 / zero / pose
  int attached = -1;
};

struct NumericSpec {
  Source src;
  std::string name;
  int size = -1;  // -1: the length of data
  std::vector<double> data;
};

struct CompilerSpec {
  bool alignfree = false;  // 3.x: free bodies re-framed at their inertia (align_free.cc)
  bool autolimits = true;  // MuJoCo 3.x's default (2.2.2: false); see docs/mjcf.md
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
  double memory = -1;  // 3.x <size memory>, bytes; -1 not written
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
  CameraSpec camera;
  ActuatorSpec actuator;
  TendonSpec tendon;
  EqualitySpec equality;
  PairSpec pair;
  double mesh_scale[3] = {1, 1, 1};  // <default><mesh scale>
  double material_rgba[4] = {1, 1, 1, 1};  // <default><material rgba>
  int mesh_inertia = -1;             // 3.x <default><mesh inertia>
};

struct ModelSpec {
  std::string name;
  bool mjcf3 = false;  // the file uses MuJoCo 3.x elements or attributes (UsesMjcf3)
  std::string source_file;  // the model file, "" when loaded from a string
  std::string base_path;    // file or virtual path that relative asset paths start from
  CompilerSpec compiler;
  Options option;
  SizeSpec size;
  StatisticSpec statistic;
  std::vector<DefaultClass> defaults;  // [0] is "main"
  std::vector<MaterialSpec> materials;                      // in file order: material ids
  std::vector<std::pair<std::string, Source>> textures;     // texture asset names
  std::vector<MeshSpec> meshes;
  std::vector<HfieldSpec> hfields;
  std::vector<SkinSpec> skins;
  BodySpec world;
  std::vector<ActuatorSpec> actuators;
  std::vector<TendonSpec> tendons;
  std::vector<EqualitySpec> equalities;
  std::vector<PairSpec> pairs;
  std::vector<ExcludeSpec> excludes;
  std::vector<SensorSpec> sensors;
  std::vector<PluginInstanceSpec> plugin_instances;  // <extension>
  std::vector<KeySpec> keys;
  std::vector<std::string> tuple_geoms;  // geoms named by <custom><tuple> (kept by discardvisual)
  std::vector<NumericSpec> numerics;
};

}  // namespace gauss::mjcf
