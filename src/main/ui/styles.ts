import { sheetPerDocument } from './sheetPerDocument'

/** The widget's CSS, applied inside its shadow roots only: nothing leaks into the host page, nothing of it leaks in. */
export const widgetCss = `
:host { all: initial; }
* { box-sizing: border-box; }
.root {
  /* A block without a line of its own (a flex container's children are not on lines): a line would look up its 10px
     font, which no text uses, before the button shows (a request to the browser's process on Linux). */
  display: flex;
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
`

/** One parsed copy of the widget's CSS per document, shared by the button's and the modal's shadow roots. */
export const widgetSheetOf = sheetPerDocument(widgetCss)
