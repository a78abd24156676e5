// cpu label: the one key map: no two bindings take the same press (the shell's among themselves,
// every demo's against the shell's and among themselves), presenter actions on function keys or
// Ctrl, a press finds its action, and --help lists every key.
#include "core/keymap.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"

namespace gpulab {
namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

TEST(KeyMap, ShellKeysNeverClash) {
  EXPECT_TRUE(key_clashes(shell_keys()).empty()) << joined(key_clashes(shell_keys()));
}

TEST(KeyMap, NoDemoKeyClashesWithTheShellOrWithItself) {
  size_t demos_with_keys = 0;
  for (const auto& d : make_demos()) {
    const std::vector<KeyBinding> keys = d->keys();
    demos_with_keys += !keys.empty();
    EXPECT_TRUE(key_clashes(keys, shell_keys()).empty()) << d->name() << ":\n"
                                                         << joined(key_clashes(keys, shell_keys()));
    EXPECT_TRUE(key_clashes(keys).empty()) << d->name() << ":\n" << joined(key_clashes(keys));
    for (const KeyBinding& k : keys) {
      EXPECT_EQ(k.action, KeyAction::Demo) << d->name() << " " << k.shown;
      EXPECT_EQ(k.group, d->title()) << d->name() << " " << k.shown;
      EXPECT_FALSE(k.what.empty()) << d->name() << " " << k.shown;
    }
  }
  EXPECT_GE(demos_with_keys, 3u) << "N-body, histogram equalization and rotation have keys of their own";
}

TEST(KeyMap, AClashIsFound) {
  // The check itself can fail: a demo taking F5, or Q twice, or the keypad's + as a plain key.
  const KeyBinding f5{GLFW_KEY_F5, 0, 0, false, "F5", "mine", "Demo"};
  const KeyBinding q1{GLFW_KEY_Q, 0, 0, false, "Q", "one", "Demo"};
  const KeyBinding q2{GLFW_KEY_Q, 0, 0, false, "Q", "two", "Demo"};
  const KeyBinding kp{GLFW_KEY_KP_ADD, 0, 0, false, "KP+", "plus", "Demo"};
  const KeyBinding ctrl_q{GLFW_KEY_Q, 0, 0, true, "Ctrl+Q", "quit", "Demo"};
  const KeyBinding digit{GLFW_KEY_7, 0, 0, false, "7", "seven", "Demo"};
  EXPECT_EQ(key_clashes(std::vector<KeyBinding>{f5}, shell_keys()).size(), 1u);
  EXPECT_EQ(key_clashes(std::vector<KeyBinding>{q1, q2}).size(), 1u);
  EXPECT_EQ(key_clashes(std::vector<KeyBinding>{kp}, shell_keys()).size(), 1u);
  EXPECT_EQ(key_clashes(std::vector<KeyBinding>{digit}, shell_keys()).size(), 1u) << "1-9 choose demos";
  EXPECT_TRUE(key_clashes(std::vector<KeyBinding>{q1, ctrl_q}).empty()) << "Ctrl+Q is another press than Q";
}

TEST(KeyMap, PresenterActionsUseFunctionKeysOrCtrl) {
  for (const KeyBinding& k : shell_keys()) {
    if (k.group != "Presenter") continue;
    const bool function_key = k.key >= GLFW_KEY_F1 && k.key <= GLFW_KEY_F25;
    const bool allowed = function_key || k.ctrl || k.key == GLFW_KEY_ESCAPE || k.key == GLFW_KEY_SLASH;
    EXPECT_TRUE(allowed) << k.shown;
  }
}

TEST(KeyMap, APressFindsItsAction) {
  auto action = [](int key, bool ctrl) {
    const KeyBinding* b = find_shell_key(key, ctrl);
    return b ? b->action : KeyAction::Demo;
  };
  EXPECT_EQ(action(GLFW_KEY_F1, false), KeyAction::Help);
  EXPECT_EQ(action(GLFW_KEY_SLASH, false), KeyAction::Help);
  EXPECT_EQ(action(GLFW_KEY_F2, false), KeyAction::Hud);
  EXPECT_EQ(action(GLFW_KEY_F5, false), KeyAction::Ladder);
  EXPECT_EQ(action(GLFW_KEY_EQUAL, true), KeyAction::ScaleUp);
  EXPECT_EQ(action(GLFW_KEY_KP_ADD, true), KeyAction::ScaleUp);
  EXPECT_EQ(action(GLFW_KEY_EQUAL, false), KeyAction::Faster);
  EXPECT_EQ(action(GLFW_KEY_KP_ADD, false), KeyAction::Faster);
  EXPECT_EQ(action(GLFW_KEY_0, true), KeyAction::ScaleReset);
  EXPECT_EQ(action(GLFW_KEY_1, false), KeyAction::ChooseDemo);
  EXPECT_EQ(action(GLFW_KEY_9, false), KeyAction::ChooseDemo);
  EXPECT_EQ(find_shell_key(GLFW_KEY_0, false), nullptr) << "0 without Ctrl is nobody's";
  EXPECT_EQ(find_shell_key(GLFW_KEY_F, false), nullptr) << "F is the demos' (fit the view)";
  EXPECT_EQ(find_shell_key(GLFW_KEY_V, true), nullptr) << "Ctrl+V is not V";
}

TEST(KeyMap, HelpListsEveryKeyOfTheShellAndTheDemos) {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  std::vector<Demo*> views;
  for (const auto& d : demos) views.push_back(d.get());
  const std::string text = usage(views);
  for (const KeyBinding& k : shell_keys())
    EXPECT_NE(text.find(std::string(k.shown)), std::string::npos) << k.shown;
  for (const Demo* d : views)
    for (const KeyBinding& k : d->keys())
      EXPECT_NE(text.find(std::string(k.what)), std::string::npos) << d->name() << " " << k.shown;
  EXPECT_EQ(text.find("F5 projector"), std::string::npos) << "the old, wrong line";
}

TEST(KeyMap, OneRowAnAction) {
  const std::vector<KeyRow> rows = key_rows(shell_keys());
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().keys, "F1 / ?");
  EXPECT_EQ(rows.front().group, "Presenter");
  // F1 and ? share a row, as do F5 and Ctrl+L (the ladder), and the lesson's PageDown / Right and
  // PageUp / Left (clickers differ).
  EXPECT_EQ(rows.size() + 4, shell_keys().size())
      << "only F1 and ?, F5 and Ctrl+L, and the clickers' keys share rows";
  const auto next =
      std::find_if(rows.begin(), rows.end(), [](const KeyRow& r) { return r.group == "Lesson"; });
  ASSERT_NE(next, rows.end());
  EXPECT_EQ(next->keys, "PageDown / Right");
  const auto ladder =
      std::find_if(rows.begin(), rows.end(), [](const KeyRow& r) { return r.keys == "F5 / Ctrl+L"; });
  EXPECT_NE(ladder, rows.end()) << "the ladder's two keys on one row";
}

