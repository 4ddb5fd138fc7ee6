# cmake -DMETACU_BUILD_DIR=<metacu build> -DWORK_DIR=<scratch> -DPROJECT_SOURCE=<project>
#       -DCUDA_COMPILER=<nvcc> [-DNINJA=<ninja>] -P rebuild_test.cmake
#
# A Ninja build of sources that include dialect headers settles. nvcc's
# dependency file lists the file names of the generated file's #line
# directives; one that names no file (a header by its include name,
# "metacu/dma.cuh") has Ninja compile the object again on every build.
# Against an install of metacu into WORK_DIR (so that touching its dma.cuh
# disturbs nothing else): built once, a second build has nothing to do;
# touching metacu's dma.cuh, then the project's dialect header (in a
# directory beside the sources), regenerates and recompiles the one source
# that includes it, and the build settles again. Then against the build
# tree's package: built once, a second build has nothing to do.
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/helpers.cmake")
begin_test(PROJECT_SOURCE METACU_BUILD_DIR WORK_DIR PROJECT_SOURCE CUDA_COMPILER)
set(copy_obj "kernels/CMakeFiles/kernels.dir/copy.gen.cu.o")
set(tiles_obj "kernels/CMakeFiles/kernels.dir/tiles.gen.cu.o")

# expect_settled(<build dir> <what>): a build, then nothing to do.
function(expect_settled dir what)
  run(log 0 "${NINJA}" -C "${dir}")
  run(log 0 "${NINJA}" -C "${dir}" -n -d explain)
  expect_match("${log}" "no work to do" "${what}: the build after it")
endfunction()

# expect_rebuilt(<log> <source> <other source> <what>): the build that
# <log> is the output of regenerated and recompiled <source> only.
function(expect_rebuilt log source other what)
  expect_match("${log}" "metacu: generating kernels/${source}.gen.cu" "${what}")
  expect_match("${log}" "Building CUDA object kernels/CMakeFiles/kernels.dir/${source}.gen.cu.o" "${what}")
  expect_no_match("${log}" "kernels/${other}.gen.cu" "${what}")
endfunction()

step("install metacu into ${prefix}")
run(log 0 "${CMAKE_COMMAND}" --install "${METACU_BUILD_DIR}" --prefix "${prefix}")
file(REAL_PATH "${prefix}/include/metacu/dma.cuh" dma)

step("configure and build from scratch")
run(log 0 "${CMAKE_COMMAND}" -S "${src}" -B "${build}" -G Ninja
    "-DCMAKE_MAKE_PROGRAM=${NINJA}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${prefix}")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "Building CUDA object ${copy_obj}" "first build")
expect_match("${log}" "Building CUDA object ${tiles_obj}" "first build")
# #line names the installed header and the project's, each a file.
file(READ "${build}/kernels/copy.gen.cu" gen)
expect_match("${gen}" "#line 1 \"${dma}\"" "#line into metacu's dma.cuh")
file(READ "${build}/kernels/tiles.gen.cu" gen)
expect_match("${gen}" "#line 1 \"${src}/kernels/\\.\\./include/rebuild/tiles\\.cuh\""
             "#line into the project's header")

step("build again, nothing touched: nothing may run")
run(log 0 "${NINJA}" -C "${build}" -n -d explain)
expect_match("${log}" "no work to do" "no-op build")
run(log 0 "${NINJA}" -C "${build}")
expect_match("${log}" "no work to do" "no-op build")
# What Ninja recorded from nvcc: the headers, by names it can stat.
run(deps 0 "${NINJA}" -C "${build}" -t deps "${copy_obj}" "${tiles_obj}")
expect_match("${deps}" "\n +${dma}\n" "the copy object's dependency on dma.cuh")
expect_match("${deps}" "\n +${src}/include/rebuild/tiles\\.cuh\n"
             "the tiles object's dependency on tiles.cuh")
expect_no_match("${deps}" "STALE" "dependencies recorded")

step("touch metacu's dma.cuh: copy.cu is generated and compiled again")
file(TOUCH "${dma}")
run(log 0 "${NINJA}" -C "${build}")
expect_rebuilt("${log}" copy tiles "after touching dma.cuh")
expect_settled("${build}" "after touching dma.cuh")

step("touch the project's dialect header: tiles.cu is generated and compiled again")
file(TOUCH "${src}/include/rebuild/tiles.cuh")
run(log 0 "${NINJA}" -C "${build}")
expect_rebuilt("${log}" tiles copy "after touching tiles.cuh")
expect_settled("${build}" "after touching tiles.cuh")

step("against the build tree's package: the build settles")
set(build_tree "${WORK_DIR}/build-tree")
run(log 0 "${CMAKE_COMMAND}" -S "${src}" -B "${build_tree}" -G Ninja
    "-DCMAKE_MAKE_PROGRAM=${NINJA}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
    "-Dmetacu_DIR=${METACU_BUILD_DIR}")
expect_settled("${build_tree}" "the first build")
step("passed")
