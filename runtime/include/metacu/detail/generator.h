// metacu/detail/generator.h - the library of metacu's generator programs.
//
// metacu lowers each input file to a C++ program (the "generator") and runs
// it in an embedded Clang interpreter; this header is what that program is
// compiled against. It is not for CUDA code: nvcc never sees it. Meta code
// may use the public part (namespace metacu: fail, read_file, load_json,
// json, tuned_params, tune_space, tune_candidates, enum_name, enum_count,
// enum_values, select).
//
// The generator talks to the metacu tool through one C struct of callbacks
// that the tool fills in before the program runs; everything the program
// emits goes through it as input byte ranges and generated text.
#ifndef METACU_DETAIL_GENERATOR_H
#define METACU_DETAIL_GENERATOR_H

#include <metacu/select.h>

// __global__, __device__ and friends, for the declarations the generator
// shares with device code. The guard macro is what <cuda_runtime.h> sets
// around this internal header.
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#include <crt/host_defines.h>
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>
#include <sys/stat.h>

#include <metacu/detail/host_api.h>

namespace metacu {

/// An error raised by meta code: reported at the user's line and column.
class error : public std::runtime_error {
public:
  explicit error(const std::string &msg) : std::runtime_error(msg) {}
  error(const std::string &msg, std::source_location where)
      : std::runtime_error(msg), where_(where), located_(true) {}
  const std::source_location &where() const { return where_; }
  bool located() const { return located_; }

private:
  std::source_location where_;
  bool located_ = false;
};

/// Stops generation with an error at the caller's line and column.
[[noreturn]] inline void
fail(std::string_view msg,
     std::source_location where = std::source_location::current()) {
  throw error(std::string(msg), where);
}

namespace detail {

inline unsigned current_offset = 0;
inline bool failed = false;

inline void at(unsigned offset) {
  current_offset = offset;
  *metacu_host.running = offset;
}
/// Thrown when the tool says generation must stop; it has recorded why, so
/// nothing more is reported.
struct stop_generation {};

inline void text(unsigned b, unsigned e) {
  if (metacu_host.text(metacu_host.ctx, b, e))
    throw stop_generation{};
}
inline void code(unsigned at, std::string_view s) {
  if (metacu_host.code(metacu_host.ctx, at, s.data(), s.size()))
    throw stop_generation{};
}

inline void report(const char *msg) {
  failed = true;
  metacu_host.error(metacu_host.ctx, current_offset, 0, 0, msg);
}

inline void report_current_exception() {
  try {
    throw;
  } catch (const stop_generation &) {
    failed = true;
  } catch (const metacu::error &e) {
    failed = true;
    if (e.located())
      metacu_host.error(metacu_host.ctx, current_offset, e.where().line(),
                        e.where().column(), e.what());
    else
      metacu_host.error(metacu_host.ctx, current_offset, 0, 0, e.what());
  } catch (const std::exception &e) {
    report(("uncaught exception in meta code: " + std::string(e.what()))
               .c_str());
  } catch (...) {
    report("uncaught exception of unknown type in meta code");
  }
}

/// Runs one block of the generator unless an earlier one failed.
template <class F> bool run(F f) {
  if (failed)
    return true;
  try {
    f();
  } catch (...) {
    report_current_exception();
  }
  return true;
}

/// Set by the last statement of each block of the generator: a 'return' in
/// a meta statement (there is no function of the program to return from)
/// leaves the block early, and the rest of its output would be silently
/// lost.
inline bool block_finished = false;

/// Runs one block of the generator, which must run to its end.
template <class F> bool run_block(F f) {
  return run([&] {
    block_finished = false;
    f();
    if (!block_finished)
      throw metacu::error(
          "'return' in meta code outside a meta function: meta statements "
          "run at generation time, where there is no function to return "
          "from; '@meta break' leaves a meta loop");
  });
}

/// Writes the end of a block of the output (its '}', an '#endif') when the
/// generator leaves the block that wrote its start, however it leaves: at
/// its end, or early through a '@meta break' or '@meta continue' of an
/// enclosing meta loop, which would otherwise leave the output unbalanced.
/// F is called with whether the block was left early (its own indentation
/// was not written then). Not while an exception unwinds: generation has
/// failed then.
template <class F> class block_end {
public:
  explicit block_end(F f) : f_(f), exceptions_(std::uncaught_exceptions()) {}
  block_end(const block_end &) = delete;
  block_end &operator=(const block_end &) = delete;
  ~block_end() noexcept(false) {
    if (std::uncaught_exceptions() == exceptions_)
      f_(!reached_);
  }
  /// The generator reached the block's end.
  void reached() { reached_ = true; }

private:
  F f_;
  int exceptions_;
  bool reached_ = false;
};

/// '@meta static_assert' checks meta values, which are only known when the
/// generator runs.
inline void meta_assert(bool cond, const char *msg, const char *requirement) {
  if (cond)
    return;
  std::string m = "static assertion failed";
  if (msg)
    m += std::string(": ") + msg;
  else
    m += std::string(" due to requirement '") + requirement + "'";
  throw metacu::error(m);
}

inline std::string resolve(std::string_view path) {
  if (!path.empty() && path.front() == '/')
    return std::string(path);
  std::string dir = metacu_host.input_dir;
  return dir.empty() ? std::string(path) : dir + "/" + std::string(path);
}

//===--- Reflection -------------------------------------------------------===//

template <class E> struct enum_entry {
  E value;
  const char *name;
};

/// What the tool generates for every enumeration meta code can see: found
/// by argument-dependent lookup as __metacu_reflect((E *)nullptr).
template <class E> struct enum_table {
  /// Spelling of an enumerator in ordinary code minus its name ("E::",
  /// "ns::"); null for meta-only enumerations, which ordinary code lacks.
  const char *prefix;
  /// The type's name in ordinary code, for values that no enumerator has
  /// (a combination of flags); null where prefix is.
  const char *type;
  std::vector<enum_entry<E>> entries;
};

template <class E, class = void> struct has_reflection : std::false_type {};
template <class E>
struct has_reflection<E, std::void_t<decltype(__metacu_reflect((E *)nullptr))>>
    : std::true_type {};

template <class E> const enum_table<E> &table() {
  static_assert(std::is_enum_v<E>, "not an enumeration");
  static_assert(has_reflection<E>::value,
                "metacu has no reflection data for this enumeration: it must "
                "be declared at namespace scope in the input file or in a "
                "header it includes");
  return __metacu_reflect((E *)nullptr);
}

//===--- Spelling values as CUDA C++ tokens -------------------------------===//

template <class T, class = void> struct has_record_spelling : std::false_type {};
template <class T>
struct has_record_spelling<
    T, std::void_t<decltype(__metacu_spell(std::declval<std::string &>(),
                                           std::declval<const T &>()))>>
    : std::true_type {};

template <class T> struct is_string_like {
  using U = std::remove_cv_t<T>;
  static constexpr bool value =
      std::is_same_v<U, std::string> || std::is_same_v<U, std::string_view> ||
      std::is_same_v<U, const char *> || std::is_same_v<U, char *> ||
      (std::is_array_v<U> &&
       std::is_same_v<std::remove_cv_t<std::remove_extent_t<U>>, char>);
};

template <class T> struct is_std_array : std::false_type {};
template <class E, size_t N>
struct is_std_array<std::array<E, N>> : std::true_type {};

// The tool writes __metacu_spellable(const R *) beside each aggregate's
// __metacu_spell: whether every field has a spelling, so that an aggregate
// holding a pointer is refused where its value is used, not where it is
// declared.
template <class T, class = void> struct fields_spellable : std::false_type {};

template <class T>
inline constexpr bool has_spelling = [] {
  if constexpr (std::is_array_v<T>)
    return is_string_like<T>::value ||
           has_spelling<std::remove_cv_t<std::remove_extent_t<T>>>;
  else if constexpr (is_std_array<T>::value)
    return has_spelling<typename T::value_type>;
  else
    return std::is_arithmetic_v<T> || std::is_enum_v<T> ||
           std::is_same_v<T, std::nullptr_t> || is_string_like<T>::value ||
           (has_record_spelling<T>::value && fields_spellable<T>::value);
}();

template <class T>
struct fields_spellable<
    T, std::void_t<decltype(__metacu_spellable((const T *)nullptr))>>
    : std::bool_constant<__metacu_spellable((const T *)nullptr)> {};

inline void spell_string(std::string &out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c >= 0x7f) {
        // Octal escapes are at most three digits, so the next character can
        // never be taken as part of one.
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03o", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  out += '"';
}

template <class T> void spell_integer(std::string &out, T v, const char *suffix) {
  using U = std::make_unsigned_t<T>;
  char buf[32];
  if constexpr (std::is_signed_v<T>) {
    if (v < 0) {
      // The most negative value has no literal: '-2147483648' is the
      // negation of a 'long' literal.
      if (v == std::numeric_limits<T>::min()) {
        auto r = std::to_chars(buf, buf + sizeof buf,
                               std::numeric_limits<T>::max());
        out += "(-" + std::string(buf, r.ptr) + suffix + " - 1)";
        return;
      }
      auto r = std::to_chars(buf, buf + sizeof buf, U(-(v + 1)) + 1);
      out += "(-" + std::string(buf, r.ptr) + suffix + ")";
      return;
    }
  }
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out += std::string(buf, r.ptr) + suffix;
}

template <class T> void spell_floating(std::string &out, T v) {
  constexpr bool is_float = std::is_same_v<T, float>;
  constexpr bool is_long = std::is_same_v<T, long double>;
  const char *suffix = is_float ? "f" : is_long ? "L" : "";
  if (std::isnan(v)) {
    out += is_float ? "__builtin_nanf(\"\")" : is_long ? "__builtin_nanl(\"\")"
                                                       : "__builtin_nan(\"\")";
    return;
  }
  if (std::isinf(v)) {
    if (v < 0)
      out += "(-";
    out += is_float ? "__builtin_huge_valf()"
           : is_long ? "__builtin_huge_vall()"
                     : "__builtin_huge_val()";
    if (v < 0)
      out += ")";
    return;
  }
  // The shortest digits that read back as exactly this value.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  if (std::signbit(v))
    out += "(" + s + suffix + ")";
  else
    out += s + suffix;
}

template <class T> void spell(std::string &out, const T &v);

template <class E> void spell_enum(std::string &out, E v) {
  using U = std::underlying_type_t<E>;
  if constexpr (has_reflection<E>::value) {
    const enum_table<E> &t = __metacu_reflect((E *)nullptr);
    if (!t.prefix)
      throw metacu::error("a value of a meta-only enumeration has no "
                          "spelling in ordinary code; convert it with (int) "
                          "or metacu::enum_name");
    for (const auto &e : t.entries)
      if (e.value == v) {
        out += std::string(t.prefix) + e.name;
        return;
      }
    // Any value of the underlying type is a value of the enumeration.
    out += "static_cast<" + std::string(t.type) + ">(";
    spell(out, U(v));
    out += ")";
    return;
  }
  throw metacu::error("enumeration value " + std::to_string(+U(v)) +
                      " has no enumerator to spell it with in ordinary code");
}

template <class T> void spell(std::string &out, const T &v) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    out += v ? "true" : "false";
  } else if constexpr (std::is_same_v<U, char>) {
    if (v == '\'')
      out += "'\\''";
    else if (v == '"')
      out += "'\"'";
    else {
      std::string s;
      spell_string(s, std::string_view(&v, 1));
      out += "'" + s.substr(1, s.size() - 2) + "'";
    }
  } else if constexpr (std::is_same_v<U, int>) {
    spell_integer(out, v, "");
  } else if constexpr (std::is_same_v<U, unsigned>) {
    spell_integer(out, v, "u");
  } else if constexpr (std::is_same_v<U, long>) {
    spell_integer(out, v, "l");
  } else if constexpr (std::is_same_v<U, unsigned long>) {
    spell_integer(out, v, "ul");
  } else if constexpr (std::is_same_v<U, long long>) {
    spell_integer(out, v, "ll");
  } else if constexpr (std::is_same_v<U, unsigned long long>) {
    spell_integer(out, v, "ull");
  } else if constexpr (std::is_integral_v<U>) {
    // Types without a literal suffix (short, signed char, char16_t, ...).
    const char *name = std::is_same_v<U, short>            ? "short"
                       : std::is_same_v<U, unsigned short> ? "unsigned short"
                       : std::is_same_v<U, signed char>    ? "signed char"
                       : std::is_same_v<U, unsigned char>  ? "unsigned char"
                       : std::is_same_v<U, char16_t>       ? "char16_t"
                       : std::is_same_v<U, char32_t>       ? "char32_t"
                       : std::is_same_v<U, char8_t>        ? "char8_t"
                                                           : "wchar_t";
    out += std::string("static_cast<") + name + ">(";
    spell_integer(out, static_cast<long long>(v), "");
    out += ")";
  } else if constexpr (std::is_floating_point_v<U>) {
    spell_floating(out, v);
  } else if constexpr (std::is_enum_v<U>) {
    spell_enum(out, v);
  } else if constexpr (std::is_same_v<U, std::nullptr_t>) {
    out += "nullptr";
  } else if constexpr (is_string_like<U>::value && std::is_array_v<U>) {
    // A char array need not hold a NUL; one that is full has no string
    // literal that fits it, so it is spelled character by character.
    size_t n = std::extent_v<U>, len = 0;
    while (len < n && v[len])
      ++len;
    if (len < n) {
      spell_string(out, std::string_view(v, len));
    } else {
      out += "{";
      for (size_t i = 0; i < n; ++i) {
        out += i ? ", " : "";
        spell(out, v[i]);
      }
      out += "}";
    }
  } else if constexpr (std::is_array_v<U> || is_std_array<U>::value) {
    // A braced list: it initializes a declared array, an std::array or an
    // array member of an aggregate (the extra braces of an std::array are
    // those of its one member).
    out += is_std_array<U>::value ? "{{" : "{";
    for (size_t i = 0; i < std::size(v); ++i) {
      out += i ? ", " : "";
      spell(out, v[i]);
    }
    out += is_std_array<U>::value ? "}}" : "}";
  } else if constexpr (is_string_like<U>::value) {
    if constexpr (std::is_pointer_v<U>)
      if (!v)
        throw metacu::error("a null 'const char *' has no spelling as a "
                            "string literal");
    spell_string(out, std::string_view(v));
  } else if constexpr (has_record_spelling<U>::value) {
    __metacu_spell(out, v);
  } else {
    static_assert(has_spelling<U>, "no constant spelling for this type");
  }
}

