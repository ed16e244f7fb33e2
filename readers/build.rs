//! Links Tesseract (OCR in `doc extract`, `src/doc/ocr/`) and compiles the small
//! C++ shim that starts it from language data held in memory. Tesseract is a system
//! library: `scripts/deps` installs it (Debian: libtesseract-dev).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=src/doc/ocr/shim.cpp");
    // pkg-config names the include folders (Leptonica's headers are not in the default
    // path); a missing library is named here rather than by a compiler error further on.
    let pkg_config = |what: &str| {
        Command::new("pkg-config")
            .args([what, "tesseract"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let (Some(cflags), Some(libdirs)) =
        (pkg_config("--cflags-only-I"), pkg_config("--libs-only-L"))
    else {
        panic!(
            "Tesseract is not installed (pkg-config finds no `tesseract`): run scripts/deps, \
             or on Debian: apt-get install pkg-config libtesseract-dev"
        );
    };
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .file("src/doc/ocr/shim.cpp")
        .warnings(true);
    for dir in cflags
        .split_whitespace()
        .filter_map(|f| f.strip_prefix("-I"))
    {
        build.include(dir);
    }
    build.compile("paw_tess_shim");
    // Outside the system's default folders (e.g. Homebrew's prefix).
    for dir in libdirs
        .split_whitespace()
        .filter_map(|f| f.strip_prefix("-L"))
    {
        println!("cargo:rustc-link-search=native={dir}");
    }
    println!("cargo:rustc-link-lib=tesseract");
}
