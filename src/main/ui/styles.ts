/** The widget's CSS, applied inside its shadow roots only: nothing leaks into the host page, nothing of it leaks in. */
export const widgetCss = `
:host { all: initial; }
* { box-sizing: border-box; }
.root {
  --tsr-accent: #2f5bea; --tsr-accent-text: #fff; --tsr-bg: #16181d; --tsr-surface: #22252c; --tsr-surface-hover: #2c3039;
  --tsr-text: #f2f3f5; --tsr-text-muted: #a3a8b3; --tsr-border: #333844; --tsr-danger: #ff7a7a; --tsr-radius: 16px;
  --tsr-font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; --tsr-z-index: 999;
  font-family: var(--tsr-font-family); font-size: 10px; color: var(--tsr-text); line-height: 1.4;
}
.root[data-theme="light"] {
  --tsr-accent: #2150e0; --tsr-bg: #ffffff; --tsr-surface: #f1f3f6; --tsr-surface-hover: #e4e8ee;
  --tsr-text: #15171c; --tsr-text-muted: #535a66; --tsr-border: #d5dae2; --tsr-danger: #b42318;
}
button { font: inherit; color: inherit; cursor: pointer; }
a.item { color: var(--tsr-text); text-decoration: none; }
input, select { font: inherit; color: var(--tsr-text); border: 1px solid var(--tsr-border); }
input:focus-visible, select:focus-visible { outline: 2px solid var(--tsr-accent); outline-offset: 2px; }
button:focus-visible, a:focus-visible { outline: 2px solid var(--tsr-accent); outline-offset: 2px; }
.button { display: inline-flex; align-items: center; gap: 0.8em; border: 0; border-radius: 999px; padding: 1em 1.6em;
  background: var(--tsr-accent); color: var(--tsr-accent-text); font-size: 1.4em; font-weight: 600; }
.button[data-variant="account"] { background: var(--tsr-surface); color: var(--tsr-text); border: 1px solid var(--tsr-border); }
.overlay { position: fixed; inset: 0; z-index: var(--tsr-z-index); background: rgba(0, 0, 0, 0.5); display: flex;
  align-items: center; justify-content: center; }
.dialog { width: 360px; max-width: 100vw; max-height: 90vh; overflow: auto; background: var(--tsr-bg); color: var(--tsr-text);
  border: 1px solid var(--tsr-border); border-radius: var(--tsr-radius); padding: 1.6em; font-size: 1em; }
.dialog[data-shake="true"] { animation: tsr-shake 0.5s; }
@keyframes tsr-shake { 25% { transform: translateX(-6px); } 75% { transform: translateX(6px); } }
@media (max-width: 430px) {
  .overlay { align-items: flex-end; }
  .dialog { width: 100vw; border-radius: var(--tsr-radius) var(--tsr-radius) 0 0; }
}
@media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }
.header { display: flex; align-items: center; justify-content: space-between; margin-bottom: 1.6em; }
.header h2 { font-size: 1.6em; margin: 0; font-weight: 600; }
.icon-button { border: 0; background: var(--tsr-surface); border-radius: 999px; width: 3.2em; height: 3.2em; font-size: 1.2em; }
.icon-button:hover { background: var(--tsr-surface-hover); }
.list { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.8em; }
.item { width: 100%; display: flex; align-items: center; gap: 1.2em; border: 0; border-radius: 12px; padding: 1em 1.2em;
  background: var(--tsr-surface); font-size: 1.4em; text-align: left; }
.item:hover { background: var(--tsr-surface-hover); }
.item img { width: 2.8em; height: 2.8em; border-radius: 8px; }
.icon-placeholder { display: inline-block; flex: none; width: 2.8em; height: 2.8em; }
.tag { margin-left: auto; font-size: 0.8em; color: var(--tsr-text-muted); }
.muted { color: var(--tsr-text-muted); font-size: 1.3em; }
.error { color: var(--tsr-danger); font-size: 1.3em; }
.account { display: grid; gap: 1.2em; justify-items: center; text-align: center; }
.avatar { width: 6.4em; height: 6.4em; border-radius: 999px; }
.avatar[data-generated] { display: inline-block; background: linear-gradient(135deg, var(--tsr-avatar-from), var(--tsr-avatar-to)); }
.token-icon { flex: none; border-radius: 999px; object-fit: cover; }
.token-icon[data-generated] { display: inline-grid; place-items: center; width: var(--tsr-token-size); height: var(--tsr-token-size); font-size: calc(var(--tsr-token-size) * 0.38); font-weight: 700; color: #fff; background: hsl(var(--tsr-token-hue) 55% 42%); }
.address { font-size: 2em; font-weight: 600; font-variant-numeric: tabular-nums; }
.balance { font-size: 1.5em; color: var(--tsr-text-muted); }
.actions { display: grid; gap: 0.8em; width: 100%; }
.summary { display: grid; grid-template-columns: auto 1fr; gap: 0.8em 1.6em; margin: 0; padding: 1.2em; border-radius: 12px;
  background: var(--tsr-surface); font-size: 1.4em; }
.summary dt { color: var(--tsr-text-muted); }
.summary dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
.toast { position: fixed; top: 1.6em; left: 50%; transform: translateX(-50%); z-index: calc(var(--tsr-z-index) + 1);
  background: var(--tsr-surface); border: 1px solid var(--tsr-border); border-radius: 999px; padding: 0.8em 1.6em; font-size: 1.4em; }
.toast[data-variant="error"] { color: var(--tsr-danger); }
`