/// A field of an aggregate: __metacu_spell is compiled with the program,
/// used or not, so it must compile for fields without a spelling too; the
/// value's use checks has_spelling (which covers the fields) first.
template <class T> void spell_field(std::string &out, const T &v) {
  if constexpr (has_spelling<std::remove_cv_t<T>>)
    spell(out, v);
  else
    throw metacu::error("a field has no constant spelling");
}

/// A meta value used in ordinary code.
template <class T> void value(unsigned at, const T &v) {
  std::string s;
  spell(s, v);
  code(at, s);
}

/// @(EXPR): strings become tokens as written, other values are spelled.
template <class T> void splice(unsigned at, const T &v) {
  using U = std::remove_cv_t<T>;
  if constexpr (is_string_like<U>::value) {
    std::string_view s(v);
    if (s.empty())
      throw metacu::error("splice of an empty string");
    code(at, s);
  } else {
    static_assert(has_spelling<U>,
                  "@(...) needs a string, a number, an enumerator or an "
                  "aggregate of those");
    value(at, v);
  }
}

//===--- if codegen -------------------------------------------------------===//

template <class C, class R, class A> A first_arg(R (C::*)(A) const);

/// One 'if codegen' chain: every condition is evaluated for every pass
/// before anything is emitted, then each branch opens its #if/#elif/#else.
class codegen_chain {
public:
  explicit codegen_chain(unsigned at) : at_(at) {}

