/**
 * The modal's own CSS (dialog, header, lists, rows, Account, the wallet spinner): it comes with the modal's code, so the
 * page's first load carries only the buttons' CSS (styles.ts). Modal adopts it into the widget's shadow root before the
 * widget's sheet, so rules there (the views') still win at equal specificity.
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
@keyframes tsr-in { from { opacity: 0; transform: translateY(8px) scale(0.98); } }
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
`
