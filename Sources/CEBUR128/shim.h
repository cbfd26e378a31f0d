// libebur128 1.2 from Debian (libebur128-dev): ITU-R BS.1770-4 loudness with EBU R128 gating, loudness range
// (EBU Tech 3342) and true peak. Nothing here needs a shim; the header is imported as it is.
#include <ebur128.h>
