// Real fixture trees whose files hold what a broken driver, a half-written fixture or a hostile
// container mount can hold: nothing, binary bytes, invalid UTF-8, megabytes, numbers out of range,
// names no interface can have. Each is read by the real PosixFileSystem through the whole daemon
// pipeline and through `rocewatch diagnose --json`: nothing crashes, every scrape is valid UTF-8
// (Prometheus rejects the whole scrape otherwise), the JSON parses, and the rest of the node is
// reported as before.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/utf8.h"
#include "support/golden.h"
#include "support/http_client.h"
#include "support/in_process_daemon.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

struct HostileFile {
  const char* what;
  std::string path;  // below <sysfs>/class/infiniband/mlx5_0
  std::string content;
  bool is_directory_name = false;  // create a directory of that name instead
};

std::vector<HostileFile> HostileFiles() {
  const std::string huge(8 << 20, '7');  // 8 MiB of digits: only the first 64 KiB may be read
  return {
      {"empty state", "ports/1/state", ""},
      {"binary state", "ports/1/state", std::string("\x04\x00:\xff ACT\x01", 9)},
      {"invalid UTF-8 link_layer", "ports/1/link_layer", "Eth\xc0\xafrnet\n"},
      {"invalid UTF-8 fw_ver", "fw_ver", "28.\xff\xfe.1002\n"},
      {"terminal escape in hca_type", "hca_type", "MT\x1b[2J4129\n"},
      {"rate of 8 MiB", "ports/1/rate", huge},
      {"counter of 8 MiB of digits", "ports/1/counters/port_rcv_data", huge},
      {"counter above 2^64", "ports/1/counters/port_xmit_data", "18446744073709551616\n"},
      {"negative counter", "ports/1/hw_counters/out_of_sequence", "-5\n"},
      {"no PMA", "ports/1/counters/symbol_error", "N/A (no PMA)\n"},
      {"binary GID", "ports/1/gids/2", std::string("\0\0\0\0", 4)},
      {"GID with a NUL", "ports/1/gids/3",
       std::string("0000:0000:0000:0000:0000:ffff:0a00\0:0002", 40)},
      {"binary GID type", "ports/1/gid_attrs/types/3", "\xff\xfe\n"},
      {"netdev name too long", "ports/1/gid_attrs/ndevs/3", "a-very-long-interface-name0\n"},
      {"netdev name with a slash", "ports/1/gid_attrs/ndevs/2", "../../etc\n"},
      {"hw counter named in invalid UTF-8", "ports/1/hw_counters/rx_\xff\xfe", "12\n"},
      {"netdev entry with a control byte", "device/net/eth\x01", "", true},
      {"port named in invalid UTF-8", "ports/\xff", "", true},
      {"empty node_guid", "node_guid", ""},
  };
}

class HostileSysfsContentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(2, 16)).ok());
  }
  std::filesystem::path PlantedPath(const HostileFile& file) const {
    return std::filesystem::path(dir_.path()) / "sys/class/infiniband/mlx5_0" / file.path;
  }
  void Plant(const HostileFile& file) {
    std::filesystem::path path = PlantedPath(file);
    if (file.is_directory_name) {
      std::filesystem::create_directories(path);
    } else {
      dir_.WriteFile(std::filesystem::relative(path, dir_.path()).string(), file.content);
    }
  }
  TempDir dir_;
};

TEST_F(HostileSysfsContentTest, EachFileLeavesTheExpositionValidAndTheOtherRailIntact) {
  const std::string root = dir_.path() + "/sys";
  PosixFileSystem fs;
  InProcessDaemon daemon(fs, root);
  ASSERT_TRUE(daemon.Start().ok());
  auto scrape = [&] {
    auto response = HttpGet("127.0.0.1", daemon.port(), "/metrics");
    EXPECT_TRUE(response.ok() && response->status == 200);
    return response.ok() ? response->body : std::string();
  };
  const std::string baseline = StableExposition(scrape());
  const std::string other_rail = R"({device="mlx5_1",port="1"})";
  for (const HostileFile& file : HostileFiles()) {
    SCOPED_TRACE(file.what);
    Plant(file);
    auto begin = std::chrono::steady_clock::now();
    ASSERT_TRUE(daemon.Poll().ok());
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(2))
        << "reads are bounded (64 KiB per file)";
    std::string seen = scrape();
    EXPECT_TRUE(IsValidUtf8(seen));
    EXPECT_EQ(FindSample(seen, "rocewatch_rdma_devices"), 2);
    EXPECT_EQ(FindSample(seen, "rocewatch_port_active" + other_rail), 1);
    EXPECT_EQ(FindSample(seen, "rocewatch_port_transmit_bytes_total" + other_rail),
              FindSample(baseline, "rocewatch_port_transmit_bytes_total" + other_rail));

    // The driver behaves again: the next poll reports the node exactly as before.
    std::filesystem::remove_all(PlantedPath(file));
    ASSERT_TRUE(WriteSysfsFixture(root, RailNode(2, 16)).ok());
    ASSERT_TRUE(daemon.Poll().ok());
    EXPECT_EQ(StableExposition(scrape()), baseline);
  }
}

// Regression: `diagnose --json` aborted (nlohmann::json type_error 316, exit 134) on a fw_ver that
// is not valid UTF-8. Invalid bytes are now replaced by U+FFFD.
TEST_F(HostileSysfsContentTest, DiagnoseJsonOfEverythingAtOnceParsesAndDoesNotCrash) {
  for (const HostileFile& file : HostileFiles()) Plant(file);
  int status = -1;
  std::string out =
      RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose --daemon none --json --host-root '" +
                     dir_.path() + "' 2>/dev/null",
                 &status);
  EXPECT_TRUE(status == 0 || status == 1 || status == 2) << "exit status " << status;
  ASSERT_TRUE(IsValidUtf8(out));
  nlohmann::json report = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(report.is_discarded()) << out.substr(0, 400);
  ASSERT_EQ(report["devices"].size(), 2u);
  EXPECT_EQ(report["devices"][0]["fw_ver"], "28.\xef\xbf\xbd\xef\xbf\xbd.1002");
}

TEST_F(HostileSysfsContentTest, DiagnoseTextOfEverythingAtOnceDoesNotCrash) {
  for (const HostileFile& file : HostileFiles()) Plant(file);
  int status = -1;
  std::string out =
      RunCommand(std::string(ROCEWATCH_BINARY) + " diagnose --daemon none --host-root '" +
                     dir_.path() + "' 2>/dev/null",
                 &status);
  EXPECT_TRUE(status == 0 || status == 1 || status == 2) << "exit status " << status;
  EXPECT_NE(out.find("mlx5_1"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch
