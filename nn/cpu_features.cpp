#include "nn/cpu_features.h"

namespace morne::nn {

bool cpuHasBFloat16() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16") != 0;
}

}  // namespace morne::nn
