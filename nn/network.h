#pragma once
// The policy-value network, behind a LibTorch-free facade: everything that includes LibTorch
// is in nn/torch/, so the rest of morne compiles in seconds.
//
// Architecture (AlphaZero-style, sized for CPUs): a 3x3 convolution from the observation planes
// to `channels`, plus a linear projection of the global features added to every square; then
// `blocks` residual blocks (3x3 conv, batch norm, ReLU, 3x3 conv, batch norm, skip, ReLU).
// Policy head: a 1x1 convolution to the action planes (one logit per plane and square) and, from
// the pooled trunk, two logits for "end" and "hold" (nn/policy_layout.h). Value head: global
// average pooling and the global features, a hidden layer of `value_hidden` units, tanh: the
// expected result for the side to move, in [-1, 1]. Auxiliary heads, trained but not used in
// play (nn/learner.h): from the value head's hidden layer, the final victory-point margin
// (linear) and kShortValueOutputs short-term values (tanh); from the trunk, a 1x1 convolution
// to the final control of each square (tanh).
//
// No weight depends on the map's width and height. A network made for one scenario
// (`morne nn init --scenario S`) plays the maps of that grid; an any-map network (`nn init
// --any-scenario`) plays every map whose guns its fire planes cover: it multiplies the trunk by
// the observation's on_map plane after the stem and after each block, and its pooling averages
// over the map's hexes only, so cells outside the map change nothing.

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "nn/observation.h"

namespace morne::nn {

// The short-term value outputs (training/record.h: kShortValueHorizons).
inline constexpr int kShortValueOutputs = 3;

// The size of a fresh network: the defaults and bounds of its three figures, declared once for
// every place that makes or checks one (`nn init`, `train`, `loop`, network files).
struct NetworkSize {
  int blocks = 4;         // residual blocks of the trunk
  int channels = 32;      // channels of the trunk
  int value_hidden = 64;  // hidden units of the value head
};
inline constexpr NetworkSize kDefaultNetworkSize;
inline constexpr int kMaxBlocks = 64;         // blocks: 0..kMaxBlocks
inline constexpr int kMaxChannels = 1024;     // channels: 1..kMaxChannels
inline constexpr int kMaxValueHidden = 4096;  // value_hidden: 1..kMaxValueHidden

struct NetworkConfig {
  // planes, height, width, globals (from ObservationEncoder); height and width are 0 for an
  // any-map network.
  ObservationShape input;
  int policy_planes = 0;  // action planes (PolicyLayout::planes())
  int blocks = kDefaultNetworkSize.blocks;
  int channels = kDefaultNetworkSize.channels;
  int value_hidden = kDefaultNetworkSize.value_hidden;
  bool aux_heads = true;  // the auxiliary heads (networks saved before them have none)
  int encoder_version = kEncoderVersion;
  // The scenario it was made for (its map size and action planes); "any" for an any-map
  // network.
  std::string scenario;
  // How the weights were made, as JSON (`morne train`: data, steps, final metrics); empty
  // for a fresh network. Saved with them, shown by `morne nn info`.
  std::string provenance;

