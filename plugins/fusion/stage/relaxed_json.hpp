// A small JSON reader for fusion switch files. Besides JSON it accepts bare words as keys and
// values ({switch:{Fusion:true}}, the form the seed documents use), and it remembers where each
// key and value starts so errors can point at them. Only objects and scalars: switch files have
// no arrays.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace asc::fusion {

struct JsonMember;

struct JsonValue {
  bool is_object = false;
  std::string text;                  // a scalar as written (string contents without quotes)
  std::vector<JsonMember> members;   // an object's members, in file order
  int line = 0;
  int column = 0;
};

struct JsonMember {
  std::string key;
  int line = 0;  // where the key starts
  int column = 0;
  JsonValue value;
};

// Throws EE5001 "<origin>:<line>:<column>: <what>" for malformed text.
JsonValue parse_relaxed_json(std::string_view text, const std::string& origin);

}  // namespace asc::fusion