TEST(KeyMap, TheSettingsRemapAnActionAndRefuseAClashNamingTheKey) {
  // ladder on F10 and Ctrl+K: F5 no longer starts it, the two new keys do, the list shows them.
  std::vector<std::string> problems = set_key_remaps({{"ladder", {"F10", "ctrl+k"}}}, {});
  EXPECT_TRUE(problems.empty()) << problems.front();
  ASSERT_NE(find_shell_key(GLFW_KEY_F10, false), nullptr);
  EXPECT_EQ(find_shell_key(GLFW_KEY_F10, false)->action, KeyAction::Ladder);
  ASSERT_NE(find_shell_key(GLFW_KEY_K, true), nullptr);
  EXPECT_EQ(find_shell_key(GLFW_KEY_K, true)->action, KeyAction::Ladder);
  EXPECT_EQ(find_shell_key(GLFW_KEY_F5, false), nullptr);
  EXPECT_NE(keys_text(shell_keys()).find("F10 / Ctrl+K"), std::string::npos) << keys_text(shell_keys());
  // A clash with another shell key or a demo's key is refused, with the key named; the action keeps
  // its own keys.
  problems = set_key_remaps({{"blank", {"V"}}}, {});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("V"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("refused"), std::string::npos) << problems[0];
  EXPECT_EQ(find_shell_key(GLFW_KEY_B, false)->action, KeyAction::Blank);
  const KeyBinding rotate_l{GLFW_KEY_L, 0, 0, false, "L", "point or linear filtering", "Texture rotation"};
  problems = set_key_remaps({{"pointer", {"L"}}}, std::vector<KeyBinding>{rotate_l});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("L: point or linear"), std::string::npos) << problems[0];
  // No such action, no such key.
  problems = set_key_remaps({{"launch-rockets", {"F9"}}, {"hud", {"F99"}}, {"hud", {"Ctrl+"}}}, {});
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_NE(problems[0].find("no action 'launch-rockets'"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("'F99' is not a key"), std::string::npos) << problems[1];
  // Put back: every key as the table has it.
  EXPECT_TRUE(set_key_remaps({}, {}).empty());
  EXPECT_EQ(find_shell_key(GLFW_KEY_F5, false)->action, KeyAction::Ladder);
  EXPECT_EQ(find_shell_key(GLFW_KEY_F10, false), nullptr);
  EXPECT_TRUE(key_clashes(shell_keys()).empty());
}

}  // namespace
}  // namespace gpulab
