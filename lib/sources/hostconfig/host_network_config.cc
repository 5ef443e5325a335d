#include "hostconfig/host_network_config.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/text.h"
#include "hostconfig/config_files.h"
#include "hostconfig/ifupdown_interfaces.h"
#include "hostconfig/netplan_renderer.h"
#include "hostconfig/network_manager_reader.h"
#include "hostconfig/networkd_reader.h"

namespace rocewatch {

const char* NetdevManagerLabel(NetdevManager manager) {
  switch (manager) {
    case NetdevManager::kNetworkManager:
      return "NetworkManager";
    case NetdevManager::kSystemdNetworkd:
      return "systemd-networkd";
    case NetdevManager::kIfupdown:
      return "ifupdown";
    case NetdevManager::kUnknown:
      return "unknown";
  }
  return "unknown";
}

const NetdevConfig* HostNetworkConfig::Find(const std::string& netdev) const {
  auto it = netdevs.find(netdev);
  return it == netdevs.end() ? nullptr : &it->second;
}

namespace {

std::optional<long long> ReadInteger(const FileSystem& fs, const std::string& path) {
  StatusOr<std::string> text = fs.ReadFile(path, 64);
  long long value = 0;
  if (!text.ok() || !ParseInteger(Trim(*text), &value)) return std::nullopt;
  return value;
}

struct ReadStanza {
  std::string evidence;                      // "<file>:<line>: iface <name> <family> <method>"
  std::optional<ConfiguredAddress> address;  // of a static stanza
};

// Every ifupdown iface stanza of /etc/network/interfaces and the files it sources, by interface
// name.
std::multimap<std::string, ReadStanza> ReadIfupdownStanzas(const FileSystem& host) {
  std::multimap<std::string, ReadStanza> stanzas;
  std::vector<std::string> pending = {"/etc/network/interfaces"};
  std::set<std::string> seen;
  while (!pending.empty() && seen.size() < 256) {  // bounded: includes may loop
    std::string file = pending.back();
    pending.pop_back();
    if (!seen.insert(file).second) continue;
    StatusOr<std::string> text = host.ReadFile(file, kMaxConfigFileBytes);
    if (!text.ok()) continue;
    InterfacesFile parsed = ParseInterfacesFile(*text);
    for (const IfaceStanza& s : parsed.ifaces) {
      ReadStanza read{file + ":" + std::to_string(s.line) + ": iface " + s.name + " " + s.family +
                          " " + s.method,
                      std::nullopt};
      if (s.method == "static" && !s.address.empty())
        read.address = ConfiguredAddress{s.address, file + ":" + std::to_string(s.address_line)};
      stanzas.emplace(s.name, std::move(read));
    }
    std::string base = file.substr(0, file.rfind('/') + 1);
    for (std::string pattern : parsed.sources) {
      if (pattern.empty()) continue;
      if (pattern[0] != '/') pattern = base + pattern;
      std::string dir = pattern.substr(0, pattern.rfind('/'));
      std::string glob = pattern.substr(pattern.rfind('/') + 1);
      for (const std::string& candidate : ListHostConfigFiles(host, dir, ""))
        if (GlobMatch(glob, candidate.substr(candidate.rfind('/') + 1)))
          pending.push_back(candidate);
    }
    for (std::string dir : parsed.source_directories) {
      if (!dir.empty() && dir[0] != '/') dir = base + dir;
      for (const std::string& candidate : ListHostConfigFiles(host, dir, ""))
        pending.push_back(candidate);
    }
  }
  return stanzas;
}

}  // namespace

HostNetworkConfig ReadHostNetworkConfig(const FileSystem& files,
                                        const std::vector<std::string>& netdevs,
                                        const std::vector<ProcessEntry>& processes) {
  HostNetworkConfig host;
  host.network_manager = FindProcess(processes, "NetworkManager");
  // comm is cut at 15 characters: "systemd-networkd" reads as "systemd-network".
  host.networkd = FindProcess(processes, "systemd-network");
  ReadNetworkdConf(files, host);
  std::multimap<std::string, ReadStanza> stanzas = ReadIfupdownStanzas(files);
  std::vector<std::pair<std::string, NetplanRenderers>> netplan;
  for (const std::string& file : ListHostConfigFiles(files, "/etc/netplan", ".yaml")) {
    StatusOr<std::string> text = files.ReadFile(file, kMaxConfigFileBytes);
    if (text.ok()) netplan.emplace_back(file, ParseNetplanRenderers(*text));
  }

  for (const std::string& name : netdevs) {
    NetdevConfig config;
    config.netdev = name;
    std::string net_dir = "/sys/class/net/" + name;
    config.ifindex = static_cast<int>(ReadInteger(files, JoinPath(net_dir, "ifindex")).value_or(0));
    if (StatusOr<std::string> mac = files.ReadFile(JoinPath(net_dir, "address"), 64); mac.ok())
      config.mac = std::string(Trim(*mac));
    const std::string ipv6_conf = "/proc/sys/net/ipv6/conf";
    config.keep_addr_on_down = ReadInteger(files, ipv6_conf + "/" + name + "/keep_addr_on_down");
    config.keep_addr_on_down_all = ReadInteger(files, ipv6_conf + "/all/keep_addr_on_down");

    // Runtime state first (what the managers say they do now), then configuration files. Each
    // reader appends its evidence; the deciding reader's lines are moved to the front.
    struct Span {
      size_t begin, end;
    };
    auto run = [&](auto&& read) {
      size_t begin = config.evidence.size();
      bool said = read();
      return std::make_pair(said, Span{begin, config.evidence.size()});
    };
    auto [nm_runtime, nm_runtime_span] =
        run([&] { return ReadNetworkManagerRuntime(files, config); });
    auto [networkd_runtime, networkd_span] = run([&] { return ReadNetworkdLink(files, config); });
    auto [ifupdown, ifupdown_span] = run([&] {
      auto [first, last] = stanzas.equal_range(name);
      for (auto it = first; it != last; ++it) {
        config.evidence.push_back(it->second.evidence);
        std::vector<ConfiguredAddress>& addresses = config.addresses_read[NetdevManager::kIfupdown];
        if (it->second.address && addresses.size() < kMaxConfiguredAddresses)
          addresses.push_back(*it->second.address);
      }
      return first != last;
    });
    auto [nm_profile, nm_profile_span] =
        run([&] { return ReadNetworkManagerProfiles(files, config); });
    std::optional<std::string> netplan_renderer;
    auto [unused, netplan_span] = run([&] {
      for (const auto& [file, renderers] : netplan) {
        if (auto r = renderers.RendererOf(name)) {
          netplan_renderer = r;
          config.evidence.push_back(file + ": renderer " + *r + " for " + name);
        }
      }
      return netplan_renderer.has_value();
    });
    (void)unused;

    Span deciding{0, 0};
    if (nm_runtime) {
      config.managed_by = NetdevManager::kNetworkManager;
      deciding = nm_runtime_span;
    } else if (networkd_runtime) {
      config.managed_by = NetdevManager::kSystemdNetworkd;
      deciding = networkd_span;
    } else if (ifupdown) {
      config.managed_by = NetdevManager::kIfupdown;
      deciding = ifupdown_span;
    } else if (nm_profile) {
      config.managed_by = NetdevManager::kNetworkManager;
      deciding = nm_profile_span;
    } else if (netplan_renderer == "NetworkManager" || netplan_renderer == "networkd") {
      config.managed_by = *netplan_renderer == "networkd" ? NetdevManager::kSystemdNetworkd
                                                          : NetdevManager::kNetworkManager;
      deciding = netplan_span;
    }
    std::rotate(config.evidence.begin(), config.evidence.begin() + deciding.begin,
                config.evidence.begin() + deciding.end);
    if (auto read = config.addresses_read.find(config.managed_by);
        read != config.addresses_read.end() && config.managed_by != NetdevManager::kUnknown)
      config.configured_addresses = read->second;
    if (config.managed_by == NetdevManager::kNetworkManager)
      ReadNetworkManagerIgnoreCarrier(files, config);
    host.netdevs[name] = std::move(config);
  }
  return host;
}

}  // namespace rocewatch
