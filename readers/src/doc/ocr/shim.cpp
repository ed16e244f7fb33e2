// The C++ half of paw's Tesseract binding (the Rust half is tess.rs). Two things the C API
// cannot do:
// - start an engine whose language data (one or more languages, "eng+chi_sim") all comes
//   from memory: Tesseract's C++ Init takes a FileReader, the C API does not, and its
//   in-memory Init5 reads every language after the first from a file — which the worker's
//   sandbox refuses;
// - keep a C++ exception (std::bad_alloc at the worker's memory cap) from unwinding into
//   Rust: every entry point here catches it and answers an error code instead.

#include <tesseract/baseapi.h>
#include <tesseract/ocrclass.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

// The languages the current Init may load: set for the length of one paw_tess_init call
// on the calling thread (Tesseract calls the reader on that thread, during Init).
struct Languages {
  const char *const *names;
  const unsigned char *const *data;
  const std::size_t *lens;
  int count;
};

thread_local const Languages *current = nullptr;

// Serves "<anything>/<lang>.traineddata" from the table above; any other name is refused.
bool read_from_memory(const char *filename, std::vector<char> *out) {
  if (current == nullptr || filename == nullptr || out == nullptr) {
    return false;
  }
  std::string base(filename);
  std::size_t slash = base.find_last_of('/');
  if (slash != std::string::npos) {
    base = base.substr(slash + 1);
  }
  const std::string suffix = ".traineddata";
  if (base.size() <= suffix.size() ||
      base.compare(base.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  base.resize(base.size() - suffix.size());
  for (int i = 0; i < current->count; i++) {
    if (base == current->names[i]) {
      const char *start = reinterpret_cast<const char *>(current->data[i]);
      out->assign(start, start + current->lens[i]);
      return true;
    }
  }
  return false;
}

}  // namespace

extern "C" {

// Starts `api` for `language` ("eng", "eng+chi_sim", "osd") with engine mode `oem`, every
// language's data taken from the arrays. 0 on success.
int paw_tess_init(tesseract::TessBaseAPI *api, const char *language, int oem,
                  const char *const *names, const unsigned char *const *data,
                  const std::size_t *lens, int count) {
  Languages table{names, data, lens, count};
  current = &table;
  int rc = -1;
  try {
    // The data path only prefixes the names the reader is asked for; nothing is opened.
    rc = api->Init("/paw-memory/tessdata", 0, language,
                   static_cast<tesseract::OcrEngineMode>(oem), nullptr, 0, nullptr,
                   nullptr, false, read_from_memory);
  } catch (...) {
    rc = -2;
  }
  current = nullptr;
  return rc;
}

// SetImage: 8-bit gray pixels, copied by Tesseract. 0 on success.
int paw_tess_set_image(tesseract::TessBaseAPI *api, const unsigned char *pixels, int width,
                       int height, int bytes_per_line) {
  try {
    api->SetImage(pixels, width, height, 1, bytes_per_line);
    return 0;
  } catch (...) {
    return -2;
  }
}

// Recognize, stopped by `monitor`'s deadline. 0 on success.
int paw_tess_recognize(tesseract::TessBaseAPI *api, tesseract::ETEXT_DESC *monitor) {
  try {
    return api->Recognize(monitor);
  } catch (...) {
    return -2;
  }
}

// Orientation and script detection (an engine started with "osd"): how far the page is
// turned clockwise (0, 90, 180, 270) and the confidence. 0 on success.
int paw_tess_orientation(tesseract::TessBaseAPI *api, int *degrees, float *confidence) {
  try {
    const char *script = nullptr;
    float script_conf = 0;
    if (!api->DetectOrientationScript(degrees, confidence, &script, &script_conf)) {
      return -1;
    }
    return 0;
  } catch (...) {
    return -2;
  }
}

}  // extern "C"
