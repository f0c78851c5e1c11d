//! Rebuilds the server when what it embeds at compile time changes: `sqlx::migrate!` embeds `migrations/`
//! and `rust-embed` the web client (`web/`), and cargo does not otherwise know that the crate depends on
//! those files (a file added to a folder included whole, above all).

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
    println!("cargo:rerun-if-changed=../../web/index.html");
    println!("cargo:rerun-if-changed=../../web/style.css");
    println!("cargo:rerun-if-changed=../../web/js");
    println!("cargo:rerun-if-changed=../../web/icons");
    println!("cargo:rerun-if-changed=../../web/sw.js");
    println!("cargo:rerun-if-changed=../../web/manifest.webmanifest");
}
