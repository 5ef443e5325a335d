#include "core/natural_less.h"

#include <cctype>

namespace rocewatch {

bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    bool a_digit = std::isdigit(static_cast<unsigned char>(a[i]));
    bool b_digit = std::isdigit(static_cast<unsigned char>(b[j]));
    if (a_digit && b_digit) {
      size_t i_end = i, j_end = j;
      while (i_end < a.size() && std::isdigit(static_cast<unsigned char>(a[i_end]))) ++i_end;
      while (j_end < b.size() && std::isdigit(static_cast<unsigned char>(b[j_end]))) ++j_end;
      // Compare numerically without overflow: strip leading zeros, then length, then digits.
      size_t ia = i, jb = j;
      while (ia + 1 < i_end && a[ia] == '0') ++ia;
      while (jb + 1 < j_end && b[jb] == '0') ++jb;
      if (i_end - ia != j_end - jb) return i_end - ia < j_end - jb;
      int cmp = a.compare(ia, i_end - ia, b, jb, j_end - jb);
      if (cmp != 0) return cmp < 0;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return (a.size() - i) < (b.size() - j);
}

}  // namespace rocewatch
