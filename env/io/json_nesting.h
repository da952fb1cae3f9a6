#pragma once
// Bounds on JSON documents read from outside (scenario files, saved states, protocol requests).
// A recursive walk of a document nested tens of thousands of levels deep (nlohmann's
// serializer, our validators) overflows the stack, so readers measure the nesting with one
// flat scan before parsing, and refuse what is too deep with a precise error.

#include <cstddef>
#include <string_view>

namespace morne::env {

// The deepest nesting of arrays and objects any document morne reads may have. Scenarios and
// saved states need 6.
inline constexpr size_t kMaxJsonNesting = 64;

// The deepest nesting of arrays and objects in `text`, counting brackets outside strings.
// Linear in the text; well defined for any bytes, valid JSON or not.
size_t jsonNestingDepth(std::string_view text);

}  // namespace morne::env
