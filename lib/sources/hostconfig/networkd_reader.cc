#include "hostconfig/networkd_reader.h"

#include "core/text.h"
#include "hostconfig/config_files.h"

namespace rocewatch {
namespace {

std::string Unquote(std::string value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
    return value.substr(1, value.size() - 2);
  return value;
}

}  // namespace

bool ReadNetworkdLink(const FileSystem& host, NetdevConfig& config) {
  if (config.ifindex <= 0) return false;
  std::string state_file = "/run/systemd/netif/links/" + std::to_string(config.ifindex);
  std::optional<IniFile> state = ReadHostIni(host, state_file, IniDialect::kSystemd);
  if (!state) return false;
  std::string admin_state = state->Last("", "ADMIN_STATE").value_or("");
  std::string network_file = Unquote(state->Last("", "NETWORK_FILE").value_or(""));
  config.evidence.push_back(state_file + ": ADMIN_STATE=" + admin_state +
                            (network_file.empty() ? "" : ", NETWORK_FILE=" + network_file));
  if (network_file.empty() || admin_state == "unmanaged" || admin_state == "linger") return false;
  config.network_file = network_file;
  std::vector<std::string> files = {network_file};
  for (const std::string& dropin :
       SplitFields(Unquote(state->Last("", "NETWORK_FILE_DROPINS").value_or("")), " "))
    files.push_back(Unquote(dropin));
  for (const std::string& file : files) {
    std::optional<IniFile> unit = ReadHostIni(host, file, IniDialect::kSystemd);
    if (!unit) {
      config.evidence.push_back(file + ": unreadable");
      continue;
    }
    std::vector<ConfiguredAddress>& addresses =
        config.addresses_read[NetdevManager::kSystemdNetworkd];
    for (const IniEntry& e : unit->entries) {
      if ((e.section != "Network" && e.section != "Address") || e.key != "Address") continue;
      if (e.value.empty()) {
        addresses.clear();  // systemd: an empty assignment resets the list
      } else if (addresses.size() < kMaxConfiguredAddresses) {
        addresses.push_back({e.value, file + ":" + std::to_string(e.line)});
      }
    }
    if (auto v = unit->Last("Network", "IgnoreCarrierLoss")) config.ignore_carrier_loss = v;
    if (auto v = unit->Last("Network", "ConfigureWithoutCarrier"))
      config.configure_without_carrier = v;
    if (auto v = unit->Last("Network", "KeepConfiguration")) config.keep_configuration = v;
  }
  return true;
}

void ReadNetworkdConf(const FileSystem& host, HostNetworkConfig& config) {
  std::vector<std::string> files = {"/etc/systemd/networkd.conf"};
  for (const std::string& f :
       DropInFiles(host,
                   {"/usr/lib/systemd/networkd.conf.d", "/run/systemd/networkd.conf.d",
                    "/etc/systemd/networkd.conf.d"},
                   ".conf"))
    files.push_back(f);
  for (const std::string& file : files) {
    std::optional<IniFile> conf = ReadHostIni(host, file, IniDialect::kSystemd);
    if (!conf) continue;
    for (const IniEntry& e : conf->entries) {
      if (e.section != "Network" || e.key != "ManageForeignRoutingPolicyRules") continue;
      std::optional<bool> value = ParseIniBool(e.value);
      if (!value) continue;  // networkd ignores an invalid value and keeps the default
      config.networkd_manages_foreign_rules = *value;
      config.manage_foreign_rules_evidence =
          file + ":" + std::to_string(e.line) + " ManageForeignRoutingPolicyRules=" + e.value;
    }
  }
}

}  // namespace rocewatch
