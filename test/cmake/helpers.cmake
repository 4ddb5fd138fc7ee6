# What the cmake -P tests of this directory share: steps in the log,
# commands that must succeed or fail, and matches in their output. Messages
# start with the test script's name.
get_filename_component(test_name "${CMAKE_SCRIPT_MODE_FILE}" NAME_WE)

function(step name)
  message(STATUS "${test_name}: ${name}")
endfunction()

# run(<output var> <expected result: 0 or FAIL> COMMAND...)
function(run out expect)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE stdout
                  ERROR_VARIABLE stderr)
  set(${out} "${stdout}${stderr}" PARENT_SCOPE)
  if(expect STREQUAL "0" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${test_name}: '${ARGN}' failed (${rc}):\n${stdout}${stderr}")
  elseif(expect STREQUAL "FAIL" AND rc EQUAL 0)
    message(FATAL_ERROR "${test_name}: '${ARGN}' succeeded but should fail:\n${stdout}${stderr}")
  endif()
endfunction()

function(expect_match text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${test_name}: ${what}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

function(expect_no_match text regex what)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "${test_name}: ${what}: unexpected '${regex}' in:\n${text}")
  endif()
endfunction()

# The start of a test: the variables it needs given (-DVAR=...), Ninja
# found, and a fresh WORK_DIR whose src/ is a copy of the directory the
# variable \p source names, beside prefix/ and build/.
macro(begin_test source)
  foreach(var ${ARGN})
    if(NOT ${var})
      message(FATAL_ERROR "${test_name}: -D${var}=... is required")
    endif()
  endforeach()
  if(NOT NINJA)
    find_program(NINJA NAMES ninja ninja-build REQUIRED)
  endif()
  set(prefix "${WORK_DIR}/prefix")
  set(src "${WORK_DIR}/src")
  set(build "${WORK_DIR}/build")
  file(REMOVE_RECURSE "${WORK_DIR}")
  file(COPY "${${source}}/" DESTINATION "${src}")
endmacro()
