//! The server serves the web client's own files and nothing else from its folder: the folder also holds
//! the client's notes and its end-to-end test, which are no one's business but the developers'.

use crate::common;

use common::{TestServer, http_get, quick_close};
use romirami_server::config::Config;
use romirami_server::web::WebClient;

/// The source tree's `web/`.
fn web_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

#[tokio::test]
async fn only_the_clients_own_files_are_served_built_in_or_from_a_folder() {
    for web in [WebClient::Embedded, WebClient::Folder(web_dir())] {
        only_the_clients_own_files_are_served(web).await;
    }
}

#[tokio::test]
async fn a_built_in_file_unchanged_is_not_sent_again() {
    let server = TestServer::start(quick_close()).await;
    let url = format!("{}/js/app.js", server.http());
    let first = ureq_get(&url, None).await;
    assert_eq!(first.0, 200);
    let etag = first.1.expect("an ETag");
    assert_eq!(ureq_get(&url, Some(&etag)).await.0, 304, "unchanged: not sent again");
    assert_eq!(ureq_get(&url, Some("\"other\"")).await.0, 200);
    let answer = http_get(&format!("{}/", server.http()), "*/*").await;
    assert!(answer.body.contains("<html"), "the page at /: {}", answer.body);
    server.shutdown().await;
}

/// `GET url` (with `If-None-Match: tag`): the status and the `ETag`.
async fn ureq_get(url: &str, tag: Option<&str>) -> (u16, Option<String>) {
    let (url, tag) = (url.to_owned(), tag.map(str::to_owned));
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut request = agent.get(&url);
        if let Some(tag) = tag {
            request = request.header("If-None-Match", tag);
        }
        let answer = request.call().expect("answered");
        let etag = answer.headers().get("etag").and_then(|v| v.to_str().ok()).map(str::to_owned);
        (answer.status().as_u16(), etag)
    })
    .await
    .expect("ran")
}

async fn only_the_clients_own_files_are_served(web: WebClient) {
    let server = TestServer::start(Config { web: web.clone(), ..quick_close() }).await;
    let http = server.http();
    for (path, content_type) in [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/style.css", "text/css"),
        ("/js/app.js", "javascript"),
        ("/js/connection.js", "javascript"),
    ] {
        let answer = http_get(&format!("{http}{path}"), "*/*").await;
        assert_eq!(answer.status, 200, "{path} is served ({web:?})");
        assert!(answer.content_type.contains(content_type), "{path} is {content_type}: {}", answer.content_type);
    }
    for path in
        ["/README.md", "/e2e/e2e.mjs", "/e2e/package.json", "/e2e/.gitignore", "/e2e/", "/js/../README.md", "/x.html"]
    {
        let answer = http_get(&format!("{http}{path}"), "*/*").await;
        assert_eq!(answer.status, 404, "{path} is not served ({web:?}): {}", answer.body);
    }
    // The API still answers beside the files.
    assert_eq!(http_get(&format!("{http}/api/health"), "application/json").await.status, 200);
    server.shutdown().await;
}

/// `GET url`: the status, the `Content-Security-Policy` and the `X-Frame-Options`, and the body.
async fn frame_headers(url: &str) -> (u16, Option<String>, Option<String>, String) {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut answer = agent.get(&url).call().expect("answered");
        let header = |name: &str| answer.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let (csp, xfo) = (header("content-security-policy"), header("x-frame-options"));
        let body = answer.body_mut().read_to_string().unwrap_or_default();
        (answer.status().as_u16(), csp, xfo, body)
    })
    .await
    .expect("ran")
}

#[tokio::test]
async fn only_the_embed_page_may_be_framed_by_another_site() {
    for web in [WebClient::Embedded, WebClient::Folder(web_dir())] {
        let server = TestServer::start(Config { web: web.clone(), ..quick_close() }).await;
        let http = server.http();
        let id = uuid::Uuid::new_v4();
        let (status, csp, xfo, body) = frame_headers(&format!("{http}/embed/{id}")).await;
        assert_eq!((status, csp.as_deref(), xfo), (200, Some("frame-ancestors *"), None), "{web:?}");
        assert!(body.contains(r#"<base href="/">"#), "the embed page names its files from the root: {body}");
        for path in ["/", "/index.html", "/js/app.js", "/api/health", "/api/games"] {
            let (_, csp, xfo, _) = frame_headers(&format!("{http}{path}")).await;
            assert_eq!(csp.as_deref(), Some("frame-ancestors 'none'"), "{path} refuses frames ({web:?})");
            assert_eq!(xfo.as_deref(), Some("DENY"), "{path} says so to old browsers ({web:?})");
        }
        server.shutdown().await;
    }
}
