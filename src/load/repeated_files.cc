// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/repeated_files.h"

#include <utility>

#include "absl/hash/hash.h"
#include "absl/status/statusor.h"
#include "load/file_read.h"

namespace graphdiff {

uint64_t RepeatedFiles::Hash(std::string_view text) {
  return absl::Hash<std::string_view>{}(text);
}

bool RepeatedFiles::CanKeep(uint64_t size) const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_ + size <= keep_budget_;
}

// A first repeat is compared with the disk a block at a time, and only a
// second reads the bytes whole, to keep: a run's ranks repeat a file again
// and again, but a diff of two directories repeats most files of one side
// once in the other, and reading each left file whole to compare one right
// file, kept to the end, was two fifths of the fresh memory of a diff of two
// directories of 10,000 files none alike.
bool RepeatedFiles::SameAsDisk(Entry& e, std::string_view text) {
  bool first;
  std::shared_ptr<const TextBuffer> kept;
  {
    std::lock_guard<std::mutex> lock(e.read_mu);
    first = !e.compared;
    e.compared = true;
    if (!first) {
      if (!e.read) {
        e.read = true;
        absl::StatusOr<TextBuffer> bytes = ReadFileCopy(e.origin.disk, e.size, "");
        if (bytes.ok() && bytes->size() == e.size) {
          e.disk_bytes = std::make_shared<const TextBuffer>(*std::move(bytes));
        }
      }
      kept = e.disk_bytes;
    }
  }
  if (first) return FileHoldsBytes(e.origin.disk, text);
  return kept != nullptr && kept->view() == text;
}

RepeatedFiles::Claim RepeatedFiles::Decide(
    uint64_t hash, std::string_view text,
    const std::function<std::function<void()>()>& park) {
  Entry* e = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = entries_.try_emplace(hash);
    if (inserted) {
      it->second = std::make_unique<Entry>();
      it->second->size = text.size();
      return {Claim::kOriginal, nullptr};
    }
    e = it->second.get();
    if (e->size != text.size() || e->state == State::kAbandoned) return {};
    if (e->state == State::kParsing) {
      std::function<void()> task = park();
      if (!task) return {};
      e->parked.push_back(std::move(task));
      return {Claim::kParked, nullptr};
    }
  }
  // Done: nothing writes the entry any more but SameAsDisk, under its lock.
  bool same;
  if (!e->origin.disk.empty()) {
    same = SameAsDisk(*e, text);
  } else if (!e->origin.owned.empty()) {
    same = e->origin.owned.view() == text;
  } else {
    same = e->origin.borrowed == text;
  }
  if (!same) return {};
  return {Claim::kCopy, e->file};
}

void RepeatedFiles::Finish(uint64_t hash, const DumpFile* file, Origin* origin) {
  std::vector<std::function<void()>> parked;
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& e = *entries_.at(hash);
    e.state = State::kAbandoned;
    if (file != nullptr) {
      const bool owned = origin->disk.empty() && origin->borrowed.data() == nullptr;
      if (!owned || (origin->owned.size() == e.size && kept_ + e.size <= keep_budget_)) {
        if (owned) kept_ += e.size;
        e.state = State::kDone;
        e.file = file;
        e.origin = std::move(*origin);
      }
    }
    parked.swap(e.parked);
  }
  for (std::function<void()>& task : parked) task();
}

void RepeatedFiles::Done(uint64_t hash, const DumpFile* file, Origin origin) {
  Finish(hash, file, &origin);
}

void RepeatedFiles::Abandon(uint64_t hash) { Finish(hash, nullptr, nullptr); }

}  // namespace graphdiff
