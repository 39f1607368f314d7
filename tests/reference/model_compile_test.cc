// Cross-check of the MJCF compiler against MuJoCo 2.2.2: every model is loaded by both and
// every compiled array that Gauss has is compared, reals to a relative tolerance of 1e-9
// (plus 1e-12 absolute for values that should be zero), integers exactly. Quaternions are
// compared up to sign and body inertias as full tensors R diag(I) R' (the principal-axis
// order and signs of two eigen-solvers may differ). A failure names the first mismatching
// field, the element's index and name, and both values.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "reference/model_compare.h"
#include "reference/mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kRelTol = 1e-9;
constexpr double kAbsTol = 1e-12;

bool Close(double a, double b, double rel = kRelTol) {
  const double diff = std::fabs(a - b);
  return diff <= kAbsTol || diff <= rel * std::max(std::fabs(a), std::fabs(b));
}

// Relative difference, with values below the absolute tolerance counting as equal.
double RelDiff(double a, double b) {
  const double diff = std::fabs(a - b);
  if (diff <= kAbsTol) return 0;
  return diff / std::max(std::fabs(a), std::fabs(b));
}

// Collects mismatches; only the first is reported in detail.
class Comparer {
 public:
  Comparer(const Model& g, const mjModel* mj) : g_(g), mj_(mj) {}

  std::string first() const { return first_; }
  int count() const { return count_; }
  double worst() const { return worst_; }
  std::string worst_field() const { return worst_field_; }

  void Int(const std::string& field, int gauss_value, int mj_value) {
    if (gauss_value != mj_value) {
      Fail(field, -1, "", std::to_string(gauss_value), std::to_string(mj_value));
    }
  }

  // (n x k) integer arrays; `names` identifies element i in messages.
  template <typename T, typename U>
  void Ints(const std::string& field, const std::vector<T>& g, const U* mj, int n, int k,
            const std::vector<std::string>* names = nullptr) {
    if (!SizeOk(field, g.size(), n * k)) return;
    for (int i = 0; i < n * k; ++i) {
      if (static_cast<long>(g[i]) != static_cast<long>(mj[i])) {
        Fail(field, i / k, Name(names, i / k), Row(g.data(), i / k, k), Row(mj, i / k, k));
        return;
      }
    }
  }

  void Reals(const std::string& field, const std::vector<double>& g, const double* mj, int n,
             int k, const std::vector<std::string>* names = nullptr, double rel = kRelTol) {
    if (!SizeOk(field, g.size(), n * k)) return;
    for (int i = 0; i < n * k; ++i) {
      if (rel == kRelTol) Track(field, RelDiff(g[i], mj[i]));  // float fields aside
      if (!Close(g[i], mj[i], rel)) {
        Fail(field, i / k, Name(names, i / k), Row(g.data(), i / k, k), Row(mj, i / k, k));
        return;
      }
    }
  }

  void Real(const std::string& field, double g, double mj) {
    if (!Close(g, mj)) Fail(field, -1, "", Fmt(g), Fmt(mj));
  }

  // (n x 4) quaternions, equal up to sign.
  void Quats(const std::string& field, const std::vector<double>& g, const double* mj, int n,
             const std::vector<std::string>* names = nullptr) {
    if (!SizeOk(field, g.size(), 4 * n)) return;
    for (int i = 0; i < n; ++i) {
      bool same = true, opposite = true;
      for (int k = 0; k < 4; ++k) {
        same = same && Close(g[4 * i + k], mj[4 * i + k]);
        opposite = opposite && Close(g[4 * i + k], -mj[4 * i + k]);
      }
      if (!same && !opposite) {
        Fail(field, i, Name(names, i), Row(g.data(), i, 4), Row(mj, i, 4));
        return;
      }
    }
  }

