// Structural validation of an MJCF document: which elements may appear where, how often, and
// which attributes each one accepts. The rules are those of MuJoCo 2.2.2's MJCF format, so a
// file that MuJoCo refuses for an unknown element or attribute is refused here too, with the
// file, line, element and attribute named.
#pragma once

#include <string>
#include <vector>

#include "mjcf/xml_tree.h"

namespace gauss::mjcf {

// Checks the whole tree rooted at <mujoco>. (root) => () ; throws gauss::Error on the first
// unknown element, misplaced element, repeated unique element or unknown attribute.
void ValidateSchema(const XmlElement& root);

// One attribute the schema accepts: the element's path from the root ("mujoco/option"),
// the attribute, and whether the element is refused as a whole by the parser (opaque).
struct SchemaAttribute {
  std::string element_path;
  std::string attribute;
  bool refused_element = false;
};

// Every attribute of every element of the schema, in schema order (for the audit test that
// checks each one is used, refused or documented as ignored).
std::vector<SchemaAttribute> SchemaAttributes();

}  // namespace gauss::mjcf