  template <class F> void branch(F cond) {
    using arch_t = decltype(first_arg(&F::operator()));
    uint64_t m = 0;
    for (unsigned p = 0; p < metacu_host.npasses; ++p)
      if (!(taken_ >> p & 1) && cond(static_cast<arch_t>(metacu_host.passes[p])))
        m |= uint64_t(1) << p;
    taken_ |= m;
    masks_.push_back(m);
  }
  void otherwise() {
    masks_.push_back(all() & ~taken_);
    taken_ = all();
  }

  /// Whether branch i is emitted; writes its directive.
  bool open(size_t i) {
    uint64_t m = masks_[i];
    if (!m)
      return false;
    uint64_t covered = 0;
    for (size_t j = 0; j < i; ++j)
      covered |= masks_[j];
    bool first = true;
    for (size_t j = 0; j < i; ++j)
      first &= masks_[j] == 0;
    if (first && m == all())
      return true; // Taken in every pass: no directive at all.
    metacu_directive_kind kind = first ? METACU_DIRECTIVE_IF
                                 : m == (all() & ~covered)
                                     ? METACU_DIRECTIVE_ELSE
                                     : METACU_DIRECTIVE_ELIF;
    metacu_host.directive(metacu_host.ctx, at_, kind, m);
    guarded_ = true;
    return true;
  }
  void close() {
    if (guarded_)
      metacu_host.directive(metacu_host.ctx, at_, METACU_DIRECTIVE_ENDIF, 0);
  }

private:
  uint64_t all() const {
    return metacu_host.npasses >= 64 ? ~uint64_t(0)
                                     : (uint64_t(1) << metacu_host.npasses) - 1;
  }
  unsigned at_;
  uint64_t taken_ = 0;
  std::vector<uint64_t> masks_;
  bool guarded_ = false;
};

} // namespace detail

//===--- Public API for meta code -----------------------------------------===//

/// The enumerators of E in declaration order.
template <class E> std::vector<E> enum_values() {
  std::vector<E> v;
  for (const auto &e : detail::table<E>().entries)
    v.push_back(e.value);
  return v;
}

template <class E> size_t enum_count() {
  return detail::table<E>().entries.size();
}

template <class E> std::string enum_name(E v) {
  for (const auto &e : detail::table<E>().entries)
    if (e.value == v)
      return e.name;
  throw error("enum_name: value " +
              std::to_string(+std::underlying_type_t<E>(v)) +
              " is not an enumerator");
}

