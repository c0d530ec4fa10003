import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./passwords.js";

type Page =
  | { kind: "form"; username: string; token: string; action: string; problem?: string }
  | { kind: "done"; username: string; tokenUrl: string }
  | { kind: "refused"; message: string };

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A small self-contained page: no scripts, no external assets. */
export function passwordSetupPage(page: Page): string {
  let body: string;
  if (page.kind === "form") {
    body = `<h1>Choose your password</h1>
<p>Account <strong>${escape(page.username)}</strong>. Use ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not containing your username.</p>
${page.problem ? `<p class="problem" role="alert">${escape(page.problem)}</p>` : ""}
<form method="post" action="${escape(page.action)}">
  <input type="hidden" name="token" value="${escape(page.token)}">
  <label>Password <input type="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" required></label>
  <label>Repeat it <input type="password" name="confirmation" autocomplete="new-password" required></label>
  <button type="submit">Set password</button>
</form>`;
  } else if (page.kind === "done") {
    body = `<h1>Password set</h1>
<p>Account <strong>${escape(page.username)}</strong> can now request tokens at <code>${escape(page.tokenUrl)}</code> with the password grant.</p>`;
  } else {
    body = `<h1>Link not usable</h1><p>${escape(page.message)}</p>`;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Activities API: set your password</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.75rem 0}input{display:block;width:100%;padding:.4rem}button{padding:.5rem 1rem}.problem{color:#a00}</style>
</head><body>${body}</body></html>`;
}
