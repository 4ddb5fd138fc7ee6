// metacu/meta.h - the API of meta code (docs/tune.md, README.md).
//
// What `@meta` code may call: every generator program metacu runs has it,
// with no #include (CUDA code never includes it: nvcc never sees meta
// code). The rest of the generator's library, how it talks to metacu, is
// <metacu/detail/generator.h>.
//
//  - fail(msg), error: stop generation with an error at the caller's line.
//  - enum_values<E>(), enum_count<E>(), enum_name(e): reflection of the
//    enumerations the input file declares (nvvm_arch_t among them).
//  - read_file(path), load_json(path), json: data files next to the input
//    file, recorded as dependencies of the generated file.
//  - tuned_params(tuning, arch): the entry `metacu tune` recorded for an
//    architecture in a tuning file; tuned_params(tuning, arch, size) the
//    one tuned nearest a problem size, tuned_sizes(tuning) the sizes tuned
//    at and tuning_entries(tuning) every architecture's entries
//    (tuning_entry), for a file tuned per problem size.
//  - tune_space, tune_launch, tune_direction, tune_candidate,
//    tune_candidates(space): the space `metacu tune` searches, declared next
//    to the kernel (tune_space::sizes: the problem sizes to tune at), and
//    the candidates it asks for.
//  - select(table, arch), select(table, arch, size) and nearest_size
//    (<metacu/select.h>): the entry of a table keyed by architecture (and
//    problem size) that serves arch (and size).
#ifndef METACU_META_H
#define METACU_META_H

#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// The architectures of the build, nvvm_arch_t::sm_N = N: every generator
/// program defines it after this header, which names it.
enum class nvvm_arch_t;

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

} // namespace metacu

// The generator's machinery, which reports metacu::error and which the
// definitions below use.
#include <metacu/detail/generator.h>

