// What one `fusion.optimize` run did, and its fusion_result.json. The file keeps ATC's layout
//   {"session_and_graph_id_0_0": {"graph_fusion": {"<pass>": {"effect_times": "1", "match_times": "1"}},
//                                 "ub_fusion": {...}}}
// (passes that ran and matched at least once, counts as strings, as ATC writes them) and adds an
// "asc" section: the kernel and node counts before and after, the total time, and every pass
// in run order with its category, whether it ran (and what turned it off), its counts, its
// time and the node count after it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <asc/sdk/pass.hpp>

namespace asc::fusion {

struct PassRecord {
  std::string name;
  std::string category;
  bool ran = false;
  std::string disabled_by;  // why it did not run
  PassResult result;
  double milliseconds = 0;
  std::size_t nodes_after = 0;
};

struct FusionReport {
  std::string graph;
  std::size_t kernels_before = 0, kernels_after = 0;
  std::size_t nodes_before = 0, nodes_after = 0;
  double milliseconds = 0;
  std::vector<PassRecord> passes;
};

std::string fusion_result_json(const FusionReport& report);

}  // namespace asc::fusion
