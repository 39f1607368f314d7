// Forces of the surrounding fluid (option density, viscosity, wind): the two stateless models of
// the spec's "Fluid forces" section, used by the passive-force stage (passive.cc), the analytic
// velocity derivative (derivative.cc) and the model compiler (the ellipsoid coefficients).
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/types.h"

namespace gauss {

// The medium has density or viscosity: fluid forces act (on bodies with mass).
bool MediumActs(const Options& o);

// (cvel, xipos, ximat, geom_xpos, geom_xmat, subtree_com, opt.density/viscosity/wind, geom_fluid)
// => qfrc_passive += the fluid forces of every body with mass: the ellipsoid model for a body
// with at least one geom whose fluidshape is "ellipsoid", the inertia-box model otherwise.
void FluidForces(const Model& m, Data& d);

// True when body b feels fluid forces through the inertia-box model (a body with mass, the
// medium has density or viscosity, and none of its geoms uses the ellipsoid model).
bool UsesInertiaBoxFluid(const Model& m, int b);

// (xipos, ximat, cvel) => derivatives of body b's inertia-box fluid force and torque with
// respect to its velocity relative to the medium, per axis of its inertial frame (the model is
// diagonal there); false when the body feels no inertia-box fluid force.
bool FluidDamping(const Model& m, const Data& d, int b, double* dforce, double* dtorque);

// Semi-axes of the ellipsoid that stands for a geom in the ellipsoid model: a sphere's radius
// thrice, capsule (r, r, half-length + r), cylinder (r, r, half-length), otherwise the three
// sizes (box half-sides, ellipsoid radii, a mesh's bounding half-sizes).
void FluidSemiAxes(GeomType type, const double* size, double* semiaxes);

// The geom_fluid row of a geom with fluidshape="ellipsoid" (compile time): the interaction
// switch (1), the five fluidcoef, and the virtual mass and inertia of the equivalent ellipsoid
// per unit density, from potential-flow theory (Lamb's kappa integrals, computed exactly with
// Carlson's elliptic integral R_D).
void EllipsoidFluidCoefficients(GeomType type, const double* size, const double* fluidcoef,
                                double* geom_fluid);

// The ellipsoid model's wrench on one geom, in the geom's frame: `vel` = (angular, linear)
// velocity of the geom frame relative to the medium, expressed in the geom frame; adds
// (torque, force) to `wrench`. Exposed for tests.
void EllipsoidFluidWrench(const double* semiaxes, const double* geom_fluid, double density,
                          double viscosity, const double* vel, double* wrench);

// jacobian (6 x 6, row-major) = d wrench / d vel of EllipsoidFluidWrench, exact (forward-mode
// dual numbers through the same code).
void EllipsoidFluidWrenchJacobian(const double* semiaxes, const double* geom_fluid,
                                  double density, double viscosity, const double* vel,
                                  double* jacobian);

// (cvel, geom_xpos, geom_xmat, subtree_com, opt.wind) => vel = (angular, linear) velocity of
// geom g's frame relative to the medium, in the geom frame; false (vel untouched) when the geom
// does not use the ellipsoid model.
bool GeomFluidVelocity(const Model& m, const Data& d, int g, double* vel);

}  // namespace gauss
