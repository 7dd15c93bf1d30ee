//! Behind a real nginx (Debian's package, `/usr/sbin/nginx` or `SWAPBOARD_TEST_NGINX`) set up
//! with the `location` block of docs/DEPLOY.md: with `--trusted-proxy`, clients coming from
//! different addresses each have their own limits, a client cannot choose its address with
//! `X-Forwarded-For`, and the live WebSocket works through the proxy. Without nginx the test
//! fails: it is never skipped (`.ci/test` installs it).

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;
use swapboard_server::{Limits, Rate, Server};
use swapboard_testkit::{
    Client, TestDb, bearer, connect, each_database, next_message, options, until,
};

/// A running nginx in front of one server, stopped (and its folder removed) when dropped.
struct Nginx {
    binary: String,
    child: Child,
    dir: PathBuf,
    base: String,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // `nginx -s stop` (SIGTERM to the master, which ends its workers): a SIGKILL to the
        // master would leave the workers running, orphaned.
        let stopped = Command::new(&self.binary)
            .arg("-p")
            .arg(&self.dir)
            .arg("-c")
            .arg(self.dir.join("nginx.conf"))
            .args(["-s", "stop"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !stopped {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The `location / { ... }` block of docs/DEPLOY.md's nginx configuration, as written there.
fn documented_location() -> String {
    let deploy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/DEPLOY.md");
    let text = std::fs::read_to_string(deploy).unwrap();
    let start = text
        .find("    location / {")
        .expect("docs/DEPLOY.md has a `location / {` block");
    let end = start + text[start..].find("\n    }\n").expect("the block ends") + 6;
    text[start..end].to_owned()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Nginx {
    /// Starts nginx on a free port of 127.0.0.1, proxying to `upstream` as documented.
    async fn start(upstream: SocketAddr) -> Nginx {
        let binary =
            std::env::var("SWAPBOARD_TEST_NGINX").unwrap_or_else(|_| "/usr/sbin/nginx".to_owned());
        let dir = std::env::temp_dir().join(format!(
            "swapboard_nginx_{}_{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(dir.join("logs")).unwrap();
        let port = free_port();
        let location = documented_location().replace("127.0.0.1:8080", &upstream.to_string());
        let d = dir.display();
        // Temporary files go to this test's folder; nginx's workers (`nobody` when the test
        // runs as root) write there.
        let config = format!(
            "worker_processes 1;\n\
             daemon off;\n\
             pid {d}/nginx.pid;\n\
             error_log {d}/logs/error.log warn;\n\
             events {{ worker_connections 512; }}\n\
             http {{\n\
                 access_log off;\n\
                 client_body_temp_path {d}/body;\n\
                 proxy_temp_path {d}/proxy;\n\
                 fastcgi_temp_path {d}/fastcgi;\n\
                 uwsgi_temp_path {d}/uwsgi;\n\
                 scgi_temp_path {d}/scgi;\n\
                 map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}\n\
                 server {{\n\
                     listen 127.0.0.1:{port};\n\
                 {location}\n\
                 }}\n\
             }}\n"
        );
        std::fs::write(dir.join("nginx.conf"), config).unwrap();
        for sub in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
            std::fs::set_permissions(
                dir.join(sub),
                std::os::unix::fs::PermissionsExt::from_mode(0o777),
            )
            .unwrap();
        }
        let child = Command::new(&binary)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            // Its output is its log file's: none of the test's pipes is held by its workers.
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "nginx is needed by this test and cannot be run at {binary} (apt-get install \
                     nginx, or set SWAPBOARD_TEST_NGINX): {e}"
                )
            });
        let nginx = Nginx {
            binary,
            child,
            dir,
            base: format!("http://127.0.0.1:{port}"),
        };
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return nginx;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let log = std::fs::read_to_string(nginx.dir.join("logs/error.log")).unwrap_or_default();
        panic!("nginx did not start: {log}");
    }
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

async fn sign_up(client: &Client, name: &str) -> u16 {
    let body = json!({"name": name, "password": "correct horse"});
    client
        .post("/api/accounts", &body, &[])
        .await
        .status
        .as_u16()
}

async fn limits_and_sockets_through_nginx(db: TestDb) -> TestDb {
    let mut limits = Limits::generous(100_000);
    limits.signup_per_address = Rate::new(2, Duration::from_secs(3600));
    let mut options = options(&db, limits);
    options.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let server = Server::start(&options).await.unwrap();
    let nginx = Nginx::start(server.addr()).await;

    // Two visitors from two addresses: each has its own two sign-ups.
    let ann = Client::from(&nginx.base, ip("127.0.0.2"));
    let bob = Client::from(&nginx.base, ip("127.0.0.3"));
    assert_eq!(sign_up(&ann, "ann1").await, 201);
    assert_eq!(sign_up(&ann, "ann2").await, 201);
    assert_eq!(sign_up(&ann, "ann3").await, 429);
    // Bob writes a false X-Forwarded-For and a false Forwarded each time: nginx appends his
    // real address to the first, which is the one counted, and clears the second (the server
    // would not read it either).
    for (i, expected) in [201, 201, 429, 429].into_iter().enumerate() {
        let body = json!({"name": format!("bob{i}"), "password": "correct horse"});
        let spoof = format!("198.51.100.{i}");
        let forged = format!("for=203.0.113.{i}");
        let headers = [("x-forwarded-for", spoof.as_str()), ("forwarded", &forged)];
        let answer = bob.post("/api/accounts", &body, &headers).await;
        assert_eq!(
            answer.status, expected,
            "bob's sign-up {i}: {}",
            answer.text
        );
    }
    // Straight to the server from an untrusted address, the header is ignored too: the
    // address is the peer's own, which has its own two sign-ups.
    let direct = Client::from(&format!("http://{}", server.addr()), ip("127.0.0.4"));
    for (i, expected) in [201, 201, 429].into_iter().enumerate() {
        let body = json!({"name": format!("cat{i}"), "password": "correct horse"});
        let answer = direct
            .post("/api/accounts", &body, &[("x-forwarded-for", "127.0.0.2")])
            .await;
        assert_eq!(
            answer.status, expected,
            "cat's sign-up {i}: {}",
            answer.text
        );
    }

    // A game's live socket through nginx: the state, then a join seen as it happens.
    let dan_client = Client::from(&nginx.base, ip("127.0.0.5"));
    let dan = bearer(&dan_client, "dan").await;
    let eve_client = Client::from(&nginx.base, ip("127.0.0.6"));
    let eve = bearer(&eve_client, "eve").await;
    let created = dan_client
        .post(
            "/api/games",
            &json!({"game": "swaptimum", "size": 5, "opponent": "open"}),
            &[("authorization", &dan)],
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_owned();
    let mut socket = connect(&dan_client, &format!("/api/games/{id}/socket")).await;
    let first = next_message(&mut socket, Duration::from_secs(10)).await;
    assert_eq!(first["type"], "state", "{first}");
    let joined = eve_client
        .post(
            &format!("/api/games/{id}/join"),
            &json!({}),
            &[("authorization", &eve)],
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    // With PostgreSQL the creation's own announcement may reach the socket first (it comes
    // back through LISTEN after the greeting): the join is the first message saying playing.
    let seen = until(&mut socket, Duration::from_secs(10), |game| {
        game["status"] == "playing"
    })
    .await;
    assert_eq!(seen["type"], "state", "{seen}");
    drop(socket);
    drop(nginx);
    server.stop().await.unwrap();
    db
}

each_database!(
    per_client_limits_and_websockets_work_behind_nginx,
    limits_and_sockets_through_nginx
);
