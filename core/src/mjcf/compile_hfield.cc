// Compiling <asset><hfield>: reading the elevation grid and scaling it, and placing hfield
// geoms.
//
// Rules measured against MuJoCo 2.2.2 (and MuJoCo 3.12 for `elevation`, which 2.2.2 lacks):
//  - PNG: decoded to 8 bits per sample (16-bit samples keep their high byte); colour images
//    give their red channel (what MuJoCo's PNG decoder does when asked for grey). The image's
//    top row becomes the last grid row (largest y), so that the picture seen from above has
//    its usual orientation.
//  - Binary (any other extension): int32 nrow, int32 ncol, then nrow x ncol float32, row 0
//    first (smallest y), little-endian; the file size must match exactly.
//  - Inline elevation (MuJoCo 3.x): nrow x ncol values written top row first, i.e. the first
//    written row is the last grid row, as in a PNG.
//  - nrow and ncol without a file or elevation: zeros, for a program to fill later.
//  - The samples are single precision; they are scaled to [0, 1] in single precision:
//    (v - min) / (max - min), only shifted when max - min <= 1e-15 (an all-zero field stays 0).
//  - Files are looked for like meshes: the model's folder + compiler meshdir, strippath.
//  - An hfield geom's size is (radius_x, radius_y, (elevation_z + base_z) / 2); its bounding
//    radius is 0 (the broad phase tests it against every geom) and it has no mass.
#include <png.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mjcf/compiler.h"

namespace gauss::mjcf {
namespace {

// libpng reports errors through this callback: keep the message and return to the setjmp of
// DecodePng (libpng requires the error function not to return).
[[noreturn]] void PngError(png_structp png, png_const_charp message) {
  char* buffer = static_cast<char*>(png_get_error_ptr(png));
  std::snprintf(buffer, 256, "%s", message);
  std::longjmp(png_jmpbuf(png), 1);
}

void PngWarning(png_structp, png_const_charp) {}  // warnings (e.g. bad CRC of a text chunk)

// Buffers of DecodePng. They belong to its caller, so that a libpng error (a longjmp, which runs
// no destructors) leaves nothing behind.
struct PngBuffers {
  std::vector<unsigned char> pixels;  // width x height samples, top row first
  std::vector<unsigned char> rows;    // the decoded rows
  std::vector<png_bytep> starts;      // row pointers into `rows`
};

// Decodes an open PNG file into one 8-bit sample per pixel (grey, or red for colour images),
// rows top to bottom. Returns false with a message in `error` (256 chars).
// (file) => (buffers, width, height)
bool DecodePng(std::FILE* file, PngBuffers* buf, png_uint_32* width, png_uint_32* height,
               char* error) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, error, PngError, PngWarning);
  if (!png) {
    std::snprintf(error, 256, "out of memory");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    return false;
  }
  png_init_io(png, file);
  png_read_info(png, info);
  const int color = png_get_color_type(png, info);
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY) png_set_expand_gray_1_2_4_to_8(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_read_update_info(png, info);
  *width = png_get_image_width(png, info);
  *height = png_get_image_height(png, info);
  const png_size_t rowbytes = png_get_rowbytes(png, info);
  const int channels = png_get_channels(png, info);
  buf->rows.resize(rowbytes * *height);
  buf->starts.resize(*height);
  for (png_uint_32 r = 0; r < *height; ++r) buf->starts[r] = buf->rows.data() + r * rowbytes;
  png_read_image(png, buf->starts.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  buf->pixels.resize(static_cast<std::size_t>(*width) * *height);
  for (png_uint_32 r = 0; r < *height; ++r) {
    for (png_uint_32 c = 0; c < *width; ++c) {
      buf->pixels[r * *width + c] = buf->rows[r * rowbytes + c * channels];  // grey or red
    }
  }
  return true;
}

// (PNG file) => (nrow, ncol, samples with row 0 = the image's bottom row)
void ReadPng(const std::string& path, const ErrorLocation& where, int* nrow, int* ncol,
             std::vector<float>* data) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw Error(where, "cannot open height field file '" + path + "'");
  unsigned char signature[8] = {0};
  const bool is_png = std::fread(signature, 1, 8, file) == 8 && png_sig_cmp(signature, 0, 8) == 0;
  std::rewind(file);
  if (!is_png) {
    std::fclose(file);
    throw Error(where, "height field file '" + path + "' is not a PNG image (bad signature)");
  }
  PngBuffers buf;
  png_uint_32 width = 0, height = 0;
  char error[256] = "";
  const bool ok = DecodePng(file, &buf, &width, &height, error);
  std::fclose(file);
  if (!ok) throw Error(where, "corrupted PNG height field '" + path + "': " + error);
  if (width < 2 || height < 2) {
    throw Error(where, "height field image '" + path + "' must be at least 2 x 2 pixels, found " +
                           std::to_string(width) + " x " + std::to_string(height));
  }
  *nrow = static_cast<int>(height);
  *ncol = static_cast<int>(width);
  data->resize(buf.pixels.size());
  for (int r = 0; r < *nrow; ++r) {
    const int flipped = *nrow - 1 - r;
    for (int c = 0; c < *ncol; ++c) {
      (*data)[static_cast<std::size_t>(flipped) * *ncol + c] = buf.pixels[r * *ncol + c];
    }
  }
}