/// Reads a data file (relative to the input file) and records it as a
/// dependency of the generated file.
inline std::string read_file(std::string_view path) {
  std::string full = detail::resolve(path);
  // A FIFO or a device would block the build or never end.
  struct stat st;
  if (::stat(full.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw error("cannot read '" + std::string(path) +
                "': not a regular file");
  std::FILE *f = std::fopen(full.c_str(), "rb");
  if (!f)
    throw error("cannot open '" + std::string(path) + "': " +
                std::strerror(errno));
  std::string s;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    s.append(buf, n);
  std::fclose(f);
  metacu_host.depend(metacu_host.ctx, full.c_str());
  return s;
}

/// A parsed JSON document. Members keep their document order.
class json {
public:
  enum class kind { null, boolean, number, string, array, object };

  kind type() const { return kind_; }
  bool is_null() const { return kind_ == kind::null; }
  bool is_bool() const { return kind_ == kind::boolean; }
  bool is_number() const { return kind_ == kind::number; }
  bool is_string() const { return kind_ == kind::string; }
  bool is_array() const { return kind_ == kind::array; }
  bool is_object() const { return kind_ == kind::object; }

  /// Where this value starts: "file:line:col".
  const std::string &where() const { return where_; }

  size_t size() const {
    if (is_array())
      return elements_.size();
    if (is_object())
      return members_.size();
    throw error(where_ + ": size() of a JSON " + kind_name() +
                ", not an array or object");
  }
  bool contains(std::string_view key) const {
    if (!is_object())
      return false;
    for (const auto &m : members_)
      if (m.first == key)
        return true;
    return false;
  }
  const json &operator[](std::string_view key) const {
    if (!is_object())
      throw error(where_ + ": JSON " + kind_name() + " has no member '" +
                  std::string(key) + "'");
    for (const auto &m : members_)
      if (m.first == key)
        return m.second;
    throw error(where_ + ": JSON object has no member '" + std::string(key) +
                "'");
  }
  const json &operator[](size_t i) const {
    if (!is_array())
      throw error(where_ + ": JSON " + kind_name() + " is not an array");
    if (i >= elements_.size())
      throw error(where_ + ": index " + std::to_string(i) +
                  " out of range for a JSON array of " +
                  std::to_string(elements_.size()));
    return elements_[i];
  }
  const std::vector<json> &elements() const {
    if (!is_array())
      throw error(where_ + ": JSON " + kind_name() + " is not an array");
    return elements_;
  }
  const std::vector<std::pair<std::string, json>> &items() const {
    if (!is_object())
      throw error(where_ + ": JSON " + kind_name() + " is not an object");
    return members_;
  }

  /// The value as T: bool, an integer type (exact, range-checked), a
  /// floating-point type, or std::string.
  template <class T> T get() const {
    if constexpr (std::is_same_v<T, bool>) {
      expect(kind::boolean);
      return bool_;
    } else if constexpr (std::is_integral_v<T>) {
      expect(kind::number);
      T v{};
      auto r = std::from_chars(text_.data(), text_.data() + text_.size(), v);
      if (r.ec == std::errc::result_out_of_range)
        throw error(where_ + ": JSON number " + text_ +
                    " is out of range for the requested integer type");
      if (r.ec != std::errc() || r.ptr != text_.data() + text_.size())
        throw error(where_ + ": JSON number " + text_ +
                    " is not an integer");
      return v;
    } else if constexpr (std::is_floating_point_v<T>) {
      expect(kind::number);
      return static_cast<T>(std::strtod(text_.c_str(), nullptr));
    } else if constexpr (std::is_same_v<T, std::string>) {
      expect(kind::string);
      return text_;
    } else {
      static_assert(std::is_same_v<T, bool>,
                    "json::get<T>: T must be bool, an integer, a floating "
                    "point type or std::string");
    }
  }
  int as_int() const { return get<int>(); }
  double as_double() const { return get<double>(); }
  bool as_bool() const { return get<bool>(); }
  std::string as_string() const { return get<std::string>(); }

  static json parse(std::string_view text, std::string_view name) {
    parser p{text, std::string(name)};
    p.skip_ws();
    json v = p.value(0);
    p.skip_ws();
    if (p.i != text.size())
      p.fail("unexpected text after the JSON value");
    return v;
  }

private:
  std::string kind_name() const {
    static const char *names[] = {"null",  "boolean", "number",
                                  "string", "array",   "object"};
    return names[int(kind_)];
  }
  void expect(kind k) const {
    if (kind_ != k) {
      json want;
      want.kind_ = k;
      throw error(where_ + ": expected a JSON " + want.kind_name() +
                  ", found a " + kind_name());
    }
  }

  struct parser {
    std::string_view s;
    std::string name;
    size_t i = 0;

    // The position is only ever asked for at or after the last one asked,
    // so lines are counted once over the whole document, not per value.
    size_t counted = 0;
    unsigned line = 1;
    size_t line_start = 0;

    std::string here() {
      for (; counted < i && counted < s.size(); ++counted)
        if (s[counted] == '\n') {
          ++line;
          line_start = counted + 1;
        }
      return name + ":" + std::to_string(line) + ":" +
             std::to_string(i - line_start + 1);
    }
    [[noreturn]] void fail(const std::string &msg) {
      throw error(here() + ": " + msg);
    }
    void skip_ws() {
      while (i < s.size() &&
             (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        ++i;
    }
    bool literal(std::string_view w) {
      if (s.substr(i, w.size()) != w)
        return false;
      i += w.size();
      return true;
    }
    json value(int depth) {
      if (depth > 512)
        fail("JSON nested too deeply");
      json v;
      v.where_ = here();
      if (i >= s.size())
        fail("expected a JSON value, found end of file");
      char c = s[i];
      if (c == '{') {
        v.kind_ = kind::object;
        ++i;
        skip_ws();
        if (i < s.size() && s[i] == '}') {
          ++i;
          return v;
        }
        while (true) {
          skip_ws();
          if (i >= s.size() || s[i] != '"')
            fail("expected a string as JSON object key");
          std::string key = string_body();
          skip_ws();
          if (i >= s.size() || s[i] != ':')
            fail("expected ':' after JSON object key");
          ++i;
          skip_ws();
          v.members_.emplace_back(std::move(key), value(depth + 1));
          skip_ws();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == '}') {
            ++i;
            return v;
          }
          fail("expected ',' or '}' in JSON object");
        }
      }
      if (c == '[') {
        v.kind_ = kind::array;
        ++i;
        skip_ws();
        if (i < s.size() && s[i] == ']') {
          ++i;
          return v;
        }
        while (true) {
          skip_ws();
          v.elements_.push_back(value(depth + 1));
          skip_ws();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == ']') {
            ++i;
            return v;
          }
          fail("expected ',' or ']' in JSON array");
        }
      }
      if (c == '"') {
        v.kind_ = kind::string;
        v.text_ = string_body();
        return v;
      }
      if (literal("true")) {
        v.kind_ = kind::boolean;
        v.bool_ = true;
        return v;
      }
      if (literal("false")) {
        v.kind_ = kind::boolean;
        return v;
      }
      if (literal("null"))
        return v;
      if (c == '-' || (c >= '0' && c <= '9')) {
        size_t b = i;
        if (s[i] == '-')
          ++i;
        auto digits = [&] {
          size_t d = i;
          while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
          return i > d;
        };
        if (!digits())
          fail("malformed JSON number");
        if (i < s.size() && s[i] == '.') {
          ++i;
          if (!digits())
            fail("malformed JSON number");
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
          ++i;
          if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
          if (!digits())
            fail("malformed JSON number");
        }
        v.kind_ = kind::number;
        v.text_ = std::string(s.substr(b, i - b));
        return v;
      }
      fail(std::string("unexpected character '") + c + "' in JSON");
    }
    std::string string_body() {
      ++i; // opening quote
      std::string out;
      while (true) {
        if (i >= s.size())
          fail("unterminated JSON string");
        char c = s[i++];
        if (c == '"')
          return out;
        if (c != '\\') {
          out += c;
          continue;
        }
        if (i >= s.size())
          fail("unterminated JSON string");
        char e = s[i++];
        switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (i + 4 > s.size())
            fail("malformed \\u escape in JSON string");
          unsigned cp = 0;
          auto r = std::from_chars(s.data() + i, s.data() + i + 4, cp, 16);
          if (r.ptr != s.data() + i + 4)
            fail("malformed \\u escape in JSON string");
          i += 4;
          // UTF-8; surrogate pairs are not combined (tuning files are ASCII).
          if (cp < 0x80) {
            out += char(cp);
          } else if (cp < 0x800) {
            out += char(0xC0 | cp >> 6);
            out += char(0x80 | (cp & 0x3F));
          } else {
            out += char(0xE0 | cp >> 12);
            out += char(0x80 | (cp >> 6 & 0x3F));
            out += char(0x80 | (cp & 0x3F));
          }
          break;
        }
        default:
          fail(std::string("unknown escape '\\") + e + "' in JSON string");
        }
      }
    }
  };

  kind kind_ = kind::null;
  bool bool_ = false;
  std::string text_; // string contents, or a number's digits
  std::vector<json> elements_;
  std::vector<std::pair<std::string, json>> members_;
  std::string where_;
};

