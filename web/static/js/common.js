// Shared helpers of the pages: JSON API calls with the CSRF header, private-link sign-in.

const csrfMeta = () => document.querySelector('meta[name="csrf-token"]');

/**
 * Call the JSON API; resolve to the parsed body, reject with an Error carrying the server's
 * message and the answer's HTTP ``status`` (0 when no answer came).
 */
export async function api(method, url, body) {
  const headers = { Accept: "application/json" };
  const options = { method, headers, credentials: "same-origin" };
  if (method !== "GET") {
    headers["X-CSRF-Token"] = csrfMeta() ? csrfMeta().content : "";
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (e) {
    throw Object.assign(new Error("the service did not answer; check your connection and try again"), { status: 0 });
  }
  let parsed = null;
  try {
    parsed = await response.json();
  } catch (e) {
    parsed = null;
  }
  if (!response.ok) {
    const message = parsed && parsed.error ? parsed.error : `${response.status} ${response.statusText}`;
    throw Object.assign(new Error(message), { status: response.status });
  }
  return parsed;
}

/** Put a fresh CSRF token (from a sign-in answer) into the page. */
export function setCsrfToken(token) {
  if (csrfMeta() && token) csrfMeta().content = token;
}

/**
 * Read the private part of the address (the URL fragment, which browsers never send to a
 * server) and remove it from the address bar at once. A player's invite link carries
 * ``#invite=CODE``; a credential link ``#TOKEN``. Returns ``{invite}``, ``{token}`` or null.
 */
export function takeFragment() {
  const raw = window.location.hash.replace(/^#/, "");
  if (!raw) return null;
  history.replaceState(null, "", window.location.pathname + window.location.search);
  const invite = /^invite=(.*)$/.exec(raw);
  if (invite) return { invite: decodeURIComponent(invite[1]) };
  return { token: decodeURIComponent(raw) };
}

/** Exchange a credential for a grant in this browser's session cookie. */
export async function signIn(matchId, token) {
  const answer = await api("POST", `/api/matches/${matchId}/session`, { token });
  setCsrfToken(answer.csrf_token);
  return answer;
}

/**
 * A private link carries its token in the URL fragment (never sent to the server).
 * Exchange it once for a grant in the session cookie, forget it, and reload.
 * Returns true when a reload is under way.
 */
export async function signInFromFragment(matchId, onError) {
  const fragment = takeFragment();
  if (!fragment) return false;
  if (!fragment.token) {
    onError("This is a player's invite link; open it as the player's dealer room.");
    return false;
  }
  try {
    await signIn(matchId, fragment.token);
    window.location.reload();
    return true;
  } catch (error) {
    onError(error.status === 403 ? "This link is not valid (any more) for this match." : error.message);
    return false;
  }
}

/** Set an element's text (never HTML: everything shown comes from users or the log). */
export function say(element, text, kind) {
  if (!element) return;
  element.textContent = text;
  element.classList.remove("ok", "bad", "info");
  if (kind) element.classList.add(kind);
}

/**
 * GET a JSON document (not through the API's CSRF and credentials: a public read); reject
 * with the server's message, or "the site answered HTTP <status>".
 */
export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    throw new Error(body && typeof body.error === "string" ? body.error : `the site answered HTTP ${response.status}`);
  }
  if (body === null) throw new Error("the site's answer is not JSON");
  return body;
}

/** Offer a value as a file download: JSON, or text as it is (of the `type` given). */
export function download(filename, value, type = "application/json") {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 1) + "\n";
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Seconds until an RFC 3339 deadline, as "1:05" (or "passed"). */
export function countdown(deadline) {
  if (!deadline) return "no deadline";
  const left = Math.ceil((Date.parse(deadline) - Date.now()) / 1000); // "passed" only once it has
  if (left <= 0) return "passed";
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return `${m}:${s} left`;
}

/** Put ``text`` on the clipboard; resolve to whether that worked. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    return false;
  }
}

/** Copy-on-click for every element with data-copy (a button says "Copied" for a moment). */
export function enableCopy(root = document) {
  for (const element of root.querySelectorAll("[data-copy]")) {
    if (element.dataset.copyReady) continue;
    element.dataset.copyReady = "yes";
    element.addEventListener("click", async () => {
      const copied = await copyText(element.dataset.copy);
      if (!copied) {
        const shown = element.dataset.copyShows ? document.getElementById(element.dataset.copyShows) : element;
        if (shown) window.getSelection().selectAllChildren(shown);
        return;
      }
      element.classList.add("copied");
      if (element.tagName === "BUTTON") {
        element.dataset.label = element.dataset.label || element.textContent;
        element.textContent = "Copied";
        setTimeout(() => { element.textContent = element.dataset.label; }, 1200);
      }
      setTimeout(() => element.classList.remove("copied"), 1200);
    });
  }
}

/** A button that copies ``text``; ``name`` is its accessible name (what a screen reader says). */
export function copyButton(text, name, label = "Copy") {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy-button";
  button.textContent = label;
  button.setAttribute("aria-label", name);
  button.dataset.copy = text;
  return button;
}

/**
 * Start a private page: poll ``refresh`` every two seconds once signed in, otherwise
 * sign in with the link's fragment (or say that the private link is needed).
 */
export function startPrivatePage(section, refresh, needLink) {
  const message = document.getElementById("sign-in-message");
  if (section.dataset.signedIn === "yes") {
    // Already signed in here: a private link opened again must not leave its token in view.
    if (window.location.hash) history.replaceState(null, "", window.location.pathname + window.location.search);
    refresh();
    setInterval(refresh, 2000);
    return;
  }
  signInFromFragment(section.dataset.matchId, (text) => say(message, text, "bad")).then((reloading) => {
    if (!reloading && !window.location.hash) say(message, needLink, "bad");
  });
}
