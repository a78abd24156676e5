# Generates the OpenGL 4.5 core + EGL 1.5 loader at build time with Debian's glad (python3-glad),
# from the Khronos XML bundled with it (--reproducible: no network, stable output). Never committed.
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
set(GLAD_SOURCES ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/src/egl.c)
add_custom_command(
  OUTPUT ${GLAD_SOURCES} ${GLAD_OUT}/include/glad/gl.h ${GLAD_OUT}/include/glad/egl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --api "gl:core=4.5,egl=1.5" --reproducible
          --out-path ${GLAD_OUT} c --loader
  COMMENT "Generating the GL 4.5 core / EGL 1.5 loader with glad"
  VERBATIM)
add_library(gpulab_glad STATIC ${GLAD_SOURCES})
target_include_directories(gpulab_glad SYSTEM PUBLIC ${GLAD_OUT}/include)
target_link_libraries(gpulab_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(gpulab_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(gpulab::glad ALIAS gpulab_glad)
