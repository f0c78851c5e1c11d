// @ts-check
// The one WebSocket to the game server (docs/protocol.md): says hello with the stored token (or a name
// for a new guest), hands every server message to whoever listens for its type, numbers `act`s, and
// reconnects by itself after a dropped connection, telling the page so it can join its table again
// with `since` (protocol section 9).

import { identity, saveIdentity, forgetToken, signedOutByServer } from './identity.js';
import { contributeIfAsked, rememberCommitment } from './shuffle-proof.js';

const PROTOCOL = 1;

export class Connection {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {{id: string, name: string} | null} */
    this.player = null;
    this.status = 'idle'; // idle | connecting | open | reconnecting | need_name | refused
    /** @type {string | null} */
    this.refusal = null; // why the server refused the connection (too_many_connections, banned), in its words
    /** @type {string | null} */
    this.refusalCode = null;
    /** @type {Map<string, Set<(msg: any) => void>>} */
    this.listeners = new Map();
    this.nextActId = 1;
    this.retries = 0;
    this.everWelcomed = false;
    /** @type {{resolve: (player: any) => void, reject: (error: Error) => void}[]} */
    this.waiters = [];
    /** @type {string | null} */
    this.pendingName = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** Calls `fn(msg)` for every server message of this type ('*' for all); returns an unsubscribe. */
  /** @param {string} type @param {(msg: any) => void} fn @returns {() => void} */
  on(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(fn);
    return () => {
      this.listeners.get(type)?.delete(fn);
    };
  }

  /** @param {string} type @param {any} msg */
  emit(type, msg) {
    for (const fn of [...(this.listeners.get(type) ?? [])]) fn(msg);
    for (const fn of [...(this.listeners.get('*') ?? [])]) fn(msg);
  }

  /** @param {string} status */
  setStatus(status) {
    this.status = status;
    this.emit('status', { type: 'status', status, player: this.player });
  }

  /** Resolves with the player once welcomed; rejects with 'need_name' when there is no token and no name. */
  /** @param {string | null} [name] @returns {Promise<any>} */
  ready(name = null) {
    if (name) this.pendingName = name;
    if (this.status === 'open') return Promise.resolve(this.player);
    const { token } = identity();
    if (!token && !this.pendingName) return Promise.reject(new Error('need_name'));
    const promise = new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.ws) this.open();
    else if (this.ws.readyState === WebSocket.OPEN) this.hello();
    return promise;
  }

  open() {
    clearTimeout(this.timer);
    this.setStatus(this.everWelcomed ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => this.hello());
    ws.addEventListener('message', (e) => this.receive(e.data));
    ws.addEventListener('close', () => this.closed(ws));
  }

  hello() {
    const { token } = identity();
    if (token) this.sendRaw({ type: 'hello', protocol: PROTOCOL, token });
    else if (this.pendingName) this.sendRaw({ type: 'hello', protocol: PROTOCOL, name: this.pendingName });
    else {
      this.setStatus('need_name');
      for (const w of this.waiters.splice(0)) w.reject(new Error('need_name'));
    }
  }

  /** @param {string} data */
  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    // Every table message of a started game carries the shuffle's commitment: remembered for the game page's
    // check, whichever page (and game) received it.
    if (msg.type === 'table' && typeof msg.table?.shuffle === 'string') {
      rememberCommitment(msg.table.shuffle);
      // The deal waits for this seat's randomness: drawn here, where the server cannot see it coming.
      contributeIfAsked(msg, (m) => this.send(m));
    }
    if (msg.type === 'welcome') {
      this.player = msg.player;
      saveIdentity({ id: msg.player.id, name: msg.player.name, ...(msg.token ? { token: msg.token } : {}) });
      this.pendingName = null;
      /** @type {string | null} */
      this.refusal = null;
      const again = this.everWelcomed;
      this.everWelcomed = true;
      this.retries = 0;
      this.setStatus('open');
      for (const w of this.waiters.splice(0)) w.resolve(this.player);
      if (again) this.emit('reconnected', { type: 'reconnected', player: this.player });
      return;
    }
    if (msg.type === 'error' && (msg.code === 'not_dealing' || msg.code === 'already_contributed')) {
      // The answer to this browser's own contribution, sent by itself, that came after the deal was made (the
      // server drew the seat's) or twice (a second tab): nothing the player asked for, nothing to show.
      return;
    }
    if (msg.type === 'error' && msg.code === 'signed_out') {
      // This browser's token was ended (signed out here or everywhere, a new password, a deleted account): it
      // forgets the player and starts again, signed out, saying why.
      signedOutByServer();
      return;
    }
    if (msg.type === 'error' && msg.code === 'banned') {
      // Banned (at hello, or while connected): say why and for how long; the server closes the connection,
      // and hellos again are refused until the ban ends.
      this.refusal = msg.message;
      this.refusalCode = 'banned';
      this.setStatus('refused');
      for (const w of this.waiters.splice(0)) w.reject(Object.assign(new Error(msg.message), { code: msg.code }));
      return;
    }
    if (msg.type === 'error' && msg.code === 'too_many_connections') {
      // Too many tabs or devices on this address: the server closes this connection next. Say why, and
      // try again later than after a dropped connection (closing another tab makes room).
      this.refusal = msg.message;
      this.refusalCode = 'too_many_connections';
      this.setStatus('refused');
      return;
    }
    // A refused new guest (bad name, a name another player keeps, or too many new guests from this
    // address) is asked for a name again, with the server's words.
    if (
      msg.type === 'error' &&
      this.status !== 'open' &&
      ['bad_token', 'bad_name', 'name_taken', 'unsupported_protocol', 'too_many_guests'].includes(msg.code)
    ) {
      if (msg.code === 'bad_token') {
        // The server no longer knows this guest (a restart): start again as a new guest with the same name.
        const { name } = identity();
        forgetToken();
        if (name) {
          this.pendingName = name;
          this.hello();
          return;
        }
      }
      this.setStatus('need_name');
      for (const w of this.waiters.splice(0)) w.reject(Object.assign(new Error(msg.message), { code: msg.code }));
      return;
    }
    this.emit(msg.type, msg);
  }

  /** @param {WebSocket} ws */
  closed(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    const wasOpen = this.status === 'open';
    if (this.status === 'need_name' && !this.everWelcomed) return;
    if (this.status === 'refused') {
      this.timer = setTimeout(() => this.open(), 10000);
      return;
    }
    // Back off 0.3 s, 0.6 s, 1.2 s … up to 5 s between attempts.
    const delay = wasOpen ? 150 : Math.min(5000, 300 * 2 ** this.retries++);
    this.setStatus('reconnecting');
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** @param {Record<string, any>} msg */
  sendRaw(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Sends a message once greeted; returns false when the connection is down. */
  /** @param {Record<string, any>} msg */
  send(msg) {
    if (this.status !== 'open') return false;
    return this.sendRaw(msg);
  }

  /** Sends an `act` and returns its id (the server echoes it in `ack` or `error`). */
  /** @param {string} table @param {Record<string, any>} action @returns {number | null} */
  act(table, action) {
    const id = this.nextActId++;
    return this.send({ type: 'act', table, id, action }) ? id : null;
  }

  /** The network is back (the browser says so): try at once rather than at the next retry's time. */
  reconnectNow() {
    if (this.ws || this.status !== 'reconnecting') return;
    this.retries = 0;
    this.open();
  }

  /** Drops the socket as a network failure would (used by the end-to-end test). */
  drop() {
    this.ws?.close();
  }
}

export const connection = new Connection(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
