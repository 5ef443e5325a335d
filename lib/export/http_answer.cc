#include "export/http_answer.h"

namespace rocewatch {
namespace {

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
  }
}

}  // namespace

std::string HttpAnswer(int status, const std::string& content_type, const std::string& body,
                       bool head_only, const std::string& encoding) {
  std::string answer = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) +
                       "\r\nContent-Type: " + content_type + "\r\n";
  if (!encoding.empty()) answer += "Content-Encoding: " + encoding + "\r\n";
  answer += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  if (!head_only) answer += body;
  return answer;
}

std::string HttpTextAnswer(int status, const std::string& text, bool head_only) {
  return HttpAnswer(status, "text/plain", text, head_only);
}

}  // namespace rocewatch
