#include "support/gunzip.h"

#include <gtest/gtest.h>
#include <zlib.h>

namespace rocewatch {

std::string Gunzip(const std::string& compressed) {
  z_stream stream{};
  EXPECT_EQ(inflateInit2(&stream, 15 + 16), Z_OK);  // gzip only
  std::string out;
  char buffer[65536];
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  int result = Z_OK;
  while (result == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof(buffer);
    result = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof(buffer) - stream.avail_out);
    if (result == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) break;  // truncated
  }
  EXPECT_EQ(result, Z_STREAM_END) << "not a whole gzip stream";
  inflateEnd(&stream);
  return out;
}

}  // namespace rocewatch
