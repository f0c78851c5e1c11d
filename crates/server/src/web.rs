//! The web client's files: built into the binary, so that `romirami serve` copied anywhere serves its
//! pages, or read from a folder (`serve --web-dir web`) while one works on the client.
//!
//! Only the client's own files are served — `index.html` (also at `/`), `style.css`, `js/`, the web app's
//! manifest and icons, and its service worker `sw.js` — and nothing else of `web/` (its notes, its
//! end-to-end test); `/embed/<game id>` is the same page, for another site's frame, where it shows that
//! game's replay alone. The service worker is served with the list of the client's files and a hash of
//! them written in (`FILES`, `VERSION`), so that it caches them all at its install (the page then opens
//! offline) and a new client makes a new worker.
//!
//! Frames: no page of the server may be framed by another site (`Content-Security-Policy:
//! frame-ancestors 'none'` and `X-Frame-Options: DENY` on every answer, `refuse_frames`), but the embed
//! page, which any site may frame (`frame-ancestors *`). Every build carries their bytes, debug builds
//! too (`rust-embed`'s `debug-embed`), so that what the tests serve is what a release serves; the crate's
//! build script rebuilds it when a file of the client changes.

use std::path::{Path, PathBuf};

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::services::{ServeDir, ServeFile};

/// Where the web client's files come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum WebClient {
    /// The files built into the binary.
    #[default]
    Embedded,
    /// The client's files in this folder (`index.html`, `style.css`, `js/`), read at each request.
    Folder(PathBuf),
    /// No pages: the API and the WebSocket only.
    Off,
}

/// The client's files as the binary carries them.
#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
#[include = "index.html"]
#[include = "style.css"]
#[include = "js/**/*"]
#[include = "manifest.webmanifest"]
#[include = "icons/*.png"]
#[include = "sw.js"]
struct Embedded;

/// The routes that serve `client`'s files.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>(client: &WebClient) -> Router<S> {
    match client {
        WebClient::Embedded => Router::new()
            .route("/", get(embedded))
            .route("/index.html", get(embedded))
            .route("/style.css", get(embedded))
            .route("/js/{*path}", get(embedded))
            .route("/manifest.webmanifest", get(embedded))
            .route("/icons/{file}", get(embedded))
            .route("/sw.js", get(|| async { embedded_service_worker() }))
            .route(
                "/embed/{id}",
                get(|| async { embed_page(Embedded::get("index.html").map(|f| f.data.into_owned())) }),
            ),
        WebClient::Folder(dir) => {
            let page = dir.join("index.html");
            folder(dir).route("/embed/{id}", get(move || async move { embed_page(std::fs::read(&page).ok()) }))
        }
        WebClient::Off => Router::new(),
    }
}

/// The page at `/embed/<id>`: the client's page, its files named from the root (a `<base>`), that any site
/// may frame. The client reads the game's id from the address; an id that names no game shows as such.
fn embed_page(index: Option<Vec<u8>>) -> Response {
    let Some(page) = index.and_then(|bytes| String::from_utf8(bytes).ok()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let page = page.replacen("<head>", "<head>\n  <base href=\"/\">", 1);
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("frame-ancestors *")),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
    ];
    (headers, page).into_response()
}

/// Refuses frames on every answer that does not allow them itself (only the embed page does): clickjacking
/// a table's buttons from another site is not possible.
pub(crate) async fn refuse_frames(request: Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("frame-ancestors 'none'"));
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

/// The files of a folder.
fn folder<S: Clone + Send + Sync + 'static>(dir: &Path) -> Router<S> {
    let page = ServeFile::new(dir.join("index.html"));
    let root = dir.to_owned();
    Router::new()
        .route_service("/", page.clone())
        .route_service("/index.html", page)
        .route_service("/style.css", ServeFile::new(dir.join("style.css")))
        .route_service("/manifest.webmanifest", ServeFile::new(dir.join("manifest.webmanifest")))
        .nest_service("/js", ServeDir::new(dir.join("js")))
        .nest_service("/icons", ServeDir::new(dir.join("icons")))
        .route("/sw.js", get(move || async move { folder_service_worker(&root) }))
}

/// The service worker with the built-in client's files.
fn embedded_service_worker() -> Response {
    let files = Embedded::iter()
        .filter(|path| path != "sw.js")
        .filter_map(|path| Embedded::get(&path).map(|file| (path.into_owned(), file.metadata.sha256_hash())))
        .collect();
    service_worker(Embedded::get("sw.js").map(|file| file.data.into_owned()), files)
}

