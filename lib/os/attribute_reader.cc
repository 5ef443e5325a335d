#include "os/attribute_reader.h"

#include <cerrno>

namespace rocewatch {
namespace {

// A kept descriptor failing with these means the file is not the one the path names now.
bool FileIsGone(const Status& status) {
  const int e = status.sys_errno();
  return e == ENODEV || e == ENOENT || e == ESTALE;
}

// The failure, named by the attribute's path (an OpenFile's own errors name only its descriptor).
Status WithPath(const Status& status, const std::string& path) {
  return status.sys_errno() != 0 ? Status::FromErrno(status.sys_errno(), path) : status;
}

}  // namespace

KeptAttribute& KeptAttribute::operator=(KeptAttribute&& other) noexcept {
  if (this == &other) return *this;
  Close();
  path_ = std::move(other.path_);
  file_ = std::move(other.file_);
  open_count_ = other.open_count_;
  other.open_count_ = nullptr;
  return *this;
}

void KeptAttribute::Close() {
  if (file_ == nullptr) return;
  file_.reset();
  if (open_count_ != nullptr) --*open_count_;
  open_count_ = nullptr;
}

AttributeReader::~AttributeReader() = default;

Status AttributeReader::OpenAndRead(KeptAttribute& attribute, std::string* content) {
  if (open_count_ >= max_open_) {
    ++stats_.unkept_reads;
    StatusOr<std::string> read = fs_.ReadFile(attribute.path_, FileSystem::kDefaultMaxRead);
    if (!read.ok()) return read.status();
    *content = std::move(*read);
    return Status::Ok();
  }
  StatusOr<std::unique_ptr<OpenFile>> file = fs_.Open(attribute.path_);
  if (!file.ok()) return file.status();
  ++stats_.opens;
  attribute.file_ = std::move(*file);
  attribute.open_count_ = &open_count_;
  ++open_count_;
  Status status = attribute.file_->ReadInto(content, FileSystem::kDefaultMaxRead);
  if (status.ok()) return status;
  attribute.Close();
  return WithPath(status, attribute.path_);
}

Status AttributeReader::Read(KeptAttribute& attribute, std::string* content) {
  ++stats_.reads;
  if (attribute.file_ == nullptr) return OpenAndRead(attribute, content);
  Status status = attribute.file_->ReadInto(content, FileSystem::kDefaultMaxRead);
  if (status.ok()) return status;
  attribute.Close();
  if (!FileIsGone(status)) return WithPath(status, attribute.path_);
  ++stats_.reopens;
  return OpenAndRead(attribute, content);
}

size_t KeptDescriptorBudget(uint64_t open_file_limit, uint64_t reserve) {
  return open_file_limit > reserve ? static_cast<size_t>(open_file_limit - reserve) : 0;
}

}  // namespace rocewatch
