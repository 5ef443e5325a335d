// The kept-descriptor attribute reader against REAL sysfs: a veth netdev's attributes in a sysfs
// mounted for a network namespace of the test's own. They behave as the RDMA attributes the
// daemon polls (all are kernfs attributes): a pread at offset 0 of a kept descriptor regenerates
// the value (statistics after traffic), an attribute without a value fails with EINVAL and has one
// again later (speed while admin-down), and every kept descriptor fails with ENODEV once the
// object is deleted (ip link del), after which the reader's reopen finds no file. Skips without
// root or namespaces.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <thread>

#include "os/attribute_reader.h"
#include "support/net_namespace.h"
#include "sysfs/sysfs_parsers.h"

namespace rocewatch {
namespace {

constexpr const char* kNetdev = "rwsys0";
constexpr const char* kPeer = "rwsys1";

class AttributeReaderSysfsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ns = NetNamespace::Create("sysfs");
    if (!ns.ok()) GTEST_SKIP() << "no network namespace: " << ns.status().ToString();
    ns_ = std::move(*ns);
    auto peer = NetNamespace::Create("sysfspeer");
    ASSERT_TRUE(peer.ok()) << peer.status().ToString();
    peer_ = std::move(*peer);
    ASSERT_TRUE(ns_->AddVethPair(kNetdev, kPeer).ok());
    // The peer end lives in another namespace: traffic really crosses the pair.
    ASSERT_TRUE(ns_->Ip(std::string("link set ") + kPeer + " netns " + peer_->name()).ok());
    ASSERT_TRUE(ns_->Ip(std::string("addr add 10.97.0.1/24 dev ") + kNetdev).ok());
    ASSERT_TRUE(peer_->Ip(std::string("addr add 10.97.0.2/24 dev ") + kPeer).ok());
    ASSERT_TRUE(peer_->Ip(std::string("link set ") + kPeer + " up").ok());
  }

  // Runs the body with the namespace's sysfs mounted; the netdev's directory is passed.
  void WithSysfs(const std::function<void(const std::string& netdev_dir)>& body) {
    Status status =
        ns_->RunWithSysfs([&](const std::string& sysfs) { body(sysfs + "/class/net/" + kNetdev); });
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  static uint64_t Value(AttributeReader& reader, KeptAttribute& attribute) {
    std::string text;
    Status status = reader.Read(attribute, &text);
    EXPECT_TRUE(status.ok()) << status.ToString();
    auto value = ParseCounterValue(text);
    return value.ok() ? *value : 0;
  }

  // Sends UDP datagrams from inside the namespace (the calling thread is in it) to the peer.
  static void SendDatagrams(int count, size_t size) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(9);  // discard
    inet_pton(AF_INET, "10.97.0.2", &to.sin_addr);
    const std::string payload(size, 'x');
    for (int i = 0; i < count; ++i)
      (void)sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&to),
                   sizeof(to));
    close(fd);
  }

  std::unique_ptr<NetNamespace> ns_;
  std::unique_ptr<NetNamespace> peer_;
};

