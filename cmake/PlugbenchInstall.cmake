# cmake --install: the harness in bin/, the shipped plugins in lib/plugbench/plugins/ (installed by
# plugbench_add_plugin), the plugin contract's headers in include/plugbench/, and the CMake package
# in lib/cmake/plugbench/, so that an out-of-tree plugin project needs only
#   find_package(plugbench CONFIG REQUIRED)
#   plugbench_add_plugin(NAME my_backend SOURCES ...)
# The package: the imported targets plugbench::plugin_sdk (headers, C++20, Boost.DLL on
# std::filesystem) and plugbench::harness, plugbench_add_plugin from the same PlugbenchPlugin.cmake
# as this tree uses, and plugbench::cuda_services (the CUDA services' headers, defined by the same
# PlugbenchCudaServices.cmake as this tree uses, for a consumer with the CUDA toolkit). The CUDA
# headers are installed by every build, with or without CUDA: they are compiled by the consumer.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(PLUGBENCH_INSTALL_CMAKE_DIR "lib/cmake/plugbench")

# The harness finds the installed plugins at <its folder>/../lib/plugbench/plugins: bin/ stays one
# level below the prefix.
install(TARGETS harness EXPORT plugbenchTargets RUNTIME DESTINATION bin)
set_target_properties(harness PROPERTIES EXPORT_NAME harness)
install(TARGETS plugbench_plugin_sdk EXPORT plugbenchTargets)
set_target_properties(plugbench_plugin_sdk PROPERTIES EXPORT_NAME plugin_sdk)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/harness/include/plugbench"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh")
install(EXPORT plugbenchTargets NAMESPACE plugbench:: DESTINATION "${PLUGBENCH_INSTALL_CMAKE_DIR}")

# The plugin ABI the installed headers speak, for a plugin project's messages and checks.
file(STRINGS "${PROJECT_SOURCE_DIR}/harness/include/plugbench/plugin_api.h" abi_lines
     REGEX "^#define PB_ABI_(MAJOR|MINOR) [0-9]+")
string(REGEX REPLACE ".*PB_ABI_MAJOR ([0-9]+).*" "\\1" PLUGBENCH_ABI_MAJOR "${abi_lines}")
string(REGEX REPLACE ".*PB_ABI_MINOR ([0-9]+).*" "\\1" PLUGBENCH_ABI_MINOR "${abi_lines}")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/plugbenchConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/plugbenchConfig.cmake"
  INSTALL_DESTINATION "${PLUGBENCH_INSTALL_CMAKE_DIR}"
  PATH_VARS PLUGBENCH_INSTALL_PLUGIN_DIR CMAKE_INSTALL_INCLUDEDIR)
# The package holds headers and CMake code only: any 0.1.x harness takes what it builds (the plugin
# ABI decides, and the harness checks it when it loads a plugin).
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cmake/plugbenchConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/cmake/plugbenchConfig.cmake"
              "${PROJECT_BINARY_DIR}/cmake/plugbenchConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/PlugbenchPlugin.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/PlugbenchCudaServices.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/plugbench_plugin.map"
        DESTINATION "${PLUGBENCH_INSTALL_CMAKE_DIR}")
