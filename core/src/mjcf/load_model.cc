// The MJCF entry points: gauss::LoadModel and gauss::LoadModelFromString (read, validate,
// parse, compile), the compile driver (stage order, sizes, statistics) and the name tables.
#include <algorithm>

#include "gauss/data.h"
#include "trees.h"
#include "gauss/mjcf.h"
#include "mjcf/compiler.h"
#include "mjcf/parser.h"
#include "mjcf/schema.h"
#include "mjcf/xml_tree.h"
#include "options_check.h"
#include "lengthrange.h"
#include "set_constants.h"

namespace gauss::mjcf {
namespace {

// compiler discardvisual="true": MuJoCo 2.2.2 removes every geom with contype = conaffinity = 0
// before compiling (measured: they then count for no mass and cannot be referenced).
void DiscardVisualGeoms(BodySpec* b) {
  auto visual = [](const GeomSpec& g) { return g.contype == 0 && g.conaffinity == 0; };
  b->geoms.erase(std::remove_if(b->geoms.begin(), b->geoms.end(), visual), b->geoms.end());
  for (auto& child : b->children) DiscardVisualGeoms(child.get());
}

}  // namespace

// (name, id) => (table); empty names are not entered, repeated ones are errors.
void NameTable::Add(const std::string& name, int id, const Source& src, const std::string& kind) {
  if (name.empty()) return;
  if (!ids_.emplace(name, id).second) {
    throw Error(src.Where("name"), "the name '" + name + "' is already used by another " + kind);
  }
}

int NameTable::Find(const std::string& name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? -1 : it->second;
}

int NameTable::Require(const std::string& name, const Source& src, const std::string& attribute,
                       const std::string& kind) const {
  const int id = Find(name);
  if (id < 0) throw Error(src.Where(attribute), "unknown " + kind + " '" + name + "'");
  return id;
}

// 3.x <size memory>: MuJoCo sizes its arena in bytes; Gauss spends the same budget on fixed
// buffers, half on contacts and half on constraint rows (a row holds its Jacobian, nv
// numbers, and about 16 more), within the documented maxima. Written nconmax is kept.
// (size spec, nv) => (nconmax, njmax)
void SizeFromMemory(const SizeSpec& s, Model* m) {
  const double half = 0.5 * s.memory;
  const double contacts = half / sizeof(Contact);
  const double rows = half / (8.0 * (m->nv + 16));
  if (s.nconmax < 0) m->nconmax = static_cast<int>(std::min<double>(contacts, kMaxContacts));
  m->njmax = static_cast<int>(std::min<double>(rows, kMaxConstraintRows));
}

// (spec) => (every Model field): the stages in order, then SetConstants.
void CompileModel(ModelSpec* spec, Model* m) {
  CompileContext c;
  c.spec = spec;
  c.m = m;
  m->name = spec->name;
  m->source_file = spec->source_file;
  m->opt = spec->option;

  if (spec->compiler.discardvisual) DiscardVisualGeoms(&spec->world);
  if (spec->compiler.fusestatic) {
    // MuJoCo would merge jointless bodies into their parents; refuse when that changes anything
    std::vector<const BodySpec*> stack;
    for (auto& b : spec->world.children) stack.push_back(b.get());
    while (!stack.empty()) {
      const BodySpec* b = stack.back();
      stack.pop_back();
      if (b->joints.empty() && !b->mocap) {
        throw Error(b->src.Where(), "not supported yet: compiler fusestatic=\"true\" on a model "
                                    "with static bodies");
      }
      for (auto& child : b->children) stack.push_back(child.get());
    }
  }
  for (const auto& [name, src] : spec->textures) c.texture_names.Add(name, 0, src, "texture");
  CompileMaterials(&c);

  CompileMeshes(&c);
  CompileHfields(&c);
  CompileTree(&c);
  CompileSkins(&c);
  CompileBodyInertia(&c);
  AlignFreeBodies(&c);
  CompileTendons(&c);
  CompileActuators(&c);
  CompileEqualities(&c);
  CompileContacts(&c);
  CompileSensors(&c);
  CompileKeysAndNumerics(&c);

  // <size>: MuJoCo 2.2.2 uses 100 contacts and 500 constraint rows when not given
  m->nconmax = spec->size.nconmax >= 0 ? spec->size.nconmax : 100;
  m->njmax = spec->size.njmax >= 0 ? spec->size.njmax : 500;
  if (spec->size.memory >= 0) SizeFromMemory(spec->size, m);

  m->body_invweight0.assign(2 * m->nbody, 0);
  m->dof_invweight0.assign(m->nv, 0);
  ResolveTendonSpringLengths(&c);
  CompileTrees(*m);
  SetConstants(*m, spec->mjcf3);  // 3.x files: MuJoCo 3.12's weights of sliding bodies
  ApplyDampRatios(&c);       // 3.x: before actuator_acc0 and the length ranges use biasprm
  SetActuatorConstants(*m);  // actuator_length0, actuator_acc0 (lengthrange.cc)
  ApplySpringDampers(&c);
  // muscle length ranges by simulation (lengthrange.cc); as in MuJoCo 2.2.2, after the
  // spring-dampers and before the <statistic> overrides
  try {
    SetLengthRanges(*m, spec->compiler.lengthrange);
  } catch (const LengthRangeError& e) {
    throw Error(spec->actuators[e.actuator].src.Where(), e.what());
  }
  // <statistic> values replace the computed ones (MuJoCo 2.2.2 behaviour)
  const StatisticSpec& st = spec->statistic;
  if (st.has_meaninertia) m->stat_meaninertia = st.meaninertia;
  if (st.has_meanmass) m->stat_meanmass = st.meanmass;
  if (st.has_extent) m->stat_extent = st.extent;
}

}  // namespace gauss::mjcf

namespace gauss {
namespace {

// (document) => (model)
std::shared_ptr<const Model> Build(const mjcf::XmlElement& root, const std::string& source_file,
                                   const std::string& base_path) {
  mjcf::ValidateSchema(root);
  mjcf::ModelSpec spec;
  spec.source_file = source_file;
  spec.base_path = base_path;
  mjcf::ParseModel(root, &spec);
  auto model = std::make_shared<Model>();
  mjcf::CompileModel(&spec, model.get());
  return model;
}

}  // namespace

// (file) => (model)
std::shared_ptr<const Model> LoadModel(const std::string& path) {
  return Build(mjcf::ReadXmlFile(path), path, path);
}

// (text) => (model)
std::shared_ptr<const Model> LoadModelFromString(const std::string& xml,
                                                 const std::string& virtual_path) {
  return Build(mjcf::ReadXmlString(xml, virtual_path), "", virtual_path);
}

}  // namespace gauss
