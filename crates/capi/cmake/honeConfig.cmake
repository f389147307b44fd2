# find_package(hone) for CMake projects: defines the imported target hone::hone.
#   find_package(hone REQUIRED)   # with CMAKE_PREFIX_PATH holding the install prefix
#   target_link_libraries(app PRIVATE hone::hone)
get_filename_component(_hone_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET hone::hone)
  add_library(hone::hone SHARED IMPORTED)
  set_target_properties(hone::hone PROPERTIES
    IMPORTED_LOCATION "${_hone_prefix}/lib/libhone.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_hone_prefix}/include")
endif()
set(hone_FOUND TRUE)
unset(_hone_prefix)
