# Shared by scripts/run and scripts/test (sourced): installs the Debian packages that are missing,
# finds CUDA, configures and builds. Set GPULAB_PRESET to choose a CMake preset.
set -euo pipefail
GPULAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$GPULAB_ROOT"

gpulab_say() { printf 'gpulab: %s\n' "$*" >&2; }

gpulab_install_packages() {
  local wanted missing=()
  wanted=$(sed 's/#.*//' scripts/debian-packages.txt | tr -s ' \n' '\n' | sed '/^$/d')
  for p in $wanted; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  gpulab_say "installing missing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { gpulab_say "not root and no sudo: install these first: ${missing[*]}"; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

gpulab_find_cuda() {
  if ! command -v nvcc >/dev/null 2>&1; then
    for d in /usr/local/cuda/bin /usr/local/cuda-13*/bin /usr/local/cuda-12*/bin; do
      if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
    done
  fi
  if command -v nvcc >/dev/null 2>&1; then
    # nvcc is there, but may not run (a copied toolkit without its libraries, the wrong architecture):
    # say what happened rather than an empty version, and build the CPU backend.
    local nvcc out rc=0
    nvcc=$(command -v nvcc)
    out=$(nvcc --version 2>&1) || rc=$?
    local version
    version=$(printf '%s\n' "$out" | grep -m1 -i 'release' || true)
    if [ "$rc" -eq 0 ] && [ -n "$version" ]; then
      export CUDACXX=${CUDACXX:-$nvcc}
      gpulab_say "CUDA: $(printf '%s\n' "$out" | sed '/^$/d' | tail -1)"
    else
      local said
      said=$(printf '%s\n' "$out" | sed '/^$/d' | head -1 | cut -c1-200 | tr -d '\000-\010\013-\037')
      if [ "$rc" -ne 0 ]; then
        gpulab_say "CUDA: $nvcc does not run (nvcc --version exited with status $rc${said:+: $said}): building the CPU backend only"
      else
        gpulab_say "CUDA: $nvcc --version did not say its release (${said:-it printed nothing}): building the CPU backend only"
      fi
      export GPULAB_NVCC_BROKEN=1
    fi
  else
    gpulab_say "no CUDA toolkit found: building the CPU backend only"
  fi
}

# gpulab_build PRESET [TARGET...]: configure and build (everything, or just the targets named).
gpulab_build() {
  local preset=$1
  shift
  # A broken nvcc (gpulab_find_cuda said so): the CPU backend, rather than a configure that fails on it.
  local cuda_off=()
  [ "${GPULAB_NVCC_BROKEN:-0}" = 1 ] && cuda_off=(-DGPULAB_CUDA=OFF)
  cmake --preset "$preset" "${cuda_off[@]}" >/dev/null
  if [ $# -gt 0 ]; then
    cmake --build --preset "$preset" --target "$@"
  else
    cmake --build --preset "$preset"
  fi
}
