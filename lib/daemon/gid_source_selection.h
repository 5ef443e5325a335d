#pragma once
// --gid-source auto|verbs|sysfs (docs/cli.md): which GidTableSource the daemon and diagnose
// use. `auto` is verbs when at least one RDMA device opens through libibverbs, sysfs otherwise;
// `verbs` with no device is a clear error (the user asked for something this host cannot do).
// The decision is a pure function; the factory does the enumeration and builds the source.

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.h"
#include "model/gid_table_source.h"
#include "verbs/verbs_api.h"
#include "verbs/verbs_device_set.h"

namespace rocewatch {

enum class GidSourceChoice { kAuto, kVerbs, kSysfs };
enum class GidSourceKind { kVerbs, kSysfs };

// "auto", "verbs", "sysfs" -> the choice. Errors: InvalidArgument naming the accepted values.
StatusOr<GidSourceChoice> ParseGidSourceChoice(std::string_view text);
const char* GidSourceChoiceName(GidSourceChoice choice);

// The decision. `verbs_devices_open` is how many devices opened; `verbs_absent_reason` says why
// none did (for the error). Errors: Unavailable for kVerbs with no device.
StatusOr<GidSourceKind> SelectGidSource(GidSourceChoice choice, size_t verbs_devices_open,
                                        const std::string& verbs_absent_reason);

// The chosen source. When it is verbs, `verbs_devices` is the set behind it (owned here), for the
// async-event watcher; nullptr for sysfs.
struct GidSourceSelection {
  GidSourceKind kind = GidSourceKind::kSysfs;
  std::unique_ptr<VerbsDeviceSet> verbs_devices;
  std::unique_ptr<GidTableSource> source;
  // Why verbs was not used under `auto` (for an info log line); empty otherwise.
  std::string fallback_reason;
};

// Enumerates verbs devices unless the choice is sysfs, decides, builds. `make_sysfs` builds the
// sysfs reader (SysfsGidTableSource). Lifetime: `verbs_api` must outlive the selection.
StatusOr<GidSourceSelection> MakeGidTableSource(
    GidSourceChoice choice, VerbsApi& verbs_api,
    const std::function<std::unique_ptr<GidTableSource>()>& make_sysfs);

}  // namespace rocewatch