namespace metacu {

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
    // Reads the entries of the object or array whose opening bracket is
    // at i, each with \p entry, up to \p close.
    template <class F> void entries(char close, const char *what, F entry) {
      ++i;
      skip_ws();
      if (i < s.size() && s[i] == close) {
        ++i;
        return;
      }
      while (true) {
        skip_ws();
        entry();
        skip_ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == close) {
          ++i;
          return;
        }
        fail(std::string("expected ',' or '") + close + "' in JSON " + what);
      }
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
        entries('}', "object", [&] {
          if (i >= s.size() || s[i] != '"')
            fail("expected a string as JSON object key");
          std::string key = string_body();
          skip_ws();
          if (i >= s.size() || s[i] != ':')
            fail("expected ':' after JSON object key");
          ++i;
          skip_ws();
          v.members_.emplace_back(std::move(key), value(depth + 1));
        });
        return v;
      }
      if (c == '[') {
        v.kind_ = kind::array;
        entries(']', "array",
                [&] { v.elements_.push_back(value(depth + 1)); });
        return v;
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

/// The entries of \p tuning, each with its key split (parse_entry_key);
/// a key with a size that does not parse is an error.
inline std::vector<tuning_entry> parsed_entries(const json &tuning,
                                                std::source_location where) {
  std::vector<tuning_entry> all;
  for (const auto &[name, entry] : tuning["entries"].items()) {
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
  return all;
}

/// The target of \p all whose entries serve architecture \p arch: exactly
/// \p exact (sm_90a) if it has any, else the greatest plain sm_N not above
/// \p arch, the fit select() makes (sm_80 code runs on an sm_86 GPU).
/// Empty when none does.
inline std::string fitting_target(const std::vector<tuning_entry> &all,
                                  int arch, std::string_view exact) {
  if (!exact.empty())
    for (const tuning_entry &e : all)
      if (e.target == exact)
        return e.target;
  std::string target;
  int fit = 0;
  for (const tuning_entry &e : all)
    if (e.target == "sm_" + std::to_string(e.arch) && e.arch <= arch &&
        e.arch >= fit) {
      fit = e.arch;
      target = e.target;
    }
  return target;
}

/// The entries of \p tuning that serve architecture \p arch (those of
/// fitting_target()): the ones tuned per size when there are any (they
/// say more than an entry for every size), else the one for every size.
inline std::vector<tuning_entry> entries_for(const json &tuning, int arch,
                                             std::string_view exact,
                                             std::source_location where) {
  std::vector<tuning_entry> all = parsed_entries(tuning, where);
  std::string target = fitting_target(all, arch, exact);
  if (target.empty()) {
    std::string known;
    for (const auto &[name, entry] : tuning["entries"].items())
      known += (known.empty() ? "" : ", ") + name;
    throw error(tuning.where() + ": no tuning entry fits " +
                    (exact.empty() ? "sm_" + std::to_string(arch)
                                   : std::string(exact)) +
                    (known.empty() ? "; the file has none"
                                   : "; the file has " + known) +
                    " (metacu tune --arch " + std::to_string(arch) +
                    " --tuning-file FILE writes one)",
                where);
  }
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

/// The sizes to generate one kernel each for: tuned_sizes(tuning), or the
/// one size {1} when every entry serves every size (a file tuned without
/// sizes, or none yet), so that a file generating its kernels per size
/// still builds one; tuned_params at {1} gives each architecture's entry
/// as at any other size.
inline std::vector<std::vector<long long>>
kernel_sizes(const json &tuning,
             std::source_location where = std::source_location::current()) {
  std::vector<std::vector<long long>> sizes = tuned_sizes(tuning, where);
  if (sizes.empty())
    sizes.push_back({1});
  return sizes;
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
  /// The parameters' names, in declaration order.
  std::vector<std::string> parameter_names() const {
    std::vector<std::string> names;
    for (const parameter &p : params_)
      names.push_back(p.name);
    return names;
  }

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
  /// configurations' product indices, problem size, metric, tolerance;
  /// each valid configuration, in that order, appended to \p valid when
  /// given.
  std::string describe(std::vector<json> *valid = nullptr) const {
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
      if (valid)
        valid->push_back(config);
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

namespace detail {
/// tune_candidates(), for tuned_kernels when \p table: the space's
/// description says so, since a file whose every space is read through
/// tuned_kernels gets, from its describe expansion, a tuning harness that
/// does not depend on the candidates (the table filled at run time).
inline std::vector<tune_candidate>
tune_candidates_of(const tune_space &space, std::source_location where,
                   bool table);
} // namespace detail

/// The kernel specializations to emit for \p space: none in an ordinary
/// build; under `metacu tune`, the candidates it is measuring. Meta code
/// emits one kernel per candidate, named by it, and a table the tuning
/// harness launches them from (docs/tune.md).
inline std::vector<tune_candidate>
tune_candidates(const tune_space &space,
                std::source_location where = std::source_location::current()) {
  return detail::tune_candidates_of(space, where, false);
}

inline std::vector<tune_candidate>
detail::tune_candidates_of(const tune_space &space, std::source_location where,
                           bool table) {
  const json &request = detail::tune_request();
  if (request.is_null())
    return {};
  if (request["mode"].as_string() == "describe") {
    std::string out = request["out"].as_string();
    std::vector<json> valid;
    std::string line = space.describe(&valid);
    // A live run's describe expansion is also its candidates' when the
    // space is small enough to be expanded whole ("whole": the most
    // configurations that is): every valid configuration, named as metacu
    // names them (<kernel><the request's "infix"><its index among the valid
    // ones>), so that one interpreter run serves both.
    bool whole = request.contains("whole") &&
                 valid.size() <= (size_t)request["whole"].get<long long>() &&
                 (!request.contains("kernel") ||
                  request["kernel"].as_string() == space.kernel());
    line.insert(line.size() - 1, std::string(table ? ", \"table\": true" : "") +
                                     (whole ? ", \"whole\": true" : ""));
    line += "\n";
    std::FILE *f = std::fopen(out.c_str(), "ab");
    if (!f || std::fwrite(line.data(), 1, line.size(), f) != line.size() ||
        std::fclose(f) != 0)
      throw error("cannot write the tuning space to '" + out + "'", where);
    std::vector<tune_candidate> all;
    for (size_t k = 0; whole && k < valid.size(); ++k)
      all.push_back(
          {space.kernel() + request["infix"].as_string() + std::to_string(k),
           std::move(valid[k])});
    return all;
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

/// A configuration as meta code reads one (a JSON object, parameter name
/// to value), from integers (a flag is 0 or 1):
///   metacu::params({{"block_size_x", 32}, {"block_size_y", 8}})
inline json
params(std::initializer_list<std::pair<std::string_view, long long>> values,
       std::source_location where = std::source_location::current()) {
  std::string text = "{";
  for (const auto &[name, value] : values) {
    if (text.size() > 1)
      text += ", ";
    detail::spell_string(text, name);
    text += ": " + std::to_string(value);
  }
  try {
    return json::parse(text + "}", "metacu::params");
  } catch (const error &e) {
    throw error(e.what(), where);
  }
}

/// One kernel of a tuned space as its file emits it (tuned_kernels).
struct tuned_kernel {
  /// The kernel's name: the space's in an ordinary build, the candidate's
  /// under `metacu tune`.
  std::string name;
  /// The candidate's parameters under `metacu tune`; null otherwise.
  json candidate;
  /// The tuning file (null when it does not exist) and the defaults.
  std::shared_ptr<const json> tuning;
  std::shared_ptr<const json> defaults;

  /// The parameters the kernel's code for \p arch is generated with: the
  /// candidate's, else the tuning file's entry that serves \p arch (the one
  /// of exactly that target, else the greatest plain sm_N not above it, as
  /// tuned_params() and select() pick), else the defaults. An architecture
  /// tuned per problem size is an error here (one kernel cannot be each
  /// size's): such a file's kernels are emitted per size with
  /// tuned_params(tuning, arch, size) (docs/tune.md).
  template <class Arch>
  const json &
  params(Arch arch,
         std::source_location where = std::source_location::current()) const {
    if (!candidate.is_null())
      return candidate;
    if (tuning) {
      std::string exact;
      if constexpr (std::is_enum_v<Arch>)
        exact = enum_name(arch);
      if (!detail::fitting_target(detail::parsed_entries(*tuning, where),
                                  static_cast<int>(arch), exact)
               .empty())
        return tuned_params(*tuning, arch, where);
    }
    return *defaults;
  }
};

/// The kernels of a tuned space, the one call a kernel's file makes
/// (docs/tune.md, "One call"): under `metacu tune`, one per candidate of
/// the batch, named by it; otherwise one, named as the space, whose
/// parameters for each architecture are the tuning file's entry for it or
/// \p defaults. Emit each with its body generated per architecture from
/// params(arch), and give the host the table it launches them from,
/// host_table() (metacu/tuned.h):
///   @meta metacu::tuned_kernels matmul(space, "matmul.tuning.json",
///                                      metacu::params({...}));
///   @meta for (const metacu::tuned_kernel &k : matmul) {
///   __global__ void @(k.name)(...) {
///     @meta for enum (auto arch : nvvm_arch_t) {
///       if codegen (__nvvm_arch == arch) {
///         @meta const metacu::json &p = k.params(arch);
///         ...
///   const metacu::tuned_table<void(...)> matmul_kernels =
///       @(matmul.host_table());
/// A tuning file that does not exist (no run has written it yet) gives
/// the defaults everywhere; one that exists is a dependency of the
/// generated file. The defaults must give every parameter of the space.
class tuned_kernels {
public:
  tuned_kernels(const tune_space &space, std::string_view tuning_file,
                json defaults,
                std::source_location where = std::source_location::current()) {
    for (const std::string &name : space.parameter_names())
      if (!defaults.contains(name))
        throw error("tuned_kernels: the defaults of tune_space '" +
                        space.kernel() + "' give no value of '" + name + "'",
                    where);
    auto shared_defaults = std::make_shared<const json>(std::move(defaults));
    for (tune_candidate &c : detail::tune_candidates_of(space, where, true))
      kernels_.push_back(
          {std::move(c.name), std::move(c.params), nullptr, shared_defaults});
    // The describe expansion is the tuning harness's source when every
    // space is read here: a table the harness fills with the candidates it
    // is handed (metacu/tuned.h, tune_harness_table), and no kernel, or
    // every candidate's, each guarded for its shard, whose bodies the
    // harness's compile leaves out.
    if (const json &request = detail::tune_request();
        !request.is_null() && request["mode"].as_string() == "describe") {
      harness_ = space.kernel();
      return;
    }
    if (!kernels_.empty())
      return;
    std::shared_ptr<const json> tuning;
    struct stat st;
    if (::stat(detail::resolve(tuning_file).c_str(), &st) == 0)
      tuning = std::make_shared<const json>(load_json(tuning_file));
    kernels_.push_back({space.kernel(), json(), tuning, shared_defaults});
  }

  std::vector<tuned_kernel>::const_iterator begin() const {
    return kernels_.begin();
  }
  std::vector<tuned_kernel>::const_iterator end() const {
    return kernels_.end();
  }
  size_t size() const { return kernels_.size(); }

  /// The host's table of the kernels, an initializer of
  /// metacu::tuned_table<F> (metacu/tuned.h): each kernel with its
  /// parameters by architecture, the build's (a candidate's serve every
  /// architecture, key 0).
  template <class Arch = nvvm_arch_t>
  std::string host_table(
      std::source_location where = std::source_location::current()) const {
    if (!harness_.empty()) {
      std::string s = "metacu::tune_harness_table{";
      detail::spell_string(s, harness_);
      return s + "}";
    }
    std::string s = "{";
    for (const tuned_kernel &k : kernels_) {
      s += (s.size() > 1 ? ", {" : "{") + k.name + ", {";
      if (!k.candidate.is_null()) {
        s += "{0, " + config_text(k.candidate) + "}";
      } else {
        bool first = true;
        for (Arch arch : enum_values<Arch>()) {
          s += std::string(first ? "" : ", ") + "{" +
               std::to_string(static_cast<int>(arch)) + ", " +
               config_text(k.params(arch, where)) + "}";
          first = false;
        }
      }
      s += "}}";
    }
    return s + "}";
  }

private:
  /// {{"name", value}, ...}: a flag as 0 or 1.
  static std::string config_text(const json &params) {
    std::string s = "{";
    for (const auto &[name, value] : params.items()) {
      s += s.size() > 1 ? ", {" : "{";
      detail::spell_string(s, name);
      s += ", " +
           std::to_string(value.is_bool() ? (long long)value.as_bool()
                                          : value.get<long long>()) +
           "LL}";
    }
    return s + "}";
  }
  std::vector<tuned_kernel> kernels_;
  /// The space's name in the describe expansion (no kernels, the table
  /// the harness's); empty otherwise.
  std::string harness_;
};

} // namespace metacu

#endif
