// The integration state as one flat vector (gauss/state.h).
#include "gauss/state.h"

#include <algorithm>

namespace gauss {
namespace {

// Calls fn(pointer to the component's first value, count) for each selected double component
// in bit order (eq_active, a byte array, is handled by the callers).
template <class D, class Fn>
void ForEachComponent(const Model& m, D& d, unsigned bits, Fn&& fn) {
  if (bits & kStateTime) fn(&d.time, 1);
  if (bits & kStateQpos) fn(d.qpos.data(), m.nq);
  if (bits & kStateQvel) fn(d.qvel.data(), m.nv);
  if (bits & kStateAct) fn(d.act.data(), m.na);
  if (bits & kStateWarmstart) fn(d.qacc_warmstart.data(), m.nv);
  if (bits & kStateCtrl) fn(d.ctrl.data(), m.nu);
  if (bits & kStateQfrcApplied) fn(d.qfrc_applied.data(), m.nv);
  if (bits & kStateXfrcApplied) fn(d.xfrc_applied.data(), 6 * m.nbody);
  if (bits & kStateMocap) {
    fn(d.mocap_pos.data(), 3 * m.nmocap);
    fn(d.mocap_quat.data(), 4 * m.nmocap);
  }
}

}  // namespace

int StateSize(const Model& m, unsigned bits) {
  int size = 0;
  if (bits & kStateTime) size += 1;
  if (bits & kStateQpos) size += m.nq;
  if (bits & kStateQvel) size += m.nv;
  if (bits & kStateAct) size += m.na;
  if (bits & kStateWarmstart) size += m.nv;
  if (bits & kStateCtrl) size += m.nu;
  if (bits & kStateQfrcApplied) size += m.nv;
  if (bits & kStateXfrcApplied) size += 6 * m.nbody;
  if (bits & kStateMocap) size += 7 * m.nmocap;
  if (bits & kStateEqActive) size += m.neq;
  return size;
}

void GetState(const Model& m, const Data& d, unsigned bits, double* out) {
  ForEachComponent(m, d, bits, [&](const double* p, int n) { out = std::copy_n(p, n, out); });
  if (bits & kStateEqActive) {
    for (int i = 0; i < m.neq; ++i) *out++ = d.eq_active[i];
  }
}

std::vector<double> GetState(const Model& m, const Data& d, unsigned bits) {
  std::vector<double> out(StateSize(m, bits));
  GetState(m, d, bits, out.data());
  return out;
}

void SetState(const Model& m, Data& d, unsigned bits, const double* in) {
  ForEachComponent(m, d, bits, [&](double* p, int n) {
    std::copy_n(in, n, p);
    in += n;
  });
  if (bits & kStateEqActive) {
    for (int i = 0; i < m.neq; ++i) d.eq_active[i] = *in++ != 0;
  }
}

}  // namespace gauss
