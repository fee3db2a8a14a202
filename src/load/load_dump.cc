// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// LoadDump: turns what the user named into parsed files. Every file is one
// task on a pool; an archive's task reads its entries (in memory) and queues
// one task per entry, so a zipped directory parses on every core too.
// Results are sorted at the end, so thread timing never shows in the output.
#include <algorithm>
#include <atomic>
#include <deque>
#include <filesystem>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graphdiff/dump.h"
#include "load/archive_reader.h"
#include "load/dir_walk.h"
#include "load/entry_path.h"
#include "load/file_read.h"
#include "load/repeated_files.h"
#include "load/task_pool.h"
#include "load/text_buffer.h"
#include "parse/parse_parallel.h"
#include "util/absl_sv.h"

namespace graphdiff {
namespace {

// Archives inside archives are opened up to this depth; deeper is a skip, so
// a zip quine or a nesting bomb cannot recurse without end.
constexpr int kMaxNesting = 4;
// Archive entries waiting for a parser may hold at most this many bytes per
// thread; beyond it the reading thread parses entries itself, so memory
// follows the graphs being built rather than the archive's size.
constexpr uint64_t kPendingPerThread = 32ull << 20;
// Enough to see any archive magic (tar's sits at offset 257).
constexpr size_t kSniffBytes = 512;
// Bytes of archive entries kept to prove that later entries repeat them
// (RepeatedFiles): files on disk are read again instead, and the caller's
// bytes stay theirs.
constexpr uint64_t kKeptEntryBytes = 64ull << 20;
constexpr char kFileLimitName[] = "LoadOptions::max_file_bytes; graphdiff --max-file-bytes";

// What one dump of a load gathers. A load may gather two (LoadDumpPair).
struct Side {
  std::string root;
  // A deque: RepeatedFiles points at files parsed earlier while others
  // are added.
  std::deque<DumpFile> files;
  std::vector<std::pair<std::string, std::string>> skipped;
  std::string error_key;
  absl::Status error;
  std::atomic<uint64_t> archive_bytes{0};
  std::atomic<uint64_t> input_bytes{0};
  std::atomic<size_t> file_count{0};
};

// One file to load: on disk, borrowed from the caller, or owned (an archive
// entry read into memory).
struct Item {
  Side* side = nullptr;
  std::string rel;     // DumpFile::path
  std::string source;  // name in messages; also the deterministic order key
  std::string disk;    // read from here when non-empty
  TextBuffer data;     // owned bytes
  std::string_view borrowed;
  bool has_borrowed = false;
  bool is_root = false;  // the file the user named: its entries need no prefix
  bool again = false;    // parked (RepeatedFiles) and read again: bytes counted
  int depth = 0;
};

std::string JoinPath(std::string_view dir, std::string_view rel) {
  if (dir.empty()) return std::string(rel);
  std::string out(dir);
  if (out.back() != '/') out += '/';
  out.append(rel.data(), rel.size());
  return out;
}

class Loader {
 public:
  explicit Loader(const LoadOptions& options)
      : options_(options),
        pool_(options.threads),
        pending_budget_(kPendingPerThread * pool_.threads()),
        repeated_(kKeptEntryBytes) {}

  // Before Run() only: the files the walk found.
  void Queue(Item item) {
    // The loader keeps the item, and the task holds only its address (small
    // enough for std::function to store in place): an item allocated here
    // and freed by the worker that loaded it took the main thread's malloc
    // lock once a file, and the main thread holds that lock while the
    // kernel zeroes each fresh page its heap grows by: diffing directories
    // of 10,000 graphs, the other thread waited 0.39 s of its 0.83 s.
    Item* queued = &queued_.emplace_back(std::move(item));
    pool_.Add([this, queued] { Process(*queued); });
  }

  // Counts a file the user named, of `bytes` on disk, before Run().
  void AddRootFile(uint64_t bytes) {
    ++root_files_;
    root_bytes_ += bytes;
  }

  Side& AddSide(std::string root) {
    Side& side = sides_.emplace_back();
    side.root = std::move(root);
    return side;
  }

  void AddSkipped(Side& side, std::string path, std::string reason) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      side.skipped.emplace_back(std::move(path), std::move(reason));
    }
    Report(LoadPhase::kParsing, [](LoadProgress& p) { ++p.files_done; });
  }

