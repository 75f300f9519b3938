//! Deflate and inflate with the browser's own `CompressionStream` and `DecompressionStream`
//! (raw DEFLATE), so that compressed links add no compressor to the wasm. Both are
//! asynchronous; [`inflate`] stops at a limit, a piece at a time, so a small hostile link
//! cannot expand into gigabytes.

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStream, ReadableStreamDefaultReader, ReadableWritablePair, WritableStream};

// web-sys has these only behind `--cfg=web_sys_unstable_apis`; the three members used are
// declared here instead.
#[wasm_bindgen]
extern "C" {
    type CompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &CompressionStream) -> ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &CompressionStream) -> WritableStream;

    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> WritableStream;
}

/// The bytes, deflated.
pub async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let cs = CompressionStream::new("deflate-raw").map_err(describe)?;
    let pair = ReadableWritablePair::new(&cs.readable(), &cs.writable());
    read_all(source(bytes)?.pipe_through(&pair), usize::MAX).await
}

/// The bytes, inflated, if they inflate to at most `limit` bytes. Past the limit it stops within
/// a piece's worth of output ([`PIECE`]) rather than inflating the whole first.
pub async fn inflate(bytes: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    let ds = DecompressionStream::new("deflate-raw").map_err(describe)?;
    let writer = ds.writable().get_writer().map_err(describe)?;
    let pieces: Vec<Uint8Array> = bytes.chunks(PIECE).map(Uint8Array::from).collect();
    // Each piece is written once the last one's output has been read (a write waits for the
    // stream's backpressure), and none once the reader has given up (the write fails).
    wasm_bindgen_futures::spawn_local(async move {
        for piece in pieces {
            if JsFuture::from(writer.write_with_chunk(&piece)).await.is_err() {
                return;
            }
        }
        let _ = JsFuture::from(writer.close()).await;
    });
    read_all(ds.readable(), limit).await
}

/// How much compressed input the browser inflates at a time. The stream inflates each chunk it
/// is given whole, and DEFLATE turns a byte into at most 1,032: a 194 KB link written in one
/// chunk became 167 MB before a byte of it was read. A piece of 256 bytes is at most 264 KB.
const PIECE: usize = 256;

fn source(bytes: &[u8]) -> Result<ReadableStream, String> {
    let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
    Ok(web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(describe)?.stream())
}

async fn read_all(stream: ReadableStream, limit: usize) -> Result<Vec<u8>, String> {
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut out = Vec::new();
    loop {
        let chunk =
            JsFuture::from(reader.read()).await.map_err(|_| "the link is cut short or corrupted: it does not inflate".to_string())?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            return Ok(out);
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into()).map_err(describe)?.unchecked_into();
        if out.len() + value.length() as usize > limit {
            let _ = reader.cancel();
            return Err(format!("the link's scenario is larger than {limit} bytes"));
        }
        out.extend_from_slice(&value.to_vec());
    }
}

fn describe(e: JsValue) -> String {
    crate::library::describe(&e)
}
