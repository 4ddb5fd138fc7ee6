//===- HtmlReport.cpp - A tuning run as one self-contained HTML page ------===//
#include "HtmlReport.h"
#include "Summary.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace metacu::tune;

namespace {

/// Text and attribute values: the five characters XML reserves, and the
/// control characters XML has no place for (a Kernel Tuner cache's device
/// name, a compiler's colour codes in a reason), each U+FFFD.
std::string escape(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      if (llvm::isPrint(C) || C == '\t' || C == '\n' || C == '\r' ||
          static_cast<unsigned char>(C) >= 0x80)
        Out += C;
      else
        Out += "\xEF\xBF\xBD";
    }
  return Out;
}

/// A tick label: a round number without trailing zeros.
std::string tickLabel(double V) {
  char Buf[32];
  if (std::fabs(V) >= 1e5 || (V != 0 && std::fabs(V) < 1e-4))
    std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  else {
    std::snprintf(Buf, sizeof(Buf), "%.6f", V);
    llvm::StringRef S(Buf);
    S = S.rtrim('0').rtrim('.');
    return S.str();
  }
  return Buf;
}

/// Maps data values to pixels, linearly or on a log scale.
struct Scale {
  double Lo = 0, Hi = 1;
  bool Log = false;
  /// The pixels Lo and Hi map to (Lo may map to the larger one: y grows
  /// downwards).
  double From = 0, To = 1;

  /// A domain that covers \p Values with a margin; log when they span more
  /// than a factor of 20 (times of a search space often span 100x, and
  /// the interesting part is the bottom).
  static Scale fit(llvm::ArrayRef<double> Values, double From, double To) {
    Scale S;
    S.From = From;
    S.To = To;
    auto [Min, Max] = std::minmax_element(Values.begin(), Values.end());
    double Lo = Values.empty() ? 0 : *Min, Hi = Values.empty() ? 1 : *Max;
    S.Log = Lo > 0 && Hi / Lo > 20;
    if (S.Log) {
      double Pad = std::pow(Hi / Lo, 0.04);
      S.Lo = Lo / Pad;
      S.Hi = Hi * Pad;
    } else {
      double Pad =
          Hi > Lo ? (Hi - Lo) * 0.06 : std::max(std::fabs(Lo) * 0.1, 1.0);
      S.Lo = Lo - Pad;
      S.Hi = Hi + Pad;
      // A quantity that cannot be negative reads wrongly with a negative
      // axis.
      if (Lo >= 0 && S.Lo < 0)
        S.Lo = 0;
    }
    return S;
  }

  double operator()(double V) const {
    double T = Log ? (std::log10(V) - std::log10(Lo)) /
                         (std::log10(Hi) - std::log10(Lo))
                   : (V - Lo) / (Hi - Lo);
    return From + T * (To - From);
  }

  /// Round values inside the domain: 1, 2, 5 times a power of ten.
  std::vector<double> ticks() const {
    std::vector<double> Ticks;
    if (Log) {
      bool Fine = std::log10(Hi / Lo) <= 2.5;
      for (int E = int(std::floor(std::log10(Lo)));
           E <= int(std::ceil(std::log10(Hi))); ++E)
        for (double M : {1.0, 2.0, 5.0}) {
          double V = M * std::pow(10.0, E);
          if ((M == 1 || Fine) && V >= Lo && V <= Hi)
            Ticks.push_back(V);
        }
      if (Ticks.size() >= 2)
        return Ticks;
      Ticks.clear();
    }
    double Rough = (Hi - Lo) / 6;
    double Magnitude = std::pow(10.0, std::floor(std::log10(Rough)));
    double Step = Magnitude;
    for (double M : {1.0, 2.0, 5.0, 10.0})
      if (M * Magnitude >= Rough) {
        Step = M * Magnitude;
        break;
      }
    for (double V = std::ceil(Lo / Step) * Step; V <= Hi + Step * 1e-9;
         V += Step)
      Ticks.push_back(std::fabs(V) < Step * 1e-9 ? 0 : V);
    return Ticks;
  }
};

