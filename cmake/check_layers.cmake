# The include rules of the tree, checked by a test (`ctest -R layering`):
#   - each library includes only its own folder and the layers below it:
#       env/ (the rules kernel) <- env/io/ <- mcts/ <- nn/, agents/ <- training/ <- cli/
#   - the rules kernel (env/ outside env/io/) builds with the standard library alone;
#   - LibTorch is included only under a torch/ folder (nn/torch/).
# Run as: cmake -DSOURCE_DIR=<top of the tree> -P cmake/check_layers.cmake
set(allowed_env "env/")
set(allowed_env_io "env/")
set(allowed_mcts "env/;mcts/")
set(allowed_nn "env/;mcts/;nn/")
set(allowed_agents "env/;mcts/;agents/")
set(allowed_training "env/;mcts/;nn/;agents/;training/")
set(allowed_cli "env/;mcts/;nn/;agents/;training/;cli/")

set(problems "")
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/env/*.h" "${SOURCE_DIR}/env/*.cpp" "${SOURCE_DIR}/mcts/*.h"
  "${SOURCE_DIR}/mcts/*.cpp" "${SOURCE_DIR}/nn/*.h" "${SOURCE_DIR}/nn/*.cpp"
  "${SOURCE_DIR}/agents/*.h" "${SOURCE_DIR}/agents/*.cpp" "${SOURCE_DIR}/training/*.h"
  "${SOURCE_DIR}/training/*.cpp" "${SOURCE_DIR}/cli/*.h" "${SOURCE_DIR}/cli/*.cpp"
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
      if(NOT ok)
        list(APPEND problems "${file}: ${layer} may not include ${target}")
      endif()
    elseif(layer STREQUAL "env" AND line MATCHES "<nlohmann/")
      list(APPEND problems "${file}: the rules kernel includes ${line} (JSON belongs in env/io/)")
    endif()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "include rules broken:\n${text}")
endif()
list(LENGTH sources count)
message(STATUS "include rules hold in ${count} files")
