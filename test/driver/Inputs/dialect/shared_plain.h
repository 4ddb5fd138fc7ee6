#pragma once
constexpr int shared_plain = 10;
