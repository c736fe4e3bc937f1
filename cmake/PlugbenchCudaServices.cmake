# plugbench::cuda_services: the SDK's CUDA services (plugbench/cuda_services.cuh, plugbench/cuda/),
# header-only, for plugins compiled with nvcc. Link it with plugbench_add_plugin(... LIBRARIES
# plugbench::cuda_services). It needs the CUDA toolkit and nothing else; the CUDA runtime itself is
# linked by CMake for the plugin's .cu sources, as its CUDA_RUNTIME_LIBRARY says (static unless the
# project chose otherwise).
#
# One file for both uses, like PlugbenchPlugin.cmake: plugbench's tree includes it when it builds
# its CUDA plugins, and the installed package (plugbenchConfig.cmake) includes the installed copy
# for a project that enables CUDA or asks for the component (COMPONENTS cuda_services). Sets
# plugbench_cuda_services_FOUND, and plugbench_cuda_services_NOT_FOUND_REASON when the toolkit is
# missing.
if(TARGET plugbench::cuda_services)
  set(plugbench_cuda_services_FOUND TRUE)
  return()
endif()

find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND)
  set(plugbench_cuda_services_FOUND FALSE)
  string(CONCAT plugbench_cuda_services_NOT_FOUND_REASON
         "plugbench::cuda_services needs the CUDA toolkit, and find_package(CUDAToolkit) "
         "found none: put nvcc on PATH, or set CUDAToolkit_ROOT (or CMAKE_CUDA_COMPILER) to the "
         "toolkit")
  return()
endif()

add_library(plugbench::cuda_services INTERFACE IMPORTED)
# The probe looks for the driver library with dlopen.
target_link_libraries(plugbench::cuda_services INTERFACE plugbench::plugin_sdk CUDA::toolkit
                                                         ${CMAKE_DL_LIBS})
# Build facts of the consuming plugin (cuda_build_info()), from its own target properties: the
# architectures it is compiled for and how it links the CUDA runtime (nvcc's default: static).
# An architecture list "80;90" is written "80,90"; where none is named (CUDA_ARCHITECTURES OFF,
# native, all) the header reads nvcc's own list.
set(plugbench_arch "$<TARGET_PROPERTY:CUDA_ARCHITECTURES>")
set(plugbench_runtime "$<TARGET_PROPERTY:CUDA_RUNTIME_LIBRARY>")
set(plugbench_arch_text "$<JOIN:${plugbench_arch},$<COMMA>>")
set(plugbench_runtime_text "$<IF:$<BOOL:${plugbench_runtime}>,${plugbench_runtime},Static>")
target_compile_definitions(plugbench::cuda_services INTERFACE
  "$<$<BOOL:${plugbench_arch}>:PLUGBENCH_CUDA_ARCHITECTURES=\"${plugbench_arch_text}\">"
  "PLUGBENCH_CUDA_RUNTIME_LIBRARY=\"${plugbench_runtime_text}\"")
unset(plugbench_arch)
unset(plugbench_arch_text)
unset(plugbench_runtime)
unset(plugbench_runtime_text)
set(plugbench_cuda_services_FOUND TRUE)
