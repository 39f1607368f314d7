// Signed distances between geoms, as MuJoCo 3.x's mj_geomDistance measures them, and the 3.x
// collision sensors that read them: distance, normal and fromto (geom_distance.cc).
//
// A distance is what the Engine's own narrow phase reports when it runs with the margin set to
// the largest distance of interest (the sensor's cutoff): the smallest contact distance, its
// contact point and normal giving the two witness points. That is exact for the pairs whose
// collider is analytic in both MuJoCo 3.12 and Gauss; the others are refused when the model is
// compiled (GeomDistanceRefusal), see docs/sensors.md.
#pragma once

#include "collision.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/registry.h"
#include "gauss/sensor.h"
#include "internal.h"

namespace gauss {

// The plugin name (Model::sensor_plugin) of the collision sensors: not a library, the kernel's
// GeomDistanceSensors, which the Engine gives its collision table.
inline constexpr const char* kGeomDistanceSensorPlugin = "geomdistance";

// Why a distance between geoms of types t1 and t2 (either order) is not measured, or null when
// it is: the pairs MuJoCo 3.12 measures with an analytic collider that Gauss has as well
// (plane against sphere, capsule, ellipsoid, cylinder, box and mesh; sphere against sphere,
// capsule and box; capsule against capsule and box) and the pairs neither ever collides
// (plane-plane, plane-hfield, hfield-hfield: always the cutoff) are measured.
const char* GeomDistanceRefusal(GeomType t1, GeomType t2);

// (geom_xpos, geom_xmat, the colliders of `table`) => the smallest signed distance between
// geoms g1 and g2 (negative: penetration), distmax when none is below distmax; fromto = the
// witness point on g1 then the one on g2, zeros when none is below distmax. The distance is the
// smallest of the contacts the pair's collider reports with margin distmax (the first of equal
// ones); the points lie half of it before and after that contact's point along its normal.
// `scratch` holds kMaxContactsPerPair contacts for the collider to write.
double GeomDistance(const Model& m, Data& d, const CollisionTable& table, int g1, int g2,
                    double distmax, double fromto[6], Contact* scratch);

// The "geomdistance" Sensor: distance (1 value), normal (3) and fromto (6) sensors, position
// stage. Object and reference are each a geom or a body (all the body's own geoms); the values
// are those of the closest geom pair below the cutoff: the distance (the cutoff when none is
// closer), the unit vector from the first witness point to the second (zero when they coincide
// or none is closer; it points from side 2 to side 1 when the geoms penetrate), the two points.
class GAUSS_INTERNAL GeomDistanceSensors : public Sensor {
 public:
  explicit GeomDistanceSensors(const CollisionTable& table) : table_(table) {}
  // throws for a sensor type it does not know, a refused geom pair, or a geom pair that no
  // collider of the table handles
  void Check(const Model& m, const int* ids, int n) const override;

 protected:
  void DoEvaluate(const Model& m, Data& d, Stage stage, const int* ids, int n) const override;

 private:
  const CollisionTable& table_;
};

// A GeomDistanceSensors instance dressed as a loaded plugin (no library), measuring with the
// colliders of `table` (which must outlive it).
GAUSS_INTERNAL PluginInstance<Sensor> MakeGeomDistanceSensors(const CollisionTable& table);

}  // namespace gauss
