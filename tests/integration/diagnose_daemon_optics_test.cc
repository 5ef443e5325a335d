// `rocewatch diagnose` beside a running daemon (the Daemon in-process, serving on loopback), on
// one host root whose rail has its driver statistics and module pages recorded. NPD runs the
// one-shot every 30 s; the daemon reads each module every --optics-interval (60 s). Module pages
// come over I2C, slowly, and contend with the driver, so a one-shot whose daemon answers and has
// read the module lately takes the daemon's optics instead of reading the pages again; with no
// daemon answering it reads them itself.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "diagnose/diagnose_command.h"
#include "ethtool/ethtool_recording.h"
#include "ethtool/ethtool_text.h"
#include "export/http_fetch.h"
#include "support/fake_host_env.h"
#include "support/fault_injecting_file_system.h"
#include "support/in_process_daemon.h"
#include "support/module_pages.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"

namespace rocewatch {
namespace {

const std::string kRailRecording = "rocewatch/ethtool/ens1f0np0/";

class DiagnoseDaemonOpticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(WriteSysfsFixture(dir_.path() + "/sys", RailNode(1)).ok());
    DriverStatistics statistics;
    statistics.counters = {{"rx_corrected_bits_phy", 1000}, {"rx_symbol_err_phy", 0}};
    dir_.WriteFile(kRailRecording + "statistics", FormatDriverStatisticsText(statistics));
    for (const auto& [address, bytes] : Sff8636Pages(HealthyQuadLanes()))
      dir_.WriteFile(kRailRecording + "module/" + ModulePageFileName(address), bytes);
    daemon_.set_host_root(dir_.path());
    ASSERT_TRUE(daemon_.Start().ok());  // its first snapshot reads the module
    ASSERT_TRUE(daemon_.Poll().ok());
  }

  // `diagnose --json --link-window 0 --kubelet-socket none`, asking the daemon or not (--daemon
  // none); the `module` of the rail's link-quality entry, and how many module pages the run read.
  nlohmann::json DiagnoseModule(bool ask_daemon, size_t* module_reads) {
    FaultInjectingFileSystem counted(&fs_);
    FakeHostEnv host(counted);
    host.env().fetch = [](const HttpUrl& url, Duration timeout) { return FetchUrl(url, timeout); };
    DiagnoseOptions options;
    options.common.paths = HostPaths::ForRoots(dir_.path());
    options.common.gid_source = GidSourceChoice::kSysfs;
    options.json = true;
    options.link_window = Duration::zero();
    options.consumers.kubelet_socket = "none";
    options.daemon.reset();
    if (ask_daemon) {
      options.daemon = HttpUrl{"127.0.0.1", static_cast<uint16_t>(daemon_.port()), "/", ""};
      options.daemon_given = true;
    }
    std::ostringstream out, err;
    RunDiagnose(host.env(), options, out, err, /*out_is_terminal=*/false);
    *module_reads = 0;
    for (const std::string& path : counted.files_read())
      if (path.find(kRailRecording + "module/") != std::string::npos) ++*module_reads;
    nlohmann::json report = nlohmann::json::parse(out.str(), nullptr, false);
    for (const nlohmann::json& entry : report["link_quality"])
      if (entry.value("netdev", "") == "ens1f0np0")
        return entry.value("module", nlohmann::json::object());
    ADD_FAILURE() << "no link-quality entry of ens1f0np0 in " << out.str() << err.str();
    return nlohmann::json();
  }

  TempDir dir_;
  PosixFileSystem fs_;
  InProcessDaemon daemon_{fs_, dir_.path() + "/sys"};
};

TEST_F(DiagnoseDaemonOpticsTest, AOneShotTakesTheModuleTheDaemonReadAndReadsNoPage) {
  size_t module_reads = 0;
  const nlohmann::json module = DiagnoseModule(/*ask_daemon=*/true, &module_reads);
  EXPECT_EQ(module_reads, 0u);
  EXPECT_EQ(module.value("read_by", ""), "daemon") << module.dump();
  EXPECT_LE(module.value("age_seconds", 1e9), 60);
}

TEST_F(DiagnoseDaemonOpticsTest, WithoutADaemonTheOneShotReadsTheModuleItself) {
  size_t module_reads = 0;
  const nlohmann::json module = DiagnoseModule(/*ask_daemon=*/false, &module_reads);
  EXPECT_GT(module_reads, 0u);
  EXPECT_EQ(module.value("standard", ""), "SFF-8636") << module.dump();
}

}  // namespace
}  // namespace rocewatch
