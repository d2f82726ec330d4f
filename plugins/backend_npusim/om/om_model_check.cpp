#include "om/om_model_check.hpp"

#include <algorithm>
#include <unordered_set>

#include "om/om_enums.hpp"

namespace asc::npusim {
namespace {

using Names = std::unordered_set<std::string>;

struct GraphCheck {
  const std::string& origin;
  const Names& weights;  // values the profiles place in the weight region

  // `outer` holds the values visible from enclosing graphs (empty for the main graph).
  void check(const Graph& graph, const Names& outer) const {
    const std::string where = "graph '" + graph.name + "'";
    Names defined = outer;
    defined.insert(graph.inputs.begin(), graph.inputs.end());
    for (const auto& [name, tensor] : graph.initializers) defined.insert(name);
    Names produced;
    for (const Node* node : graph.nodes()) {
      for (const std::string& input : node->inputs)
        if (!input.empty() && defined.count(input) == 0) fail_missing_input(where, *node, input);
      for (const auto& [name, value] : node->attributes.all()) {
        if (const auto* subgraph = std::get_if<std::shared_ptr<Graph>>(&value)) check(**subgraph, defined);
        if (const auto* subgraphs = std::get_if<std::vector<std::shared_ptr<Graph>>>(&value))
          for (const auto& subgraph : *subgraphs) check(*subgraph, defined);
      }
      for (const std::string& output : node->outputs) {
        if (output.empty()) continue;
        if (!produced.insert(output).second)
          om_format_error(origin, where + ", " + node->describe(), "value '" + output + "' is produced twice");
        defined.insert(output);
      }
    }
    for (const std::string& output : graph.outputs)
      if (defined.count(output) == 0)
        om_format_error(origin, where, "graph output '" + output + "' is neither an input, an initializer nor a node's output");
  }

  [[noreturn]] void fail_missing_input(const std::string& where, const Node& node, const std::string& input) const {
    if (weights.count(input) != 0)
      om_format_error(origin, where + ", " + node.describe(),
                      "reads initializer '" + input + "', which the file does not contain (the weights are missing)");
    om_format_error(origin, where + ", " + node.describe(),
                    "reads '" + input + "', which no graph input, initializer or earlier node provides");
  }
};

void check_profile(const CompiledProfile& profile, const Graph& graph, const Names& node_names,
                   const std::string& origin) {
  const std::string where = "profile '" + profile.label + "'";
  for (const auto& [input, shape] : profile.input_shapes) {
    if (std::find(graph.inputs.begin(), graph.inputs.end(), input) == graph.inputs.end())
      om_format_error(origin, where, "shape given for '" + input + "', which is not a graph input");
    if (std::any_of(shape.begin(), shape.end(), [](std::int64_t dim) { return dim < 0; }))
      om_format_error(origin, where, "input '" + input + "' has the non-static shape " + shape_to_string(shape));
  }
  for (const CompiledTask& task : profile.tasks)
    if (node_names.count(task.node) == 0)
      om_format_error(origin, where, "task for node '" + task.node + "', which the graph does not have");
  // The simulator pairs task i with node i and looks every value a node touches up among the
  // profile's placements.
  const auto nodes = graph.nodes();
  if (nodes.size() != profile.tasks.size())
    om_format_error(origin, where, std::to_string(profile.tasks.size()) + " tasks for the graph's " +
                                       std::to_string(nodes.size()) + " nodes (one per node is expected)");
  Names placed;
  for (const ValuePlacement& placement : profile.values) placed.insert(placement.value);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (profile.tasks[i].node != nodes[i]->name)
      om_format_error(origin, where, "task " + std::to_string(i) + " is for node '" + profile.tasks[i].node +
                                         "', the graph's node " + std::to_string(i) + " is '" + nodes[i]->name + "'");
    for (const auto* names : {&nodes[i]->inputs, &nodes[i]->outputs})
      for (const std::string& value : *names)
        if (!value.empty() && placed.count(value) == 0)
          om_format_error(origin, where + ", " + nodes[i]->describe(),
                          "value '" + value + "' has no placement in the profile's memory plan");
  }
  const auto task_count = static_cast<int>(profile.tasks.size());
  for (const ValuePlacement& placement : profile.values)
    if (placement.first_task < -1 || placement.first_task >= task_count || placement.last_task < -1 ||
        placement.last_task >= task_count)
      om_format_error(origin, where + ", placement of '" + placement.value + "'",
                      "lifetime [" + std::to_string(placement.first_task) + ", " + std::to_string(placement.last_task) +
                          "] lies outside the profile's " + std::to_string(task_count) + " tasks");
}

}  // namespace

void check_om_references(const CompiledModel& model, const std::string& origin) {
  Names weights;
  for (const CompiledProfile& profile : model.profiles)
    for (const ValuePlacement& placement : profile.values)
      if (placement.region == ValuePlacement::Region::Weight) weights.insert(placement.value);
  GraphCheck{origin, weights}.check(model.graph, {});
  Names node_names;
  for (const Node* node : model.graph.nodes()) node_names.insert(node->name);
  for (const CompiledProfile& profile : model.profiles) check_profile(profile, model.graph, node_names, origin);
}

}  // namespace asc::npusim
