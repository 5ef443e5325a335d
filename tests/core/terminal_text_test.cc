#include "core/terminal_text.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

TEST(TerminalSafeTest, PrintableTextIsUnchanged) {
  EXPECT_EQ(TerminalSafe("python3 train.py --lr 0.1"), "python3 train.py --lr 0.1");
  EXPECT_EQ(TerminalSafe("Grüße 東京"), "Grüße 東京");
}

TEST(TerminalSafeTest, EscapeSequencesAndLineBreaksAreShownNotObeyed) {
  EXPECT_EQ(TerminalSafe("\x1b]0;owned\x07\x1b[2J"), "\\x1b]0;owned\\x07\\x1b[2J");
  EXPECT_EQ(TerminalSafe("a\nb\tc\rd\x7f"), "a\\x0ab\\x09c\\x0dd\\x7f");
  EXPECT_EQ(TerminalSafe(std::string("nul\0byte", 8)), "nul\\x00byte");
}

TEST(TerminalSafeTest, C1ControlsAndDirectionOverridesAreEscaped) {
  EXPECT_EQ(TerminalSafe("\xc2\x9b"
                         "31m"),
            "\\u009b31m");  // the one-character CSI
  EXPECT_EQ(TerminalSafe("abc\xe2\x80\xae"
                         "fed"),
            "abc\\u202efed");
}

TEST(TerminalSafeTest, InvalidUtf8BytesAreShownAsBytes) {
  EXPECT_EQ(TerminalSafe("fw\xff\xc3"), "fw\\xff\\xc3");
}

TEST(TerminalSafeTest, ABackslashCannotForgeAnEscape) {
  EXPECT_EQ(TerminalSafe("\\x1b"), "\\\\x1b");
}

}  // namespace
}  // namespace rocewatch
