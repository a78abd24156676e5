# Chooses CMAKE_CUDA_ARCHITECTURES once, before enable_language(CUDA), unless a preset or the command
# line already set it: the local GPU ("native") when one is visible, else a list of real targets for
# the common recent GPUs plus PTX for the newest, which the driver JIT-compiles for anything newer.
# "default-list" asks for that list even where a GPU is visible. CI compiles every kernel for both
# ends of it (the ci preset for sm_75, scripts/check-archs for the newest PTX), so a kernel that needs
# a newer GPU than the oldest on the list (sm_75, Turing: GTX 16xx, RTX 20xx) cannot land.
set(GPULAB_DEFAULT_CUDA_ARCHITECTURES "75-real;86-real;89-real;90-real;120")
if(CMAKE_CUDA_ARCHITECTURES STREQUAL "default-list")
  set(CMAKE_CUDA_ARCHITECTURES "${GPULAB_DEFAULT_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures" FORCE)
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  set(_gpulab_native OFF)
  find_program(_gpulab_nvidia_smi nvidia-smi)
  if(_gpulab_nvidia_smi)
    execute_process(COMMAND ${_gpulab_nvidia_smi} -L RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_QUIET)
    if(_rc EQUAL 0 AND _out MATCHES "GPU 0")
      set(_gpulab_native ON)
    endif()
  endif()
  if(_gpulab_native)
    set(CMAKE_CUDA_ARCHITECTURES native CACHE STRING "CUDA architectures")
  else()
    set(CMAKE_CUDA_ARCHITECTURES "${GPULAB_DEFAULT_CUDA_ARCHITECTURES}" CACHE STRING "CUDA architectures")
  endif()
endif()
message(STATUS "gpulab: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES}")