/// Plot geometry: the SVG's size and the plotting area inside its margins.
struct Frame {
  double Width, Height, Left, Right, Top, Bottom;
  double x0() const { return Left; }
  double x1() const { return Width - Right; }
  double y0() const { return Height - Bottom; }
  double y1() const { return Top; }
};

class Report {
public:
  Report(const RunInfo &Info, const SearchSpace &Space, const TuneResult &Run,
         unsigned Top)
      : Info(Info), Space(Space), Run(Run), Top(Top), M(Info.Objective),
        Ranked(rankValid(Run.Trace, M)) {
    for (size_t I : Ranked)
      Objectives.push_back(Run.Trace[I].M.Objective);
  }

  std::string render();

private:
  void head();
  void metadata();
  void progressPlot();
  void parameterPlots();
  void parameterPlot(unsigned P, const Scale &YTemplate);
  void bestTable();
  void invalidTable();

  void yAxis(const Frame &F, const Scale &Y);
  std::string axisTitle() const;
  std::string point(size_t I) const;

  const RunInfo &Info;
  const SearchSpace &Space;
  const TuneResult &Run;
  unsigned Top;
  const Metric &M;
  std::vector<size_t> Ranked;
  std::vector<double> Objectives;
  std::string Out;
  llvm::raw_string_ostream OS{Out};
};

std::string Report::axisTitle() const {
  std::string Title = M.Name + (M.Unit.empty() ? "" : " (" + M.Unit + ")");
  return Title + (M.Maximize ? ", higher is better" : ", lower is better");
}

/// "evaluation 12: 1.5 ms, x=5 y=3" for a point's hover text.
std::string Report::point(size_t I) const {
  const Evaluation &E = Run.Trace[I];
  std::string What = E.M.valid()
                         ? M.format(E.M.Objective)
                         : t4Name(E.M.Status).str() +
                               (E.M.Reason.empty() ? "" : ": " + E.M.Reason);
  return escape(llvm::formatv("evaluation {0}: {1}, {2}", I + 1, What,
                              Space.describe(E.Config))
                    .str());
}

void Report::yAxis(const Frame &F, const Scale &Y) {
  for (double T : Y.ticks()) {
    double Py = Y(T);
    OS << llvm::formatv("<line class=\"grid\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                        "x2=\"{2:f1}\" y2=\"{1:f1}\"/>\n",
                        F.x0(), Py, F.x1());
    OS << llvm::formatv("<text class=\"tick\" x=\"{0:f1}\" y=\"{1:f1}\" "
                        "text-anchor=\"end\">{2}</text>\n",
                        F.x0() - 6, Py + 4, tickLabel(T));
  }
  OS << llvm::formatv("<line class=\"axis\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                      "x2=\"{0:f1}\" y2=\"{2:f1}\"/>\n",
                      F.x0(), F.y0(), F.y1());
}

