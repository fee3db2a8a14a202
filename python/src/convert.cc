// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <future>
#include <sstream>
#include <string>

#include "bindings.h"
#include "fmt/format.h"
#include "graphdiff/input.h"

namespace graphdiff::python {
namespace {

// Leaked on purpose: the module holds the type for the interpreter's life,
// and a static py::object would be released after the interpreter is gone.
PyObject* g_error_type = nullptr;

// "source:line:col: message" -> (source, line, col); the first line of a
// parse error. Sources may hold ':' themselves, so look for the first
// ":digits:digits: " and take everything before it as the source.
bool SplitLocation(const std::string& message, std::string* source, long* line, long* col) {
  std::string first = message.substr(0, message.find('\n'));
  for (size_t i = first.find(':'); i != std::string::npos; i = first.find(':', i + 1)) {
    size_t j = i + 1;
    size_t line_start = j;
    while (j < first.size() && std::isdigit(static_cast<unsigned char>(first[j]))) ++j;
    if (j == line_start || j >= first.size() || first[j] != ':') continue;
    size_t col_start = ++j;
    while (j < first.size() && std::isdigit(static_cast<unsigned char>(first[j]))) ++j;
    if (j == col_start || first.compare(j, 2, ": ") != 0) continue;
    if (col_start - 1 - line_start > 9 || j - col_start > 9) continue;  // no line of 10^9
    *source = first.substr(0, i);
    *line = std::stol(first.substr(line_start, col_start - 1 - line_start));
    *col = std::stol(first.substr(col_start, j - col_start));
    return true;
  }
  return false;
}

}  // namespace

py::str Text(std::string_view s) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "backslashreplace");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

void RegisterError(py::module_& m) {
  py::exception<StatusError> type(m, "GraphdiffError", PyExc_Exception);
  type.attr("__doc__") =
      "Every failure of graphdiff: a dump, baseline or budget that cannot be read or parsed,\n"
      "nothing to compare, an unknown format. str(error) is the message the CLI prints\n"
      "(`file:line:col: message`, the offending line and a caret for syntax errors).\n"
      "Attributes: code (the status code name, e.g. 'INVALID_ARGUMENT'), and for\n"
      "positioned errors source, line and column (else None).";
  type.attr("code") = "UNKNOWN";
  type.attr("source") = py::none();
  type.attr("line") = py::none();
  type.attr("column") = py::none();
  g_error_type = type.release().ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatusError& e) {
      py::object type = py::reinterpret_borrow<py::object>(g_error_type);
      py::object err = type(Text(e.what()));
      err.attr("code") = py::str(absl::StatusCodeToString(e.status().code()));
      std::string source;
      long line = 0, col = 0;
      bool located = SplitLocation(e.what(), &source, &line, &col);
      err.attr("source") = located ? py::object(Text(source)) : py::object(py::none());
      err.attr("line") = located ? py::object(py::int_(line)) : py::object(py::none());
      err.attr("column") = located ? py::object(py::int_(col)) : py::object(py::none());
      PyErr_SetObject(g_error_type, err.ptr());
    }
  });
}

std::string FsPath(py::handle obj, const char* what) {
  if (!py::isinstance<py::str>(obj) && !py::hasattr(obj, "__fspath__")) {
    throw py::type_error(fmt::format("{} must be a path (str or os.PathLike) or a graphdiff.Dump, "
                                     "not {}",
                                     what, std::string(py::str(obj.get_type().attr("__name__")))));
  }
  // The file system's bytes: a str path with undecodable bytes (surrogate
  // escapes, as os.listdir gives them) round-trips like a bytes path.
  return py::module_::import("os").attr("fsencode")(obj).cast<std::string>();
}

DumpArg::DumpArg(py::handle obj, const char* what) {
  if (py::isinstance<Dump>(obj)) {
    given_ = obj.cast<const Dump*>();
  } else {
    path_ = FsPath(obj, what);
  }
}

absl::Status DumpArg::Resolve(unsigned threads) {
  if (given_ != nullptr) return absl::OkStatus();
  LoadOptions options;
  options.threads = threads;
  absl::StatusOr<Dump> dump = LoadDump(path_, options);
  if (!dump.ok()) return dump.status();
  loaded_ = *std::move(dump);
  return absl::OkStatus();
}

absl::Status DumpArg::ResolveBoth(DumpArg& left, DumpArg& right, unsigned threads) {
  if (left.given_ == nullptr && right.given_ == nullptr) {
    LoadOptions options;
    options.threads = threads;
    DumpPair pair = LoadDumpPair(left.path_, right.path_, options);
    if (!pair.left.ok()) return pair.left.status();
    if (!pair.right.ok()) return pair.right.status();
    left.loaded_ = *std::move(pair.left);
    right.loaded_ = *std::move(pair.right);
    return absl::OkStatus();
  }
  std::future<absl::Status> pending =
      std::async(std::launch::async, [&] { return right.Resolve(threads); });
  absl::Status left_status = left.Resolve(threads);
  absl::Status right_status = pending.get();
  return !left_status.ok() ? left_status : right_status;
}

absl::StatusOr<std::string> ReadTextFile(const std::string& path, const char* what) {
  // The CLI's reader: the same limit, and the system's reason in every error.
  return ReadInputFile(path, what);
}

std::string JsonArgument(py::handle obj, const char* what, std::string* source) {
  if (py::isinstance<py::dict>(obj) || py::isinstance<py::list>(obj)) {
    *source = fmt::format("<{} dict>", what);
    return py::module_::import("json").attr("dumps")(obj).cast<std::string>();
  }
  if (py::isinstance<py::str>(obj)) {
    // JSON text itself: no file name starts with '{'.
    std::string text = obj.cast<std::string>();
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{') {
      *source = fmt::format("<{} text>", what);
      return text;
    }
  }
  *source = FsPath(obj, what);
  return Unwrap(ReadTextFile(*source, what));
}

}  // namespace graphdiff::python
