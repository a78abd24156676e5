# Third-party libraries, all from Debian 12 packages (scripts/debian-packages.txt).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
# No find_package(OpenGL): the glad loader opens libEGL/libGL at run time and brings its own headers,
# so nothing links against the GL libraries (which also keeps GPU servers without GL dev links working).
find_package(glfw3 3.3 REQUIRED)
find_package(glm REQUIRED)
# Header-only: the command line (CLI11) and the bench's JSON (nlohmann-json).
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
# The settings file (TOML): Debian 12's libtomlplusplus-dev ships a CMake config whose target links the
# compiled library (libtomlplusplus3) and defines TOML_HEADER_ONLY=0 for its users.
find_package(tomlplusplus 3 CONFIG REQUIRED)

# Debian's libimgui-dev (1.86) ships a static libimgui.a with the GLFW and OpenGL3 backends inside.
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
# stb headers from libstb-dev (kernels/image/image_io.cpp compiles its own private copy of the
# implementation).
find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb REQUIRED)
add_library(gpulab_stb INTERFACE)
target_include_directories(gpulab_stb SYSTEM INTERFACE ${STB_INCLUDE_DIR})

add_library(gpulab_imgui INTERFACE)
target_link_libraries(gpulab_imgui INTERFACE PkgConfig::IMGUI glfw ${CMAKE_DL_LIBS})
