#include "daemon/signal_policy.h"

#include <cstring>

namespace rocewatch {

SignalAction ActionFor(int signo) {
  switch (signo) {
    case SIGTERM:
    case SIGINT:
      return SignalAction::kStop;
    case SIGHUP:
    case SIGUSR1:
    case SIGUSR2:
    case SIGALRM:
    case SIGVTALRM:
    case SIGPROF:
    case SIGIO:
    case SIGPWR:
    case SIGSTKFLT:
    case SIGXFSZ:
      return SignalAction::kLogAndIgnore;
    case SIGPIPE:
      return SignalAction::kIgnoreSilently;
    default:
      break;
  }
  if (signo >= SIGRTMIN && signo <= SIGRTMAX) return SignalAction::kLogAndIgnore;
  return SignalAction::kDefault;
}

sigset_t HandledSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int signo = 1; signo <= SIGRTMAX; ++signo) {
    const SignalAction action = ActionFor(signo);
    if (action == SignalAction::kStop || action == SignalAction::kLogAndIgnore)
      sigaddset(&set, signo);
  }
  return set;
}

std::string SignalName(int signo) {
  if (signo >= SIGRTMIN && signo <= SIGRTMAX)
    return signo == SIGRTMIN ? "SIGRTMIN" : "SIGRTMIN+" + std::to_string(signo - SIGRTMIN);
  const char* abbreviation = sigabbrev_np(signo);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation
                                 : "signal " + std::to_string(signo);
}

}  // namespace rocewatch
