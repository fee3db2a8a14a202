// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared by the files of the Python extension: turning absl::Status into the
// one Python exception, and turning Python arguments (paths, loaded dumps,
// dicts) into the library's inputs.
#ifndef GRAPHDIFF_PYTHON_BINDINGS_H_
#define GRAPHDIFF_PYTHON_BINDINGS_H_

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "pybind11/pybind11.h"

// Every std::string this module hands to Python comes from a dump or is
// built from one (names, lines, file names, reports), and dumps may hold any
// bytes: a Latin-1 file name, a garbled line. pybind11 decodes strictly and
// would raise UnicodeDecodeError on reading such a field, so this module's
// conversion shows invalid UTF-8 as \xNN escapes instead. Loading (Python to
// C++) is pybind11's own. Declared before any use, in every file of the module.
namespace pybind11::detail {
template <>
struct type_caster<std::string> : string_caster<std::string> {
  static handle cast(const std::string& src, return_value_policy, handle) {
    PyObject* decoded = PyUnicode_DecodeUTF8(src.data(), static_cast<ssize_t>(src.size()),
                                             "backslashreplace");
    if (decoded == nullptr) throw error_already_set();
    return decoded;
  }
};
}  // namespace pybind11::detail

namespace graphdiff::python {

namespace py = pybind11;

// A failed status on its way to Python, where it becomes GraphdiffError.
// Thrown only after the GIL is back (pybind11 translates on return).
class StatusError : public std::exception {
 public:
  explicit StatusError(absl::Status status)
      : status_(std::move(status)), what_(status_.message()) {}
  const absl::Status& status() const { return status_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  absl::Status status_;
  std::string what_;
};

template <typename T>
T Unwrap(absl::StatusOr<T> value) {
  if (!value.ok()) throw StatusError(value.status());
  return *std::move(value);
}

// Text as a Python str, invalid UTF-8 as \xNN escapes (as every string this
// module returns).
py::str Text(std::string_view s);

// Creates graphdiff.GraphdiffError in `m` and the translator that raises it
// with .code, .source, .line and .column set from the status.
void RegisterError(py::module_& m);

// A dump argument: a loaded Dump, or a path (str or os.PathLike) that is
// loaded when Resolve() runs, which needs no GIL.
class DumpArg {
 public:
  // With the GIL held. `what` names the argument in a TypeError.
  DumpArg(py::handle obj, const char* what);
  // Without the GIL: loads the path if one was given, parsing on `threads`
  // threads (0 = one per core).
  absl::Status Resolve(unsigned threads = 0);
  // Both sides of a diff, at once: two paths load together (LoadDumpPair),
  // so files the two share are parsed once. The left side's error first.
  static absl::Status ResolveBoth(DumpArg& left, DumpArg& right, unsigned threads);
  const Dump& dump() const { return given_ != nullptr ? *given_ : loaded_; }
  // What the user named: the path, or the loaded dump's root.
  const std::string& name() const { return given_ != nullptr ? given_->root : path_; }

 private:
  const Dump* given_ = nullptr;
  std::string path_;
  Dump loaded_;
};

// os.fspath(obj) as UTF-8; TypeError when obj is not a path.
std::string FsPath(py::handle obj, const char* what);
// A whole file. Errors name `what` ("baseline", "budget") and the path.
absl::StatusOr<std::string> ReadTextFile(const std::string& path, const char* what);
// JSON text for a dict/list argument (json.dumps), a str holding JSON text
// (it starts with '{'), or the file named by a path.
// `source` receives the name errors should use.
std::string JsonArgument(py::handle obj, const char* what, std::string* source);

void BindTypes(py::module_& m);

}  // namespace graphdiff::python

#endif  // GRAPHDIFF_PYTHON_BINDINGS_H_