TEST_F(AttributeReaderSysfsTest, KeptStatisticsAreFreshOnEveryPreadAfterTraffic) {
  WithSysfs([&](const std::string& dir) {
    PosixFileSystem fs;
    AttributeReader reader(fs, 16);
    KeptAttribute tx(dir + "/statistics/tx_bytes"), tx_packets(dir + "/statistics/tx_packets");
    KeptAttribute peer_rx(dir + "/statistics/rx_bytes");
    const uint64_t before = Value(reader, tx);
    const uint64_t packets_before = Value(reader, tx_packets);
    Value(reader, peer_rx);
    ASSERT_TRUE(tx.is_open());

    SendDatagrams(20, 1000);
    // The counters move as the datagrams leave; wait for them (bounded), never a fixed sleep.
    uint64_t after = before;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while ((after = Value(reader, tx)) < before + 20 * 1000 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GE(after, before + 20 * 1000);
    EXPECT_GE(Value(reader, tx_packets), packets_before + 20);
    EXPECT_EQ(reader.stats().opens, 3u);  // every read after the first was a pread
    EXPECT_EQ(reader.stats().reopens, 0u);
  });
}

TEST_F(AttributeReaderSysfsTest, SpeedFailsWithEinvalWhileAdminDownAndReadsAgainWhenUp) {
  WithSysfs([&](const std::string& dir) {
    PosixFileSystem fs;
    // The kernel's own behaviour on one kept descriptor.
    auto speed = fs.Open(dir + "/speed");
    ASSERT_TRUE(speed.ok()) << speed.status().ToString();
    std::string text;
    ASSERT_TRUE((*speed)->ReadInto(&text, 4096).ok());
    EXPECT_EQ(text, "10000\n");
    ASSERT_TRUE(ns_->Ip(std::string("link set ") + kNetdev + " down").ok());
    Status down = (*speed)->ReadInto(&text, 4096);
    EXPECT_EQ(down.sys_errno(), EINVAL) << down.ToString();

    // Through the reader: EINVAL is returned as is (no reopen: the file is still there).
    AttributeReader reader(fs, 16);
    KeptAttribute kept(dir + "/speed");
    EXPECT_EQ(reader.Read(kept, &text).sys_errno(), EINVAL);
    EXPECT_EQ(reader.stats().reopens, 0u);

    ASSERT_TRUE(ns_->Ip(std::string("link set ") + kNetdev + " up").ok());
    ASSERT_TRUE((*speed)->ReadInto(&text, 4096).ok());  // the same descriptor has a value again
    EXPECT_EQ(text, "10000\n");
    ASSERT_TRUE(reader.Read(kept, &text).ok());
    EXPECT_EQ(text, "10000\n");
  });
}

TEST_F(AttributeReaderSysfsTest, EveryKeptDescriptorFailsWithEnodevOnceTheNetdevIsDeleted) {
  WithSysfs([&](const std::string& dir) {
    PosixFileSystem fs;
    const std::vector<std::string> names = {"statistics/tx_bytes",
                                            "statistics/rx_bytes",
                                            "carrier",
                                            "operstate",
                                            "mtu",
                                            "ifindex",
                                            "speed"};
    std::vector<std::unique_ptr<OpenFile>> raw;
    AttributeReader reader(fs, 64);
    std::vector<KeptAttribute> kept;
    std::string text;
    for (const std::string& name : names) {
      auto file = fs.Open(dir + "/" + name);
      ASSERT_TRUE(file.ok()) << file.status().ToString();
      ASSERT_TRUE((*file)->ReadInto(&text, 4096).ok()) << name;
      raw.push_back(std::move(*file));
      kept.emplace_back(dir + "/" + name);
      ASSERT_TRUE(reader.Read(kept.back(), &text).ok()) << name;
    }
    ASSERT_EQ(reader.open_count(), names.size());

    ASSERT_TRUE(ns_->Ip(std::string("link del ") + kNetdev).ok());
    for (size_t i = 0; i < names.size(); ++i) {
      Status status = raw[i]->ReadInto(&text, 4096);
      EXPECT_EQ(status.sys_errno(), ENODEV) << names[i] << ": " << status.ToString();
      // The reader reopens once: the path is gone, so NotFound, and nothing stays open.
      EXPECT_EQ(reader.Read(kept[i], &text).code(), StatusCode::kNotFound) << names[i];
    }
    EXPECT_EQ(reader.stats().reopens, names.size());
    EXPECT_EQ(reader.open_count(), 0u);
  });
}

TEST_F(AttributeReaderSysfsTest, ANetdevRecreatedUnderTheSameNameIsReadThroughANewDescriptor) {
  WithSysfs([&](const std::string& dir) {
    PosixFileSystem fs;
    AttributeReader reader(fs, 16);
    KeptAttribute ifindex(dir + "/ifindex");
    const uint64_t first = Value(reader, ifindex);
    ASSERT_TRUE(ns_->Ip(std::string("link del ") + kNetdev).ok());
    ASSERT_TRUE(ns_->AddVethPair(kNetdev, "rwsys2").ok());
    const uint64_t second = Value(reader, ifindex);  // ENODEV, reopened, read
    EXPECT_NE(second, first);
    EXPECT_EQ(reader.stats().reopens, 1u);
    EXPECT_TRUE(ifindex.is_open());
  });
}

}  // namespace
}  // namespace rocewatch