  void Strings(const std::string& field, const std::vector<std::string>& g,
               const std::vector<std::string>& mj) {
    if (!SizeOk(field, g.size(), static_cast<int>(mj.size()))) return;
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (g[i] != mj[i]) {
        Fail(field, static_cast<int>(i), "", "'" + g[i] + "'", "'" + mj[i] + "'");
        return;
      }
    }
  }

  // Body inertia tensors in the body frame, R diag(I) R', compared relative to their trace.
  void InertiaTensors(const std::vector<std::string>* names) {
    for (int b = 0; b < mj_->nbody; ++b) {
      double tg[9], tm[9];
      Tensor(&g_.body_iquat[4 * b], &g_.body_inertia[3 * b], tg);
      Tensor(mj_->body_iquat + 4 * b, mj_->body_inertia + 3 * b, tm);
      const double scale = std::fabs(tm[0]) + std::fabs(tm[4]) + std::fabs(tm[8]);
      for (int k = 0; k < 9; ++k) {
        if (scale > 0) Track("body inertia tensor", std::fabs(tg[k] - tm[k]) / scale);
        if (std::fabs(tg[k] - tm[k]) > kAbsTol + kRelTol * scale) {
          Fail("body inertia tensor R diag(body_inertia) R'", b, Name(names, b), Row(tg, 0, 9),
               Row(tm, 0, 9));
          return;
        }
      }
    }
  }

 private:
  static void Tensor(const double* quat, const double* diag, double* t) {
    double r[9];
    math::QuatToMat(r, quat);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        t[3 * i + j] = 0;
        for (int k = 0; k < 3; ++k) t[3 * i + j] += r[3 * i + k] * diag[k] * r[3 * j + k];
      }
    }
  }

  bool SizeOk(const std::string& field, std::size_t got, int want) {
    if (static_cast<int>(got) == want) return true;
    Fail(field + " (size)", -1, "", std::to_string(got), std::to_string(want));
    return false;
  }

  static std::string Name(const std::vector<std::string>* names, int i) {
    if (!names || i < 0 || i >= static_cast<int>(names->size())) return "";
    return (*names)[i];
  }

  static std::string Fmt(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
  }

  template <typename T>
  static std::string Row(const T* a, int i, int k) {
    std::ostringstream s;
    s.precision(17);
    for (int j = 0; j < k; ++j) s << (j ? " " : "") << static_cast<double>(a[i * k + j]);
    return s.str();
  }

  void Track(const std::string& field, double rel) {
    if (rel > worst_) {
      worst_ = rel;
      worst_field_ = field;
    }
  }

  void Fail(const std::string& field, int index, const std::string& name, const std::string& g,
            const std::string& mj) {
    if (count_++ > 0) return;
    std::ostringstream s;
    s << field;
    if (index >= 0) s << "[" << index << "]" << (name.empty() ? "" : " '" + name + "'");
    s << ": gauss [" << g << "] vs mujoco [" << mj << "]";
    first_ = s.str();
  }

  const Model& g_;
  const mjModel* mj_;
  std::string first_;
  int count_ = 0;
  double worst_ = 0;
  std::string worst_field_;
};

int MjSensorType(const std::string& type) {
  static const char* names[] = {
      "touch", "accelerometer", "velocimeter", "gyro", "force", "torque", "magnetometer",
      "rangefinder", "jointpos", "jointvel", "tendonpos", "tendonvel", "actuatorpos",
      "actuatorvel", "actuatorfrc", "ballquat", "ballangvel", "jointlimitpos", "jointlimitvel",
      "jointlimitfrc", "tendonlimitpos", "tendonlimitvel", "tendonlimitfrc", "framepos",
      "framequat", "framexaxis", "frameyaxis", "framezaxis", "framelinvel", "frameangvel",
      "framelinacc", "frameangacc", "subtreecom", "subtreelinvel", "subtreeangmom", "clock",
      "user"};
  for (int i = 0; i < static_cast<int>(sizeof(names) / sizeof(names[0])); ++i) {
    if (type == names[i]) return i;
  }
  return -1;
}

template <std::size_t N>
std::vector<double> Vec(const std::array<double, N>& a) {
  return std::vector<double>(a.begin(), a.end());
}

int IndexOf(const std::string& name, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

int MjObjType(ObjType t) {
  switch (t) {
    case ObjType::kTendon: return mjOBJ_TENDON;
    case ObjType::kActuator: return mjOBJ_ACTUATOR;
    default: return static_cast<int>(t);
  }
}

}  // namespace