  // Updates the progress counts and tells the caller, one call at a time.
  template <typename Update>
  void Report(LoadPhase phase, Update update) {
    if (!options_.progress) return;
    std::lock_guard<std::mutex> lock(progress_mu_);
    progress_.phase = phase;
    update(progress_);
    options_.progress(progress_);
  }

  void set_file_count(Side& side, size_t n) {
    side.file_count = n;
    const size_t found = FilesFound();
    Report(LoadPhase::kListing, [&](LoadProgress& p) { p.files_found = found; });
  }

  // Loads every side's files.
  void Run() {
    pool_.Run();
    Report(LoadPhase::kDone, [](LoadProgress&) {});
  }

  // A side's dump, once Run is done.
  absl::StatusOr<Dump> Take(Side& side) {
    if (!side.error.ok()) return side.error;
    Dump dump;
    dump.root = std::move(side.root);
    dump.files.assign(std::make_move_iterator(side.files.begin()),
                      std::make_move_iterator(side.files.end()));
    dump.skipped = std::move(side.skipped);
    std::sort(dump.files.begin(), dump.files.end(),
              [](const DumpFile& a, const DumpFile& b) {
                return a.path != b.path ? a.path < b.path : a.source < b.source;
              });
    std::sort(dump.skipped.begin(), dump.skipped.end());
    return dump;
  }

 private:
  void Process(Item& item) {
    if (Cancelled(item)) return;
    if (!item.disk.empty()) {
      // A small file is read whole at once; a large one's head tells
      // whether to map it or to stream it as an archive.
      absl::StatusOr<FileStart> start = ReadFileStart(item.disk, kSniffBytes);
      if (!start.ok()) return Fail(item, start.status());
      std::string_view head = start->complete ? start->whole.view() : start->head;
      if (head.empty()) return AddSkipped(*item.side, item.rel, "empty file");
      ArchiveMagic magic = SniffArchive(head.substr(0, kSniffBytes));
      if (magic != ArchiveMagic::kNone) return Expand(item, magic);
      FileBytes text;
      if (start->complete) {
        if (head.size() > options_.max_file_bytes) {
          return Fail(item, FileTooLargeError(item.disk, head.size(), options_.max_file_bytes,
                                              kFileLimitName));
        }
        text = FileBytes(std::move(start->whole));
      } else {
        absl::StatusOr<FileBytes> read =
            ReadFileBytes(item.disk, options_.max_file_bytes, kFileLimitName);
        if (!read.ok()) return Fail(item, read.status());
        text = *std::move(read);
      }
      if (!item.again) {
        Report(LoadPhase::kParsing, [&](LoadProgress& p) { p.bytes_read += text.size(); });
      }
      return Parse(item, text.view());
    }
    std::string_view text = item.has_borrowed ? item.borrowed : item.data.view();
    if (text.empty()) return AddSkipped(*item.side, item.rel, "empty file");
    if (text.size() > options_.max_file_bytes) {
      return Fail(item, FileTooLargeError(item.source, text.size(), options_.max_file_bytes,
                                          kFileLimitName));
    }
    ArchiveMagic magic = SniffArchive(text.substr(0, kSniffBytes));
    if (magic != ArchiveMagic::kNone) return Expand(item, magic);
    Parse(item, text);
  }

