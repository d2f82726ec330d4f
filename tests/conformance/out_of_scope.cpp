#include "out_of_scope.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace asc::conformance {
namespace {

const std::set<std::string> kValueKinds{"sequence", "map", "optional", "sparse_tensor", "string"};

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

std::set<std::string> words(const std::string& text) {
  std::istringstream stream(text);
  std::set<std::string> result;
  for (std::string word; stream >> word;) result.insert(word);
  return result;
}

bool intersects(const std::set<std::string>& a, const std::set<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& item) { return b.count(item) != 0; });
}

class FamilyReader {
 public:
  explicit FamilyReader(std::filesystem::path file) : file_(std::move(file)) {}

  std::vector<OutOfScopeFamily> read() {
    std::ifstream in(file_);
    if (!in) throw std::runtime_error("cannot read " + file_.string());
    for (std::string raw; std::getline(in, raw);) {
      ++line_;
      const std::string text = trim(raw);
      if (!text.empty() && text.front() == '#') continue;
      if (text.empty()) {
        finish_block();
        continue;
      }
      add_line(text);
    }
    finish_block();
    return std::move(families_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(file_.string() + ":" + std::to_string(line_) + ": " + what);
  }

  void add_line(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) fail("expected 'key: value'");
    const std::string key = trim(text.substr(0, colon));
    const std::string value = trim(text.substr(colon + 1));
    if (!current_) {
      if (key != "family") fail("a block starts with 'family: <name>'");
      current_ = OutOfScopeFamily{};
      current_->name = value;
      return;
    }
    if (key == "reason")
      current_->reason = value;
    else if (key == "ops")
      current_->ops = words(value);
    else if (key == "domains")
      current_->domains = words(value);
    else if (key == "values") {
      current_->value_kinds = words(value);
      for (const std::string& kind : current_->value_kinds)
        if (kValueKinds.count(kind) == 0) fail("unknown value kind '" + kind + "'");
    } else
      fail("unknown key '" + key + "' (family, reason, ops, domains, values)");
  }

  void finish_block() {
    if (!current_) return;
    if (current_->name.empty() || current_->reason.empty())
      fail("family '" + current_->name + "' needs a name and a reason");
    if (current_->ops.empty() && current_->domains.empty() && current_->value_kinds.empty())
      fail("family '" + current_->name + "' matches nothing: give ops, domains or values");
    families_.push_back(std::move(*current_));
    current_.reset();
  }

  std::filesystem::path file_;
  int line_ = 0;
  std::optional<OutOfScopeFamily> current_;
  std::vector<OutOfScopeFamily> families_;
};

}  // namespace

std::vector<OutOfScopeFamily> load_out_of_scope(const std::filesystem::path& file) {
  return FamilyReader(file).read();
}

const OutOfScopeFamily* find_out_of_scope_family(const std::vector<OutOfScopeFamily>& families,
                                                 const ModelFacts& facts) {
  for (const OutOfScopeFamily& family : families)
    if (intersects(family.ops, facts.op_types) || intersects(family.domains, facts.domains) ||
        intersects(family.value_kinds, facts.value_kinds))
      return &family;
  return nullptr;
}

}  // namespace asc::conformance
