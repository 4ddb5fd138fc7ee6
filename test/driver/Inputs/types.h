#pragma once
namespace tuning {
enum class mode { fast, exact };
struct point { int x; int y; };
} // namespace tuning
