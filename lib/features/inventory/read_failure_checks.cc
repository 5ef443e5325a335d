#include "inventory/read_failure_checks.h"

#include <map>

#include "core/text.h"
#include "model/check_policy.h"

namespace rocewatch {
namespace {

// "<path>: Input/output error (EIO)"
std::string Describe(const ReadFailure& failure) {
  return failure.path + ": " + ErrnoText(failure.sys_errno);
}

// The failures whose path lies under `dir` + "/" (all when dir is empty), described.
std::vector<std::string> FilesUnder(const std::vector<ReadFailure>& named, const std::string& dir,
                                    std::vector<bool>& used) {
  std::vector<std::string> files;
  for (size_t i = 0; i < named.size(); ++i) {
    if (used[i]) continue;
    if (!dir.empty() && named[i].path.find(dir + "/") == std::string::npos) continue;
    used[i] = true;
    files.push_back(Describe(named[i]));
  }
  return files;
}

std::string JoinIndices(const std::vector<uint32_t>& indices, size_t limit) {
  std::vector<std::string> text;
  for (uint32_t i : indices) text.push_back(std::to_string(i));
  return JoinList(text, limit);
}

std::string PortMessage(const std::string& name, const Port& port,
                        const std::vector<std::string>& files) {
  std::string message;
  if (port.gid_table_unlistable) {
    message = name + "'s GID table (gids/) could not be listed: every GID of the port is unknown";
  } else if (!port.unreadable_gid_slots.empty()) {
    const size_t n = port.unreadable_gid_slots.size();
    message = std::to_string(n) + " GID slot" + (n > 1 ? "s" : "") + " of " + name +
              " could not be read (index " + JoinIndices(port.unreadable_gid_slots, 8) +
              "): " + (n > 1 ? "their GIDs are" : "its GID is") + " unknown, not empty";
  }
  if (!port.GidTableKnown())
    message += std::string(", so ") + kGidChecksNotRun + " could not run on this port";
  if (!port.counters.unreadable.empty()) {
    message += std::string(message.empty() ? "" : "; ") + "counter" +
               (port.counters.unreadable.size() > 1 ? "s " : " ") +
               JoinList(port.counters.unreadable, kFilesNamedPerFinding) + " of " + name +
               " could not be read: their values are unknown (not zero), and the counter checks "
               "cannot judge them";
  }
  if (!files.empty()) message += ". Failed: " + JoinList(files, kFilesNamedPerFinding);
  return message + ".";
}

}  // namespace

std::vector<Finding> CheckReadFailures(const NodeSnapshot& snapshot,
                                       const std::vector<ReadFailure>& named) {
  std::vector<Finding> out;
  std::vector<bool> used(named.size(), false);
  for (const Device& device : snapshot.devices)
    for (const Port& port : device.ports) {
      if (port.GidTableKnown() && port.counters.unreadable.empty()) continue;
      const std::string name = PortName(device.name, port.number);
      const std::string dir =
          "/class/infiniband/" + device.name + "/ports/" + std::to_string(port.number);
      out.push_back(
          {SeverityOf(check_id::kReadFailed), check_id::kReadFailed, name,
           PortMessage(name, port, FilesUnder(named, dir, used)),
           "Read the files named (`cat` them as root) and check `dmesg` for driver errors; a "
           "file that fails with EIO or ETIMEDOUT points at the driver or firmware (a firmware "
           "command that timed out), EACCES at a confined or unprivileged rocewatch. Run "
           "`rocewatch diagnose` again once they read: the checks that could not run do then."});
    }
  // Failed reads outside any port, by source; their totals come from read_errors.
  std::map<std::string, std::vector<ReadFailure>> rest;
  for (size_t i = 0; i < named.size(); ++i)
    if (!used[i]) rest[named[i].source].push_back(named[i]);
  for (const auto& [source, failures] : rest) {
    std::vector<bool> none(failures.size(), false);
    std::vector<std::string> files = FilesUnder(failures, "", none);
    auto total = snapshot.read_errors.find(source);
    std::string all;
    if (total != snapshot.read_errors.end() && total->second > files.size())
      all = " (" + std::to_string(total->second) + " failed " + source + " reads in all)";
    out.push_back(
        {SeverityOf(check_id::kReadFailed), check_id::kReadFailed, source,
         source + " reads failed outside the GID tables and counters: " +
             JoinList(files, kFilesNamedPerFinding) + all +
             ". What they would have shown (device attributes, netdevs, listings) is unknown.",
         "Read the files named (`cat` them as root) and check `dmesg` for driver errors; EACCES "
         "points at a confined or unprivileged rocewatch."});
  }
  return out;
}

}  // namespace rocewatch
