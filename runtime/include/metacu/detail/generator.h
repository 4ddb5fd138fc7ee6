// metacu/detail/generator.h - the machinery of metacu's generator programs.
//
// metacu lowers each input file to a C++ program (the "generator") and runs
// it in an embedded Clang interpreter; this header is what that program is
// compiled against. It is not for CUDA code: nvcc never sees it. What meta
// code may use is <metacu/meta.h>, the public API, which this header
// includes first (before its own guard: meta.h declares metacu::error, then
// includes this header for the machinery its definitions use).
//
// The generator talks to the metacu tool through one C struct of callbacks
// that the tool fills in before the program runs; everything the program
// emits goes through it as input byte ranges and generated text.
#include <metacu/meta.h>

#ifndef METACU_DETAIL_GENERATOR_H
#define METACU_DETAIL_GENERATOR_H

#include <metacu/select.h>

// __global__, __device__ and friends, for the declarations the generator
// shares with device code. The guard macro is what <cuda_runtime.h> sets
// around this internal header.
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#include <crt/host_defines.h>
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__

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
  /// \p empty_body: where the chain is the body of an 'if', 'else' or
  /// loop, the statement written for the passes that take no branch.
  explicit codegen_chain(unsigned at, const char *empty_body = nullptr)
      : at_(at), empty_body_(empty_body) {}

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
    // A pass that takes no branch would otherwise make the statement after
    // the chain the body of its 'if' or loop: it gets an empty block.
    if (empty_body_ && taken_ != all()) {
      if (guarded_)
        metacu_host.directive(metacu_host.ctx, at_, METACU_DIRECTIVE_ELSE,
                              all() & ~taken_);
      code(at_, empty_body_);
    }
    if (guarded_)
      metacu_host.directive(metacu_host.ctx, at_, METACU_DIRECTIVE_ENDIF, 0);
  }

private:
  uint64_t all() const {
    return metacu_host.npasses >= 64 ? ~uint64_t(0)
                                     : (uint64_t(1) << metacu_host.npasses) - 1;
  }
  unsigned at_;
  const char *empty_body_;
  uint64_t taken_ = 0;
  std::vector<uint64_t> masks_;
  bool guarded_ = false;
};

} // namespace detail

} // namespace metacu

#endif
