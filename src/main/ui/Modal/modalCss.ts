/**
 * The modal's own CSS (dialog, header, lists, rows, Account, the wallet spinner): it comes with the modal's code, so the
 * page's first load carries only the buttons' CSS (styles.ts). Modal adopts it into the widget's shadow root before the
 * widget's sheet (the buttons' rules there win ties).
 */
export const modalCss = `
a.item { color: var(--tsr-text); text-decoration: none; }
input, select { font: inherit; color: var(--tsr-text); border: 1px solid var(--tsr-border); }
.overlay { position: fixed; inset: 0; z-index: var(--tsr-z-index); background: rgba(0, 0, 0, 0.5); display: flex;
  align-items: center; justify-content: center; padding: 1.6em; }
.dialog { width: 360px; max-width: 100%; max-height: 100%; overflow: auto; overscroll-behavior: contain; background: var(--tsr-bg);
  color: var(--tsr-text); border: 1px solid var(--tsr-border); border-radius: var(--tsr-radius); padding: 1.6em 1.6em 2em;
  font-size: 1em; box-shadow: 0 8px 32px rgba(0, 0, 0, 0.32); animation: tsr-in 0.16s ease-out; }
.dialog[data-shake="true"] { animation: tsr-shake 0.5s; }
@keyframes tsr-in { from { transform: translateY(8px) scale(0.98); } }
@keyframes tsr-shake { 25% { transform: translateX(-6px); } 75% { transform: translateX(6px); } }
/* Phones: a bottom sheet the width of the screen. */
@media (max-width: 430px) {
  .overlay { align-items: flex-end; padding: 0; }
  .dialog { width: 100%; max-height: 90%; border-width: 1px 0 0; border-radius: var(--tsr-radius) var(--tsr-radius) 0 0;
    padding-bottom: calc(2em + env(safe-area-inset-bottom, 0px)); }
}
/* Title between the back and close buttons: one line, cut with an ellipsis, never under them. */
.header { display: grid; grid-template-columns: 2.8em minmax(0, 1fr) 2.8em; align-items: center; gap: 0.8em; margin-bottom: 1.6em; }
.header h2 { min-width: 0; margin: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: center;
  font-size: 1.8em; font-weight: 700; line-height: 1.3; }
.icon-button { display: grid; place-items: center; width: 2.8em; height: 2.8em; padding: 0; border: 0; border-radius: 999px;
  background: var(--tsr-surface); color: var(--tsr-text); }
.icon-button:hover { background: var(--tsr-surface-hover); }
.list { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.6em; }
.item { width: 100%; display: flex; align-items: center; gap: 1.2em; border: 0; border-radius: 12px; padding: 1em 1.2em;
  background: var(--tsr-surface); font-size: 1.4em; text-align: left; }
.item:hover { background: var(--tsr-surface-hover); }
.item > .glyph { color: var(--tsr-text-muted); }
.item[aria-current="true"] { background: var(--tsr-surface-hover); }
.row { min-height: 3.6em; padding: 0.6em 1em; }
.row-label { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
.row-text { flex: 1; min-width: 0; display: grid; text-align: left; }
.row-sub { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 0.82em; color: var(--tsr-text-muted); }
.row-icon { flex: none; display: grid; place-items: center; width: 28px; height: 28px; border-radius: 8px;
  background: var(--tsr-surface-hover); color: var(--tsr-text-muted); }
.current-mark { display: grid; color: var(--tsr-focus); }
.wallet-icon { flex: none; width: var(--tsr-icon-size, 28px); height: var(--tsr-icon-size, 28px); border-radius: 25%; object-fit: cover; }
.tag { flex: none; margin-left: auto; font-size: 0.86em; color: var(--tsr-text-muted); }
.muted { color: var(--tsr-text-muted); font-size: 1.3em; }
.error { color: var(--tsr-danger); font-size: 1.3em; }
.account { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.2em; justify-items: center; text-align: center; }
.account > p { margin: 0; }
.identity { display: grid; gap: 0.2em; justify-items: center; max-width: 100%; }
.profile-name, .address { max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 2em; font-weight: 700; }
.address-line { font-size: 1.4em; color: var(--tsr-text-muted); }
.wallet-line, .with-icon { display: inline-flex; align-items: center; gap: 0.5em; }
.wallet-line { font-size: 1.3em; color: var(--tsr-text-muted); }
.balance { font-size: 1.5em; color: var(--tsr-text-muted); }
.actions { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.6em; width: 100%; }
/* Account: what moves money as round buttons in one line, and the foot's buttons side by side, each icon over its name. */
.quick-actions, .account-footer { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr); gap: 0.6em; width: 100%; }
.quick-action, .account-footer > .item { display: grid; justify-items: center; align-content: start; gap: 0.5em; border: 0; border-radius: 12px;
  padding: 0.9em 0.3em 0.8em; background: var(--tsr-surface); font-size: 1.3em; font-weight: 600; text-align: center; overflow-wrap: anywhere; }
.quick-action:hover { background: var(--tsr-surface-hover); }
.quick-action .row-icon { width: 36px; height: 36px; border-radius: 999px; background: var(--tsr-accent); color: var(--tsr-accent-text); }
.account-footer .row-label { white-space: normal; }
/* A wallet's logo in a ring that runs round it while the wallet is asked; red and still when it declined. */
.wallet-spinner { position: relative; display: grid; place-items: center; justify-self: center; width: 96px; height: 96px; }
.wallet-spinner .wallet-icon { border-radius: 20px; }
.wallet-spinner-ring { position: absolute; inset: 0; width: 100%; height: 100%; overflow: visible; }
.wallet-spinner-track, .wallet-spinner-arc { fill: none; stroke-width: 4; }
.wallet-spinner-track { stroke: var(--tsr-surface-hover); }
.wallet-spinner-arc { stroke: var(--tsr-accent); stroke-linecap: round; stroke-dasharray: 24 76; animation: tsr-ring 1.1s linear infinite; }
.wallet-spinner[data-state="error"] .wallet-spinner-arc { stroke: var(--tsr-danger); stroke-dasharray: 100 0; animation: none; }
@keyframes tsr-ring { to { stroke-dashoffset: -100; } }
.summary { display: grid; grid-template-columns: auto 1fr; gap: 0.8em 1.6em; margin: 0; padding: 1.2em; border-radius: 12px;
  background: var(--tsr-surface); font-size: 1.4em; }
.summary dt { color: var(--tsr-text-muted); }
.summary dd { margin: 0; text-align: right; }
.summary .detail { display: block; margin-top: 0.2em; color: var(--tsr-text-muted); font-size: 0.86em; }
/* The views' own parts (send form, login, token picker, activity): last, so they win ties with the rules above. */
/* The send form: every child may shrink, long text wraps or is cut, never widening the modal. */
.send-form { display: grid; gap: 1.4em; min-width: 0; }
.send-form p { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.send-form .field { display: grid; gap: 0.6em; min-width: 0; }
.field-label { color: var(--tsr-text-muted); font-size: 1.3em; font-weight: 600; }
.text-input { width: 100%; min-width: 0; border-radius: 12px; padding: 0.9em 1.1em; background: var(--tsr-surface); font-size: 1.4em;
  text-overflow: ellipsis; }
.text-input[aria-invalid="true"], .amount-box:has([aria-invalid="true"]) { border-color: var(--tsr-danger); }
/* E-mail and social login, under the wallets. */
.auth-login { display: grid; gap: 1em; min-width: 0; }
.auth-login p { margin: 0; overflow-wrap: anywhere; }
.auth-form { display: grid; gap: 0.6em; min-width: 0; }
.auth-socials > :first-child { grid-column: 1 / -1; }
.auth-socials > li + li > .item { justify-content: center; padding: 0; }
.auth-divider { text-align: center; color: var(--tsr-text-muted); font-size: 1.2em; }
.amount-box { display: flex; align-items: center; gap: 0.6em; min-width: 0; padding: 0.4em 0.6em 0.4em 1.1em; border: 1px solid var(--tsr-border);
  border-radius: 12px; background: var(--tsr-surface); }
.amount-box:focus-within { outline: 2px solid var(--tsr-focus); outline-offset: 2px; }
.amount-input { flex: 1; min-width: 0; width: 100%; padding: 0.2em 0; border: 0; background: transparent; font-size: 2.4em; font-weight: 600;
  text-overflow: ellipsis; font-variant-numeric: tabular-nums; }
.amount-input:focus-visible { outline: none; box-shadow: none; }
.amount-symbol { flex: none; max-width: 6em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 1.4em;
  color: var(--tsr-text-muted); }
.chip-button { flex: none; border: 0; border-radius: 999px; padding: 0.4em 0.9em; background: var(--tsr-surface-hover); color: var(--tsr-text);
  font-size: 1.2em; font-weight: 700; }
.chip-button:disabled { opacity: 0.45; }
.send-form .fee, .amount-usd { font-variant-numeric: tabular-nums; }
.send-submit { width: 100%; }
.token-picker { position: relative; min-width: 0; }
.token-trigger, .token-option { display: flex; align-items: center; gap: 1em; min-width: 0; font-size: 1.4em; text-align: left; }
.token-trigger { width: 100%; padding: 0.7em 1.1em; border: 1px solid var(--tsr-border); border-radius: 12px; background: var(--tsr-surface); }
.token-trigger:hover:not(:disabled) { background: var(--tsr-surface-hover); }
.token-trigger:disabled { opacity: 0.45; }
/* Still loading is not disabled: the token shows as it will, with a skeleton where its balance comes. */
.token-trigger[aria-busy="true"]:disabled { opacity: 1; cursor: progress; }
.token-text { display: grid; flex: 1; min-width: 0; line-height: 1.25; }
.token-symbol, .token-name, .token-balance { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.token-symbol { font-weight: 700; }
.token-name { font-size: 0.82em; color: var(--tsr-text-muted); }
.token-balance { flex: 0 1 auto; max-width: 45%; text-align: right; font-variant-numeric: tabular-nums; }
.muted-inline { color: var(--tsr-text-muted); font-size: 0.9em; }
.chevron { flex: none; width: 0.5em; height: 0.5em; margin: 0 0.2em 0.2em; border: solid var(--tsr-text-muted); border-width: 0 2px 2px 0;
  transform: rotate(45deg); }
.token-picker[data-state="open"] .chevron { transform: rotate(-135deg); margin-bottom: -0.2em; }
.token-list { position: absolute; top: calc(100% + 0.4em); left: 0; right: 0; z-index: 2; display: grid; gap: 0.2em; max-height: 26em;
  margin: 0; padding: 0.4em; overflow-y: auto; list-style: none; border: 1px solid var(--tsr-border); border-radius: 12px;
  background: var(--tsr-bg); box-shadow: 0 8px 24px rgba(0, 0, 0, 0.32); }
.token-option { padding: 0.6em 0.8em; border-radius: 8px; cursor: pointer; }
.token-option[data-highlighted] { background: var(--tsr-surface-hover); }
.token-option[aria-selected="true"] .token-symbol { color: var(--tsr-focus); }
.token-row { padding: 0.7em 1em; }
.token-row:hover { background: var(--tsr-surface); }
.token-amounts { display: grid; justify-items: end; min-width: 0; max-width: 50%; line-height: 1.25; }
.token-amounts .token-balance { max-width: 100%; font-weight: 600; }
.skeleton { display: inline-block; width: 5em; height: 1em; vertical-align: middle; border-radius: 6px;
  background: linear-gradient(90deg, var(--tsr-surface-hover) 25%, var(--tsr-border) 50%, var(--tsr-surface-hover) 75%);
  background-size: 200% 100%; animation: tsr-skeleton 1.2s ease-in-out infinite; }
@keyframes tsr-skeleton { from { background-position: 100% 0; } to { background-position: -100% 0; } }
.root { --tsr-success: #5ad08a; --tsr-pending: #f2c45a; }
.root[data-theme="light"] { --tsr-success: #137333; --tsr-pending: #8a5a00; }
.activity-day { display: grid; gap: 0.6em; }
.activity-day h3 { margin: 0.4em 0 0; font-size: 1.2em; font-weight: 600; color: var(--tsr-text-muted); }
.activity-row { display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: center; gap: 1em;
  border-radius: 12px; padding: 1em; background: var(--tsr-surface); font-size: 1.4em; }
.activity-icon { position: relative; display: inline-flex; width: 32px; height: 32px; }
.activity-badge { position: absolute; right: -5px; bottom: -5px; display: grid; place-items: center; width: 18px; height: 18px;
  border-radius: 999px; border: 2px solid var(--tsr-surface); background: var(--tsr-bg); color: var(--tsr-text-muted); }
.activity-badge[data-direction="in"] { color: var(--tsr-success); }
.activity-main { display: grid; gap: 0.3em; min-width: 0; }
.activity-line { display: flex; align-items: center; gap: 0.6em; min-width: 0; white-space: nowrap; }
.activity-line > * { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.activity-title { flex: none; font-weight: 600; }
.activity-sub { font-size: 0.86em; color: var(--tsr-text-muted); }
.activity-party { flex: 0 1 auto; margin-right: auto; }
.activity-sub time { flex: none; }
.activity-amount { flex: 0 1 auto; margin-left: auto; font-weight: 600; font-variant-numeric: tabular-nums; text-align: right; }
.activity-amount[data-direction="in"] { color: var(--tsr-success); }
.activity-status { flex: none; font-size: 0.78em; padding: 0.1em 0.7em; border-radius: 999px; background: var(--tsr-surface-hover); }
.activity-status[data-status="confirmed"] { display: inline-grid; place-items: center; width: 18px; height: 18px; padding: 0;
  color: var(--tsr-success); }
.activity-status[data-status="pending"] { color: var(--tsr-pending); }
.activity-status[data-status="failed"] { color: var(--tsr-danger); }
.activity-link { flex: none; display: grid; place-items: center; width: 24px; height: 24px; margin: -4px -4px -4px 0; border-radius: 999px;
  color: var(--tsr-text-muted); }
.activity-link:hover { background: var(--tsr-surface-hover); color: var(--tsr-text); }
.activity-state { display: grid; gap: 1em; justify-items: center; text-align: center; padding: 2.4em 1em; font-size: 1.4em; }
.activity-state p { margin: 0; }
.activity-state .muted { font-size: 0.9em; }
.activity-state .button { font-size: 1em; }
`
