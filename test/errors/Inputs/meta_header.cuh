#pragma once
@meta int hidden = 1;
