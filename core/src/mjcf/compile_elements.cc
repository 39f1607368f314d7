// Compiling actuators, tendons, equality constraints and explicit contact pairs / excludes.
//
// Rules measured against MuJoCo 2.2.2:
//  - ctrllimited / forcelimited / actlimited "auto": as for joint ranges (autolimits decides,
//    a nonzero range without the flag is otherwise an error); a limited range needs lo < hi.
//  - Stateless actuators (dyntype none) must all come before stateful ones; each stateful
//    actuator owns one activation, in actuator order.
//  - Slider-crank: trnid = (cranksite, slidersite) and cranklength must be positive; site
//    transmission: trnid = (site, refsite or -1).
//  - Equality data (11 numbers): connect = anchor(3), anchor in body2's frame at qpos0 (3);
//    weld = anchor(3), relpose pos(3) and quat(4) (computed at qpos0 when the quaternion part is
//    zero, the default); joint/tendon = polycoef(5); data[10] = torquescale (default 1) for all.
//    A missing body2 is the world; a missing joint2/tendon2 is -1.
//  - tendon_lengthspring: springlength if given (>= 0), else the length at qpos_spring (not
//    at qpos0: with springref != ref the two differ). Sites at qpos_spring come from the
//    kernel's own kinematics stage, so compiler and simulator agree on where things are.
//  - Pairs: the geoms are swapped when the first one's body id is larger, and the pairs are
//    sorted by their body signature; excludes likewise store (smaller, larger) body ids.
#include <algorithm>
#include <cmath>

#include "data_alloc.h"
#include "gauss/math.h"
#include "mjcf/compiler.h"
#include "pipeline.h"

