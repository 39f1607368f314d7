// The tag scan of xml_syntax.h: a stack of open tags, one pass over the text.
#include "mjcf/xml_syntax.h"

#include <cctype>
#include <vector>

namespace gauss::mjcf {
namespace {

struct OpenTag {
  std::string name;
  int line;
};

// Reads text one character at a time, counting lines.
class Cursor {
 public:
  explicit Cursor(const std::string& text) : text_(text) {}
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  bool StartsWith(const char* prefix) const { return text_.compare(pos_, std::char_traits<char>::length(prefix), prefix) == 0; }
  void Advance(std::size_t n = 1) {
    for (std::size_t i = 0; i < n && pos_ < text_.size(); ++i) {
      if (text_[pos_++] == '\n') ++line_;
    }
  }
  // Moves past the next occurrence of `end`; false when the text ends first.
  bool SkipPast(const char* end) {
    while (!AtEnd()) {
      if (StartsWith(end)) {
        Advance(std::char_traits<char>::length(end));
        return true;
      }
      Advance();
    }
    return false;
  }
  std::string Name() {
    std::string name;
    while (!AtEnd()) {
      const char c = Peek();
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.')) break;
      name += c;
      Advance();
    }
    return name;
  }
  int line() const { return line_; }

 private:
  const std::string& text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

XmlSyntaxProblem FindXmlSyntaxProblem(const std::string& text) {
  std::vector<OpenTag> open;
  Cursor c(text);
  while (!c.AtEnd()) {
    if (c.Peek() != '<') {
      c.Advance();
      continue;
    }
    const int line = c.line();
    struct Skip {
      const char* start;
      const char* end;
      const char* what;
    };
    bool skipped = false;
    for (const Skip& s : {Skip{"<!--", "-->", "comment"}, Skip{"<![CDATA[", "]]>", "CDATA section"},
                          Skip{"<?", "?>", "processing instruction"}, Skip{"<!", ">", "declaration"}}) {
      if (!c.StartsWith(s.start)) continue;
      if (!c.SkipPast(s.end)) {
        return {std::string("the ") + s.what + " opened at line " + std::to_string(line) +
                    " never ends (no '" + s.end + "')",
                line};
      }
      skipped = true;
      break;
    }
    if (skipped) continue;
    c.Advance();  // '<'
    const bool closing = !c.AtEnd() && c.Peek() == '/';
    if (closing) c.Advance();
    const std::string name = c.Name();
    if (name.empty()) return {"a '<' that does not start a tag (write &lt; for a literal '<')", line};
    // attributes up to '>' or '/>', skipping quoted values
    bool self_closing = false, ended = false;
    while (!c.AtEnd()) {
      const char ch = c.Peek();
      if (ch == '"' || ch == '\'') {
        const int quote_line = c.line();
        c.Advance();
        const char end[2] = {ch, '\0'};
        if (!c.SkipPast(end)) {
          return {"the quoted value opened at line " + std::to_string(quote_line) + " in <" + name +
                      "> never ends",
                  quote_line};
        }
        continue;
      }
      if (ch == '<') {
        return {"the tag <" + std::string(closing ? "/" : "") + name + "> opened at line " +
                    std::to_string(line) + " is not ended with '>' or '/>' before the next tag (line " +
                    std::to_string(c.line()) + ")",
                line};
      }
      c.Advance();
      if (ch == '>') {
        ended = true;
        break;
      }
      if (ch == '/' && !c.AtEnd() && c.Peek() == '>') {
        c.Advance();
        self_closing = ended = true;
        break;
      }
    }
    if (!ended) {
      return {"the tag <" + name + "> opened at line " + std::to_string(line) +
                  " is not ended with '>' or '/>' before the end of the file",
              line};
    }
    if (closing) {
      if (open.empty()) {
        return {"stray closing tag </" + name + "> at line " + std::to_string(line) +
                    ": no element is open there",
                line};
      }
      bool is_open = false;
      for (const OpenTag& t : open) is_open = is_open || t.name == name;
      if (!is_open) {
        return {"stray closing tag </" + name + "> at line " + std::to_string(line) + ": no <" +
                    name + "> is open there (the innermost open tag is <" + open.back().name +
                    "> of line " + std::to_string(open.back().line) + ")",
                line};
      }
      if (open.back().name != name) {
        return {"the closing tag </" + name + "> at line " + std::to_string(line) +
                    " does not match the open tag <" + open.back().name + "> of line " +
                    std::to_string(open.back().line),
                line};
      }
      open.pop_back();
    } else if (!self_closing) {
      open.push_back({name, line});
    }
  }
  if (!open.empty()) {
    return {"the tag <" + open.back().name + "> opened at line " + std::to_string(open.back().line) +
                " is never closed (no </" + open.back().name + ">)",
            open.back().line};
  }
  return {};
}

}  // namespace gauss::mjcf
