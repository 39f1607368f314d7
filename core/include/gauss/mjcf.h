// Loading MJCF models: XML parsing (tinyxml2) and compilation into a Model.
//
// Errors (malformed XML, unknown element or attribute, bad value, missing include or asset,
// physically invalid model, features not supported yet) throw gauss::Error naming the file, the
// line, the element and the attribute. Elements that Gauss does not implement yet are refused
// with "not supported yet: <element>"; nothing is silently dropped.
#pragma once

#include <memory>
#include <string>

#include "gauss/model.h"

namespace gauss {

// Parses and compiles the MJCF file at `path` (includes resolved relative to it).
std::shared_ptr<const Model> LoadModel(const std::string& path);

// Same, from XML text; `virtual_path` names it in errors and anchors relative includes.
std::shared_ptr<const Model> LoadModelFromString(const std::string& xml,
                                                 const std::string& virtual_path = "<string>");

}  // namespace gauss
