// The timeline page: copyable commitments, and live updates while the match runs.
import { enableCopy } from "./common.js";

enableCopy();

const head = document.getElementById("match");
if (head && head.dataset.finished === "no") {
  const known = Number(head.dataset.records);
  const poll = async () => {
    try {
      const response = await fetch(`/api/matches/${head.dataset.matchId}/records?from=${known}`);
      if (response.ok && (await response.json()).length > 0) {
        // New events: show them (the state picture follows the latest event unless one was picked).
        const params = new URLSearchParams(window.location.search);
        if (Number(params.get("at")) === known - 1) params.delete("at");
        const query = params.toString();
        window.location.replace(window.location.pathname + (query ? `?${query}` : ""));
        return;
      }
    } catch (e) {
      /* offline for a moment: try again */
    }
    setTimeout(poll, 2000);
  };
  setTimeout(poll, 2000);
}
