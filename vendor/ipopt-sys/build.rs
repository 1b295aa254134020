//! Builds the C interface `ipopt_cnlp` (cnlp/src, upstream's C++ wrapper of IPOPT's
//! `TNLP`) against the system's IPOPT, found with pkg-config, and links both.
//!
//! Upstream's build script (ipopt-sys 0.6.0) also downloads and builds IPOPT where none is
//! installed, builds the wrapper with cmake and runs bindgen at every build, which brings
//! curl, tar, rust-crypto, bindgen and libclang into every build of the workspace. This one
//! does the system-IPOPT path alone, with the `cc` crate, and the bindings are committed
//! (src/bindings.rs); vendor/README.md says why.

use std::path::PathBuf;

/// The oldest IPOPT upstream's build script accepts.
const MIN_VERSION: &str = "3.11.9";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=cnlp/src");
    let ipopt = match pkg_config::Config::new()
        .atleast_version(MIN_VERSION)
        .cargo_metadata(false)
        .probe("ipopt")
    {
        Ok(lib) => lib,
        Err(err) => panic!(
            "IPOPT {} or newer was not found with pkg-config ({}); install it (Debian and \
             Ubuntu: coinor-libipopt-dev; scripts/system-deps.sh does)",
            MIN_VERSION, err
        ),
    };
    // The wrapper includes `<coin/IpIpoptApplication.hpp>`: the directory above IPOPT's own
    // include directory (`…/include/coin`) serves it, as upstream's cmake `find_path` did.
    let mut includes: Vec<PathBuf> = Vec::new();
    for dir in &ipopt.include_paths {
        includes.push(dir.clone());
        if let Some(parent) = dir.parent() {
            includes.push(parent.to_path_buf());
        }
    }
    cc::Build::new()
        .cpp(true)
        .std("c++11")
        .define("HAVE_CSTDDEF", None)
        .includes(&includes)
        .file("cnlp/src/c_api.cpp")
        .file("cnlp/src/nlp.cpp")
        .warnings(false)
        .compile("ipopt_cnlp");
    // After the wrapper, which needs them: IPOPT and what pkg-config says it links.
    for path in &ipopt.link_paths {
        println!("cargo:rustc-link-search=native={}", path.display());
    }
    for lib in &ipopt.libs {
        println!("cargo:rustc-link-lib={lib}");
    }
}
