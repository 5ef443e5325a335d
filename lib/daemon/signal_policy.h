#pragma once
// What `rocewatch run` does with each catchable signal (docs/reliability.md, "Signals"):
//   stop (clean exit 0, "received SIGTERM, stopping"): SIGTERM, SIGINT;
//   logged and ignored: SIGHUP (nothing to reload), SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
//     SIGPROF, SIGIO, SIGPWR, SIGSTKFLT, SIGXFSZ (a write past the file-size limit then fails with
//     EFBIG, counted like any failed state write) and the real-time signals SIGRTMIN..SIGRTMAX;
//   ignored, not logged: SIGPIPE (a peer that went away; every socket write also says
//     MSG_NOSIGNAL);
//   left to their default on purpose: SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV,
//     SIGSYS, SIGXCPU (a fault or an operator asking for a core: going on would be worse), the
//     job-control signals SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, and SIGCHLD, SIGURG, SIGWINCH
//     (ignored by default).
// SIGKILL and SIGSTOP cannot be caught.

#include <signal.h>

#include <string>

namespace rocewatch {

enum class SignalAction { kStop, kLogAndIgnore, kIgnoreSilently, kDefault };

SignalAction ActionFor(int signo);

// The signals delivered through the daemon's signalfd: those that stop it or are logged.
sigset_t HandledSignals();

// "SIGUSR1", "SIGRTMIN+3", or "signal 99".
std::string SignalName(int signo);

}  // namespace rocewatch