/// Reads and parses a JSON data file (relative to the input file); it
/// becomes a dependency of the generated file.
inline json load_json(std::string_view path) {
  return json::parse(read_file(path), path);
}

/// One entry of a tuning file as tuned_params() reads it.
struct tuning_entry {
  /// The entry's architecture as nvvm_arch_t names it ("sm_90", "sm_90a").
  std::string target;
  /// Its number (90 for sm_90 and sm_90a).
  int arch = 0;
  /// The problem size it was tuned at; empty for an entry of every size.
  std::vector<long long> size;
  /// Its name in the file ("sm_90@1048576").
  std::string key;
  json params;
};

namespace detail {

/// Splits a tuning file's entry key: "sm_90" is the architecture's entry
/// for every size, "sm_90@1048576" and "sm_90@4096x4096" its entries tuned
/// at those problem sizes (docs/tune.md). False for a key that is not one.
inline bool parse_entry_key(const std::string &key, tuning_entry &out) {
  size_t at = key.find('@');
  out.target = key.substr(0, at);
  out.key = key;
  out.size.clear();
  if (out.target.rfind("sm_", 0) != 0)
    return false;
  const char *b = out.target.data() + 3,
             *e = out.target.data() + out.target.size();
  auto r = std::from_chars(b, e, out.arch);
  if (r.ec != std::errc() || r.ptr == b ||
      (r.ptr != e && std::string_view(r.ptr, e - r.ptr) != "a"))
    return false;
  if (at == std::string::npos)
    return true;
  const char *p = key.data() + at + 1, *end = key.data() + key.size();
  for (;;) {
    long long n = 0;
    auto d = std::from_chars(p, end, n);
    if (d.ec != std::errc() || d.ptr == p || n < 1)
      return false;
    out.size.push_back(n);
    p = d.ptr;
    if (p == end)
      return true;
    if (*p++ != 'x')
      return false;
  }
}

inline std::string size_text(const std::vector<long long> &size) {
  std::string s;
  for (long long n : size)
    s += (s.empty() ? "" : "x") + std::to_string(n);
  return s;
}

/// The entries of \p tuning that serve architecture \p arch: those of
/// exactly \p exact (sm_90a) if it has any, else of the greatest plain
/// sm_N not above \p arch, the fit select() makes (sm_80 code runs on an
/// sm_86 GPU). Of those, the ones tuned per size when there are any (they
/// say more than an entry for every size), else the one for every size.
inline std::vector<tuning_entry> entries_for(const json &tuning, int arch,
                                             std::string_view exact,
                                             std::source_location where) {
  std::vector<tuning_entry> all;
  std::string known;
  for (const auto &[name, entry] : tuning["entries"].items()) {
    known += (known.empty() ? "" : ", ") + name;
    tuning_entry e;
    if (!parse_entry_key(name, e)) {
      if (name.find('@') != std::string::npos)
        throw error(tuning.where() + ": the entry '" + name +
                        "' is no architecture and problem size "
                        "(sm_90@1048576, sm_90@4096x4096)",
                    where);
      continue;
    }
    e.params = entry["params"];
    all.push_back(std::move(e));
  }
  std::string target;
  if (!exact.empty())
    for (const tuning_entry &e : all)
      if (e.target == exact)
        target = e.target;
  if (target.empty()) {
    int fit = 0;
    for (const tuning_entry &e : all)
      if (e.target == "sm_" + std::to_string(e.arch) && e.arch <= arch &&
          e.arch >= fit) {
        fit = e.arch;
        target = e.target;
      }
  }
  if (target.empty())
    throw error(tuning.where() + ": no tuning entry fits " +
                    (exact.empty() ? "sm_" + std::to_string(arch)
                                   : std::string(exact)) +
                    (known.empty() ? "; the file has none"
                                   : "; the file has " + known) +
                    " (metacu tune --arch " + std::to_string(arch) +
                    " --tuning-file FILE writes one)",
                where);
  std::vector<tuning_entry> sized, plain;
  for (tuning_entry &e : all)
    if (e.target == target)
      (e.size.empty() ? plain : sized).push_back(std::move(e));
  std::stable_sort(sized.begin(), sized.end(),
                   [](const tuning_entry &a, const tuning_entry &b) {
                     return a.size < b.size;
                   });
  return sized.empty() ? plain : sized;
}

inline const json &tuned_params(const json &tuning, int arch,
                                std::string_view exact,
                                const std::vector<long long> *problem,
                                std::source_location where) {
  std::vector<tuning_entry> fit = entries_for(tuning, arch, exact, where);
  size_t pick = 0;
  if (!fit.front().size.empty()) {
    std::string sizes;
    for (const tuning_entry &e : fit)
      sizes += (sizes.empty() ? "" : ", ") + size_text(e.size);
    if (!problem)
      throw error(tuning.where() + ": the " + fit.front().target +
                      " entries are per problem size (" + sizes +
                      "); say which: metacu::tuned_params(tuning, arch, "
                      "size)",
                  where);
    std::vector<std::vector<long long>> tuned;
    for (const tuning_entry &e : fit)
      tuned.push_back(e.size);
    if (tuned.size() > 1 && tuned.front().size() != problem->size())
      throw error(tuning.where() + ": a problem size of " +
                      std::to_string(problem->size()) + " dimensions; the " +
                      fit.front().target + " entries are tuned at " + sizes,
                  where);
    pick = nearest_size(tuned, *problem);
  }
  // A reference into the file's own tree, which outlives the call.
  return tuning["entries"][fit[pick].key]["params"];
}

} // namespace detail

