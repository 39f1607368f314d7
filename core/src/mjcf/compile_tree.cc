// Compiling the kinematic tree: body ids, frames, joints and dofs, geoms and sites.
//
// Rules measured against MuJoCo 2.2.2:
//  - Bodies are numbered in document preorder (world = 0); joints, dofs, geoms and sites are
//    numbered body by body in that order, and in document order inside a body.
//  - coordinate="global": body, joint, geom, site and inertial frames are written in world
//    coordinates and converted to the parent body's frame.
//  - A free joint may only be used in a child of the world; a body has at most 6 dofs. A free
//    joint's pos is ignored (0) and ball/free joints store axis (0, 0, 1) (with
//    coordinate="global": that world axis expressed in the body frame). A ball joint may
//    not be followed by a hinge or ball joint in the same body.
//  - limited="auto" (the default): with compiler autolimits="true" a joint is limited when its
//    range is not (0, 0); with autolimits="false" a nonzero range without limited is an error.
//    A limited joint needs range[0] < range[1].
//  - Hinge and ball ranges are converted to radians only when the joint is limited; hinge ref
//    and springref always are (angle="degree" is the default).
//  - qpos0: hinge/slide ref, ball identity, free the body's position and orientation;
//    qpos_spring: hinge/slide springref, otherwise qpos0.
//  - Mesh geoms take their frame, size, bound and mass properties from their mesh
//    (compile_mesh.cc); the mesh attribute on other types (fitting) is refused.
//  - Hfield geoms take their size from their height field (compile_hfield.cc). Planes and
//    height fields are only allowed in static bodies (welded to the world). fromto works for capsule,
//    cylinder, box and ellipsoid, overrides any orientation and may not be combined with pos;
//    for boxes and ellipsoids size[1] = size[0] and size[2] is the half-length.
//  - dof_Madr: dof i takes 1 + (number of ancestor dofs) entries of the tree-sparse M.
//  - springdamper="timeconst dampratio" (both > 0) replaces stiffness and damping, with the
//    joint's effective mass 1 / dof_invweight0 at qpos0 (for a ball joint: the mean over its
//    dofs): stiffness = mass / (timeconst dampratio)^2, damping = 2 mass / timeconst.
#include <cmath>

#include "gauss/math.h"
#include "fluid.h"
#include "mjcf/compiler.h"
#include "mjcf/geom_inertia.h"
#include "mjcf/orientation.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Numbers the bodies in document preorder. (body tree) => (c->bodies, parents)
void Flatten(BodySpec* b, int parent, CompileContext* c, std::vector<int>* parents) {
  const int id = static_cast<int>(c->bodies.size());
  c->bodies.push_back(b);
  parents->push_back(parent);
  for (auto& child : b->children) Flatten(child.get(), id, c, parents);
}

// Converts a frame written in world coordinates (global mode) into body `b`'s frame.
void ToBodyFrame(const CompileContext& c, int b, double pos[3], double quat[4]) {
  double lp[3], lq[4];
  GlobalToLocal(&c.xpos[3 * b], &c.xquat[4 * b], pos, quat, lp, lq);
  math::Copy3(pos, lp);
  math::Copy4(quat, lq);
}

// Checks that a geom or site has the positive sizes its type needs. (type, size) => ()
void CheckSize(GeomType type, const double size[3], const Source& src) {
  int needed = 0;
  switch (type) {
    case GeomType::kSphere: needed = 1; break;
    case GeomType::kCapsule:
    case GeomType::kCylinder: needed = 2; break;
    case GeomType::kEllipsoid:
    case GeomType::kBox: needed = 3; break;
    case GeomType::kPlane:
      if (!(size[2] > 0)) throw Error(src.Where("size"), "a plane needs size[2] > 0");
      return;
    default: return;
  }
  for (int k = 0; k < needed; ++k) {
    if (!(size[k] > 0)) {
      throw Error(src.Where("size"), "size[" + std::to_string(k) + "] must be positive (this type "
                                     "needs " + std::to_string(needed) + " positive sizes)");
    }
  }
}