// (binary file: int32 nrow, int32 ncol, float32 samples) => (nrow, ncol, samples)
void ReadBinary(const std::string& path, const ErrorLocation& where, int* nrow, int* ncol,
                std::vector<float>* data) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(where, "cannot open height field file '" + path + "'");
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::int32_t header[2] = {0, 0};
  if (bytes.size() < sizeof header) {
    throw Error(where, "height field file '" + path + "' is shorter than its 8-byte header "
                       "(int32 nrow, int32 ncol)");
  }
  std::memcpy(header, bytes.data(), sizeof header);
  if (header[0] < 2 || header[1] < 2) {
    throw Error(where, "height field file '" + path + "': nrow and ncol must be at least 2, "
                       "found " + std::to_string(header[0]) + " x " + std::to_string(header[1]));
  }
  const std::size_t n = static_cast<std::size_t>(header[0]) * static_cast<std::size_t>(header[1]);
  if (bytes.size() != sizeof header + n * sizeof(float)) {
    throw Error(where, "height field file '" + path + "' has " + std::to_string(bytes.size()) +
                           " bytes; its header (" + std::to_string(header[0]) + " x " +
                           std::to_string(header[1]) + ") needs " +
                           std::to_string(sizeof header + n * sizeof(float)));
  }
  *nrow = header[0];
  *ncol = header[1];
  data->resize(n);
  std::memcpy(data->data(), bytes.data() + sizeof header, n * sizeof(float));
}

// Samples scaled to [0, 1] in single precision, as MuJoCo 2.2.2 does. (data) => (data)
void Normalize(std::vector<float>* data) {
  float lo = (*data)[0], hi = (*data)[0];
  for (float v : *data) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const float range = hi - lo;
  for (float& v : *data) {
    v -= lo;
    if (range > 1e-15f) v /= range;
  }
}

// Everything about one height field. (spec hfield) => (hfield_* rows of m)
void CompileHfield(const ModelSpec& spec, const HfieldSpec& hs, Model& m) {
  int nrow = hs.nrow, ncol = hs.ncol;
  std::vector<float> data;
  if (!hs.file.empty()) {
    const ErrorLocation where = hs.src.Where("file");
    const std::string path = ResolveMeshPath(spec, hs.file);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      const std::string folder = std::filesystem::path(spec.base_path).parent_path().string();
      throw Error(where, "height field file '" + hs.file + "' not found: tried " +
                             std::filesystem::absolute(path, ec).lexically_normal().string() +
                             " (the model's folder '" + (folder.empty() ? "." : folder) +
                             "' + compiler meshdir '" + spec.compiler.meshdir + "')");
    }
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (ext == ".png") {
      ReadPng(path, where, &nrow, &ncol, &data);
    } else {
      ReadBinary(path, where, &nrow, &ncol, &data);
    }
  } else if (!hs.elevation.empty()) {
    data.resize(hs.elevation.size());
    for (int r = 0; r < nrow; ++r) {  // first written row = last grid row
      for (int c = 0; c < ncol; ++c) {
        data[static_cast<std::size_t>(nrow - 1 - r) * ncol + c] =
            static_cast<float>(hs.elevation[static_cast<std::size_t>(r) * ncol + c]);
      }
    }
  } else {
    data.assign(static_cast<std::size_t>(nrow) * ncol, 0.0f);
  }
  Normalize(&data);

  m.hfield_size.insert(m.hfield_size.end(), hs.size, hs.size + 4);
  m.hfield_nrow.push_back(nrow);
  m.hfield_ncol.push_back(ncol);
  m.hfield_adr.push_back(m.nhfielddata);
  m.hfield_data.insert(m.hfield_data.end(), data.begin(), data.end());
  m.hfield_name.push_back(hs.name);
  m.nhfielddata += nrow * ncol;
  ++m.nhfield;
}

}  // namespace

// (spec hfields) => (hfield_*, c->hfield_names)
void CompileHfields(CompileContext* c) {
  for (const HfieldSpec& hs : c->spec->hfields) {
    c->hfield_names.Add(hs.name, c->m->nhfield, hs.src, "hfield");
    CompileHfield(*c->spec, hs, *c->m);
  }
}

// (geom's hfield attribute, compiled height fields) => (size), height field id
int PlaceHfieldGeom(const CompileContext& c, const GeomSpec& g, double size[3]) {
  if (g.hfield.empty()) {
    throw Error(g.src.Where("hfield"), "an hfield geom needs the hfield attribute");
  }
  const int id = c.hfield_names.Require(g.hfield, g.src, "hfield", "hfield");
  const double* s = c.m->hfield_size.data() + 4 * id;
  size[0] = s[0];
  size[1] = s[1];
  size[2] = 0.5 * (s[2] + s[3]);
  return id;
}

}  // namespace gauss::mjcf
