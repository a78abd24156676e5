#include "core/keymap.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <mutex>

namespace gpulab {
namespace {

// Presenter actions take function keys or Ctrl combinations; playback keeps the plain keys it has
// always had. The demos' own keys (Demo::keys) may take any other plain key.
// F5 is a clicker's slideshow key too: during a lesson it starts no ladder (is_slideshow_key), Ctrl+L does.
constexpr std::string_view kLadderWhat =
    "the speed-up ladder of every variant (again: close it; during a lesson only Ctrl+L starts it)";

constexpr KeyBinding kShellKeys[] = {
    {GLFW_KEY_F1, 0, 0, false, "F1", "show or hide this list of keys", "Presenter", KeyAction::Help, false,
     true},
    {GLFW_KEY_SLASH, 0, 0, false, "?", "show or hide this list of keys", "Presenter", KeyAction::Help, false,
     true},
    {GLFW_KEY_F2, 0, 0, false, "F2", "heads-up display: time, speed-up, % of peak", "Presenter",
     KeyAction::Hud, false, false},
    {GLFW_KEY_F3, 0, 0, false, "F3",
     "the GPU's counters of the current variant; over a finished ladder, of every rung (Counters tab)",
     "Presenter", KeyAction::Counters, false, true},
    {GLFW_KEY_F4, 0, 0, false, "F4", "the code panel: the running kernel's source, its diff and SASS",
     "Presenter", KeyAction::CodePanel, false, false},
    {GLFW_KEY_F5, 0, 0, false, "F5", kLadderWhat, "Presenter", KeyAction::Ladder, false, true},
    {GLFW_KEY_L, 0, 0, true, "Ctrl+L", kLadderWhat, "Presenter", KeyAction::Ladder, false, true},
    {GLFW_KEY_ESCAPE, 0, 0, false, "Esc", "cancel or close the ladder; close this list", "Presenter",
     KeyAction::Close, false, true},
    {GLFW_KEY_P, 0, 0, true, "Ctrl+P", "a spotlight on the picture where the mouse points (again: off)",
     "Presenter", KeyAction::Pointer, false, false},
    {GLFW_KEY_F6, 0, 0, false, "F6", "light (high contrast) or dark theme", "Presenter", KeyAction::Theme,
     false, true},
    {GLFW_KEY_F7, 0, 0, false, "F7", "projector mode (fullscreen, light, large, HUD)", "Presenter",
     KeyAction::Projector, false, true},
    {GLFW_KEY_F8, 0, 0, false, "F8",
     "A/B: the baseline and this variant side by side on the same input (again: end)", "Presenter",
     KeyAction::AB, false, false},
    {GLFW_KEY_F9, 0, 0, false, "F9",
     "record a clip into recordings/ (again: stop); a red dot while it records", "Presenter",
     KeyAction::Record, false, true},
    {GLFW_KEY_F11, 0, 0, false, "F11", "fullscreen", "Presenter", KeyAction::Fullscreen, false, true},
    {GLFW_KEY_F12, 0, 0, false, "F12", "screenshot into screenshots/", "Presenter", KeyAction::Screenshot,
     false, true},
    {GLFW_KEY_EQUAL, 0, GLFW_KEY_KP_ADD, true, "Ctrl+=", "larger UI", "Presenter", KeyAction::ScaleUp, false,
     true},
    {GLFW_KEY_MINUS, 0, GLFW_KEY_KP_SUBTRACT, true, "Ctrl+-", "smaller UI", "Presenter", KeyAction::ScaleDown,
     false, true},
    {GLFW_KEY_0, 0, GLFW_KEY_KP_0, true, "Ctrl+0", "the display's UI scale", "Presenter",
     KeyAction::ScaleReset, false, true},
    {GLFW_KEY_SPACE, 0, 0, false, "Space", "pause or play", "Playback", KeyAction::Pause},
    {GLFW_KEY_N, 0, 0, false, "N", "one step (pauses)", "Playback", KeyAction::Step},
    {GLFW_KEY_R, 0, 0, false, "R", "reset", "Playback", KeyAction::Reset},
    {GLFW_KEY_EQUAL, 0, GLFW_KEY_KP_ADD, false, "+", "twice the steps a frame", "Playback", KeyAction::Faster,
     true},
    {GLFW_KEY_MINUS, 0, GLFW_KEY_KP_SUBTRACT, false, "-", "half the steps a frame", "Playback",
     KeyAction::Slower, true},
    {GLFW_KEY_V, 0, 0, false, "V / Shift+V", "next / previous variant", "Playback", KeyAction::NextVariant},
    {GLFW_KEY_1, GLFW_KEY_9, 0, false, "1-9", "choose a demo (in gpulab --list order)", "Playback",
     KeyAction::ChooseDemo},
    {GLFW_KEY_H, 0, 0, false, "H", "hide or show the panel", "View", KeyAction::HideUi},
    // A clicker sends PageDown / PageUp (some Right / Left, or B); while a lesson runs they are its.
    // A clicker's blank button sends B or '.', some W or ',': lesson or not.
    {GLFW_KEY_B, 0, GLFW_KEY_PERIOD, false, "B / .", "blank the screen to black (again: back)", "Clicker",
     KeyAction::Blank, false, true},
    {GLFW_KEY_W, 0, GLFW_KEY_COMMA, false, "W / ,", "blank the screen to white (again: back)", "Clicker",
     KeyAction::White, false, true},
    {GLFW_KEY_PAGE_DOWN, 0, 0, false, "PageDown", "lesson: next step", "Lesson", KeyAction::LessonNext, false,
     true, true},
    {GLFW_KEY_RIGHT, 0, 0, false, "Right", "lesson: next step", "Lesson", KeyAction::LessonNext, false, true,
     true},
    {GLFW_KEY_PAGE_UP, 0, 0, false, "PageUp", "lesson: previous step", "Lesson", KeyAction::LessonPrevious,
     false, true, true},
    {GLFW_KEY_LEFT, 0, 0, false, "Left", "lesson: previous step", "Lesson", KeyAction::LessonPrevious, false,
     true, true},
    {GLFW_KEY_HOME, 0, 0, false, "Home", "lesson: first step", "Lesson", KeyAction::LessonFirst, false, true,
     true},
    {GLFW_KEY_END, 0, 0, false, "End", "lesson: last step", "Lesson", KeyAction::LessonLast, false, true,
     true},
};

bool covers(const KeyBinding& b, int key) {
  if (b.key_last ? (key >= b.key && key <= b.key_last) : key == b.key) return true;
  return b.alt_key != 0 && key == b.alt_key;
}

// The codes a binding takes (a range spelled out, the alternative added).
std::vector<int> codes(const KeyBinding& b) {
  std::vector<int> out;
  for (int k = b.key; k <= (b.key_last ? b.key_last : b.key); ++k) out.push_back(k);
  if (b.alt_key) out.push_back(b.alt_key);
  return out;
}

// The keys in effect: the table above with the settings' remaps applied (set_key_remaps).
std::vector<KeyBinding>& active_keys() {
  static std::vector<KeyBinding> keys(std::begin(kShellKeys), std::end(kShellKeys));
  return keys;
}

// What the remapped bindings show ("F10", "Ctrl+K"): kept for the life of the process.
std::string_view keep_text(std::string s) {
  static std::deque<std::string> texts;
  static std::mutex m;
  std::lock_guard lock(m);
  texts.push_back(std::move(s));
  return texts.back();
}

struct ActionName {
  KeyAction action;
  std::string_view name;
};
constexpr ActionName kActionNames[] = {
    {KeyAction::Help, "help"},
    {KeyAction::Hud, "hud"},
    {KeyAction::Ladder, "ladder"},
    {KeyAction::Counters, "counters"},
    {KeyAction::CodePanel, "code"},
    {KeyAction::Theme, "theme"},
    {KeyAction::Projector, "projector"},
    {KeyAction::AB, "ab"},
    {KeyAction::Record, "record"},
    {KeyAction::Fullscreen, "fullscreen"},
    {KeyAction::Screenshot, "screenshot"},
    {KeyAction::Blank, "blank"},
    {KeyAction::White, "white"},
    {KeyAction::Pointer, "pointer"},
    {KeyAction::Pause, "pause"},
    {KeyAction::Step, "step"},
    {KeyAction::Reset, "reset"},
    {KeyAction::NextVariant, "next-variant"},
    {KeyAction::HideUi, "hide-ui"},
    {KeyAction::LessonNext, "next"},
    {KeyAction::LessonPrevious, "previous"},
    {KeyAction::LessonFirst, "first"},
    {KeyAction::LessonLast, "last"},
};

struct KeyName {
  int key;
  std::string_view name;
};
constexpr KeyName kKeyNames[] = {
    {GLFW_KEY_SPACE, "Space"},    {GLFW_KEY_ESCAPE, "Esc"},  {GLFW_KEY_PAGE_DOWN, "PageDown"},
    {GLFW_KEY_PAGE_UP, "PageUp"}, {GLFW_KEY_HOME, "Home"},   {GLFW_KEY_END, "End"},
    {GLFW_KEY_LEFT, "Left"},      {GLFW_KEY_RIGHT, "Right"}, {GLFW_KEY_UP, "Up"},
    {GLFW_KEY_DOWN, "Down"},      {GLFW_KEY_PERIOD, "."},    {GLFW_KEY_COMMA, ","},
    {GLFW_KEY_SLASH, "/"},        {GLFW_KEY_TAB, "Tab"},     {GLFW_KEY_ENTER, "Enter"},
};

bool same_word(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::string_view action_name(KeyAction a) {
  for (const ActionName& n : kActionNames)
    if (n.action == a) return n.name;
  return {};
}

bool parse_key(std::string_view text, int* key, bool* ctrl, std::string* shown) {
  *ctrl = false;
  if (text.size() > 5 && same_word(text.substr(0, 5), "ctrl+")) {
    *ctrl = true;
    text.remove_prefix(5);
  }
  std::string name;
  if (text.size() == 1 && std::isalnum(static_cast<unsigned char>(text[0]))) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    *key = c >= 'A' ? GLFW_KEY_A + (c - 'A') : GLFW_KEY_0 + (c - '0');
    name = std::string(1, c);
  } else if ((text.size() == 2 || text.size() == 3) && (text[0] == 'F' || text[0] == 'f') &&
             std::isdigit(static_cast<unsigned char>(text[1])) &&
             (text.size() == 2 || std::isdigit(static_cast<unsigned char>(text[2])))) {
    const int n = std::stoi(std::string(text.substr(1)));
    if (n < 1 || n > 12) return false;
    *key = GLFW_KEY_F1 + (n - 1);
    name = "F" + std::to_string(n);
  } else {
    bool found = false;
    for (const KeyName& k : kKeyNames)
      if (same_word(text, k.name)) {
        *key = k.key;
        name = std::string(k.name);
        found = true;
      }
    if (!found) return false;
  }
  if (shown) *shown = (*ctrl ? "Ctrl+" : "") + name;
  return true;
}

std::vector<std::string> set_key_remaps(const std::vector<KeyRemap>& remaps,
                                        std::span<const KeyBinding> demo_keys) {
  std::vector<std::string> problems;
  std::vector<KeyBinding>& keys = active_keys();
  keys.assign(std::begin(kShellKeys), std::end(kShellKeys));
  for (const KeyRemap& r : remaps) {
    const std::string quoted = "'" + r.action + "'";
    KeyAction action = KeyAction::Demo;
    for (const ActionName& n : kActionNames)
      if (n.name == r.action) action = n.action;
    if (action == KeyAction::Demo) {
      std::string known;
      for (const ActionName& n : kActionNames) known += (known.empty() ? "" : ", ") + std::string(n.name);
      problems.push_back("no action " + quoted + " to remap (actions: " + known + ")");
      continue;
    }
    if (r.keys.empty()) {
      problems.push_back(quoted + " names no key; it keeps its own");
      continue;
    }
    // The action's first binding is the model of the new ones (its group, its words).
    const auto model =
        std::find_if(keys.begin(), keys.end(), [&](const KeyBinding& b) { return b.action == action; });
    if (model == keys.end()) continue;
    const KeyBinding base = *model;
    std::vector<KeyBinding> fresh;
    std::string bad;
    for (const std::string& text : r.keys) {
      KeyBinding b = base;
      std::string shown;
      if (!parse_key(text, &b.key, &b.ctrl, &shown)) {
        bad = "'" + text +
              "' is not a key (F1-F12, A-Z, 0-9, Ctrl+..., PageDown, PageUp, Home, End, Left, Right, "
              "Up, Down, Space, Esc, Tab, Enter, . , /)";
        break;
      }
      b.key_last = 0;
      b.alt_key = 0;
      b.shown = keep_text(shown);
      fresh.push_back(b);
    }
    if (!bad.empty()) {
      problems.push_back(quoted + ": " + bad + "; it keeps its own keys");
      continue;
    }
    // Clashes with what stays, and with every demo's keys: refused with the key named.
    std::vector<KeyBinding> others;
    for (const KeyBinding& b : keys)
      if (b.action != action) others.push_back(b);
    std::vector<std::string> clash = key_clashes(fresh, others);
    if (clash.empty()) clash = key_clashes(fresh, demo_keys);
    if (!clash.empty()) {
      problems.push_back(quoted + " refused: " + clash.front() + "; it keeps its own keys");
      continue;
    }
    const size_t at = static_cast<size_t>(model - keys.begin());
    keys.erase(
        std::remove_if(keys.begin(), keys.end(), [&](const KeyBinding& b) { return b.action == action; }),
        keys.end());
    keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(std::min(at, keys.size())), fresh.begin(),
                fresh.end());
  }
  return problems;
}

std::span<const KeyBinding> shell_keys() { return active_keys(); }

bool is_slideshow_key(int key) { return key == GLFW_KEY_F5; }

bool key_matches(const KeyBinding& b, int key, bool ctrl) { return b.ctrl == ctrl && covers(b, key); }

const KeyBinding* find_shell_key(int key, bool ctrl, bool lesson_running) {
  for (const KeyBinding& b : active_keys())
    if ((lesson_running || !b.lesson) && key_matches(b, key, ctrl)) return &b;
  return nullptr;
}

std::vector<std::string> key_clashes(std::span<const KeyBinding> a, std::span<const KeyBinding> b) {
  std::vector<std::string> out;
  auto check = [&](const KeyBinding& x, const KeyBinding& y) {
    // A lesson takes its keys from the demo while it runs: by design, not a clash.
    if (x.lesson != y.lesson && (x.action == KeyAction::Demo || y.action == KeyAction::Demo)) return;
    for (int k : codes(x))
      if (key_matches(y, k, x.ctrl)) {
        out.push_back(std::string(x.shown) + ": " + std::string(x.what) + " / " + std::string(y.shown) +
                      ": " + std::string(y.what));
        return;
      }
  };
  if (b.empty()) {
    for (size_t i = 0; i < a.size(); ++i)
      for (size_t j = i + 1; j < a.size(); ++j) check(a[i], a[j]);
  } else {
    for (const KeyBinding& x : a)
      for (const KeyBinding& y : b) check(x, y);
  }
  return out;
}

std::vector<KeyRow> key_rows(std::span<const KeyBinding> keys) {
  std::vector<KeyRow> rows;
  for (const KeyBinding& k : keys) {
    if (!rows.empty() && rows.back().what == k.what && rows.back().group == k.group) {
      rows.back().keys += " / " + std::string(k.shown);
      continue;
    }
    rows.push_back({std::string(k.shown), k.what, k.group});
  }
  return rows;
}

std::string keys_text(std::span<const KeyBinding> keys) {
  const std::vector<KeyRow> rows = key_rows(keys);
  std::string out;
  std::string_view group;
  size_t width = 0;
  for (const KeyRow& r : rows) width = std::max(width, r.keys.size());
  for (const KeyRow& r : rows) {
    if (r.group != group) {
      group = r.group;
      out += std::string(group) + ":\n";
    }
    std::string line = "  " + r.keys;
    line.resize(2 + width + 2, ' ');
    out += line + std::string(r.what) + "\n";
  }
  return out;
}

}  // namespace gpulab
