// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Dump: everything one side of a comparison handed us. A dump is a file, a
// directory, or an archive (.zip, .tar, .tar.gz, .tgz, .tar.xz, .gz) of them;
// files are classified by content and parsed into graphs and metrics reports.
//
// Loading rules, decided once for every caller:
// - Directories are walked recursively in sorted path order. Hidden files and
//   directories (".git", "._x", "__MACOSX") are ignored. Symbolic links are
//   followed only to regular files inside the dump; others are listed in
//   Dump::skipped.
// - Archives are recognised by their magic bytes, not their names, wherever
//   they appear (the root, inside a directory, inside another archive), and
//   are read into memory, never extracted to disk. An entry path that is
//   absolute or has a `..` component is an error naming the entry; symbolic
//   and hard link entries are skipped with a reason.
// - A file inside an archive is named `archive!entry` in messages and in
//   DumpFile::path (`runs.zip!openxla/ir.txt`); the entries of a root archive
//   are named by their entry path alone. A compressed single file
//   (`ir.txt.gz`) is named without its compression suffix.
// - Empty files, binary files and text that is no known dump are listed in
//   Dump::skipped; a recognised file that does not parse fails the load.
//
// Pairing decides which graph of the left dump is compared with which graph
// of the right one.
#ifndef GRAPHDIFF_DUMP_H_
#define GRAPHDIFF_DUMP_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/export.h"
#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"
#include "graphdiff/parse.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// One file of a dump after parsing.
struct DumpFile {
  std::string path;  // relative to the dump root ("ir.txt", "run1/graphs.txt.0")
  DumpFormat format = DumpFormat::kUnknown;
  std::vector<Graph> graphs;
  std::vector<MetricsReport> metrics;
  std::vector<Diagnostic> warnings;
  std::string source;  // as messages name it: "dumps/a/ir.txt", "a.zip!top/ir.txt"
};

// A loaded dump. Files are sorted by path. Files that are not dumps (unknown
// content, binary) are listed in `skipped` with the reason, never dropped silently.
struct Dump {
  std::string root;  // what the user named
  std::vector<DumpFile> files;
  std::vector<std::pair<std::string, std::string>> skipped;  // (path, reason)
};

// What a load is doing, for a progress display.
enum class LoadPhase : uint8_t {
  kListing,  // walking the directory
  kReading,  // reading or decompressing bytes
  kParsing,  // parsing what was read
  kDone,     // the last report of a load
};
// "listing", "reading", "parsing", "done".
std::string_view LoadPhaseName(LoadPhase phase);

// How far a load got. Counts only grow; files_found grows as archives are
// opened, so it is not a total until the phase is kDone.
struct LoadProgress {
  LoadPhase phase = LoadPhase::kListing;
  size_t files_found = 0;   // files listed so far, archive entries included
  size_t files_done = 0;    // files parsed or skipped
  size_t graphs = 0;        // graphs parsed so far
  uint64_t bytes_read = 0;  // bytes read from disk, plus bytes decompressed
};

// Graphs a load hands out as it parses them (LoadOptions::take_graphs).
struct TakenGraphs {
  std::string_view path;    // DumpFile::path of the file they belong to
  std::string_view source;  // DumpFile::source
  // The file's next graphs, in order, as DumpFile::graphs would hold them;
  // the callee may move from them. Null when `restart` is set.
  std::vector<Graph>* graphs = nullptr;
  // The file's graphs handed out so far are void: a piece of a large file
  // could not be parsed alone, and its graphs come again from the first.
  bool restart = false;
  // The file's last call: its graphs (maybe none, when all went out in
  // pieces before) end with these. A file handed out in one call has only
  // this one.
  bool last = false;
  // Runs task(0) .. task(n - 1) on the load's threads (the calling one
  // included) and returns when all are done: for the callee's own work on
  // the graphs, such as making their report, without threads of its own.
  // While it waits, the calling thread may run other work of the load,
  // take_graphs calls for other files included: hold no lock across it, and
  // keep no state in the thread. Set by LoadDump; may be empty elsewhere.
  using Runner = std::function<void(size_t n, const std::function<void(size_t)>& task)>;
  Runner run;
};

