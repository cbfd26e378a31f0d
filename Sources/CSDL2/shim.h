// SDL 2.26 from Debian (libsdl2-dev): `pipctl play --show`'s window, its input and its sound, as ffplay uses them.
// Included as <SDL2/SDL.h> rather than through sdl2.pc, whose -D_REENTRANT SwiftPM refuses with a warning (SDL's
// headers include each other by quotes, so no include path is needed). SDL_main.h is kept out: pipctl has its own main.
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>

// Macros Swift cannot import.
static inline Uint32 pipctl_SDL_WINDOWPOS_CENTERED(void) { return SDL_WINDOWPOS_CENTERED; }
static inline Uint32 pipctl_SDL_PIXELFORMAT_IYUV(void) { return SDL_PIXELFORMAT_IYUV; }
static inline SDL_AudioFormat pipctl_AUDIO_F32SYS(void) { return AUDIO_F32SYS; }
