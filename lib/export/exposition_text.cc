#include "export/exposition_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace rocewatch {
namespace {

bool NameChar(char c, bool first) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':' ||
         (!first && std::isdigit(static_cast<unsigned char>(c)));
}

std::optional<double> ParseValue(std::string_view text) {
  if (text == "NaN") return std::nan("");
  if (text == "+Inf" || text == "Inf") return HUGE_VAL;
  if (text == "-Inf") return -HUGE_VAL;
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size()) return std::nullopt;
  return value;
}

// One sample line; false if it is not one.
bool ParseLine(std::string_view line, ExposedSample& sample) {
  size_t at = 0;
  while (at < line.size() && NameChar(line[at], at == 0)) ++at;
  if (at == 0) return false;
  sample.name = std::string(line.substr(0, at));
  if (at < line.size() && line[at] == '{') {
    ++at;
    while (true) {
      while (at < line.size() && (line[at] == ' ' || line[at] == ',')) ++at;
      if (at < line.size() && line[at] == '}') {
        ++at;
        break;
      }
      const size_t name_start = at;
      while (at < line.size() && NameChar(line[at], at == name_start)) ++at;
      if (at == name_start || at + 1 >= line.size() || line[at] != '=' || line[at + 1] != '"')
        return false;
      std::string label(line.substr(name_start, at - name_start));
      at += 2;
      std::string value;
      while (at < line.size() && line[at] != '"') {
        if (line[at] == '\\' && at + 1 < line.size()) {
          ++at;
          value += line[at] == 'n' ? '\n' : line[at];
        } else {
          value += line[at];
        }
        ++at;
      }
      if (at >= line.size()) return false;  // unterminated value
      ++at;
      sample.labels[std::move(label)] = std::move(value);
    }
  }
  while (at < line.size() && line[at] == ' ') ++at;
  size_t end = line.find(' ', at);
  std::optional<double> value = ParseValue(line.substr(at, end - at));
  if (!value) return false;
  sample.value = *value;
  return true;
}

}  // namespace

StatusOr<std::vector<ExposedSample>> ParseExposition(std::string_view text) {
  std::vector<ExposedSample> samples;
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    ExposedSample sample;
    if (!ParseLine(line, sample))
      return Status::Corrupt("line " + std::to_string(line_number) +
                             " is not a Prometheus sample: '" + std::string(line.substr(0, 80)) +
                             "'");
    samples.push_back(std::move(sample));
  }
  return samples;
}

std::vector<const ExposedSample*> SamplesNamed(const std::vector<ExposedSample>& samples,
                                               std::string_view name) {
  std::vector<const ExposedSample*> out;
  for (const ExposedSample& s : samples)
    if (s.name == name) out.push_back(&s);
  return out;
}

}  // namespace rocewatch
