//! The baseline: a bare tokio-tungstenite echo server. It does what any WebSocket server must (accept,
//! handshake, read a frame, write a frame) and nothing else, so the game server's figures can be stated
//! as a share of it.

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

use super::conn::small_buffers;

/// Echoes every text and binary frame on every connection `listener` accepts, until the process ends.
/// Its sockets write frames straight to the socket and read into a buffer of `read_buffer` bytes.
///
/// # Errors
/// When accepting fails for a reason other than running out of file descriptors.
pub async fn serve(listener: TcpListener, read_buffer: usize) -> std::io::Result<()> {
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) if error.raw_os_error().is_some_and(|code| code == 24 || code == 23) => {
                // Out of file descriptors: wait for some to close, as axum does.
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
            Err(error) => return Err(error),
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(async move {
            let Ok(mut ws) = tokio_tungstenite::accept_async_with_config(
                stream,
                Some(small_buffers().read_buffer_size(read_buffer)),
            )
            .await
            else {
                return;
            };
            while let Some(Ok(message)) = ws.next().await {
                let data = matches!(message, Message::Text(_) | Message::Binary(_));
                if matches!(message, Message::Close(_)) || (data && ws.send(message).await.is_err()) {
                    break;
                }
            }
        });
    }
}
