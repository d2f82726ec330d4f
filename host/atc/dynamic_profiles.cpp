#include "dynamic_profiles.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "asc/host/close_names.hpp"
#include "asc/sdk/error.hpp"
#include "asc/sdk/parser.hpp"

namespace asc::atc {
namespace {

using Dims = std::vector<std::int64_t>;

struct NamedShape {
  std::string name;
  Dims dims;
};

[[noreturn]] void bad_shape(const std::string& message) { throw Error(ErrorCode::InputShapeInvalid, message); }

std::string trim_profile_text(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

// Non-empty items of `text` split at `separator`, trimmed.
std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    if (auto item = trim_profile_text(text.substr(start, end - start)); !item.empty())
      items.push_back(std::move(item));
    start = end + 1;
  }
  return items;
}

std::string join_dims(const Dims& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i == 0 ? "" : ",") + std::to_string(dims[i]);
  return text;
}

// "1,3,224,224" with every value > 0; `what` names the flag and entry in messages.
Dims positive_dims(std::string_view text, const std::string& what) {
  Dims dims;
  for (const std::string& item : split(text, ',')) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (error != std::errc{} || end != item.data() + item.size() || value <= 0)
      bad_shape(what + ": '" + item + "' is not a dimension size (an integer > 0)");
    dims.push_back(value);
  }
  if (dims.empty()) bad_shape(what + " gives no dimension");
  return dims;
}

// --input_shape in the order written (parse_input_shape_spec checks the syntax, EE1009).
std::vector<NamedShape> ordered_input_shape(const std::string& text) {
  const auto shapes = parse_input_shape_spec(text);
  std::vector<NamedShape> ordered;
  for (const std::string& entry : split(text, ';')) {
    const std::string name = trim_profile_text(entry.substr(0, entry.rfind(':')));
    ordered.push_back({name, shapes.at(name)});
  }
  return ordered;
}

std::string format_input_shape(const std::vector<NamedShape>& shapes) {
  std::string text;
  for (const auto& shape : shapes) text += (text.empty() ? "" : ";") + shape.name + ":" + join_dims(shape.dims);
  return text;
}

std::vector<Dims> dims_profiles(const std::string& text, const std::string& flag) {
  std::vector<Dims> profiles;
  for (const std::string& profile : split(text, ';'))
    profiles.push_back(positive_dims(profile, "--" + flag + " profile '" + profile + "'"));
  if (profiles.empty()) bad_shape("--" + flag + " '" + text + "' lists no profile");
  return profiles;
}

struct Resolved {
  std::string input_shape, dynamic_dims;
};

// Whole-shape profiles (every input's dims, concatenated in --input_shape order) against `base`:
// a dim is dynamic where base has -1 or any profile differs from base.
Resolved from_whole_shapes(std::vector<NamedShape> base, const std::vector<Dims>& profiles, const std::string& flag) {
  Dims flat;
  for (const auto& shape : base) flat.insert(flat.end(), shape.dims.begin(), shape.dims.end());
  std::vector<bool> dynamic(flat.size(), false);
  for (std::size_t i = 0; i < flat.size(); ++i) dynamic[i] = flat[i] == -1;
  for (const Dims& profile : profiles) {
    if (profile.size() != flat.size())
      bad_shape("--" + flag + " profile '" + join_dims(profile) + "' has " + std::to_string(profile.size()) +
                " dims; --input_shape '" + format_input_shape(base) + "' has " + std::to_string(flat.size()));
    for (std::size_t i = 0; i < flat.size(); ++i) dynamic[i] = dynamic[i] || profile[i] != flat[i];
  }
  if (std::find(dynamic.begin(), dynamic.end(), true) == dynamic.end())
    bad_shape("every --" + flag + " profile equals --input_shape '" + format_input_shape(base) +
              "': no dimension is dynamic");
  std::size_t position = 0;
  for (auto& shape : base)
    for (auto& dim : shape.dims) dim = dynamic[position++] ? -1 : dim;
  Resolved resolved{format_input_shape(base), ""};
  for (const Dims& profile : profiles) {
    Dims values;
    for (std::size_t i = 0; i < profile.size(); ++i)
      if (dynamic[i]) values.push_back(profile[i]);
    resolved.dynamic_dims += (resolved.dynamic_dims.empty() ? "" : ";") + join_dims(values);
  }
  return resolved;
}

Resolved from_dynamic_dims(const std::string& input_shape, const std::string& text) {
  if (input_shape.empty())
    throw Error(ErrorCode::UsageError, "--dynamic_dims needs --input_shape (with -1 for the dynamic dims)");
  const auto base = ordered_input_shape(input_shape);
  const auto profiles = dims_profiles(text, "dynamic_dims");
  std::size_t dynamic = 0;
  for (const auto& shape : base)
    dynamic += static_cast<std::size_t>(std::count(shape.dims.begin(), shape.dims.end(), -1));
  if (dynamic == 0) return from_whole_shapes(base, profiles, "dynamic_dims");
  for (const Dims& profile : profiles)
    if (profile.size() != dynamic)
      bad_shape("--dynamic_dims profile '" + join_dims(profile) + "' gives " + std::to_string(profile.size()) +
                " values; --input_shape '" + input_shape + "' has " + std::to_string(dynamic) + " dynamic (-1) dims");
  return {input_shape, text};
}

