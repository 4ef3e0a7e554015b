// Result<T> and Status: the error type used by every privbench library.
//
// Library code never throws on user input, never calls exit() and never
// returns NaN silently: fallible functions return Result<T> (a value or an
// Error whose message names the offending argument, e.g.
// "delta must be in [0, 1), got 1.5") or Status (success or an Error).
#ifndef PRIVBENCH_CORE_RESULT_H_
#define PRIVBENCH_CORE_RESULT_H_

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace privbench {

// A failure with a human-readable message.
class Error {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// Success, or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;                                                      // success
  Status(Error error) : error_(std::move(error.message())), ok_(false) {}  // NOLINT
  static Status Ok() { return Status(); }

  bool ok() const { return ok_; }
  // The error message; empty on success.
  const std::string& message() const { return error_; }
  Error error() const { return Error(error_); }

 private:
  std::string error_;
  bool ok_ = true;
};

// A value of type T, or an Error.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT
  Result(Error error) : data_(std::move(error)) {}  // NOLINT
  Result(Status status) : data_(status.error()) {   // NOLINT
    if (status.ok()) throw std::logic_error("Result constructed from OK Status");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }

  // Accessing the value of an error Result is a programming error.
  const T& value() const& {
    if (!ok()) throw std::logic_error("Result::value() on error: " + message());
    return std::get<T>(data_);
  }
  T& value() & {
    if (!ok()) throw std::logic_error("Result::value() on error: " + message());
    return std::get<T>(data_);
  }
  T&& value() && {
    if (!ok()) throw std::logic_error("Result::value() on error: " + message());
    return std::get<T>(std::move(data_));
  }
  // The value, or `fallback` on error.
  T value_or(T fallback) const& { return ok() ? std::get<T>(data_) : std::move(fallback); }

  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  // The error message; empty when ok().
  const std::string& message() const {
    static const std::string kEmpty;
    return ok() ? kEmpty : std::get<Error>(data_).message();
  }
  Status status() const { return ok() ? Status::Ok() : Status(std::get<Error>(data_)); }

 private:
  std::variant<T, Error> data_;
};

}  // namespace privbench

#define PB_CONCAT_INNER_(a, b) a##b
#define PB_CONCAT_(a, b) PB_CONCAT_INNER_(a, b)

// Returns the Status (or the Error of a Result) from the enclosing function
// if `expr` failed.
#define PB_RETURN_IF_ERROR(expr)                                           \
  do {                                                                     \
    auto pb_status_ = (expr);                                              \
    if (!pb_status_.ok()) return ::privbench::Error(pb_status_.message()); \
  } while (0)

// `PB_ASSIGN_OR_RETURN(auto x, F());` declares x from F()'s value, or
// returns F()'s error from the enclosing function. It expands to several
// statements: inside if/else, always use braces.
#define PB_ASSIGN_OR_RETURN(lhs, expr)                                     \
  auto PB_CONCAT_(pb_result_, __LINE__) = (expr);                          \
  if (!PB_CONCAT_(pb_result_, __LINE__).ok())                              \
    return ::privbench::Error(PB_CONCAT_(pb_result_, __LINE__).message()); \
  lhs = std::move(PB_CONCAT_(pb_result_, __LINE__)).value()

#endif  // PRIVBENCH_CORE_RESULT_H_
