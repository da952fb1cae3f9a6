# The include rules of the tree, checked by a test (`ctest -R layering`):
#   - each library includes only its own folder and the layers below it:
#       core/ (standard library only, shared by all) <- env/ (the rules kernel) <- env/io/
#       <- mcts/ <- nn/, agents/ <- training/ (also above nn/), arena/, engine/ <- server/;
#       env/ <- http/ (HTTP for files, and the one TCP listener of both servers) <- server/;
#       training/, arena/ and http/ <- loop/; all of them <-
#       cli/; all but server/, http/, loop/ and cli/ <- python/ (the Python module)
#   - Boost.Beast and Asio are included only in server/ and http/;
#   - the rules kernel (env/ outside env/io/) and core/ build with the standard library alone;
#   - headers marked "Internal to env/" are included from env/ only (agents use env/tactics.h);
#   - LibTorch is included only under a torch/ folder (nn/torch/), and so are the headers of a
#     torch/ folder (they include LibTorch).
# Run as: cmake -DSOURCE_DIR=<top of the tree> -P cmake/check_layers.cmake
cmake_minimum_required(VERSION 3.25)
set(allowed_core "core/")
set(allowed_env "env/")
set(allowed_env_io "core/;env/")
set(allowed_mcts "core/;env/;mcts/")
set(allowed_nn "core/;env/;mcts/;nn/")
set(allowed_agents "core/;env/;mcts/;agents/")
set(allowed_training "core/;env/;mcts/;nn/;agents/;training/")
set(allowed_arena "core/;env/;mcts/;agents/;arena/")
set(allowed_engine "core/;env/;mcts/;agents/;engine/")
set(allowed_server "core/;env/;mcts/;agents/;engine/;http/;server/")
set(allowed_http "core/;env/;http/")
set(allowed_loop "core/;env/;mcts/;nn/;agents/;training/;arena/;http/;loop/")
set(allowed_cli "core/;env/;mcts/;nn/;agents/;training/;arena/;engine/;server/;http/;loop/;cli/")
set(allowed_python "core/;env/;mcts/;nn/;agents/;training/;arena/;engine/;python/")

set(problems "")
file(GLOB_RECURSE env_headers RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/env/*.h")
set(internal_headers "")
foreach(header IN LISTS env_headers)
  file(STRINGS "${SOURCE_DIR}/${header}" marks REGEX "Internal to env")
  if(marks)
    list(APPEND internal_headers "${header}")
  endif()
endforeach()
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/env/*.h" "${SOURCE_DIR}/env/*.cpp" "${SOURCE_DIR}/mcts/*.h"
  "${SOURCE_DIR}/mcts/*.cpp" "${SOURCE_DIR}/nn/*.h" "${SOURCE_DIR}/nn/*.cpp"
  "${SOURCE_DIR}/agents/*.h" "${SOURCE_DIR}/agents/*.cpp" "${SOURCE_DIR}/training/*.h"
  "${SOURCE_DIR}/training/*.cpp" "${SOURCE_DIR}/arena/*.h" "${SOURCE_DIR}/arena/*.cpp" "${SOURCE_DIR}/engine/*.h"
  "${SOURCE_DIR}/engine/*.cpp" "${SOURCE_DIR}/server/*.h" "${SOURCE_DIR}/server/*.cpp"
  "${SOURCE_DIR}/http/*.h" "${SOURCE_DIR}/http/*.cpp"
  "${SOURCE_DIR}/loop/*.h" "${SOURCE_DIR}/loop/*.cpp" "${SOURCE_DIR}/cli/*.h" "${SOURCE_DIR}/cli/*.cpp"
  "${SOURCE_DIR}/python/*.h" "${SOURCE_DIR}/python/*.cpp"
  "${SOURCE_DIR}/tests/*.h" "${SOURCE_DIR}/tests/*.cpp")
foreach(file IN LISTS sources)
  file(STRINGS "${SOURCE_DIR}/${file}" includes REGEX "^#include ")
  string(REGEX MATCH "^[a-z]+" top "${file}")
  set(layer "${top}")
  if(file MATCHES "^env/io/")
    set(layer "env_io")
  endif()
  foreach(line IN LISTS includes)
    if(line MATCHES "<(torch|ATen|c10)/" AND NOT file MATCHES "/torch/")
      list(APPEND problems "${file}: LibTorch outside a torch/ folder: ${line}")
    endif()
    if(line MATCHES "<boost/(beast|asio)" AND NOT top STREQUAL "server" AND NOT top STREQUAL "http")
      list(APPEND problems "${file}: Boost.Beast and Asio belong in server/ and http/: ${line}")
    endif()
    if(top STREQUAL "tests")
      continue()
    endif()
    if(line MATCHES "#include \"([a-z_]+/[a-z_/]*[a-z_]+\\.h)\"")
      set(target "${CMAKE_MATCH_1}")
      set(ok FALSE)
      foreach(prefix IN LISTS allowed_${layer})
        string(FIND "${target}" "${prefix}" at)
        if(at EQUAL 0)
          set(ok TRUE)
        endif()
      endforeach()
      if(layer STREQUAL "env" AND target MATCHES "^env/io/")
        set(ok FALSE)
      endif()
      if(target MATCHES "/torch/" AND NOT file MATCHES "/torch/")
        list(APPEND problems "${file}: ${target} includes LibTorch; only torch/ sources may")
      endif()
      if(NOT file MATCHES "^env/" AND target IN_LIST internal_headers)
        list(APPEND problems "${file}: ${target} is internal to env/")
      endif()
      if(NOT ok)
        list(APPEND problems "${file}: ${layer} may not include ${target}")
      endif()
    elseif(layer STREQUAL "env" AND line MATCHES "<nlohmann/")
      list(APPEND problems "${file}: the rules kernel includes ${line} (JSON belongs in env/io/)")
    elseif(layer STREQUAL "core" AND line MATCHES "<[a-zA-Z0-9_]+/")
      list(APPEND problems "${file}: core/ uses the standard library alone: ${line}")
    endif()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "include rules broken:\n${text}")
endif()
list(LENGTH sources count)
message(STATUS "include rules hold in ${count} files")
