# SPDX-License-Identifier: MIT
# Install rules of the CMake build (CMakeLists.txt includes this when
# SGRT_INSTALL is ON): the files `meson install` installs, described the same
# way, so find_package(sgrt) and pkg-config cannot tell the builds apart.
include(CMakePackageConfigHelpers)

install(TARGETS sgrt
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/include/sgrt.h" "${PROJECT_SOURCE_DIR}/include/sgrt.hpp"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

# A directory as the package files name it: relative to the package's own
# location unless it is absolute, so an installed tree can be moved.
function(sgrt_package_dir out dir prefix_var)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${${prefix_var}}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

# sgrtConfig.cmake from the template meson fills (cmake/sgrtConfig.cmake.in):
# an IMPORTED target sgrt::sgrt for the library installed. The file name
# comes from the target (a generator expression), so the template is
# configured first and the names filled in at generation time.
sgrt_package_dir(sgrt_pkg_libdir "${CMAKE_INSTALL_LIBDIR}" PACKAGE_PREFIX_DIR)
sgrt_package_dir(sgrt_pkg_bindir "${CMAKE_INSTALL_BINDIR}" PACKAGE_PREFIX_DIR)
sgrt_package_dir(SGRT_CMAKE_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}" PACKAGE_PREFIX_DIR)
set(SGRT_CMAKE_IMPLIB "")
set(SGRT_CMAKE_LINK "")
if(BUILD_SHARED_LIBS)
  set(SGRT_CMAKE_TYPE SHARED)
  if(WIN32 OR CYGWIN)
    # A DLL goes to bindir; programs link its import library in libdir.
    set(SGRT_CMAKE_LOCATION "${sgrt_pkg_bindir}/$<TARGET_FILE_NAME:sgrt>")
    set(SGRT_CMAKE_IMPLIB "${sgrt_pkg_libdir}/$<TARGET_LINKER_FILE_NAME:sgrt>")
  else()
    set(SGRT_CMAKE_LOCATION "${sgrt_pkg_libdir}/$<TARGET_FILE_NAME:sgrt>")
  endif()
else()
  set(SGRT_CMAKE_TYPE STATIC)
  set(SGRT_CMAKE_LOCATION "${sgrt_pkg_libdir}/$<TARGET_FILE_NAME:sgrt>")
  # The static library does not record what it links.
  if(SGRT_LIBM)
    set(SGRT_CMAKE_LINK m)
  endif()
endif()
set(sgrt_cmake_dest "${CMAKE_INSTALL_LIBDIR}/cmake/sgrt")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/sgrtConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/sgrtConfig.cmake.configured"
  INSTALL_DESTINATION "${sgrt_cmake_dest}")
file(GENERATE OUTPUT "${PROJECT_BINARY_DIR}/sgrtConfig.cmake"
  INPUT "${PROJECT_BINARY_DIR}/sgrtConfig.cmake.configured")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/sgrtConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY ${sgrt_cmake_compat})
install(FILES "${PROJECT_BINARY_DIR}/sgrtConfig.cmake"
              "${PROJECT_BINARY_DIR}/sgrtConfigVersion.cmake"
  DESTINATION "${sgrt_cmake_dest}")

# sgrt.pc, as meson's. Its prefix is found from the file's own place
# (${pcfiledir}), so `cmake --install --prefix DIR` and moved trees work.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SGRT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  string(REGEX REPLACE "[^/]+" ".." sgrt_pc_up "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  set(SGRT_PC_PREFIX "\${pcfiledir}/${sgrt_pc_up}")
endif()
sgrt_package_dir(SGRT_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}" prefix)
sgrt_package_dir(SGRT_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}" prefix)
set(SGRT_PC_LIBS_PRIVATE "")
if(SGRT_LIBM)
  set(SGRT_PC_LIBS_PRIVATE "-lm")
endif()
configure_file("${PROJECT_SOURCE_DIR}/cmake/sgrt.pc.in" "${PROJECT_BINARY_DIR}/sgrt.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/sgrt.pc"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
