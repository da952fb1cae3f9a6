// `morne serve`: the browser client and the engine protocol over WebSocket (docs/client.md,
// docs/protocol.md), until Ctrl-C.

#include <iostream>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "core/interrupt.h"
#include "core/version.h"
#include "engine/session.h"
#include "server/web_server.h"

namespace morne::cli {

namespace {

const env::OptionRow<server::ServeConfig> kServeRows[] = {
    {"host", &server::ServeConfig::host, env::anyValue(),
     "address to listen on (127.0.0.1: this machine only; 0.0.0.0: the network)"},
    {"port", &server::ServeConfig::port, {0, 65535}, "port to listen on (0: any free port)"},
    {"max-sessions", &server::ServeConfig::max_sessions, env::atLeast(1),
     "games open at once (one per browser tab); more are refused"},
    {"max-message-bytes",
     &server::ServeConfig::max_message_bytes,
     {64, static_cast<double>(engine::kMaxRequestBytes)},
     "longest request (at most the engine's 4 MiB); a longer one is refused and the game goes "
     "on"},
    {"idle-timeout-s", &server::ServeConfig::idle_timeout_s, env::atLeast(0),
     "a game that sends no message for this long is closed, freeing its place (0: never)"},
    {"max-connections-per-peer", &server::ServeConfig::max_connections_per_peer, env::atLeast(1),
     "connections (files and games) one address may hold at once; more are closed at once"},
    {"allowed-hosts", &server::ServeConfig::allowed_hosts, env::anyValue(),
     "host names, comma-separated, that browsers may use for this server besides its address "
     "and localhost (\"*\": any, for a proxy that checks them)"},
    {"max-search-ms",
     &server::ServeConfig::max_search_ms,
     {1, 3'600'000},
     "longest genmove or analyze; a search is cut there"},
    {"max-search-threads",
     &server::ServeConfig::max_search_threads,
     {1, 256},
     "threads of one search (agent specs asking more get this)"},
    {"max-search-mb",
     &server::ServeConfig::max_search_mb,
     {1, 1 << 20},
     "memory of one search's trees (node pools are cut to fit)"},
    {"search-workers", &server::ServeConfig::search_workers, env::atLeast(0),
     "searches at once across games; the others wait (0: one per core)"},
    {"io-threads", &server::ServeConfig::io_threads, {1, 64}, "threads answering the sockets"},
    {"web", &server::ServeConfig::web_dir, env::anyValue(),
     "serve the client's files from this folder (\"\": the copy built into morne)"},
    {"seed", &server::ServeConfig::seed, env::anyValue(),
     "seed of the games' dice and agents (the k-th game opened gets seed + k)"},
};

}  // namespace

int runServe(const Args& args) {
  po::options_description own("Options of `morne serve`");
  const server::ServeConfig defaults;
  addOptions<server::ServeConfig>(own, kServeRows, defaults);
  const ParsedCommand cmd = parseCommand("serve", args, own, 0);
  if (cmd.help) {
    std::cout << usageText("morne serve [options]   (then open the address it prints)", own)
              << "\nThe browser client plays any scenario against any agent, or watches two "
                 "agents; docs/client.md.\nThe game socket, /ws, speaks the engine protocol of "
                 "docs/protocol.md.\n";
    return 0;
  }
  server::ServeConfig config;
  readOptions<server::ServeConfig>("serve", cmd.vm, kServeRows, config);
  server::WebServer server(config);
  const core::InterruptFlag interrupt;
  std::cout << core::versionLine() << "\n"
            << "serving the morne client at http://"
            << (config.host == "0.0.0.0" ? "127.0.0.1" : config.host) << ":" << server.port()
            << "/  (Ctrl-C stops)\n"
            << "  up to " << config.max_sessions << " games, searches of at most "
            << config.max_search_ms / 1000 << " s, " << config.max_search_threads << " threads and "
            << config.max_search_mb << " MB each; idle games closed after " << config.idle_timeout_s
            << " s\n"
            << std::flush;
  server.run(*interrupt.flag());
  const server::ServerCounters c = server.counters();
  std::cout << "stopped: " << c.sessions_served << " games served, " << c.sessions_refused
            << " refused (max-sessions), " << c.sessions_idle_closed << " closed idle, "
            << c.requests << " requests, " << c.http_requests << " HTTP requests, "
            << c.hosts_refused << " foreign hosts or origins refused, " << c.connections_refused
            << " connections refused (max-connections-per-peer), " << c.accept_failures
            << " failed accepts\n";
  return 0;
}

}  // namespace morne::cli
