#pragma once
// The one TCP listener of the project's servers (http/http_server.h, server/web_server.h):
// binds an address, accepts connections (after a failed accept, out of file descriptors, it
// waits on a timer, 10 ms doubling to 1 s, rather than spinning or sleeping on a network
// thread), asks the server whether to keep each peer, and runs the socket threads until
// stopped. Boost.Asio is in this header: include it only from a server's .cpp.

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <string>

namespace morne::http {

// What a server does with the connections a listener accepts.
struct ListenerHooks {
  // Whether to keep a connection from address `peer` (the server counts it when it does); a
  // refused socket is closed at once.
  std::function<bool(const std::string& peer)> admit;
  // Takes an admitted connection; its socket runs on a strand of the listener's context.
  std::function<void(boost::asio::ip::tcp::socket socket, const std::string& peer)> serve;
  // Told of each failed accept (optional).
  std::function<void()> accept_failed;
};

class TcpListener {
 public:
  // Binds `host`:`port` (0: any free port) for a server answering on `threads` threads; `what`
  // starts the errors' text ("serve: "). Throws ConfigError when `host` is not an IP address,
  // IoError when it cannot listen (a port in use).
  TcpListener(const std::string& host, int port, int threads, const std::string& what);
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  // The context the connections' sockets and timers run on.
  boost::asio::io_context& context() { return ioc_; }
  // The port bound (the one chosen when asked for 0).
  int port() const;
  // Accepts and serves through `hooks` until `stop` becomes true, then stops the context (its
  // pending handlers, and the connections they hold, are destroyed with the listener).
  void run(const std::atomic<bool>& stop, ListenerHooks hooks);

 private:
  void accept();

  int threads_;
  ListenerHooks hooks_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_;  // waits before accepting again after a failed accept
  int backoff_ms_ = 0;
};

}  // namespace morne::http
