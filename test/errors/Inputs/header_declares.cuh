#pragma once
@meta constexpr int header_width = 8;
