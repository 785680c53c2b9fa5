// Ending a match early from the host console: a reason everybody will read, asked for and
// confirmed first (it is final), then POST .../end; the console then says it ended and why.
import { api, say } from "./common.js";

const $ = (id) => document.getElementById(id);
const LONGEST = 300;

export class EndEarly {
  constructor(base, refresh) {
    this.base = base;
    this.refresh = refresh;
    $("end-start").addEventListener("click", () => {
      $("end-form").hidden = false;
      $("end-start").hidden = true;
      say($("end-result"), "");
      $("end-reason").focus();
    });
    $("end-cancel").addEventListener("click", () => this.close());
    $("end-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.end();
    });
  }

  close() {
    $("end-form").hidden = true;
    $("end-start").hidden = false;
  }

  /** Hide the whole panel once the match is over. */
  render(status) {
    $("end-panel").hidden = Boolean(status.finished || status.ended) && !$("end-result").textContent;
    if (status.finished || status.ended) {
      $("end-start").hidden = true;
      $("end-form").hidden = true;
    }
  }

  async end() {
    const reason = $("end-reason").value.trim();
    if (!reason || reason.length > LONGEST) {
      say($("end-result"), `Say why in 1 to ${LONGEST} characters: everyone will read it.`, "bad");
      return;
    }
    $("end-confirm").disabled = true;
    try {
      await api("POST", `${this.base}/end`, { reason });
      $("end-form").hidden = true;
      const end = /[.!?…]$/.test(reason) ? "" : ".";
      say($("end-result"), `You ended the match early: “${reason}”${end} Every sealed pick is now disclosed, as at a normal end.`, "ok");
    } catch (e) {
      say($("end-result"), e.message, "bad");
    }
    $("end-confirm").disabled = false;
    this.refresh();
  }
}
