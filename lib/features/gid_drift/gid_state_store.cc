#include "gid_drift/gid_state_store.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace rocewatch {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "rocewatch-gid-state";

json EntryToJson(const GidEntry& e) {
  return json{
      {"index", e.index}, {"gid", e.gid}, {"type", GidTypeLabel(e.type)}, {"netdev", e.netdev}};
}

// The typed accessors below throw nlohmann::json exceptions on a wrong type or a missing key;
// ParseGidState catches them all and reports the file as corrupt.
template <typename T>
T Get(const json& object, const char* key) {
  return object.at(key).get<T>();
}

// An unsigned number that fits T (get<T>() alone would wrap -2 silently).
template <typename T>
T GetUnsigned(const json& object, const char* key) {
  const json& value = object.at(key);
  if (!value.is_number_unsigned() || value.get<uint64_t>() > std::numeric_limits<T>::max())
    throw std::out_of_range(std::string(key) + " is not an unsigned number in range");
  return value.get<T>();
}
uint32_t GetUint32(const json& object, const char* key) {
  return GetUnsigned<uint32_t>(object, key);
}
uint64_t GetUint64(const json& object, const char* key) {
  return GetUnsigned<uint64_t>(object, key);
}

GidEntry EntryFromJson(const json& object, uint32_t port) {
  GidEntry e;
  e.port = port;
  e.index = GetUint32(object, "index");
  e.gid = Get<std::string>(object, "gid");
  if (GidOfAddress(e.gid) != e.gid) throw std::out_of_range("malformed gid '" + e.gid + "'");
  std::string type = Get<std::string>(object, "type");
  std::optional<GidType> parsed = ParseGidTypeLabel(type);
  if (!parsed) throw std::out_of_range("unknown GID type '" + type + "'");
  e.type = *parsed;
  e.netdev = Get<std::string>(object, "netdev");
  return e;
}

// Schema 1 (rocewatch 0.1) wrote "version": 1; from schema 2 on the key is "schema_version".
// Returns the version as written (>= 1; any size, so a far newer file reads as newer, never as an
// old one); throws on 0, a non-number, or a "version" other than 1.
uint32_t SchemaVersionOf(const json& root) {
  if (root.contains("schema_version")) {
    uint32_t version = GetUint32(root, "schema_version");
    if (version == 0) throw std::out_of_range("schema_version 0 was never written");
    return version;
  }
  if (GetUint32(root, "version") != 1)
    throw std::out_of_range("unsupported version " + root.at("version").dump());
  return 1;
}

PersistedGidState FromJson(const json& root, int schema) {
  PersistedGidState out;
  out.schema_version = schema;
  out.boot_id = Get<std::string>(root, "boot_id");
  out.written_at_unix_seconds = Get<double>(root, "written_at");
  out.state.next_departure = GetUint64(root, "next_departure");
  for (const json& p : root.at("ports")) {
    GidPortKey key{Get<std::string>(p, "device"), GetUint32(p, "port")};
    KnownGidPort& known = out.state.tables[key];
    for (const json& g : p.at("gids")) known.entries.push_back(EntryFromJson(g, key.port));
    for (const json& d : p.at("departed")) {
      GidEntry e = EntryFromJson(d, key.port);
      known.departed[IdentityOf(e)] = {e.index, GetUint64(d, "order")};
    }
    std::stable_sort(known.entries.begin(), known.entries.end(),
                     [](const GidEntry& a, const GidEntry& b) { return a.index < b.index; });
  }
  for (const json& d : root.at("drift")) {
    GidDriftKey key{Get<std::string>(d, "device"), GetUint32(d, "port"),
                    Get<std::string>(d, "netdev")};
    GidDriftCounter counter{GetUint64(d, "events"), Get<double>(d, "last_drift_unix_seconds"),
                            std::nullopt};
    if (!std::isfinite(counter.last_drift_unix_seconds))
      throw std::out_of_range("last_drift_unix_seconds is not finite");
    if (schema >= 2 && d.contains("last_move") && !d.at("last_move").is_null()) {
      const json& m = d.at("last_move");
      GidEntry moved = EntryFromJson(m, key.port);  // index: the new one
      counter.last_move =
          GidLastMove{moved.gid, moved.type, GetUint32(m, "old_index"), moved.index};
    }
    out.state.counters[key] = counter;
  }
  if (schema < 3) {
    out.incidents_note = "schema " + std::to_string(schema) + " kept no incidents";
  } else if (root.contains("incidents")) {
    try {
      out.incidents = IncidentsFromJson(root.at("incidents"));
    } catch (const std::exception& e) {
      out.incidents_note = std::string("its incidents are unusable (") + e.what() + ")";
    }
  }
  return out;
}

}  // namespace

