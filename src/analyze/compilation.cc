// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// compilation: how often the backend compiled, from a metrics report's
// UncachedCompile / CachedCompile counters and CompileTime metric. The
// first question an XLA user asks of two runs is whether one recompiles, so
// this is said first and explained; counter-delta leaves these counters out.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

struct Values {
  const Counter* left = nullptr;
  const Counter* right = nullptr;
  int64_t before() const { return left ? left->value : 0; }
  int64_t after() const { return right ? right->value : 0; }
  bool present() const { return left || right; }
  bool moved() const { return present() && before() != after(); }
};

Values Find(const MetricsContext& c, std::string_view name) {
  return Values{c.left.FindCounter(name), c.right.FindCounter(name)};
}

const Metric* FindMetric(const MetricsReport& m, std::string_view name) {
  const Metric* found = nullptr;
  for (const Metric& x : m.metrics) {
    if (x.name == name) found = &x;  // later duplicates win, as for counters
  }
  return found;
}

std::string Seconds(double ns) { return fmt::format("{:.3g} s", ns / 1e9); }

}  // namespace

bool IsCompilationCounter(std::string_view name) {
  return name == "UncachedCompile" || name == "CachedCompile" || name == "CompileTime";
}

void FindCompilation(const MetricsContext& c, std::vector<Finding>* out) {
  Values uncached = Find(c, "UncachedCompile");
  Values cached = Find(c, "CachedCompile");
  // Every extra compilation is seconds of work, so any move counts; cache
  // hits grow with the number of steps, so they obey the counter thresholds.
  if (cached.moved()) {
    double d = std::fabs(static_cast<double>(cached.after() - cached.before()));
    if (d < static_cast<double>(c.options.counter_min_abs) ||
        d / std::max(std::min(std::fabs(static_cast<double>(cached.before())),
                              std::fabs(static_cast<double>(cached.after()))),
                     1.0) < c.options.counter_min_rel) {
      cached = Values{};
    }
  }
  if (!uncached.moved() && !cached.moved()) return;
  Finding f;
  f.id = "compilation";
  f.graph = c.label;
  bool more = uncached.after() > uncached.before();
  f.severity = more ? Severity::kWarning : Severity::kInfo;
  std::vector<std::string> parts;
  if (uncached.moved()) {
    f.count = std::abs(uncached.after() - uncached.before());
    parts.push_back(fmt::format("{} -> {} compilations (UncachedCompile)", uncached.before(),
                                uncached.after()));
  }
  if (cached.moved()) {
    if (!uncached.moved()) f.count = std::abs(cached.after() - cached.before());
    parts.push_back(fmt::format("{} -> {} compile-cache hits (CachedCompile)", cached.before(),
                                cached.after()));
  }
  f.title = uncached.moved() ? (more ? "more compilations: " : "fewer compilations: ")
                             : std::string("compile-cache hits changed: ");
  for (size_t i = 0; i < parts.size(); ++i) f.title += (i ? ", " : "") + parts[i];
  f.explanation =
      "UncachedCompile counts graphs the backend had not seen and compiled from scratch (an "
      "XLA compilation takes seconds); CachedCompile counts graphs found in the compile "
      "cache. Compilations beyond the first few steps are recompilations: the traced graph "
      "differs between steps because input shapes change, Python scalars are baked into the "
      "graph as constants, data-dependent control flow takes another branch, or a graph "
      "break splits the model differently.";
  if (uncached.moved() && cached.moved() && more != (cached.after() > cached.before())) {
    f.explanation += fmt::format(
        " Here the {} runs compile {} more graphs and find {} fewer in the cache: the same "
        "steps, traced into graphs that differ from step to step.",
        more ? "right" : "left",
        std::abs(uncached.after() - uncached.before()),
        std::abs(cached.after() - cached.before()));
  }
  const Metric* lt = FindMetric(c.left, "CompileTime");
  const Metric* rt = FindMetric(c.right, "CompileTime");
  if (lt || rt) {
    f.explanation += fmt::format(" CompileTime {} -> {} ({} -> {} samples).",
                                 lt ? Seconds(lt->accumulator) : "absent",
                                 rt ? Seconds(rt->accumulator) : "absent",
                                 lt ? lt->total_samples : 0, rt ? rt->total_samples : 0);
  }
  if (more) {
    f.hint = "Find what changes between steps: PT_XLA_DEBUG=1 (torch_xla) prints the reason "
             "for each compilation, TORCH_LOGS=recompiles does for dynamo. Keep input shapes "
             "fixed (pad or bucket them), pass changing Python scalars as tensors, and mark "
             "truly dynamic dims.";
  }
  auto evidence = [&](const Values& v, std::string_view name) {
    if (!v.moved()) return;
    Evidence e;
    e.side = v.right ? Side::kRight : Side::kLeft;
    e.source = v.right ? c.right.source : c.left.source;
    e.line = v.right ? v.right->line : v.left->line;
    e.node = std::string(name);
    e.note = fmt::format("counter {} -> {}", v.before(), v.after());
    f.evidence.push_back(std::move(e));
  };
  evidence(uncached, "UncachedCompile");
  evidence(cached, "CachedCompile");
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
