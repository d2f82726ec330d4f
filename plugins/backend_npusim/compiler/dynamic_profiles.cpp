#include "dynamic_profiles.hpp"

#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <algorithm>
#include <charconv>
#include <set>

namespace asc::npusim {
namespace {

constexpr std::size_t kMinProfiles = 2, kMaxProfiles = 100;  // ATC: (1, 100]

struct DynamicDim {
  std::string input;
  std::size_t axis;
};

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorCode::InputShapeInvalid, message); }

std::vector<std::string> split_on(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    items.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return items;
    start = end + 1;
  }
}

std::int64_t positive(const std::string& flag, const std::string& text, const std::string& item) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
  if (item.empty() || error != std::errc() || end != item.data() + item.size() || value <= 0)
    invalid(flag + "=\"" + text + "\": '" + item + "' is not a positive integer");
  return value;
}

// "a,b;c,d" -> {{a,b},{c,d}} (dynamic_batch_size uses ',' between profiles of one value each).
std::vector<std::vector<std::int64_t>> parse_profiles(const std::string& flag, const std::string& text,
                                                      bool one_value_each) {
  std::vector<std::vector<std::int64_t>> profiles;
  for (const std::string& entry : split_on(text, one_value_each ? ',' : ';')) {
    std::vector<std::int64_t> values;
    for (const std::string& item : one_value_each ? std::vector<std::string>{entry} : split_on(entry, ','))
      values.push_back(positive(flag, text, item));
    profiles.push_back(std::move(values));
  }
  if (profiles.size() < kMinProfiles || profiles.size() > kMaxProfiles)
    invalid(flag + "=\"" + text + "\" has " + std::to_string(profiles.size()) + " profile(s); ATC takes " +
            std::to_string(kMinProfiles) + " to " + std::to_string(kMaxProfiles));
  std::set<std::vector<std::int64_t>> seen;
  for (const auto& profile : profiles)
    if (!seen.insert(profile).second) invalid(flag + "=\"" + text + "\" lists a profile twice");
  return profiles;
}

std::string describe_input(const Graph& graph, const std::string& input) {
  const ValueInfo* info = graph.value_info(input);
  return info == nullptr ? "'" + input + "'" : "'" + input + "' " + to_string(*info);
}

std::string joined_values(const std::vector<std::int64_t>& values, const std::string& separator) {
  std::string text;
  for (const std::int64_t value : values) text += (text.empty() ? "" : separator) + std::to_string(value);
  return text;
}

}  // namespace

