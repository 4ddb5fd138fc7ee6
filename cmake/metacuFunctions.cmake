# metacu_target_sources(<target> [PRIVATE|PUBLIC|INTERFACE] <file.cu>...
#                       [ARCHITECTURES <list>] [OPTIONS <metacu args>...])
#
# For each file, a custom command runs metacu at build time and writes
# <binary dir>/<name>.gen.cu, which is added to <target> and compiled by the
# CUDA compiler. The command gets
#   --arch       ARCHITECTURES if given, else the target's CUDA_ARCHITECTURES
#                (which CMake initialises from CMAKE_CUDA_ARCHITECTURES), read
#                at generation time so a later set_target_properties counts;
#   -I / -D      the target's include directories and compile definitions,
#                usage requirements of what it links included, so metacu
#                preprocesses the file as the compiler will;
#   -MD -MF      a dependency file (DEPFILE), so editing the input, a header
#                it includes or a data file read by @meta code regenerates it.
# The target links metacu::runtime, whose header every generated file
# includes, and the input's directory is added to the generated file's
# include path, so `#include "local.h"` still resolves next to the input.
# Errors in meta code are reported by metacu at the input's line and column.
# compile_commands.json has the generated file's command, not the input's:
# <top binary dir>/metacu_sources.json maps each input to its generated file,
# so that `metacu -p` and `metacu lsp -p` (and the clangd behind it) give the
# input the flags its target compiles it with.

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "metacu_target_sources needs CMake 3.20 or newer (DEPFILE)")
endif()

function(metacu_target_sources target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "metacu_target_sources: no target named '${target}'")
  endif()
  if(NOT TARGET metacu::metacu OR NOT TARGET metacu::runtime)
    message(FATAL_ERROR "metacu_target_sources: metacu::metacu and metacu::runtime "
                        "must exist (find_package(metacu) or add_subdirectory)")
  endif()

  # Sources come bare or after a scope keyword, as with target_sources.
  set(scope PRIVATE)
  set(mode files)
  set(files)
  set(archs)
  set(options)
  set(archs_given FALSE)
  foreach(arg IN LISTS ARGN)
    if(arg STREQUAL "PRIVATE" OR arg STREQUAL "PUBLIC" OR arg STREQUAL "INTERFACE")
      set(scope ${arg})
      set(mode files)
    elseif(arg STREQUAL "ARCHITECTURES")
      set(mode archs)
      set(archs_given TRUE)
    elseif(arg STREQUAL "OPTIONS")
      set(mode options)
    else()
      list(APPEND ${mode} "${arg}")
    endif()
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "metacu_target_sources(${target}): no source files given")
  endif()

  if(archs_given)
    string(REPLACE "," ";" archs "${archs}")
    if(NOT archs)
      message(FATAL_ERROR "metacu_target_sources(${target}): ARCHITECTURES is empty")
    endif()
    set(arch_list "${archs}")
  else()
    get_target_property(archs ${target} CUDA_ARCHITECTURES)
    if(NOT archs)
      set(archs "${CMAKE_CUDA_ARCHITECTURES}")
    endif()
    if(NOT archs)
      message(FATAL_ERROR
        "metacu_target_sources(${target}): no architectures: set the target's "
        "CUDA_ARCHITECTURES or CMAKE_CUDA_ARCHITECTURES, or pass ARCHITECTURES")
    endif()
    # Read when the build system is generated, so that a CUDA_ARCHITECTURES
    # set after this call still counts.
    set(arch_list "$<IF:$<BOOL:$<TARGET_PROPERTY:${target},CUDA_ARCHITECTURES>>,$<TARGET_PROPERTY:${target},CUDA_ARCHITECTURES>,${CMAKE_CUDA_ARCHITECTURES}>")
  endif()
  foreach(a IN LISTS archs)
    if(a MATCHES "^(all|all-major|native)$")
      message(FATAL_ERROR
        "metacu_target_sources(${target}): CUDA architectures '${a}' cannot be "
        "expanded at configure time; list them (e.g. 75;80;90) or pass ARCHITECTURES")
    endif()
  endforeach()

  get_target_property(binary_dir ${target} BINARY_DIR)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  # The dialect nvcc compiles the ordinary code in (unset: nvcc's default).
  set(standard "$<TARGET_PROPERTY:${target},CUDA_STANDARD>")

  foreach(file IN LISTS files)
    get_filename_component(input "${file}" ABSOLUTE)
    get_filename_component(input_dir "${input}" DIRECTORY)
    get_filename_component(name "${input}" NAME_WLE)
    set(output "${binary_dir}/${name}.gen.cu")
    set(depfile "${binary_dir}/${name}.gen.cu.d")

    # Two targets generating the same output would race; say so at once.
    get_property(owner GLOBAL PROPERTY "METACU_OUTPUT_${output}")
    if(owner)
      message(FATAL_ERROR
        "metacu_target_sources(${target}): ${output} is already generated for "
        "target '${owner}'; add that file to '${target}' with target_sources, "
        "or put '${target}' in its own directory")
    endif()
    set_property(GLOBAL PROPERTY "METACU_OUTPUT_${output}" ${target})
    set_property(GLOBAL APPEND PROPERTY METACU_SOURCE_INPUTS "${input}")
    set_property(GLOBAL APPEND PROPERTY METACU_SOURCE_OUTPUTS "${output}")

    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${output}")
    add_custom_command(
      OUTPUT "${output}"
      COMMAND metacu::metacu "${input}" -o "${output}"
              "--arch=$<JOIN:${arch_list},$<COMMA>>"
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
              "$<$<BOOL:${standard}>:-std=c++${standard}>"
              -MD -MF "${depfile}"
              ${options}
      DEPENDS "${input}" metacu::metacu
      DEPFILE "${depfile}"
      COMMENT "metacu: generating ${shown}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    set_source_files_properties("${output}" PROPERTIES
      GENERATED TRUE
      LANGUAGE CUDA
      INCLUDE_DIRECTORIES "${input_dir}")
    target_sources(${target} ${scope} "${output}")
  endforeach()

  target_link_libraries(${target} ${scope} metacu::runtime)

  # Written once every directory has been read (the top one ends last).
  get_property(deferred GLOBAL PROPERTY METACU_SOURCES_DEFERRED)
  if(NOT deferred)
    set_property(GLOBAL PROPERTY METACU_SOURCES_DEFERRED TRUE)
    cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
                   CALL _metacu_write_sources)
  endif()
