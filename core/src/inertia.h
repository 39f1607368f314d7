// Compact spatial inertia (10 numbers) of a body or composite body about a reference point,
// in world-aligned axes:
//   [Ixx, Iyy, Izz, Ixy, Ixz, Iyz,  m*cx, m*cy, m*cz,  m]
// where I is the rotational inertia about the reference point and c the center of mass
// relative to it. Acting on a motion vector [w; v] (v: velocity of the reference point) it
// gives the momentum [I w + m c x v;  m v - m c x w].
#pragma once

namespace gauss {

// cinert <- inertia of a body with principal moments `diag` along the columns of `rot`, mass
// `mass`, center of mass at `offset` from the reference point (parallel-axis theorem).
void SetBodyInertia(double* cinert, const double* rot, const double* diag, double mass,
                    const double* offset);

// res (6) = cinert * vec (6)
void MulInertiaVec(double* res, const double* cinert, const double* vec);

}  // namespace gauss
