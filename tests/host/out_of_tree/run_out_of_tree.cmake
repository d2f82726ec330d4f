# Installs the build, builds tests/host/out_of_tree/plugin against the installed SDK, and runs the
# installed `asc` on a pipeline that uses the plugin's stage.
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DPLUGIN_SOURCE_DIR=... -DGENERATOR=... -DCXX_COMPILER=...
#         -P run_out_of_tree.cmake
foreach(variable BUILD_DIR WORK_DIR PLUGIN_SOURCE_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "run_out_of_tree.cmake needs -D${variable}=...")
  endif()
endforeach()

function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${description} failed (${status}):\n${out}\n${err}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(plugin_build ${WORK_DIR}/plugin-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run_step("installing ${BUILD_DIR}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
run_step("configuring the out-of-tree plugin"
  ${CMAKE_COMMAND} -S ${PLUGIN_SOURCE_DIR} -B ${plugin_build} -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run_step("building the out-of-tree plugin" ${CMAKE_COMMAND} --build ${plugin_build})

file(WRITE ${WORK_DIR}/hello.yaml
"name: hello
plugins: [hello_out_of_tree]
variables:
  out: ~
  who: world
stages:
  - stage: hello.write
    with: {out: \"\${out}\", who: \"\${who}\"}
")
run_step("running the installed asc"
  ${CMAKE_COMMAND} -E env --unset=ASC_PLUGIN_PATH
  ${prefix}/bin/asc run ${WORK_DIR}/hello.yaml --plugin-dir ${plugin_build}
  --set out=${WORK_DIR}/hello.txt --set who=out-of-tree)

file(READ ${WORK_DIR}/hello.txt greeting)
if(NOT greeting STREQUAL "hello, out-of-tree\n")
  message(FATAL_ERROR "hello.txt holds '${greeting}', expected 'hello, out-of-tree'")
endif()
# Installed, it lands in <prefix>/lib/asc/plugins (docs/plugins.md; Eigen3's package config, read
# inside AscSdkConfig.cmake, once sent it to /usr/lib/asc/plugins), where the installed asc finds it
# without --plugin-dir.
run_step("installing the out-of-tree plugin" ${CMAKE_COMMAND} --install ${plugin_build})
file(STRINGS ${plugin_build}/install_manifest.txt installed)
if(NOT installed STREQUAL "${prefix}/lib/asc/plugins/hello_out_of_tree.so" OR NOT EXISTS "${installed}")
  message(FATAL_ERROR "the plugin was installed as '${installed}', expected ${prefix}/lib/asc/plugins/hello_out_of_tree.so")
endif()
run_step("running the installed asc on the installed plugin"
  ${CMAKE_COMMAND} -E env --unset=ASC_PLUGIN_PATH
  ${prefix}/bin/asc run ${WORK_DIR}/hello.yaml --set out=${WORK_DIR}/installed.txt --set who=installed)
file(READ ${WORK_DIR}/installed.txt greeting)
if(NOT greeting STREQUAL "hello, installed\n")
  message(FATAL_ERROR "installed.txt holds '${greeting}', expected 'hello, installed'")
endif()
message(STATUS "out-of-tree plugin built against the installed SDK, run by the installed asc, installed into its prefix and run from there")
