// The engine protocol (docs/protocol.md) over the game's WebSocket: each request gets an id,
// and its reply resolves the promise that request() returned. Replies come in request order;
// "analyze" sends reports first, handed to the onUpdate callback.

export class Engine {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, onUpdate}
    this.onClose = (reason) => {};
    this.closed = false;
  }

  // Opens the socket; resolves once it is open, rejects with the server's refusal.
  connect() {
    return new Promise((resolve, reject) => {
      this.socket = new WebSocket(this.url);
      this.socket.onopen = () => resolve();
      this.socket.onerror = () => reject(new Error("the server refused the game (too many open?)"));
      this.socket.onclose = (event) => {
        this.closed = true;
        for (const { reject: fail } of this.pending.values()) fail(new Error("connection closed"));
        this.pending.clear();
        this.onClose(event.reason); // the server's reason, such as an idle game closed
      };
      this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    });
  }

  receive(reply) {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    if (reply.cmd === "analyze" && reply.final === false) {
      if (waiting.onUpdate) waiting.onUpdate(reply);
      return;
    }
    this.pending.delete(reply.id);
    waiting.resolve(reply);
  }

  // Sends one request; resolves with its reply, ok or not (callers read reply.ok and
  // reply.error.message); rejects at once when the connection is closed.
  request(cmd, fields = {}, onUpdate = null) {
    const id = this.nextId++;
    const message = { cmd, id, ...fields };
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject(new Error("the connection to the server is closed"));
        return;
      }
      this.pending.set(id, { resolve, reject, onUpdate });
      this.socket.send(JSON.stringify(message));
    });
  }

  // Closes the connection without reporting it through onClose.
  close() {
    this.onClose = () => {};
    if (this.socket) this.socket.close();
  }

  // Like request(), but throws the server's error message when the reply is not ok.
  async must(cmd, fields = {}, onUpdate = null) {
    const reply = await this.request(cmd, fields, onUpdate);
    if (!reply.ok) throw new Error(reply.error.message);
    return reply;
  }
}