DynamicProfiles dynamic_profiles(const Graph& graph, const CompileOptions& options) {
  std::vector<std::string> flags;
  if (!options.dynamic_batch_size.empty()) flags.push_back("dynamic_batch_size");
  if (!options.dynamic_image_size.empty()) flags.push_back("dynamic_image_size");
  if (!options.dynamic_dims.empty()) flags.push_back("dynamic_dims");
  if (flags.size() > 1)
    invalid("dynamic_batch_size, dynamic_image_size and dynamic_dims are mutually exclusive (ATC E10009); given: " +
            flags[0] + ", " + flags[1] + (flags.size() > 2 ? ", " + flags[2] : ""));

  // The static part of every input, and the dynamic dims in input order.
  std::map<std::string, Shape> base;
  std::vector<DynamicDim> dynamic;
  for (const std::string& input : graph.inputs) {
    const ValueInfo* info = graph.value_info(input);
    if (info == nullptr || !info->shape)
      invalid("graph input '" + input + "' has no known rank; give its shape with input_shape");
    Shape shape;
    for (std::size_t axis = 0; axis < info->shape->size(); ++axis) {
      const Dim& dim = (*info->shape)[axis];
      shape.push_back(dim.is_static() ? dim.value : -1);
      if (!dim.is_static()) dynamic.push_back({input, axis});
    }
    base[input] = std::move(shape);
  }

  DynamicProfiles result;
  if (flags.empty()) {
    // The seed converts a model exported with a dynamic batch axis without --input_shape and
    // expects an .om: a dynamic batch dim (dim 0) alone is compiled for 1, as the reference
    // backend runs it. Any other dynamic dim needs input_shape or a profile flag.
    for (const DynamicDim& dim : dynamic)
      if (dim.axis != 0)
        invalid("graph input " + describe_input(graph, dim.input) +
                " has dynamic dims; fix them with input_shape, or compile profiles with dynamic_batch_size, "
                "dynamic_image_size or dynamic_dims");
    for (const DynamicDim& dim : dynamic) {
      log_warning("npusim.compile: graph input " + describe_input(graph, dim.input) +
                  " has a dynamic batch dim and no input_shape or dynamic_batch_size fixes it: compiled for batch 1");
      base[dim.input][0] = 1;
    }
    result.profiles.push_back({"static", base});
    return result;
  }
  const std::string& flag = flags.front();
  if (dynamic.empty())
    invalid(flag + " needs -1 dims in the graph inputs (set them with input_shape), and every input of graph '" +
            graph.name + "' is static (ATC E10031)");

  std::vector<std::vector<std::int64_t>> listed;  // the flag's profiles as written
  std::vector<std::vector<std::int64_t>> values;  // per profile, one value per dynamic dim
  if (flag == "dynamic_batch_size") {
    result.kind = "batch";
    for (const DynamicDim& dim : dynamic)
      if (dim.axis != 0)
        invalid("dynamic_batch_size: only the batch dim (0) may be -1, and input " + describe_input(graph, dim.input) +
                " has dim " + std::to_string(dim.axis) + " dynamic (ATC E10018)");
    listed = parse_profiles(flag, options.dynamic_batch_size, true);
    for (const auto& profile : listed)
      values.push_back(std::vector<std::int64_t>(dynamic.size(), profile[0]));
  } else if (flag == "dynamic_image_size") {
    result.kind = "image_size";
    const bool nhwc = options.input_format == "NHWC";
    for (const DynamicDim& dim : dynamic) {
      const std::size_t rank = base.at(dim.input).size();
      const std::size_t h = nhwc ? 1 : 2;
      if (rank != 4 || (dim.axis != h && dim.axis != h + 1))
        invalid("dynamic_image_size: only the H and W dims of 4-D " + std::string(nhwc ? "NHWC" : "NCHW") +
                " inputs may be -1, and input " + describe_input(graph, dim.input) + " has dim " +
                std::to_string(dim.axis) + " dynamic (ATC E10019)");
    }
    listed = parse_profiles(flag, options.dynamic_image_size, false);
    for (const auto& profile : listed) {
      if (profile.size() != 2)
        invalid("dynamic_image_size=\"" + options.dynamic_image_size +
                "\": every profile is \"height,width\", and '" + joined_values(profile, ",") + "' has " +
                std::to_string(profile.size()) + " value(s) (ATC E10020)");
      std::vector<std::int64_t> per_dim;
      for (const DynamicDim& dim : dynamic) per_dim.push_back(dim.axis == (nhwc ? 1u : 2u) ? profile[0] : profile[1]);
      values.push_back(std::move(per_dim));
    }
  } else {
    result.kind = "dims";
    listed = parse_profiles(flag, options.dynamic_dims, false);
    for (const auto& profile : listed) {
      if (profile.size() != dynamic.size())
        invalid("dynamic_dims=\"" + options.dynamic_dims + "\": profile '" + joined_values(profile, ",") +
                "' has " + std::to_string(profile.size()) + " value(s), and the graph inputs have " +
                std::to_string(dynamic.size()) + " dynamic dim(s), filled in input order (ATC E10037)");
      values.push_back(profile);
    }
  }

  for (std::size_t p = 0; p < values.size(); ++p) {
    ProfileShapes shapes{"", base};
    for (std::size_t d = 0; d < dynamic.size(); ++d) shapes.input_shapes[dynamic[d].input][dynamic[d].axis] = values[p][d];
    shapes.label = result.kind == "batch"        ? "batch=" + std::to_string(listed[p][0])
                   : result.kind == "image_size" ? "image_size=" + joined_values(listed[p], "x")
                                                 : "dims=" + joined_values(listed[p], ",");
    result.profiles.push_back(std::move(shapes));
  }
  return result;
}

}  // namespace asc::npusim
