#pragma once
// NetworkManager's device list format (NetworkManager.conf(5), "Device List Format"), as used by
// `ignore-carrier=` in [main] and `match-device=` in [device*] sections. Pure.
//
// Understood: "*"; "interface-name:NAME" (glob), "interface-name:=NAME" (exact),
// "interface-name:~NAME" (case-insensitive glob); "mac:HWADDR"; "except:SPEC" (negation); a bare
// entry is a MAC address when it looks like one, an interface name otherwise. Entries are
// separated by ',' or ';'. Other prefixes (type:, driver:, s390-subchannels:, ...) need facts we
// do not have and never match: a device list that relies on them reads as "not matched", and
// the finding shows the list so a person can judge.

#include <string_view>

namespace rocewatch {

// True if the list selects the device: some positive entry matches and no except: entry does;
// a list of only except: entries selects every device it does not exclude.
bool DeviceSpecMatches(std::string_view spec_list, std::string_view netdev, std::string_view mac);

}  // namespace rocewatch
