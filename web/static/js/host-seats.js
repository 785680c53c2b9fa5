// The seats of the host console: who has claimed their seat, who has sent a pick this step
// (never what), and a new invite for a seat. The service keeps only a fingerprint of each
// invite, so "show the invite again" makes a new link (which replaces the old one); for a
// claimed seat the new invite also revokes its holder's access. Both ask first, and both are
// public events. The new link is shown here with a copy button and a QR code.
import { api, say, enableCopy } from "./common.js";

const $ = (id) => document.getElementById(id);

function seatText(seat) {
  if (!seat) return "—";
  if (!seat.claimed) return "not claimed yet";
  return seat.public_key ? "claimed, signs with its key" : "claimed, no key";
}

function stepText(step, player) {
  if (!step) return "—";
  if (!step.submitters.includes(player)) return "not asked this step";
  if (step.submitted.includes(player)) return "sent";
  return step.status === "open" ? "not yet" : "sent nothing: gets the default";
}

/** The QR code of ``link`` as an image (an SVG the service draws); null if it cannot. */
async function qrCode(link) {
  try {
    const csrf = document.querySelector('meta[name="csrf-token"]');
    const response = await fetch("/api/qr", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf ? csrf.content : "" },
      body: JSON.stringify({ text: link }),
    });
    if (!response.ok) return null;
    const svg = await response.text();
    return svg.trimStart().startsWith("<") ? `data:image/svg+xml,${encodeURIComponent(svg)}` : null;
  } catch (e) {
    return null;
  }
}

export class Seats {
  /** @param {string} base the match's API address; @param {() => void} refresh */
  constructor(base, refresh) {
    this.base = base;
    this.refresh = refresh;
    this.status = null;
    this.asking = null; // the player whose new invite waits for the host's yes
    for (const button of document.querySelectorAll("button.reinvite")) {
      button.addEventListener("click", () => this.ask(button.dataset.player));
    }
    $("reinvite-cancel").addEventListener("click", () => this.cancel());
    $("reinvite-confirm").addEventListener("click", () => this.confirm());
    $("reinvite-close").addEventListener("click", () => { $("reinvite-done").hidden = true; });
  }

  claimed(player) {
    const seats = this.status && this.status.seats;
    return Boolean(seats && seats[player] && seats[player].claimed);
  }

  render(status) {
    this.status = status;
    const step = status.step;
    const over = status.finished || Boolean(status.ended);
    for (const row of document.querySelectorAll("#submitters tr")) {
      const p = row.dataset.player;
      const state = stepText(over ? null : step, p);
      row.querySelector(".state").textContent = state;
      row.classList.toggle("ok", state === "sent");
      row.querySelector(".seat").textContent = seatText(status.seats && status.seats[p]);
      const button = row.querySelector("button.reinvite");
      button.hidden = over;
      if (this.claimed(p)) {
        button.textContent = "New invite";
        button.setAttribute("aria-label", `New invite for ${p}`);
      } else {
        button.textContent = "Show the invite again";
        button.setAttribute("aria-label", `Show ${p}'s invite again`);
      }
    }
  }

  ask(player) {
    this.asking = player;
    $("reinvite-done").hidden = true;
    say($("reinvite-link"), "");
    say($("reinvite-result"), "");
    const question = this.claimed(player)
      ? `Make a new invite for ${player}? Whoever holds ${player}'s seat now loses it: their browser's access and their backup file stop working. The seat then waits for the new invite, and the public record shows that you did this.`
      : `Show ${player}'s invite again? The service keeps only a fingerprint of each invite, so it makes a new link: a new link replaces the old one, and the link sent before stops working. The public record shows that you did this.`;
    say($("reinvite-question"), question);
    $("reinvite-box").hidden = false;
    $("reinvite-confirm").focus();
  }

  cancel() {
    this.asking = null;
    $("reinvite-box").hidden = true;
  }

  async confirm() {
    const p = this.asking;
    if (!p) return;
    const wasClaimed = this.claimed(p);
    this.cancel();
    try {
      const answer = await api("POST", `${this.base}/players/${encodeURIComponent(p)}/invite`, {});
      const old = wasClaimed
        ? "The old holder's access and the old link no longer work."
        : "A new link replaces the old one: the link sent before no longer works.";
      say($("reinvite-what"), `${p}'s new invite link. Send it to ${p} only; it works once. ${old}`);
      say($("reinvite-link"), answer.link);
      const copy = $("reinvite-copy");
      copy.dataset.copy = answer.link;
      copy.setAttribute("aria-label", `Copy ${p}'s new invite link`);
      $("reinvite-qr").hidden = true;
      $("reinvite-done").hidden = false;
      enableCopy($("reinvite-done"));
      const image = await qrCode(answer.link);
      if (image && $("reinvite-link").textContent === answer.link) {
        $("reinvite-qr-image").src = image;
        $("reinvite-qr-image").alt = `QR code of ${p}'s new invite link`;
        $("reinvite-qr").hidden = false;
      }
    } catch (e) {
      say($("reinvite-result"), e.message, "bad");
    }
    this.refresh();
  }
}
