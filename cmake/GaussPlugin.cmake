# gauss_add_plugin(<target> SOURCES <files...> [OUTPUT_DIRECTORY <dir>] [NO_INSTALL])
#
# Builds a Gauss plugin: a shared object (MODULE library) linked against gauss::core, with
# hidden visibility so that only the exported plugin entries are visible, and the Release flags
# when the consumer set no build type. Inside the Gauss build
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
  # A consumer that set no build type would compile the plugin without optimization (about 4x
  # slower in a time step): single-configuration builds without a build type get the Release
  # flags for their plugins.
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi_config AND NOT CMAKE_BUILD_TYPE)
    separate_arguments(release_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS_RELEASE}")
    target_compile_options(${target} PRIVATE ${release_flags})
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIRECTORY}")
  elseif(DEFINED GAUSS_BUILD_PLUGIN_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${GAUSS_BUILD_PLUGIN_DIR}")
  endif()
  if(NOT ARG_NO_INSTALL AND DEFINED GAUSS_INSTALL_PLUGIN_SUBDIR)
    install(TARGETS ${target} LIBRARY DESTINATION ${GAUSS_INSTALL_PLUGIN_SUBDIR})
  endif()
endfunction()