// 3.x joint actuatorfrcrange (auto-limited like range) => (jnt_actfrclimited, jnt_actfrcrange).
// As in MuJoCo 3.12.1 (measured), it is accepted on every joint type but clamps only hinge and
// slide joints (ActuatorToJointForces), and the implicit integrators' actuator velocity
// derivative ignores the clamp.
void CompileActuatorForceRange(const CompileContext& c, const JointSpec& j, Model* m) {
  const bool has_range = j.actfrcrange[0] != 0 || j.actfrcrange[1] != 0;
  int limited = j.actfrclimited;
  if (limited == 2) {
    if (has_range && !c.spec->compiler.autolimits) {
      throw Error(j.src.Where("actuatorfrcrange"),
                  "actuatorfrcrange is given but actuatorfrclimited is not: set compiler "
                  "autolimits=\"true\", or write actuatorfrclimited");
    }
    limited = has_range ? 1 : 0;
  }
  if (limited && !(j.actfrcrange[0] <= j.actfrcrange[1])) {
    throw Error(j.src.Where("actuatorfrcrange"), "the range must satisfy lower <= upper");
  }
  m->jnt_actfrclimited.push_back(limited ? 1 : 0);
  m->jnt_actfrcrange.insert(m->jnt_actfrcrange.end(), j.actfrcrange, j.actfrcrange + 2);
}

// Applies the pose of the enclosing 3.x <frame>s to a pose written inside them.
// (frame, pos, quat) => (pos, quat) in the body frame
void ApplyFrame(const FramePose& f, double pos[3], double quat[4]) {
  if (f.identity) return;
  double p[3], q[4];
  LocalToGlobal(f.pos, f.quat, pos, quat, p, q);
  math::Copy3(pos, p);
  math::Copy4(quat, q);
}

// Position, orientation and size of a geom or site (fromto, global mode and frames handled).
// (spec fields) => (pos, quat, size) in the body frame
template <typename Spec>
void PlaceObject(const CompileContext& c, int body, const Spec& s, double pos[3], double quat[4],
                 double size[3]) {
  const CompilerSpec& cmp = c.spec->compiler;
  for (int k = 0; k < 3; ++k) size[k] = s.size[k];
  if (s.has_fromto) {
    const GeomType t = s.type;
    if (t != GeomType::kCapsule && t != GeomType::kCylinder && t != GeomType::kBox &&
        t != GeomType::kEllipsoid) {
      throw Error(s.src.Where("fromto"), "fromto requires a capsule, cylinder, box or ellipsoid");
    }
    if (s.has_pos) throw Error(s.src.Where("pos"), "pos and fromto cannot be used together");
    double half = 0;
    FromtoFrame(s.fromto, s.src, pos, quat, &half);
    if (t == GeomType::kCapsule || t == GeomType::kCylinder) {
      size[1] = half;
    } else {
      size[1] = size[0];
      size[2] = half;
    }
  } else {
    math::Copy3(pos, s.pos);
    OrientationToQuat(s.orient, cmp.degree, cmp.eulerseq, s.src, quat);
  }
  ApplyFrame(s.frame, pos, quat);
  if (cmp.global) ToBodyFrame(c, body, pos, quat);
}

// The id of the material named by a geom or site (which must be defined in <asset>), -1 if
// none.
int MaterialId(const CompileContext& c, const std::string& material, const Source& src) {
  if (material.empty()) return -1;
  return c.material_names.Require(material, src, "material", "material");
}

