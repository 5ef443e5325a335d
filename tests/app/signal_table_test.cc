// The signal policy as a table over every signal number: each one the kernel can deliver has an
// action decided on purpose (daemon/signal_policy.h), and the signalfd's set is exactly the
// signals that stop the daemon or are logged. The real daemon receiving them:
// tests/integration/signal_policy_test.cc.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <set>

#include "daemon/signal_policy.h"

namespace rocewatch {
namespace {

// The decision for each standard signal, written out as the header states it. A signal added to
// or moved in ActionFor without this table following fails here.
const std::map<int, SignalAction>& DecidedStandardSignals() {
  static const std::map<int, SignalAction> table = {
      {SIGTERM, SignalAction::kStop},           {SIGINT, SignalAction::kStop},
      {SIGHUP, SignalAction::kLogAndIgnore},    {SIGUSR1, SignalAction::kLogAndIgnore},
      {SIGUSR2, SignalAction::kLogAndIgnore},   {SIGALRM, SignalAction::kLogAndIgnore},
      {SIGVTALRM, SignalAction::kLogAndIgnore}, {SIGPROF, SignalAction::kLogAndIgnore},
      {SIGIO, SignalAction::kLogAndIgnore},     {SIGPWR, SignalAction::kLogAndIgnore},
      {SIGSTKFLT, SignalAction::kLogAndIgnore}, {SIGXFSZ, SignalAction::kLogAndIgnore},
      {SIGPIPE, SignalAction::kIgnoreSilently}, {SIGQUIT, SignalAction::kDefault},
      {SIGILL, SignalAction::kDefault},         {SIGTRAP, SignalAction::kDefault},
      {SIGABRT, SignalAction::kDefault},        {SIGBUS, SignalAction::kDefault},
      {SIGFPE, SignalAction::kDefault},         {SIGSEGV, SignalAction::kDefault},
      {SIGSYS, SignalAction::kDefault},         {SIGXCPU, SignalAction::kDefault},
      {SIGTSTP, SignalAction::kDefault},        {SIGTTIN, SignalAction::kDefault},
      {SIGTTOU, SignalAction::kDefault},        {SIGCONT, SignalAction::kDefault},
      {SIGCHLD, SignalAction::kDefault},        {SIGURG, SignalAction::kDefault},
      {SIGWINCH, SignalAction::kDefault},       {SIGKILL, SignalAction::kDefault},
      {SIGSTOP, SignalAction::kDefault},
  };
  return table;
}

TEST(SignalTableTest, EveryStandardSignalHasTheActionTheHeaderStates) {
  for (int signo = 1; signo < SIGRTMIN; ++signo) {
    // glibc keeps the numbers between SIGSYS and SIGRTMIN for itself (its threads' signals).
    if (signo > SIGSYS) continue;
    auto decided = DecidedStandardSignals().find(signo);
    ASSERT_NE(decided, DecidedStandardSignals().end()) << SignalName(signo) << " is undecided";
    EXPECT_EQ(ActionFor(signo), decided->second) << SignalName(signo);
  }
}

TEST(SignalTableTest, EveryRealTimeSignalIsLoggedAndIgnored) {
  for (int signo = SIGRTMIN; signo <= SIGRTMAX; ++signo)
    EXPECT_EQ(ActionFor(signo), SignalAction::kLogAndIgnore) << SignalName(signo);
}

TEST(SignalTableTest, TheSignalfdTakesExactlyTheSignalsThatStopOrAreLogged) {
  const sigset_t handled = HandledSignals();
  for (int signo = 1; signo <= SIGRTMAX; ++signo) {
    const SignalAction action = ActionFor(signo);
    const bool expected = action == SignalAction::kStop || action == SignalAction::kLogAndIgnore;
    EXPECT_EQ(sigismember(&handled, signo) == 1, expected) << SignalName(signo);
  }
  // Neither can be caught: asking for them would be a lie in the table.
  EXPECT_EQ(sigismember(&handled, SIGKILL), 0);
  EXPECT_EQ(sigismember(&handled, SIGSTOP), 0);
}

TEST(SignalTableTest, EverySignalHasADistinctReadableName) {
  std::set<std::string> names;
  for (int signo = 1; signo <= SIGRTMAX; ++signo) {
    if (signo > SIGSYS && signo < SIGRTMIN) continue;
    const std::string name = SignalName(signo);
    EXPECT_EQ(name.rfind("SIG", 0), 0u) << signo << " is named " << name;
    EXPECT_TRUE(names.insert(name).second) << name << " names two signals";
  }
  EXPECT_EQ(SignalName(SIGUSR1), "SIGUSR1");
  EXPECT_EQ(SignalName(SIGRTMIN + 3), "SIGRTMIN+3");
  EXPECT_EQ(SignalName(1000), "signal 1000");
}

}  // namespace
}  // namespace rocewatch
