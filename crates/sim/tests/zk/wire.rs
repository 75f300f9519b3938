//! A minimal ZooKeeper client over TCP (the jute encoding of ZooKeeper 3.x): connect, create,
//! delete, getChildren, exists with a watch, ping and closeSession, one request at a time. Every
//! packet is a 4-byte big-endian length and its bytes; a reply starts with a header (xid, the
//! server's zxid, an error code). Watch notifications (xid -1) that arrive before a reply are
//! kept, in order, for the caller.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// ZooKeeper's opcodes and the error codes the suite meets.
const CREATE2: i32 = 15;
const DELETE: i32 = 2;
const EXISTS: i32 = 3;
const GET_CHILDREN: i32 = 8;
const PING: i32 = 11;
const CLOSE_SESSION: i32 = -11;
pub const NO_NODE: i32 = -101;
pub const NODE_EXISTS: i32 = -110;
/// The event type of a watch notification for a deleted znode.
pub const NODE_DELETED: i32 = 2;

/// `create` flags.
pub const PERSISTENT: i32 = 0;
pub const EPHEMERAL_SEQUENTIAL: i32 = 3;

/// A reply: the server's zxid in its header, its error code, and its body.
#[derive(Debug)]
pub struct Reply {
    pub zxid: i64,
    pub err: i32,
    body: Vec<u8>,
    at: usize,
}

impl Reply {
    fn int(&mut self) -> i32 {
        let v = i32::from_be_bytes(self.body[self.at..self.at + 4].try_into().unwrap());
        self.at += 4;
        v
    }

    fn long(&mut self) -> i64 {
        let v = i64::from_be_bytes(self.body[self.at..self.at + 8].try_into().unwrap());
        self.at += 8;
        v
    }

    fn string(&mut self) -> String {
        let n = self.int().max(0) as usize;
        let s = String::from_utf8_lossy(&self.body[self.at..self.at + n]).into_owned();
        self.at += n;
        s
    }

    /// The czxid of a Stat (its first field), skipping the rest.
    fn stat_czxid(&mut self) -> i64 {
        let czxid = self.long();
        self.at += 8 * 3 + 4 * 3 + 8 + 4 * 2 + 8;
        czxid
    }
}

/// A request's body, written field by field.
#[derive(Default)]
struct Body(Vec<u8>);

