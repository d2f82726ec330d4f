# asc_add_plugin(<name> SOURCES <files...> [LIBRARIES <targets...>])
#
# Builds a plugin: a shared library named <name>.so (no "lib" prefix) that links the SDK, hides
# every symbol but the entry point, and lands in the plugin directory the host searches.
# Installed with the SDK, so out-of-tree plugins use the same function after find_package(AscSdk).
function(asc_add_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  if(TARGET asc_sdk)
    target_link_libraries(${name} PRIVATE asc_sdk ${ARG_LIBRARIES})
  else()
    target_link_libraries(${name} PRIVATE AscSdk::asc_sdk ${ARG_LIBRARIES})
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON)
  if(DEFINED ASC_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ASC_PLUGIN_OUTPUT_DIRECTORY})
  endif()
  if(DEFINED ASC_PLUGIN_INSTALL_DIR)
    install(TARGETS ${name} LIBRARY DESTINATION ${ASC_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
