# gauss_add_plugin(<target> SOURCES <files...> [OUTPUT_DIRECTORY <dir>] [NO_INSTALL])
#
# Builds a Gauss plugin: a shared object (MODULE library) linked against gauss::core, with
# hidden visibility so that only the exported plugin entries are visible. Inside the Gauss build
# it lands in the build-tree plugin directory and installs next to the built-in plugins; out of
# tree it lands in OUTPUT_DIRECTORY (default: the current binary dir), to be found through
# GAUSS_PLUGIN_PATH or `plugins.paths` in YAML.
function(gauss_add_plugin target)
  cmake_parse_arguments(ARG "NO_INSTALL" "OUTPUT_DIRECTORY" "SOURCES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE gauss::core)
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    PREFIX "lib")
  target_compile_definitions(${target} PRIVATE BOOST_DLL_USE_STD_FS)
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  elseif(DEFINED GAUSS_BUILD_PLUGIN_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${GAUSS_BUILD_PLUGIN_DIR}")
  endif()
  if(NOT ARG_NO_INSTALL AND DEFINED GAUSS_INSTALL_PLUGIN_SUBDIR)
    install(TARGETS ${target} LIBRARY DESTINATION ${GAUSS_INSTALL_PLUGIN_SUBDIR})
  endif()
endfunction()
