# Installation: libraries, headers, the CLI, a CMake package config
# (find_package(graphdiff CONFIG) -> graphdiff::graphdiff) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS graphdiff_static graphdiff_shared EXPORT graphdiffTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS graphdiff_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/graphdiff
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

set(GRAPHDIFF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/graphdiff)
install(EXPORT graphdiffTargets NAMESPACE graphdiff::
  DESTINATION ${GRAPHDIFF_CMAKE_DIR} FILE graphdiffTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/graphdiffConfig.cmake.in
  ${PROJECT_BINARY_DIR}/graphdiffConfig.cmake INSTALL_DESTINATION ${GRAPHDIFF_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/graphdiffConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/graphdiffConfig.cmake
  ${PROJECT_BINARY_DIR}/graphdiffConfigVersion.cmake DESTINATION ${GRAPHDIFF_CMAKE_DIR})

file(RELATIVE_PATH GRAPHDIFF_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(${PROJECT_SOURCE_DIR}/cmake/graphdiff.pc.in
  ${PROJECT_BINARY_DIR}/graphdiff.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/graphdiff.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
