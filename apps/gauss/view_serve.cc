// `gauss view MODEL --serve PORT`: the viewer page served by gauss while it simulates (view.h).
//
// A small HTTP/1.1 server (Boost.Beast, one request per connection, each on its own short-lived
// thread so that an idle connection, e.g. a browser's speculative preconnect, cannot stall the
// others; one mutex serialises the simulation). The page polls GET /state; each poll first
// advances the simulation by the wall time since the previous one when it is playing (real
// time), so the simulation runs here and the page only draws. Commands are GET /command?op=play|pause|step|reset|set&key=K&value=V, answered with
// the new state; a bad --set value answers 400 with the engine's message and keeps the old
// engine.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "gauss/error.h"
#include "view.h"

namespace gauss::cli {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// At most this much simulated time per poll, so that a slow model or a page in a background
// tab does not make one request take forever.
constexpr double kMaxSimulatedPerPoll = 0.25;

// The live simulation: the engine is rebuilt from the command line's --config/--set plus the
// settings made from the page.
class LiveSimulation {
 public:
  explicit LiveSimulation(const CommonArgs& args)
      : args_(args), model_(LoadModelFile(args.model)) {
    Rebuild();
    d_ = engine_->MakeData();
  }

  // Advances by the wall time since the previous call when playing (wall time => steps). The
  // clock starts at the first request, so nothing runs before anyone watches.
  void Advance() {
    const Clock::time_point now = Clock::now();
    const double wall = started_ ? std::chrono::duration<double>(now - last_).count() : 0.0;
    started_ = true;
    last_ = now;
    if (paused_) return;
    const double h = engine_->options().timestep;
    const long n = static_cast<long>(std::min(wall, kMaxSimulatedPerPoll) / h);
    for (long i = 0; i < n; ++i) StepOnce();
  }

  // (op, key, value) => "" on success, else the error message. Reads and writes the state.
  std::string Command(const std::string& op, const std::string& key, const std::string& value) {
    if (op == "play") {
      paused_ = false;
    } else if (op == "pause") {
      paused_ = true;
    } else if (op == "step") {
      paused_ = true;
      StepOnce();
    } else if (op == "reset") {
      engine_->Reset(d_);
      steps_ = 0;
    } else if (op == "set") {
      return Set(key, value);
    } else {
      return "unknown op '" + op + "': expected play, pause, step, reset or set";
    }
    return "";
  }

  // The state JSON: time, steps, paused, summary (solver etc.), poses, skins, cameras and
  // contacts.
  std::string StateJson() {
    engine_->Forward(d_);  // the poses and contacts of the current state, not the last step's
    std::string out = "{\"time\":" + Number(d_.time) + ",\"steps\":" + std::to_string(steps_) +
                      ",\"paused\":" + (paused_ ? "true" : "false") +
                      ",\"summary\":" + JsonString(summary_) + ",\"poses\":[";
    AppendBodyPoses(engine_->model(), d_, out);
    out += "],\"skins\":[";
    AppendSkinVertices(engine_->model(), d_, out);
    out += "],\"cameras\":[";
    AppendCameraPoses(engine_->model(), d_, out);
    out += "],\"contacts\":" + ContactsJson(engine_->model(), d_) + "}";
    return out;
  }

  // The page's scene JSON: the model and its pose at the reference configuration, starting
  // with the view of model camera `camera` (-1: the free camera).
  std::string SceneJson(int camera) {
    Data rest = engine_->MakeData();
    engine_->Forward(rest);
    std::string out = "{\"live\":true,\"camera\":" + std::to_string(camera) +
                      ",\"model\":" + ModelJson(engine_->model(), args_.model);
    out += ",\"rest\":[";
    AppendBodyPoses(engine_->model(), rest, out);
    out += "],\"restSkins\":[";
    AppendSkinVertices(engine_->model(), rest, out);
    out += "],\"restCameras\":[";
    AppendCameraPoses(engine_->model(), rest, out);
    return out + "],\"trajectories\":[]}";
  }

  const std::string& model_name() const { return engine_->model().name; }
  const Model& model() const { return engine_->model(); }

 private:
  static std::string Number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
  }

  void StepOnce() {
    engine_->Step(d_);
    ++steps_;
  }

  // Builds engine_ from args_ (throws gauss::Error on a bad setting).
  void Rebuild() {
    auto engine = std::make_unique<Engine>(model_, BuildConfig(args_));
    summary_ = ConfigSummary(ResolvedConfigYaml(engine->config(), engine->options()));
    engine_ = std::move(engine);
  }

  // Applies --set key=value to a new engine carrying the current state over.
  std::string Set(const std::string& key, const std::string& value) {
    if (key.empty()) return "set needs a key";
    args_.sets.push_back(key + "=" + value);
    try {
      Rebuild();
    } catch (const std::exception& e) {
      args_.sets.pop_back();
      return e.what();
    }
    Data next = engine_->MakeData();
    next.time = d_.time;
    next.qpos = d_.qpos;
    next.qvel = d_.qvel;
    next.act = d_.act;
    d_ = std::move(next);
    return "";
  }

