#pragma once
constexpr int local_value = 2;
