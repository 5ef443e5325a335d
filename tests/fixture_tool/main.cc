// rocewatch-fixture: writes the sysfs tree of a simulated RDMA host, for demos, e2e tests and
// benchmarks.
//   rocewatch-fixture example-8-rail DIR   the bundled example node (mlx5_3 drifted): DIR/sys, and
//                                          DIR/{etc,run,proc} (support/example_node.h)
//   rocewatch-fixture rails N DIR          DIR/sys: a healthy node of N rails (1..256)
//   rocewatch-fixture full-tables N P DIR  DIR/sys: N devices (1..256) of P ports (1..4), every
//                                          GID slot used (the scale case: 64 2)
// Exit status: 0 written, 1 write failure, 2 usage error.

#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "support/example_node.h"
#include "support/sysfs_fixture.h"

namespace {

constexpr int kMaxRails = 256;
constexpr int kMaxPorts = 4;

// A whole number in 1..max, or nullopt.
std::optional<int> ParseCount(std::string_view text, int max) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > max)
    return std::nullopt;
  return value;
}

int Usage(const char* message) {
  std::fprintf(stderr,
               "rocewatch-fixture: %s\n"
               "usage: rocewatch-fixture example-8-rail DIR\n"
               "       rocewatch-fixture rails N DIR      (N in 1..%d)\n"
               "       rocewatch-fixture full-tables N P DIR   (P ports each, every GID slot)\n"
               "Writes DIR/sys/class/{infiniband,net}/... of a simulated RoCE host.\n",
               message, kMaxRails);
  return 2;
}

// Writes DIR/sys, and with `example_host` the example's DIR/{etc,run,proc} too.
int Write(const std::string& dir, const std::vector<rocewatch::FixtureDevice>& devices,
          bool example_host = false) {
  const std::string sysfs_root = dir + "/sys";
  rocewatch::Status status = rocewatch::WriteSysfsFixture(sysfs_root, devices);
  if (status.ok() && example_host) status = rocewatch::WriteExampleHostConfiguration(dir);
  if (!status.ok()) {
    std::fprintf(stderr, "rocewatch-fixture: %s\n", status.ToString().c_str());
    return 1;
  }
  std::printf("%s: %zu RDMA devices\n", sysfs_root.c_str(), devices.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage("missing command");
  const std::string_view command = argv[1];
  if (command == "example-8-rail") {
    if (argc != 3) return Usage("example-8-rail takes exactly one DIR");
    return Write(argv[2], rocewatch::ExampleEightRailNode(), /*example_host=*/true);
  }
  if (command == "rails") {
    if (argc != 4) return Usage("rails takes N and DIR");
    const std::string_view n_text = argv[2];
    int rails = 0;
    auto [end, ec] = std::from_chars(n_text.data(), n_text.data() + n_text.size(), rails);
    if (ec != std::errc() || end != n_text.data() + n_text.size() || rails < 1 ||
        rails > kMaxRails) {
      return Usage("N must be a whole number of rails in 1..256");
    }
    return Write(argv[3], rocewatch::RailNode(rails));
  }
  if (command == "full-tables") {
    if (argc != 5) return Usage("full-tables takes N, P and DIR");
    std::optional<int> devices = ParseCount(argv[2], kMaxRails);
    std::optional<int> ports = ParseCount(argv[3], kMaxPorts);
    if (!devices || !ports) return Usage("N must be in 1..256 and P in 1..4");
    return Write(argv[4], rocewatch::FullTableNode(*devices, *ports));
  }
  return Usage(("unknown command '" + std::string(command) + "'").c_str());
}
