//===- LowerReflect.cpp - Describing types to the generator
//-----------------===//
//
// '@meta for enum' iterates an enumeration, and meta values of enumeration
// and aggregate types are spelled in ordinary code: the program gets a
// table of each enumeration's enumerators and a spelling function for each
// aggregate the host slice found.
//
//===----------------------------------------------------------------------===//
#include "expand/LowerInternal.h"

namespace metacu::lowering {

static std::pair<std::string, std::string> splitQualified(llvm::StringRef Q) {
  size_t P = Q.rfind("::");
  if (P == llvm::StringRef::npos)
    return {"", Q.str()};
  return {Q.substr(0, P).str(), Q.substr(P + 2).str()};
}

void Lowering::writeEnumReflection(llvm::StringRef Type,
                                   const std::vector<std::string> &Enumerators,
                                   std::optional<std::string> Prefix) {
  std::string T = Type.str();
  write("inline const ::metacu::detail::enum_table<" + T +
        "> &__metacu_reflect(" + T +
        " *) {\n  static const "
        "::metacu::detail::enum_table<" +
        T + "> t{" + (Prefix ? stringLiteral(*Prefix) : "nullptr") + ", " +
        (Prefix
             ? stringLiteral(Type.starts_with("::") ? Type.drop_front(2) : Type)
             : "nullptr") +
        ", {");
  for (size_t I = 0; I < Enumerators.size(); ++I)
    write(std::string(I ? ", " : "") + "{" + T + "::" + Enumerators[I] + ", " +
          stringLiteral(Enumerators[I]) + "}");
  write("}};\n  return t;\n}\n");
}

void Lowering::describeTypesAfter(unsigned After) {
  for (const EnumInfo &E : Slice.Enums) {
    if (E.After != After)
      continue;
    auto [NS, Name] = splitQualified(E.QualifiedName);
    std::string Prefix =
        E.Scoped ? E.QualifiedName + "::" : (NS.empty() ? "" : NS + "::");
    if (E.FromHeader && !NS.empty())
      write("namespace " + NS + " {\n");
    writeEnumReflection("::" + E.QualifiedName, E.Enumerators, Prefix);
    if (E.FromHeader && !NS.empty())
      write("}\n");
  }
  for (const RecordInfo &R : Slice.Records) {
    if (R.After != After)
      continue;
    auto [NS, Name] = splitQualified(R.QualifiedName);
    if (R.FromHeader && !NS.empty())
      write("namespace " + NS + " {\n");
    write("constexpr bool __metacu_spellable(const ::" + R.QualifiedName +
          " *) {\n  return true");
    for (const std::string &F : R.Fields)
      write(" &&\n    ::metacu::detail::has_spelling<std::remove_cv_t<"
            "decltype(::" +
            R.QualifiedName + "::" + F + ")>>");
    write(";\n}\n");
    write("inline void __metacu_spell(std::string &o, const ::" +
          R.QualifiedName +
          " &v) {\n  o += " + stringLiteral(R.QualifiedName + "{") + ";\n");
    for (size_t I = 0; I < R.Fields.size(); ++I) {
      if (I)
        write("  o += \", \";\n");
      write("  ::metacu::detail::spell_field(o, v." + R.Fields[I] + ");\n");
    }
    write("  o += \"}\";\n}\n");
    if (R.FromHeader && !NS.empty())
      write("}\n");
  }
}

} // namespace metacu::lowering