// (declared in model_compare.h)
std::string CompareModels(const Model& g, const mjModel* mj) {
  Comparer c(g, mj);
  // sizes
  c.Int("nq", g.nq, mj->nq);
  c.Int("nv", g.nv, mj->nv);
  c.Int("nu", g.nu, mj->nu);
  c.Int("na", g.na, mj->na);
  c.Int("nbody", g.nbody, mj->nbody);
  c.Int("njnt", g.njnt, mj->njnt);
  c.Int("ngeom", g.ngeom, mj->ngeom);
  c.Int("nsite", g.nsite, mj->nsite);
  c.Int("nmocap", g.nmocap, mj->nmocap);
  c.Int("neq", g.neq, mj->neq);
  c.Int("ntendon", g.ntendon, mj->ntendon);
  c.Int("nwrap", g.nwrap, mj->nwrap);
  c.Int("nsensor", g.nsensor, mj->nsensor);
  c.Int("nsensordata", g.nsensordata, mj->nsensordata);
  c.Int("npair", g.npair, mj->npair);
  c.Int("nexclude", g.nexclude, mj->nexclude);
  c.Int("nkey", g.nkey, mj->nkey);
  c.Int("nnumeric", g.nnumeric, mj->nnumeric);
  c.Int("nM", g.nM, mj->nM);
  c.Int("nconmax", g.nconmax, mj->nconmax);
  c.Int("njmax", g.njmax, mj->njmax);
  c.Int("nmat", g.nmat, mj->nmat);
  c.Int("nskin", g.nskin, mj->nskin);
  c.Int("nskinvert", g.nskinvert, mj->nskinvert);
  c.Int("nskinface", g.nskinface, mj->nskinface);
  c.Int("nskinbone", g.nskinbone, mj->nskinbone);
  c.Int("nskinbonevert", g.nskinbonevert, mj->nskinbonevert);
  if (c.count()) return c.first();

  // options
  const mjOption& o = mj->opt;
  c.Real("opt.timestep", g.opt.timestep, o.timestep);
  c.Real("opt.impratio", g.opt.impratio, o.impratio);
  c.Real("opt.tolerance", g.opt.tolerance, o.tolerance);
  c.Real("opt.noslip_tolerance", g.opt.noslip_tolerance, o.noslip_tolerance);
  c.Real("opt.mpr_tolerance", g.opt.ccd_tolerance, o.mpr_tolerance);
  c.Reals("opt.gravity", Vec(g.opt.gravity), o.gravity, 1, 3);
  c.Reals("opt.wind", Vec(g.opt.wind), o.wind, 1, 3);
  c.Reals("opt.magnetic", Vec(g.opt.magnetic), o.magnetic, 1, 3);
  c.Real("opt.density", g.opt.density, o.density);
  c.Real("opt.viscosity", g.opt.viscosity, o.viscosity);
  c.Real("opt.o_margin", g.opt.o_margin, o.o_margin);
  c.Reals("opt.o_solref", Vec(g.opt.o_solref), o.o_solref, 1, 2);
  c.Reals("opt.o_solimp", Vec(g.opt.o_solimp), o.o_solimp, 1, 5);
  c.Int("opt.iterations", g.opt.iterations, o.iterations);
  c.Int("opt.noslip_iterations", g.opt.noslip_iterations, o.noslip_iterations);
  c.Int("opt.mpr_iterations", g.opt.ccd_iterations, o.mpr_iterations);
  c.Int("opt.integrator (euler=0 rk4=1 implicit=2)",
        IndexOf(g.opt.integrator, {"euler", "rk4", "implicit"}), o.integrator);
  c.Int("opt.solver (pgs=0 cg=1 newton=2)", IndexOf(g.opt.solver, {"pgs", "cg", "newton"}),
        o.solver);
  c.Int("opt.cone", static_cast<int>(g.opt.cone), o.cone);
  c.Int("opt.jacobian", static_cast<int>(g.opt.jacobian), o.jacobian);
  c.Int("opt.collision", static_cast<int>(g.opt.collision), o.collision);
  c.Int("opt.disableflags", static_cast<int>(g.opt.disableflags), o.disableflags);
  c.Int("opt.enableflags", static_cast<int>(g.opt.enableflags), o.enableflags);

  // reference configuration
  c.Reals("qpos0", g.qpos0, mj->qpos0, 1, mj->nq);
  c.Reals("qpos_spring", g.qpos_spring, mj->qpos_spring, 1, mj->nq);

  // bodies
  const int nb = mj->nbody;
  const auto* bn = &g.body_name;
  c.Ints("body_parentid", g.body_parentid, mj->body_parentid, nb, 1, bn);
  c.Ints("body_rootid", g.body_rootid, mj->body_rootid, nb, 1, bn);
  c.Ints("body_weldid", g.body_weldid, mj->body_weldid, nb, 1, bn);
  c.Ints("body_mocapid", g.body_mocapid, mj->body_mocapid, nb, 1, bn);
  c.Ints("body_jntnum", g.body_jntnum, mj->body_jntnum, nb, 1, bn);
  c.Ints("body_jntadr", g.body_jntadr, mj->body_jntadr, nb, 1, bn);
  c.Ints("body_dofnum", g.body_dofnum, mj->body_dofnum, nb, 1, bn);
  c.Ints("body_dofadr", g.body_dofadr, mj->body_dofadr, nb, 1, bn);
  c.Ints("body_geomnum", g.body_geomnum, mj->body_geomnum, nb, 1, bn);
  c.Ints("body_geomadr", g.body_geomadr, mj->body_geomadr, nb, 1, bn);
  c.Reals("body_pos", g.body_pos, mj->body_pos, nb, 3, bn);
  c.Quats("body_quat", g.body_quat, mj->body_quat, nb, bn);
  c.Reals("body_mass", g.body_mass, mj->body_mass, nb, 1, bn);
  c.Reals("body_subtreemass", g.body_subtreemass, mj->body_subtreemass, nb, 1, bn);
  c.Reals("body_ipos", g.body_ipos, mj->body_ipos, nb, 3, bn);
  c.InertiaTensors(bn);
  // the compiler reproduces MuJoCo's Jacobi iteration, so the principal moments agree too
  // (equal tensors and equal moments imply the same axes up to sign where moments differ)
  c.Reals("body_inertia", g.body_inertia, mj->body_inertia, nb, 3, bn);

  // joints and dofs
  const int nj = mj->njnt, nv = mj->nv;
  const auto* jn = &g.jnt_name;
  c.Ints("jnt_type", g.jnt_type, mj->jnt_type, nj, 1, jn);
  c.Ints("jnt_qposadr", g.jnt_qposadr, mj->jnt_qposadr, nj, 1, jn);
  c.Ints("jnt_dofadr", g.jnt_dofadr, mj->jnt_dofadr, nj, 1, jn);
  c.Ints("jnt_bodyid", g.jnt_bodyid, mj->jnt_bodyid, nj, 1, jn);
  c.Ints("jnt_group", g.jnt_group, mj->jnt_group, nj, 1, jn);
  c.Ints("jnt_limited", g.jnt_limited, mj->jnt_limited, nj, 1, jn);
  c.Reals("jnt_solref", g.jnt_solref, mj->jnt_solref, nj, mjNREF, jn);
  c.Reals("jnt_solimp", g.jnt_solimp, mj->jnt_solimp, nj, mjNIMP, jn);
  c.Reals("jnt_pos", g.jnt_pos, mj->jnt_pos, nj, 3, jn);
  c.Reals("jnt_axis", g.jnt_axis, mj->jnt_axis, nj, 3, jn);
  c.Reals("jnt_stiffness", g.jnt_stiffness, mj->jnt_stiffness, nj, 1, jn);
  c.Reals("jnt_range", g.jnt_range, mj->jnt_range, nj, 2, jn);
  c.Reals("jnt_margin", g.jnt_margin, mj->jnt_margin, nj, 1, jn);
  c.Ints("dof_bodyid", g.dof_bodyid, mj->dof_bodyid, nv, 1);
  c.Ints("dof_jntid", g.dof_jntid, mj->dof_jntid, nv, 1);
  c.Ints("dof_parentid", g.dof_parentid, mj->dof_parentid, nv, 1);
  c.Ints("dof_Madr", g.dof_Madr, mj->dof_Madr, nv, 1);
  // simple bodies (core/src/simple_bodies.h): the rows of M that skip their off-diagonals.
  // 2.2.2 has no level 2 (3.12's "only slides"): compared as simple or not.
  std::vector<int> simple(g.body_simple.size());
  for (std::size_t b = 0; b < simple.size(); ++b) simple[b] = g.body_simple[b] != 0;
  c.Ints("body_simple (simple or not)", simple, mj->body_simple, nb, 1, bn);
  c.Ints("dof_simplenum", g.dof_simplenum, mj->dof_simplenum, nv, 1);
  c.Reals("dof_solref", g.dof_solref, mj->dof_solref, nv, mjNREF);
  c.Reals("dof_solimp", g.dof_solimp, mj->dof_solimp, nv, mjNIMP);
  c.Reals("dof_frictionloss", g.dof_frictionloss, mj->dof_frictionloss, nv, 1);
  c.Reals("dof_armature", g.dof_armature, mj->dof_armature, nv, 1);
  c.Reals("dof_damping", g.dof_damping, mj->dof_damping, nv, 1);

  // geoms and sites
  const int ng = mj->ngeom, ns = mj->nsite;
  const auto* gn = &g.geom_name;
  c.Ints("geom_type", g.geom_type, mj->geom_type, ng, 1, gn);
  c.Ints("geom_contype", g.geom_contype, mj->geom_contype, ng, 1, gn);
  c.Ints("geom_conaffinity", g.geom_conaffinity, mj->geom_conaffinity, ng, 1, gn);
  c.Ints("geom_condim", g.geom_condim, mj->geom_condim, ng, 1, gn);
  c.Ints("geom_bodyid", g.geom_bodyid, mj->geom_bodyid, ng, 1, gn);
  c.Ints("geom_dataid", g.geom_dataid, mj->geom_dataid, ng, 1, gn);
  c.Ints("geom_group", g.geom_group, mj->geom_group, ng, 1, gn);
  c.Ints("geom_priority", g.geom_priority, mj->geom_priority, ng, 1, gn);
  c.Reals("geom_solmix", g.geom_solmix, mj->geom_solmix, ng, 1, gn);
  c.Reals("geom_solref", g.geom_solref, mj->geom_solref, ng, mjNREF, gn);
  c.Reals("geom_solimp", g.geom_solimp, mj->geom_solimp, ng, mjNIMP, gn);
  c.Reals("geom_size", g.geom_size, mj->geom_size, ng, 3, gn);
  c.Reals("geom_rbound", g.geom_rbound, mj->geom_rbound, ng, 1, gn);
  c.Reals("geom_pos", g.geom_pos, mj->geom_pos, ng, 3, gn);
  c.Quats("geom_quat", g.geom_quat, mj->geom_quat, ng, gn);
  c.Reals("geom_friction", g.geom_friction, mj->geom_friction, ng, 3, gn);
  c.Reals("geom_margin", g.geom_margin, mj->geom_margin, ng, 1, gn);
  c.Reals("geom_gap", g.geom_gap, mj->geom_gap, ng, 1, gn);
  // MuJoCo stores colors as float: compare to float precision
  std::vector<double> mj_rgba(mj->geom_rgba, mj->geom_rgba + 4 * ng);
  c.Reals("geom_rgba", g.geom_rgba, mj_rgba.data(), ng, 4, gn, 1e-7);
  c.Ints("geom_matid", g.geom_matid, mj->geom_matid, ng, 1, gn);
  // the virtual mass and inertia come from MuJoCo's 15-point quadrature of Lamb's integrals,
  // Gauss evaluates them exactly (Carlson's R_D): equal to that quadrature's error, which grows
  // with the aspect ratio (1.2e-6 relative for 20:1, 1.2e-5 for the 40:1 plate of
  // tests/models/compile_fluid_ellipsoid.xml)
  c.Reals("geom_fluid", g.geom_fluid, mj->geom_fluid, ng, mjNFLUID, gn, 3e-5);
  const auto* sn = &g.site_name;
  std::vector<double> mj_site_rgba(mj->site_rgba, mj->site_rgba + 4 * ns);
  c.Reals("site_rgba", g.site_rgba, mj_site_rgba.data(), ns, 4, sn, 1e-7);
  c.Ints("site_matid", g.site_matid, mj->site_matid, ns, 1, sn);
  c.Ints("site_type", g.site_type, mj->site_type, ns, 1, sn);
  c.Ints("site_bodyid", g.site_bodyid, mj->site_bodyid, ns, 1, sn);
  c.Reals("site_size", g.site_size, mj->site_size, ns, 3, sn);
  c.Reals("site_pos", g.site_pos, mj->site_pos, ns, 3, sn);
  c.Quats("site_quat", g.site_quat, mj->site_quat, ns, sn);

  // materials and skins (MuJoCo stores them as float: compared to float precision)
  auto floats = [](const float* x, int n) { return std::vector<double>(x, x + n); };
  c.Reals("mat_rgba", g.mat_rgba, floats(mj->mat_rgba, 4 * mj->nmat).data(), mj->nmat, 4,
          &g.mat_name, 1e-7);
  const int nk = mj->nskin, nkb = mj->nskinbone;
  const auto* kn = &g.skin_name;
  c.Ints("skin_matid", g.skin_matid, mj->skin_matid, nk, 1, kn);
  c.Ints("skin_group", g.skin_group, mj->skin_group, nk, 1, kn);
  c.Reals("skin_rgba", g.skin_rgba, floats(mj->skin_rgba, 4 * nk).data(), nk, 4, kn, 1e-7);
  c.Reals("skin_inflate", g.skin_inflate, floats(mj->skin_inflate, nk).data(), nk, 1, kn, 1e-7);
  c.Ints("skin_vertadr", g.skin_vertadr, mj->skin_vertadr, nk, 1, kn);
  c.Ints("skin_vertnum", g.skin_vertnum, mj->skin_vertnum, nk, 1, kn);
  c.Ints("skin_faceadr", g.skin_faceadr, mj->skin_faceadr, nk, 1, kn);
  c.Ints("skin_facenum", g.skin_facenum, mj->skin_facenum, nk, 1, kn);
  c.Ints("skin_boneadr", g.skin_boneadr, mj->skin_boneadr, nk, 1, kn);
  c.Ints("skin_bonenum", g.skin_bonenum, mj->skin_bonenum, nk, 1, kn);
  c.Reals("skin_vert", g.skin_vert, floats(mj->skin_vert, 3 * mj->nskinvert).data(),
          mj->nskinvert, 3, nullptr, 1e-7);
  c.Ints("skin_face", g.skin_face, mj->skin_face, mj->nskinface, 3);
  c.Ints("skin_bonevertadr", g.skin_bonevertadr, mj->skin_bonevertadr, nkb, 1);
  c.Ints("skin_bonevertnum", g.skin_bonevertnum, mj->skin_bonevertnum, nkb, 1);
  c.Ints("skin_bonebodyid", g.skin_bonebodyid, mj->skin_bonebodyid, nkb, 1);
  c.Reals("skin_bonebindpos", g.skin_bonebindpos, floats(mj->skin_bonebindpos, 3 * nkb).data(),
          nkb, 3, nullptr, 1e-7);
  c.Reals("skin_bonebindquat", g.skin_bonebindquat,
          floats(mj->skin_bonebindquat, 4 * nkb).data(), nkb, 4, nullptr, 1e-7);
  c.Ints("skin_bonevertid", g.skin_bonevertid, mj->skin_bonevertid, mj->nskinbonevert, 1);
  c.Reals("skin_bonevertweight", g.skin_bonevertweight,
          floats(mj->skin_bonevertweight, mj->nskinbonevert).data(), mj->nskinbonevert, 1,
          nullptr, 1e-7);

  // actuators
  const int nu = mj->nu;
  const auto* an = &g.actuator_name;
  c.Ints("actuator_trntype", g.actuator_trntype, mj->actuator_trntype, nu, 1, an);
  // Gauss numbers dynamics as the spec does (filterexact before muscle); MuJoCo 2.2.2 has no
  // filterexact: none, integrator, filter, muscle, user
  std::vector<int> dyntype_2_2_2;
  for (DynType t : g.actuator_dyntype) {
    const int map[] = {mjDYN_NONE, mjDYN_INTEGRATOR, mjDYN_FILTER, -1, mjDYN_MUSCLE, mjDYN_USER};
    dyntype_2_2_2.push_back(map[static_cast<int>(t)]);
  }
  c.Ints("actuator_dyntype", dyntype_2_2_2, mj->actuator_dyntype, nu, 1, an);
  c.Ints("actuator_gaintype", g.actuator_gaintype, mj->actuator_gaintype, nu, 1, an);
  c.Ints("actuator_biastype", g.actuator_biastype, mj->actuator_biastype, nu, 1, an);
  c.Ints("actuator_trnid", g.actuator_trnid, mj->actuator_trnid, nu, 2, an);
  c.Ints("actuator_ctrllimited", g.actuator_ctrllimited, mj->actuator_ctrllimited, nu, 1, an);
  c.Ints("actuator_forcelimited", g.actuator_forcelimited, mj->actuator_forcelimited, nu, 1, an);
  c.Ints("actuator_actlimited", g.actuator_actlimited, mj->actuator_actlimited, nu, 1, an);
  c.Reals("actuator_dynprm", g.actuator_dynprm, mj->actuator_dynprm, nu, mjNDYN, an);
  c.Reals("actuator_gainprm", g.actuator_gainprm, mj->actuator_gainprm, nu, mjNGAIN, an);
  c.Reals("actuator_biasprm", g.actuator_biasprm, mj->actuator_biasprm, nu, mjNBIAS, an);
  c.Reals("actuator_ctrlrange", g.actuator_ctrlrange, mj->actuator_ctrlrange, nu, 2, an);
  c.Reals("actuator_forcerange", g.actuator_forcerange, mj->actuator_forcerange, nu, 2, an);
  c.Reals("actuator_actrange", g.actuator_actrange, mj->actuator_actrange, nu, 2, an);
  c.Reals("actuator_gear", g.actuator_gear, mj->actuator_gear, nu, 6, an);
  c.Reals("actuator_cranklength", g.actuator_cranklength, mj->actuator_cranklength, nu, 1, an);
  c.Reals("actuator_lengthrange", g.actuator_lengthrange, mj->actuator_lengthrange, nu, 2, an);
  // MuJoCo 2.2.2 gives each stateful actuator one activation, in order
  std::vector<int> actadr(nu, -1);
  for (int i = 0, na = 0; i < nu; ++i) {
    if (mj->actuator_dyntype[i] != mjDYN_NONE) actadr[i] = na++;
  }
  c.Ints("actuator_actadr", g.actuator_actadr, actadr.data(), nu, 1, an);

  // tendons
  const int nt = mj->ntendon, nw = mj->nwrap;
  const auto* tn = &g.tendon_name;
  c.Ints("tendon_adr", g.tendon_adr, mj->tendon_adr, nt, 1, tn);
  c.Ints("tendon_num", g.tendon_num, mj->tendon_num, nt, 1, tn);
  c.Ints("tendon_limited", g.tendon_limited, mj->tendon_limited, nt, 1, tn);
  c.Reals("tendon_solref_lim", g.tendon_solref_lim, mj->tendon_solref_lim, nt, mjNREF, tn);
  c.Reals("tendon_solimp_lim", g.tendon_solimp_lim, mj->tendon_solimp_lim, nt, mjNIMP, tn);
  c.Reals("tendon_solref_fri", g.tendon_solref_fri, mj->tendon_solref_fri, nt, mjNREF, tn);
  c.Reals("tendon_solimp_fri", g.tendon_solimp_fri, mj->tendon_solimp_fri, nt, mjNIMP, tn);
  c.Reals("tendon_range", g.tendon_range, mj->tendon_range, nt, 2, tn);
  c.Reals("tendon_margin", g.tendon_margin, mj->tendon_margin, nt, 1, tn);
  c.Reals("tendon_stiffness", g.tendon_stiffness, mj->tendon_stiffness, nt, 1, tn);
  c.Reals("tendon_damping", g.tendon_damping, mj->tendon_damping, nt, 1, tn);
  c.Reals("tendon_frictionloss", g.tendon_frictionloss, mj->tendon_frictionloss, nt, 1, tn);
  c.Reals("tendon_lengthspring", g.tendon_lengthspring, mj->tendon_lengthspring, nt, 1, tn);
  c.Ints("wrap_type", g.wrap_type, mj->wrap_type, nw, 1);
  c.Ints("wrap_objid", g.wrap_objid, mj->wrap_objid, nw, 1);
  c.Reals("wrap_prm", g.wrap_prm, mj->wrap_prm, nw, 1);

  // equality constraints, pairs, excludes
  const int ne = mj->neq;
  const auto* en = &g.eq_name;
  c.Ints("eq_type", g.eq_type, mj->eq_type, ne, 1, en);
  c.Ints("eq_obj1id", g.eq_obj1id, mj->eq_obj1id, ne, 1, en);
  c.Ints("eq_obj2id", g.eq_obj2id, mj->eq_obj2id, ne, 1, en);
  c.Ints("eq_active", g.eq_active0, mj->eq_active, ne, 1, en);
  c.Reals("eq_solref", g.eq_solref, mj->eq_solref, ne, mjNREF, en);
  c.Reals("eq_solimp", g.eq_solimp, mj->eq_solimp, ne, mjNIMP, en);
  c.Reals("eq_data", g.eq_data, mj->eq_data, ne, mjNEQDATA, en);
  const int np = mj->npair;
  c.Ints("pair_geom1", g.pair_geom1, mj->pair_geom1, np, 1);
  c.Ints("pair_geom2", g.pair_geom2, mj->pair_geom2, np, 1);
  c.Ints("pair_dim", g.pair_condim, mj->pair_dim, np, 1);
  c.Reals("pair_solref", g.pair_solref, mj->pair_solref, np, mjNREF);
  c.Reals("pair_solimp", g.pair_solimp, mj->pair_solimp, np, mjNIMP);
  c.Reals("pair_margin", g.pair_margin, mj->pair_margin, np, 1);
  c.Reals("pair_gap", g.pair_gap, mj->pair_gap, np, 1);
  c.Reals("pair_friction", g.pair_friction, mj->pair_friction, np, 5);
  std::vector<int> signature(g.nexclude);
  for (int i = 0; i < g.nexclude; ++i) {
    signature[i] = ((g.exclude_body1[i] + 1) << 16) + g.exclude_body2[i] + 1;
  }
  c.Ints("exclude_signature", signature, mj->exclude_signature, mj->nexclude, 1);

  // sensors
  const int nse = mj->nsensor;
  std::vector<int> type(g.nsensor), objtype(g.nsensor), reftype(g.nsensor), datatype(g.nsensor);
  for (int i = 0; i < g.nsensor; ++i) {
    type[i] = MjSensorType(g.sensor_type[i]);
    datatype[i] = static_cast<int>(g.sensor_datatype[i]);
    objtype[i] = MjObjType(g.sensor_objtype[i]);
    reftype[i] = MjObjType(g.sensor_reftype[i]);
  }
  const auto* sen = &g.sensor_name;
  c.Ints("sensor_type", type, mj->sensor_type, nse, 1, sen);
  c.Ints("sensor_objtype", objtype, mj->sensor_objtype, nse, 1, sen);
  c.Ints("sensor_objid", g.sensor_objid, mj->sensor_objid, nse, 1, sen);
  c.Ints("sensor_reftype", reftype, mj->sensor_reftype, nse, 1, sen);
  c.Ints("sensor_refid", g.sensor_refid, mj->sensor_refid, nse, 1, sen);
  c.Ints("sensor_dim", g.sensor_dim, mj->sensor_dim, nse, 1, sen);
  c.Ints("sensor_adr", g.sensor_adr, mj->sensor_adr, nse, 1, sen);
  c.Ints("sensor_needstage", g.sensor_needstage, mj->sensor_needstage, nse, 1, sen);
  c.Ints("sensor_datatype", datatype, mj->sensor_datatype, nse, 1, sen);
  c.Reals("sensor_cutoff", g.sensor_cutoff, mj->sensor_cutoff, nse, 1, sen);
  c.Reals("sensor_noise", g.sensor_noise, mj->sensor_noise, nse, 1, sen);

  // keyframes and custom numerics
  c.Reals("key_time", g.key_time, mj->key_time, mj->nkey, 1, &g.key_name);
  c.Reals("key_qpos", g.key_qpos, mj->key_qpos, mj->nkey, mj->nq, &g.key_name);
  c.Reals("key_qvel", g.key_qvel, mj->key_qvel, mj->nkey, mj->nv, &g.key_name);
  c.Reals("key_act", g.key_act, mj->key_act, mj->nkey, mj->na, &g.key_name);
  c.Reals("key_ctrl", g.key_ctrl, mj->key_ctrl, mj->nkey, mj->nu, &g.key_name);
  c.Reals("key_mpos", g.key_mpos, mj->key_mpos, mj->nkey, 3 * mj->nmocap, &g.key_name);
  c.Reals("key_mquat", g.key_mquat, mj->key_mquat, mj->nkey, 4 * mj->nmocap, &g.key_name);
  c.Ints("numeric_adr", g.numeric_adr, mj->numeric_adr, mj->nnumeric, 1, &g.numeric_name);
  c.Ints("numeric_size", g.numeric_size, mj->numeric_size, mj->nnumeric, 1, &g.numeric_name);
  c.Reals("numeric_data", g.numeric_data, mj->numeric_data, 1, mj->nnumericdata);

  // names
  auto names = [&](const char* field, const std::vector<std::string>& gauss_names, int type2,
                   int n) {
    std::vector<std::string> mj_names(n);
    for (int i = 0; i < n; ++i) {
      const char* s = mj_id2name(mj, type2, i);
      mj_names[i] = s ? s : "";
    }
    c.Strings(field, gauss_names, mj_names);
  };
  names("body_name", g.body_name, mjOBJ_BODY, nb);
  names("jnt_name", g.jnt_name, mjOBJ_JOINT, nj);
  names("geom_name", g.geom_name, mjOBJ_GEOM, ng);
  names("site_name", g.site_name, mjOBJ_SITE, ns);
  names("actuator_name", g.actuator_name, mjOBJ_ACTUATOR, nu);
  names("tendon_name", g.tendon_name, mjOBJ_TENDON, nt);
  names("sensor_name", g.sensor_name, mjOBJ_SENSOR, nse);
  names("eq_name", g.eq_name, mjOBJ_EQUALITY, ne);
  names("mat_name", g.mat_name, mjOBJ_MATERIAL, mj->nmat);
  names("skin_name", g.skin_name, mjOBJ_SKIN, nk);
  std::cout << ": largest relative difference " << c.worst()
            << (c.worst() > 0 ? " (" + c.worst_field() + ")" : "") << "\n";
  return c.count() ? c.first() + " (" + std::to_string(c.count()) + " mismatching fields)" : "";
}

