//! Graceful shutdown: a request under way when the server is told to stop is answered, and
//! stored; new connections are not accepted meanwhile. A request that takes too long is cut.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::json;
use swapboard_server::Limits;
use swapboard_testkit::{Client, TestDb, generous, start};

/// Sends the head of a sign-up whose body is `length` bytes long, and no body yet.
fn head_only(addr: std::net::SocketAddr, length: usize) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "POST /api/accounts HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n\r\n"
    )
    .unwrap();
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_under_way_finishes_after_the_stop() {
    let db = TestDb::sqlite();
    let server = start(&db, generous()).await;
    let addr = server.addr();
    let body = json!({"name": "late", "password": "12345678"}).to_string();

    // Send the head of a sign-up now and its body only after the stop.
    let mut stream = head_only(addr, body.len());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopping = tokio::spawn(server.stop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !stopping.is_finished(),
        "the server waits for the request under way"
    );
    assert!(
        TcpStream::connect(addr).is_err(),
        "no new connection is accepted"
    );

    let answer = tokio::task::spawn_blocking(move || {
        stream.write_all(body.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    stopping.await.unwrap().unwrap();

    // The account was stored: a new server on the same file knows the name.
    let server = start(&db, generous()).await;
    let again = Client::new(&server)
        .post(
            "/api/accounts",
            &json!({"name": "LATE", "password": "12345678"}),
            &[],
        )
        .await;
    again.assert_error(409, "conflict");
    server.stop().await.unwrap();
    db.drop_it().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_too_slow_to_come_is_cut_with_408() {
    let db = TestDb::sqlite();
    let limits = Limits {
        request_time: Duration::from_millis(500),
        ..generous()
    };
    let server = start(&db, limits).await;
    let mut stream = head_only(server.addr(), 40);
    let answer = tokio::task::spawn_blocking(move || {
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"timeout""#), "{answer}");
    server.stop().await.unwrap();
    db.drop_it().await;
}
