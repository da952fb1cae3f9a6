#pragma once
// What this CPU offers the network's arithmetic. Apart from nn/torch_library.cpp, so that
// libmorne_torch.so, which asks it too, does not carry a copy of the library's loader.

namespace morne::nn {

// Whether this CPU has the AVX-512 BF16 instructions that Network::useBFloat16 needs.
bool cpuHasBFloat16();

}  // namespace morne::nn
