# write_if_changed(PATH CONTENT): writes CONTENT to PATH only when it differs from what the file
# holds, so that a regenerated source does not trigger a rebuild. Included by the generator
# scripts (embed_scenarios, embed_web, write_version).
function(write_if_changed path content)
  set(old "")
  if(EXISTS ${path})
    file(READ ${path} old)
  endif()
  if(NOT "${old}" STREQUAL "${content}")
    file(WRITE ${path} "${content}")
  endif()
endfunction()
