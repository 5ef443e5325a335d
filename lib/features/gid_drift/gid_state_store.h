#pragma once
// Persistence of the GID drift state (known tables, departed GIDs, drift counters) across daemon
// restarts, as JSON in --state-file, stamped with the kernel boot id
// (<host-root>/proc/sys/kernel/random/boot_id):
// - restart in the same boot: the state is restored, so a GID that moved while the daemon was
//   down is a drift at the first snapshot;
// - a new boot id (the host rebooted): GID tables were rebuilt from scratch, a fresh baseline;
// - a missing file is a fresh baseline; a corrupt or unreadable file, an unreadable boot id, a
//   file of a newer schema or a failed write is a warning, a counted persistence failure and a
//   fresh baseline: never a crash.
// Nothing is lost: the file is only ever replaced by a complete state (StateFileWriter). A file
// that could not be read, one of a newer schema, or any file while the boot id is unknown is left
// untouched and not written for the rest of the run; a corrupt file is first kept as
// <path>.corrupt. The schema version (kGidStateSchemaVersion) grows when the content changes;
// every older schema is read (schema 1: rocewatch 0.1, "version": 1; schemas 1 and 2 carry no
// incidents: a file of theirs restores the GID state and no incident).
// The incidents (gid_drift/incident_state.h) are trusted apart from the GID state: a malformed
// "incidents" section drops them alone (LoadResult::incidents_note says why), the GID state is
// kept.
//
// Threading: one thread. Lifetime: `fs` and `writer` must outlive the store.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"
#include "gid_drift/gid_drift_detector.h"
#include "gid_drift/incident_state.h"
#include "os/file_system.h"
#include "os/state_file_writer.h"

namespace rocewatch {

// The schema this build writes; files of schema 1..kGidStateSchemaVersion are read.
// 2: drift entries carry the last move (old and new index).
// 3: "incidents": open incidents of the netdev, traffic and finding layers (incident_state.h).
inline constexpr int kGidStateSchemaVersion = 3;

// What the state file holds.
struct PersistedGidState {
  std::string boot_id;
  double written_at_unix_seconds = 0;
  GidDriftState state;
  PersistedIncidents incidents{};
  // Why the file's incidents were not used (an older schema, a malformed section); "" if used.
  std::string incidents_note{};
  int schema_version = kGidStateSchemaVersion;  // as read; Serialize writes the current one
};

// JSON text of the state (pure).
std::string SerializeGidState(const PersistedGidState& persisted);
// Parses the JSON text (pure). Errors: Corrupt with what is wrong; Unavailable for a schema
// newer than this build reads (never throws).
StatusOr<PersistedGidState> ParseGidState(std::string_view text);

// "ib", "roce_v1", "roce_v2", "unknown" -> the type; nullopt for anything else.
std::optional<GidType> ParseGidTypeLabel(std::string_view label);

class GidStateStore {
 public:
  // A state file larger than this is treated as corrupt (16 devices x 256 GIDs take ~1 MiB).
  static constexpr size_t kMaxStateBytes = 64 * 1024 * 1024;

  enum class Origin {
    kDisabled,     // no state file configured
    kRestored,     // same boot: the saved state is the baseline
    kNoFile,       // first start: fresh baseline
    kNewBoot,      // rebooted since the state was written: fresh baseline
    kUnusable,     // corrupt or unreadable file, or unreadable boot id: fresh baseline + warning
    kNewerSchema,  // written by a newer rocewatch: fresh baseline + warning, file untouched
  };
  static const char* OriginName(Origin origin);

  struct LoadResult {
    Origin origin = Origin::kDisabled;
    GidDriftState state;  // empty unless restored
    std::string message;  // what happened, for the log (a warning when kUnusable)
    // Unless restored: empty. Restored: the incidents, when the file was written, and why its
    // incidents were not used ("" when they were).
    PersistedIncidents incidents;
    double written_at_unix_seconds = 0;
    std::string incidents_note;
  };

  // `state_path` empty disables persistence. `boot_id_path` is
  // <host-root>/proc/sys/kernel/random/boot_id.
  GidStateStore(const FileSystem& fs, StateFileWriter& writer, std::string state_path,
                std::string boot_id_path);

  bool enabled() const { return !state_path_.empty(); }
  const std::string& path() const { return state_path_; }

  // Reads the boot id and the state file. Call once, before the first Save.
  LoadResult Load();
  // Writes `state` stamped with the boot id read by Load. Errors: Unavailable when Load found a
  // file that must not be replaced (not counted again); the writer's (counted).
  Status Save(const GidDriftState& state, double unix_seconds,
              const PersistedIncidents& incidents = {});
  // False before Load and when Load decided to leave the file untouched.
  bool may_write() const { return may_write_; }

  // Persistence failures so far (unusable loads and failed saves), for a metric.
  uint64_t failures() const { return failures_; }
  // The boot id read by Load; empty if unknown.
  const std::string& boot_id() const { return boot_id_; }

 private:
  const FileSystem& fs_;
  StateFileWriter& writer_;
  std::string state_path_;
  std::string boot_id_path_;
  std::string boot_id_;
  uint64_t failures_ = 0;
  bool may_write_ = false;
};

}  // namespace rocewatch