  CommonArgs args_;
  std::shared_ptr<const Model> model_;
  std::unique_ptr<Engine> engine_;
  Data d_;
  std::string summary_;
  bool paused_ = false;
  bool started_ = false;
  long steps_ = 0;
  Clock::time_point last_;
};

// "%2F" and "+" decoded; malformed escapes are kept as they are.
std::string UrlDecode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// "/path?a=1&b=2" => path and the decoded parameters.
std::string SplitTarget(const std::string& target, std::map<std::string, std::string>& params) {
  const std::size_t q = target.find('?');
  if (q == std::string::npos) return target;
  std::size_t start = q + 1;
  while (start <= target.size()) {
    std::size_t end = target.find('&', start);
    if (end == std::string::npos) end = target.size();
    const std::string pair = target.substr(start, end - start);
    const std::size_t eq = pair.find('=');
    if (!pair.empty()) {
      params[UrlDecode(pair.substr(0, eq))] = eq == std::string::npos ? "" : UrlDecode(pair.substr(eq + 1));
    }
    start = end + 1;
  }
  return target.substr(0, q);
}

// (request) => response for the page, the state or a command; the caller holds the simulation's
// lock.
http::response<http::string_body> Handle(const http::request<http::string_body>& req,
                                         LiveSimulation& sim, const std::string& page) {
  std::map<std::string, std::string> params;
  const std::string path = SplitTarget(std::string(req.target()), params);
  http::response<http::string_body> res{http::status::ok, req.version()};
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(false);
  res.set(http::field::content_type, "application/json");
  if (req.method() != http::verb::get) {
    res.result(http::status::method_not_allowed);
    res.body() = "{\"error\":\"only GET\"}";
  } else if (path == "/" || path == "/index.html") {
    res.set(http::field::content_type, "text/html; charset=utf-8");
    res.body() = page;
  } else if (path == "/state") {
    sim.Advance();
    res.body() = sim.StateJson();
  } else if (path == "/command") {
    sim.Advance();
    const std::string error = sim.Command(params["op"], params["key"], params["value"]);
    if (error.empty()) {
      res.body() = sim.StateJson();
    } else {
      res.result(http::status::bad_request);
      res.body() = "{\"error\":" + JsonString(error) + "}";
    }
  } else {
    res.result(http::status::not_found);
    res.body() = "{\"error\":\"not found\"}";
  }
  res.prepare_payload();
  return res;
}

}  // namespace

int ServeViewer(const CommonArgs& args, const std::string& bind, int port,
                const std::string& camera) {
  LiveSimulation sim(args);
  const std::string page = ViewerPageHtml("Gauss live: " + sim.model_name(),
                                          sim.SceneJson(ViewCameraIndex(sim.model(), camera)));
  asio::io_context io;
  boost::system::error_code ec;
  const asio::ip::address address = asio::ip::make_address(bind, ec);
  if (ec) throw UsageError("--bind: '" + bind + "' is not an IP address");
  tcp::acceptor acceptor(io);
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw Error("cannot listen on " + bind + ":" + std::to_string(port) + ": " + ec.message());
  if (!address.is_loopback()) {
    std::cerr << "gauss view: warning: listening on " << bind
              << ", not loopback: anyone who can reach it can control the simulation\n";
  }
  std::printf("serving: http://%s:%d/\n", bind.c_str(), acceptor.local_endpoint().port());
  std::fflush(stdout);  // a script waiting for the address reads it now
  std::mutex sim_mutex;
  // Serves one connection: reads the request, answers under the lock, closes.
  auto serve = [&sim, &sim_mutex, &page](tcp::socket socket) {
    boost::system::error_code error;
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> req;
    http::read(socket, buffer, req, error);
    if (error) return;  // a client that hung up or sent garbage
    http::response<http::string_body> res;
    try {
      std::lock_guard<std::mutex> lock(sim_mutex);
      res = Handle(req, sim, page);
    } catch (const std::exception& e) {  // e.g. a plugin failing mid-step: report, keep serving
      res = http::response<http::string_body>{http::status::internal_server_error, req.version()};
      res.set(http::field::content_type, "application/json");
      res.body() = "{\"error\":" + JsonString(e.what()) + "}";
      res.prepare_payload();
    }
    http::write(socket, res, error);
    socket.shutdown(tcp::socket::shutdown_send, error);
  };
  // Runs until the process is stopped: sim, the mutex and the page outlive every thread.
  for (;;) {
    tcp::socket socket(io);
    acceptor.accept(socket, ec);
    if (ec) continue;
    std::thread(serve, std::move(socket)).detach();
  }
}

}  // namespace gauss::cli
