/** The widget's CSS, applied inside its shadow roots only: nothing leaks into the host page, nothing of it leaks in. */
export const widgetCss = `
:host { all: initial; }
* { box-sizing: border-box; }
.root {
  --tsr-accent: #2f5bea; --tsr-accent-text: #fff; --tsr-bg: #16181d; --tsr-surface: #22252c; --tsr-surface-hover: #2c3039;
  --tsr-text: #f2f3f5; --tsr-text-muted: #a3a8b3; --tsr-border: #333844; --tsr-danger: #ff7a7a; --tsr-radius: 20px;
  --tsr-focus: #8ab4ff; --tsr-button-radius: 12px;
  --tsr-font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; --tsr-z-index: 999;
  font-family: var(--tsr-font-family); font-size: 10px; color: var(--tsr-text); line-height: 1.4;
  /* Digits of one width: balances, addresses and amounts line up and do not jiggle as they change. */
  font-variant-numeric: tabular-nums;
}
.root[data-theme="light"] {
  --tsr-accent: #2150e0; --tsr-bg: #ffffff; --tsr-surface: #f1f3f6; --tsr-surface-hover: #e4e8ee;
  --tsr-text: #15171c; --tsr-text-muted: #535a66; --tsr-border: #d5dae2; --tsr-danger: #b42318; --tsr-focus: #1d4ed8;
}
button { font: inherit; color: inherit; cursor: pointer; }
/* Keyboard focus (WCAG 2.2): a ring of the focus colour (3:1 and more on the theme's background) around a ring of that
   background, so it shows on whatever page the button sits. */
:focus-visible { outline: 2px solid var(--tsr-focus); outline-offset: 2px; box-shadow: 0 0 0 2px var(--tsr-bg); }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
.glyph { flex: none; }
.button { position: relative; display: inline-flex; align-items: center; justify-content: center; gap: 0.6em; max-width: 100%;
  min-height: 2.8em; border: 0; border-radius: var(--tsr-button-radius); padding: 0.6em 1.1em; background: var(--tsr-accent);
  color: var(--tsr-accent-text); font-size: 1.5em; font-weight: 700; line-height: 1.2; text-align: center; white-space: nowrap;
  text-decoration: none; box-shadow: 0 2px 6px rgba(0, 0, 0, 0.16); transition: transform 0.12s ease; }
.button:hover { transform: scale(1.025); }
.button:active { transform: scale(0.975); }
.button[data-variant="account"], .button[data-variant="secondary"] { background: var(--tsr-surface); color: var(--tsr-text); }
.button[data-variant="account"] { border: 1px solid var(--tsr-border); }
.button[data-variant="secondary"] { box-shadow: none; }
.account-button { gap: 0; padding: 0.2em; }
.account-balance { padding: 0 0.7em 0 0.6em; }
.account-chip { display: inline-flex; align-items: center; gap: 0.4em; min-width: 0; padding: 0.3em 0.5em 0.3em 0.3em;
  border-radius: calc(var(--tsr-button-radius) - 3px); background: var(--tsr-bg); }
.account-name, .network-name { min-width: 0; max-width: 11em; overflow: hidden; text-overflow: ellipsis; }
.network-button { padding-left: 0.5em; }
/* Narrow screens: the page's buttons keep to the essentials (icon and account), their full names still heard. */
@media (max-width: 480px) {
  .account-balance { display: none; }
  .network-name { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0);
    clip-path: inset(50%); white-space: nowrap; }
  .network-button { padding-right: 0.5em; }
}
@media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }
.wallet-icon[data-generated], .token-icon[data-generated] { display: inline-grid; place-items: center; font-weight: 700; color: #fff;
  background: hsl(var(--tsr-token-hue) 55% 42%); }
.wallet-icon[data-generated] { font-size: calc(var(--tsr-icon-size, 28px) * 0.38); }
.wallet-icon[data-generated]::before, .token-icon[data-generated]::before { content: attr(data-letters); }
.avatar { flex: none; width: var(--tsr-avatar-size, 64px); height: var(--tsr-avatar-size, 64px); border-radius: 999px; object-fit: cover; }
.avatar[data-generated] { display: inline-block; background: linear-gradient(135deg, var(--tsr-avatar-from), var(--tsr-avatar-to)); }
.token-icon { flex: none; border-radius: 999px; object-fit: cover; }
.token-icon[data-generated] { width: var(--tsr-token-size); height: var(--tsr-token-size); font-size: calc(var(--tsr-token-size) * 0.38); }
.toast { position: fixed; top: 1.6em; left: 50%; transform: translateX(-50%); z-index: calc(var(--tsr-z-index) + 1);
  background: var(--tsr-surface); border: 1px solid var(--tsr-border); border-radius: 999px; padding: 0.8em 1.6em; font-size: 1.4em; }
.toast[data-variant="error"] { color: var(--tsr-danger); }
/* Disabled looks disabled: faded, no hover motion, a not-allowed cursor (and the element is disabled, so it does nothing). */
button:disabled { cursor: not-allowed; }
.button:disabled { opacity: 0.45; box-shadow: none; transform: none; }
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
