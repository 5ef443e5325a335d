#pragma once
// Decompresses one gzip member (what the daemon serves to a scraper that accepts gzip), for
// tests. Fails the calling test on a stream that is not whole gzip.

#include <string>

namespace rocewatch {

std::string Gunzip(const std::string& compressed);

}  // namespace rocewatch
