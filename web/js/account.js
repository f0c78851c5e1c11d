// @ts-check
// Names you keep (docs/protocol.md section 3): the lobby's account area. It says whether this browser's
// player keeps their name (#account-status), lets a guest keep it with a password (#claim-…), and signs in
// with a kept name (#signin-…), after which this browser uses the player's new token: the same player, with
// their games and ratings, as in the browser where they first played.

import { claimName, getPlayer, signIn } from './api.js';
import { h, replace } from './dom.js';
import { identity, saveIdentity, wasSignedOut } from './identity.js';
import { t } from './i18n.js';

/** The codes of a refused claim or sign-in that have a sentence of their own. */
const KNOWN = [
  'bad_password',
  'bad_name',
  'bad_token',
  'already_claimed',
  'name_taken',
  'wrong_name_or_password',
  'too_many_attempts',
  'wrong_password',
  'at_a_table',
  'name_not_kept',
  'unavailable',
  'network',
];

/** A refused claim or sign-in in the reader's language. @param {any} error */
export function accountError(error) {
  const code = error?.code;
  if (KNOWN.includes(code)) return t(`account.error.${code}`, { seconds: error.retryAfter ?? 60 });
  return error instanceof Error ? error.message : String(error);
}

/** A password field. @param {string} id @param {string} label @param {string} autocomplete */
function passwordField(id, label, autocomplete) {
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id, type: 'password', required: true, minlength: 8, maxlength: 128, autocomplete })
  );
  return { input, field: h('div.field', h('label', { for: id }, label), input) };
}

/** The form that keeps `name`, the player's. @param {string} name @param {() => void} done */
function claimForm(name, done) {
  const first = passwordField('claim-password', t('account.password'), 'new-password');
  const again = passwordField('claim-password-again', t('account.passwordAgain'), 'new-password');
  const error = h('p.error', { role: 'alert' });
  const button = /** @type {HTMLButtonElement} */ (
    h('button.primary', { id: 'claim-submit', type: 'submit' }, t('account.claim'))
  );
  return h(
    'form.account-form.claim-form',
    {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        error.textContent = '';
        if (first.input.value !== again.input.value) {
          error.textContent = t('account.mismatch');
          return;
        }
        const { token } = identity();
        if (!token) return;
        button.disabled = true;
        try {
          await claimName(token, first.input.value);
          done();
        } catch (err) {
          error.textContent = accountError(err);
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h3', t('account.claimTitle')),
    h('p.muted.small', t('account.claimNote')),
    // For the browser's password manager, which files a new password under the name it goes with.
    h('input', { type: 'text', name: 'username', autocomplete: 'username', value: name, hidden: true, readonly: true }),
    first.field,
    again.field,
    button,
    error,
  );
}

/** The form that signs in with a kept name; the page is loaded again as the signed-in player. */
function signInForm() {
  const name = /** @type {HTMLInputElement} */ (
    h('input', { id: 'signin-name', required: true, maxlength: 24, autocomplete: 'username' })
  );
  const password = passwordField('signin-password', t('account.yourPassword'), 'current-password');
  const error = h('p.error', { role: 'alert' });
  const button = /** @type {HTMLButtonElement} */ (
    h('button', { id: 'signin-submit', type: 'submit' }, t('account.signIn'))
  );
  return h(
    'form.account-form.signin-form',
    {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        error.textContent = '';
        button.disabled = true;
        try {
          const answer = await signIn(name.value.trim(), password.input.value);
          saveIdentity({ id: answer.player.id, name: answer.player.name, token: answer.token });
          // The connection greets the server again with the new token: the same player as elsewhere.
          location.reload();
        } catch (err) {
          error.textContent = accountError(err);
          button.disabled = false;
        }
      },
    },
    h('div.field', h('label', { for: 'signin-name' }, t('account.name')), name),
    password.field,
    button,
    error,
  );
}

/** The link to the account page (#/account). */
const accountLink = () => h('p', h('a', { id: 'account-link', href: '#/account' }, t('account.manage')));

/**
 * The account area for `player` (null before a name is chosen): the status, the claim form for a guest
 * whose name is not kept yet, and the sign-in form (open when nobody plays in this browser yet).
 * @param {{id: string, name: string} | null} player
 */
export function accountBox(player) {
  const status = h('p.account-status', { id: 'account-status', 'data-state': player ? 'loading' : 'none' });
  const box = h('div.account', { 'data-testid': 'account' });
  const signIn = h(
    'details.signin',
    { open: !player },
    h('summary', t(player ? 'account.signInOther' : 'account.signInTitle')),
    signInForm(),
  );

  /** @param {boolean} claimed */
  function draw(claimed) {
    if (!player) return;
    status.dataset.state = claimed ? 'claimed' : 'guest';
    if (claimed) {
      replace(
        status,
        h('span.badge.claimed', t('account.claimedBadge')),
        ' ',
        t('account.signedIn', { name: player.name }),
      );
      replace(box, status, accountLink(), signIn);
    } else {
      replace(status, t('account.guest', { name: player.name }));
      replace(
        box,
        status,
        claimForm(player.name, () => draw(true)),
        accountLink(),
        signIn,
      );
    }
  }

  if (!player) {
    const why = wasSignedOut();
    replace(status, t('account.none'));
    const notice = why ? h('p.notice', { id: 'signed-out', role: 'status' }, t(`account.${why}`)) : null;
    replace(box, notice, status, signIn);
  } else {
    replace(status, t('loading'));
    replace(box, status, signIn);
    getPlayer(player.id).then(
      (page) => draw(page.claimed === true),
      // The page cannot be read now: offer nothing that depends on it.
      () => replace(status, t('account.guest', { name: player.name })),
    );
  }
  return box;
}
