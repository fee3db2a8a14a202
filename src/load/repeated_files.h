// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Files of a dump whose bytes repeat a file parsed before in the same load.
// A run's dump directory repeats whole files: each rank of a data-parallel
// job writes the same graphs, a recompile writes the graph it wrote before,
// a sweep's runs share most of theirs. Parsing is a function of the bytes
// alone (the file's name only labels what it finds), so a repeat takes a
// copy of the first file's graphs, its string pool shared, instead of a
// parse. The copies' shared pools also let the differ's pair memo find
// their pairs again, which it cannot do for graphs of pools of their own.
//
// A hash is no proof: a repeat is taken only once its bytes compare equal
// to the first file's. A file on disk is compared with the first repeat a
// block at a time, read again; at the second its bytes are read whole (a
// copy, never a mapping: the file may change while the load goes on) and
// kept for the next ones. Bytes that came from an archive were kept, within
// a budget, or are the caller's (LoadDumpFromMemory).
//
// Repeats often sit side by side (rank0/, rank1/), and are then read while
// their original is still being parsed: such a file is parked with the
// original and queued again when its parse ends, instead of being parsed
// a second time at once.
#ifndef GRAPHDIFF_SRC_LOAD_REPEATED_FILES_H_
#define GRAPHDIFF_SRC_LOAD_REPEATED_FILES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "graphdiff/dump.h"
#include "load/text_buffer.h"

namespace graphdiff {

class RepeatedFiles {
 public:
  // Where a parsed file's bytes can be had again. One of the three.
  struct Origin {
    std::string disk;           // read again from this path
    std::string_view borrowed;  // the caller's, alive for the whole load
    TextBuffer owned;           // kept: an archive entry's bytes
  };

  // What to do with a file.
  struct Claim {
    enum Kind {
      kParse,     // parse it; nothing to tell afterwards
      kOriginal,  // parse it, then tell Done or Abandon (OriginalClaim does)
      kCopy,      // take a copy of `file`
      kParked,    // its original is being parsed: `park`'s task will come
    };
    Kind kind = kParse;
    const DumpFile* file = nullptr;
  };

  // `keep_bytes`: most bytes of archive entries kept in all.
  explicit RepeatedFiles(uint64_t keep_bytes) : keep_budget_(keep_bytes) {}

  static uint64_t Hash(std::string_view text);

  // Whether owned bytes of `size` would be kept now: a file whose bytes
  // cannot be had again is not worth offering otherwise.
  bool CanKeep(uint64_t size) const;

  // Decides for bytes `text` hashing to `hash`. When an equal file is being
  // parsed, calls `park` (under a lock: it should only move the file's
  // state somewhere) for a task that processes the file again, run once
  // that parse ends; `park` may return an empty task to decline, and the
  // file is then parsed. A file on disk that changed since it was parsed,
  // or is gone, is no longer anybody's original.
  Claim Decide(uint64_t hash, std::string_view text,
               const std::function<std::function<void()>()>& park);

  // The original's parse of bytes hashing to `hash` ended in `file`, which
  // must stay where it is, unchanged, for the rest of the load. Runs the
  // parked tasks. An owned origin over the budget is dropped, and the file
  // with it.
  void Done(uint64_t hash, const DumpFile* file, Origin origin);
  // The original's parse failed or gave nothing to copy: the files parked
  // with it are parsed on their own.
  void Abandon(uint64_t hash);

 private:
  enum class State { kParsing, kDone, kAbandoned };
  struct Entry {
    State state = State::kParsing;
    uint64_t size = 0;
    const DumpFile* file = nullptr;
    Origin origin;
    std::vector<std::function<void()>> parked;
    // Bytes read again from `origin.disk`, at the second repeat: null
    // until then, and when they could not be read or differ in length.
    std::mutex read_mu;
    bool compared = false;  // a first repeat was compared with the disk
    bool read = false;
    std::shared_ptr<const TextBuffer> disk_bytes;
  };

  // Whether `text` is the bytes of `e`'s file on disk.
  bool SameAsDisk(Entry& e, std::string_view text);
  void Finish(uint64_t hash, const DumpFile* file, Origin* origin);

  const uint64_t keep_budget_;
  mutable std::mutex mu_;
  uint64_t kept_ = 0;
  absl::flat_hash_map<uint64_t, std::unique_ptr<Entry>> entries_;
};

// Tells RepeatedFiles how an original's parse ended: Abandon unless Done
// was called, on every way out of the parse.
class OriginalClaim {
 public:
  OriginalClaim() = default;
  OriginalClaim(RepeatedFiles* files, uint64_t hash) : files_(files), hash_(hash) {}
  OriginalClaim(const OriginalClaim&) = delete;
  OriginalClaim& operator=(const OriginalClaim&) = delete;
  ~OriginalClaim() {
    if (files_ != nullptr) files_->Abandon(hash_);
  }
  bool active() const { return files_ != nullptr; }
  void Done(const DumpFile* file, RepeatedFiles::Origin origin) {
    RepeatedFiles* files = files_;
    files_ = nullptr;
    files->Done(hash_, file, std::move(origin));
  }

 private:
  RepeatedFiles* files_ = nullptr;
  uint64_t hash_ = 0;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_REPEATED_FILES_H_
