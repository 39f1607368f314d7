// Malformed XML explained in words: which tag is open where, which closing tag is stray, which
// tag never ends. tinyxml2 reports only an error code and the line where it gave up, so the
// text is scanned again here, after tinyxml2 refused it, to find the tags involved.
#pragma once

#include <string>

namespace gauss::mjcf {

// A description of the first structural XML problem of `text`, e.g. "the closing tag </body>
// (line 9) does not match the open tag <geom> (line 5)", and the line to report it at.
struct XmlSyntaxProblem {
  std::string message;  // "" when the scan finds no tag-level problem
  int line = 0;
};

// (XML text) => the first unterminated tag, stray or mismatched closing tag, or tag left open
// at the end of the text. Comments, processing instructions, CDATA and quoted attribute values
// are skipped.
XmlSyntaxProblem FindXmlSyntaxProblem(const std::string& text);

}  // namespace gauss::mjcf
