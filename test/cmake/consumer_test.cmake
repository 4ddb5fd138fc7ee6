# cmake -DMETACU_BUILD_DIR=<metacu build> -DWORK_DIR=<scratch> -DCONSUMER_SOURCE=<consumer>
#       -DCUDA_COMPILER=<nvcc> -DTUNE_CACHE=<Kernel Tuner cache> [-DNINJA=<ninja>]
#       -P consumer_test.cmake
#
# Installs metacu from METACU_BUILD_DIR, then configures and builds the
# consumer project against the install with Ninja: from scratch; again after
# touching nothing (nothing may run); after touching the data file and the
# local header (metacu must run again); after editing the dialect header
# both sources share (both regenerated); with an error in meta code (the
# build log must point at the consumer's kernel.cu); the tune-kernel target's
# command, and the tuning file metacu tune writes (here from a replay of
# TUNE_CACHE) regenerating the kernel. Finally the same project
# configures against the build tree's package.
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/helpers.cmake")
begin_test(CONSUMER_SOURCE METACU_BUILD_DIR WORK_DIR CONSUMER_SOURCE CUDA_COMPILER TUNE_CACHE)

step("install metacu into ${prefix}")
run(log 0 "${CMAKE_COMMAND}" --install "${METACU_BUILD_DIR}" --prefix "${prefix}")

step("configure and build from scratch")
run(log 0 "${CMAKE_COMMAND}" -S "${src}" -B "${build}" -G Ninja
    "-DCMAKE_MAKE_PROGRAM=${NINJA}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "metacu: generating kernel.gen.cu" "first build")
file(READ "${build}/kernel.gen.cu" gen)
# items = 4 from tuning.json; i * CONSUMER_SCALE + 100 + 1000 for i = 3.
expect_match("${gen}" "= 1109;" "generated file")
expect_match("${gen}" "#error" "architecture guard")
expect_match("${log}" "metacu: generating other.gen.cu" "first build")
file(READ "${build}/other.gen.cu" other)
# The dialect header is expanded in place: consumer_tile = 8, two iterations.
expect_match("${other}" "#line [0-9]+ \"[^\"]*include/consumer/tiles.cuh\"" "#line into the header")
expect_match("${other}" "out\\[1\\] = tile_base\\(1\\);" "header's meta value in other.cu")
expect_no_match("${other}" "@meta" "expanded header")
expect_match("${gen}" "\"tile: %d\\\\n\", 8\\)" "header's meta value in kernel.cu")
run(cmd 0 "${NINJA}" -C "${build}" -t commands consumer)
expect_match("${cmd}" "${prefix}/bin/metacu" "the installed metacu runs")
expect_match("${cmd}" "--arch=80" "--arch from CUDA_ARCHITECTURES")

step("metacu_sources.json: a dialect file has its target's flags with -p")
file(READ "${build}/metacu_sources.json" sources)
expect_match("${sources}" "\"file\": \"${src}/kernel.cu\", \"output\": \"${build}/kernel.gen.cu\""
             "kernel.cu's generated file")
expect_match("${sources}" "\"file\": \"${src}/other.cu\", \"output\": \"${build}/other.gen.cu\""
             "other.cu's generated file")
# As an editor's server reads it: CONSUMER_SCALE=3 and the include
# directory come from the target, through kernel.gen.cu's command.
run(log 0 "${prefix}/bin/metacu" "${src}/kernel.cu" -p "${build}" --arch 80
    -o "${WORK_DIR}/kernel.editor.gen.cu")
file(READ "${WORK_DIR}/kernel.editor.gen.cu" editor)
expect_match("${editor}" "= 1109;" "the file expanded with the target's flags")

step("build again, nothing touched: nothing may run")
run(log 0 "${NINJA}" -C "${build}" -n -d explain)
expect_match("${log}" "no work to do" "no-op build")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "no work to do" "no-op build")

step("touch the data file read by @meta code: metacu must run again")
file(WRITE "${src}/tuning.json" "{ \"items\": 6 }\n")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "metacu: generating kernel.gen.cu" "after editing tuning.json")
file(READ "${build}/kernel.gen.cu" gen)
expect_match("${gen}" "= 1115;" "regenerated file (items = 6)")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "no work to do" "no-op build after regenerating")

step("touch the local header: metacu must run again")
file(TOUCH "${src}/local.h")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "metacu: generating kernel.gen.cu" "after touching local.h")

step("edit the shared dialect header: both sources are generated again")
file(READ "${src}/include/consumer/tiles.cuh" tiles)
string(REPLACE "consumer_tile = 8" "consumer_tile = 12" tiles_12 "${tiles}")
file(WRITE "${src}/include/consumer/tiles.cuh" "${tiles_12}")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "metacu: generating kernel.gen.cu" "after editing tiles.cuh")
expect_match("${log}" "metacu: generating other.gen.cu" "after editing tiles.cuh")
file(READ "${build}/other.gen.cu" other)
expect_match("${other}" "out\\[2\\] = tile_base\\(2\\);" "regenerated other.cu (consumer_tile = 12)")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "no work to do" "no-op build after editing tiles.cuh")

step("an error in meta code is reported at the consumer's line")
file(READ "${src}/kernel.cu" kernel)
file(APPEND "${src}/kernel.cu" "@meta static_assert(CONSUMER_SCALE == 4, \"scale must be 4\");\n")
run(log FAIL "${NINJA}" -C "${build}")
expect_match("${log}" "kernel.cu:35:[0-9]+: error: .*scale must be 4" "meta error location")
file(WRITE "${src}/kernel.cu" "${kernel}")
run(log 0 "${NINJA}" -C "${build}")

step("the tune target, and the tuning file it writes regenerates the kernel")
file(READ "${build}/kernel.gen.cu" gen)
expect_match("${gen}" "= 160000;" "the hand-written sm_80 entry (block_size_x 16)")
run(cmd 0 "${NINJA}" -C "${build}" -t commands tune-kernel)
expect_match("${cmd}" "metacu\"? tune [^ ]*kernel.cu\"? --arch 80 --tuning-file [^ ]*kernel.tuning.json"
             "tune-kernel runs metacu tune on the same file")
run(log 0 "${NINJA}" -C "${build}" -n)
expect_match("${log}" "no work to do" "tune-kernel is not part of all")
# What tune-kernel does on a GPU, from recorded times: block_size_x 64 wins.
run(log 0 "${prefix}/bin/metacu" tune --quiet --replay "${TUNE_CACHE}" --arch 80
    --tuning-file "${src}/kernel.tuning.json")
expect_match("${log}" "block_size_x=64" "the replay's best")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "metacu: generating kernel.gen.cu" "after metacu tune wrote the tuning file")
file(READ "${build}/kernel.gen.cu" gen)
expect_match("${gen}" "= 640000;" "regenerated with the tuned sm_80 entry")

step("find_package from the build tree")
run(log 0 "${CMAKE_COMMAND}" -S "${src}" -B "${WORK_DIR}/build-tree" -G Ninja
    "-DCMAKE_MAKE_PROGRAM=${NINJA}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
    "-Dmetacu_DIR=${METACU_BUILD_DIR}")
run(cmd 0 "${NINJA}" -C "${WORK_DIR}/build-tree" -t commands consumer)
expect_match("${cmd}" "${METACU_BUILD_DIR}/tool/metacu" "the build tree's metacu runs")
step("passed")
