//! Builds the C interface `ipopt_cnlp` (cnlp/src, upstream's C++ wrapper of IPOPT's
//! `TNLP`) against the system's IPOPT, found with pkg-config, and links both.
//!
//! Upstream's build script (ipopt-sys 0.6.0) also downloads and builds IPOPT where none is
//! installed, builds the wrapper with cmake and runs bindgen at every build, which brings
//! curl, tar, rust-crypto, bindgen and libclang into every build of the workspace. This one
//! does the system-IPOPT path alone, with the `cc` crate, and the bindings are committed
//! (src/bindings.rs); vendor/README.md says why. The wrapper includes IPOPT's headers by
//! their names alone, found in the include directory pkg-config gives: `…/include/coin` for
//! IPOPT 3.11–3.13 (Debian 12), `…/include/coin-or` for 3.14 (Debian 13, Ubuntu 24.04).

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
    cc::Build::new()
        .cpp(true)
        .std("c++11")
        .define("HAVE_CSTDDEF", None)
        .includes(&ipopt.include_paths)
        .file("cnlp/src/c_api.cpp")
        .file("cnlp/src/nlp.cpp")
        .warnings(false)
        .compile("ipopt_cnlp");
    // After the wrapper, which needs them: IPOPT, and what pkg-config says it links where
    // IPOPT is a static library only.
    for path in &ipopt.link_paths {
        println!("cargo:rustc-link-search=native={}", path.display());
    }
    if has_shared_ipopt(&ipopt.link_paths) {
        println!("cargo:rustc-link-lib=ipopt");
    } else {
        for lib in &ipopt.libs {
            println!("cargo:rustc-link-lib={lib}");
        }
    }
}

/// Whether a shared libipopt lies in one of `link_paths` or of the system's library
/// directories. A shared library records its own dependencies, and Debian's `ipopt.pc` lists
/// them (`-llapack -lblas -ldmumps_seq -lgfortran …`) where their development links, such as
/// `liblapack.so`, may be missing (an OpenBLAS-only system), so that linking them all fails.
fn has_shared_ipopt(link_paths: &[PathBuf]) -> bool {
    let mut dirs: Vec<PathBuf> = link_paths.to_vec();
    for system in ["/usr/lib", "/usr/lib64", "/usr/local/lib"] {
        dirs.push(PathBuf::from(system));
        // Debian's multiarch directories (`/usr/lib/x86_64-linux-gnu`).
        if let Ok(entries) = std::fs::read_dir(system) {
            dirs.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.to_string_lossy().ends_with("-linux-gnu")),
            );
        }
    }
    dirs.iter().any(|dir| {
        ["libipopt.so", "libipopt.dylib"]
            .iter()
            .any(|name| dir.join(name).exists())
    })
}
