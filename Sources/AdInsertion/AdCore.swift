// `import AdInsertion` keeps meaning the whole ad side (the media-free AdCore plus the stitcher and the verifier),
// so pipctl and users need one import; AdCore alone is for code that must not link FFmpeg.
@_exported import AdCore
