// main.cpp: the harness executable.
#include "harness_app.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  try {
    return plugbench::run_harness(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "harness: internal error: " << e.what() << "\n";
    return plugbench::kExitOutputError;
  }
}