namespace gauss::mjcf {
namespace {

// Resolves a limited tri-state; `what` names the range attribute for errors.
unsigned char ResolveLimited(int flag, const double range[2], bool autolimits, const Source& src,
                             const std::string& flag_attr, const std::string& range_attr) {
  const bool has_range = range[0] != 0 || range[1] != 0;
  int limited = flag;
  if (limited == 2) {
    if (autolimits) {
      limited = has_range ? 1 : 0;
    } else if (has_range) {
      throw Error(src.Where(range_attr),
                  range_attr + " is given but " + flag_attr + " is not: set compiler "
                  "autolimits=\"true\", or write " + flag_attr + "=\"true\" or \"false\"");
    } else {
      limited = 0;
    }
  }
  if (limited && !(range[0] < range[1])) {
    throw Error(src.Where(range_attr), range_attr + "[0] must be smaller than " + range_attr +
                                           "[1] when " + flag_attr + " is true");
  }
  return static_cast<unsigned char>(limited);
}

template <typename T, std::size_t N>
void Append(std::vector<T>* v, const T (&a)[N]) {
  v->insert(v->end(), a, a + N);
}

}  // namespace

// (actuator specs, name tables) => (actuator_*, na)
// 3.x inheritrange of a position (ctrlrange) or intvelocity (actrange) servo: the target
// joint's or tendon's compiled range, scaled by inheritrange about its middle.
// (model so far, actuator, transmission) => (out's ctrlrange or actrange, and its limited flag)
void InheritRange(const Model& m, const ActuatorSpec& a, TrnType type, int target,
                  ActuatorSpec* out) {
  const double* range = nullptr;
  if ((type == TrnType::kJoint || type == TrnType::kJointInParent) &&
      (m.jnt_type[target] == JointType::kHinge || m.jnt_type[target] == JointType::kSlide) &&
      m.jnt_limited[target]) {
    range = &m.jnt_range[2 * target];
  } else if (type == TrnType::kTendon && m.tendon_limited[target]) {
    range = &m.tendon_range[2 * target];
  }
  if (!range) {
    throw Error(a.src.Where("inheritrange"), "inheritrange needs a limited hinge, slide or "
                                             "tendon as the transmission target");
  }
  const double mid = 0.5 * (range[0] + range[1]);
  const double half = 0.5 * a.inheritrange * (range[1] - range[0]);
  const bool integrator = a.dyntype == DynType::kIntegrator;
  double* out_range = integrator ? out->actrange : out->ctrlrange;
  out_range[0] = mid - half;
  out_range[1] = mid + half;
  (integrator ? out->actlimited : out->ctrllimited) = 1;
}

void CompileActuators(CompileContext* c) {
  Model& m = *c->m;
  const bool autolimits = c->spec->compiler.autolimits;
  bool stateful_seen = false;
  for (const ActuatorSpec& a : c->spec->actuators) {
    const int id = m.nu++;
    c->actuator_names.Add(a.name, id, a.src, "actuator");
    const Source& src = a.src;
    int trn[2] = {-1, -1};
    TrnType type = TrnType::kJoint;
    if (a.target_attr == "joint" || a.target_attr == "jointinparent") {
      type = a.target_attr == "joint" ? TrnType::kJoint : TrnType::kJointInParent;
      trn[0] = c->joint_names.Require(a.target, src, a.target_attr, "joint");
    } else if (a.target_attr == "tendon") {
      type = TrnType::kTendon;
      trn[0] = c->tendon_names.Require(a.target, src, "tendon", "tendon");
    } else if (a.target_attr == "cranksite") {
      type = TrnType::kSliderCrank;
      trn[0] = c->site_names.Require(a.target, src, "cranksite", "site");
      trn[1] = c->site_names.Require(a.target2, src, "slidersite", "site");
      if (!(a.cranklength > 0)) {
        throw Error(src.Where("cranklength"), "a slider-crank needs a positive cranklength");
      }
    } else if (a.target_attr == "site") {
      type = TrnType::kSite;
      trn[0] = c->site_names.Require(a.target, src, "site", "site");
      if (!a.target2.empty()) trn[1] = c->site_names.Require(a.target2, src, "refsite", "site");
    } else {
      type = TrnType::kBody;
      trn[0] = c->body_names.Require(a.target, src, "body", "body");
    }

    // muscle FLV parameters (MuJoCo 2.2.2's checks, on gainprm / biasprm when muscle-typed)
    for (const double* prm : {a.gaintype == GainType::kMuscle ? a.gainprm : nullptr,
                              a.biastype == BiasType::kMuscle ? a.biasprm : nullptr}) {
      if (!prm) continue;
      if (!(prm[0] < prm[1])) throw Error(src.Where(), "muscle: range[0] < range[1] required");
      if (!(prm[4] < 1 && prm[5] > 1)) throw Error(src.Where(), "muscle: lmin < 1 < lmax required");
      if (!(prm[3] > 0 && prm[6] > 0 && prm[7] > 0 && prm[8] > 0)) {
        throw Error(src.Where(), "muscle: positive scale, vmax, fpmax and fvmax required");
      }
    }

    const bool stateful = a.dyntype != DynType::kNone;
    if (stateful) stateful_seen = true;
    if (!stateful && stateful_seen) {
      throw Error(src.Where(), "stateless actuators (dyntype none) must come before stateful "
                               "ones, as in MuJoCo 2.2.2");
    }
    m.actuator_trntype.push_back(type);
    m.actuator_dyntype.push_back(a.dyntype);
    m.actuator_gaintype.push_back(a.gaintype);
    m.actuator_biastype.push_back(a.biastype);
    Append(&m.actuator_trnid, trn);
    m.actuator_actadr.push_back(stateful ? m.na : -1);
    m.actuator_actnum.push_back(stateful ? 1 : 0);
    if (stateful) ++m.na;
    ActuatorSpec inherited = a;  // 3.x inheritrange: ctrlrange / actrange from the target
    if (a.inheritrange > 0) InheritRange(m, a, type, trn[0], &inherited);
    m.actuator_ctrllimited.push_back(ResolveLimited(inherited.ctrllimited, inherited.ctrlrange,
                                                    autolimits, src, "ctrllimited", "ctrlrange"));
    m.actuator_forcelimited.push_back(ResolveLimited(a.forcelimited, a.forcerange, autolimits,
                                                     src, "forcelimited", "forcerange"));
    m.actuator_actlimited.push_back(ResolveLimited(inherited.actlimited, inherited.actrange,
                                                   autolimits, src, "actlimited", "actrange"));
    if (a.actearly && !a.plugin.empty()) {
      throw Error(src.Where("actearly"), "actearly needs the builtin actuator dynamics (the "
                                         "plugin '" + a.plugin + "' computes its own force)");
    }
    m.actuator_actearly.push_back(a.actearly ? 1 : 0);
    Append(&m.actuator_dynprm, a.dynprm);
    Append(&m.actuator_gainprm, a.gainprm);
    Append(&m.actuator_biasprm, a.biasprm);
    Append(&m.actuator_ctrlrange, inherited.ctrlrange);
    Append(&m.actuator_forcerange, a.forcerange);
    Append(&m.actuator_actrange, inherited.actrange);
    Append(&m.actuator_gear, a.gear);
    m.actuator_cranklength.push_back(a.cranklength);
    m.actuator_group.push_back(a.group);
    Append(&m.actuator_lengthrange, a.lengthrange);
    m.actuator_plugin.push_back(a.plugin.empty() ? "builtin" : a.plugin);
    m.actuator_name.push_back(a.name);
  }
}

namespace {

// 3.x tendon actuatorfrcrange (limited only when actuatorfrclimited says so: its default is
// false, see spec.h) => (tendon_actfrclimited, tendon_actfrcrange). MuJoCo 3.12.1 accepts a
// limited range only when lower < upper and it contains 0 (measured), so that scaling the
// forces onto it is defined. The implicit integrators' actuator velocity derivative ignores the
// clamp, as 3.12.1's does (measured).
void CompileTendonActuatorForceRange(const ModelSpec& spec, const TendonSpec& t, Model* m) {
  const unsigned char limited =
      ResolveLimited(t.actfrclimited, t.actfrcrange, spec.compiler.autolimits, t.src,
                     "actuatorfrclimited", "actuatorfrcrange");
  const double lower = t.actfrcrange[0], upper = t.actfrcrange[1];
  if (limited && !(lower < upper && lower <= 0 && upper >= 0)) {
    throw Error(t.src.Where("actuatorfrcrange"),
                "the range must satisfy lower < upper and contain 0 (MuJoCo 3.x)");
  }
  m->tendon_actfrclimited.push_back(limited);
  m->tendon_actfrcrange.insert(m->tendon_actfrcrange.end(), t.actfrcrange, t.actfrcrange + 2);
}

// 3.x tendon armature: what the kernel's inertia and bias terms cover (tendon_armature.cc)
void CheckTendonArmature(const ModelSpec& spec, const TendonSpec& t) {
  if (t.armature == 0) return;
  if (!(t.armature > 0)) throw Error(t.src.Where("armature"), "must not be negative");
  for (const WrapSpec& w : t.path) {
    if (w.type == WrapType::kSphere || w.type == WrapType::kCylinder) {
      throw Error(t.src.Where("armature"), "not supported yet: armature on a tendon that "
                                           "wraps around a geom (the time derivative of its "
                                           "wrapping path)");
    }
  }
  if (spec.option.integrator == "implicit") {
    throw Error(t.src.Where("armature"), "not supported yet: tendon armature with the implicit "
                                         "integrator (its velocity derivative of the bias)");
  }
}

}  // namespace

// (tendon specs, name tables) => (tendon_*, wrap_*); spring lengths resolved later
void CompileTendons(CompileContext* c) {
  Model& m = *c->m;
  const bool autolimits = c->spec->compiler.autolimits;
  for (const TendonSpec& t : c->spec->tendons) {
    const int id = m.ntendon++;
    c->tendon_names.Add(t.name, id, t.src, "tendon");
    if (!t.material.empty()) c->material_names.Require(t.material, t.src, "material", "material");
    if (t.path.empty()) throw Error(t.src.Where(), "a tendon path cannot be empty");
    m.tendon_adr.push_back(m.nwrap);
    m.tendon_num.push_back(static_cast<int>(t.path.size()));
    for (std::size_t k = 0; k < t.path.size(); ++k) {
      const WrapSpec& w = t.path[k];
      WrapType type = w.type;
      int obj = -1;
      double prm = w.prm;
      if (w.type == WrapType::kJoint) {
        // any joint type is accepted (MuJoCo 2.2.2 uses the joint's first qpos entry)
        obj = c->joint_names.Require(w.name, w.src, "joint", "joint");
      } else if (w.type == WrapType::kSite) {
        obj = c->site_names.Require(w.name, w.src, "site", "site");
      } else if (w.type == WrapType::kPulley) {
        if (!(w.prm > 0)) throw Error(w.src.Where("divisor"), "the divisor must be positive");
      } else {
        obj = c->geom_names.Require(w.name, w.src, "geom", "geom");
        const GeomType gt = m.geom_type[obj];
        if (gt != GeomType::kSphere && gt != GeomType::kCylinder) {
          throw Error(w.src.Where("geom"), "a tendon can only wrap around spheres and cylinders");
        }
        type = gt == GeomType::kSphere ? WrapType::kSphere : WrapType::kCylinder;
        prm = w.sidesite.empty() ? -1
                                 : c->site_names.Require(w.sidesite, w.src, "sidesite", "site");
        // a wrapping geom must sit between two sites
        const bool before = k > 0 && t.path[k - 1].type == WrapType::kSite;
        const bool after = k + 1 < t.path.size() && t.path[k + 1].type == WrapType::kSite;
        if (!before || !after) {
          throw Error(w.src.Where(), "a wrapping geom must be between two sites in the path");
        }
      }
      m.wrap_type.push_back(type);
      m.wrap_objid.push_back(obj);
      m.wrap_prm.push_back(prm);
      ++m.nwrap;
    }
    if (t.spatial) {
      // MuJoCo 2.2.2's path rules: at least two elements, every geom between two sites, and
      // every site next to a site or geom (a pulley only separates branches)
      const auto& p = t.path;
      if (p.size() < 2) {
        throw Error(t.src.Where(), "a spatial tendon path needs at least two elements");
      }
      for (std::size_t k = 0; k < p.size(); ++k) {
        if (p[k].type != WrapType::kSite) continue;
        const bool prev = k > 0 && p[k - 1].type != WrapType::kPulley;
        const bool next = k + 1 < p.size() && p[k + 1].type != WrapType::kPulley;
        if (!prev && !next) {
          throw Error(p[k].src.Where(),
                      "a site of a tendon path needs a neighbor that is not a pulley");
        }
      }
    }
    m.tendon_limited.push_back(
        ResolveLimited(t.limited, t.range, autolimits, t.src, "limited", "range"));
    Append(&m.tendon_solref_lim, t.solref_limit);
    Append(&m.tendon_solimp_lim, t.solimp_limit);
    Append(&m.tendon_solref_fri, t.solref_friction);
    Append(&m.tendon_solimp_fri, t.solimp_friction);
    Append(&m.tendon_range, t.range);
    m.tendon_margin.push_back(t.margin);
    m.tendon_stiffness.push_back(t.stiffness[0]);
    m.tendon_stiffnesspoly.insert(m.tendon_stiffnesspoly.end(), t.stiffness + 1, t.stiffness + 3);
    m.tendon_damping.push_back(t.damping);
    m.tendon_frictionloss.push_back(t.frictionloss);
    m.tendon_lengthspring.push_back(t.springlength);  // negative: see ResolveTendonSpringLengths
    // 3.x dead band (springlength with two values); negative: the same as the lower end
    if (t.springlength_high >= 0 && t.springlength_high < t.springlength) {
      throw Error(t.src.Where("springlength"), "the dead band [" + std::to_string(t.springlength) +
                                                   ", " + std::to_string(t.springlength_high) +
                                                   "] must not be decreasing");
    }
    m.tendon_lengthspring_upper.push_back(t.springlength_high);
    CompileTendonActuatorForceRange(*c->spec, t, &m);
    CheckTendonArmature(*c->spec, t);
    m.tendon_armature.push_back(t.armature);
    m.tendon_name.push_back(t.name);
  }
}

// (qpos_spring, tendon_*, wrap_*, site frames) => (tendon_lengthspring, _upper)
void ResolveTendonSpringLengths(CompileContext* c) {
  Model& m = *c->m;
  bool needed = false;
  for (int t = 0; t < m.ntendon; ++t) {
    // springlength "-1 h" (3.x): the lower end comes from qpos_spring, the upper stays h
    if (m.tendon_lengthspring_upper[t] < 0 && m.tendon_lengthspring[t] >= 0) {
      m.tendon_lengthspring_upper[t] = m.tendon_lengthspring[t];
    }
  }
  for (double l : m.tendon_lengthspring) needed = needed || l < 0;
  if (!needed) return;
  Data d;
  AllocateData(m, d);  // also resets: mocap bodies at their model pose
  d.qpos = m.qpos_spring;
  // the kernel's own tendon stage (wrapping included), so compiler and simulator agree
  Kinematics(m, d);
  ComPosition(m, d);
  Tendons(m, d);
  for (int t = 0; t < m.ntendon; ++t) {
    if (m.tendon_lengthspring[t] < 0) m.tendon_lengthspring[t] = d.ten_length[t];
    if (m.tendon_lengthspring_upper[t] < 0) m.tendon_lengthspring_upper[t] = d.ten_length[t];
  }
}

// A 3.x connect or weld between two sites, written in the body form the kernel uses: the
// points are the sites (site1 on body1, site2 on body2) and, for weld, the relative
// orientation makes the two site frames coincide: q1 s1 = q2 s2 <=> q2^-1 q1 (s1 s2^-1) = 1.
// MuJoCo 3.x measures that rotation in site2's frame, Im((q2 s2)^-1 q1 s1), which is the
// body form's residual rotated by s2^-1: frame2 = s2 (identity for a connect).
// (spec, sites) => (body ids, eq_data, frame2)
void SiteEquality(const CompileContext& c, const EqualitySpec& q, int* id1, int* id2,
                  double data[11], double frame2[4]) {
  const Model& m = *c.m;
  const int s1 = c.site_names.Require(q.name1, q.src, "site1", "site");
  const int s2 = c.site_names.Require(q.name2, q.src, "site2", "site");
  *id1 = m.site_bodyid[s1];
  *id2 = m.site_bodyid[s2];
  if (q.type == EqType::kConnect) {
    for (int k = 0; k < 3; ++k) data[k] = m.site_pos[3 * s1 + k];
    for (int k = 0; k < 3; ++k) data[3 + k] = m.site_pos[3 * s2 + k];
    return;
  }
  for (int k = 0; k < 4; ++k) frame2[k] = m.site_quat[4 * s2 + k];
  for (int k = 0; k < 3; ++k) data[k] = m.site_pos[3 * s2 + k];
  for (int k = 0; k < 3; ++k) data[3 + k] = m.site_pos[3 * s1 + k];
  double inv2[4];
  math::NegQuat(inv2, &m.site_quat[4 * s2]);
  math::MulQuat(data + 6, &m.site_quat[4 * s1], inv2);
}

// (equality specs, global frames at qpos0) => (eq_*)
void CompileEqualities(CompileContext* c) {
  Model& m = *c->m;
  for (const EqualitySpec& q : c->spec->equalities) {
    c->equality_names.Add(q.name, m.neq++, q.src, "equality constraint");
    double data[11] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    double frame2[4] = {1, 0, 0, 0};
    int id1 = -1, id2 = -1;
    if (q.sites) {
      SiteEquality(*c, q, &id1, &id2, data, frame2);
    } else if (q.type == EqType::kConnect || q.type == EqType::kWeld) {
      id1 = c->body_names.Require(q.name1, q.src, "body1", "body");
      id2 = q.name2.empty() ? 0 : c->body_names.Require(q.name2, q.src, "body2", "body");
      for (int k = 0; k < 3; ++k) data[k] = q.anchor[k];
      const double* x1 = &c->xpos[3 * id1];
      const double* q1 = &c->xquat[4 * id1];
      const double* x2 = &c->xpos[3 * id2];
      const double* q2 = &c->xquat[4 * id2];
      double world[3], d[3], inv[4];
      if (q.type == EqType::kConnect) {
        // the anchor (body1 frame) expressed in body2's frame at qpos0
        math::RotVecQuat(world, q.anchor, q1);
        math::AddTo3(world, x1);
        math::Sub3(d, world, x2);
        math::NegQuat(inv, q2);
        math::RotVecQuat(data + 3, d, inv);
      } else if (q.relpose[3] == 0 && q.relpose[4] == 0 && q.relpose[5] == 0 && q.relpose[6] == 0) {
        // body2's anchor point and orientation relative to body1 at qpos0
        math::RotVecQuat(world, q.anchor, q2);
        math::AddTo3(world, x2);
        math::Sub3(d, world, x1);
        math::NegQuat(inv, q1);
        math::RotVecQuat(data + 3, d, inv);
        math::MulQuat(data + 6, inv, q2);
      } else {
        for (int k = 0; k < 7; ++k) data[3 + k] = q.relpose[k];
        math::NormalizeQuat(data + 6);
      }
    } else {
      const bool joint = q.type == EqType::kJoint;
      const NameTable& names = joint ? c->joint_names : c->tendon_names;
      const std::string kind = joint ? "joint" : "tendon";
      id1 = names.Require(q.name1, q.src, kind + "1", kind);
      if (!q.name2.empty()) id2 = names.Require(q.name2, q.src, kind + "2", kind);
      if (joint) {
        for (int id : {id1, id2}) {
          const bool scalar = id < 0 || m.jnt_type[id] == JointType::kHinge ||
                              m.jnt_type[id] == JointType::kSlide;
          if (!scalar) {
            throw Error(q.src.Where(), "a joint equality constraint needs hinge or slide joints");
          }
        }
      }
      for (int k = 0; k < 5; ++k) data[k] = q.polycoef[k];
    }
    data[10] = q.torquescale;
    m.eq_type.push_back(q.type);
    m.eq_obj1id.push_back(id1);
    m.eq_obj2id.push_back(id2);
    m.eq_active0.push_back(q.active ? 1 : 0);
    Append(&m.eq_solref, q.solref);
    Append(&m.eq_solimp, q.solimp);
    Append(&m.eq_data, data);
    Append(&m.eq_frame2quat, frame2);
    m.eq_name.push_back(q.name);
  }
}

// (pair and exclude specs, geom_bodyid) => (pair_*, exclude_*)
void CompileContacts(CompileContext* c) {
  Model& m = *c->m;
  struct Pair {
    long signature;
    const PairSpec* spec;
    int g1, g2;
  };
  std::vector<Pair> pairs;
  for (const PairSpec& p : c->spec->pairs) {
    c->pair_names.Add(p.name, static_cast<int>(pairs.size()), p.src, "pair");
    int g1 = c->geom_names.Require(p.geom1, p.src, "geom1", "geom");
    int g2 = c->geom_names.Require(p.geom2, p.src, "geom2", "geom");
    if (p.condim != 1 && p.condim != 3 && p.condim != 4 && p.condim != 6) {
      throw Error(p.src.Where("condim"), "condim must be 1, 3, 4 or 6");
    }
    if (m.geom_bodyid[g1] > m.geom_bodyid[g2]) std::swap(g1, g2);
    const long sig = (static_cast<long>(m.geom_bodyid[g1]) << 16) + m.geom_bodyid[g2];
    pairs.push_back({sig, &p, g1, g2});
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Pair& a, const Pair& b) { return a.signature < b.signature; });
  for (const Pair& p : pairs) {
    ++m.npair;
    m.pair_geom1.push_back(p.g1);
    m.pair_geom2.push_back(p.g2);
    m.pair_condim.push_back(p.spec->condim);
    Append(&m.pair_solref, p.spec->solref);
    Append(&m.pair_solimp, p.spec->solimp);
    Append(&m.pair_solreffriction, p.spec->solreffriction);
    m.pair_adhesion.push_back(p.spec->adhesion);
    m.pair_margin.push_back(p.spec->margin);
    m.pair_gap.push_back(p.spec->gap);
    Append(&m.pair_friction, p.spec->friction);
  }

  std::vector<std::pair<int, int>> excludes;
  for (const ExcludeSpec& x : c->spec->excludes) {
    const int b1 = c->body_names.Require(x.body1, x.src, "body1", "body");
    const int b2 = c->body_names.Require(x.body2, x.src, "body2", "body");
    excludes.emplace_back(std::min(b1, b2), std::max(b1, b2));
  }
  std::stable_sort(excludes.begin(), excludes.end());
  for (const auto& [b1, b2] : excludes) {
    ++m.nexclude;
    m.exclude_body1.push_back(b1);
    m.exclude_body2.push_back(b2);
  }
}

}  // namespace gauss::mjcf
