// The matrix demo's command line (its option group, configure) and batch mode.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "common/text.h"
#include "core/cli_number.h"
#include "demos/common/image_source.h"
#include "demos/matrix/matrix_demo.h"
#include "demos/matrix/matrix_display.h"

namespace gpulab {

using matrix::Op;

void MatrixParams::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Matrix transpose and multiply (--demo matrix)");
  g->add_option("--op", op, "transpose (an image, default) or multiply (C = A·B)")
      ->type_name("transpose|multiply");
  g->add_option("--a", a, "multiply: A (M x K) from a NumPy .npy file (float32, C order)")
      ->type_name("A.npy");
  g->add_option("--b", b, "multiply: B (K x N) from a NumPy .npy file (float32, C order)")
      ->type_name("B.npy");
  g->add_option("--save-c", save_c, "multiply, batch: write C as .npy")->type_name(kOutputPath);
  g->add_option("--m", m, "multiply: rows of A and C (generated inputs; default 384)")
      ->type_name("M")
      ->check(whole_number(1, matrix::kMaxSide));
  g->add_option("--n", n, "multiply: columns of B and C (default: --m, else 512)")
      ->type_name("N")
      ->check(whole_number(1, matrix::kMaxSide));
  g->add_option("--k", k, "multiply: columns of A, rows of B (default: --m, else 200)")
      ->type_name("K")
      ->check(whole_number(1, matrix::kMaxSide));
  g->add_option("--save-a", save_a, "multiply, batch: write the generated A as .npy")->type_name(kOutputPath);
  g->add_option("--save-b", save_b, "multiply, batch: write the generated B as .npy")->type_name(kOutputPath);
}

bool MatrixParams::same_input(const DemoParams& other) const {
  const auto& o = dynamic_cast<const MatrixParams&>(other);
  return op == o.op && a == o.a && b == o.b && m == o.m && n == o.n && k == o.k;
}

std::vector<std::string> MatrixParams::given() const {
  std::vector<std::string> out;
  if (!op.empty()) out.push_back("--op " + op);
  if (!a.empty()) out.push_back("--a " + a);
  if (!b.empty()) out.push_back("--b " + b);
  for (const auto& [flag, v] : {std::pair{"--m", m}, {"--n", n}, {"--k", k}})
    if (v != kNotGiven) out.push_back(std::string(flag) + " " + std::to_string(v));
  return out;
}

