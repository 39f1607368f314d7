// The MJCF document as a plain tree of elements, with every <include> already spliced in.
//
// tinyxml2 is used only to read text; the rest of the compiler works on this tree, where every
// element remembers the file and line it came from, so that errors raised long after parsing
// (e.g. "unknown joint" while compiling an actuator) still point at the right place, also
// inside included files.
#pragma once

#include <string>
#include <vector>

#include "gauss/error.h"

namespace gauss::mjcf {

struct XmlAttribute {
  std::string name;
  std::string value;
};

struct XmlElement {
  std::string name;
  std::string file;  // file the element was read from (the included file for included ones)
  int line = 0;      // 1-based line in `file`
  std::vector<XmlAttribute> attributes;  // in document order
  std::vector<XmlElement> children;      // in document order

  // The attribute's value, or null when the attribute is absent.
  const std::string* Find(const std::string& attribute) const;
  // Location of this element (and optionally one of its attributes) for error messages.
  ErrorLocation Where(const std::string& attribute = "") const;
};

// Reads the MJCF file at `path` and resolves includes relative to the including file's folder.
// Throws gauss::Error for unreadable files, malformed XML, a root that is not <mujoco>, bad or
// missing include files and include cycles.
XmlElement ReadXmlFile(const std::string& path);

// Same, from XML text; `virtual_path` names the text in errors and anchors relative includes.
XmlElement ReadXmlString(const std::string& xml, const std::string& virtual_path);

}  // namespace gauss::mjcf
