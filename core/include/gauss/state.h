// Getting and setting the integration state as one flat vector (the Simulation chapter's
// state components), e.g. to save a state and restart bit-identically.
#pragma once

#include <vector>

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// State components; combine with |. The order in the flat vector is the order of the bits.
enum StateBits : unsigned {
  kStateTime = 1u << 0,
  kStateQpos = 1u << 1,
  kStateQvel = 1u << 2,
  kStateAct = 1u << 3,
  kStateWarmstart = 1u << 4,
  kStateCtrl = 1u << 5,
  kStateQfrcApplied = 1u << 6,
  kStateXfrcApplied = 1u << 7,
  kStateMocap = 1u << 8,     // mocap_pos then mocap_quat
  kStateEqActive = 1u << 9,
  kStatePhysics = kStateQpos | kStateQvel | kStateAct,
  kStateFullPhysics = kStateTime | kStatePhysics,
  kStateUser = kStateCtrl | kStateQfrcApplied | kStateXfrcApplied | kStateMocap | kStateEqActive,
  // Everything the forward dynamics read: same integration state in, same result out.
  kStateIntegration = kStateFullPhysics | kStateUser | kStateWarmstart,
};

int StateSize(const Model& m, unsigned bits);
void GetState(const Model& m, const Data& d, unsigned bits, double* out);
std::vector<double> GetState(const Model& m, const Data& d, unsigned bits);
void SetState(const Model& m, Data& d, unsigned bits, const double* in);

}  // namespace gauss
