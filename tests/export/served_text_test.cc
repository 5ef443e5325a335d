#include "export/served_text.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "support/gunzip.h"

namespace rocewatch {
namespace {

TEST(ServedText, GzippedIsTheTextAsOneGzipMemberMadeOnce) {
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "rocewatch_port_rcv_bytes_total{device=\"mlx5_" + std::to_string(i % 16) + "\"} " +
            std::to_string(i * 7919) + "\n";
  const ServedText served(text);
  const std::string* gzipped = served.gzipped();
  ASSERT_NE(gzipped, nullptr);
  EXPECT_LT(gzipped->size(), text.size() / 4);
  EXPECT_EQ(static_cast<unsigned char>((*gzipped)[0]), 0x1f);  // the gzip magic
  EXPECT_EQ(static_cast<unsigned char>((*gzipped)[1]), 0x8b);
  EXPECT_EQ(Gunzip(*gzipped), text);
  EXPECT_EQ(served.gzipped(), gzipped);
  EXPECT_EQ(served.text(), text);
}

TEST(ServedText, ThreadsAskingAtOnceGetTheSameCompressedForm) {
  const ServedText served(std::string(100000, 'x'));
  std::vector<const std::string*> seen(4);
  std::vector<std::thread> threads;
  for (auto& slot : seen) threads.emplace_back([&served, &slot] { slot = served.gzipped(); });
  for (auto& thread : threads) thread.join();
  ASSERT_NE(seen[0], nullptr);
  for (const std::string* each : seen) EXPECT_EQ(each, seen[0]);
  EXPECT_EQ(Gunzip(*seen[0]), served.text());
}

TEST(ServedText, EmptyTextCompressesToAnEmptyMember) {
  const ServedText served("");
  ASSERT_NE(served.gzipped(), nullptr);
  EXPECT_EQ(Gunzip(*served.gzipped()), "");
}

TEST(AcceptsGzip, ReadsTheAcceptEncodingHeader) {
  for (const char* yes : {"gzip", "GZIP", "deflate, gzip", "gzip;q=0.5", "br;q=1.0, gzip ; q=1",
                          "*", "identity, *;q=0.1"})
    EXPECT_TRUE(AcceptsGzip(yes)) << yes;
  for (const char* no :
       {"", "identity", "deflate", "gzip;q=0", "gzip; q=0.000", "x-gzip2", "br, gzip;q=0.0"})
    EXPECT_FALSE(AcceptsGzip(no)) << no;
}

}  // namespace
}  // namespace rocewatch
