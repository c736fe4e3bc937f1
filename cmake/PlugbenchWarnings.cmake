# Warnings for everything plugbench compiles; errors too where PLUGBENCH_WERROR is on (CI).
add_library(plugbench_warnings INTERFACE)
target_compile_options(plugbench_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wpedantic>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${PLUGBENCH_WERROR}>>:-Werror>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${PLUGBENCH_WERROR}>>:-Werror=all-warnings>)

# GCC 12 reports false -Wrestrict positives inside std::string's operator+ at -O2 and above
# (GCC bugs 105329 and 105651, fixed in 13).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(plugbench_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
endif()

if(PLUGBENCH_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${PLUGBENCH_SANITIZE}>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=${PLUGBENCH_SANITIZE})
endif()

# A unity build (the ci and sanitize presets: CMAKE_UNITY_BUILD) includes each source into a
# generated one, so GCC takes every class of a source for a header's and warns where it holds a
# type of the source's anonymous namespace: true of a header, not of a source.
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(plugbench_warnings INTERFACE
                         $<$<COMPILE_LANGUAGE:CXX>:-Wno-subobject-linkage>)
endif()
