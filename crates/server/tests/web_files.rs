//! The server serves the web client's own files and nothing else from its folder: the folder also holds
//! the client's notes and its end-to-end test, which are no one's business but the developers'.

mod common;

use common::{TestServer, http_get};
use romirami_server::config::{Config, default_web_dir};

#[tokio::test]
async fn only_the_clients_own_files_are_served() {
    let web_dir = default_web_dir().expect("the source tree has the web client");
    let server = TestServer::start(Config { web_dir: Some(web_dir), ..Config::default() }).await;
    let http = server.http();
    for (path, content_type) in [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/style.css", "text/css"),
        ("/js/app.js", "javascript"),
        ("/js/connection.js", "javascript"),
    ] {
        let answer = http_get(&format!("{http}{path}"), "*/*").await;
        assert_eq!(answer.status, 200, "{path} is served");
        assert!(answer.content_type.contains(content_type), "{path} is {content_type}: {}", answer.content_type);
    }
    for path in
        ["/README.md", "/e2e/e2e.mjs", "/e2e/package.json", "/e2e/.gitignore", "/e2e/", "/js/../README.md", "/x.html"]
    {
        let answer = http_get(&format!("{http}{path}"), "*/*").await;
        assert_eq!(answer.status, 404, "{path} is not served: {}", answer.body);
    }
    // The API still answers beside the files.
    assert_eq!(http_get(&format!("{http}/api/health"), "application/json").await.status, 200);
    server.shutdown().await;
}
