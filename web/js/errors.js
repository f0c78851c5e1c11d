// @ts-check
// The server's refusals in plain words, in the reader's language: each error code (docs/protocol.md
// section 13) has its sentence, and an illegal move is told by the rule it breaks. The server's own
// message (in English, with rule numbers) is only read to tell which rule that is, never shown.

import { t } from './i18n.js';

/** @type {[RegExp, string, ((m: RegExpMatchArray) => Record<string, any>)?][]} */
const ILLEGAL = [
  [/share neither a number nor a suit/, 'illegal.take_mixed'],
  [/^take 1, 2 or 3 cards/, 'illegal.take_count'],
  [/not all in the number market/, 'illegal.not_in_market'],
  [/is not in the contract market/, 'illegal.contract_gone'],
  [/not all in your hand/, 'illegal.not_in_hand'],
  [/Star is already used/, 'illegal.star_used'],
  [/takes (\d+) cards from the hand/, 'illegal.contract_count', (m) => ({ n: Number(m[1]) })],
  [/cannot be split to meet the requirements/, 'illegal.contract_split'],
  [/^discard exactly (\d+) cards/, 'illegal.discard_count', (m) => ({ n: Number(m[1]) })],
  [/nothing to take back/, 'illegal.nothing_back'],
  [/^now you must/, 'illegal.wrong_step'],
];

/**
 * A refusal in words for people.
 * @param {{code: string, message?: string}} error
 * @param {{watching?: boolean, invite?: boolean, bot?: boolean}} [context]
 */
export function explainError(error, context = {}) {
  const { code, message = '' } = error;
  if (code === 'illegal_action') {
    for (const [pattern, key, params] of ILLEGAL) {
      const m = message.match(pattern);
      if (m) return t(key, params ? params(m) : {});
    }
    return t('illegal.other');
  }
  if (code === 'not_your_turn' && (context.bot || /bot is playing/.test(message))) return t('error.not_your_turn.bot');
  if (code === 'no_such_table' && !context.invite) {
    return t(context.watching ? 'error.no_such_table.private' : 'error.no_such_table.join');
  }
  const key = `error.${code}`;
  const text = t(key);
  return text === key ? t('error.other') : text;
}
