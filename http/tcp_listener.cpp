#include "http/tcp_listener.h"

#include <algorithm>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "env/error.h"

namespace morne::http {

namespace net = boost::asio;
using tcp = net::ip::tcp;

TcpListener::TcpListener(const std::string& host, int port, int threads, const std::string& what)
    : threads_(std::max(1, threads)), ioc_(threads_), acceptor_(ioc_), retry_(ioc_) {
  boost::system::error_code ec;
  const auto address = net::ip::make_address(host, ec);
  if (ec) throw ConfigError(what + "--host " + host + " is not an IP address");
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    throw IoError(what + "cannot listen on " + host + ":" + std::to_string(port) + ": " +
                  ec.message());
  }
}

int TcpListener::port() const { return acceptor_.local_endpoint().port(); }

void TcpListener::accept() {
  acceptor_.async_accept(
      net::make_strand(ioc_), [this](boost::system::error_code ec, tcp::socket socket) {
        if (ec == net::error::operation_aborted) return;
        if (ec) {  // out of descriptors: connections that close meanwhile free some
          if (hooks_.accept_failed) hooks_.accept_failed();
          backoff_ms_ = std::clamp(backoff_ms_ * 2, 10, 1000);
          retry_.expires_after(std::chrono::milliseconds(backoff_ms_));
          retry_.async_wait([this](boost::system::error_code wait_ec) {
            if (!wait_ec) accept();
          });
          return;
        }
        backoff_ms_ = 0;
        boost::system::error_code peer_ec;
        const std::string peer = socket.remote_endpoint(peer_ec).address().to_string();
        if (!peer_ec && hooks_.admit(peer)) hooks_.serve(std::move(socket), peer);
        // else the socket closes here
        accept();
      });
}

void TcpListener::run(const std::atomic<bool>& stop, ListenerHooks hooks) {
  hooks_ = std::move(hooks);
  accept();
  std::vector<std::thread> threads;
  for (int i = 0; i < threads_; ++i) threads.emplace_back([this] { ioc_.run(); });
  while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ioc_.stop();
  for (std::thread& t : threads) t.join();
}

}  // namespace morne::http
