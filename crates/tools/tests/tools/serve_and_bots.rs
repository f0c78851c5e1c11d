//! The real binaries end to end: `romirami serve` on a free port, `romirami bots` against it, the
//! records it serves checked by `romirami verify` (their shuffle proofs with them), then SIGTERM, which
//! must shut the server down cleanly.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{romirami, serve};

#[test]
fn bots_play_on_a_served_server_which_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = format!("sqlite://{}", dir.path().join("games.db").display());
    let (mut server, address) = serve(&database, &[]);

    let bots = romirami()
        .args(["bots", "--server", &format!("http://{address}"), "--games", "3", "--concurrency", "3"])
        .output()
        .expect("the bots run");
    let report = String::from_utf8_lossy(&bots.stdout);
    assert!(bots.status.success(), "bots failed: {report}");
    assert!(report.contains("3 games finished, 0 failed"), "{report}");
    verify_served_records(&address, 3, &dir.path().join("records"));

    let pid = server.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(killed.success());
    let (exited, exit) = std::sync::mpsc::channel();
    std::thread::spawn(move || exited.send(server.wait()));
    let status = exit
        .recv_timeout(Duration::from_secs(20))
        .expect("the server stops within 20 s of SIGTERM")
        .expect("the server can be waited for");
    assert!(status.success(), "the server exits cleanly after SIGTERM: {status}");
}

fn get(url: &str) -> String {
    ureq::get(url).call().expect("served").body_mut().read_to_string().expect("text")
}

/// Writes the records of the `games` finished games the server at `address` serves into `out`, and has
/// `romirami verify` check them: each carries a shuffle proof, which verifies.
fn verify_served_records(address: &str, games: usize, out: &std::path::Path) {
    let list = (0..100)
        .map(|_| {
            let list: serde_json::Value =
                serde_json::from_str(&get(&format!("http://{address}/api/games?limit=100"))).expect("JSON");
            std::thread::sleep(Duration::from_millis(50));
            list
        })
        .find(|list| list["games"].as_array().is_some_and(|g| g.len() == games))
        .expect("every finished game is listed");
    std::fs::create_dir(out).expect("a directory");
    for game in list["games"].as_array().expect("games") {
        let id = game["id"].as_str().expect("an id");
        let record = get(&format!("http://{address}/api/games/{id}/record"));
        let json: serde_json::Value = serde_json::from_str(&record).expect("JSON");
        assert!(["seed", "salt", "commitment"].iter().all(|f| json[f].is_string()), "a shuffle proof: {record}");
        std::fs::write(out.join(format!("{id}.json")), record).expect("written");
    }
    let verified = romirami().arg("verify").arg(out).output().expect("verify runs");
    let report = String::from_utf8_lossy(&verified.stdout);
    assert!(verified.status.success(), "{report}");
    assert_eq!(report, format!("{games} records, {games} valid, 0 invalid\n"));
}

/// The binary carries its web client: copied alone into an empty folder and started there, it serves
/// the page and its modules. It also writes its log as one JSON object a line when asked to, and its
/// text log without colour codes when standard error is not a terminal.
#[test]
fn the_binary_copied_alone_serves_its_client_and_logs_as_asked() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let binary = dir.path().join("romirami");
    std::fs::copy(env!("CARGO_BIN_EXE_romirami"), &binary).expect("copied");
    for format in ["json", "text"] {
        let mut server = Command::new(&binary)
            .args(["serve", "--listen", "127.0.0.1:0", "--database-url", "sqlite://games.db", "--log-format", format])
            .current_dir(dir.path())
            .env_clear()
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut first_line = String::new();
        BufReader::new(server.stdout.take().expect("piped stdout"))
            .read_line(&mut first_line)
            .expect("the server prints its address");
        let address = first_line.split("http://").nth(1).and_then(|rest| rest.split('/').next()).expect("an address");
        let page = get(&format!("http://{address}/"));
        assert!(page.contains("<html") && page.contains("js/app.js"), "the page: {page}");
        assert!(get(&format!("http://{address}/js/app.js")).contains("import"), "a module of the client");
        server.kill().expect("stopped");
        server.wait().expect("waited for");
        let mut log = String::new();
        std::io::Read::read_to_string(&mut server.stderr.take().expect("piped stderr"), &mut log).expect("the log");
        let serving = log.lines().find(|line| line.contains("serving")).unwrap_or_else(|| panic!("{format}: {log}"));
        assert!(!log.contains('\u{1b}'), "{format}: no colour codes off a terminal: {log:?}");
        if format == "json" {
            let line: serde_json::Value = serde_json::from_str(serving).expect("a JSON object a line");
            assert_eq!(line["level"], "INFO", "{line}");
            assert_eq!(line["fields"]["message"], "serving", "{line}");
        }
    }
}
