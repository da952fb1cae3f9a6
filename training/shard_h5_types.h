#pragma once
// The HDF5 type of each element type of the shard schema (training/shard_schema.h). Included by
// the shard's writer and reader only: HDF5 stays inside them.

#include <H5Cpp.h>

#include <cstdint>
#include <type_traits>

#include "training/shard_schema.h"

namespace morne::training {

template <typename T>
const H5::PredType& h5TypeOf() {
  if constexpr (std::is_same_v<T, float>) {
    return H5::PredType::NATIVE_FLOAT;
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return H5::PredType::NATIVE_UINT8;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return H5::PredType::NATIVE_INT8;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return H5::PredType::NATIVE_INT16;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return H5::PredType::NATIVE_INT32;
  } else {
    static_assert(std::is_same_v<T, uint64_t>, "an element type the shard schema does not use");
    return H5::PredType::NATIVE_UINT64;
  }
}

// The HDF5 type of a dataset's elements.
inline const H5::PredType& h5Type(const ShardDataset& d) {
  return std::visit(
      [](auto member) -> const H5::PredType& {
        return h5TypeOf<typename ShardElement<decltype(member)>::type>();
      },
      d.field);
}

}  // namespace morne::training
