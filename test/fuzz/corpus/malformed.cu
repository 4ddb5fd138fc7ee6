@meta for (int i = 0; i < 3; ++i
@(
@meta if (x) {
if codegen (
