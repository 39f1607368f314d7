// GAUSS_API marks what libgauss exports to plugins and applications: the SDK's classes and
// functions. With hidden visibility (`-fvisibility=hidden`) everything without the mark stays
// private to the library; see docs/plugin-authoring.md for the state of this in the build.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define GAUSS_API __attribute__((visibility("default")))
#else
#define GAUSS_API
#endif
