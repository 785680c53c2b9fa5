// Shared helpers of the pages: JSON API calls with the CSRF header, private-link sign-in.

const csrfMeta = () => document.querySelector('meta[name="csrf-token"]');

/** Call the JSON API; resolve to the parsed body, reject with the server's message. */
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
  const response = await fetch(url, options);
  let parsed = null;
  try {
    parsed = await response.json();
  } catch (e) {
    parsed = null;
  }
  if (!response.ok) {
    const message = parsed && parsed.error ? parsed.error : `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return parsed;
}

/**
 * A private link carries its token in the URL fragment (never sent to the server).
 * Exchange it once for a grant in the session cookie, forget it, and reload.
 * Returns true when a reload is under way.
 */
export async function signInFromFragment(matchId, onError) {
  const token = decodeURIComponent(window.location.hash.replace(/^#/, ""));
  if (!token) return false;
  history.replaceState(null, "", window.location.pathname + window.location.search);
  try {
    const answer = await api("POST", `/api/matches/${matchId}/session`, { token });
    if (csrfMeta()) csrfMeta().content = answer.csrf_token;
    window.location.reload();
    return true;
  } catch (error) {
    onError(error.message);
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

/** Offer a JSON value as a file download. */
export function download(filename, value) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 1) + "\n";
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
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
  const left = Math.round((Date.parse(deadline) - Date.now()) / 1000);
  if (left <= 0) return "passed";
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return `${m}:${s} left`;
}

/** Copy-on-click for every element with data-copy. */
export function enableCopy(root = document) {
  for (const element of root.querySelectorAll("[data-copy]")) {
    element.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(element.dataset.copy);
        element.classList.add("copied");
        setTimeout(() => element.classList.remove("copied"), 800);
      } catch (e) {
        window.getSelection().selectAllChildren(element);
      }
    });
  }
}

/**
 * Start a private page: poll ``refresh`` every two seconds once signed in, otherwise
 * sign in with the link's fragment (or say that the private link is needed).
 */
export function startPrivatePage(section, refresh, needLink) {
  const message = document.getElementById("sign-in-message");
  if (section.dataset.signedIn === "yes") {
    refresh();
    setInterval(refresh, 2000);
    return;
  }
  signInFromFragment(section.dataset.matchId, (text) => say(message, text, "bad")).then((reloading) => {
    if (!reloading && !window.location.hash) say(message, needLink, "bad");
  });
}