  void Parse(Item& item, std::string_view text) {
    // A file of a directory or archive may repeat one parsed before; the
    // file the user named alone has nothing to repeat, and graphs handed
    // out as they are parsed are not kept to copy.
    const bool take = static_cast<bool>(options_.take_graphs);
    const bool repeatable = !take && !item.is_root;
    uint64_t hash = 0;
    RepeatedFiles::Claim claim;
    if (repeatable) {
      hash = RepeatedFiles::Hash(text);
      claim = repeated_.Decide(hash, text, [&] { return Park(item); });
      if (claim.kind == RepeatedFiles::Claim::kCopy) return AddCopy(item, *claim.file);
      if (claim.kind == RepeatedFiles::Claim::kParked) return;
    }
    OriginalClaim original(claim.kind == RepeatedFiles::Claim::kOriginal ? &repeated_ : nullptr,
                           hash);
    const Detection detection = Detect(text);
    if (detection.format == DumpFormat::kUnknown) {
      return AddSkipped(*item.side, item.rel,
                        detection.binary ? "not a recognised dump (binary)"
                                         : "not a recognised dump");
    }
    Report(LoadPhase::kParsing, [](LoadProgress&) {});
    // A large save file is cut into pieces parsed on the pool, beside the
    // other files; pieces wait for a free thread like any file. Graphs
    // handed out (take_graphs) are parsed in pieces on one thread too.
    // The files the user named (a diff of two files) load at once, a thread
    // each: one no bigger than its share of their bytes (a tenth over) is
    // cut only for the threads the others leave it, and not at all when that
    // is one. The search for cuts reads the text on from the first cut's
    // place, to its end in a file of one graph, and no thread would be free
    // to take a piece: a twentieth of a diff of two 10^6-node FX graphs on
    // two cores. A bigger one is cut as before: the thread of a smaller one
    // takes its pieces once done.
    unsigned share = pool_.threads();
    if (item.is_root && root_files_ > 1 &&
        uint64_t{text.size()} * 10 * root_files_ <= root_bytes_ * 11) {
      share = std::max(1u, share / root_files_);
    }
    TaskRunner runner;
    runner.pieces = share > 1 ? 2 * share : 1;
    runner.run = [this](size_t n, const std::function<void(size_t)>& task) {
      pool_.RunGroup(n, task);
    };
    GraphStream stream;
    if (take) {
      stream.take = [&](std::vector<Graph>& graphs) {
        const size_t n = graphs.size();
        options_.take_graphs(
            TakenGraphs{item.rel, item.source, &graphs, false, false, runner.run});
        Report(LoadPhase::kParsing, [&](LoadProgress& p) { p.graphs += n; });
      };
      stream.restart = [&] {
        options_.take_graphs(
            TakenGraphs{item.rel, item.source, nullptr, true, false, runner.run});
      };
    }
    absl::StatusOr<ParsedText> parsed =
        ParseDetected(text, detection, item.source, options_.parse,
                      pool_.threads() > 1 || take ? &runner : nullptr, take ? &stream : nullptr);
    if (!parsed.ok()) return Fail(item, parsed.status());
    Report(LoadPhase::kParsing, [&](LoadProgress& p) {
      ++p.files_done;
      // Graphs handed out were counted as they went; a restart's were not
      // taken back.
      p.graphs += parsed->graphs.size();
    });
    if (take) {
      options_.take_graphs(
          TakenGraphs{item.rel, item.source, &parsed->graphs, false, true, runner.run});
      parsed->graphs.clear();
    }
    DumpFile file;
    file.path = item.rel;
    file.source = item.source;
    file.format = parsed->format;
    file.graphs = std::move(parsed->graphs);
    file.metrics = std::move(parsed->metrics);
    file.warnings = std::move(parsed->warnings);
    const DumpFile* added;
    {
      std::lock_guard<std::mutex> lock(mu_);
      added = &item.side->files.emplace_back(std::move(file));
    }
    if (original.active()) {
      RepeatedFiles::Origin origin;
      if (!item.disk.empty()) {
        origin.disk = item.disk;
      } else if (item.has_borrowed) {
        origin.borrowed = item.borrowed;
      } else if (repeated_.CanKeep(item.data.size())) {
        origin.owned = std::move(item.data);
      } else {
        return;  // nothing to prove a repeat with: `original` abandons
      }
      original.Done(added, std::move(origin));
    }
  }

  // A file read while an equal one is being parsed waits for that parse
  // with its state moved here, and is queued again when it ends. An
  // archive entry's bytes count as pending while it waits; over the budget
  // it is parsed instead.
  std::function<void()> Park(Item& item) {
    const uint64_t owned = item.disk.empty() && !item.has_borrowed ? item.data.size() : 0;
    if (owned > 0) {
      if (pending_bytes_.fetch_add(owned) + owned > pending_budget_) {
        pending_bytes_ -= owned;
        return {};
      }
    }
    auto parked = std::make_shared<Item>(std::move(item));
    parked->again = true;
    return [this, parked, owned] {
      pool_.Add([this, parked, owned] {
        Process(*parked);
        parked->data.Clear();
        pending_bytes_ -= owned;
      });
    };
  }

  // A file whose bytes are `original`'s: its graphs, reports and warnings,
  // named for this file. Sealed string pools are shared, not copied.
  void AddCopy(const Item& item, const DumpFile& original) {
    DumpFile file;
    file.path = item.rel;
    file.source = item.source;
    file.format = original.format;
    file.graphs = original.graphs;
    for (Graph& g : file.graphs) g.source.file = item.source;
    file.metrics = original.metrics;
    for (MetricsReport& m : file.metrics) m.source = item.source;
    file.warnings = original.warnings;
    for (Diagnostic& d : file.warnings) d.source = item.source;
    const size_t graphs = file.graphs.size();
    {
      std::lock_guard<std::mutex> lock(mu_);
      item.side->files.push_back(std::move(file));
    }
    Report(LoadPhase::kParsing, [&](LoadProgress& p) {
      ++p.files_done;
      p.graphs += graphs;
    });
  }

