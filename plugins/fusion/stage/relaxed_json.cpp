#include "stage/relaxed_json.hpp"

#include <cctype>

#include <asc/sdk/error.hpp>

namespace asc::fusion {
namespace {

class Reader {
 public:
  Reader(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

  JsonValue document() {
    skip_space();
    JsonValue value = parse_value();
    skip_space();
    if (pos_ < text_.size()) fail("unexpected text after the top-level value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::ConfigSyntax,
                origin_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) + ": " + what);
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) advance();
  }

  void expect(char c, const char* what) {
    skip_space();
    if (peek() != c) fail(std::string("expected ") + what);
    advance();
  }

  static bool is_word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
  }

  std::string parse_string() {
    advance();  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size() || peek() == '\n') fail("unterminated string");
      const char c = peek();
      advance();
      if (c == '"') return out;
      if (c == '\\') {
        if (pos_ >= text_.size()) fail("unterminated string");
        const char escaped = peek();
        advance();
        switch (escaped) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case '"': case '\\': case '/': out += escaped; break;
          default: fail(std::string("unsupported escape \\") + escaped);
        }
      } else {
        out += c;
      }
    }
  }

  std::string parse_word() {
    std::string out;
    while (pos_ < text_.size() && is_word_char(peek())) {
      out += peek();
      advance();
    }
    if (out.empty()) fail(peek() == '\0' ? "unexpected end of file" : std::string("unexpected character '") + peek() + "'");
    return out;
  }

  std::string parse_key() {
    skip_space();
    return peek() == '"' ? parse_string() : parse_word();
  }

  JsonValue parse_value() {
    skip_space();
    JsonValue value;
    value.line = line_;
    value.column = column_;
    if (peek() == '{') {
      value.is_object = true;
      advance();
      skip_space();
      if (peek() == '}') {
        advance();
        return value;
      }
      while (true) {
        skip_space();
        JsonMember member;
        member.line = line_;
        member.column = column_;
        member.key = parse_key();
        expect(':', "':' after a key");
        member.value = parse_value();
        value.members.push_back(std::move(member));
        skip_space();
        if (peek() == ',') {
          advance();
          continue;
        }
        if (peek() == '}') {
          advance();
          return value;
        }
        fail("expected ',' or '}'");
      }
    }
    if (peek() == '[') fail("arrays are not allowed in a fusion switch file");
    value.text = peek() == '"' ? parse_string() : parse_word();
    return value;
  }

  std::string_view text_;
  const std::string& origin_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace

JsonValue parse_relaxed_json(std::string_view text, const std::string& origin) { return Reader(text, origin).document(); }

}  // namespace asc::fusion