// Frames of body b: body_pos/body_quat in the parent frame and the global frame at qpos0.
void CompileBodyFrame(CompileContext* c, int b, int parent) {
  Model& m = *c->m;
  const BodySpec& s = *c->bodies[b];
  const CompilerSpec& cmp = c->spec->compiler;
  double pos[3], quat[4];
  math::Copy3(pos, s.pos);
  OrientationToQuat(s.orient, cmp.degree, cmp.eulerseq, s.src, quat);
  ApplyFrame(s.frame, pos, quat);
  double* xp = &c->xpos[3 * b];
  double* xq = &c->xquat[4 * b];
  if (cmp.global) {
    math::Copy3(xp, pos);
    math::Copy4(xq, quat);
    GlobalToLocal(&c->xpos[3 * parent], &c->xquat[4 * parent], xp, xq, pos, quat);
  } else {
    LocalToGlobal(&c->xpos[3 * parent], &c->xquat[4 * parent], pos, quat, xp, xq);
  }
  math::Copy3(&m.body_pos[3 * b], pos);
  math::Copy4(&m.body_quat[4 * b], quat);
}

// Joints and dofs of body b. (spec joints) => (jnt_*, dof_*, qpos0, qpos_spring, body_jnt*)
void CompileJoints(CompileContext* c, int b, int parent) {
  Model& m = *c->m;
  const BodySpec& body = *c->bodies[b];
  const CompilerSpec& cmp = c->spec->compiler;
  int ndof = 0;
  bool ball_seen = false;
  for (const JointSpec& j : body.joints) {
    ndof += JointNv(j.type);
    // MuJoCo 2.2.2 refuses a ball joint followed by another rotation in the same body
    if (ball_seen && (j.type == JointType::kHinge || j.type == JointType::kBall)) {
      throw Error(j.src.Where("type"), "a ball joint cannot be followed by a hinge or ball joint "
                                       "in the same body");
    }
    ball_seen = ball_seen || j.type == JointType::kBall;
  }
  if (ndof > 6) {
    throw Error(body.src.Where(), "a body can have at most 6 degrees of freedom; this one has " +
                                      std::to_string(ndof));
  }
  m.body_jntnum[b] = static_cast<int>(body.joints.size());
  m.body_jntadr[b] = body.joints.empty() ? -1 : m.njnt;
  m.body_dofnum[b] = ndof;
  m.body_dofadr[b] = ndof ? m.nv : -1;

  for (const JointSpec& j : body.joints) {
    const int id = m.njnt++;
    c->joints.push_back(&j);
    c->joint_names.Add(j.name, id, j.src, "joint");
    if (j.type == JointType::kFree && parent != 0) {
      throw Error(j.src.Where(), "a free joint can only be used in a child of the world body");
    }
    if ((j.springdamper[0] != 0 || j.springdamper[1] != 0) &&
        !(j.springdamper[0] > 0 && j.springdamper[1] > 0)) {
      throw Error(j.src.Where("springdamper"), "both values (timeconst, dampratio) must be "
                                               "positive when springdamper is given");
    }
    double pos[3] = {0, 0, 0}, axis[3] = {0, 0, 1};
    if (j.type != JointType::kFree) math::Copy3(pos, j.pos);
    if (j.type == JointType::kHinge || j.type == JointType::kSlide) {
      math::Copy3(axis, j.axis);
      if (math::Norm3(axis) < kMinVal) throw Error(j.src.Where("axis"), "the axis is zero");
      math::Normalize3(axis);
    }
    if (!j.frame.identity) {
      // a joint inside a <frame>: its position and axis are in the frame's coordinates
      double p[3], a[3];
      math::RotVecQuat(p, pos, j.frame.quat);
      math::Add3(pos, p, j.frame.pos);
      if (j.type == JointType::kHinge || j.type == JointType::kSlide) {
        math::RotVecQuat(a, axis, j.frame.quat);
        math::Copy3(axis, a);
      }
    }
    if (cmp.global) {
      // joint pos and axis are world coordinates: express them in the body frame
      double inv[4], d[3];
      math::NegQuat(inv, &c->xquat[4 * b]);
      math::Sub3(d, pos, &c->xpos[3 * b]);
      if (j.type != JointType::kFree) math::RotVecQuat(pos, d, inv);
      // ball and free joints too: their (0, 0, 1) axis is rotated into the body frame
      math::RotVecQuat(axis, axis, inv);
      math::Normalize3(axis);
    }

    int limited = j.limited;
    const bool has_range = j.range[0] != 0 || j.range[1] != 0;
    if (limited == 2) {
      if (cmp.autolimits) {
        limited = has_range ? 1 : 0;
      } else if (has_range) {
        throw Error(j.src.Where("range"),
                    "range is given but limited is not: set compiler autolimits=\"true\", or "
                    "write limited=\"true\" or \"false\"");
      } else {
        limited = 0;
      }
    }
    double range[2] = {j.range[0], j.range[1]};
    if (limited && !(range[0] < range[1])) {
      throw Error(j.src.Where("range"),
                  "range[0] must be smaller than range[1] for a limited joint");
    }
    const bool angular = j.type == JointType::kHinge || j.type == JointType::kBall;
    if (limited && angular && cmp.degree) {
      range[0] *= kPi / 180;
      range[1] *= kPi / 180;
    }

    m.jnt_type.push_back(j.type);
    m.jnt_qposadr.push_back(m.nq);
    m.jnt_dofadr.push_back(m.nv);
    m.jnt_bodyid.push_back(b);
    m.jnt_group.push_back(j.group);
    m.jnt_limited.push_back(static_cast<unsigned char>(limited));
    m.jnt_solref.insert(m.jnt_solref.end(), j.solref_limit, j.solref_limit + kNRef);
    m.jnt_solimp.insert(m.jnt_solimp.end(), j.solimp_limit, j.solimp_limit + kNImp);
    m.jnt_pos.insert(m.jnt_pos.end(), pos, pos + 3);
    m.jnt_axis.insert(m.jnt_axis.end(), axis, axis + 3);
    m.jnt_stiffness.push_back(j.stiffness[0]);
    const bool polynomial = j.stiffness[1] != 0 || j.stiffness[2] != 0;
    if (polynomial && (j.type == JointType::kBall || j.type == JointType::kFree)) {
      throw Error(j.src.Where("stiffness"), "not supported yet: polynomial stiffness (2 or 3 "
                                            "values) on a ball or free joint");
    }
    m.jnt_stiffnesspoly.insert(m.jnt_stiffnesspoly.end(), j.stiffness + 1, j.stiffness + 3);
    m.jnt_range.insert(m.jnt_range.end(), range, range + 2);
    m.jnt_margin.push_back(j.margin);
    CompileActuatorForceRange(*c, j, &m);
    m.jnt_actgravcomp.push_back(j.actgravcomp ? 1 : 0);
    m.jnt_name.push_back(j.name);

    // reference and spring configurations
    const double scale = (j.type == JointType::kHinge && cmp.degree) ? kPi / 180 : 1;
    switch (j.type) {
      case JointType::kFree:
        m.qpos0.insert(m.qpos0.end(), &c->xpos[3 * b], &c->xpos[3 * b] + 3);
        m.qpos0.insert(m.qpos0.end(), &c->xquat[4 * b], &c->xquat[4 * b] + 4);
        m.qpos_spring.insert(m.qpos_spring.end(), m.qpos0.end() - 7, m.qpos0.end());
        break;
      case JointType::kBall:
        m.qpos0.insert(m.qpos0.end(), {1, 0, 0, 0});
        m.qpos_spring.insert(m.qpos_spring.end(), {1, 0, 0, 0});
        break;
      default:
        m.qpos0.push_back(j.ref * scale);
        m.qpos_spring.push_back(j.springref * scale);
    }
    m.nq += JointNq(j.type);

    for (int k = 0; k < JointNv(j.type); ++k) {
      m.dof_bodyid.push_back(b);
      m.dof_jntid.push_back(id);
      m.dof_solref.insert(m.dof_solref.end(), j.solref_friction, j.solref_friction + kNRef);
      m.dof_solimp.insert(m.dof_solimp.end(), j.solimp_friction, j.solimp_friction + kNImp);
      m.dof_frictionloss.push_back(j.frictionloss);
      m.dof_armature.push_back(j.armature);
      m.dof_damping.push_back(j.damping);
      ++m.nv;
    }
  }
}

