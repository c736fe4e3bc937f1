# Boost headers (Boost.DLL) and Boost.Program_options. Some images ship the program_options library
# without its CMake package file: then the library is found by name. The GPU machine's image has
# Boost's headers but no program_options library: there it is built from Boost's own sources, given
# as PLUGBENCH_BOOST_PROGRAM_OPTIONS_SOURCE (tools/device_run.sh explains how to get them).
set(PLUGBENCH_BOOST_PROGRAM_OPTIONS_SOURCE "" CACHE PATH
    "Folder with Boost.Program_options' src/*.cpp, used when the library is not installed")
find_package(Boost 1.74 QUIET COMPONENTS program_options)
if(NOT TARGET Boost::program_options)
  find_package(Boost 1.74 REQUIRED)
  file(GLOB boost_po_candidates /usr/lib/*/libboost_program_options.so*
       /usr/lib/libboost_program_options.so* /usr/local/lib/libboost_program_options.so*)
  find_library(PLUGBENCH_BOOST_PROGRAM_OPTIONS NAMES boost_program_options)
  if(NOT PLUGBENCH_BOOST_PROGRAM_OPTIONS AND boost_po_candidates)
    list(GET boost_po_candidates 0 PLUGBENCH_BOOST_PROGRAM_OPTIONS)
  endif()
  if(NOT PLUGBENCH_BOOST_PROGRAM_OPTIONS AND PLUGBENCH_BOOST_PROGRAM_OPTIONS_SOURCE)
    file(GLOB po_sources "${PLUGBENCH_BOOST_PROGRAM_OPTIONS_SOURCE}/src/*.cpp")
    add_library(plugbench_boost_program_options STATIC ${po_sources})
    target_link_libraries(plugbench_boost_program_options PUBLIC Boost::headers)
    add_library(Boost::program_options ALIAS plugbench_boost_program_options)
    message(STATUS "plugbench: Boost.Program_options built from ${PLUGBENCH_BOOST_PROGRAM_OPTIONS_SOURCE}")
    return()
  endif()
  if(NOT PLUGBENCH_BOOST_PROGRAM_OPTIONS)
    message(FATAL_ERROR "Boost.Program_options not found: install libboost-program-options-dev")
  endif()
  add_library(Boost::program_options UNKNOWN IMPORTED)
  set_target_properties(Boost::program_options PROPERTIES
    IMPORTED_LOCATION "${PLUGBENCH_BOOST_PROGRAM_OPTIONS}"
    INTERFACE_LINK_LIBRARIES Boost::headers)
  message(STATUS "plugbench: Boost.Program_options by name: ${PLUGBENCH_BOOST_PROGRAM_OPTIONS}")
endif()
