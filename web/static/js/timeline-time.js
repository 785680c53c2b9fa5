// Times on the timeline page in the reader's own time zone, and how long ago (or until).
// The page writes every time as <time datetime="RFC 3339" data-local="time|ago|deadline">
// with UTC words inside; this module replaces the words.

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNITS = [
  ["year", 365 * DAY], ["month", 30 * DAY], ["week", 7 * DAY],
  ["day", DAY], ["hour", HOUR], ["minute", MINUTE], ["second", 1],
];

const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const dated = new Intl.DateTimeFormat(undefined, {
  day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit",
});
const full = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** Milliseconds since 1970 of an RFC 3339 time (microseconds cut to milliseconds). */
export function parseTime(text) {
  return Date.parse(String(text || "").replace(/(\.\d{3})\d+/, "$1"));
}

/** "3 minutes ago", "in 2 hours", "now". */
export function howLongAgo(when, now = Date.now()) {
  const seconds = Math.round((when - now) / 1000);
  if (Math.abs(seconds) < 5) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return "";
}

function sameDay(a, b) {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** The local time of ``when``: the clock alone today, with the date on other days. */
export function localTime(when, now = new Date()) {
  const date = new Date(when);
  return sameDay(date, now) ? clock.format(date) : dated.format(date);
}

/** Write every <time data-local> under ``root`` in the reader's time. */
export function showTimes(root = document) {
  const now = new Date();
  for (const element of root.querySelectorAll("time[data-local]")) {
    const when = parseTime(element.dateTime);
    if (Number.isNaN(when)) continue;
    const ago = howLongAgo(when, now.getTime());
    const kind = element.dataset.local;
    if (kind === "ago") {
      element.textContent = ago;
      element.title = full.format(new Date(when));
    } else if (kind === "deadline") {
      element.textContent = `${localTime(when, now)} (${ago})`;
      element.title = full.format(new Date(when));
    } else {
      element.textContent = localTime(when, now);
      element.title = `${full.format(new Date(when))}, ${ago}`;
    }
  }
}

/** Show the times now, and keep "how long ago" current. */
export function keepTimes(root = document) {
  showTimes(root);
  setInterval(() => showTimes(root), 30_000);
}
