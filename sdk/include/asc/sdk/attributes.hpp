// Node attributes: the ONNX attribute kinds, including tensor and subgraph attributes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "asc/sdk/tensor.hpp"

namespace asc {

class Graph;

using AttributeValue = std::variant<std::int64_t, float, std::string, Tensor, std::shared_ptr<Graph>,
                                    std::vector<std::int64_t>, std::vector<float>, std::vector<std::string>,
                                    std::vector<Tensor>, std::vector<std::shared_ptr<Graph>>>;

// Named attributes with typed getters. Getters with a default return it when the attribute is
// absent; require_* throw EE2003 naming the attribute (and the node, via `owner`) when absent
// or of another kind.
class Attributes {
 public:
  void set(const std::string& name, AttributeValue value) { values_[name] = std::move(value); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  void erase(const std::string& name) { values_.erase(name); }
  const std::map<std::string, AttributeValue>& all() const noexcept { return values_; }
  // Used in error messages, e.g. "node 'conv1' (Conv)".
  void set_owner(std::string owner) { owner_ = std::move(owner); }

  std::int64_t get_int(const std::string& name, std::int64_t fallback) const;
  float get_float(const std::string& name, float fallback) const;
  std::string get_string(const std::string& name, const std::string& fallback) const;
  std::vector<std::int64_t> get_ints(const std::string& name, std::vector<std::int64_t> fallback = {}) const;
  std::vector<float> get_floats(const std::string& name, std::vector<float> fallback = {}) const;
  std::vector<std::string> get_strings(const std::string& name, std::vector<std::string> fallback = {}) const;

  std::int64_t require_int(const std::string& name) const;
  float require_float(const std::string& name) const;
  const std::string& require_string(const std::string& name) const;
  const std::vector<std::int64_t>& require_ints(const std::string& name) const;
  const Tensor& require_tensor(const std::string& name) const;
  const std::shared_ptr<Graph>& require_graph(const std::string& name) const;

  bool operator==(const Attributes& other) const;  // deep comparison (tensor values included)

 private:
  template <class T> const T* find(const std::string& name) const;
  template <class T> const T& require(const std::string& name, const char* kind) const;
  std::map<std::string, AttributeValue> values_;
  std::string owner_;
};

}  // namespace asc
