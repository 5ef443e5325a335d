#include "support/host_root_builder.h"

#include <filesystem>

namespace rocewatch {

HostRootBuilder& HostRootBuilder::File(const std::string& host_path, const std::string& content) {
  dir_.WriteFile(host_path.substr(host_path.find_first_not_of('/')), content);
  return *this;
}

HostRootBuilder& HostRootBuilder::Netdev(const std::string& name, int ifindex,
                                         const std::string& mac, int keep_addr_on_down) {
  File("/sys/class/net/" + name + "/ifindex", std::to_string(ifindex) + "\n");
  File("/sys/class/net/" + name + "/address", mac + "\n");
  File("/proc/sys/net/ipv6/conf/" + name + "/keep_addr_on_down",
       std::to_string(keep_addr_on_down) + "\n");
  File("/proc/sys/net/ipv6/conf/all/keep_addr_on_down", "0\n");
  return *this;
}

HostRootBuilder& HostRootBuilder::NetworkManagerManages(int ifindex, bool managed) {
  Process(812, "NetworkManager");
  return File("/run/NetworkManager/devices/" + std::to_string(ifindex),
              std::string("[device]\nmanaged=") + (managed ? "true" : "false") +
                  "\nperm-hw-addr-fake=\nconnection-uuid=5b0e9c1a-55aa-4b62-9d1e-3f4a1c2b9d01\n");
}

HostRootBuilder& HostRootBuilder::NetworkdManages(int ifindex, const std::string& network_file,
                                                  const std::string& network_content,
                                                  const std::string& admin_state) {
  Process(655, "systemd-network");
  File(network_file, network_content);
  return File("/run/systemd/netif/links/" + std::to_string(ifindex),
              "# This is private data. Do not parse.\nADMIN_STATE=" + admin_state +
                  "\nOPER_STATE=routable\nNETWORK_FILE=" + network_file + "\n");
}

HostRootBuilder& HostRootBuilder::Process(int pid, const std::string& comm,
                                          const std::vector<std::string>& environ, bool uverbs) {
  std::string dir = "/proc/" + std::to_string(pid);
  File(dir + "/comm", comm + "\n");
  std::string block;
  for (const std::string& entry : environ) block += entry + '\0';
  File(dir + "/environ", block);
  std::string fd_dir = dir_.MakeDir(dir.substr(1) + "/fd");
  std::error_code ec;
  std::filesystem::create_symlink("/dev/null", fd_dir + "/0", ec);
  if (uverbs) std::filesystem::create_symlink("/dev/infiniband/uverbs0", fd_dir + "/7", ec);
  return *this;
}

}  // namespace rocewatch
