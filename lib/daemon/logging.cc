#include "daemon/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace rocewatch {
namespace {

// %* : the message as the body of a JSON string (quotes, backslashes and controls escaped).
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    for (char c : msg.payload) {
      switch (c) {
        case '"':
          dest.append(std::string_view("\\\""));
          break;
        case '\\':
          dest.append(std::string_view("\\\\"));
          break;
        case '\n':
          dest.append(std::string_view("\\n"));
          break;
        case '\t':
          dest.append(std::string_view("\\t"));
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            dest.append(std::string_view(buf));
          } else {
            dest.push_back(c);
          }
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }
};

}  // namespace

Status ConfigureLogging(std::string_view level, std::string_view format) {
  spdlog::level::level_enum parsed = spdlog::level::from_str(std::string(level));
  if (parsed == spdlog::level::off && level != "off") {
    return Status::InvalidArgument("invalid --log-level '" + std::string(level) +
                                   "' (use trace, debug, info, warn, error, critical or off)");
  }
  auto logger = std::make_shared<spdlog::logger>("rocewatch",
                                                 std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (format == "text") {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %l %v");
  } else if (format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l","msg":"%*"})");
    logger->set_formatter(std::move(formatter));
  } else {
    return Status::InvalidArgument("invalid --log-format '" + std::string(format) +
                                   "' (use text or json)");
  }
  logger->set_level(parsed);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(std::move(logger));
  return Status::Ok();
}

}  // namespace rocewatch
