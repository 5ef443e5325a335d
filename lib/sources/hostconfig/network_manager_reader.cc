#include "hostconfig/network_manager_reader.h"

#include <algorithm>
#include <optional>

#include "core/text.h"
#include "hostconfig/config_files.h"
#include "hostconfig/nm_device_spec.h"

namespace rocewatch {
namespace {

std::vector<std::string> NetworkManagerConfFiles(const FileSystem& host) {
  std::vector<std::string> files =
      DropInFiles(host, {"/usr/lib/NetworkManager/conf.d", "/run/NetworkManager/conf.d"}, ".conf");
  // A file of /etc/NetworkManager/conf.d shadows a system or run file of the same name.
  std::vector<std::string> etc = ListHostConfigFiles(host, "/etc/NetworkManager/conf.d", ".conf");
  std::erase_if(files, [&](const std::string& f) {
    for (const std::string& e : etc)
      if (e.substr(e.rfind('/')) == f.substr(f.rfind('/'))) return true;
    return false;
  });
  files.push_back("/etc/NetworkManager/NetworkManager.conf");
  files.insert(files.end(), etc.begin(), etc.end());
  return files;
}

std::string Where(const std::string& file, int line) { return file + ":" + std::to_string(line); }

}  // namespace

bool ReadNetworkManagerRuntime(const FileSystem& host, NetdevConfig& config) {
  if (config.ifindex <= 0) return false;
  std::string state_file = "/run/NetworkManager/devices/" + std::to_string(config.ifindex);
  std::optional<IniFile> state = ReadHostIni(host, state_file, IniDialect::kKeyfile);
  if (!state) return false;
  std::optional<std::string> managed = state->Last("device", "managed");
  std::optional<std::string> uuid = state->Last("device", "connection-uuid");
  std::string line = state_file + ": managed=" + managed.value_or("(unset)");
  if (uuid) line += ", connection-uuid=" + *uuid;
  config.evidence.push_back(line);
  return managed && ParseIniBool(*managed).value_or(false);
}

bool ReadNetworkManagerProfiles(const FileSystem& host, NetdevConfig& config) {
  bool named = false;
  int profiles = 0;
  std::vector<ConfiguredAddress> addresses;
  for (const char* dir :
       {"/etc/NetworkManager/system-connections", "/run/NetworkManager/system-connections"}) {
    for (const std::string& file : ListHostConfigFiles(host, dir, ".nmconnection")) {
      std::optional<IniFile> profile = ReadHostIni(host, file, IniDialect::kKeyfile);
      if (!profile || profile->Last("connection", "interface-name") != config.netdev) continue;
      config.evidence.push_back(file + ": interface-name=" + config.netdev);
      ++profiles;
      for (const IniEntry& e : profile->entries) {
        if (e.section != "ipv4" && e.section != "ipv6") continue;
        const bool numbered = e.key.rfind("address", 0) == 0 && e.key.size() > 7 &&
                              e.key.find_first_not_of("0123456789", 7) == std::string::npos;
        if (!numbered && e.key != "addresses") continue;
        // "10.0.0.2/24,10.0.0.1" (address, gateway); addresses= lists them with ';'.
        for (const std::string& item : SplitFields(e.value, ";")) {
          std::string address = item.substr(0, item.find(','));
          if (!address.empty() && addresses.size() < kMaxConfiguredAddresses)
            addresses.push_back({address, file + ":" + std::to_string(e.line)});
        }
      }
      named = true;
    }
  }
  // Several profiles for one device: which is active is NetworkManager's runtime choice.
  if (profiles == 1) config.addresses_read[NetdevManager::kNetworkManager] = std::move(addresses);
  return named;
}

void ReadNetworkManagerIgnoreCarrier(const FileSystem& host, NetdevConfig& config) {
  std::vector<std::string> files = NetworkManagerConfFiles(host);
  // [main] ignore-carrier: a device list, later files override, += / -= edit the list.
  std::vector<std::string> list;
  std::string list_where;
  // [device*] ignore-carrier=<bool>: later files win; within a file the first matching section.
  std::optional<bool> device_value;
  std::string device_where;
  std::vector<std::string> read;
  for (const std::string& file : files) {
    std::optional<IniFile> conf = ReadHostIni(host, file, IniDialect::kKeyfile);
    if (!conf) continue;
    read.push_back(file);
    for (const IniEntry& e : conf->entries) {
      if (e.section != "main") continue;
      std::vector<std::string> values = SplitFields(e.value, ",;");
      if (e.key == "ignore-carrier") {
        list = values;
        list_where = Where(file, e.line);
      } else if (e.key == "ignore-carrier+") {
        list.insert(list.end(), values.begin(), values.end());
        list_where = Where(file, e.line);
      } else if (e.key == "ignore-carrier-") {
        std::erase_if(list, [&](const std::string& v) {
          return std::find(values.begin(), values.end(), v) != values.end();
        });
        list_where = Where(file, e.line);
      }
    }
    for (const std::string& section : conf->Sections()) {
      if (section != "device" && section.rfind("device-", 0) != 0) continue;
      std::optional<std::string> match = conf->Last(section, "match-device");
      if (match && !DeviceSpecMatches(*match, config.netdev, config.mac)) continue;
      std::optional<std::string> value = conf->Last(section, "ignore-carrier");
      if (!value) continue;
      device_value = ParseIniBool(*value);
      for (const IniEntry& e : conf->entries)
        if (e.section == section && e.key == "ignore-carrier") device_where = Where(file, e.line);
      device_where += " [" + section + "] ignore-carrier=" + *value;
      break;
    }
  }
  std::string joined;
  for (const std::string& v : list) joined += (joined.empty() ? "" : ",") + v;
  if (device_value.has_value()) {
    config.nm_ignore_carrier = *device_value;
    config.nm_ignore_carrier_evidence = device_where;
  } else if (!list.empty() && DeviceSpecMatches(joined, config.netdev, config.mac)) {
    config.nm_ignore_carrier = true;
    config.nm_ignore_carrier_evidence = list_where + " [main] ignore-carrier=" + joined;
  } else {
    config.nm_ignore_carrier = false;
    std::string searched;
    for (const std::string& f : read) searched += (searched.empty() ? "" : ", ") + f;
    config.nm_ignore_carrier_evidence =
        list.empty()
            ? "no ignore-carrier for " + config.netdev + " in " +
                  (searched.empty() ? std::string("any NetworkManager.conf") : searched)
            : list_where + " [main] ignore-carrier=" + joined + " does not match " + config.netdev;
  }
}

}  // namespace rocewatch
