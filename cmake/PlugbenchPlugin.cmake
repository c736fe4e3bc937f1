# plugbench_add_plugin(NAME name SOURCES ... [LIBRARIES ...]): a backend plugin as a module library
# with hidden visibility, exporting only its entry, and no undefined symbols left for the loader.
function(plugbench_add_plugin)
  cmake_parse_arguments(PLUGIN "" "NAME;OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT PLUGIN_NAME)
    message(FATAL_ERROR "plugbench_add_plugin: NAME is required")
  endif()
  set(target "plugbench_plugin_${PLUGIN_NAME}")
  add_library(${target} MODULE ${PLUGIN_SOURCES})
  target_link_libraries(${target} PRIVATE plugbench::plugin_sdk ${PLUGIN_LIBRARIES})
  if(NOT PLUGIN_OUTPUT_DIRECTORY)
    set(PLUGIN_OUTPUT_DIRECTORY "${PLUGBENCH_PLUGIN_OUTPUT_DIR}")
    if(TARGET plugbench_shipped_plugins)  # the tests run every shipped plugin
      add_dependencies(plugbench_shipped_plugins ${target})
    endif()
  endif()
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME "plugbench_${PLUGIN_NAME}"
    PREFIX "lib"
    LIBRARY_OUTPUT_DIRECTORY "${PLUGIN_OUTPUT_DIRECTORY}"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  # Hidden visibility is not enough: Boost.System (under Boost.DLL) marks its classes visible and
  # libstdc++'s inline statics are unique globals; the version script keeps the entry alone.
  set(exports_map "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/plugbench_plugin.map")
  target_link_options(${target} PRIVATE "LINKER:--version-script=${exports_map}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${exports_map}")
  if(NOT PLUGBENCH_SANITIZE)  # sanitizer runtimes resolve their symbols from the executable
    target_link_options(${target} PRIVATE "LINKER:--no-undefined")
  endif()
  if(TARGET plugbench_warnings)
    target_link_libraries(${target} PRIVATE plugbench_warnings)
  endif()
endfunction()
