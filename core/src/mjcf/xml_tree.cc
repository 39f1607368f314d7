// Reading MJCF text with tinyxml2 into an XmlElement tree, splicing <include> files in place.
//
// Include rules (measured against MuJoCo 2.2.2 and the Gauss brief):
//  - <include file="..."/> may appear anywhere; it takes only the `file` attribute and has no
//    children. The included file's root must be <mujoco> (MuJoCo 2.2.2 does not check this; we
//    refuse anything else), and its children replace the <include> element.
//  - The path is relative to the folder of the file that contains the <include>. (MuJoCo 2.2.2
//    resolves every include against the top-level model's folder; both agree whenever the
//    included files sit next to the model, as in all MuJoCo samples.)
//  - Including a file that is being read is a cycle, and including a file twice is refused as
//    MuJoCo 2.2.2 refuses it ("already included").
#include "mjcf/xml_tree.h"

#include "mjcf/xml_syntax.h"

#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gauss::mjcf {
namespace {

namespace fs = std::filesystem;

struct IncludeState {
  std::vector<std::string> reading;   // files whose parsing is in progress (outermost first)
  std::vector<std::string> included;  // every file read so far, by normalized path
};

// The path used to recognize a file (cycles, repeated includes).
std::string NormalizedPath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  if (ec) p = fs::absolute(fs::path(path), ec).lexically_normal();
  return p.string();
}

std::string FolderOf(const std::string& path) {
  return fs::path(path).parent_path().string();
}

