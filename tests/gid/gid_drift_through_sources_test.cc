// The drift scenarios end to end through both real GID readers: the simulated kernel table is
// written as a sysfs tree and read by SysfsGidTableSource, or served by a fake verbs device and
// read by VerbsGidTableSource. Either way the detector must see the same moves.
#include <gtest/gtest.h>

#include "gid_drift/gid_drift_detector.h"
#include "support/fake_verbs_api.h"
#include "support/simulated_gid_table.h"
#include "support/sysfs_fixture.h"
#include "support/temp_dir.h"
#include "support/test_times.h"
#include "sysfs/sysfs_gid_table_source.h"
#include "verbs/verbs_gid_table_source.h"

namespace rocewatch {
namespace {

// Publishes the simulated ports of one device and reads them back through a GidTableSource.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual void Publish(const std::vector<SimulatedGidTable>& ports) = 0;
  virtual GidTableSource& source() = 0;
};

class SysfsBackend final : public Backend {
 public:
  void Publish(const std::vector<SimulatedGidTable>& ports) override {
    FixtureDevice device;
    device.name = "mlx5_0";
    for (const SimulatedGidTable& p : ports) device.ports.push_back(p.ToFixturePort());
    ASSERT_TRUE(WriteSysfsFixture(root_.path(), {device}).ok());
  }
  GidTableSource& source() override { return source_; }

 private:
  TempDir root_;
  PosixFileSystem fs_;
  SysfsGidTableSource source_{fs_, root_.path()};
};

class VerbsBackend final : public Backend {
 public:
  void Publish(const std::vector<SimulatedGidTable>& ports) override {
    if (devices_.empty()) {
      api_.AddDevice("mlx5_0", static_cast<uint32_t>(ports.size()), 32);
      devices_.Refresh();
    }
    std::vector<GidEntry> all;
    for (const SimulatedGidTable& p : ports)
      for (const GidEntry& e : p.Entries()) all.push_back(e);
    api_.SetGidTable("mlx5_0", all);
  }
  GidTableSource& source() override { return source_; }

 private:
  FakeVerbsApi api_;
  VerbsDeviceSet devices_{api_};
  VerbsGidTableSource source_{devices_};
};

class GidDriftThroughSourcesTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sysfs") {
      backend_ = std::make_unique<SysfsBackend>();
    } else {
      backend_ = std::make_unique<VerbsBackend>();
    }
    ports_.emplace_back(1, "eth0", "02:00:00:00:00:01", 32);
    ports_.emplace_back(2, "eth1", "02:00:00:00:00:02", 32);
    ports_[0].AddAddress("10.0.0.1/24");
    ports_[1].AddAddress("10.0.1.1/24");
  }

  // Publishes the tables, reads them through the source and feeds the detector.
  GidObservation Snapshot(double at) {
    backend_->Publish(ports_);
    StatusOr<GidTableRead> read = backend_->source().ReadDevice("mlx5_0");
    EXPECT_TRUE(read.ok()) << read.status().ToString();
    std::vector<GidPortTable> tables;
    for (const SimulatedGidTable& p : ports_) {
      GidPortTable table{"mlx5_0", p.port(), true, p.netdev(), {}};
      if (read.ok())
        for (const GidEntry& e : read->entries)
          if (e.port == p.port()) table.entries.push_back(e);
      EXPECT_EQ(table.entries, p.Entries()) << "the reader sees what the kernel holds";
      tables.push_back(std::move(table));
    }
    return detector_.Observe(tables, at);
  }
  static std::vector<std::pair<uint32_t, uint32_t>> Moves(const GidObservation& o) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const GidChange& c : o.changes)
      if (c.kind == GidChangeKind::kMoved) out.emplace_back(c.old_index, c.new_index);
    return out;
  }

  std::unique_ptr<Backend> backend_;
  std::vector<SimulatedGidTable> ports_;
  GidDriftDetector detector_;
};

TEST_P(GidDriftThroughSourcesTest, NetworkManagerFlapWithLiveQps) {
  ports_[0].TakeReference(2);
  ports_[0].TakeReference(3);
  Snapshot(kT0);
  ports_[0].RemoveAddress("10.0.0.1");
  Snapshot(kT0 + 1);
  ports_[0].AddAddress("10.0.0.1");
  GidObservation up = Snapshot(kT0 + 4);
  EXPECT_EQ(Moves(up), (std::vector<std::pair<uint32_t, uint32_t>>{{2, 4}, {3, 5}}));
  EXPECT_EQ(up.holes, (std::vector<GidHole>{{"mlx5_0", 1, 2}, {"mlx5_0", 1, 3}}));
}

TEST_P(GidDriftThroughSourcesTest, NetworkManagerFlapWithoutReferences) {
  Snapshot(kT0);
  ports_[0].RemoveAddress("10.0.0.1");
  Snapshot(kT0 + 1);
  ports_[0].AddAddress("10.0.0.1");
  EXPECT_EQ(Snapshot(kT0 + 4).drifts(), 0u);
}

TEST_P(GidDriftThroughSourcesTest, IfupdownFlap) {
  ports_[1].TakeReference(3);
  Snapshot(kT0);
  EXPECT_TRUE(Snapshot(kT0 + 3).changes.empty());
}

TEST_P(GidDriftThroughSourcesTest, SecondPortVlanAndIpv6) {
  ports_[1].AddAddress("10.1.0.1", "eth1.100");  // 4, 5
  ports_[1].AddAddress("2001:db8::2");           // 6, 7
  ports_[1].TakeReference(5);
  ports_[1].TakeReference(7);
  Snapshot(kT0);
  ports_[1].RemoveAddress("10.1.0.1", "eth1.100");
  ports_[1].RemoveAddress("2001:db8::2");
  ports_[1].AddAddress("2001:db8::2");           // 4, 6 (5 and 7 are held)
  ports_[1].AddAddress("10.1.0.1", "eth1.100");  // 8, 9
  GidObservation o = Snapshot(kT0 + 2);
  std::vector<std::tuple<uint32_t, std::string, uint32_t, uint32_t>> moves;
  for (const GidChange& c : o.changes)
    if (c.kind == GidChangeKind::kMoved)
      moves.emplace_back(c.entry.port, c.entry.netdev, c.old_index, c.new_index);
  EXPECT_EQ(
      moves,
      (std::vector<std::tuple<uint32_t, std::string, uint32_t, uint32_t>>{
          {2, "eth1", 6, 4}, {2, "eth1", 7, 6}, {2, "eth1.100", 4, 8}, {2, "eth1.100", 5, 9}}));
  EXPECT_EQ(detector_.state().counters.at({"mlx5_0", 2, "eth1.100"}).events, 2u);
  EXPECT_EQ(detector_.state().counters.count({"mlx5_0", 1, "eth0"}), 0u);
}

INSTANTIATE_TEST_SUITE_P(Readers, GidDriftThroughSourcesTest, ::testing::Values("sysfs", "verbs"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace rocewatch
