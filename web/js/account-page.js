// @ts-check
// The account page (`#/account`): who the player is and every device they are signed in on (GET
// /api/players/me); signing out here or everywhere (POST /api/sign-out, /api/sign-out-everywhere); a new
// password for a kept name (POST /api/players/me/password); everything the site keeps of them as a file
// (GET /api/players/me/export); and deleting the account (DELETE /api/players/me). A browser whose token
// ends, here or from another device, forgets the player and opens the lobby signed out (`signedOutHere`).

import { h, replace } from './dom.js';
import { t, language } from './i18n.js';
import { endHere, identity, signedOutHere } from './identity.js';
import { changePassword, deleteAccount, exportMine, getMe, signOut, signOutEverywhere } from './api.js';
import { accountError } from './account.js';

/** A date and time in the reader's language. @param {string} at */
const when = (at) => new Date(at).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });

/** A password field. @param {string} id @param {string} label @param {string} autocomplete */
function passwordInput(id, label, autocomplete) {
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id, type: 'password', required: true, minlength: 8, maxlength: 128, autocomplete })
  );
  return { input, field: h('div.field', h('label', { for: id }, label), input) };
}

/**
 * A button that runs `act`, showing its refusal in `error`; disabled meanwhile.
 * @param {string} id @param {string} label @param {HTMLElement} error @param {() => Promise<void>} act
 * @param {string} [cls]
 */
function actionButton(id, label, error, act, cls = 'button') {
  const button = /** @type {HTMLButtonElement} */ (
    h(cls, {
      id,
      type: 'button',
      onclick: async () => {
        error.textContent = '';
        button.disabled = true;
        try {
          await act();
        } catch (err) {
          error.textContent = accountError(err);
        } finally {
          button.disabled = false;
        }
      },
    })
  );
  button.textContent = label;
  return button;
}

/** The signed-in devices, and signing out. @param {any} me @param {string} token */
function devicesSection(me, token) {
  const error = h('p.error', { role: 'alert' });
  return h(
    'section.account-devices',
    h('h2', t('account.devices')),
    h(
      'ul',
      { id: 'devices' },
      me.devices.map((/** @type {any} */ d) =>
        h(
          'li',
          { 'data-current': String(d.current) },
          h('span.device', d.device ?? t('account.firstBrowser')),
          ' · ',
          h('span.muted', t('account.since', { when: when(d.signed_in_at) })),
          d.current ? h('span.badge', t('account.thisDevice')) : null,
        ),
      ),
    ),
    h(
      'p.account-actions',
      actionButton('sign-out', t('account.signOut'), error, async () => {
        await endHere(signOut(token), 'signed_out');
      }),
      ' ',
      actionButton('sign-out-everywhere', t('account.signOutEverywhere'), error, async () => {
        await endHere(signOutEverywhere(token), 'signed_out');
      }),
    ),
    error,
  );
}

/** A new password for a kept name. @param {string} token */
function passwordSection(token) {
  const old = passwordInput('old-password', t('account.oldPassword'), 'current-password');
  const next = passwordInput('new-password', t('account.newPassword'), 'new-password');
  const again = passwordInput('new-password-again', t('account.passwordAgain'), 'new-password');
  const error = h('p.error', { role: 'alert' });
  const done = h('p.muted', { id: 'password-changed', role: 'status' });
  return h(
    'form.account-form',
    {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        error.textContent = '';
        done.textContent = '';
        if (next.input.value !== again.input.value) {
          error.textContent = t('account.mismatch');
          return;
        }
        try {
          await changePassword(token, old.input.value, next.input.value);
          for (const f of [old, next, again]) f.input.value = '';
          done.textContent = t('account.passwordChanged');
        } catch (err) {
          error.textContent = accountError(err);
        }
      },
    },
    h('h2', t('account.changePassword')),
    old.field,
    next.field,
    again.field,
    h('button', { id: 'password-submit', type: 'submit' }, t('account.changePassword')),
    error,
    done,
  );
}

/** Everything the site keeps of the player, as a file. @param {string} token @param {string} id */
function exportSection(token, id) {
  const error = h('p.error', { role: 'alert' });
  return h(
    'section.account-export',
    h('h2', t('account.export')),
    h('p.muted.small', t('account.exportNote')),
    actionButton('export', t('account.exportButton'), error, async () => {
      const data = await exportMine(token);
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = h('a', { href: url, download: `romirami-${id}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    }),
    error,
  );
}

/** Deleting the account. @param {any} me @param {string} token */
function deleteSection(me, token) {
  const password = me.claimed ? passwordInput('delete-password', t('account.yourPassword'), 'current-password') : null;
  const error = h('p.error', { role: 'alert' });
  return h(
    'section.account-delete',
    h('h2', t('account.delete')),
    h('p', t('account.deleteNote')),
    password?.field,
    actionButton(
      'delete-account',
      t('account.deleteButton'),
      error,
      async () => {
        if (!confirm(t('account.deleteConfirm'))) return;
        await endHere(deleteAccount(token, password?.input.value ?? null), 'deleted');
      },
      'button.danger',
    ),
    error,
  );
}

/** Mounts the account page in `root`. @param {HTMLElement} root */
export function mountAccount(root) {
  const { token } = identity();
  const page = h('div.account-page');
  replace(root, page);
  if (!token) {
    replace(page, h('h1', t('account.title')), h('p', t('account.none')), h('a', { href: '#/' }, t('nav.play')));
    return () => {};
  }
  replace(page, h('h1', t('account.title')), h('p.loading', t('loading')));
  let gone = false;
  getMe(token).then(
    (me) => {
      if (gone) return;
      replace(
        page,
        h('h1', t('account.title')),
        h(
          'p',
          { id: 'account-who' },
          me.claimed ? h('span.badge.claimed', t('account.claimedBadge')) : null,
          ' ',
          t(me.claimed ? 'account.signedIn' : 'account.guestHere', { name: me.name }),
        ),
        me.admin ? h('p', h('a', { id: 'admin-link', href: '#/admin' }, t('admin.title'))) : null,
        devicesSection(me, token),
        me.claimed ? passwordSection(token) : null,
        exportSection(token, me.id),
        deleteSection(me, token),
      );
    },
    (err) => {
      if (gone) return;
      // The token was ended elsewhere: this browser is signed out.
      if (err?.code === 'bad_token') signedOutHere();
      else replace(page, h('h1', t('account.title')), h('p.error', { role: 'alert' }, accountError(err)));
    },
  );
  return () => {
    gone = true;
  };
}