std::string MatrixDemo::configure(const Options& o) {
  const MatrixParams& cli = params<MatrixParams>();
  const SharedInputs& in = setup().shared;
  constexpr long long kNotGiven = MatrixParams::kNotGiven;
  // --init (shared with nbody): random (uniform in [-1, 1) from --seed), identity, or pattern (C spells a
  // word; the default, random when only --seed is given).
  const bool init_given = !in.init.empty();
  const std::string init_name = init_given ? in.init : "pattern";
  // The op: --op, else what the inputs and outputs asked for, else the variant's (the stage of the
  // variant picked last), else transpose.
  const bool multiply_inputs = !cli.a.empty() || !cli.b.empty() || !cli.save_c.empty() ||
                               cli.m != kNotGiven || cli.n != kNotGiven || cli.k != kNotGiven || init_given ||
                               !cli.save_a.empty() || !cli.save_b.empty();
  const std::optional<size_t> focus = setup().focus;
  Op op = focus ? (*focus == 0 ? Op::Transpose : Op::Multiply) : op_;
  if (!cli.op.empty()) {
    if (cli.op == "transpose")
      op = Op::Transpose;
    else if (cli.op == "multiply")
      op = Op::Multiply;
    else
      return "--op must be transpose or multiply, got " + text::quote(cli.op);
  } else if (multiply_inputs) {
    op = Op::Multiply;
  } else if (!in.image.empty()) {
    op = Op::Transpose;
  }
  if (focus && *focus != index(op)) {
    const matrix::Variant& v = variant(*focus);
    return "--variant " + std::string(v.id) + " is a " + std::string(matrix::name(v.op)) +
           " variant, but the op is " + std::string(matrix::name(op));
  }
  if (op == Op::Transpose && multiply_inputs)
    return "--a, --b, --m, --n, --k, --init, --save-a, --save-b and --save-c belong to --op multiply";
  if (op == Op::Multiply && !in.image.empty())
    return "--image belongs to --op transpose (multiply takes --a/--b or --m/--n/--k)";
  if (o.steps >= 0)
    return "--steps: the matrix demo has no steps to count; --save-image / --save-c write the result of one "
           "run";
  set_op(op);
  save_image_ = o.save_image;

  if (op == Op::Transpose) {
    if (!in.image.empty()) {
      std::string err;
      if (!load_path(in.image, &err)) return err;
    }
    if (in.seed)
      return "--seed: the transpose takes an image, nothing random (--seed is for --op multiply --init "
             "random)";
    return {};
  }
  // Multiply: files, or generated inputs.
  if (!cli.a.empty() || !cli.b.empty()) {
    if (cli.a.empty() || cli.b.empty()) return "--a and --b come together (A and B of C = A·B)";
    if (cli.m != kNotGiven || cli.n != kNotGiven || cli.k != kNotGiven || in.seed || init_given)
      return "--m, --n, --k, --seed and --init generate the inputs: not with --a and --b (their shapes come "
             "from the files)";
    if (!cli.save_a.empty() || !cli.save_b.empty())
      return "--save-a and --save-b write generated inputs: not with --a and --b";
    const matrix::NpyResult a = matrix::read_npy(cli.a), b = matrix::read_npy(cli.b);
    if (!a.error.empty()) return "--a " + a.error;
    if (!b.error.empty()) return "--b " + b.error;
    if (a.m.cols != b.m.rows)
      return "--a " + text::quote(cli.a) + " is " + std::to_string(a.m.rows) + "x" +
             std::to_string(a.m.cols) + " but --b " + text::quote(cli.b) + " is " + std::to_string(b.m.rows) +
             "x" + std::to_string(b.m.cols) + ": A's columns (K) must equal B's rows";
    std::string err;
    if (!set_operands({a.m, b.m},
                      std::filesystem::path(cli.a).filename().string() + " · " +
                          std::filesystem::path(cli.b).filename().string(),
                      &err))
      return err;
    return {};
  }
  const std::optional<matrix::Init> init = matrix::parse_init(init_name);
  if (!init) return "--init must be random, identity or pattern, got " + text::quote(init_name);
  init_ = *init;
  if (in.seed) {
    seed_ = *in.seed;
    if (!init_given) init_ = matrix::Init::Random;  // --seed alone: random
    if (init_ != matrix::Init::Random) return "--seed: only --init random uses it";
  }
  const long long first = cli.m != kNotGiven   ? cli.m
                          : cli.n != kNotGiven ? cli.n
                                               : cli.k;  // kNotGiven: none given
  const long long m = cli.m != kNotGiven   ? cli.m
                      : first != kNotGiven ? first
                                           : m_,
                  n = cli.n != kNotGiven   ? cli.n
                      : first != kNotGiven ? first
                                           : n_,
                  k = cli.k != kNotGiven   ? cli.k
                      : first != kNotGiven ? first
                                           : k_;
  for (const auto& [flag, v] : {std::pair{"--m", m}, {"--n", n}, {"--k", k}})
    if (v < 1 || v > matrix::kMaxSide)
      return std::string(flag) + " must be 1.." + std::to_string(matrix::kMaxSide) + ", got " +
             std::to_string(v);
  if (std::string bad = matrix::check_shape("A", m, k); !bad.empty()) return bad;
  if (std::string bad = matrix::check_shape("B", k, n); !bad.empty()) return bad;
  if (std::string bad = matrix::check_shape("C", m, n); !bad.empty()) return bad;
  m_ = int(m);
  n_ = int(n);
  k_ = int(k);
  std::string err;
  if (!generate_operands(&err)) return err;
  return {};
}

std::string MatrixDemo::run_batch(const Options&) {
  const MatrixParams& cli = params<MatrixParams>();
  try {
    auto wrote = [](const std::string& what, const std::string& path) {
      std::fprintf(stderr, "gpulab: %s, written to %s\n", what.c_str(), text::quote(path).c_str());
    };
    if (!cli.save_a.empty()) {
      if (std::string e = matrix::write_npy(cli.save_a, ops_->a); !e.empty()) return e;
      wrote("A (" + ops_name_ + ")", cli.save_a);
    }
    if (!cli.save_b.empty()) {
      if (std::string e = matrix::write_npy(cli.save_b, ops_->b); !e.empty()) return e;
      wrote("B (" + ops_name_ + ")", cli.save_b);
    }
    if (op_ == Op::Multiply && !cli.save_c.empty()) {
      const matrix::Matrix c = product();
      if (std::string e = matrix::write_npy(cli.save_c, c); !e.empty()) return e;
      wrote("C = " + std::string(variant().aat() ? "A·Aᵀ" : "A·B") + " (" + std::to_string(c.rows) + "x" +
                std::to_string(c.cols) + ", " + ops_name_ + ") with " + std::string(variant().id),
            cli.save_c);
    }
    if (save_image_.empty()) return {};
    if (op_ == Op::Transpose)
      return save_batch_image(
          save_image_, [&] { return words_image(transposed(), image_.channels); },
          [&] {
            return origin_.name + " (" + image_label(image_) + ") transposed with " +
                   std::string(variant().id);
          });
    return save_batch_image(
        save_image_,
        [&] {
          product();  // runs the variant when the output is stale
          image::Image img;
          img.width = output_cols();
          img.height = output_rows();
          img.channels = 4;
          img.pixels.resize(img.pixel_count() * 4);
          compose_host(engine(), op_, reinterpret_cast<uint32_t*>(img.pixels.data()));
          return img;
        },
        [&] { return "the heat map of C (" + ops_name_ + ") with " + std::string(variant().id); });
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace gpulab