  void Expand(Item& item, ArchiveMagic magic) {
    if (item.depth >= kMaxNesting) {
      return AddSkipped(*item.side, item.rel, "archive nested too deep, not opened");
    }
    ArchiveLimits limits;
    limits.max_file_bytes = options_.max_file_bytes;
    limits.max_entries = options_.max_archive_entries;
    limits.max_total_bytes = options_.max_archive_bytes;
    limits.total_bytes = &item.side->archive_bytes;
    limits.max_ratio = options_.max_compression_ratio;
    limits.input_bytes = &item.side->input_bytes;
    if (item.depth == 0) {
      // An archive the user handed over: its size is what the ratio limit
      // lets the whole load expand from. Nested archives add nothing.
      std::error_code ec;
      uint64_t size = item.disk.empty()
                          ? (item.has_borrowed ? item.borrowed.size() : item.data.size())
                          : std::filesystem::file_size(item.disk, ec);
      item.side->input_bytes += ec ? 0 : size;
    }
    if (options_.progress) {
      limits.progress = [this](uint64_t n) {
        Report(LoadPhase::kReading, [&](LoadProgress& p) { p.bytes_read += n; });
      };
    }
    ArchiveSink sink;
    sink.file = [&](std::string entry, TextBuffer data) -> absl::Status {
      if (Cancelled(item)) return absl::CancelledError();
      if (++item.side->file_count > options_.max_files) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "dump has more than ", options_.max_files,
            " files (LoadOptions::max_files; graphdiff --max-files)"));
      }
      Item child;
      child.side = item.side;
      child.depth = item.depth + 1;
      if (entry.empty()) {
        // The content of a compressed single file: named after the file.
        child.rel = StripCompressionSuffix(item.rel);
        child.source = item.source;
        child.is_root = item.is_root;
      } else {
        child.rel = item.is_root ? entry : absl::StrCat(item.rel, "!", entry);
        child.source = absl::StrCat(item.source, "!", entry);
      }
      child.data = std::move(data);
      uint64_t size = child.data.size();
      const size_t found = FilesFound();
      Report(LoadPhase::kReading, [&](LoadProgress& p) {
        p.files_found = std::max<size_t>(p.files_found, found);
      });
      if (pending_bytes_.fetch_add(size) + size > pending_budget_) {
        Process(child);
        pending_bytes_ -= size;
      } else {
        auto shared = std::make_shared<Item>(std::move(child));
        pool_.Add([this, shared, size] {
          Process(*shared);
          shared->data.Clear();
          pending_bytes_ -= size;
        });
      }
      return absl::OkStatus();
    };
    sink.skip = [&](std::string entry, std::string reason) {
      AddSkipped(*item.side, item.is_root ? entry : absl::StrCat(item.rel, "!", entry),
                 std::move(reason));
    };
    std::string_view memory = item.has_borrowed ? item.borrowed : item.data.view();
    absl::Status s = ReadArchive(item.source, item.disk, memory, magic, limits, sink);
    // The archive's bytes are no longer needed once its entries are out.
    item.data.Clear();
    Report(LoadPhase::kReading, [](LoadProgress& p) { ++p.files_done; });
    if (!s.ok() && !absl::IsCancelled(s)) Fail(item, s);
  }

  // Keeps the error of the side's first file in order, whatever thread saw
  // it first.
  void Fail(const Item& item, absl::Status status) {
    Side& side = *item.side;
    std::lock_guard<std::mutex> lock(mu_);
    if (side.error.ok() || item.source < side.error_key) {
      side.error_key = item.source;
      side.error = std::move(status);
    }
  }

  // A file after a failed one of its side need not load: its result cannot
  // be used, and any error it has would not be the one reported.
  bool Cancelled(const Item& item) {
    std::lock_guard<std::mutex> lock(mu_);
    return !item.side->error.ok() && item.source > item.side->error_key;
  }

  size_t FilesFound() const {
    size_t n = 0;
    for (const Side& side : sides_) n += side.file_count;
    return n;
  }

  const LoadOptions& options_;
  TaskPool pool_;
  const uint64_t pending_budget_;
  unsigned root_files_ = 0;  // files the user named (AddRootFile)
  uint64_t root_bytes_ = 0;  // their bytes on disk
  std::mutex progress_mu_;
  LoadProgress progress_;
  std::mutex mu_;
  std::deque<Side> sides_;  // a deque: items point at their side
  std::deque<Item> queued_;  // a deque: tasks point at their item
  std::atomic<uint64_t> pending_bytes_{0};
  RepeatedFiles repeated_;
};

}  // namespace

