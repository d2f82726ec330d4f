# Precompiled headers for the targets with many translation units. Nearly every file includes
# the SDK's graph/tensor headers, which pull in Eigen/Core (asc/sdk/dtype.hpp: Eigen's half and
# bfloat16) and take about a second to parse; a per-target PCH parses them once per target
# instead of once per file. BENCHMARKS.md (build) has the measurement.
#   asc_precompile_headers(<target> [<extra headers>...])
function(asc_precompile_headers target)
  target_precompile_headers(${target} PRIVATE
    <asc/sdk/graph.hpp>
    <asc/sdk/op_registry.hpp>
    <asc/sdk/tensor.hpp>
    <map>
    <memory>
    <string>
    <vector>
    ${ARGN})
endfunction()