std::optional<GidType> ParseGidTypeLabel(std::string_view label) {
  for (GidType type : {GidType::kIb, GidType::kRoceV1, GidType::kRoceV2, GidType::kUnknown})
    if (label == GidTypeLabel(type)) return type;
  return std::nullopt;
}

std::string SerializeGidState(const PersistedGidState& persisted) {
  json ports = json::array();
  for (const auto& [key, known] : persisted.state.tables) {
    json gids = json::array();
    for (const GidEntry& e : known.entries) gids.push_back(EntryToJson(e));
    json departed = json::array();
    for (const auto& [id, d] : known.departed) {
      json entry = EntryToJson({key.port, d.index, id.gid, id.type, id.netdev});
      entry["order"] = d.order;
      departed.push_back(std::move(entry));
    }
    ports.push_back({{"device", key.device},
                     {"port", key.port},
                     {"gids", std::move(gids)},
                     {"departed", std::move(departed)}});
  }
  json drift = json::array();
  for (const auto& [key, counter] : persisted.state.counters) {
    json entry = {{"device", key.device},
                  {"port", key.port},
                  {"netdev", key.netdev},
                  {"events", counter.events},
                  {"last_drift_unix_seconds", counter.last_drift_unix_seconds}};
    if (const std::optional<GidLastMove>& m = counter.last_move) {
      json move = EntryToJson({key.port, m->new_index, m->gid, m->type, key.netdev});
      move["old_index"] = m->old_index;
      entry["last_move"] = std::move(move);
    }
    drift.push_back(std::move(entry));
  }
  json root = {{"format", kFormat},
               {"schema_version", kGidStateSchemaVersion},
               {"boot_id", persisted.boot_id},
               {"written_at", persisted.written_at_unix_seconds},
               {"next_departure", persisted.state.next_departure},
               {"ports", std::move(ports)},
               {"drift", std::move(drift)},
               {"incidents", IncidentsToJson(persisted.incidents)}};
  // Replace invalid UTF-8 (a netdev name is bytes) rather than throw.
  return root.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

StatusOr<PersistedGidState> ParseGidState(std::string_view text) {
  json root = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Status::Corrupt("not valid JSON");
  uint32_t schema = 0;
  try {
    if (!root.is_object()) throw std::out_of_range("not a JSON object");
    if (Get<std::string>(root, "format") != kFormat)
      throw std::out_of_range("not a rocewatch GID state");
    schema = SchemaVersionOf(root);
  } catch (const std::exception& e) {
    return Status::Corrupt(e.what());
  }
  if (schema > static_cast<uint32_t>(kGidStateSchemaVersion)) {
    return Status::Unavailable("written by a newer rocewatch (schema version " +
                               std::to_string(schema) + "; this one reads up to " +
                               std::to_string(kGidStateSchemaVersion) + ")");
  }
  try {
    return FromJson(root, static_cast<int>(schema));
  } catch (const std::exception& e) {  // nlohmann::json::exception and our own out_of_range
    return Status::Corrupt(e.what());
  }
}

const char* GidStateStore::OriginName(Origin origin) {
  switch (origin) {
    case Origin::kDisabled:
      return "disabled";
    case Origin::kRestored:
      return "restored";
    case Origin::kNoFile:
      return "no_file";
    case Origin::kNewBoot:
      return "new_boot";
    case Origin::kUnusable:
      return "unusable";
    case Origin::kNewerSchema:
      return "newer_schema";
  }
  return "unusable";
}

GidStateStore::GidStateStore(const FileSystem& fs, StateFileWriter& writer, std::string state_path,
                             std::string boot_id_path)
    : fs_(fs),
      writer_(writer),
      state_path_(std::move(state_path)),
      boot_id_path_(std::move(boot_id_path)) {}

GidStateStore::LoadResult GidStateStore::Load() {
  LoadResult result;
  may_write_ = false;
  if (!enabled()) {
    result.message = "GID state persistence disabled (--state-file is empty)";
    return result;
  }
  StatusOr<std::string> boot_id = fs_.ReadFile(boot_id_path_, 256);
  if (boot_id.ok()) {
    boot_id_ = *boot_id;
    while (!boot_id_.empty() && (boot_id_.back() == '\n' || boot_id_.back() == ' '))
      boot_id_.pop_back();
  }
  if (boot_id_.empty()) {
    ++failures_;
    result.origin = Origin::kUnusable;
    result.message =
        "cannot read the kernel boot id (" +
        (boot_id.ok() ? std::string("empty ") + boot_id_path_ : boot_id.status().ToString()) +
        "): cannot tell a restart from a reboot; starting a fresh GID baseline, leaving " +
        state_path_ + " untouched and not persisting until a restart";
    return result;
  }
  StatusOr<std::string> text = fs_.ReadFile(state_path_, kMaxStateBytes);
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound) {
      may_write_ = true;
      result.origin = Origin::kNoFile;
      result.message = "no GID state at " + state_path_ + ": starting a fresh GID baseline";
      return result;
    }
    ++failures_;
    result.origin = Origin::kUnusable;
    result.message = "cannot read the GID state (" + text.status().ToString() +
                     "): starting a fresh GID baseline; the file is left untouched and not "
                     "persisted until a restart";
    return result;
  }
  StatusOr<PersistedGidState> persisted =
      text->size() >= kMaxStateBytes ? StatusOr<PersistedGidState>(Status::Corrupt("too large"))
                                     : ParseGidState(*text);
  if (!persisted.ok() && persisted.status().code() == StatusCode::kUnavailable) {
    ++failures_;
    result.origin = Origin::kNewerSchema;
    result.message = "the GID state " + state_path_ + " was " + persisted.status().message() +
                     ": left untouched and not persisted (upgrade rocewatch again, or move the "
                     "file away to start a fresh baseline)";
    return result;
  }
  if (!persisted.ok()) {
    ++failures_;
    result.origin = Origin::kUnusable;
    const std::string kept = state_path_ + ".corrupt";
    Status copied = writer_.WriteAtomically(kept, *text);
    may_write_ = copied.ok();
    result.message = "the GID state " + state_path_ + " is unusable (" +
                     persisted.status().message() + "): starting a fresh GID baseline; " +
                     (copied.ok() ? "the old content is kept as " + kept
                                  : "cannot keep a copy (" + copied.ToString() +
                                        "), so it is left untouched and not persisted");
    return result;
  }
  may_write_ = true;
  if (persisted->boot_id != boot_id_) {
    result.origin = Origin::kNewBoot;
    result.message = "the host rebooted since the GID state was written (boot id " +
                     persisted->boot_id + " -> " + boot_id_ + "): starting a fresh GID baseline";
    return result;
  }
  result.origin = Origin::kRestored;
  result.state = std::move(persisted->state);
  result.incidents = std::move(persisted->incidents);
  result.written_at_unix_seconds = persisted->written_at_unix_seconds;
  result.incidents_note = std::move(persisted->incidents_note);
  result.message = "restored the GID state of " + std::to_string(result.state.tables.size()) +
                   " ports from " + state_path_ + " (schema version " +
                   std::to_string(persisted->schema_version) + ")";
  return result;
}

Status GidStateStore::Save(const GidDriftState& state, double unix_seconds,
                           const PersistedIncidents& incidents) {
  if (!enabled()) return Status::Ok();
  if (!may_write_)
    return Status::Unavailable("not replacing " + state_path_ +
                               ": it could not be used at start (see the start log)");
  Status status = writer_.WriteAtomically(
      state_path_,
      SerializeGidState({boot_id_, unix_seconds, state, incidents, "", kGidStateSchemaVersion}));
  if (!status.ok()) ++failures_;
  return status;
}

}  // namespace rocewatch
