// One JSON-RPC connection to the daemon, through the bridge's WebSocket: each message is one
// line of the daemon's protocol. Requests get ids and promises; notifications go to listeners.

/** An error reply from the daemon: `code`, `kind` and `field` from its `error`. */
export class RPCError extends Error {
  constructor(error) {
    super(error.message);
    this.code = error.code;
    this.kind = error.data?.kind;
    this.field = error.data?.field;
    this.data = error.data ?? {};
  }
}

export class Connection {
  #socket;
  #nextID = 1;
  #pending = new Map();
  #listeners = new Map();

  /** Opens the bridge's WebSocket at `url`; resolves once it is open. */
  static open(url) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener("open", () => resolve(new Connection(socket)), { once: true });
      socket.addEventListener("error", () => reject(new Error("The bridge refused the page's connection.")), { once: true });
    });
  }

  constructor(socket) {
    this.#socket = socket;
    socket.addEventListener("message", (event) => this.#receive(event.data));
    socket.addEventListener("close", (event) => {
      for (const { reject } of this.#pending.values()) reject(new Error(event.reason || "The connection closed."));
      this.#pending.clear();
      this.#emit("close", { reason: event.reason });
    });
  }

  /** Sends `method` with `params`; resolves with the result, rejects with an `RPCError`. */
  call(method, params) {
    const id = this.#nextID++;
    const message = params === undefined ? { id, method } : { id, method, params };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify(message));
    });
  }

  /** Calls `handler(params)` for every notification named `method` (and "close"). */
  on(method, handler) {
    if (!this.#listeners.has(method)) this.#listeners.set(method, []);
    this.#listeners.get(method).push(handler);
  }

  #emit(method, params) {
    for (const handler of this.#listeners.get(method) ?? []) handler(params);
  }

  #receive(text) {
    const message = JSON.parse(text);
    if (message.method !== undefined && message.id === undefined) {
      this.#emit(message.method, message.params);
      return;
    }
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (message.error) waiting.reject(new RPCError(message.error));
    else waiting.resolve(message.result);
  }
}
