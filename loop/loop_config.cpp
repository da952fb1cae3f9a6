#include "loop/loop_config.h"

#include <iostream>

namespace morne::loop {

void RoleContext::say(const std::string& line) const {
  std::cout << line << "\n" << std::flush;
  folder.log(line);
}

std::string withModel(const std::string& spec, const std::string& path) {
  return spec + (spec.find(':') == std::string::npos ? ":" : ",") + "model=" + path;
}

}  // namespace morne::loop