void Report::head() {
  std::string Title =
      "metacu tune: " + Info.Kernel + " on " + Info.Where.Device;
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\"/>\n"
     << "<meta name=\"generator\" content=\"metacu " << escape(metacuVersion())
     << "\"/>\n<title>" << escape(Title) << "</title>\n"
     << R"(<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: #1f2328; background: #fff; max-width: 1120px; margin: 0 auto;
  padding: 24px 28px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h1 .on { color: #59636e; font-weight: normal; }
h2 { font-size: 17px; margin: 32px 0 8px; padding-bottom: 4px;
  border-bottom: 1px solid #d1d9e0; }
p.lead { font-size: 16px; margin: 8px 0 0; }
p.lead strong { color: #0b5cad; }
p.note { color: #59636e; margin: 4px 0 8px; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 14px 3px 0; text-align: left; vertical-align: top; }
.wide { overflow-x: auto; }
table.data th { border-bottom: 1px solid #d1d9e0; font-weight: 600;
  white-space: nowrap; }
table.data td { border-bottom: 1px solid #eef1f4; }
table.data td.num, table.data th.num { text-align: right; }
table.data tr.best td { background: #eaf3fc; font-weight: 600; }
table.meta th { color: #59636e; font-weight: normal; padding-right: 20px; }
.grid-plots { display: grid;
  grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 8px 24px; }
figure { margin: 0; }
figcaption { font-weight: 600; margin: 8px 0 0; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #59636e; }
svg text.label { font-size: 12px; fill: #1f2328; }
svg .grid { stroke: #eef1f4; }
svg .axis { stroke: #8c959f; }
svg .eval { fill: #8c959f; fill-opacity: 0.55; }
svg .invalid { stroke: #cf222e; stroke-width: 1.5; }
svg .best { fill: none; stroke: #0b5cad; stroke-width: 2; }
svg .improve { fill: #0b5cad; }
svg .min { fill: #0b5cad; }
svg .trend { fill: none; stroke: #0b5cad; stroke-width: 1.2; stroke-opacity: 0.6; }
svg .median { stroke: #1f2328; stroke-width: 2; }
.legend span { margin-right: 16px; color: #59636e; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 5px;
  border-radius: 50%; vertical-align: -1px; }
footer { margin-top: 40px; color: #59636e; font-size: 12px; }
</style>
</head>
<body>
)";
  OS << "<header>\n<h1>" << escape(Info.Kernel) << " <span class=\"on\">on "
     << escape(Info.Where.Device);
  if (!Info.Where.Arch.empty())
    OS << " (" << escape(Info.Where.Arch) << ")";
  OS << "</span></h1>\n";
  if (Ranked.empty()) {
    OS << "<p class=\"lead\">No valid configuration was found in "
       << Run.Trace.size() << " evaluations.</p>\n</header>\n";
    return;
  }
  const Evaluation &Best = Run.Trace[Ranked.front()];
  OS << "<p class=\"lead\">Best " << escape(M.Name) << " <strong>"
     << escape(M.format(Best.M.Objective)) << "</strong> with <code>"
     << escape(Space.describe(Best.Config)) << "</code>, found at evaluation "
     << Ranked.front() + 1 << " of " << Run.Trace.size()
     << ".</p>\n</header>\n";
}

void Report::metadata() {
  size_t Invalid = Run.Trace.size() - Ranked.size(), Resumed = 0;
  for (const Evaluation &E : Run.Trace)
    Resumed += E.Resumed;
  std::string Budget;
  if (Info.Limit.Evaluations)
    Budget = std::to_string(*Info.Limit.Evaluations) + " evaluations";
  if (Info.Limit.Seconds)
    Budget += (Budget.empty() ? "" : " or ") +
              llvm::formatv("{0} s", *Info.Limit.Seconds).str();
  std::string Evaluations = llvm::formatv(
      "{0} ({1} valid, {2} invalid", Run.Trace.size(), Ranked.size(), Invalid);
  if (Resumed)
    Evaluations += llvm::formatv(", {0} from the journal", Resumed).str();
  Evaluations += ") of " + std::to_string(Space.size()) + " configurations";
  std::pair<llvm::StringRef, std::string> Rows[] = {
      {"kernel", Info.Kernel},
      {"device", Info.Where.Device},
      {"architecture", Info.Where.Arch.empty() ? "not given" : Info.Where.Arch},
      {"driver", Info.Driver},
      {"metric", axisTitle()},
      {"strategy", Run.Strategy},
      {"seed", std::to_string(Run.Seed)},
      {"budget", Budget.empty() ? "none" : Budget},
      {"evaluations", Evaluations},
      {"source", Info.Source},
      {"date", Info.Date},
      {"metacu", metacuVersion().str()},
      {"note", Info.Note},
  };
  OS << "<h2>Run</h2>\n<table class=\"meta\">\n";
  for (const auto &[Label, Text] : Rows)
    if (!Text.empty())
      OS << "<tr><th>" << Label << "</th><td>" << escape(Text)
         << "</td></tr>\n";
  OS << "</table>\n";
}

void Report::progressPlot() {
  OS << "<h2>Best so far</h2>\n";
  if (Ranked.empty()) {
    OS << "<p class=\"note\">Nothing to plot: no valid evaluation.</p>\n";
    return;
  }
  OS << "<p class=\"legend\"><span><i class=\"swatch\" style=\"background:"
        "#0b5cad\"></i>best so far, and where it improved</span><span><i "
        "class=\"swatch\" style=\"background:#8c959f\"></i>each valid "
        "evaluation</span><span><i class=\"swatch\" style=\"background:"
        "#cf222e;border-radius:0;width:2px\"></i>invalid evaluation</span>"
        "</p>\n";
  Frame F{1060, 380, 70, 20, 12, 44};
  size_t N = Run.Trace.size();
  Scale X;
  X.Lo = 1;
  X.Hi = std::max<double>(N, 2);
  X.From = F.x0() + 6;
  X.To = F.x1();
  Scale Y = Scale::fit(Objectives, F.y0(), F.y1());
  OS << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
                      "aria-label=\"best so far against evaluations\">\n",
                      F.Width, F.Height);
  yAxis(F, Y);
  for (double T : X.ticks()) {
    if (T < 1 || T != std::floor(T))
      continue;
    OS << llvm::formatv("<text class=\"tick\" x=\"{0:f1}\" y=\"{1:f1}\" "
                        "text-anchor=\"middle\">{2}</text>\n",
                        X(T), F.y0() + 16, tickLabel(T));
  }
  OS << llvm::formatv("<line class=\"axis\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                      "x2=\"{2:f1}\" y2=\"{1:f1}\"/>\n",
                      F.x0(), F.y0(), F.x1());
  OS << llvm::formatv("<text class=\"label\" x=\"{0:f1}\" y=\"{1:f1}\" "
                      "text-anchor=\"middle\">evaluation</text>\n",
                      (F.x0() + F.x1()) / 2, F.Height - 6);
  OS << llvm::formatv("<text class=\"label\" transform=\"translate(14 {0:f1}) "
                      "rotate(-90)\" text-anchor=\"middle\">{1}{2}</text>\n",
                      (F.y0() + F.y1()) / 2, escape(axisTitle()),
                      Y.Log ? ", log scale" : "");

  // Every evaluation, then the staircase of the best on top of them.
  for (size_t I = 0; I < N; ++I) {
    const Evaluation &E = Run.Trace[I];
    if (E.M.valid())
      OS << llvm::formatv("<circle class=\"eval\" cx=\"{0:f1}\" cy=\"{1:f1}\" "
                          "r=\"2.2\"><title>{2}</title></circle>\n",
                          X(I + 1), Y(E.M.Objective), point(I));
    else
      OS << llvm::formatv("<line class=\"invalid\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                          "x2=\"{0:f1}\" y2=\"{2:f1}\"><title>{3}</title>"
                          "</line>\n",
                          X(I + 1), F.y0() - 1, F.y0() - 9, point(I));
  }
  std::vector<std::optional<double>> Best = bestSoFar(Run.Trace, M);
  // A staircase: the best holds until the evaluation that beats it.
  std::string Path;
  std::vector<size_t> Improved;
  for (size_t I = 0; I < N; ++I) {
    if (!Best[I] || (I && Best[I - 1] && *Best[I - 1] == *Best[I]))
      continue;
    Path +=
        Path.empty()
            ? llvm::formatv("M{0:f1},{1:f1}", X(I + 1), Y(*Best[I])).str()
            : llvm::formatv(" H{0:f1} V{1:f1}", X(I + 1), Y(*Best[I])).str();
    Improved.push_back(I);
  }
  Path += llvm::formatv(" H{0:f1}", X(double(N))).str();
  OS << "<path class=\"best\" d=\"" << Path << "\"/>\n";
  for (size_t I : Improved)
    OS << llvm::formatv("<circle class=\"improve\" cx=\"{0:f1}\" cy=\"{1:f1}\" "
                        "r=\"3.6\"><title>new best at {2}</title></circle>\n",
                        X(I + 1), Y(*Best[I]), point(I));
  OS << "</svg>\n";
}

void Report::parameterPlots() {
  if (Ranked.empty())
    return;
  OS << "<h2>Parameters</h2>\n<p class=\"note\">Each parameter's values in "
        "order, with every valid evaluation that used the value (grey), "
        "the best of them (blue) and their median (black bar); <i>n</i> "
        "counts the evaluations, invalid ones included. The other "
        "parameters vary, so a value's best says what it allows and its "
        "median how it does on average.</p>\n<div class=\"grid-plots\">\n";
  Scale Y = Scale::fit(Objectives, 0, 1);
  std::vector<std::string> Fixed;
  for (unsigned P = 0; P < Space.parameters().size(); ++P) {
    const Parameter &Param = Space.parameters()[P];
    // One value has no effect to show.
    if (Param.Values.size() == 1)
      Fixed.push_back(Param.Name + "=" + Param.Values.front().str());
    else
      parameterPlot(P, Y);
  }
  OS << "</div>\n";
  if (!Fixed.empty())
    OS << "<p class=\"note\">Fixed: <code>" << escape(llvm::join(Fixed, " "))
       << "</code>.</p>\n";
}

void Report::parameterPlot(unsigned P, const Scale &YTemplate) {
  const Parameter &Param = Space.parameters()[P];
  size_t Values = Param.Values.size();
  // Per value: the objectives of its valid evaluations (with where they
  // are in the trace, for the spread of the dots) and its count.
  std::vector<std::vector<std::pair<double, size_t>>> Valid(Values);
  std::vector<size_t> Count(Values);
  for (size_t I = 0; I < Run.Trace.size(); ++I) {
    const Evaluation &E = Run.Trace[I];
    uint32_t V = Space.config(E.Config)[P];
    ++Count[V];
    if (E.M.valid())
      Valid[V].push_back({E.M.Objective, I});
  }

  Frame F{380, 230, 46, 8, 8, 46};
  Scale Y = YTemplate;
  Y.From = F.y0();
  Y.To = F.y1();
  double Band = (F.x1() - F.x0()) / double(Values);
  auto Center = [&](size_t V) { return F.x0() + Band * (V + 0.5); };
  // Labels of many values would overlap; show every Step-th.
  size_t Step =
      std::max<size_t>(1, size_t(std::ceil(Values * 34.0 / (F.x1() - F.x0()))));

  OS << "<figure>\n<figcaption>" << escape(Param.Name) << "</figcaption>\n";
  OS << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
                      "aria-label=\"{2} against {3}\">\n",
                      F.Width, F.Height, escape(M.Name), escape(Param.Name));
  yAxis(F, Y);
  OS << llvm::formatv("<line class=\"axis\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                      "x2=\"{2:f1}\" y2=\"{1:f1}\"/>\n",
                      F.x0(), F.y0(), F.x1());
  OS << llvm::formatv("<text class=\"label\" transform=\"translate(12 {0:f1}) "
                      "rotate(-90)\" text-anchor=\"middle\">{1}</text>\n",
                      (F.y0() + F.y1()) / 2,
                      escape(M.Unit.empty() ? M.Name : M.Unit));
  std::string Trend;
  for (size_t V = 0; V < Values; ++V) {
    double Cx = Center(V);
    if (V % Step == 0)
      OS << llvm::formatv("<text class=\"label\" x=\"{0:f1}\" y=\"{1:f1}\" "
                          "text-anchor=\"middle\">{2}</text>\n"
                          "<text class=\"tick\" x=\"{0:f1}\" y=\"{3:f1}\" "
                          "text-anchor=\"middle\">n={4}</text>\n",
                          Cx, F.y0() + 16, escape(Param.Values[V].str()),
                          F.y0() + 30, Count[V]);
    auto &Points = Valid[V];
    if (Points.empty())
      continue;
    // Spread within the band by position in the trace (golden ratio), so
    // the picture is the same every time and equal values do not stack.
    for (const auto &[Objective, I] : Points) {
      double Offset = std::fmod(double(I) * 0.6180339887, 1.0) - 0.5;
      OS << llvm::formatv("<circle class=\"eval\" cx=\"{0:f1}\" "
                          "cy=\"{1:f1}\" r=\"2\"/>\n",
                          Cx + Offset * std::min(Band * 0.6, 28.0),
                          Y(Objective));
    }
    std::vector<double> Sorted;
    for (const auto &Point : Points)
      Sorted.push_back(Point.first);
    llvm::sort(Sorted);
    double Median =
        Sorted.size() % 2
            ? Sorted[Sorted.size() / 2]
            : (Sorted[Sorted.size() / 2 - 1] + Sorted[Sorted.size() / 2]) / 2;
    double Best = M.Maximize ? Sorted.back() : Sorted.front();
    double Half = std::min(Band * 0.35, 16.0);
    std::string Title =
        escape(llvm::formatv("{0}={1}: best {2}, median {3}, {4} valid of {5}",
                             Param.Name, Param.Values[V].str(), M.format(Best),
                             M.format(Median), Points.size(), Count[V])
                   .str());
    OS << llvm::formatv("<line class=\"median\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                        "x2=\"{2:f1}\" y2=\"{1:f1}\"><title>{3}</title>"
                        "</line>\n",
                        Cx - Half, Y(Median), Cx + Half, Title);
    OS << llvm::formatv("<circle class=\"min\" cx=\"{0:f1}\" cy=\"{1:f1}\" "
                        "r=\"4\"><title>{2}</title></circle>\n",
                        Cx, Y(Best), Title);
    Trend += llvm::formatv("{0}{1:f1},{2:f1} ", Trend.empty() ? "M" : "L", Cx,
                           Y(Best))
                 .str();
  }
  if (!Trend.empty())
    OS << "<path class=\"trend\" d=\"" << llvm::StringRef(Trend).rtrim()
       << "\"/>\n";
  OS << "</svg>\n</figure>\n";
}

void Report::bestTable() {
  if (Ranked.empty())
    return;
  size_t Shown = std::min<size_t>(Top, Ranked.size());
  OS << "<h2>Best configurations</h2>\n<p class=\"note\">The " << Shown
     << " best of " << Ranked.size()
     << " valid configurations.</p>\n<div class=\"wide\"><table "
        "class=\"data\">\n<tr><th "
        "class=\"num\">rank</th><th class=\"num\">"
     << escape(M.Name + (M.Unit.empty() ? "" : " (" + M.Unit + ")"))
     << "</th><th class=\"num\">vs best</th><th class=\"num\">evaluation</th>";
  for (const Parameter &P : Space.parameters())
    OS << "<th>" << escape(P.Name) << "</th>";
  OS << "</tr>\n";
  double BestObjective = Objectives.front();
  for (size_t R = 0; R < Shown; ++R) {
    const Evaluation &E = Run.Trace[Ranked[R]];
    std::string Gap = R == 0 || BestObjective == 0
                          ? ""
                          : formatChange(E.M.Objective, BestObjective);
    OS << (R ? "<tr>" : "<tr class=\"best\">") << "<td class=\"num\">" << R + 1
       << "</td><td class=\"num\">" << escape(M.format(E.M.Objective, false))
       << "</td><td class=\"num\">" << Gap << "</td><td class=\"num\">"
       << Ranked[R] + 1 << "</td>";
    for (unsigned P = 0; P < Space.parameters().size(); ++P)
      OS << "<td>" << escape(Space.value(E.Config, P).str()) << "</td>";
    OS << "</tr>\n";
  }
  OS << "</table></div>\n";
}

void Report::invalidTable() {
  std::vector<InvalidGroup> Groups = invalidGroups(Run.Trace);
  if (Groups.empty())
    return;
  OS << "<h2>Invalid configurations</h2>\n<table class=\"data\">\n<tr><th>"
        "kind</th><th class=\"num\">count</th><th>reasons</th></tr>\n";
  for (const InvalidGroup &G : Groups) {
    OS << "<tr><td>" << t4Name(G.Status) << "</td><td class=\"num\">" << G.Count
       << "</td><td>";
    for (size_t I = 0; I < G.Reasons.size(); ++I)
      OS << (I ? "<br/>" : "") << "<code>" << escape(G.Reasons[I].first)
         << "</code> (" << G.Reasons[I].second << ")";
    OS << "</td></tr>\n";
  }
  OS << "</table>\n";
}

std::string Report::render() {
  head();
  metadata();
  progressPlot();
  parameterPlots();
  bestTable();
  invalidTable();
  OS << "<footer>Written by metacu " << escape(metacuVersion());
  if (!Info.Date.empty())
    OS << " on " << escape(Info.Date);
  OS << ". Hover over a point for its evaluation.</footer>\n</body>\n</html>\n";
  return std::move(Out);
}

} // namespace

std::string metacu::tune::renderHtmlReport(const RunInfo &Info,
                                           const SearchSpace &Space,
                                           const TuneResult &Run,
                                           unsigned Top) {
  return Report(Info, Space, Run, Top).render();
}