// Geoms of body b. (spec geoms) => (geom_*, body_geom*, geom mass properties in the context)
void CompileGeoms(CompileContext* c, int b) {
  Model& m = *c->m;
  const BodySpec& body = *c->bodies[b];
  m.body_geomnum[b] = static_cast<int>(body.geoms.size());
  m.body_geomadr[b] = body.geoms.empty() ? -1 : m.ngeom;
  for (const GeomSpec& g : body.geoms) {
    const int id = m.ngeom++;
    c->geoms.push_back(&g);
    c->geom_names.Add(g.name, id, g.src, "geom");
    if (g.type != GeomType::kMesh && !g.mesh.empty()) {
      throw Error(g.src.Where("mesh"), "not supported yet: fitting a primitive geom to a mesh "
                                       "(the mesh attribute on a geom that is not type=\"mesh\")");
    }
    if (g.shellinertia) throw Error(g.src.Where("shellinertia"), "not supported yet: shellinertia");
    if ((g.type == GeomType::kPlane || g.type == GeomType::kHfield) && m.body_weldid[b] != 0) {
      throw Error(g.src.Where("type"), std::string(g.type == GeomType::kPlane ? "planes" : "height fields") +
                                           " are only allowed in static bodies (the world or "
                                           "bodies welded to it)");
    }
    if (g.condim != 1 && g.condim != 3 && g.condim != 4 && g.condim != 6) {
      throw Error(g.src.Where("condim"), "condim must be 1, 3, 4 or 6, found " +
                                             std::to_string(g.condim));
    }
    const int matid = MaterialId(*c, g.material, g.src);
    double pos[3], quat[4], size[3];
    PlaceObject(*c, b, g, pos, quat, size);
    CheckSize(g.type, size, g.src);

    // mass: an explicit mass wins over density * volume
    if ((g.has_mass && g.mass < 0) || g.density < 0) {
      throw Error(g.src.Where(g.has_mass ? "mass" : "density"),
                  "mass and density cannot be negative");
    }
    double mass = 0, inertia[3], rbound = 0;
    int dataid = -1;
    if (g.type == GeomType::kMesh) {
      // the mesh's frame, size, bound and mass properties (compile_mesh.cc)
      dataid = PlaceMeshGeom(*c, g, pos, quat, size, &rbound, &mass, inertia);
    } else if (g.type == GeomType::kHfield) {
      // (compile_hfield.cc) no mass, no bounding radius: MuJoCo 2.2.2's values
      dataid = PlaceHfieldGeom(*c, g, size);
      inertia[0] = inertia[1] = inertia[2] = 0;
    } else {
      mass = g.has_mass ? g.mass : g.density * GeomVolume(g.type, size);
      GeomInertia(g.type, size, mass, inertia);
      rbound = GeomBoundingRadius(g.type, size);
    }
    c->geom_mass.push_back(mass);
    c->geom_inertia.insert(c->geom_inertia.end(), inertia, inertia + 3);

    m.geom_type.push_back(g.type);
    m.geom_contype.push_back(g.contype);
    m.geom_conaffinity.push_back(g.conaffinity);
    m.geom_condim.push_back(g.condim);
    m.geom_bodyid.push_back(b);
    m.geom_dataid.push_back(dataid);
    m.geom_group.push_back(g.group);
    m.geom_priority.push_back(g.priority);
    m.geom_solmix.push_back(g.solmix);
    m.geom_solref.insert(m.geom_solref.end(), g.solref, g.solref + kNRef);
    m.geom_solimp.insert(m.geom_solimp.end(), g.solimp, g.solimp + kNImp);
    m.geom_size.insert(m.geom_size.end(), size, size + 3);
    m.geom_rbound.push_back(rbound);
    m.geom_pos.insert(m.geom_pos.end(), pos, pos + 3);
    m.geom_quat.insert(m.geom_quat.end(), quat, quat + 4);
    m.geom_friction.insert(m.geom_friction.end(), g.friction, g.friction + 3);
    m.geom_margin.push_back(g.margin);
    m.geom_gap.push_back(g.gap);
    m.geom_surfacevel.insert(m.geom_surfacevel.end(), g.surfacevel, g.surfacevel + 6);
    m.geom_adhesion.push_back(g.adhesion);
    m.geom_rgba.insert(m.geom_rgba.end(), g.rgba, g.rgba + 4);
    m.geom_matid.push_back(matid);
    double fluid[kNFluid] = {0};
    if (g.fluid_ellipsoid) EllipsoidFluidCoefficients(g.type, size, g.fluidcoef, fluid);
    m.geom_fluid.insert(m.geom_fluid.end(), fluid, fluid + kNFluid);
    m.geom_name.push_back(g.name);
  }
}