// Reads a whole file into `text`; returns false (with a reason) when it cannot be opened.
bool ReadWholeFile(const std::string& path, std::string* text, std::string* reason) {
  std::error_code ec;
  if (!fs::exists(fs::path(path), ec)) {
    *reason = "file not found";
    return false;
  }
  if (fs::is_directory(fs::path(path), ec)) {
    *reason = "is a directory, not a file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *reason = "cannot open the file for reading";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

// The tinyxml2 errors the tag scan cannot explain (bad entities, text outside the root, ...).
std::string XmlErrorInWords(tinyxml2::XMLError id) {
  switch (id) {
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: return "the file has no element (empty or only comments)";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      return "an attribute is not of the form name=\"value\"";
    case tinyxml2::XML_ERROR_PARSING_TEXT:
      return "text that is not valid XML (an unknown &entity; or a stray character)";
    case tinyxml2::XML_ERROR_PARSING_COMMENT: return "a comment that never ends (no '-->')";
    case tinyxml2::XML_ERROR_PARSING_CDATA: return "a CDATA section that never ends";
    case tinyxml2::XML_ERROR_PARSING_DECLARATION: return "a malformed <?xml ...?> declaration";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT: return "a closing tag does not match the open tag";
    default: return "the text is not well-formed XML";
  }
}

// Parses `text` with tinyxml2; throws a located gauss::Error for malformed XML.
// (text) => (doc)
void ParseText(const std::string& text, const std::string& file, tinyxml2::XMLDocument* doc) {
  if (doc->Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    // tinyxml2 names only an error code and the line where it stopped: rescan for the tags
    const XmlSyntaxProblem problem = FindXmlSyntaxProblem(text);
    if (!problem.message.empty()) {
      throw Error(ErrorLocation{file, problem.line, "", ""}, "malformed XML: " + problem.message);
    }
    throw Error(ErrorLocation{file, doc->ErrorLineNum(), "", ""},
                std::string("malformed XML: ") + XmlErrorInWords(doc->ErrorID()));
  }
}

// The root of a parsed document, which must be <mujoco>.
const tinyxml2::XMLElement* MujocoRoot(const tinyxml2::XMLDocument& doc, const std::string& file) {
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root) throw Error(ErrorLocation{file, 0, "", ""}, "the document has no root element");
  if (std::string(root->Name()) != "mujoco") {
    throw Error(ErrorLocation{file, root->GetLineNum(), root->Name(), ""},
                std::string("the root element must be <mujoco>, found <") + root->Name() + ">");
  }
  return root;
}

void AppendChildren(const tinyxml2::XMLElement* parent, const std::string& file,
                    std::vector<XmlElement>* out, IncludeState* state);

// Converts one tinyxml2 element (not an include) and its subtree.
// (src) => (dst)
void Convert(const tinyxml2::XMLElement* src, const std::string& file, XmlElement* dst,
             IncludeState* state) {
  dst->name = src->Name();
  dst->file = file;
  dst->line = src->GetLineNum();
  for (const tinyxml2::XMLAttribute* a = src->FirstAttribute(); a; a = a->Next()) {
    dst->attributes.push_back({a->Name(), a->Value()});
  }
  AppendChildren(src, file, &dst->children, state);
}

// Loads the file named by an <include> element and appends its root's children to `out`.
// (include element, state) => (out, state)
void SpliceInclude(const tinyxml2::XMLElement* inc, const std::string& file,
                   std::vector<XmlElement>* out, IncludeState* state) {
  const int line = inc->GetLineNum();
  const char* name = nullptr;
  for (const tinyxml2::XMLAttribute* a = inc->FirstAttribute(); a; a = a->Next()) {
    if (std::string(a->Name()) != "file") {
      throw Error(ErrorLocation{file, line, "include", a->Name()},
                  "unknown attribute; <include> takes only 'file'");
    }
    name = a->Value();
  }
  if (!name) {
    throw Error(ErrorLocation{file, line, "include", "file"}, "required attribute missing");
  }
  if (std::string(name).empty()) {
    throw Error(ErrorLocation{file, line, "include", "file"}, "the file name is empty");
  }
  if (inc->FirstChildElement()) {
    throw Error(ErrorLocation{file, line, "include", ""}, "<include> cannot have children");
  }

  fs::path target(name);
  if (target.is_relative()) target = fs::path(FolderOf(file)) / target;
  const std::string path = target.lexically_normal().string();
  const std::string key = NormalizedPath(path);
  for (std::size_t i = 0; i < state->reading.size(); ++i) {
    if (state->reading[i] == key) {
      std::string chain;
      for (std::size_t j = i; j < state->reading.size(); ++j) chain += state->reading[j] + " -> ";
      throw Error(ErrorLocation{file, line, "include", "file"}, "include cycle: " + chain + key);
    }
  }
  for (const std::string& done : state->included) {
    if (done == key) {
      throw Error(ErrorLocation{file, line, "include", "file"},
                  "file '" + std::string(name) +
                      "' is already included (a file may be included once)");
    }
  }

  std::string text, reason;
  if (!ReadWholeFile(path, &text, &reason)) {
    throw Error(ErrorLocation{file, line, "include", "file"},
                "cannot read included file '" + path + "': " + reason);
  }
  tinyxml2::XMLDocument doc;
  ParseText(text, path, &doc);
  // Attributes of an included root (e.g. model="...") have nowhere to go; MuJoCo ignores them.
  const tinyxml2::XMLElement* root = MujocoRoot(doc, path);
  state->reading.push_back(key);
  state->included.push_back(key);
  AppendChildren(root, path, out, state);
  state->reading.pop_back();
}

// Converts every child element of `parent`, expanding includes in place.
// (parent) => (out)
void AppendChildren(const tinyxml2::XMLElement* parent, const std::string& file,
                    std::vector<XmlElement>* out, IncludeState* state) {
  for (const tinyxml2::XMLElement* c = parent->FirstChildElement(); c;
       c = c->NextSiblingElement()) {
    if (std::string(c->Name()) == "include") {
      SpliceInclude(c, file, out, state);
    } else {
      out->emplace_back();
      Convert(c, file, &out->back(), state);
    }
  }
}

// (text of the top-level document) => (tree with includes spliced)
XmlElement ReadDocument(const std::string& text, const std::string& file) {
  tinyxml2::XMLDocument doc;
  ParseText(text, file, &doc);
  const tinyxml2::XMLElement* root = MujocoRoot(doc, file);
  IncludeState state;
  const std::string key = NormalizedPath(file);
  state.reading.push_back(key);
  state.included.push_back(key);
  XmlElement out;
  Convert(root, file, &out, &state);
  return out;
}

}  // namespace

// Linear search: elements have few attributes.
const std::string* XmlElement::Find(const std::string& attribute) const {
  for (const XmlAttribute& a : attributes) {
    if (a.name == attribute) return &a.value;
  }
  return nullptr;
}

ErrorLocation XmlElement::Where(const std::string& attribute) const {
  return ErrorLocation{file, line, name, attribute};
}

// (file) => (tree)
XmlElement ReadXmlFile(const std::string& path) {
  std::string text, reason;
  if (!ReadWholeFile(path, &text, &reason)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "cannot read model file: " + reason);
  }
  return ReadDocument(text, path);
}

// (text) => (tree)
XmlElement ReadXmlString(const std::string& xml, const std::string& virtual_path) {
  return ReadDocument(xml, virtual_path);
}

}  // namespace gauss::mjcf
