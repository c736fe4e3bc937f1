# plugbench_add_plugin(NAME name SOURCES ... [LIBRARIES ...] [OUTPUT_DIRECTORY dir]): a backend
# plugin as a module library, libplugbench_<name>.so, with hidden visibility, exporting only its
# entry, and no undefined symbols left for the loader.
#
# One file for both uses: plugbench's own tree includes it, and the installed CMake package
# (plugbenchConfig.cmake) includes the installed copy, so an out-of-tree plugin is built exactly
# like a shipped one. In plugbench's tree (PLUGBENCH_PLUGIN_OUTPUT_DIR is set), a plugin without
# OUTPUT_DIRECTORY is a shipped one: built into bin/plugins, run by the tests, and installed into
# lib/plugbench/plugins. Elsewhere it is built into the calling folder's binary dir (or
# CMAKE_LIBRARY_OUTPUT_DIRECTORY) unless OUTPUT_DIRECTORY says where. The target is
# plugbench_plugin_<name>.
function(plugbench_add_plugin)
  cmake_parse_arguments(PLUGIN "" "NAME;OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT PLUGIN_NAME)
    message(FATAL_ERROR "plugbench_add_plugin: NAME is required")
  endif()
  if(NOT PLUGIN_NAME MATCHES "^[a-z0-9_]+$")
    message(FATAL_ERROR "plugbench_add_plugin: NAME '${PLUGIN_NAME}' must be lower-case letters, "
                        "digits and '_' (the harness refuses other plugin names)")
  endif()
  set(cuda_sources ${PLUGIN_SOURCES})
  list(FILTER cuda_sources INCLUDE REGEX "\\.cu$")
  get_property(enabled_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(cuda_sources AND NOT "CUDA" IN_LIST enabled_languages)
    message(FATAL_ERROR "plugbench_add_plugin(NAME ${PLUGIN_NAME}): CUDA sources given but CUDA "
                        "is not enabled; add it to project(... LANGUAGES CXX CUDA)")
  endif()
  set(target "plugbench_plugin_${PLUGIN_NAME}")
  add_library(${target} MODULE ${PLUGIN_SOURCES})
  target_link_libraries(${target} PRIVATE plugbench::plugin_sdk ${PLUGIN_LIBRARIES})
  if(NOT PLUGIN_OUTPUT_DIRECTORY AND PLUGBENCH_PLUGIN_OUTPUT_DIR)
    set(PLUGIN_OUTPUT_DIRECTORY "${PLUGBENCH_PLUGIN_OUTPUT_DIR}")
    if(TARGET plugbench_shipped_plugins)  # the tests run every shipped plugin
      add_dependencies(plugbench_shipped_plugins ${target})
    endif()
    if(PLUGBENCH_INSTALL_PLUGIN_DIR)
      install(TARGETS ${target} LIBRARY DESTINATION "${PLUGBENCH_INSTALL_PLUGIN_DIR}")
    endif()
  endif()
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME "plugbench_${PLUGIN_NAME}"
    PREFIX "lib"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY "${PLUGIN_OUTPUT_DIRECTORY}")
  endif()
  # Hopper (sm_90), the project's target, where nothing chose the architectures. (CMake fills
  # CMAKE_CUDA_ARCHITECTURES with nvcc's default when CUDA is enabled: choose before project().)
  if(cuda_sources AND NOT CMAKE_CUDA_ARCHITECTURES)
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES 90)
  endif()
  # The SDK's headers are C++20 in .cu files too, unless the project chose a CUDA standard (as
  # plugbench's own tree does).
  if(cuda_sources AND NOT DEFINED CMAKE_CUDA_STANDARD)
    if(CMAKE_VERSION VERSION_LESS 3.26 AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
      # CMake before 3.26 cannot spell nvcc's C++20 flag (plugbench's plugins/CMakeLists.txt).
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
    else()
      set_target_properties(${target} PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON)
    endif()
  endif()
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