/// The parameters `metacu tune` recorded for an architecture in a tuning
/// file (docs/tune.md): tuning["entries"]["sm_N"]["params"] for the
/// greatest N not above \p arch, the fit select() makes. Given an
/// nvvm_arch_t, an entry for exactly that target (sm_90a) comes first.
///   @meta const metacu::json &p = metacu::tuned_params(tuning, arch);
///   @meta int threads = p["block_size_x"].get<int>();
/// An architecture tuned per problem size (entries "sm_90@N") needs the
/// size: tuned_params(tuning, arch, size).
template <class Arch>
const json &
tuned_params(const json &tuning, Arch arch,
             std::source_location where = std::source_location::current()) {
  if constexpr (std::is_enum_v<Arch>)
    return detail::tuned_params(tuning, static_cast<int>(arch), enum_name(arch),
                                nullptr, where);
  else
    return detail::tuned_params(tuning, arch, {}, nullptr, where);
}

/// The parameters of the architecture's entry tuned at the size nearest
/// \p size (metacu::nearest_size, the rule the program's
/// metacu::select(table, arch, size) applies at run time); an architecture
/// whose entry serves every size gives that one.
///   @meta for (const auto &n : metacu::tuned_sizes(tuning)) ...
///     @meta const metacu::json &p = metacu::tuned_params(tuning, arch, n);
template <class Arch>
const json &
tuned_params(const json &tuning, Arch arch, const std::vector<long long> &size,
             std::source_location where = std::source_location::current()) {
  if constexpr (std::is_enum_v<Arch>)
    return detail::tuned_params(tuning, static_cast<int>(arch), enum_name(arch),
                                &size, where);
  else
    return detail::tuned_params(tuning, arch, {}, &size, where);
}

