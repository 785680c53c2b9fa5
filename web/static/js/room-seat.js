// A dealer room's seat: claiming it with the invite link (the signing key made here), signing
// in again with what this browser kept, the backup file and restoring from it, and what the
// page says when the seat was taken away.
import { say, download, takeFragment, signIn } from "./common.js";
import {
  backupFileName, backupOf, claimSeat, forgetSeat, loadSeat, restoreSeat, saveSeat,
} from "./seat.js";

const $ = (id) => document.getElementById(id);
const ASK_HOST = "If it was not you, ask the host for a new invite.";
export const MESSAGES = {
  needLink: "Open this page through your invite link (the one your host sent you), or restore your seat from its backup file below.",
  claiming: "Claiming your seat and making your signing key…",
  claimed: `This seat was already claimed. ${ASK_HOST}`,
  badInvite: "This invite link does not open this seat (the host may have made a newer one); ask the host for a new invite.",
  badLink: "This link does not open this seat any more; ask the host for a new invite.",
  lost: "You no longer hold this seat: the host made a new invite for it, so this browser's access has ended. If you did not ask for that, ask the host for a new invite.",
  noCookie: "This browser did not keep your sign-in: allow cookies for this site, then open your link again or restore from your backup file.",
};

export class Seat {
  constructor(matchId, player) {
    this.matchId = matchId;
    this.player = player;
    this.status = null;
    this.backupJustSaved = false;
    this.reloadMark = `dealerroom:reloaded:${matchId}:${player}`;
  }

  /** The key the public log registered for this seat: a string, null (none), or undefined (unknown). */
  registeredKey() {
    const seats = this.status && this.status.seats;
    return seats && seats[this.player] ? seats[this.player].public_key : undefined;
  }

  /** "signed" (this browser holds the seat's key), "missing" (it does not) or "unsigned" (no key). */
  keyState() {
    const registered = this.registeredKey();
    if (!registered) return "unsigned";
    const seat = loadSeat(this.matchId, this.player);
    return seat && seat.private_key_jwk && seat.public_key === registered ? "signed" : "missing";
  }

  render() {
    const seat = loadSeat(this.matchId, this.player);
    const state = this.keyState();
    const texts = {
      signed: "Your picks are signed with a key made in this browser; its public half is in the public log. Nobody else, not the host and not the service's operator, can make a pick in your name.",
      missing: "This seat signs its picks with a key that this browser does not hold. Restore your seat from its backup file below to play here.",
      unsigned: "Your seat has no signing key, so your picks are not signed by you: the service's operator could make one in your name.",
    };
    say($("seat-state"), this.registeredKey() === undefined ? "You hold this seat." : texts[state], state === "missing" ? "bad" : undefined);
    const canBackUp = Boolean(seat && seat.token);
    $("backup-banner").hidden = !canBackUp || (Boolean(seat.backed_up) && !this.backupJustSaved);
    $("backup").hidden = !canBackUp || Boolean(seat.backed_up);
    $("backup-again").hidden = !canBackUp || !seat.backed_up || this.backupJustSaved;
    if (state === "missing") $("restore-details").open = true;
  }

  saveBackup(output) {
    const seat = loadSeat(this.matchId, this.player);
    if (!seat) return;
    const name = backupFileName(this.matchId, this.player);
    download(name, backupOf(this.matchId, this.player, seat));
    saveSeat(this.matchId, this.player, { ...seat, backed_up: true });
    this.backupJustSaved = output === $("backup-result");
    this.render();
    say(output, `Backup saved to your downloads as ${name}. Keep the file private: whoever holds it can play as you.`, "ok");
  }

  async restoreFromFile(input, output) {
    const file = input.files && input.files[0];
    if (!file) return;
    say(output, "Restoring your seat…", "info");
    try {
      await restoreSeat(await file.text(), this.matchId, this.player);
      say(output, "Seat restored: this browser now holds your seat and its key.", "ok");
      this.reloadSignedIn();
    } catch (e) {
      say(output, e.message, "bad");
    } finally {
      input.value = "";
    }
  }

  /**
   * Sign in again with the credential this browser kept: "ok", "none" (nothing kept), "revoked"
   * (the seat was given a new invite since) or "failed" (no answer; try later).
   */
  async signInWithKept() {
    const seat = loadSeat(this.matchId, this.player);
    if (seat && seat.revoked_at) return "revoked";
    if (!seat || !seat.token) return "none";
    try {
      await signIn(this.matchId, seat.token);
      return "ok";
    } catch (e) {
      if (e.status !== 403) return "failed";
      forgetSeat(this.matchId, this.player);
      return "revoked";
    }
  }

  // A reload after signing in that finds the page still signed out means this browser did not
  // keep the session cookie; say so instead of signing in and reloading forever.
  reloadSignedIn() {
    sessionStorage.setItem(this.reloadMark, String(Date.now()));
    window.location.reload();
  }

  cookieRefused() {
    const mark = Number(sessionStorage.getItem(this.reloadMark) || 0);
    sessionStorage.removeItem(this.reloadMark);
    return Date.now() - mark < 15000;
  }

  /** Not signed in: claim with the invite, sign in with a credential link or the kept seat. */
  async open() {
    const message = $("sign-in-message");
    const fragment = takeFragment(); // gone from the address bar before anything else happens
    $("restore-file").addEventListener("change", () => this.restoreFromFile($("restore-file"), $("restore-result")));
    if (this.cookieRefused()) {
      say(message, MESSAGES.noCookie, "bad");
    } else if (fragment && fragment.invite !== undefined) {
      say(message, MESSAGES.claiming, "info");
      try {
        await claimSeat(this.matchId, this.player, fragment.invite);
        this.reloadSignedIn();
        return;
      } catch (e) {
        if (e.status === 409 && await this.signInWithKept() === "ok") {
          this.reloadSignedIn(); // this browser claimed the seat earlier
          return;
        }
        say(message, { 409: MESSAGES.claimed, 403: MESSAGES.badInvite }[e.status] || e.message, "bad");
      }
    } else if (fragment && fragment.token) {
      try {
        await signIn(this.matchId, fragment.token);
        const seat = loadSeat(this.matchId, this.player);
        if (!seat || seat.token !== fragment.token) {
          // A credential from elsewhere (a script's claim): keep it; any key kept here stays.
          const { revoked_at: _, ...kept } = seat || {};
          saveSeat(this.matchId, this.player, { ...kept, token: fragment.token, backed_up: Boolean(kept.backed_up) });
        }
        this.reloadSignedIn();
        return;
      } catch (e) {
        say(message, e.status === 403 ? MESSAGES.badLink : e.message, "bad");
      }
    } else {
      const kept = await this.signInWithKept();
      if (kept === "ok") {
        this.reloadSignedIn();
        return;
      }
      say(message, kept === "revoked" ? MESSAGES.lost : MESSAGES.needLink, kept === "revoked" ? "bad" : undefined);
    }
    $("restore-panel").hidden = false;
  }

  /** Wire the signed-in page's seat buttons. */
  wire() {
    sessionStorage.removeItem(this.reloadMark);
    $("backup").addEventListener("click", () => this.saveBackup($("backup-result")));
    $("backup-again").addEventListener("click", () => this.saveBackup($("backup-again-result")));
    $("restore-file-here").addEventListener("change", () => this.restoreFromFile($("restore-file-here"), $("restore-result-here")));
    this.render();
  }
}
