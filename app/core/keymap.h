#pragma once
// One key map for the whole app: the shell's keys (presenter actions on function keys and Ctrl
// combinations, playback on plain keys) and each demo's own (Demo::keys), shown by F1 / ? and in
// --help, and checked for clashes by a test. The shell dispatches its keys from this table, so the
// help can never list a key that does something else.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab {

// What a shell key does (a demo's keys have Demo; the demo acts on them itself).
enum class KeyAction {
  Demo,  // the demo's own key
  Help,
  Hud,
  Ladder,
  Counters,
  Theme,
  Projector,
  Fullscreen,
  Screenshot,
  ScaleUp,
  ScaleDown,
  ScaleReset,
  Pause,
  Step,
  Reset,
  NextVariant,
  HideUi,
  Faster,
  Slower,
  ChooseDemo,
  Close,
  CodePanel,
  Record,
  AB,
  Blank,       // the view black (a clicker's B / .), again: back
  White,       // the view white (W / ,)
  Pointer,     // a spotlight on the view where the mouse is (Ctrl+P)
  LessonNext,  // a lesson's keys (KeyBinding::lesson): what presentation clickers send
  LessonPrevious,
  LessonFirst,
  LessonLast,
};

struct KeyBinding {
  int key = 0;             // GLFW key code
  int key_last = 0;        // a range of codes key..key_last (1-9), 0: one key
  int alt_key = 0;         // the same action on another code (the keypad's +), 0: none
  bool ctrl = false;       // needs Ctrl held (and without Ctrl it is another key)
  std::string_view shown;  // as the help writes it: "F5", "Ctrl+=", "V / Shift+V"
  std::string_view what;   // "the speed-up ladder of every variant"
  std::string_view group;  // "Presenter", "Playback", "View", or the demo's title
  KeyAction action = KeyAction::Demo;
  bool repeats = false;       // held down it acts again (auto-repeat); else once a press
  bool while_ladder = false;  // acts while the ladder owns the screen
  // Acts only while a lesson runs, and then takes the key from the demo (rotate's Left / Right);
  // otherwise the key is the demo's. It never clashes with a demo's key, only with the shell's.
  bool lesson = false;
};

// The shell's keys, in the order the help lists them.
std::span<const KeyBinding> shell_keys();
// Remapping (the settings file's [keys] table: ACTION = "KEY" or ["KEY", ...]). The action's name
// ("ladder", "blank", "next"...; "" for an action that cannot be remapped).
std::string_view action_name(KeyAction a);
// A key as the settings write it: "F5", "Ctrl+L", "B", ".", "PageDown", "Space"...; false if none.
bool parse_key(std::string_view text, int* key, bool* ctrl, std::string* shown = nullptr);
struct KeyRemap {
  std::string action;             // as written
  std::vector<std::string> keys;  // as written
  bool operator==(const KeyRemap&) const = default;
};
// The shell's keys from now on: the table with each remap's action on the keys it names instead of
// its own. A remap that names no action, a key gpulab does not know, or a key another shell key or a
// demo's (`demo_keys`) already takes is refused, the action keeping its keys; the problems, one line
// each with the key named. An empty list puts every key back.
std::vector<std::string> set_key_remaps(const std::vector<KeyRemap>& remaps,
                                        std::span<const KeyBinding> demo_keys);

// F5, the key a clicker's slideshow button sends: it starts no ladder during a lesson.
bool is_slideshow_key(int key);
// True when `b` is what a press of `key` with `ctrl` held means.
bool key_matches(const KeyBinding& b, int key, bool ctrl);
// The shell's binding of a press, or null (the press is then the demo's). The lesson's bindings
// count only while `lesson_running`.
const KeyBinding* find_shell_key(int key, bool ctrl, bool lesson_running = false);
// Every press that two bindings of `a` and `b` (or two of `a` when `b` is empty) would both take,
// written "F5: ladder / theme". Empty when the map is clean.
std::vector<std::string> key_clashes(std::span<const KeyBinding> a, std::span<const KeyBinding> b = {});
// One line of the key list: the keys of one action ("F1 / ?": consecutive bindings of the same
// action and group share a line), what it does, its group.
struct KeyRow {
  std::string keys;
  std::string_view what, group;
};
std::vector<KeyRow> key_rows(std::span<const KeyBinding> keys);
// The key list as text for --help, by group: "  F5           the speed-up ladder ...".
std::string keys_text(std::span<const KeyBinding> keys);

}  // namespace gpulab
