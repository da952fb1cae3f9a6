#pragma once
// Validating JSON reader shared by the scenario and state loaders. Walks a document while
// remembering the JSON pointer of the current place, and collects problems instead of stopping
// at the first one. Internal to env/ .cpp files (it pulls in nlohmann/json).

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "env/error.h"

namespace morne::env {

class JsonReader {
 public:
  explicit JsonReader(std::vector<Problem>& problems) : problems_(problems) {}

  // Records a problem at `path`.
  void fail(const std::string& path, std::string message) {
    problems_.push_back({path, std::move(message)});
  }
  bool ok() const { return problems_.empty(); }
  // Number of problems so far (to tell whether one part of a document added any).
  size_t count() const { return problems_.size(); }

  // Pointer of a child: child("/a", "b") == "/a/b", child("/a", 3) == "/a/3".
  static std::string child(const std::string& path, std::string_view key) {
    return path + "/" + std::string(key);
  }
  static std::string child(const std::string& path, size_t index) {
    return path + "/" + std::to_string(index);
  }

  // Checks that `value` is an object whose keys are all in `allowed`; reports each other key.
  bool expectObject(const nlohmann::json& value, const std::string& path,
                    std::initializer_list<std::string_view> allowed) {
    if (!value.is_object()) {
      fail(path, "expected an object, found " + std::string(value.type_name()));
      return false;
    }
    for (auto it = value.begin(); it != value.end(); ++it) {
      bool known = false;
      for (std::string_view k : allowed) known = known || it.key() == k;
      if (!known) fail(child(path, it.key()), "unknown key \"" + it.key() + "\"");
    }
    return true;
  }

  bool expectArray(const nlohmann::json& value, const std::string& path) {
    if (value.is_array()) return true;
    fail(path, "expected an array, found " + std::string(value.type_name()));
    return false;
  }

  // A required member; reports it missing and returns nullptr.
  const nlohmann::json* required(const nlohmann::json& obj, const std::string& path,
                                 std::string_view key) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      fail(path, "missing required key \"" + std::string(key) + "\"");
      return nullptr;
    }
    return &*it;
  }

  // An optional member, or nullptr.
  static const nlohmann::json* optional(const nlohmann::json& obj, std::string_view key) {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  std::optional<std::string> string(const nlohmann::json& v, const std::string& path) {
    if (v.is_string()) return v.get<std::string>();
    fail(path, "expected a string, found " + std::string(v.type_name()));
    return std::nullopt;
  }

  // An integer within [lo, hi].
  std::optional<int> integer(const nlohmann::json& v, const std::string& path, int lo, int hi) {
    if (!v.is_number_integer()) {
      fail(path, "expected an integer, found " + std::string(v.type_name()));
      return std::nullopt;
    }
    if (v.is_number_unsigned() &&
        (hi < 0 || v.get<unsigned long long>() > static_cast<unsigned long long>(hi))) {
      fail(path, "value " + std::to_string(v.get<unsigned long long>()) + " is out of range " +
                     std::to_string(lo) + ".." + std::to_string(hi));
      return std::nullopt;
    }
    const auto x = v.get<long long>();
    if (x < lo || x > hi) {
      fail(path, "value " + std::to_string(x) + " is out of range " + std::to_string(lo) + ".." +
                     std::to_string(hi));
      return std::nullopt;
    }
    return static_cast<int>(x);
  }

  std::optional<bool> boolean(const nlohmann::json& v, const std::string& path) {
    if (v.is_boolean()) return v.get<bool>();
    fail(path, "expected true or false, found " + std::string(v.type_name()));
    return std::nullopt;
  }

 private:
  std::vector<Problem>& problems_;
};

// Parses JSON text; on a syntax error records "line L, column C: ..." and returns nullopt.
std::optional<nlohmann::json> parseJsonText(std::string_view text, std::vector<Problem>& problems);

}  // namespace morne::env
