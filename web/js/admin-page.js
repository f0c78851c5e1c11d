// @ts-check
// The moderation page (`#/admin`), for admins (named from the command line: `romirami admin grant NAME`):
// the open reports, each with a ban form (GET /api/admin/reports, POST /api/admin/bans); the bans in force,
// each with its "lift" button (GET /api/admin/bans, DELETE /api/admin/bans/{player}); and the audit log of
// every admin's act (GET /api/admin/audit). Anyone else reads that the page is for admins.

import { h, replace } from './dom.js';
import { t, language } from './i18n.js';
import { identity } from './identity.js';
import {
  adminAudit,
  adminBans,
  adminCollusion,
  adminReports,
  banPlayer,
  closeTable,
  removeLine,
  unbanPlayer,
} from './api.js';
import { accountError } from './account.js';

/** A date and time in the reader's language. @param {string} at */
const when = (at) => new Date(at).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });

/** The lengths a ban may be given here, in minutes. */
const LENGTHS = [60, 1440, 10080, 43200];

/** One report, with its ban form. @param {any} report @param {string} token @param {() => void} again */
function reportItem(report, token, again) {
  const minutes = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: `ban-minutes-${report.id}`, 'aria-label': t('admin.length') },
      LENGTHS.map((m) => h('option', { value: String(m) }, t(`admin.length.${m}`))),
    )
  );
  const reason = /** @type {HTMLInputElement} */ (
    h('input', { id: `ban-reason-${report.id}`, maxlength: 500, value: report.reason, 'aria-label': t('admin.reason') })
  );
  const error = h('p.error', { role: 'alert' });
  return h(
    'li.report',
    { 'data-report': String(report.id), 'data-player': report.player.id },
    h(
      'p',
      t('admin.reported', {
        reporter: report.reporter.name,
        player: report.player.name,
        when: when(report.created_at),
      }),
    ),
    report.line ? h('blockquote.reported-line', report.line) : null,
    h('p.muted', t('admin.because', { reason: report.reason })),
    report.table
      ? h(
          'p.report-actions',
          report.line != null && report.channel
            ? h(
                'button.small',
                {
                  type: 'button',
                  id: `remove-line-${report.id}`,
                  onclick: () =>
                    removeLine(token, report.table, report.channel, report.chat).then(again, (err) => {
                      error.textContent = accountError(err);
                    }),
                },
                t('admin.removeLine'),
              )
            : null,
          ' ',
          h(
            'button.small',
            {
              type: 'button',
              id: `close-table-${report.id}`,
              onclick: () =>
                closeTable(token, report.table).then(again, (err) => {
                  error.textContent = accountError(err);
                }),
            },
            t('admin.closeTable'),
          ),
        )
      : null,
    h(
      'form.ban-form',
      {
        onsubmit: async (/** @type {Event} */ e) => {
          e.preventDefault();
          error.textContent = '';
          try {
            await banPlayer(token, report.player.id, Number(minutes.value), reason.value.trim());
            again();
          } catch (err) {
            error.textContent = accountError(err);
          }
        },
      },
      minutes,
      ' ',
      reason,
      ' ',
      h('button.danger', { id: `ban-${report.id}`, type: 'submit' }, t('admin.ban', { name: report.player.name })),
    ),
    error,
  );
}

/** How many rated tables together make a pair worth showing: kept across the page's redraws. */
let minTables = 3;

/**
 * The collusion signal: pairs of players who share an address (never shown) and sat at rated tables together
 * at least `minTables` times, the most first; the admin chooses the threshold.
 * @param {any} answer @param {() => void} again
 */
function collusionSection(answer, again) {
  const choose = h(
    'select',
    {
      id: 'collusion-min',
      'aria-label': t('admin.collusionMin'),
      onchange: (/** @type {Event} */ e) => {
        minTables = Number(/** @type {HTMLSelectElement} */ (e.target).value);
        again();
      },
    },
    [1, 3, 10].map((n) => h('option', { value: String(n), selected: n === minTables }, String(n))),
  );
  return h(
    'section.collusion',
    h('h2', t('admin.collusion')),
    h('p.muted.small', t('admin.collusionNote')),
    h('label', t('admin.collusionMin'), ' ', choose),
    answer.pairs.length
      ? h(
          'ul.pairs',
          { id: 'collusion' },
          answer.pairs.map((/** @type {any} */ p) =>
            h(
              'li',
              { 'data-tables': String(p.tables) },
              t('admin.pair', {
                a: p.players[0].name,
                b: p.players[1].name,
                tables: p.tables,
                addresses: p.addresses,
                when: when(p.last_at),
              }),
            ),
          ),
        )
      : h('p.muted', { id: 'no-pairs' }, t('admin.noPairs')),
  );
}

/** Mounts the moderation page in `root`. @param {HTMLElement} root */
export function mountAdmin(root) {
  const { token } = identity();
  const page = h('div.admin-page');
  replace(root, page);
  let gone = false;
  async function draw() {
    if (!token) {
      replace(page, h('h1', t('admin.title')), h('p', t('admin.only')));
      return;
    }
    try {
      const [reports, bans, audit, pairs] = await Promise.all([
        adminReports(token),
        adminBans(token),
        adminAudit(token),
        adminCollusion(token, minTables),
      ]);
      if (gone) return;
      replace(
        page,
        h('h1', t('admin.title')),
        h('h2', t('admin.reports')),
        reports.reports.length
          ? h(
              'ul.reports',
              reports.reports.map((/** @type {any} */ r) => reportItem(r, token, draw)),
            )
          : h('p.muted', { id: 'no-reports' }, t('admin.noReports')),
        h('h2', t('admin.bans')),
        bans.bans.length
          ? h(
              'ul.bans',
              bans.bans.map((/** @type {any} */ b) =>
                h(
                  'li',
                  { 'data-player': b.player.id },
                  t('admin.bannedUntil', { name: b.player.name, until: when(b.until), reason: b.reason }),
                  ' ',
                  h(
                    'button.small',
                    { type: 'button', onclick: () => unbanPlayer(token, b.player.id).then(draw, draw) },
                    t('admin.lift'),
                  ),
                ),
              ),
            )
          : h('p.muted', t('admin.noBans')),
        collusionSection(pairs, draw),
        h('h2', t('admin.audit')),
        h(
          'ol.audit',
          { id: 'audit' },
          audit.entries.map((/** @type {any} */ e) =>
            h(
              'li',
              { 'data-action': e.action },
              h('span.muted', when(e.at)),
              ' ',
              t(`admin.action.${e.action}`, {
                admin: e.admin?.name ?? t('admin.commandLine'),
                target: e.target?.name ?? '',
              }),
              e.detail ? h('span.muted', ` — ${e.detail}`) : null,
            ),
          ),
        ),
      );
    } catch (err) {
      if (gone) return;
      const code = /** @type {any} */ (err)?.code;
      replace(page, h('h1', t('admin.title')), h('p', code === 'not_admin' ? t('admin.only') : accountError(err)));
    }
  }
  draw();
  return () => {
    gone = true;
  };
}
