//! `corridor serve`: a bad file is refused before anything listens; otherwise it prints
//! its loopback address and serves the page there. (The page itself is tested in
//! headless Chromium by corridor-serve's browser test.)

use std::io::{BufRead, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn a_missing_file_is_an_error_before_serving() {
    let o = Command::new(env!("CARGO_BIN_EXE_corridor"))
        .args(["serve", "no-such-file.map", "--port", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr.contains("no-such-file.map"), "{stderr}");
}

#[test]
fn it_prints_its_address_and_serves_the_page_there() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_corridor"))
        .args(["serve", "builtin:military", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .trim()
        .strip_prefix("corridor serve: http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_owned();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let page = get("/");
    let script = get("/app.js");
    let missing = get("/nothing");
    let _ = child.kill();
    let _ = child.wait();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<canvas id=\"view\">"));
    assert!(script.contains("window.corridorState"));
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
}