// Limits and behaviour of loading. Defaults suit real dumps; docs/hardening.md
// lists every limit with the command-line option that raises it. A limit
// that trips is a ResourceExhausted error naming it.
struct LoadOptions {
  ParseOptions parse;
  uint64_t max_file_bytes = 8ull << 30;      // larger files are an error
  uint64_t max_archive_bytes = 32ull << 30;  // total uncompressed bytes read
  size_t max_archive_entries = 1'000'000;  // per archive, directories included
  size_t max_files = 1'000'000;            // files seen, archive entries included
  // Decompression bombs: archives may expand at most this many times their
  // compressed size, checked while streaming and over the whole load (nested
  // archives included) once 32 MiB came out. Real dumps compress 8-25x.
  // 0 = unlimited.
  uint64_t max_compression_ratio = 100;
  // Parse files, and the records of a large save file, in parallel; 0 = one
  // thread per core. The result is the same for any number.
  unsigned threads = 0;
  // Told how the load advances: after each file, every few MiB read from an
  // archive, and once at the end (kDone). Called from the loading threads,
  // never two calls at once; it should return quickly. Default: none.
  std::function<void(const LoadProgress&)> progress;
  // When set, every file's graphs go here as they are parsed instead of
  // into DumpFile::graphs, which stays empty: for a caller that reads each
  // graph once. A large save file or FX dump then hands them out a few
  // pieces (of about 4 MiB of text each) at a time, so the load holds those
  // graphs rather than the whole file's. Called from the loading threads:
  // for one file in order, one call at a time; for different files in any
  // order, possibly at once. A load that fails may have handed out graphs.
  // Default: none (the Dump holds every graph).
  std::function<void(const TakenGraphs&)> take_graphs;
};

// Loads a path. Errors: the path does not exist or cannot be read, an archive
// is corrupt or holds a path-trick entry (absolute, `..`), or a file does not
// parse (the error names the file and position).
//
// Files of 4 MiB or more are parsed through a read-only mapping rather than
// copied. Another process truncating such a file while it is parsed raises
// SIGBUS in this process (the graphdiff tool turns it into an error exit);
// see docs/hardening.md.
//
// Within one load, a file whose bytes repeat another's (ranks of one job,
// a graph compiled again) is parsed once: the repeat holds a copy of the
// first one's graphs, their string pool shared, named for its own path.
absl::StatusOr<Dump> LoadDump(std::string_view path, const LoadOptions& options = {});

// Both sides of a diff, each as LoadDump gives it, loaded at once on one set
// of threads (LoadOptions::threads in all, one progress stream). A file of
// either side that repeats a file of the other byte for byte, as most files
// of a rerun do, is parsed once. A side that fails to load leaves the other
// loaded.
struct DumpPair {
  absl::StatusOr<Dump> left;
  absl::StatusOr<Dump> right;
};
DumpPair LoadDumpPair(std::string_view left, std::string_view right,
                      const LoadOptions& options = {});

// Parses in-memory files as if they were a directory (for tests and tools
// that already have the bytes): (relative path, content) pairs.
absl::StatusOr<Dump> LoadDumpFromMemory(
    std::string_view root,
    const std::vector<std::pair<std::string, std::string>>& files,
    const LoadOptions& options = {});

// A reference to one graph of a dump.
struct GraphRef {
  uint32_t file = 0;   // index into Dump::files
  uint32_t graph = 0;  // index into DumpFile::graphs
};

// The rule that paired two graphs or metrics reports: same path (and record),
// graph name, Python frame, order (graphs of one kind); kOnly for the one
// graph left on each side, of different kinds, when each side holds one graph
// or the user named one file per side; kGraphs for DiffGraphs' two graphs.
enum class PairRule : uint8_t { kPath, kName, kFrame, kOrder, kOnly, kGraphs };
// "path", "name", "frame", "order", "only", "graphs".
std::string_view PairRuleName(PairRule rule);
// Inverse of PairRuleName; false when `name` is not one.
bool ParsePairRule(std::string_view name, PairRule* out);

// How the two dumps were paired.
struct GraphPairing {
  GraphRef left;
  GraphRef right;
  PairRule how = PairRule::kPath;
};
struct MetricsPairing {
  uint32_t left_file = 0;
  uint32_t left_report = 0;
  uint32_t right_file = 0;
  uint32_t right_report = 0;
  PairRule how = PairRule::kPath;
};
struct Pairing {
  std::vector<GraphPairing> graphs;
  std::vector<MetricsPairing> metrics;
  std::vector<GraphRef> left_unpaired;
  std::vector<GraphRef> right_unpaired;
  std::vector<std::pair<uint32_t, uint32_t>> left_unpaired_metrics;   // (file, report)
  std::vector<std::pair<uint32_t, uint32_t>> right_unpaired_metrics;  // (file, report)
};

// Pairs graphs of the same kind: same relative path first, then graph name /
// Python frame, then order. Where a rule leaves several graphs on each side
// (the records of a save file at one path, the graphs left for order), they
// pair as a line diff pairs lines: graphs of equal shape (op multiset, node,
// input and output counts) along a minimal edit script, the rest in order
// between, so one record more on one side shifts no pair after it. Metrics pair with metrics
// (same path, then order). Paths compare after dropping archive names
// (`a.zip!top/ir.txt` is `top/ir.txt`), with run-stamped directories
// (`run_2024_01_01_12_00_00_000000-pid_111/`) as one (`rank_<n>` stays a key),
// and without the single top-level directory all of a side's files share, so
// `trace_once/ir.txt` pairs with `openxla/ir.txt`.
// A name or frame pairs only when it tells graphs apart (not when every
// remaining graph of both sides carries the same one). Output is sorted by
// the left side's references; unpaired lists are sorted too.
Pairing PairDumps(const Dump& left, const Dump& right);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_DUMP_H_
