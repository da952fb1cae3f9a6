#pragma once
// The networks shipped with morne, by name: `az:model=duel` plays models/duel.pt. A model=
// value that holds a '/' or ends in ".pt" is a file path and used as given; any other is a
// shipped model's name, looked up as NAME.pt in the model folders, in order:
//   1. each folder of the environment variable MORNE_MODELS (separated by ':');
//   2. the folders a program adds (addModelFolder: the Python module's own models/);
//   3. models/ beside the folder of the running executable (the source tree, for build/morne);
//   4. share/morne/models/ beside it (an installed morne: bin/morne).

#include <string>
#include <utility>
#include <vector>

namespace morne::agents {

// Adds `folder` to the folders searched after MORNE_MODELS's (once; thread-safe).
void addModelFolder(const std::string& folder);

// The model folders that exist, in the order they are searched.
std::vector<std::string> modelFolders();

// The shipped models found, as (name, file), by name; a name found twice is the first folder's.
std::vector<std::pair<std::string, std::string>> shippedModels();

// Whether a model= value is a file path (it holds a '/' or ends in ".pt") rather than the name
// of a shipped model.
bool isModelPath(const std::string& model);

// The network file `model` names: a path as given, or the shipped model of that name. Throws
// ConfigError for a name no model folder holds, naming the folders searched and the models
// found.
std::string modelFile(const std::string& model);

}  // namespace morne::agents
