#include "daemon/gid_source_selection.h"

#include "verbs/verbs_gid_table_source.h"

namespace rocewatch {

StatusOr<GidSourceChoice> ParseGidSourceChoice(std::string_view text) {
  if (text == "auto") return GidSourceChoice::kAuto;
  if (text == "verbs") return GidSourceChoice::kVerbs;
  if (text == "sysfs") return GidSourceChoice::kSysfs;
  return Status::InvalidArgument("--gid-source: '" + std::string(text) +
                                 "' is not one of auto, verbs, sysfs");
}

const char* GidSourceChoiceName(GidSourceChoice choice) {
  switch (choice) {
    case GidSourceChoice::kAuto:
      return "auto";
    case GidSourceChoice::kVerbs:
      return "verbs";
    case GidSourceChoice::kSysfs:
      return "sysfs";
  }
  return "auto";
}

StatusOr<GidSourceKind> SelectGidSource(GidSourceChoice choice, size_t verbs_devices_open,
                                        const std::string& verbs_absent_reason) {
  switch (choice) {
    case GidSourceChoice::kSysfs:
      return GidSourceKind::kSysfs;
    case GidSourceChoice::kAuto:
      return verbs_devices_open > 0 ? GidSourceKind::kVerbs : GidSourceKind::kSysfs;
    case GidSourceChoice::kVerbs:
      if (verbs_devices_open > 0) return GidSourceKind::kVerbs;
      return Status::Unavailable(
          "--gid-source verbs: no RDMA device can be opened through libibverbs (" +
          (verbs_absent_reason.empty() ? std::string("unknown reason") : verbs_absent_reason) +
          "); use --gid-source auto or sysfs, or give the process /dev/infiniband");
  }
  return GidSourceKind::kSysfs;
}

StatusOr<GidSourceSelection> MakeGidTableSource(
    GidSourceChoice choice, VerbsApi& verbs_api,
    const std::function<std::unique_ptr<GidTableSource>()>& make_sysfs) {
  GidSourceSelection selection;
  size_t open = 0;
  std::string absent_reason;
  if (choice != GidSourceChoice::kSysfs) {
    selection.verbs_devices = std::make_unique<VerbsDeviceSet>(verbs_api);
    (void)selection.verbs_devices->Refresh();
    open = selection.verbs_devices->size();
    absent_reason = selection.verbs_devices->absent_reason();
  }
  StatusOr<GidSourceKind> kind = SelectGidSource(choice, open, absent_reason);
  if (!kind.ok()) return kind.status();
  selection.kind = *kind;
  if (*kind == GidSourceKind::kVerbs) {
    selection.source = std::make_unique<VerbsGidTableSource>(*selection.verbs_devices);
    return selection;
  }
  if (choice == GidSourceChoice::kAuto) selection.fallback_reason = absent_reason;
  selection.verbs_devices.reset();
  selection.source = make_sysfs();
  if (selection.source == nullptr) return Status::Internal("no sysfs GID reader was built");
  return selection;
}

}  // namespace rocewatch