  // Whether it plays every map size (any-map network) rather than its scenario's.
  bool anyMap() const { return input.height == 0; }
  // Number of policy entries on a map grid of height x width.
  int policySize(int height, int width) const { return policy_planes * height * width + 2; }
};

// The name an any-map network gives as its scenario.
inline constexpr const char* kAnyScenario = "any";

// The config of a network for `scenario`: its observation shape, action planes and name, with
// the default size (callers set blocks, channels and value_hidden after, when they differ).
NetworkConfig networkConfigFor(const env::Scenario& scenario);
// The config of an any-map network whose fire planes cover the longest gun range of the
// built-in scenarios, with the default size.
NetworkConfig anyMapNetworkConfig();

// Throws ConfigError, naming both, when a network of `config` cannot play `scenario`: another
// observation, a map-bound network on another grid or action space, an any-map network whose
// fire planes do not reach the scenario's guns.
void checkNetworkFits(const NetworkConfig& config, const env::Scenario& scenario);
// The built-in scenarios a network of `config` plays.
std::vector<std::string> builtinScenariosPlayed(const NetworkConfig& config);

// The config as saved with the weights (JSON, with its "format"), and read back: ConfigError
// naming `path` and the field when one is missing, of the wrong type or out of its range, or
// when the format is not one this morne reads.
nlohmann::json networkConfigJson(const NetworkConfig& c);
NetworkConfig networkConfigFromJson(const nlohmann::json& saved, const std::string& path);

class Network {
 public:
  // A freshly initialised network (weights drawn from `seed`).
  static std::unique_ptr<Network> create(const NetworkConfig& config, uint64_t seed);
  // Loads a network saved by save(). One saved for the encoder version before this one comes in
  // this encoder's form: the inputs added since enter with weight 0, so it computes what it did
  // (`morne nn upgrade` writes it so). Throws IoError (unreadable file) or ConfigError (not a
  // morne network, made with an older encoder version, weights that are NaN or infinite, or
  // weights that do not match the checksum saved with them).
  static std::unique_ptr<Network> load(const std::string& path);
  // The map-bound network saved at `path` as an any-map network (a large map's training may
  // start from what a small map taught): the same weights and checksum, the config made any-map,
  // the provenance naming the file and its scenario. On a map that fills its grid (every
  // built-in scenario) it gives the outputs of the original up to rounding. Throws as load(),
  // and ConfigError for a network that is already any-map.
  static std::unique_ptr<Network> loadAsAnyMap(const std::string& path);
  // The weighted mean of the networks saved at `paths` (every parameter and floating-point
  // buffer, the batch-norm statistics included; `weights` need not sum to 1): an exponential
  // moving average of recent snapshots, as KataGo stabilises the network it plays. The config
  // (and provenance) is the first network's. Throws as load(), and ConfigError when their
  // configs differ or a weight is not positive.
  static std::unique_ptr<Network> average(std::span<const std::string> paths,
                                          std::span<const double> weights);

  virtual ~Network() = default;

  // Writes the weights and the config to `path` (a temporary file, then renamed).
  virtual void save(const std::string& path) const = 0;

  // Evaluates `batch` observations of `shape` (the network's planes and globals; its own grid,
  // or any grid for an any-map network): `planes` holds batch x shape.planeSize() floats,
  // `globals` batch x shape.globals; writes batch x policySize(height, width) policy logits and
  // batch values. Throws Error when an output is NaN or infinite. Not thread-safe: one caller
  // at a time.
  virtual void evaluate(int batch, const ObservationShape& shape, std::span<const float> planes,
                        std::span<const float> globals, std::span<float> policy_logits,
                        std::span<float> values) = 0;

  // The auxiliary heads' outputs for `batch` observations (as evaluate()): batch margins (in
  // units of the training's margin scale), batch x height x width final control and
  // batch x kShortValueOutputs short-term values, all for the side to move. Throws ConfigError
  // for a network without them (config().aux_heads false).
  virtual void evaluateAuxiliary(int batch, const ObservationShape& shape,
                                 std::span<const float> planes, std::span<const float> globals,
                                 std::span<float> margin, std::span<float> control,
                                 std::span<float> short_value) = 0;

  // From now on evaluates in bfloat16: LibTorch's CPU autocast runs the convolutions and
  // products on bfloat16 inputs (outputs about 1e-2 from float32's), about a third faster where
  // the CPU has AVX-512 BF16 instructions (docs/agents.md). Throws ConfigError on a CPU without
  // them (cpuHasBFloat16), where they would be emulated, slower than float32.
  virtual void useBFloat16() = 0;

  virtual const NetworkConfig& config() const = 0;
  // The checksum of the weights (64-bit FNV-1a over every tensor), saved with them and checked
  // on load.
  virtual uint64_t checksum() const = 0;
  // Number of trainable parameters.
  virtual int64_t parameters() const = 0;
  // Every parameter and floating-point buffer, in registration order, as one list of values
  // (for checks and tools).
  virtual std::vector<float> weightValues() const = 0;
};

// Applies the LibTorch settings that matter on small CPUs (docs/agents.md): `threads` intra-op
// threads, OpenBLAS kept to one thread of its own, and glibc malloc keeping activation buffers
// instead of mapping and unmapping them on every forward pass. Call once at start-up.
void configureTorchRuntime(int threads);

// The LibTorch library in use: "LibTorch 1.13.0, CPU, 1 intra-op thread(s)".
std::string torchRuntimeText();

}  // namespace morne::nn