namespace {

// Lists what the user named (a file or a directory) into `side`, or says
// why it cannot be loaded.
absl::Status AddPath(Loader& loader, Side& side, const LoadOptions& options) {
  namespace fs = std::filesystem;
  const std::string& root = side.root;
  std::error_code ec;
  fs::file_status status = fs::status(root, ec);
  // The system's own reason: a path behind a directory the user may not
  // search is "Permission denied", not missing.
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return ec == std::errc::permission_denied
               ? absl::PermissionDeniedError(absl::StrCat(root, ": ", ec.message()))
               : absl::UnavailableError(absl::StrCat(root, ": ", ec.message()));
  }
  if (ec || !fs::exists(status)) {
    return absl::NotFoundError(absl::StrCat(root, ": no such file or directory"));
  }
  if (fs::is_directory(status)) {
    absl::StatusOr<DirListing> listing = WalkDirectory(root, options.max_files);
    if (!listing.ok()) return listing.status();
    loader.set_file_count(side, listing->files.size());
    for (auto& [skipped_path, reason] : listing->skipped) {
      loader.AddSkipped(side, std::move(skipped_path), std::move(reason));
    }
    for (std::string& rel : listing->files) {
      Item item;
      item.side = &side;
      item.source = JoinPath(root, rel);
      item.disk = item.source;
      item.rel = std::move(rel);
      loader.Queue(std::move(item));
    }
  } else if (fs::is_regular_file(status)) {
    Item item;
    item.side = &side;
    item.rel = std::string(BaseName(root));
    item.source = root;
    item.disk = root;
    item.is_root = true;
    std::error_code size_error;
    const uintmax_t bytes = fs::file_size(root, size_error);
    loader.AddRootFile(size_error ? 0 : static_cast<uint64_t>(bytes));
    loader.set_file_count(side, 1);
    loader.Queue(std::move(item));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(root, ": not a regular file or directory"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Dump> LoadDump(std::string_view path, const LoadOptions& options) {
  Loader loader(options);
  Side& side = loader.AddSide(std::string(path));
  if (absl::Status s = AddPath(loader, side, options); !s.ok()) return s;
  loader.Run();
  return loader.Take(side);
}

DumpPair LoadDumpPair(std::string_view left, std::string_view right,
                      const LoadOptions& options) {
  Loader loader(options);
  Side& l = loader.AddSide(std::string(left));
  Side& r = loader.AddSide(std::string(right));
  const absl::Status left_listed = AddPath(loader, l, options);
  const absl::Status right_listed = AddPath(loader, r, options);
  loader.Run();
  DumpPair out;
  out.left = left_listed.ok() ? loader.Take(l) : absl::StatusOr<Dump>(left_listed);
  out.right = right_listed.ok() ? loader.Take(r) : absl::StatusOr<Dump>(right_listed);
  return out;
}

absl::StatusOr<Dump> LoadDumpFromMemory(
    std::string_view root, const std::vector<std::pair<std::string, std::string>>& files,
    const LoadOptions& options) {
  if (files.size() > options.max_files) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "dump has more than ", options.max_files,
        " files (LoadOptions::max_files; graphdiff --max-files)"));
  }
  Loader loader(options);
  Side& side = loader.AddSide(std::string(root));
  loader.set_file_count(side, files.size());
  for (const auto& [name, content] : files) {
    // The caller's names get the archive rules: they may come from anywhere.
    absl::StatusOr<std::string> rel = CheckEntryPath(root, name);
    if (!rel.ok()) return rel.status();
    if (rel->empty() || IsHiddenPath(*rel)) continue;
    Item item;
    item.side = &side;
    item.source = JoinPath(root, *rel);
    item.rel = *std::move(rel);
    item.borrowed = content;
    item.has_borrowed = true;
    loader.Queue(std::move(item));
  }
  loader.Run();
  return loader.Take(side);
}

}  // namespace graphdiff
