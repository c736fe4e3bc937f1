// plugin_names.cpp: the naming rule for plugins, workloads and variants.
#include "load/plugin_names.hpp"

#include <algorithm>

namespace plugbench {
namespace {

bool lower_or_digit(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

}  // namespace

bool valid_plugin_name(std::string_view name) {
  return !name.empty() && name.size() <= kMaxNameBytes &&
         std::all_of(name.begin(), name.end(),
                     [](char c) { return lower_or_digit(c) || c == '_'; });
}

std::string kernel_name_problem(std::string_view name) {
  const std::string rule = "names are 1 to " + std::to_string(kMaxNameBytes) +
                           " of A-Z a-z 0-9 _ . + -, not starting with '-', and not 'all'";
  if (name.empty()) return "empty; " + rule;
  if (name.size() > kMaxNameBytes) return "too long; " + rule;
  const bool allowed = std::all_of(name.begin(), name.end(), [](char c) {
    return lower_or_digit(c) || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '+' ||
           c == '-';
  });
  if (!allowed) return "a character outside the rule; " + rule;
  if (name.front() == '-') return "starts with '-'; " + rule;
  if (name == "all") return "'all' is reserved for every variant; " + rule;
  return "";
}

}  // namespace plugbench
