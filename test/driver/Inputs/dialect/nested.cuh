#pragma once
@meta constexpr int nested_base = 1;
