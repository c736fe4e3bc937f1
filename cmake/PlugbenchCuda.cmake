# Decides whether the CUDA plugins are built, and how: one CUDA runtime linking mode for every
# plugin (static: a plugin .so then loads on machines without the toolkit and reports "no driver").
include(CheckLanguage)
set(PLUGBENCH_HAVE_CUDA OFF)
if(NOT PLUGBENCH_CUDA STREQUAL "OFF")
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # The GPU in this machine where one can be seen, else Hopper (sm_90), the project's target.
      execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                      OUTPUT_VARIABLE detected_cc RESULT_VARIABLE smi_result ERROR_QUIET)
      if(smi_result EQUAL 0 AND detected_cc MATCHES "^([0-9]+)\\.([0-9]+)")
        set(CMAKE_CUDA_ARCHITECTURES "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      else()
        set(CMAKE_CUDA_ARCHITECTURES 90)
      endif()
    endif()
    enable_language(CUDA)
    # CMake before 3.26 knows no C++20 flag for nvcc (12.0 and later take -std=c++20) and refuses
    # CMAKE_CUDA_STANDARD 20 without it.
    if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
       AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    find_package(CUDAToolkit REQUIRED)
    include(PlugbenchCudaServices)  # plugbench::cuda_services, as installed for other projects
    set(PLUGBENCH_HAVE_CUDA ON)
    message(STATUS "plugbench: CUDA plugins enabled for architectures ${CMAKE_CUDA_ARCHITECTURES}")
  elseif(PLUGBENCH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "PLUGBENCH_CUDA=ON but no CUDA compiler was found (is nvcc on PATH?)")
  else()
    message(STATUS "plugbench: no CUDA compiler found; the CUDA plugins are skipped")
  endif()
else()
  message(STATUS "plugbench: PLUGBENCH_CUDA=OFF; the CUDA plugins are skipped")
endif()
