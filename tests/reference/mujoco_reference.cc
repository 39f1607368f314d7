#include "mujoco_reference.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

namespace gauss::test {

MjModelPtr LoadMujoco(const std::string& path) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (!m) ADD_FAILURE() << "MuJoCo could not load " << path << ": " << error;
  return MjModelPtr(m);
}

MjDataPtr MakeMujocoData(const mjModel* m) { return MjDataPtr(mj_makeData(m)); }

void CopyForwardInputs(const mjModel* m, const mjData* mjd, Data& d, bool warmstart) {
  d.time = mjd->time;
  std::copy_n(mjd->qpos, m->nq, d.qpos.begin());
  std::copy_n(mjd->qvel, m->nv, d.qvel.begin());
  std::copy_n(mjd->act, m->na, d.act.begin());
  std::copy_n(mjd->ctrl, m->nu, d.ctrl.begin());
  std::copy_n(mjd->qfrc_applied, m->nv, d.qfrc_applied.begin());
  std::copy_n(mjd->xfrc_applied, 6 * m->nbody, d.xfrc_applied.begin());
  if (warmstart) std::copy_n(mjd->qacc_warmstart, m->nv, d.qacc_warmstart.begin());
}

namespace {

// Controls drawn with the caller's distributions: a normal_distribution keeps the second value
// of each pair it draws, so whether it is shared decides the sequence of states.
void DrawControls(const mjModel* m, mjData* d, std::mt19937_64& gen,
                  std::normal_distribution<double>& nd, std::uniform_real_distribution<double>& ud) {
  for (int i = 0; i < m->nu; ++i) {
    const double* r = m->actuator_ctrlrange + 2 * i;
    d->ctrl[i] = m->actuator_ctrllimited[i] ? r[0] + (r[1] - r[0]) * ud(gen) : nd(gen);
  }
}

}  // namespace

void RandomState(const mjModel* m, mjData* d, std::mt19937_64& gen, const RandomStateOptions& o) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  mj_resetData(m, d);
  for (int j = 0; j < m->njnt; ++j) {
    double* q = d->qpos + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int c = 0; c < 3; ++c) q[c] += o.translation * nd(gen);
        if (o.free_z >= 0) q[2] = o.free_z + o.translation * nd(gen);
        q += 3;
        [[fallthrough]];
      case mjJNT_BALL:
        for (int c = 0; c < 4; ++c) {
          if (o.turn < 0) {
            q[c] = nd(gen);
          } else {
            q[c] += o.turn * nd(gen);
          }
        }
        mju_normalize4(q);
        break;
      default:
        q[0] += o.spread * nd(gen);
    }
  }
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = o.speed * nd(gen);
  if (o.act) {
    for (int i = 0; i < m->na; ++i) d->act[i] = nd(gen);
  }
  if (o.controls) DrawControls(m, d, gen, nd, ud);
  if (o.time) d->time = 10 * ud(gen);
  if (o.forces) {
    for (int i = 0; i < m->nv; ++i) d->qfrc_applied[i] = nd(gen);
    for (int i = 6; i < 6 * m->nbody; ++i) d->xfrc_applied[i] = nd(gen);
  }
}

void RandomControls(const mjModel* m, mjData* d, std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  DrawControls(m, d, gen, nd, ud);
}

void PlacedState(const mjModel* m, mjData* d, std::mt19937_64& gen, bool motion) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  mj_resetData(m, d);
  for (int j = 0; j < m->njnt; ++j) {
    double* q = d->qpos + m->jnt_qposadr[j];
    const double* range = m->jnt_range + 2 * j;
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        q[0] += 0.3 * nd(gen);
        q[1] += 0.3 * nd(gen);
        q[2] = m->qpos0[m->jnt_qposadr[j] + 2] * (1.5 * ud(gen)) - 0.1;
        q += 3;
        [[fallthrough]];
      case mjJNT_BALL:
        for (int c = 0; c < 4; ++c) q[c] = nd(gen);
        mju_normalize4(q);
        break;
      case mjJNT_SLIDE:
        if (!m->jnt_limited[j] && std::fabs(m->jnt_axis[3 * j + 2]) > 0.9) {
          q[0] = -1.5 * ud(gen) + 0.2;  // planar root: drop it onto the floor
          break;
        }
        [[fallthrough]];
      default:
        q[0] = m->jnt_limited[j] ? range[0] + (range[1] - range[0]) * ud(gen)
                                 : q[0] + 0.5 * nd(gen);
    }
  }
  if (!motion) return;
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = nd(gen);
  RandomControls(m, d, gen);
}

void FreeRunState(const mjModel* m, mjData* sim, mjData* out, std::mt19937_64& gen,
                  std::normal_distribution<double>& nd, double sigma,
                  std::uniform_int_distribution<int>& steps) {
  mj_resetData(m, sim);
  for (int i = 0; i < m->nv; ++i) sim->qvel[i] = sigma * nd(gen);
  const int n = steps(gen);
  for (int k = 0; k < n; ++k) mj_step(m, sim);
  mj_resetData(m, out);
  std::copy_n(sim->qpos, m->nq, out->qpos);
  std::copy_n(sim->qvel, m->nv, out->qvel);
  std::copy_n(sim->qacc_warmstart, m->nv, out->qacc_warmstart);
}

std::string ContactList(const Data& d, const mjData* md) {
  std::ostringstream out;
  for (int i = 0; i < std::max(d.ncon, md->ncon); ++i) {
    out << "\n  #" << i;
    if (i < d.ncon) {
      out << " gauss " << d.contact[i].geom1 << "-" << d.contact[i].geom2 << " dist "
          << d.contact[i].dist;
    }
    if (i < md->ncon) {
      out << " | mujoco " << md->contact[i].geom1 << "-" << md->contact[i].geom2 << " dist "
          << md->contact[i].dist;
    }
  }
  return out.str();
}

}  // namespace gauss::test