/// The service worker with a folder's client files (read at every request: it is for working on the client).
fn folder_service_worker(dir: &Path) -> Response {
    use sha2::{Digest, Sha256};
    let mut files = Vec::new();
    let mut add = |path: String| {
        if let Ok(bytes) = std::fs::read(dir.join(&path)) {
            files.push((path, Sha256::digest(&bytes).into()));
        }
    };
    for path in ["index.html", "style.css", "manifest.webmanifest"] {
        add(path.to_owned());
    }
    let mut folders = vec![PathBuf::from("js"), PathBuf::from("icons")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&folder)) else { continue };
        for entry in entries.flatten() {
            let path = folder.join(entry.file_name());
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                folders.push(path);
            } else if let Some(path) = path.to_str() {
                add(path.replace('\\', "/"));
            }
        }
    }
    service_worker(std::fs::read(dir.join("sw.js")).ok(), files)
}

/// `sw.js` with `FILES` (every file's URL, and `/`) and `VERSION` (a hash of their hashes) written in.
fn service_worker(template: Option<Vec<u8>>, mut files: Vec<(String, [u8; 32])>) -> Response {
    use sha2::{Digest, Sha256};
    let Some(template) = template.and_then(|bytes| String::from_utf8(bytes).ok()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    files.sort();
    let mut version = Sha256::new();
    let mut urls = vec!["/".to_owned()];
    for (path, hash) in &files {
        version.update(path.as_bytes());
        version.update(hash);
        urls.push(format!("/{path}"));
    }
    let version = hex::encode(&version.finalize()[..8]);
    let urls = serde_json::to_string(&urls).unwrap_or_else(|_| "[]".into());
    let script =
        template.replacen("/* FILES */ []", &urls, 1).replacen("/* VERSION */ 'dev'", &format!("'{version}'"), 1);
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8")),
        // The browser checks for a new worker at every navigation; it must never be served from a cache.
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
    ];
    (headers, script).into_response()
}

/// One built-in file, with its type and an `ETag`, so that a browser asks again at each load (a new
/// release shows at once) but downloads only what changed.
async fn embedded(request: Request) -> Response {
    let path = match request.uri().path().trim_start_matches('/') {
        "" => "index.html",
        path => path,
    };
    // A path that leaves the folder (`js/../x`) is no file of the client's, whatever it would lead to.
    if path.split('/').any(|part| part == ".." || part == "." || part.is_empty()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let Some(file) = Embedded::get(path) else { return StatusCode::NOT_FOUND.into_response() };
    let etag = format!("\"{}\"", hex::encode(file.metadata.sha256_hash()));
    let mut headers = HeaderMap::new();
    if let Ok(content_type) = HeaderValue::from_str(file.metadata.mimetype()) {
        headers.insert(header::CONTENT_TYPE, content_type);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    let unchanged = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag || tag.trim() == "*"));
    if unchanged {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (headers, file.data.into_owned()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_built_in_and_only_its_own_files() {
        for path in [
            "index.html",
            "style.css",
            "js/app.js",
            "js/i18n.js",
            "sw.js",
            "manifest.webmanifest",
            "icons/icon-192.png",
        ] {
            assert!(Embedded::get(path).is_some(), "{path} is built in");
        }
        assert_eq!(Embedded::get("index.html").expect("built in").metadata.mimetype(), "text/html");
        for path in ["README.md", "e2e/e2e.mjs", "e2e/package.json"] {
            assert!(Embedded::get(path).is_none(), "{path} is not the client's");
        }
    }

    #[test]
    fn the_service_worker_lists_every_file_of_the_client_and_a_version_of_them() {
        let response = embedded_service_worker();
        assert_eq!(response.status(), StatusCode::OK);
        let body = futures_util::FutureExt::now_or_never(axum::body::to_bytes(response.into_body(), usize::MAX))
            .expect("a body in memory")
            .expect("a body");
        let script = String::from_utf8(body.to_vec()).expect("text");
        for url in
            ["\"/\"", "\"/index.html\"", "\"/js/app.js\"", "\"/icons/icon-512.png\"", "\"/manifest.webmanifest\""]
        {
            assert!(script.contains(url), "{url} is cached");
        }
        assert!(!script.contains("\"/sw.js\""), "the worker does not cache itself");
        assert!(!script.contains("/* VERSION */ 'dev'"), "a version is written in");
    }
}
