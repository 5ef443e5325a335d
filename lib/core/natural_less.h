#pragma once
// Orders names as people expect numbered entries: "2" < "10", "mlx5_2" < "mlx5_10". Pure.

#include <string>

namespace rocewatch {

// A strict weak order: runs of digits compare by value (leading zeros ignored), the rest bytewise.
bool NaturalLess(const std::string& a, const std::string& b);

}  // namespace rocewatch
