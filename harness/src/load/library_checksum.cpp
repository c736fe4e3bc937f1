// library_checksum.cpp: the CRC-32 of a library file (Boost.CRC), read in 1 MiB pieces.
#include "load/library_checksum.hpp"

#include <boost/crc.hpp>

#include <cstdio>
#include <fstream>
#include <vector>

namespace plugbench {

std::string library_checksum(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return "";
  boost::crc_32_type crc;
  std::vector<char> buffer(std::size_t{1} << 20);
  while (file.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) ||
         file.gcount() > 0) {
    crc.process_bytes(buffer.data(), static_cast<std::size_t>(file.gcount()));
    if (!file) break;
  }
  if (file.bad()) return "";
  char text[16];
  std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(crc.checksum()));
  return std::string("crc32:") + text;
}

}  // namespace plugbench
