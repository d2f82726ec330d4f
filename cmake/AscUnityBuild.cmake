# Unity (jumbo) builds: each target's .cpp files are compiled in batches of ASC_UNITY_BATCH_SIZE,
# one translation unit per batch (CMake's UNITY_BUILD), so the SDK, Eigen, doctest, nlohmann_json
# and protobuf headers are parsed, and their templates instantiated and compiled, once per batch
# instead of once per file. Every .cpp still belongs to exactly one target (AscBoundaryCheck.cmake
# reads the targets' own source lists). -DASC_UNITY_BUILD=OFF compiles file by file, for quick
# incremental rebuilds of one file. BENCHMARKS.md (build) has the measurement.
#
# Files compiled for a particular instruction set (target_clones, their own -m options) are kept
# out of the batches: inlining another file's helper into an AVX2 clone could contract its
# arithmetic into FMAs and change results. CMake already leaves out files with their own
# COMPILE_OPTIONS or COMPILE_DEFINITIONS; asc_unity_exclude() names the others.
option(ASC_UNITY_BUILD "Compile each target's sources in batches (unity build)" ON)
set(ASC_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch")
set(CMAKE_UNITY_BUILD ${ASC_UNITY_BUILD})
set(CMAKE_UNITY_BUILD_BATCH_SIZE ${ASC_UNITY_BATCH_SIZE})

#   asc_unity_exclude(<source>...)   (paths relative to the calling CMakeLists.txt)
function(asc_unity_exclude)
  set_source_files_properties(${ARGN} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
