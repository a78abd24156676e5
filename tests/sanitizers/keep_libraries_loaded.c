/* Linked into every executable of a sanitizer build (GPULAB_SANITIZE, the asan and fuzz presets),
 * nowhere else: dlclose() keeps the library loaded.
 *
 * Why: EGL (libEGL_mesa) unloads Mesa's driver (swrast_dri.so, llvmpipe) when the display is
 * terminated, well before exit. Memory the driver allocated once and keeps in its own globals is
 * then referenced by nothing that is still mapped, and LeakSanitizer reports it at exit as a leak
 * from "<unknown module>", a frame that no suppression can name. With the driver still mapped that
 * memory is reachable, as it is in the driver's own view, and anything Mesa really leaks shows its
 * module's name (tests/sanitizers/lsan.supp). Defined in the executable, this dlclose() comes
 * before libc's in symbol lookup, for the libraries' calls too; nothing else changes. */
int dlclose(void* handle) {
  (void)handle;
  return 0;
}