// Sites of body b. (spec sites) => (site_*)
void CompileSites(CompileContext* c, int b) {
  Model& m = *c->m;
  for (const SiteSpec& s : c->bodies[b]->sites) {
    const int id = m.nsite++;
    c->sites.push_back(&s);
    c->site_names.Add(s.name, id, s.src, "site");
    if (s.type == GeomType::kPlane || s.type == GeomType::kHfield || s.type == GeomType::kMesh) {
      throw Error(s.src.Where("type"), "a site cannot be a plane, hfield or mesh");
    }
    const int matid = MaterialId(*c, s.material, s.src);
    double pos[3], quat[4], size[3];
    PlaceObject(*c, b, s, pos, quat, size);
    CheckSize(s.type, size, s.src);
    m.site_type.push_back(static_cast<int>(s.type));
    m.site_bodyid.push_back(b);
    m.site_size.insert(m.site_size.end(), size, size + 3);
    m.site_pos.insert(m.site_pos.end(), pos, pos + 3);
    m.site_quat.insert(m.site_quat.end(), quat, quat + 4);
    m.site_rgba.insert(m.site_rgba.end(), s.rgba, s.rgba + 4);
    m.site_matid.push_back(matid);
    m.site_name.push_back(s.name);
  }
}

// dof_parentid and dof_Madr from the tree.
// (body_parentid, body_dof*) => (dof_parentid, dof_Madr, nM)
void CompileDofTree(Model& m) {
  std::vector<int> last_dof(m.nbody, -1);  // deepest dof of each body's chain to the world
  m.dof_parentid.assign(m.nv, -1);
  for (int b = 1; b < m.nbody; ++b) {
    int prev = last_dof[m.body_parentid[b]];
    for (int k = 0; k < m.body_dofnum[b]; ++k) {
      const int d = m.body_dofadr[b] + k;
      m.dof_parentid[d] = prev;
      prev = d;
    }
    last_dof[b] = prev;
  }
  m.dof_Madr.assign(m.nv, 0);
  int adr = 0;
  for (int d = 0; d < m.nv; ++d) {
    m.dof_Madr[d] = adr;
    int depth = 0;
    for (int p = m.dof_parentid[d]; p >= 0; p = m.dof_parentid[p]) ++depth;
    adr += 1 + depth;
  }
  m.nM = adr;
}

}  // namespace

