// Small words the host console says: names as people write them, a deadline's length.

/** "ana", "ana and ben", "ana, ben and cai" ("nobody" for none). */
export function names(list) {
  const shown = (list || []).map(String);
  if (!shown.length) return "nobody";
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

function unit(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** A number of seconds as people say it: "30 seconds", "5 minutes", "1 hour 30 minutes", "24 hours". */
export function duration(seconds) {
  if (seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  if (seconds > 3600 && seconds % 60 === 0) {
    const minutes = seconds / 60;
    return `${unit(Math.floor(minutes / 60), "hour")} ${unit(minutes % 60, "minute")}`;
  }
  if (seconds % 60 === 0) return unit(seconds / 60, "minute");
  return unit(seconds, "second");
}

/** "a deadline of 5 minutes" or "no deadline". */
export function deadlineWords(seconds) {
  return seconds === null ? "no deadline" : `a deadline of ${duration(seconds)}`;
}
