#include "core/flag_table.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/duration.h"
#include "core/text.h"

namespace rocewatch {
namespace {

StatusOr<Duration> ParseNamedDuration(const std::string& name, const std::string& text) {
  StatusOr<Duration> d = ParseDuration(text);
  if (!d.ok()) return Status::InvalidArgument(name + ": " + d.status().message());
  return d;
}

StatusOr<int64_t> ParseBoundedInteger(const std::string& name, const std::string& text, int64_t min,
                                      int64_t max) {
  long long value = 0;
  if (!ParseInteger(Trim(text), &value))
    return Status::InvalidArgument(name + ": '" + text + "' is not an integer");
  if (value < min || value > max)
    return Status::InvalidArgument(name + ": " + std::to_string(value) + " is not in [" +
                                   std::to_string(min) + ", " + std::to_string(max) + "]");
  return static_cast<int64_t>(value);
}

}  // namespace

std::string FlagTable::EnvironmentVariableOf(const std::string& name) {
  std::string env = "ROCEWATCH_" + name.substr(name.rfind("--", 0) == 0 ? 2 : 0);
  for (char& c : env) c = c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return env;
}

FlagTable& FlagTable::Add(std::string name, std::string help, std::string text,
                          std::string type_name, std::function<Status(const std::string&)> apply) {
  Row row;
  row.type_name = std::move(type_name);
  row.group = group_;
  row.env = EnvironmentVariableOf(name);
  row.name = std::move(name);
  row.help = std::move(help);
  row.text = std::move(text);
  row.apply = std::move(apply);
  rows_.push_back(std::move(row));
  return *this;
}

FlagTable& FlagTable::AnyDuration(std::string name, std::string help, Duration& field) {
  return Add(name, std::move(help), FormatDuration(field), "DURATION",
             [name, &field](const std::string& text) -> Status {
               StatusOr<Duration> d = ParseNamedDuration(name, text);
               if (!d.ok()) return d.status();
               field = *d;
               return Status::Ok();
             });
}

FlagTable& FlagTable::PositiveDuration(std::string name, std::string help, Duration& field) {
  return Add(name, std::move(help), FormatDuration(field), "DURATION",
             [name, &field](const std::string& text) -> Status {
               StatusOr<Duration> d = ParseNamedDuration(name, text);
               if (!d.ok()) return d.status();
               if (*d <= Duration::zero())
                 return Status::InvalidArgument(name + " must be positive");
               field = *d;
               return Status::Ok();
             });
}

FlagTable& FlagTable::Text(std::string name, std::string help, std::string& field) {
  Add(std::move(name), std::move(help), field, "TEXT", [&field](const std::string& text) {
    field = text;
    return Status::Ok();
  });
  rows_.back().show_default = !field.empty();
  return *this;
}

FlagTable& FlagTable::Integer(std::string name, std::string help, int64_t min, int64_t max,
                              int& field) {
  return Add(name, std::move(help), std::to_string(field), "INT",
             [name, min, max, &field](const std::string& text) -> Status {
               StatusOr<int64_t> value = ParseBoundedInteger(name, text, min, max);
               if (!value.ok()) return value.status();
               field = static_cast<int>(*value);
               return Status::Ok();
             });
}

FlagTable& FlagTable::OptionalInteger(std::string name, std::string help, int64_t min, int64_t max,
                                      std::optional<uint32_t>& field) {
  Add(name, std::move(help), field ? std::to_string(*field) : "", "INT",
      [name, min, max, &field](const std::string& text) -> Status {
        if (text.empty()) {
          field.reset();
          return Status::Ok();
        }
        StatusOr<int64_t> value = ParseBoundedInteger(name, text, min, max);
        if (!value.ok()) return value.status();
        field = static_cast<uint32_t>(*value);
        return Status::Ok();
      });
  rows_.back().show_default = field.has_value();
  return *this;
}

FlagTable& FlagTable::Number(std::string name, std::string help, double& field) {
  std::ostringstream shown;
  shown << field;
  return Add(name, std::move(help), shown.str(), "NUMBER",
             [name, &field](const std::string& text) -> Status {
               const std::string trimmed(Trim(text));
               char* end = nullptr;
               errno = 0;
               const double value = trimmed.empty() ? 0 : std::strtod(trimmed.c_str(), &end);
               if (trimmed.empty() || end != trimmed.c_str() + trimmed.size() || errno != 0 ||
                   !std::isfinite(value))
                 return Status::InvalidArgument(name + ": '" + text + "' is not a number");
               field = value;
               return Status::Ok();
             });
}

FlagTable& FlagTable::Count(std::string name, std::string help, size_t& field) {
  return Add(name, std::move(help), std::to_string(field), "INT",
             [name, &field](const std::string& text) -> Status {
               StatusOr<int64_t> value = ParseBoundedInteger(name, text, 1, int64_t{1} << 32);
               if (!value.ok()) return value.status();
               field = static_cast<size_t>(*value);
               return Status::Ok();
             });
}

FlagTable& FlagTable::Switch(std::string name, std::string help, bool& field) {
  Add(std::move(name), std::move(help), field ? "true" : "false", "",
      [&field](const std::string& text) {
        field = text == "true";
        return Status::Ok();
      });
  rows_.back().is_switch = true;
  rows_.back().switched_on = field;
  rows_.back().show_default = false;
  return *this;
}

FlagTable& FlagTable::Group(std::string group) {
  group_ = std::move(group);
  return *this;
}

FlagTable& FlagTable::Custom(std::string name, std::string help, std::string default_text,
                             std::function<Status(const std::string& text)> parse) {
  return Add(std::move(name), std::move(help), std::move(default_text), "TEXT", std::move(parse));
}

void FlagTable::AddTo(CLI::App& command) {
  for (Row& row : rows_) {
    CLI::Option* option =
        row.is_switch ? command.add_flag(row.name, row.switched_on, row.help)->envname(row.env)
                      : command.add_option(row.name, row.text, row.help)
                            ->envname(row.env)
                            ->type_name(row.type_name);
    if (!row.group.empty()) option->group(row.group);
    if (row.show_default) option->capture_default_str();
  }
}

Status FlagTable::Apply() const {
  for (const Row& row : rows_) {
    const std::string text = row.is_switch ? (row.switched_on ? "true" : "false") : row.text;
    if (Status applied = row.apply(text); !applied.ok()) return applied;
  }
  return Status::Ok();
}

}  // namespace rocewatch
