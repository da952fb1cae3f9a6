// `morne nn init|info|upgrade`: create a policy-value network for a scenario or for any map
// (random weights, the starting point of training), describe a network file, or rewrite one
// saved for an earlier observation encoder in the current encoder's form.

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/options.h"
#include "env/error.h"
#include "env/io/scenario_library.h"
#include "nn/network.h"

namespace morne::cli {

namespace {

void describe(const nn::Network& net) {
  const nn::NetworkConfig& c = net.config();
  std::string plays;
  for (const std::string& name : nn::builtinScenariosPlayed(c))
    plays += (plays.empty() ? "" : ", ") + name;
  std::cout << "scenario:        " << c.scenario << "\n"
            << "plays:           " << (plays.empty() ? "no built-in scenario" : plays)
            << (c.anyMap() ? ", and any map whose guns its action planes cover"
                           : " (the scenarios of its map size and action planes)")
            << "\n"
            << "input:           " << c.input.planes << " planes x "
            << (c.anyMap() ? std::string("any map")
                           : std::to_string(c.input.height) + " x " + std::to_string(c.input.width))
            << ", " << c.input.globals << " global features (encoder version " << c.encoder_version
            << ")\n"
            << "trunk:           " << c.blocks << " residual blocks x " << c.channels
            << " channels\n"
            << "policy:          "
            << (c.anyMap()
                    ? std::string("per map: ")
                    : std::to_string(c.policySize(c.input.height, c.input.width)) + " entries (")
            << c.policy_planes << " action planes x height x width + end, hold"
            << (c.anyMap() ? "" : ")") << "\n"
            << "value head:      " << c.value_hidden << " hidden units\n"
            << "parameters:      " << net.parameters() << "\n"
            << "weights:         all finite, checksum " << std::hex << std::setw(16)
            << std::setfill('0') << net.checksum() << std::dec << std::setfill(' ') << "\n";
  const nlohmann::json provenance = nlohmann::json::parse(c.provenance, nullptr, false);
  std::cout << "provenance:      "
            << (c.provenance.empty()        ? "none (fresh weights)"
                : provenance.is_discarded() ? c.provenance
                                            : provenance.dump(2))
            << "\n";
}

// Writes `net` to `out` (its folders created) unless `out` exists and `force` is not given,
// then describes it.
void writeNetwork(const nn::Network& net, const std::string& verb, const std::string& out,
                  bool force) {
  const std::filesystem::path parent = std::filesystem::path(out).parent_path();
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !force) {
    throw ConfigError("nn " + verb + ": " + out + " already exists; give --force to replace it");
  }
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec)
    throw IoError("nn " + verb + ": cannot create folder " + parent.string() + ": " + ec.message());
  net.save(out);
  describe(net);
  std::cout << "wrote " << out << "\n";
}

}  // namespace

int runNn(const Args& args) {
  po::options_description own("Options of `morne nn init|info|upgrade`");
  // clang-format off
  own.add_options()
      ("scenario", po::value<std::string>()->default_value(env::kDefaultScenario),
       "init: built-in scenario name or scenario file the network plays")
      ("any-scenario", po::bool_switch(),
       "init: a network for every map size (its fire planes cover the built-in scenarios' "
       "guns) instead of one scenario's")
      ("blocks", po::value<int>()->default_value(nn::kDefaultNetworkSize.blocks),
       "init: residual blocks")
      ("channels", po::value<int>()->default_value(nn::kDefaultNetworkSize.channels),
       "init: channels of the trunk")
      ("value-hidden", po::value<int>()->default_value(nn::kDefaultNetworkSize.value_hidden),
       "init: hidden units of the value head")
      ("from", po::value<std::string>(),
       "init --any-scenario: the weights of this map-bound network (a warm start for other "
       "maps) instead of fresh ones")
      ("seed", po::value<uint64_t>()->default_value(1), "init: seed of the initial weights")
      ("out", po::value<std::string>(),
       "init, upgrade: network file to write (folders are created)")
      ("force", po::bool_switch(), "init, upgrade: replace an existing network file");
  // clang-format on
  const ParsedCommand cmd = parseCommand("nn", args, own, 2);
  if (cmd.help || cmd.positional.empty()) {
    std::cout << usageText(
        "morne nn init --out FILE [options]  |  morne nn info FILE  |  "
        "morne nn upgrade FILE --out FILE",
        own);
    return cmd.help ? 0 : 1;
  }
  const auto& vm = cmd.vm;
  if (cmd.positional[0] == "info") {
    if (cmd.positional.size() != 2) throw ConfigError("nn info: give one network file");
    describe(*nn::Network::load(cmd.positional[1]));
    return 0;
  }
  if (cmd.positional[0] == "upgrade") {
    // Loading converts a network of an earlier encoder (nn/network.h); saving keeps that form.
    if (cmd.positional.size() != 2) throw ConfigError("nn upgrade: give one network file");
    if (!vm.count("out")) throw ConfigError("nn upgrade: give --out FILE");
    writeNetwork(*nn::Network::load(cmd.positional[1]), "upgrade", vm["out"].as<std::string>(),
                 vm["force"].as<bool>());
    return 0;
  }
  if (cmd.positional[0] != "init") {
    throw ConfigError("nn: unknown action \"" + cmd.positional[0] +
                      "\" (available: init, info, upgrade)");
  }
  if (!vm.count("out")) throw ConfigError("nn init: give --out FILE");
  const bool any = vm["any-scenario"].as<bool>();
  if (any && !vm["scenario"].defaulted())
    throw ConfigError("nn init: give --scenario or --any-scenario, not both");
  if (vm.count("from") && !any)
    throw ConfigError("nn init: --from makes an any-map network: give --any-scenario with it");
  std::unique_ptr<nn::Network> net;
  if (vm.count("from")) {
    for (const char* size : {"blocks", "channels", "value-hidden", "seed"}) {
      if (!vm[size].defaulted())
        throw ConfigError(std::string("nn init: --from keeps the network's size and weights: "
                                      "no --") +
                          size);
    }
    net = nn::Network::loadAsAnyMap(vm["from"].as<std::string>());
  } else {
    nn::NetworkConfig c =
        any ? nn::anyMapNetworkConfig()
            : nn::networkConfigFor(*env::loadScenario(vm["scenario"].as<std::string>()));
    c.blocks = vm["blocks"].as<int>();
    c.channels = vm["channels"].as<int>();
    c.value_hidden = vm["value-hidden"].as<int>();
    auto check = [](const char* name, int value, int lo, int hi) {
      if (value < lo || value > hi) {
        throw ConfigError("nn init: --" + std::string(name) + " must be in " + std::to_string(lo) +
                          ".." + std::to_string(hi));
      }
    };
    check("blocks", c.blocks, 0, nn::kMaxBlocks);
    check("channels", c.channels, 1, nn::kMaxChannels);
    check("value-hidden", c.value_hidden, 1, nn::kMaxValueHidden);
    net = nn::Network::create(c, vm["seed"].as<uint64_t>());
  }
  writeNetwork(*net, "init", vm["out"].as<std::string>(), vm["force"].as<bool>());
  return 0;
}

}  // namespace morne::cli