// "images:[1,3,320,320];[1,3,640,640];mask:[1,320];[1,640]": a name starts an input's list.
std::vector<std::pair<std::string, std::vector<Dims>>> parse_dynamic_shape(const std::string& text) {
  std::vector<std::pair<std::string, std::vector<Dims>>> inputs;
  for (const std::string& entry : split(text, ';')) {
    const auto open = entry.find('[');
    if (open == std::string::npos || entry.back() != ']')
      bad_shape("--dynamic_shape entry '" + entry + "' is not name:[d0,d1,...] or [d0,d1,...]");
    const std::string prefix = trim_profile_text(std::string_view(entry).substr(0, open));
    if (!prefix.empty()) {
      if (prefix.back() != ':' || prefix.size() == 1)
        bad_shape("--dynamic_shape entry '" + entry + "' is not name:[d0,d1,...] or [d0,d1,...]");
      inputs.emplace_back(trim_profile_text(std::string_view(prefix).substr(0, prefix.size() - 1)),
                          std::vector<Dims>{});
    } else if (inputs.empty()) {
      bad_shape("--dynamic_shape '" + text + "' must start with an input name (name:[d0,d1,...])");
    }
    inputs.back().second.push_back(positive_dims(std::string_view(entry).substr(open + 1, entry.size() - open - 2),
                                                 "--dynamic_shape entry '" + entry + "'"));
  }
  if (inputs.empty()) bad_shape("--dynamic_shape '" + text + "' lists no profile");
  return inputs;
}

Resolved from_dynamic_shape(const std::string& input_shape, const std::string& text) {
  const auto inputs = parse_dynamic_shape(text);
  const std::size_t count = inputs.front().second.size();
  for (const auto& [name, profiles] : inputs)
    if (profiles.size() != count)
      bad_shape("--dynamic_shape gives " + std::to_string(profiles.size()) + " profiles for '" + name + "' and " +
                std::to_string(count) + " for '" + inputs.front().first + "': give every input the same number");
  std::vector<NamedShape> base;
  if (input_shape.empty()) {
    for (const auto& [name, profiles] : inputs) base.push_back({name, profiles.front()});
  } else {
    base = ordered_input_shape(input_shape);
    std::vector<std::string> names;
    for (const auto& shape : base) names.push_back(shape.name);
    for (const auto& [name, unused] : inputs)
      if (std::find(names.begin(), names.end(), name) == names.end())
        bad_shape("--dynamic_shape names input '" + name + "', which --input_shape does not list (it lists " +
                  host::join(names) + ")");
    if (inputs.size() != base.size())
      bad_shape("--dynamic_shape must give profiles for every input of --input_shape (" + host::join(names) + ")");
  }
  std::vector<Dims> flat(count);
  for (const auto& shape : base) {
    const auto input = std::find_if(inputs.begin(), inputs.end(), [&](const auto& i) { return i.first == shape.name; });
    for (std::size_t p = 0; p < count; ++p) flat[p].insert(flat[p].end(), input->second[p].begin(), input->second[p].end());
  }
  return from_whole_shapes(base, flat, "dynamic_shape");
}

void check_batch_sizes(const std::string& text) {
  for (const std::string& item : split(text, ','))
    positive_dims(item, "--dynamic_batch_size '" + text + "'");
  if (split(text, ',').empty()) bad_shape("--dynamic_batch_size '" + text + "' lists no batch size");
}

void check_image_sizes(const std::string& text) {
  for (const Dims& profile : dims_profiles(text, "dynamic_image_size"))
    if (profile.size() != 2)
      bad_shape("--dynamic_image_size profile '" + join_dims(profile) + "' must be height,width");
}

}  // namespace

DynamicShapes resolve_dynamic_shapes(const host::ParsedFlags& flags) {
  DynamicShapes result{flags.get("input_shape"), flags.get("dynamic_batch_size"), flags.get("dynamic_image_size"), ""};
  const std::string dims = flags.get("dynamic_dims");
  const std::string shape = flags.get("dynamic_shape");

  std::vector<std::string> given;
  for (const std::string name : {"dynamic_batch_size", "dynamic_image_size", "dynamic_dims", "dynamic_shape"})
    if (!flags.get(name).empty()) given.push_back(flags.spelling(name) + "='" + flags.get(name) + "'");
  const int kinds = (result.dynamic_batch_size.empty() ? 0 : 1) + (result.dynamic_image_size.empty() ? 0 : 1) +
                    (dims.empty() && shape.empty() ? 0 : 1);
  if (kinds > 1)
    throw Error(ErrorCode::UsageError,
                "--dynamic_batch_size, --dynamic_image_size and --dynamic_dims (or --dynamic_shape) are mutually "
                "exclusive; given: " + host::join(given));

  if (!result.input_shape.empty()) ordered_input_shape(result.input_shape);  // syntax, before anything runs
  if (!result.dynamic_batch_size.empty()) check_batch_sizes(result.dynamic_batch_size);
  if (!result.dynamic_image_size.empty()) check_image_sizes(result.dynamic_image_size);
  if (dims.empty() && shape.empty()) return result;

  const Resolved from_dims = dims.empty() ? Resolved{} : from_dynamic_dims(result.input_shape, dims);
  const Resolved from_shape = shape.empty() ? Resolved{} : from_dynamic_shape(result.input_shape, shape);
  if (!dims.empty() && !shape.empty() &&
      (from_dims.input_shape != from_shape.input_shape || from_dims.dynamic_dims != from_shape.dynamic_dims))
    throw Error(ErrorCode::UsageError, "--dynamic_dims='" + dims + "' and --dynamic_shape='" + shape +
                                           "' describe different profiles (" + from_dims.dynamic_dims + " of " +
                                           from_dims.input_shape + " vs " + from_shape.dynamic_dims + " of " +
                                           from_shape.input_shape + "); give one of them");
  const Resolved& chosen = dims.empty() ? from_shape : from_dims;
  result.input_shape = chosen.input_shape;
  result.dynamic_dims = chosen.dynamic_dims;
  return result;
}

}  // namespace asc::atc
