#pragma once
// A FileSystem decorator that counts the calls it forwards, so that a benchmark can report the
// file reads and directory listings of one poll beside its time.
// Threading: not thread-safe (the benchmarks are single-threaded).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "os/file_system.h"

namespace rocewatch {

class CountingFileSystem final : public FileSystem {
 public:
  // REQUIRES: base outlives this object.
  explicit CountingFileSystem(const FileSystem& base) : base_(base) {}

  StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) const override {
    ++reads_;
    return base_.ReadFile(path, max_bytes);
  }
  StatusOr<std::vector<std::string>> ListDir(const std::string& path) const override {
    ++listings_;
    return base_.ListDir(path);
  }
  StatusOr<std::vector<std::string>> ListDirUnordered(const std::string& path) const override {
    ++listings_;
    return base_.ListDirUnordered(path);
  }
  StatusOr<std::string> ReadLink(const std::string& path) const override {
    ++links_;
    return base_.ReadLink(path);
  }
  bool IsDirectory(const std::string& path) const override {
    ++stats_;
    return base_.IsDirectory(path);
  }

  // Kept descriptors of the base file system, each read counted in preads().
  StatusOr<std::unique_ptr<OpenFile>> Open(const std::string& path) const override {
    ++opens_;
    auto file = base_.Open(path);
    if (!file.ok()) return file.status();
    return std::unique_ptr<OpenFile>(std::make_unique<CountedFile>(std::move(*file), &preads_));
  }

  uint64_t reads() const { return reads_; }
  uint64_t opens() const { return opens_; }
  uint64_t preads() const { return preads_; }
  uint64_t listings() const { return listings_; }
  uint64_t links() const { return links_; }
  uint64_t stats() const { return stats_; }

 private:
  class CountedFile final : public OpenFile {
   public:
    CountedFile(std::unique_ptr<OpenFile> file, uint64_t* reads)
        : file_(std::move(file)), reads_(reads) {}
    Status ReadInto(std::string* content, size_t max_bytes) override {
      ++*reads_;
      return file_->ReadInto(content, max_bytes);
    }

   private:
    std::unique_ptr<OpenFile> file_;
    uint64_t* reads_;
  };

  const FileSystem& base_;
  mutable uint64_t opens_ = 0;
  mutable uint64_t preads_ = 0;
  mutable uint64_t reads_ = 0;
  mutable uint64_t listings_ = 0;
  mutable uint64_t links_ = 0;
  mutable uint64_t stats_ = 0;
};

}  // namespace rocewatch
