#include "support/example_node.h"

#include <filesystem>
#include <vector>

#include "support/sysfs_fixture.h"
#include "support/write_in_place.h"

namespace rocewatch {
namespace {

namespace fs = std::filesystem;

constexpr int kRails = 8;
constexpr int kNetworkManagerRail = 3;

std::string Netdev(int rail) { return "ens" + std::to_string(rail + 1) + "f0np0"; }
int Ifindex(int rail) { return rail + 2; }  // sysfs_fixture numbers netdevs from 2 (1 is lo)

class Writer {
 public:
  explicit Writer(fs::path root) : root_(std::move(root)) {}
  Status File(const std::string& host_path, const std::string& content) {
    fs::path full = root_ / host_path.substr(1);
    std::error_code ec;
    fs::create_directories(full.parent_path(), ec);
    if (ec) return Status::IoError("cannot write " + full.string() + ": " + ec.message());
    return WriteFileInPlace(full.string(), content);
  }
  Status Dir(const std::string& host_path) {
    std::error_code ec;
    fs::create_directories(root_ / host_path.substr(1), ec);
    if (ec) return Status::IoError("cannot create " + host_path + ": " + ec.message());
    return Status::Ok();
  }
  Status Link(const std::string& host_path, const std::string& target) {
    fs::path full = root_ / host_path.substr(1);
    std::error_code ec;
    fs::create_directories(full.parent_path(), ec);
    fs::remove(full, ec);
    fs::create_symlink(target, full, ec);
    if (ec) return Status::IoError("cannot link " + full.string() + ": " + ec.message());
    return Status::Ok();
  }

 private:
  fs::path root_;
};

std::string Environ(const std::vector<std::string>& entries) {
  std::string block;
  for (const std::string& e : entries) block += e + '\0';
  return block;
}

}  // namespace

Status WriteExampleHostConfiguration(const std::string& host_root) {
  Writer w(host_root);
  std::string interfaces = "# Rails configured by ifupdown (the `networking` service).\n";
  std::vector<std::pair<std::string, std::string>> files;
  for (int rail = 0; rail < kRails; ++rail) {
    files.push_back({"/proc/sys/net/ipv6/conf/" + Netdev(rail) + "/keep_addr_on_down", "0\n"});
    if (rail == kNetworkManagerRail) continue;
    interfaces += "auto " + Netdev(rail) + "\niface " + Netdev(rail) +
                  " inet static\n    address 10.0." + std::to_string(rail) +
                  ".2/24\n    mtu 4200\n\n";
  }
  const std::string nm_netdev = Netdev(kNetworkManagerRail);
  files.insert(
      files.end(),
      {{"/etc/network/interfaces", "source /etc/network/interfaces.d/*\n"},
       {"/etc/network/interfaces.d/rails", interfaces},
       {"/etc/NetworkManager/NetworkManager.conf",
        "[main]\nplugins=ifupdown,keyfile\n\n"
        "[ifupdown]\nmanaged=false\n"},
       {"/etc/NetworkManager/system-connections/rail3.nmconnection",
        "[connection]\nid=rail3\nuuid=2f6b1c0e-7d1a-4d7e-9a53-3c1f0b6e4a03\ntype=ethernet\n"
        "interface-name=" +
            nm_netdev + "\n\n[ipv4]\naddress1=10.0.3.2/24\nmethod=manual\n"},
       {"/run/NetworkManager/devices/" + std::to_string(Ifindex(kNetworkManagerRail)),
        "[device]\nmanaged=true\nperm-hw-addr-fake=\n"
        "connection-uuid=2f6b1c0e-7d1a-4d7e-9a53-3c1f0b6e4a03\n"},
       {"/proc/sys/net/ipv6/conf/all/keep_addr_on_down", "0\n"},
       {"/proc/1/comm", "systemd\n"},
       {"/proc/1/environ", ""},
       {"/proc/2/comm", "kthreadd\n"},  // the host's process namespace: kernel threads visible
       {"/proc/4242/maps",
        "7f1c2a000000-7f1c2a028000 r--p 00000000 fd:01 131 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "7f1c30000000-7f1c30200000 r-xp 00000000 fd:01 4242 "
        "/usr/lib/x86_64-linux-gnu/libnccl.so.2.18.3\n"},
       {"/proc/812/comm", "NetworkManager\n"},
       {"/proc/812/environ", Environ({"LANG=C.UTF-8"})},
       {"/proc/4242/comm", "python3\n"},
       {"/proc/4242/environ",
        Environ({"PATH=/usr/local/bin:/usr/bin", "NCCL_IB_HCA=mlx5", "NCCL_IB_GID_INDEX=3",
                 "NCCL_IB_TIMEOUT=18", "NCCL_DEBUG=WARN"})}});
  for (const auto& [path, content] : files)
    if (Status s = w.File(path, content); !s.ok()) return s;
  for (int rail = 0; rail < kRails; ++rail) {
    std::string fd = "/proc/4242/fd/" + std::to_string(40 + rail);
    if (Status s = w.Link(fd, "/dev/infiniband/uverbs" + std::to_string(rail)); !s.ok()) return s;
    // The verbs character device of each rail names its RDMA device.
    if (Status s = w.File("/sys/class/infiniband_verbs/uverbs" + std::to_string(rail) + "/ibdev",
                          "mlx5_" + std::to_string(rail) + "\n");
        !s.ok())
      return s;
  }
  if (Status s = w.Dir("/proc/2/fd"); !s.ok()) return s;  // a kernel thread has none
  for (const char* fd : {"/proc/1/fd/0", "/proc/812/fd/0"})
    if (Status s = w.Link(fd, "/dev/null"); !s.ok()) return s;
  return w.Link("/proc/4242/fd/0", "/dev/null");
}

Status WriteExampleNode(const std::string& host_root) {
  if (Status s = WriteSysfsFixture(host_root + "/sys", ExampleEightRailNode()); !s.ok()) return s;
  return WriteExampleHostConfiguration(host_root);
}

}  // namespace rocewatch
