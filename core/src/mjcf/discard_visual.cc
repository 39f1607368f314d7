// compiler discardvisual="true": geoms with contype = conaffinity = 0 are removed before the
// model is compiled. The two versions differ (measured):
//  - MuJoCo 2.2.2 removes every such geom first: it counts for no mass, and naming it anywhere
//    (a pair, a tendon, a sensor) is an error.
//  - MuJoCo 3.12.1 keeps those that an element names (pair, tendon wrap, sensor, custom
//    tuple) and removes the others after the bodies' mass properties are computed: each body
//    keeps the mass, center of mass and inertia it has with all its geoms (equal, to the last
//    digit, to the same model compiled with discardvisual="false").
// Gauss follows the file's version (UsesMjcf3); a file that names a geom it discards cannot
// load in 2.2.2, so it is read with 3.12's rule too. For 3.12's rule the bodies' mass
// properties are computed on the whole model first (the stages up to CompileBodyInertia) and
// written into the bodies that lose a geom as an explicit <inertial>.
#include <algorithm>
#include <set>

#include "mjcf/compiler.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

bool Visual(const GeomSpec& g) { return g.contype == 0 && g.conaffinity == 0; }

// Names of the geoms that elements of the model refer to.
std::set<std::string> NamedGeoms(const ModelSpec& spec) {
  std::set<std::string> names(spec.tuple_geoms.begin(), spec.tuple_geoms.end());
  for (const PairSpec& p : spec.pairs) {
    names.insert(p.geom1);
    names.insert(p.geom2);
  }
  for (const TendonSpec& t : spec.tendons) {
    for (const WrapSpec& w : t.path) {
      if (w.type == WrapType::kSphere || w.type == WrapType::kCylinder) names.insert(w.name);
    }
  }
  for (const SensorSpec& s : spec.sensors) {
    if (s.objtype == "geom") names.insert(s.objname);
    if (s.reftype == "geom") names.insert(s.refname);
  }
  return names;
}

bool Discarded(const GeomSpec& g, const std::set<std::string>& named) {
  return Visual(g) && (g.name.empty() || !named.count(g.name));
}

// Does a visual geom below `b` carry a name that `named` holds?
bool NamesAVisualGeom(const BodySpec& b, const std::set<std::string>& named) {
  for (const GeomSpec& g : b.geoms) {
    if (Visual(g) && !g.name.empty() && named.count(g.name)) return true;
  }
  for (const auto& c : b.children) {
    if (NamesAVisualGeom(*c, named)) return true;
  }
  return false;
}

// The bodies in compile order (preorder, world first).
void Preorder(BodySpec* b, std::vector<BodySpec*>* out) {
  out->push_back(b);
  for (auto& c : b->children) Preorder(c.get(), out);
}

// (spec) => (m: body mass properties of the whole model, nothing discarded)
void MassProperties(ModelSpec* spec, Model* m) {
  CompileContext c;
  c.spec = spec;
  c.m = m;
  for (const auto& [name, src] : spec->textures) c.texture_names.Add(name, 0, src, "texture");
  CompileMaterials(&c);
  CompileMeshes(&c);
  CompileHfields(&c);
  CompileTree(&c);
  CompileBodyInertia(&c);
}

}  // namespace

void DiscardVisualGeoms(ModelSpec* spec) {
  const std::set<std::string> named = NamedGeoms(*spec);
  const bool v3 = spec->mjcf3 || NamesAVisualGeom(spec->world, named);
  std::vector<BodySpec*> bodies;
  Preorder(&spec->world, &bodies);
  if (!v3 || spec->compiler.global) {  // 2.2.2 (3.x has no coordinate="global")
    for (BodySpec* b : bodies) {
      b->geoms.erase(std::remove_if(b->geoms.begin(), b->geoms.end(), Visual), b->geoms.end());
    }
    return;
  }
  // 3.12: the bodies that lose a geom whose mass counts keep the mass they have with it
  auto loses_mass = [&](const BodySpec& b) {
    const bool from_geoms = spec->compiler.inertiafromgeom == 1 ||
                            (spec->compiler.inertiafromgeom == 2 && !b.has_inertial);
    return from_geoms && std::any_of(b.geoms.begin(), b.geoms.end(), [&](const GeomSpec& g) {
             return Discarded(g, named);
           });
  };
  if (std::any_of(bodies.begin() + 1, bodies.end(), [&](BodySpec* b) { return loses_mass(*b); })) {
    if (spec->compiler.inertiafromgeom == 1) {
      throw Error(spec->world.src.Where(),
                  "not supported yet: compiler discardvisual=\"true\" with inertiafromgeom="
                  "\"true\" on bodies holding visual geoms (MuJoCo 3.x keeps their mass)");
    }
    Model full;
    MassProperties(spec, &full);
    for (std::size_t b = 1; b < bodies.size(); ++b) {
      if (!loses_mass(*bodies[b])) continue;
      InertialSpec& in = bodies[b]->inertial;
      in = InertialSpec{};
      in.src = bodies[b]->src;
      in.mass = full.body_mass[b];
      std::copy_n(&full.body_ipos[3 * b], 3, in.pos);
      std::copy_n(&full.body_iquat[4 * b], 4, in.orient.quat);
      std::copy_n(&full.body_inertia[3 * b], 3, in.diaginertia);
      in.has_diag = true;
      bodies[b]->has_inertial = true;
    }
  }
  for (BodySpec* b : bodies) {
    b->geoms.erase(std::remove_if(b->geoms.begin(), b->geoms.end(),
                                  [&](const GeomSpec& g) { return Discarded(g, named); }),
                   b->geoms.end());
  }
}

}  // namespace gauss::mjcf
