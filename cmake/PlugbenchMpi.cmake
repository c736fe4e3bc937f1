# MPI is optional: where it is found (PLUGBENCH_MPI AUTO or ON), the harness joins the ranks of an
# MPI launcher (mpirun -np K harness); without it, the harness runs alone as always.
set(PLUGBENCH_HAVE_MPI OFF)
if(NOT PLUGBENCH_MPI STREQUAL "OFF")
  if(PLUGBENCH_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS C)
  else()
    find_package(MPI COMPONENTS C)
  endif()
  if(MPI_C_FOUND)
    set(PLUGBENCH_HAVE_MPI ON)
    message(STATUS "plugbench: MPI ${MPI_C_VERSION} found, the harness is MPI-aware "
                   "(launcher: ${MPIEXEC_EXECUTABLE})")
  else()
    message(STATUS "plugbench: MPI not found, the harness runs as one rank (install "
                   "libopenmpi-dev for mpirun -np K harness)")
  endif()
endif()
