#include "gid/gid_state_store.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace rocewatch {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "rocewatch-gid-state";
constexpr int kVersion = 1;

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

PersistedGidState FromJson(const json& root) {
  if (!root.is_object()) throw std::out_of_range("not a JSON object");
  if (Get<std::string>(root, "format") != kFormat)
    throw std::out_of_range("not a rocewatch GID state");
  if (Get<int>(root, "version") != kVersion)
    throw std::out_of_range("unsupported version " + root.at("version").dump());
  PersistedGidState out;
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
    GidDriftCounter counter{GetUint64(d, "events"), Get<double>(d, "last_drift_unix_seconds")};
    if (!std::isfinite(counter.last_drift_unix_seconds))
      throw std::out_of_range("last_drift_unix_seconds is not finite");
    out.state.counters[key] = counter;
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
  for (const auto& [key, counter] : persisted.state.counters)
    drift.push_back({{"device", key.device},
                     {"port", key.port},
                     {"netdev", key.netdev},
                     {"events", counter.events},
                     {"last_drift_unix_seconds", counter.last_drift_unix_seconds}});
  json root = {{"format", kFormat},
               {"version", kVersion},
               {"boot_id", persisted.boot_id},
               {"written_at", persisted.written_at_unix_seconds},
               {"next_departure", persisted.state.next_departure},
               {"ports", std::move(ports)},
               {"drift", std::move(drift)}};
  // Replace invalid UTF-8 (a netdev name is bytes) rather than throw.
  return root.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

StatusOr<PersistedGidState> ParseGidState(std::string_view text) {
  json root = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Status::Corrupt("not valid JSON");
  try {
    return FromJson(root);
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
        "): cannot tell a restart from a reboot, starting a fresh GID baseline";
    return result;
  }
  StatusOr<std::string> text = fs_.ReadFile(state_path_, kMaxStateBytes);
  if (!text.ok()) {
    if (text.status().code() == StatusCode::kNotFound) {
      result.origin = Origin::kNoFile;
      result.message = "no GID state at " + state_path_ + ": starting a fresh GID baseline";
      return result;
    }
    ++failures_;
    result.origin = Origin::kUnusable;
    result.message = "cannot read the GID state (" + text.status().ToString() +
                     "): starting a fresh GID baseline";
    return result;
  }
  StatusOr<PersistedGidState> persisted =
      text->size() >= kMaxStateBytes ? StatusOr<PersistedGidState>(Status::Corrupt("too large"))
                                     : ParseGidState(*text);
  if (!persisted.ok()) {
    ++failures_;
    result.origin = Origin::kUnusable;
    result.message = "the GID state " + state_path_ + " is unusable (" +
                     persisted.status().message() + "): starting a fresh GID baseline";
    return result;
  }
  if (persisted->boot_id != boot_id_) {
    result.origin = Origin::kNewBoot;
    result.message = "the host rebooted since the GID state was written (boot id " +
                     persisted->boot_id + " -> " + boot_id_ + "): starting a fresh GID baseline";
    return result;
  }
  result.origin = Origin::kRestored;
  result.state = std::move(persisted->state);
  result.message = "restored the GID state of " + std::to_string(result.state.tables.size()) +
                   " ports from " + state_path_;
  return result;
}

Status GidStateStore::Save(const GidDriftState& state, double unix_seconds) {
  if (!enabled()) return Status::Ok();
  Status status =
      writer_.WriteAtomically(state_path_, SerializeGidState({boot_id_, unix_seconds, state}));
  if (!status.ok()) ++failures_;
  return status;
}

}  // namespace rocewatch
