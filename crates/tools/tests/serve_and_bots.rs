//! The real binaries end to end: `romirami serve` on a free port, `romirami bots` against it, then
//! SIGTERM, which must shut the server down cleanly.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

fn romirami() -> Command {
    Command::new(env!("CARGO_BIN_EXE_romirami"))
}

#[test]
fn bots_play_on_a_served_server_which_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = format!("sqlite://{}", dir.path().join("games.db").display());
    let mut server = romirami()
        .args(["serve", "--listen", "127.0.0.1:0", "--database-url", &database])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let stdout = server.stdout.take().expect("piped stdout");
    let mut first_line = String::new();
    BufReader::new(stdout).read_line(&mut first_line).expect("the server prints its address");
    let address = first_line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {first_line:?}"))
        .to_owned();

    let bots = romirami()
        .args(["bots", "--server", &format!("http://{address}"), "--games", "3", "--concurrency", "3"])
        .output()
        .expect("the bots run");
    let report = String::from_utf8_lossy(&bots.stdout);
    assert!(bots.status.success(), "bots failed: {report}");
    assert!(report.contains("3 games finished, 0 failed"), "{report}");

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