impl Body {
    fn int(mut self, v: i32) -> Body {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn long(mut self, v: i64) -> Body {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn bool(mut self, v: bool) -> Body {
        self.0.push(v as u8);
        self
    }
    fn bytes(self, v: &[u8]) -> Body {
        let mut b = self.int(v.len() as i32);
        b.0.extend_from_slice(v);
        b
    }
    fn string(self, s: &str) -> Body {
        self.bytes(s.as_bytes())
    }
}

/// A session: its connection, its id and negotiated timeout, and the notifications received.
pub struct Session {
    stream: TcpStream,
    pub id: i64,
    pub timeout_ms: i32,
    passwd: Vec<u8>,
    xid: i32,
    /// Watch notifications received so far and not yet taken: (event type, path).
    pub events: Vec<(i32, String)>,
}

fn open(port: u16) -> std::io::Result<TcpStream> {
    let s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_nodelay(true)?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    Ok(s)
}

fn send(stream: &mut TcpStream, body: Body) -> std::io::Result<()> {
    let mut packet = (body.0.len() as i32).to_be_bytes().to_vec();
    packet.extend_from_slice(&body.0);
    stream.write_all(&packet)
}

fn receive(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut len = [0; 4];
    stream.read_exact(&mut len)?;
    let mut body = vec![0; i32::from_be_bytes(len).max(0) as usize];
    stream.read_exact(&mut body)?;
    Ok(body)
}

/// The answer to a connect: a session, or (timeout 0) word that the session asked for expired.
fn handshake(port: u16, timeout_ms: i32, id: i64, passwd: &[u8]) -> std::io::Result<Session> {
    let mut stream = open(port)?;
    let req = Body::default().int(0).long(0).int(timeout_ms).long(id).bytes(passwd).bool(false);
    send(&mut stream, req)?;
    let body = receive(&mut stream)?;
    let mut r = Reply { zxid: 0, err: 0, body, at: 0 };
    let _protocol = r.int();
    let timeout_ms = r.int();
    let id = r.long();
    let n = r.int().max(0) as usize;
    let passwd = r.body[r.at..r.at + n].to_vec();
    Ok(Session { stream, id, timeout_ms, passwd, xid: 0, events: Vec::new() })
}

impl Session {
    /// Opens a new session asking for this timeout.
    pub fn connect(port: u16, timeout_ms: i32) -> std::io::Result<Session> {
        handshake(port, timeout_ms, 0, &[0; 16])
    }

    /// Whether the server still knows this session: it answers a reconnect with the session's
    /// id and password with a timeout of 0 when the session has expired.
    pub fn still_valid(&self, port: u16) -> std::io::Result<bool> {
        let again = handshake(port, self.timeout_ms, self.id, &self.passwd)?;
        Ok(again.timeout_ms > 0)
    }

    fn call(&mut self, op: i32, body: Body) -> std::io::Result<Reply> {
        let xid = if op == PING {
            -2
        } else {
            self.xid += 1;
            self.xid
        };
        let mut packet = Body::default().int(xid).int(op);
        packet.0.extend_from_slice(&body.0);
        send(&mut self.stream, packet)?;
        loop {
            let body = receive(&mut self.stream)?;
            let mut r = Reply { zxid: 0, err: 0, body, at: 0 };
            let got = r.int();
            r.zxid = r.long();
            r.err = r.int();
            if got == -1 {
                let kind = r.int();
                let _state = r.int();
                self.events.push((kind, r.string()));
                continue;
            }
            assert_eq!(got, xid, "a reply to another request");
            return Ok(r);
        }
    }

    /// `create` with open ACLs: (the error code, the created path, its czxid, the header zxid).
    pub fn create(&mut self, path: &str, flags: i32) -> std::io::Result<(i32, String, i64, i64)> {
        let acl = Body::default().int(1).int(31).string("world").string("anyone");
        let body = Body::default().string(path).int(-1);
        let body = Body(body.0.into_iter().chain(acl.0).collect()).int(flags);
        let mut r = self.call(CREATE2, body)?;
        if r.err != 0 {
            return Ok((r.err, String::new(), 0, r.zxid));
        }
        let path = r.string();
        Ok((0, path, r.stat_czxid(), r.zxid))
    }

    /// `delete` at any version: (the error code, the header zxid).
    pub fn delete(&mut self, path: &str) -> std::io::Result<(i32, i64)> {
        let r = self.call(DELETE, Body::default().string(path).int(-1))?;
        Ok((r.err, r.zxid))
    }

    /// `exists` with a watch: (whether it exists, the header zxid).
    pub fn exists_watch(&mut self, path: &str) -> std::io::Result<(bool, i64)> {
        let r = self.call(EXISTS, Body::default().string(path).bool(true))?;
        assert!(r.err == 0 || r.err == NO_NODE, "exists {path}: error {}", r.err);
        Ok((r.err == 0, r.zxid))
    }

    /// `getChildren` without a watch: (the children's names, the header zxid).
    pub fn children(&mut self, path: &str) -> std::io::Result<(Vec<String>, i64)> {
        let mut r = self.call(GET_CHILDREN, Body::default().string(path).bool(false))?;
        assert_eq!(r.err, 0, "getChildren {path}");
        let n = r.int();
        let names = (0..n).map(|_| r.string()).collect();
        Ok((names, r.zxid))
    }

    /// A ping: the header zxid, or the error.
    pub fn ping(&mut self) -> std::io::Result<i64> {
        Ok(self.call(PING, Body::default())?.zxid)
    }

    /// `closeSession`: the header zxid.
    pub fn close(&mut self) -> std::io::Result<i64> {
        let r = self.call(CLOSE_SESSION, Body::default())?;
        assert_eq!(r.err, 0, "closeSession");
        Ok(r.zxid)
    }
}
