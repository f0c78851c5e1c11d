// @ts-check
// The table's chat (docs/protocol.md section 11b): the players' chat, and the spectators' which the
// players read only once the game is over. Messages are shown as text, never as markup. The input
// and its form are made once and moved into each redraw, so that what is being typed survives the
// page's redraws; the list stays at its newest line unless its reader scrolled back; a message refused
// for coming too fast goes back into the input; a member may mute another player for themselves.

import { h, scrollState, restoreScroll } from '../dom.js';
import { t } from '../i18n.js';
import { connection } from '../connection.js';
import { reportPlayer } from '../api.js';
import { identity } from '../identity.js';

/** The longest message the server takes, in characters (protocol section 5, `chat`). */
const MAX_CHARS = 300;

/**
 * @typedef {object} ChatLine
 * @property {number} n
 * @property {{id: string, name: string}} from
 * @property {'players' | 'spectators'} channel
 * @property {string} text
 */

/**
 * The chat of one table page.
 * @param {import('./state.js').Ctx} ctx
 */
export function tableChat(ctx) {
  /** @type {ChatLine[]} */
  let lines = [];
  /** @type {Set<string>} */
  const muted = new Set();
  /** The lines this reader reported (by chat and number), each once. @type {Set<string>} */
  const reported = new Set();
  /** A line's key: each chat numbers its own lines. @param {ChatLine} line */
  const keyOf = (line) => `${line.channel}-${line.n}`;
  let error = '';
  let sentAt = -Infinity;
  /** The last message sent, given back to the input if the server refuses it as too fast. */
  let lastSent = '';
  /** @type {HTMLElement | null} the list of messages as last drawn */
  let shown = null;

  const input = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'chat-input',
      'data-key': 'chat-input',
      maxlength: MAX_CHARS,
      autocomplete: 'off',
      'aria-label': t('chat.label'),
      placeholder: t('chat.placeholder'),
    })
  );
  const button = h('button', { type: 'submit', id: 'chat-send', 'data-key': 'chat-send' }, t('chat.send'));
  const form = h(
    'form.chat-form',
    {
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        ctx.send('chat', { text });
        sentAt = performance.now();
        lastSent = text;
        error = '';
        input.value = '';
        ctx.draw();
      },
    },
    input,
    button,
  );

  /** @param {ChatLine} line */
  function lineItem(line) {
    const me = line.from.id === connection.player?.id;
    const isMuted = muted.has(line.from.id);
    return h(
      'li',
      // Not `players`: that class is the players' panel's, whose grid would pull the line apart.
      {
        class: line.channel === 'spectators' ? 'chat-spectators' : 'chat-players',
        'data-n': line.n,
        'data-channel': line.channel,
      },
      h('strong.chat-name', line.from.name),
      line.channel === 'spectators' ? h('span.badge.small', t('chat.spectator')) : null,
      h('span.chat-text', line.text),
      me
        ? null
        : h(
            'button.small.chat-mute',
            {
              type: 'button',
              'data-key': `mute-${keyOf(line)}`,
              title: t(isMuted ? 'chat.unmuteTitle' : 'chat.muteTitle', { name: line.from.name }),
              onclick: () => ctx.send('mute', { player: line.from.id, muted: !isMuted }),
            },
            t(isMuted ? 'chat.unmute' : 'chat.mute'),
          ),
      me
        ? null
        : h(
            'button.small.chat-report',
            {
              type: 'button',
              'data-key': `report-${keyOf(line)}`,
              disabled: reported.has(keyOf(line)),
              title: t('report.title', { name: line.from.name }),
              onclick: () => report(line),
            },
            t(reported.has(keyOf(line)) ? 'report.done' : 'report.button'),
          ),
    );
  }

  /** Reports a line to the admins, with the reader's reason. @param {ChatLine} line */
  async function report(line) {
    const reason = prompt(t('report.why', { name: line.from.name }))?.trim();
    const { token } = identity();
    if (!reason || !token) return;
    try {
      await reportPlayer(token, { player: line.from.id, table: ctx.tableId, chat: line.n, reason });
      reported.add(keyOf(line));
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    ctx.draw();
  }

  return {
    /** New messages. @param {ChatLine[]} more */
    add(more) {
      // Each chat numbers its own lines: a line is new when it follows the last one of its chat.
      for (const line of more) {
        let last = -1;
        for (const kept of lines) if (kept.channel === line.channel) last = kept.n;
        if (line.n > last) lines.push(line);
      }
      lines = lines.slice(-200);
    },
    /** Every message the reader may read, in place of what the page had. @param {ChatLine[]} all */
    replace(all) {
      lines = all.slice(-200);
    },
    /** The answer to a `mute`. @param {string} player @param {boolean} isMuted */
    muted(player, isMuted) {
      if (isMuted) muted.add(player);
      else muted.delete(player);
    },
    /**
     * A refusal that is the chat's: shown in the chat panel. Returns whether it was.
     * @param {{code: string}} msg @param {string} words
     */
    refused(msg, words) {
      const mine =
        msg.code === 'bad_chat' ||
        msg.code === 'bad_mute' ||
        (msg.code === 'rate_limited' && performance.now() - sentAt < 3000);
      if (mine) error = msg.code === 'rate_limited' ? t('chat.tooFast') : words;
      // Not lost: the refused message is back in the input, to send again (unless a new one is typed).
      if (mine && msg.code === 'rate_limited' && !input.value) input.value = lastSent;
      return mine;
    },
    /** The texts shown, for the test hook: `name: text`. */
    texts: () => lines.map((line) => `${line.from.name}: ${line.text}`),
    /** The chat's panel. */
    panel() {
      input.setAttribute('aria-label', t('chat.label'));
      input.placeholder = t('chat.placeholder');
      button.textContent = t('chat.send');
      const seated = ctx.mySeat() != null;
      const over = ctx.st.result != null || ctx.st.summary?.state === 'finished';
      // Where the reader left the list; the new list is put there once the page has drawn it.
      const was = shown?.isConnected ? scrollState(shown) : null;
      const list = lines.length
        ? h(
            'ol',
            { tabindex: '0', 'aria-label': t('chat.title'), 'aria-live': 'polite', id: 'chat-lines' },
            lines.map(lineItem),
          )
        : null;
      shown = list;
      if (list) queueMicrotask(() => restoreScroll(list, was));
      return h(
        'section.chat',
        { 'aria-labelledby': 'chat-title' },
        h('h2.label', { id: 'chat-title' }, t('chat.title')),
        list ?? h('p.muted.small', t('chat.empty')),
        over ? null : h('p.muted.small', t(seated ? 'chat.noteSeat' : 'chat.noteSpectator')),
        form,
        error ? h('p.error.small', { role: 'alert', id: 'chat-error' }, error) : null,
      );
    },
  };
}
