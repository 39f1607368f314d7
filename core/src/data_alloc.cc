// Sizing and resetting Data. Every array is listed once, in ForEachArray, so allocation and
// reset cannot drift apart.
#include "data_alloc.h"

#include "collision.h"
#include "constraint_assembly.h"
#include "island.h"
#include "sleep.h"
#include "tendon.h"

#include <algorithm>
#include <atomic>

namespace gauss {
namespace {

// Calls fn(array, size) for every double array of Data with its size for model m.
template <class Fn>
void ForEachArray(const Model& m, Data& d, Fn&& fn) {
  const int nb = m.nbody;
  fn(d.qpos, m.nq);
  fn(d.qvel, m.nv);
  fn(d.act, m.na);
  fn(d.qacc_warmstart, m.nv);
  fn(d.ctrl, m.nu);
  fn(d.qfrc_applied, m.nv);
  fn(d.xfrc_applied, 6 * nb);
  fn(d.mocap_pos, 3 * m.nmocap);
  fn(d.mocap_quat, 4 * m.nmocap);
  fn(d.qacc, m.nv);
  fn(d.act_dot, m.na);
  fn(d.sensordata, m.nsensordata);
  fn(d.xpos, 3 * nb);
  fn(d.xquat, 4 * nb);
  fn(d.xmat, 9 * nb);
  fn(d.xipos, 3 * nb);
  fn(d.ximat, 9 * nb);
  fn(d.xanchor, 3 * m.njnt);
  fn(d.xaxis, 3 * m.njnt);
  fn(d.geom_xpos, 3 * m.ngeom);
  fn(d.geom_xmat, 9 * m.ngeom);
  fn(d.site_xpos, 3 * m.nsite);
  fn(d.site_xmat, 9 * m.nsite);
  fn(d.cam_xpos, 3 * m.ncam);
  fn(d.cam_xmat, 9 * m.ncam);
  fn(d.subtree_com, 3 * nb);
  fn(d.cdof, 6 * m.nv);
  fn(d.cinert, 10 * nb);
  fn(d.crb, 10 * nb);
  fn(d.qM, m.nM);
  fn(d.qLD, m.nM);
  fn(d.qLDiagInv, m.nv);
  fn(d.qLDiagSqrtInv, m.nv);
  fn(d.qLD_damped, m.nM);
  fn(d.qLDiagInv_damped, m.nv);
  fn(d.ten_length, m.ntendon);
  fn(d.ten_J, m.ntendon * m.nv);
  fn(d.ten_velocity, m.ntendon);
  fn(d.efc_J, m.njmax * (IsSparse(m) ? MaxRowNonzeros(m) : m.nv));
  fn(d.efc_pos, m.njmax);
  fn(d.efc_margin, m.njmax);
  fn(d.efc_frictionloss, m.njmax);
  fn(d.efc_diagApprox, m.njmax);
  fn(d.efc_KBIP, 4 * m.njmax);
  fn(d.efc_R, m.njmax);
  fn(d.efc_D, m.njmax);
  fn(d.efc_vel, m.njmax);
  fn(d.efc_aref, m.njmax);
  fn(d.efc_force, m.njmax);
  fn(d.cvel, 6 * nb);
  fn(d.cdof_dot, 6 * m.nv);
  fn(d.qfrc_bias, m.nv);
  fn(d.qfrc_passive, m.nv);
  fn(d.qfrc_gravcomp, m.nv);
  fn(d.actuator_length, m.nu);
  fn(d.actuator_velocity, m.nu);
  fn(d.actuator_moment, m.nu * m.nv);
  fn(d.actuator_force, m.nu);
  fn(d.qfrc_actuator, m.nv);
  fn(d.qfrc_smooth, m.nv);
  fn(d.qacc_smooth, m.nv);
  fn(d.qfrc_constraint, m.nv);
  fn(d.qfrc_inverse, m.nv);
  fn(d.cacc, 6 * nb);
  fn(d.cfrc_int, 6 * nb);
  fn(d.cfrc_ext, 6 * nb);
  fn(d.subtree_linvel, 3 * nb);
  fn(d.qpos_sleep, m.nq);
  fn(d.subtree_angmom, 3 * nb);
}

}  // namespace

// One stage at a time: each takes its blocks and releases them before the next runs. The
// stages whose blocks are listed by a block function declare them with it (the same function
// carves them); the others take one or two nv-, nu- or njmax-sized arrays, named here.
ArenaPlan KernelScratchPlan(const Model& m) {
  const std::size_t nv = std::max(m.nv, 0), nu = std::max(m.nu, 0);
  const std::size_t nj = std::max(m.njmax, 0);
  ArenaPlan plan;
  auto stage = [&plan](const char* name, std::size_t doubles) {
    ArenaPlan s;
    s.Add(name, doubles);
    plan.Within(name, s);
  };
  plan.Within("tendon segment Jacobians (tendon.cc)", TendonScratchPlan(m));
  stage("transmission Jacobians (actuation.cc)", 12 * nv);
  stage("clamped controls (actuation.cc)", nu);
  // the candidate pairs take what remains of the arena (collision.cc)
  stage("broad phase boxes (collision_broadphase.cc)", BroadPhaseScratch(m));
  plan.Within("constraint rows (constraint_assembly.cc)", ConstraintAssemblyPlan(m));
  stage("solver statistics jar (engine.cc)", nj);
  stage("kinetic energy M v (energy.cc)", nv);
  stage("inverse dynamics: the discrete qacc (invdiscrete), force, qfrc (inverse.cc)", nj + 2 * nv);
  stage("control derivative column (control_derivative.cc)", nv);
  // per-island sub-problems (island_solve.cc) are held while the solver plugin runs on them,
  // on top of the solver's own scratch: counted as held, not as one stage among the others
  plan.Add("constraint islands (island.cc, island_solve.cc)", IslandScratchSize(m));
  // M's column indices, held through the whole problem's solve (engine.cc)
  plan.Add("M column indices (engine.cc)", ArenaDoubles<int>(std::max(m.nM, 0)));
  return plan;
}

std::size_t ScratchSize(const Model& m) { return KernelScratchPlan(m).doubles(); }

DataMisfit FindDataMisfit(const Model& m, const Data& d, std::size_t arena_doubles) {
  DataMisfit misfit;
  auto exactly = [&misfit](const char* array, std::size_t size, int needed) {
    if (misfit.array || size == static_cast<std::size_t>(std::max(needed, 0))) return;
    misfit = {array, size, static_cast<std::size_t>(std::max(needed, 0))};
  };
  const int nb = m.nbody;
  exactly("qpos", d.qpos.size(), m.nq);
  exactly("qvel", d.qvel.size(), m.nv);
  exactly("act", d.act.size(), m.na);
  exactly("ctrl", d.ctrl.size(), m.nu);
  exactly("xpos", d.xpos.size(), 3 * nb);
  exactly("xanchor", d.xanchor.size(), 3 * m.njnt);
  exactly("geom_xpos", d.geom_xpos.size(), 3 * m.ngeom);
  exactly("site_xpos", d.site_xpos.size(), 3 * m.nsite);
  exactly("cam_xpos", d.cam_xpos.size(), 3 * m.ncam);
  exactly("mocap_pos", d.mocap_pos.size(), 3 * m.nmocap);
  exactly("eq_active", d.eq_active.size(), m.neq);
  exactly("sensordata", d.sensordata.size(), m.nsensordata);
  exactly("qM", d.qM.size(), m.nM);
  exactly("ten_J", d.ten_J.size(), m.ntendon * m.nv);
  exactly("actuator_moment", d.actuator_moment.size(), m.nu * m.nv);
  exactly("contact", d.contact.size(), m.nconmax);
  exactly("efc_force", d.efc_force.size(), m.njmax);
  exactly("efc_J", d.efc_J.size(), m.njmax * (IsSparse(m) ? MaxRowNonzeros(m) : m.nv));
  exactly("island_contact", d.island_contact.size(), UsesIslands(m) ? m.nconmax : 0);
  if (misfit.array) return misfit;
  const std::size_t trace = static_cast<std::size_t>(std::max(m.opt.iterations, 1));
  if (d.solver_trace.size() < trace) return {"solver_trace", d.solver_trace.size(), trace};
  if (d.arena.capacity() < arena_doubles) return {"arena", d.arena.capacity(), arena_doubles};
  return misfit;
}

void AllocateData(const Model& m, Data& d, std::size_t plugin_scratch) {
  ForEachArray(m, d, [](std::vector<double>& a, int n) { a.assign(std::max(n, 0), 0.0); });
  d.eq_active.assign(m.neq, 0);
  d.actuator_moment_span.assign(2 * m.nu, 0);
  for (int a = 0; a < m.nu; ++a) d.actuator_moment_span[2 * a + 1] = m.nv;  // all, until computed
  d.contact.assign(std::max(m.nconmax, 0), Contact());
  const int nj = std::max(m.njmax, 0);
  d.efc_type.assign(nj, ConstraintType::kEquality);
  d.efc_id.assign(nj, 0);
  d.efc_state.assign(nj, 0);
  d.efc_J_rownnz.assign(IsSparse(m) ? nj : 0, 0);
  d.efc_J_rowadr.assign(IsSparse(m) ? nj : 0, 0);
  d.efc_J_colind.assign(IsSparse(m) ? static_cast<std::size_t>(nj) * MaxRowNonzeros(m) : 0, 0);
  // a dense J's structure: up to nv columns per row (a row built over all of them); none below
  // kDenseRowColumnsMinDofs dofs, where reading a row whole costs no more than through its
  // column list (measured per step with the list: point_mass, nv 3, +0.23 k instructions;
  // acrobot, nv 2, +0.1 k; swimmer6, nv 8, +0.03 k; docs/performance.md, stop 29)
  constexpr int kDenseRowColumnsMinDofs = 10;
  const bool row_columns = !IsSparse(m) && m.nv >= kDenseRowColumnsMinDofs;
  d.efc_J_dense_rownnz.assign(row_columns ? nj : 0, 0);
  d.efc_J_dense_rowadr.assign(row_columns ? nj : 0, 0);
  d.efc_J_dense_colind.assign(row_columns ? static_cast<std::size_t>(nj) * m.nv : 0, 0);
  // with islands, one trace per island (at most ntree islands)
  const int traces = UsesIslands(m) ? std::max(m.ntree, 1) : 1;
  d.solver_trace.assign(static_cast<std::size_t>(std::max(m.opt.iterations, 1)) * traces,
                        SolverIteration());
  const int nt = std::max(m.ntree, 0);
  for (auto* v : {&d.tree_island, &d.island_ntree, &d.island_nv, &d.island_nefc,
                  &d.island_dofadr, &d.island_efcadr, &d.island_iter, &d.tree_asleep, &d.tree_frozen}) {
    v->assign(nt, 0);
  }
  for (auto* v : {&d.dof_island, &d.island_dofind}) v->assign(m.nv, 0);
  d.body_awake.assign(m.nbody, 0);
  for (auto* v : {&d.efc_island, &d.island_efcind}) v->assign(nj, 0);
  d.island_contact.assign(UsesIslands(m) ? std::max(m.nconmax, 0) : 0, Contact());
  d.arena.Reserve(ScratchSize(m) + plugin_scratch);
  ResetData(m, d);
}

std::uint64_t NewMatricesId() {
  // relaxed: only uniqueness matters, and fetch_add gives it (1, 2, ...; 0 stays "unknown")
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

void ResetData(const Model& m, Data& d) {
  ForEachArray(m, d, [](std::vector<double>& a, int) { std::fill(a.begin(), a.end(), 0.0); });
  std::copy(m.qpos0.begin(), m.qpos0.end(), d.qpos.begin());
  for (int b = 0; b < m.nbody; ++b) {
    const int id = m.body_mocapid[b];
    if (id < 0) continue;
    std::copy_n(m.body_pos.begin() + 3 * b, 3, d.mocap_pos.begin() + 3 * id);
    std::copy_n(m.body_quat.begin() + 4 * b, 4, d.mocap_quat.begin() + 4 * id);
  }
  std::copy(m.eq_active0.begin(), m.eq_active0.end(), d.eq_active.begin());
  d.time = 0;
  d.energy = {0, 0};
  d.warning_count.fill(0);
  d.warning_index.fill(0);
  d.solver_iter = 0;
  d.qLD_damped_current = 0;
  d.matrices_id = NewMatricesId();  // qM and the rows are zero now
  d.sensor_noise_state = kSensorNoiseSeed;
  d.ncon = 0;
  d.nefc = 0;
  d.ne = 0;
  d.nf = 0;
  d.nisland = 0;
  ResetSleep(m, d);
}

}  // namespace gauss