endfunction()

# <top binary dir>/metacu_sources.json: [{"file": <input>, "output":
# <generated file>}, ...], absolute paths, for every metacu_target_sources
# call of the build tree. Rewritten only when it changes.
function(_metacu_write_sources)
  get_property(inputs GLOBAL PROPERTY METACU_SOURCE_INPUTS)
  get_property(outputs GLOBAL PROPERTY METACU_SOURCE_OUTPUTS)
  set(entries)
  foreach(input output IN ZIP_LISTS inputs outputs)
    foreach(path input output)
      string(REPLACE "\\" "\\\\" ${path} "${${path}}")
      string(REPLACE "\"" "\\\"" ${path} "${${path}}")
    endforeach()
    list(APPEND entries "  {\"file\": \"${input}\", \"output\": \"${output}\"}")
  endforeach()
  list(JOIN entries ",\n" body)
  set(json "[\n${body}\n]\n")
  set(path "${CMAKE_BINARY_DIR}/metacu_sources.json")
  set(old "")
  if(EXISTS "${path}")
    file(READ "${path}" old)
  endif()
  if(NOT old STREQUAL json)
    file(WRITE "${path}" "${json}")
  endif()
endfunction()

# metacu_add_tune_target(<file.cu> ARCH <N> [NAME <name>] [TUNING_FILE <json>]
#                        [OPTIONS <metacu tune args>...])
#
# Adds a target tune-<name> (name: the file's name without extension) that
# runs `metacu tune <file.cu> --arch <N> --tuning-file <json>` on this
# machine's GPU: it searches the space the file declares and writes the best
# configuration as the sm_<N> entry of the tuning file (default:
# <file>.tuning.json next to the file), keeping the others. The kernel's
# meta code reads that file with metacu::load_json, so metacu_target_sources'
# dependency file makes the next ordinary build regenerate the kernel. The
# target is never part of `all`: tuning takes a GPU and minutes. OPTIONS
# go to metacu tune as given (--strategy, --budget, --gpu, --image, ...).
function(metacu_add_tune_target file)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "ARCH;NAME;TUNING_FILE" "OPTIONS")
  if(NOT arg_ARCH)
    message(FATAL_ERROR "metacu_add_tune_target(${file}): ARCH <N> is required")
  endif()
  if(NOT TARGET metacu::metacu)
    message(FATAL_ERROR "metacu_add_tune_target: metacu::metacu must exist "
                        "(find_package(metacu) or add_subdirectory)")
  endif()
  get_filename_component(input "${file}" ABSOLUTE)
  get_filename_component(name "${file}" NAME_WE)
  get_filename_component(dir "${input}" DIRECTORY)
  if(arg_NAME)
    set(name "${arg_NAME}")
  endif()
  set(tuning "${dir}/${name}.tuning.json")
  if(arg_TUNING_FILE)
    get_filename_component(tuning "${arg_TUNING_FILE}" ABSOLUTE)
  endif()
  add_custom_target(tune-${name}
    COMMAND metacu::metacu tune "${input}" --arch ${arg_ARCH}
            --tuning-file "${tuning}"
            --work-dir "${CMAKE_CURRENT_BINARY_DIR}/tune-${name}"
            --journal "${CMAKE_CURRENT_BINARY_DIR}/tune-${name}/journal.jsonl"
            ${arg_OPTIONS}
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "metacu: tuning ${name} for sm_${arg_ARCH}"
    USES_TERMINAL
    VERBATIM)
endfunction()