// (body tree) => (body_* frames and ids, jnt_*, dof_*, geom_*, site_*, qpos0, qpos_spring,
// nM, global frames at qpos0 in the context)
void CompileTree(CompileContext* c) {
  Model& m = *c->m;
  std::vector<int> parents;
  Flatten(&c->spec->world, -1, c, &parents);
  m.nbody = static_cast<int>(c->bodies.size());
  const int nb = m.nbody;
  m.body_parentid.assign(nb, 0);
  m.body_rootid.assign(nb, 0);
  m.body_weldid.assign(nb, 0);
  m.body_mocapid.assign(nb, -1);
  for (auto* v : {&m.body_jntnum, &m.body_dofnum, &m.body_geomnum}) v->assign(nb, 0);
  for (auto* v : {&m.body_jntadr, &m.body_dofadr, &m.body_geomadr}) v->assign(nb, -1);
  m.body_pos.assign(3 * nb, 0);
  m.body_quat.assign(4 * nb, 0);
  m.body_gravcomp.assign(nb, 0);
  m.body_sleep.assign(nb, kSleepAuto);
  m.body_name.resize(nb);
  c->xpos.assign(3 * nb, 0);
  c->xquat.assign(4 * nb, 0);
  m.body_quat[0] = c->xquat[0] = 1;
  int nlight = 0;

  for (int b = 0; b < nb; ++b) {
    const BodySpec& s = *c->bodies[b];
    m.body_name[b] = s.name;
    c->body_names.Add(s.name, b, s.src, "body");
    for (const VisualObjectSpec& light : s.lights) {
      c->light_names.Add(light.name, nlight++, light.src, "light");
    }
    if (b == 0) continue;
    const int parent = parents[b];
    m.body_parentid[b] = parent;
    m.body_rootid[b] = parent == 0 ? b : m.body_rootid[parent];
    m.body_weldid[b] = s.joints.empty() ? m.body_weldid[parent] : b;
    m.body_sleep[b] = s.sleep;
    m.body_gravcomp[b] = s.gravcomp;
    if (s.mocap) {
      if (parent != 0 || !s.joints.empty()) {
        throw Error(s.src.Where("mocap"),
                    "a mocap body must be a child of the world without joints");
      }
      m.body_mocapid[b] = m.nmocap++;
    }
    CompileBodyFrame(c, b, parent);
    CompileJoints(c, b, parent);
  }
  for (int b = 0; b < nb; ++b) {
    CompileGeoms(c, b);
    CompileSites(c, b);
    CompileCameras(c, b);  // compile_camera.cc
    for (const VisualObjectSpec& v : c->bodies[b]->lights) {
      if (v.target.empty()) continue;
      if (c->body_names.Require(v.target, v.src, "target", "body") == b) {
        throw Error(v.src.Where("target"), "a camera or light cannot target its own body");
      }
    }
  }
  CompileDofTree(m);
}

// (jnt springdamper, dof_invweight0) => (jnt_stiffness, dof_damping)
void ApplySpringDampers(CompileContext* c) {
  Model& m = *c->m;
  for (int j = 0; j < m.njnt; ++j) {
    const JointSpec& s = *c->joints[j];
    if (!(s.springdamper[0] > 0 && s.springdamper[1] > 0)) continue;
    const int adr = m.jnt_dofadr[j];
    const double timeconst = s.springdamper[0], dampratio = s.springdamper[1];
    const double mass = 1 / m.dof_invweight0[adr];
    m.jnt_stiffness[j] = mass / (timeconst * timeconst * dampratio * dampratio);
    for (int k = 0; k < JointNv(m.jnt_type[j]); ++k) m.dof_damping[adr + k] = 2 * mass / timeconst;
  }
}

void PlaceInBody(const CompileContext& c, int body, const FramePose& frame, double pos[3],
                 double quat[4]) {
  ApplyFrame(frame, pos, quat);
  if (c.spec->compiler.global) ToBodyFrame(c, body, pos, quat);
}

}  // namespace gauss::mjcf
