// The MJCF parser: from the validated XmlElement tree to a ModelSpec, applying default classes.
//
// Sections are read in a fixed order whatever their order in the file, as MuJoCo 2.2.2 does
// (measured): compiler, option, size, default, custom, visual, statistic, asset, worldbody,
// contact, equality, tendon, actuator, sensor, keyframe. So a <default> or <compiler> written
// after <worldbody> still applies to it.
#pragma once

#include "mjcf/spec.h"
#include "mjcf/xml_tree.h"

namespace gauss::mjcf {

// Builds the ModelSpec of a whole document (root = <mujoco>). (root) => (spec)
void ParseModel(const XmlElement& root, ModelSpec* spec);

// ---------------------------------------------------------------- shared by the parser files
// Attributes that both a default class and an element may set. Each overwrites only what the
// element writes, so inherited values survive. (element, template) => (template)
void ReadJointAttributes(const XmlElement& e, JointSpec* j);
void ReadGeomAttributes(const XmlElement& e, GeomSpec* g);
void ReadSiteAttributes(const XmlElement& e, SiteSpec* s);
void ReadCameraAttributes(const XmlElement& e, CameraSpec* s);
// Also applies the shortcut's implied settings (motor, position, velocity, ...) by e.name.
void ReadActuatorAttributes(const XmlElement& e, ActuatorSpec* a);
void ReadTendonAttributes(const XmlElement& e, TendonSpec* t);
void ReadEqualityAttributes(const XmlElement& e, EqualitySpec* q);
void ReadPairAttributes(const XmlElement& e, PairSpec* p);
// 3.x <mesh inertia> (element or default) => MeshSpec::inertia index
bool ReadMeshInertia(const XmlElement& e, int* out);

// ---------------------------------------------------------------- MuJoCo 3.x (parse_mjcf3.cc)
// Does the document use anything only MuJoCo 3.x has? Then MuJoCo 3.x's defaults apply where
// they differ from 2.2.2's (mesh inertia, constraint islands; docs/mjcf.md, "MuJoCo 3.x").
bool UsesMjcf3(const XmlElement& root);
// (options) => (options): MuJoCo 3.x's option defaults where they differ from 2.2.2's, for a
// file that UsesMjcf3; applied before the file's own <option> and <flag> are read.
void ApplyMjcf3Defaults(Options* o);
// <replicate> (replicate.cc): when the document has one, `out` = the document with every
// replicate turned into posed <frame> copies with suffixed names and the elements referring
// into them replicated; false (out untouched) otherwise. Angles follow `compiler`.
bool ExpandReplicates(const XmlElement& root, const CompilerSpec& compiler, XmlElement* out);
// <attach> and <model> assets (attach.cc): when the document has them, `out` = the document
// with every attached model's subtree grafted in (prefixed names, its classes as a second root
// class tree marked kAttachedDefault, its referencing elements appended); false otherwise.
bool ExpandAttachments(const XmlElement& root, XmlElement* out);
// Internal attribute of a <default> made by ExpandAttachments: a root class tree of its own,
// starting from the built-in defaults (never written in a file: added after schema checks).
inline constexpr char kAttachedDefault[] = "gauss:attached";
// Keyframes of attached models (attach_keys.cc). Internal attributes, added after schema
// checks: kAttachedKeyId on a <key> made by an attachment ("ID"), kAttachedKeyValue on a
// joint, actuator or mocap body of the attached model ("ID FIELD v1 v2 ...", one attribute per
// key and field).
inline constexpr char kAttachedKeyId[] = "gauss:keyid";
inline constexpr char kAttachedKeyValue[] = "gauss:keyvalue";
// The keys an attachment brings: when `child` (expanded) has keyframes, compiles it, writes
// each key's values onto its joints, actuators and mocap bodies (kAttachedKeyValue, replacing
// those of the child's own attachments) and returns the <key> elements to append to the
// parent: named prefix + name, ids from *next_id on. (child, prefix) => (child, keys)
std::vector<XmlElement> TakeAttachedKeys(XmlElement* child, const std::string& prefix,
                                         const XmlElement& attach, int* next_id);
// <compiler conflict> of `parent` (attach_conflict.cc): merge or refuse the attached model's
// <option>, <flag> and <size> settings; warning keeps the parent's. (parent, child) => (parent
// <option>, <size>), or an error located at the <attach>.
void ResolveAttachConflicts(XmlElement* parent, const XmlElement& child, const XmlElement& attach);
// (element) => (its kAttachedKeyValue attributes, parsed)
std::vector<AttachedKeyValue> ReadAttachedKeyValues(const XmlElement& e);
void ReadOption3x(const XmlElement& e, Options* o);
void ReadFlags3x(const XmlElement& flag, Options* o);
void ReadMemorySize(const XmlElement& e, SizeSpec* s);
// <mesh builtin params> (builtin_mesh.cc): (element) => (mesh.vertex)
void ReadBuiltinMesh(const XmlElement& e, MeshSpec* mesh);
// Refuse 3.x attributes whose semantics Gauss lacks, once the element has its class values.
void CheckActuator3x(const XmlElement& e, const ActuatorSpec& a);

// Reads a top-level <default> section and its nested classes. (section) => (spec.defaults)
void ReadDefaultSection(const XmlElement& section, ModelSpec* spec);
// The class an element uses: its own class attribute if written (which must name a defined
// class), else `inherited` (the enclosing childclass, or 0 = main). (element) => (class index)
int ElementClass(const XmlElement& e, const ModelSpec& spec, int inherited);
// Index of a class by name, -1 if undefined.
int FindClass(const ModelSpec& spec, const std::string& name);

// The body tree below <worldbody>. (section) => (spec.world)
void ReadWorldbody(const XmlElement& section, ModelSpec* spec);
// The sections that refer to the body tree by name.
void ReadContact(const XmlElement& section, ModelSpec* spec);
void ReadEquality(const XmlElement& section, ModelSpec* spec);
void ReadTendons(const XmlElement& section, ModelSpec* spec);
void ReadActuators(const XmlElement& section, ModelSpec* spec);
void ReadSensors(const XmlElement& section, ModelSpec* spec);

// ---------------------------------------------------------------- plugins (parse_plugins.cc)
// <extension> (3.x): (section) => (spec.plugin_instances)
void ReadExtension(const XmlElement& section, ModelSpec* spec);
// <sensor><plugin>: (element) => (s.plugin or s.instance, s.config, objtype/objname, reftype/
// refname, user_dim, user_stage, user_datatype)
void ReadSensorPlugin(const XmlElement& e, SensorSpec* s);
// needstage (default acc) and datatype (default real) of a user or plugin sensor
void ReadSensorOutput(const XmlElement& e, Stage* stage, SensorDataType* datatype);

// The location record of an element, for errors raised during compilation.
Source SourceOf(const XmlElement& e);

}  // namespace gauss::mjcf
