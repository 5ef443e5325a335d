#pragma once
// Sysfs attributes read through descriptors kept open (FileSystem::Open), within a budget of
// descriptors. The kernel regenerates an attribute on every read at offset 0, so a poll costs one
// pread per attribute instead of open + read + close.
//
// A KeptAttribute names one file and holds its descriptor once read. AttributeReader::Read
//   - opens it on first use while fewer than `max_open` are open, and keeps the descriptor;
//     beyond the budget it reads through FileSystem::ReadFile (open/read/close) every time, so a
//     node larger than the budget is read more slowly, never wrongly;
//   - preads the kept descriptor otherwise;
//   - when a kept descriptor fails with ENODEV, ENOENT or ESTALE (the netdev or RDMA device behind
//     it was removed; one re-created under the same name has new files), closes it, opens the
//     path again and reads once more: the answer is the new file's content or the open's
//     NotFound;
//   - on any other failure closes the descriptor as well, so that the next read opens the path
//     afresh (an attribute that has no value now, e.g. EINVAL, keeps no descriptor).
// Content that cannot change while a device exists (a sysfs file is never replaced in place of
// another) is therefore always fresh. A file REPLACED by rename on an ordinary file system is not
// seen through a kept descriptor: test fixtures write in place (tests/support/sysfs_fixture.h).
//
// Threading: not thread-safe; one reader and its attributes belong to one thread. `fs` must
// outlive the reader, and the reader every KeptAttribute it opened.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/status.h"
#include "os/file_system.h"

namespace rocewatch {

class AttributeReader;

class KeptAttribute {
 public:
  KeptAttribute() = default;
  explicit KeptAttribute(std::string path) : path_(std::move(path)) {}
  ~KeptAttribute() { Close(); }
  KeptAttribute(KeptAttribute&& other) noexcept { *this = std::move(other); }
  KeptAttribute& operator=(KeptAttribute&& other) noexcept;
  KeptAttribute(const KeptAttribute&) = delete;
  KeptAttribute& operator=(const KeptAttribute&) = delete;

  const std::string& path() const { return path_; }
  bool is_open() const { return file_ != nullptr; }
  // Closes the descriptor (the next read opens the path again).
  void Close();

 private:
  friend class AttributeReader;
  std::string path_;
  std::unique_ptr<OpenFile> file_;
  size_t* open_count_ = nullptr;  // the reader's count while file_ is set
};

class AttributeReader {
 public:
  struct Stats {
    uint64_t reads = 0;         // Read calls
    uint64_t opens = 0;         // descriptors opened (first reads and reopens)
    uint64_t reopens = 0;       // kept descriptors that failed with ENODEV/ENOENT/ESTALE
    uint64_t unkept_reads = 0;  // reads through ReadFile because the budget was spent
  };

  // REQUIRES: fs outlives the reader.
  AttributeReader(const FileSystem& fs, size_t max_open) : fs_(fs), max_open_(max_open) {}
  ~AttributeReader();
  AttributeReader(const AttributeReader&) = delete;
  AttributeReader& operator=(const AttributeReader&) = delete;

  // Replaces *content with the attribute's content now (at most FileSystem::kDefaultMaxRead).
  // Errors: the Status of the failing open or read (NotFound for a path that does not exist).
  Status Read(KeptAttribute& attribute, std::string* content);

  size_t open_count() const { return open_count_; }
  size_t max_open() const { return max_open_; }
  const Stats& stats() const { return stats_; }
  const FileSystem& fs() const { return fs_; }

 private:
  Status OpenAndRead(KeptAttribute& attribute, std::string* content);

  const FileSystem& fs_;
  const size_t max_open_;
  size_t open_count_ = 0;
  Stats stats_;
};

// Budget of kept descriptors for a process whose open-file limit is `open_file_limit`: the limit
// less `reserve` for everything else the daemon opens (sockets, scrapes, state file, verbs, procfs
// reads). 0 when the limit is at or below the reserve.
size_t KeptDescriptorBudget(uint64_t open_file_limit, uint64_t reserve = 256);

}  // namespace rocewatch
