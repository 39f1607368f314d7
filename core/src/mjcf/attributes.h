// Typed reading of XML attribute values with located errors.
//
// Every reader leaves its output untouched when the attribute is absent and returns false, so
// that a value inherited from a default class survives. Number lists follow MuJoCo's rules:
// "exact" attributes (pos, quat, rgba, range, ...) need exactly n values; the others (size,
// friction, solref, solimp, gear, *prm) accept 1..n values and overwrite only that prefix.
#pragma once

#include <string>
#include <vector>

#include "mjcf/xml_tree.h"

namespace gauss::mjcf {

// Reads n numbers (exact) or 1..n numbers (exact = false) into out[0..count). Returns the
// number of values read, 0 if the attribute is absent.
int ReadNumbers(const XmlElement& e, const std::string& attr, double* out, int n,
                bool exact = true);
// A single number.
bool ReadNumber(const XmlElement& e, const std::string& attr, double* out);
// Any number (>= 1) of numbers; empty vector if absent.
bool ReadNumberList(const XmlElement& e, const std::string& attr, std::vector<double>* out);
// Integers, with the same exact / prefix rule as ReadNumbers.
int ReadInts(const XmlElement& e, const std::string& attr, int* out, int n, bool exact = true);
bool ReadInt(const XmlElement& e, const std::string& attr, int* out);
// "true" / "false".
bool ReadBool(const XmlElement& e, const std::string& attr, bool* out);
// One of `keywords` (case-sensitive, as in MuJoCo); *out is the index of the match.
bool ReadKeyword(const XmlElement& e, const std::string& attr,
                 const std::vector<std::string>& keywords, int* out);
// "false" / "true" / "auto" -> 0 / 1 / 2, the tri-state of limited, ctrllimited, ...
bool ReadLimited(const XmlElement& e, const std::string& attr, int* out);
// A string value (any text).
bool ReadString(const XmlElement& e, const std::string& attr, std::string* out);
// The value of a required attribute; throws "required attribute missing" when absent.
const std::string& RequireAttribute(const XmlElement& e, const std::string& attr);

// Throws "not supported yet: <what>" located at the element (and attribute, if given).
[[noreturn]] void NotSupported(const XmlElement& e, const std::string& what,
                               const std::string& attr = "");

}  // namespace gauss::mjcf
