// `gpulab --lesson FILE --check` (presenter/lesson_check.h): every step of the lesson prepared the way
// the window prepares it, on the headless GL path, timed, and the report printed.
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "common/cuda_probe.h"
#include "common/text.h"
#include "cuda/device_info.h"
#include "platform/platform.h"
#include "presenter/elements.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson_check.h"
#include "presenter/lesson_player.h"
#include "shell/app.h"
#include "shell/session.h"
#include "ui/fonts.h"

namespace gpulab {

namespace {
double seconds_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

int App::run_lesson_check() {
  ShellSession& s = *session_;
  const Context& ctx = s.context();
  presenter::LessonCheck check;
  check.file = options_.lesson;
  check.machine =
      (ctx.cuda ? "CUDA on " + (s.device() ? s.device()->name : "device " + std::to_string(ctx.cuda_device))
                : "CPU backend (" + ctx.cuda_reason + ")") +
      "; OpenGL: " + platform_->info().gl_renderer;
  const std::string short_why = options_.cpu ? std::string("--cpu") : cuda_status().short_reason;
  // The fonts the captions and panels are drawn with.
  const ui::Fonts& fonts = appearance_.fonts();
  if (!fonts.problem.empty()) check.missing.push_back(fonts.problem);
  auto* lesson = element<presenter::LessonElement>();
  auto* ladder = element<presenter::LadderElement>();
  // Read and checked once on its own (every step configured on fresh demos: images decoded...), so
  // that step 1's time is its own.
  double t0 = seconds_now();
  const presenter::LessonLoad load = presenter::load_lesson(options_.lesson, make_demos, ctx.cuda);
  check.read_s = seconds_now() - t0;
  std::string why;
  t0 = seconds_now();
  if (!load.lesson) {
    check.refused = load.error;
  } else if (!lesson->open_file(s, options_.lesson, 0, &why)) {
    check.refused = why;
  } else {
    // open_file read it again, and the results file it names: reading, not step 1's start.
    check.read_s += lesson->results_read_s();
    t0 += check.read_s;
    const presenter::LessonPlayer& player = *lesson->player();
    check.title = player.lesson().title;
    // The results file the lesson names: one that does not read is missing (the window would open
    // without it); the figures shown are --results' where it was given.
    if (!lesson->recorded_error().empty()) check.missing.push_back(lesson->recorded_error());
    if (const RecordedResults* rec = s.recorded())
      check.recorded = presenter::recorded_source_line(*rec) +
                       (options_.results.empty() ? " (named in the lesson)" : " (--results)");
    for (int k = 0; k < player.size(); ++k) {
      if (k > 0) {
        t0 = seconds_now();
        lesson->go_to_step(s, k);
      }
      frame();  // the step's first frame: computed, drawn
      presenter::LessonCheckStep row;
      row.step = k + 1;
      row.prepare_s = seconds_now() - t0;
      const presenter::LessonStep& st = player.lesson().steps[static_cast<size_t>(k)];
      row.title = st.title;
      if (ladder->measuring()) {
        // A step that opens the ladder: the room waits for it to be measured (paced as a display would).
        const double l0 = seconds_now();
        while (ladder->measuring() && seconds_now() - l0 < 120) {
          frame();
          std::this_thread::sleep_for(std::chrono::milliseconds(16));
        }
        row.ladder_s = seconds_now() - l0;
      }
      if (s.demo()) {
        row.runs = s.setup().demo;
        for (const std::string& v : report_.running) row.runs += " " + v;
        row.falls_back = player.problem();
        const RecordedResults* rec = s.recorded();
        if (rec && lesson->stand_in()) {
          const std::vector<Throughput> t = s.demo()->throughput();
          row.recorded =
              presenter::recorded_step_line(*rec, s.demo()->name(), lesson->stand_in()->recorded_row,
                                            t.empty() ? 0.0 : t.front().items_per_step, &row.recorded_found);
        }
        // The reason is on the machine's line once: each step names it in a few words.
        if (!ctx.cuda && !ctx.cuda_reason.empty() && !short_why.empty())
          if (const size_t at = row.falls_back.find("(" + ctx.cuda_reason + ")"); at != std::string::npos)
            row.falls_back.replace(at, ctx.cuda_reason.size() + 2, "(" + short_why + ")");
      } else {
        row.runs = st.demo + " (not started)";
        row.missing.push_back("the demo did not start: " +
                              (player.problem().empty() ? s.attach_error() : player.problem()));
      }
      if (fonts.hud && fonts.ui)
        for (std::string& m : presenter::missing_glyph_lines(st, *fonts.hud, *fonts.ui))
          row.missing.push_back(std::move(m));
      check.steps.push_back(std::move(row));
    }
  }
  std::fputs(presenter::format_lesson_check(check).c_str(), stdout);
  std::fflush(stdout);
  return presenter::lesson_check_status(check);
}

}  // namespace gpulab