namespace {

// Loads `path` with both compilers and compares; fails the test with the first mismatch.
void CheckModel(const std::string& path) {
  SCOPED_TRACE(path);
  std::cout << "  " << std::filesystem::path(path).filename().string();
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_NE(mj, nullptr);
  std::shared_ptr<const Model> g;
  try {
    g = LoadModel(path);
  } catch (const Error& e) {
    FAIL() << "gauss refused a model MuJoCo accepts: " << e.what();
  }
  const std::string mismatch = CompareModels(*g, mj.get());
  EXPECT_EQ(mismatch, "") << path;
}

// Every test model written to be compared with MuJoCo (tests/models/compile_*.xml).
std::vector<std::string> CompileTestModels() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(TestModel(""))) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("compile_", 0) == 0 && entry.path().extension() == ".xml") {
      out.push_back(entry.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ModelCompileReference, GymnasiumModels) {
  const std::vector<std::string> models = GymnasiumModels();
  ASSERT_GE(models.size(), 14u);
  for (const std::string& path : models) CheckModel(path);
}

TEST(ModelCompileReference, MujocoSampleModels) {
  for (const char* name : {"humanoid/humanoid.xml", "humanoid/22_humanoids.xml",
                           "humanoid100/humanoid100.xml", "slider_crank/slider_crank.xml",
                           "tendon_arm/arm26.xml"}) {
    CheckModel(MujocoSampleModel(name));
  }
}

TEST(ModelCompileReference, HandWrittenTestModels) {
  const std::vector<std::string> models = CompileTestModels();
  ASSERT_GE(models.size(), 10u);
  for (const std::string& path : models) CheckModel(path);
}

// The compiler's last step, SetConstants (core/src/set_constants.cc), on compiled models:
// inverse weights and mean inertia/mass at qpos0, relative 1e-9 with a 1e-12 absolute floor
// (numerically-zero weights differ in their noise).
TEST(ModelCompileReference, ConstantsAtQpos0) {
  std::vector<std::string> models = GymnasiumModels();
  const std::vector<std::string> more = CompileTestModels();
  models.insert(models.end(), more.begin(), more.end());
  models.push_back(MujocoSampleModel("humanoid/humanoid.xml"));
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    MjModelPtr mj = LoadMujoco(path);
    ASSERT_NE(mj, nullptr);
    std::shared_ptr<const Model> g = LoadModel(path);
    Comparer c(*g, mj.get());
    c.Reals("body_invweight0", g->body_invweight0, mj->body_invweight0, mj->nbody, 2,
            &g->body_name);
    c.Reals("dof_invweight0", g->dof_invweight0, mj->dof_invweight0, mj->nv, 1);
    c.Real("stat_meaninertia", g->stat_meaninertia, mj->stat.meaninertia);
    c.Real("stat_meanmass", g->stat_meanmass, mj->stat.meanmass);
    EXPECT_EQ(c.first(), "");
  }
}

}  // namespace
}  // namespace gauss::test
