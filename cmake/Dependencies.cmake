# Third-party libraries, all from Debian 12 packages (scripts/debian-packages.txt).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
find_package(glfw3 3.3 REQUIRED)
find_package(glm REQUIRED)

# Debian's libimgui-dev (1.86) ships a static libimgui.a with the GLFW and OpenGL3 backends inside.
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
# stb (stb_image, stb_image_write) is header-only in libstb-dev.
find_path(STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb REQUIRED)
add_library(gpulab_stb INTERFACE)
target_include_directories(gpulab_stb SYSTEM INTERFACE ${STB_INCLUDE_DIR})

add_library(gpulab_imgui INTERFACE)
target_link_libraries(gpulab_imgui INTERFACE PkgConfig::IMGUI glfw ${CMAKE_DL_LIBS})