/// Every problem size a tuning file has an entry for, of any architecture,
/// ascending and each once: the sizes to generate a kernel for.
inline std::vector<std::vector<long long>>
tuned_sizes(const json &tuning,
            std::source_location where = std::source_location::current()) {
  std::vector<std::vector<long long>> out;
  for (const auto &[name, entry] : tuning["entries"].items()) {
    tuning_entry e;
    if (!detail::parse_entry_key(name, e) &&
        name.find('@') != std::string::npos)
      throw error(tuning.where() + ": the entry '" + name +
                      "' is no architecture and problem size "
                      "(sm_90@1048576, sm_90@4096x4096)",
                  where);
    if (!e.size.empty() &&
        std::find(out.begin(), out.end(), e.size) == out.end())
      out.push_back(e.size);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The entries the program chooses from at run time, by architecture
/// number: for each plain architecture of the file (sm_90, not sm_90a,
/// whose image loaded_arch() cannot tell from sm_90's), its entries per
/// problem size, ascending, or its one entry for every size (whose size is
/// empty). What the host's table for metacu::select(table, arch, size) is
/// generated from (samples/matmul_sizes): for each architecture,
/// `{arch, {{{size}, value}, ...}}` with one value per entry.
inline std::map<int, std::vector<tuning_entry>>
tuning_entries(const json &tuning,
               std::source_location where = std::source_location::current()) {
  std::map<int, std::vector<tuning_entry>> out;
  for (const auto &[name, entry] : tuning["entries"].items()) {
    tuning_entry e;
    if (detail::parse_entry_key(name, e) &&
        e.target == "sm_" + std::to_string(e.arch) && !out.count(e.arch))
      out[e.arch] = detail::entries_for(tuning, e.arch, e.target, where);
  }
  return out;
}

//===--- Tuning spaces (metacu tune, docs/tune.md) ------------------------===//

/// Which way a tuning metric is better.
enum class tune_direction { minimize, maximize };

/// How the harness launches one configuration: threads per block and
/// blocks per grid, x first (missing dimensions are 1). `metacu report`'s
/// model needs it to predict a candidate's time (--strategy model).
struct tune_launch {
  std::vector<long long> block;
  std::vector<long long> grid;
};

/// The search space of a kernel, declared next to it as a namespace-scope
/// @meta variable and handed to tune_candidates(), which is where
/// `metacu tune` finds it:
///   @meta metacu::tune_space space = metacu::tune_space("conv")
///       .param("block_size_x", {16, 32, 64})
///       .flag("read_only")
///       .require([](const metacu::json &p) { ... })
///       .problem_size({4096, 4096})
///       .metric("GFLOP/s", flop / 1e9, metacu::tune_direction::maximize)
///       .tolerance(1e-4);
/// Parameter values are integers (a flag is false, true); restrictions are
/// C++ predicates over a configuration as the kernel reads it (the params
/// object of a tuning-file entry), evaluated here, at generation time, so a
/// restricted configuration is never compiled.
class tune_space {
public:
  explicit tune_space(std::string kernel, std::source_location where =
                                              std::source_location::current())
      : kernel_(std::move(kernel)), where_(where) {}

  tune_space &param(std::string name, std::vector<long long> values) {
    if (values.empty())
      throw error("tune_space '" + kernel_ + "': parameter '" + name +
                      "' has no values",
                  where_);
    return add({std::move(name), std::move(values), false});
  }
  /// A parameter that is false or true.
  tune_space &flag(std::string name) {
    return add({std::move(name), {0, 1}, true});
  }
  /// Only configurations for which \p pred is true are candidates.
  tune_space &require(std::function<bool(const json &)> pred) {
    restrictions_.push_back(std::move(pred));
    return *this;
  }
  /// Handed to the tuning harness's problem (metacu/tune.h) as is.
  tune_space &problem_size(std::vector<long long> size) {
    problem_size_ = std::move(size);
    return *this;
  }
  /// The problem sizes to tune for, each handed to the harness's problem
  /// as problem_size() is: every candidate is timed at every size, and the
  /// tuning file gets an entry per architecture and size (docs/tune.md).
  /// Each size has the same number of dimensions, each at least 1.
  tune_space &sizes(std::vector<std::vector<long long>> sizes) {
    if (sizes.empty())
      throw error("tune_space '" + kernel_ + "': sizes() lists no size",
                  where_);
    for (size_t i = 0; i < sizes.size(); ++i) {
      const std::vector<long long> &s = sizes[i];
      if (s.empty() || s.size() != sizes[0].size())
        throw error("tune_space '" + kernel_ + "': size " +
                        std::to_string(i + 1) + " has " +
                        std::to_string(s.size()) + " dimensions, size 1 " +
                        std::to_string(sizes[0].size()) +
                        (s.empty() ? " (a size has at least one)" : ""),
                    where_);
      for (long long n : s)
        if (n < 1)
          throw error("tune_space '" + kernel_ + "': size " +
                          std::to_string(i + 1) + " has a dimension of " +
                          std::to_string(n) + "; each is at least 1",
                      where_);
      for (size_t j = 0; j < i; ++j)
        if (sizes[j] == s)
          throw error("tune_space '" + kernel_ + "': size " +
                          detail::size_text(s) + " is listed twice",
                      where_);
    }
    sizes_ = std::move(sizes);
    return *this;
  }
  /// The objective: a rate \p work / seconds of one run (work in the
  /// metric's unit times seconds: GFLOP for "GFLOP/s"), or, by default,
  /// "time" in milliseconds, minimised.
  tune_space &metric(std::string name, double work, tune_direction direction) {
    metric_ = std::move(name);
    work_ = work;
    work_of_ = nullptr;
    direction_ = direction;
    return *this;
  }
  /// The same with the work of one run a function of the problem size, as
  /// a space of several sizes() needs for a rate.
  tune_space &metric(std::string name,
                     std::function<double(const std::vector<long long> &)> work,
                     tune_direction direction) {
    metric_ = std::move(name);
    work_of_ = std::move(work);
    direction_ = direction;
    return *this;
  }
  /// How a configuration is launched, for the model's predictions: a C++
  /// function of the configuration, evaluated here for every valid one.
  tune_space &launch(std::function<tune_launch(const json &)> f) {
    launch_ = std::move(f);
    return *this;
  }
  /// Configurations of more threads a block than \p n are not candidates
  /// (by default 1024, what every CUDA GPU allows; 0: no limit). A block is
  /// what launch() says, or else the product of the parameters
  /// block_size_x, block_size_y and block_size_z, Kernel Tuner's names, as
  /// Kernel Tuner restricts them without being asked.
  tune_space &max_threads_per_block(long long n) {
    max_threads_ = n;
    return *this;
  }
  /// The largest error against the reference a correct result may have.
  tune_space &tolerance(double t) {
    tolerance_ = t;
    return *this;
  }

  const std::string &kernel() const { return kernel_; }

  /// Whether \p config (a JSON object of every parameter) passes every
  /// restriction.
  bool allows(const json &config) const {
    for (const auto &r : restrictions_)
      if (!r(config))
        return false;
    return true;
  }

  /// The configuration at \p index of the product (last parameter fastest),
  /// as JSON text and parsed.
  std::string config_text(unsigned long long index) const {
    std::vector<size_t> digit(params_.size());
    for (size_t p = params_.size(); p-- > 0;) {
      digit[p] = index % params_[p].values.size();
      index /= params_[p].values.size();
    }
    std::string s = "{";
    for (size_t p = 0; p < params_.size(); ++p) {
      long long v = params_[p].values[digit[p]];
      s += (p ? ", \"" : "\"") + params_[p].name + "\": " +
           (params_[p].flag ? (v ? "true" : "false") : std::to_string(v));
    }
    return s + "}";
  }
  unsigned long long product_size() const {
    unsigned long long n = 1;
    for (const auto &p : params_)
      n *= p.values.size();
    return n;
  }

  /// The space as `metacu tune` reads it: parameters, the valid
  /// configurations' product indices, problem size, metric, tolerance.
  std::string describe() const {
    if (params_.empty())
      throw error("tune_space '" + kernel_ + "' has no parameters", where_);
    if (product_size() > 10'000'000ull)
      throw error("tune_space '" + kernel_ +
                      "' has more than 10 million configurations",
                  where_);
    std::string s = "{\"kernel\": \"" + kernel_ + "\", \"where\": \"" +
                    where_.file_name() + ":" + std::to_string(where_.line()) +
                    "\", \"params\": [";
    for (size_t p = 0; p < params_.size(); ++p) {
      s += (p ? ", {\"name\": \"" : "{\"name\": \"") + params_[p].name +
           "\", \"values\": [";
      for (size_t v = 0; v < params_[p].values.size(); ++v) {
        long long x = params_[p].values[v];
        s += (v ? ", " : "") + (params_[p].flag
                                    ? std::string(x ? "true" : "false")
                                    : std::to_string(x));
      }
      s += "]}";
    }
    s += "], \"valid\": [";
    bool first = true;
    std::string launches;
    unsigned long long too_large = 0;
    for (unsigned long long i = 0, n = product_size(); i < n; ++i) {
      json config = json::parse(config_text(i), kernel_);
      if (!allows(config))
        continue;
      std::optional<tune_launch> how;
      if (launch_)
        how = launch_(config);
      if (max_threads_ > 0 && threads_per_block(config, how) > max_threads_) {
        ++too_large;
        continue;
      }
      s += (first ? "" : ",") + std::to_string(i);
      if (how)
        launches += (first ? "[" : ",[") + launch_text(*how) + "]";
      first = false;
    }
    if (first)
      throw error("tune_space '" + kernel_ + "': every configuration " +
                      (too_large ? "breaks a restriction or has more than " +
                                       std::to_string(max_threads_) +
                                       " threads a block "
                                       "(tune_space::max_threads_per_block)"
                                 : std::string("breaks a restriction")),
                  where_);
    if (launch_)
      s += "], \"launches\": [" + launches;
    // A space of several sizes is measured at each; the first is the
    // problem a single measurement (the model's launches) stands for.
    const std::vector<long long> &size =
        sizes_.empty() ? problem_size_ : sizes_.front();
    if (sizes_.size() > 1 && metric_ != "time" && !work_of_)
      throw error("tune_space '" + kernel_ + "': the metric '" + metric_ +
                      "' of a space of several sizes needs the work of each: "
                      ".metric(name, [](const std::vector<long long> &size) "
                      "{ ... }, direction)",
                  where_);
    auto number = [](double v) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      return std::string(buf);
    };
    auto work_at = [&](const std::vector<long long> &at) {
      return work_of_ ? work_of_(at) : work_;
    };
    if (!sizes_.empty()) {
      s += "], \"sizes\": [";
      for (size_t i = 0; i < sizes_.size(); ++i) {
        s += i ? ", [" : "[";
        for (size_t k = 0; k < sizes_[i].size(); ++k)
          s += (k ? ", " : "") + std::to_string(sizes_[i][k]);
        s += "]";
      }
      s += "], \"size_work\": [";
      for (size_t i = 0; i < sizes_.size(); ++i)
        s += (i ? ", " : "") + number(work_at(sizes_[i]));
    }
    s += "], \"problem_size\": [";
    for (size_t i = 0; i < size.size(); ++i)
      s += (i ? ", " : "") + std::to_string(size[i]);
    std::string work = number(work_at(size));
    char tol[64];
    std::snprintf(tol, sizeof tol, "%.17g", tolerance_);
    s += "], \"metric\": \"" + metric_ + "\", \"work\": " + work +
         ", \"direction\": \"" +
         (direction_ == tune_direction::maximize ? "max" : "min") +
         "\", \"tolerance\": " + tol +
         ", \"max_threads_per_block\": " + std::to_string(max_threads_) +
         ", \"over_max_threads\": " + std::to_string(too_large) + "}";
    return s;
  }

private:
  struct parameter {
    std::string name;
    std::vector<long long> values;
    bool flag;
  };
  /// The threads of a block of \p config: \p how's, or the product of
  /// Kernel Tuner's block_size_x/y/z parameters (1 without them).
  long long threads_per_block(const json &config,
                              const std::optional<tune_launch> &how) const {
    long long n = 1;
    if (how) {
      for (long long d : how->block)
        n = d > 0 && n > LLONG_MAX / d ? LLONG_MAX : n * d;
      return n;
    }
    for (const char *name : {"block_size_x", "block_size_y", "block_size_z"})
      for (const parameter &p : params_)
        if (p.name == name && !p.flag)
          n *= config[name].as_int();
    return n;
  }
  tune_space &add(parameter p) {
    for (const parameter &q : params_)
      if (q.name == p.name)
        throw error("tune_space '" + kernel_ + "': parameter '" + p.name +
                        "' is declared twice",
                    where_);
    params_.push_back(std::move(p));
    return *this;
  }
  /// "bx,by,bz,gx,gy,gz", every dimension at least 1.
  std::string launch_text(const tune_launch &l) const {
    if (l.block.empty() || l.block.size() > 3 || l.grid.size() > 3)
      throw error("tune_space '" + kernel_ +
                      "': a launch has 1 to 3 block and up to 3 grid "
                      "dimensions",
                  where_);
    std::string s;
    for (const std::vector<long long> *dims : {&l.block, &l.grid})
      for (size_t d = 0; d < 3; ++d) {
        long long n = d < dims->size() ? (*dims)[d] : 1;
        if (n < 1)
          throw error("tune_space '" + kernel_ +
                          "': a launch's dimensions are at least 1",
                      where_);
        s += (s.empty() ? "" : ",") + std::to_string(n);
      }
    return s;
  }
  std::string kernel_;
  std::source_location where_;
  std::vector<parameter> params_;
  std::vector<std::function<bool(const json &)>> restrictions_;
  std::function<tune_launch(const json &)> launch_;
  std::vector<long long> problem_size_;
  std::vector<std::vector<long long>> sizes_;
  std::string metric_ = "time";
  double work_ = 0;
  std::function<double(const std::vector<long long> &)> work_of_;
  tune_direction direction_ = tune_direction::minimize;
  double tolerance_ = 1e-6;
  long long max_threads_ = 1024;
};

/// One kernel specialization `metacu tune` asks for: emit a kernel named
/// \c name for the configuration \c params.
struct tune_candidate {
  std::string name;
  json params;
};

namespace detail {
/// What `metacu tune` asked of this expansion (the file named by the
/// METACU_TUNE_REQUEST environment variable of the tool): describe the
/// spaces, or generate candidates of one. Empty in an ordinary build.
inline const json &tune_request() {
  static const json request = [] {
    const char *path = std::getenv("METACU_TUNE_REQUEST");
    if (!path || !*path)
      return json();
    std::FILE *f = std::fopen(path, "rb");
    if (!f)
      throw error(std::string("cannot open the tuning request '") + path +
                  "': " + std::strerror(errno));
    std::string s;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
      s.append(buf, n);
    std::fclose(f);
    return json::parse(s, path);
  }();
  return request;
}
} // namespace detail

/// The kernel specializations to emit for \p space: none in an ordinary
/// build; under `metacu tune`, the candidates it is measuring. Meta code
/// emits one kernel per candidate, named by it, and a table the tuning
/// harness launches them from (docs/tune.md).
inline std::vector<tune_candidate>
tune_candidates(const tune_space &space,
                std::source_location where = std::source_location::current()) {
  const json &request = detail::tune_request();
  if (request.is_null())
    return {};
  if (request["mode"].as_string() == "describe") {
    std::string out = request["out"].as_string();
    std::FILE *f = std::fopen(out.c_str(), "ab");
    std::string line = space.describe() + "\n";
    if (!f || std::fwrite(line.data(), 1, line.size(), f) != line.size() ||
        std::fclose(f) != 0)
      throw error("cannot write the tuning space to '" + out + "'", where);
    return {};
  }
  if (request["kernel"].as_string() != space.kernel())
    return {};
  std::vector<tune_candidate> out;
  for (const json &c : request["candidates"].elements()) {
    if (!space.allows(c["params"]))
      throw error("tuning candidate " + c["name"].as_string() +
                      " breaks a restriction of tune_space '" + space.kernel() +
                      "'",
                  where);
    out.push_back({c["name"].as_string(), c["params"]});
  }
  return out;
}

} // namespace metacu

#endif
