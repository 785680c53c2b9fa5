// A player's seat in this browser: the credential the claim gave (a token) and the Ed25519
// key made here, whose public half the claim registered in the public log. The private key
// never leaves the browser except in the backup file the player downloads.
import { api, setCsrfToken, signIn } from "./common.js";
import { bytesToBase64, base64ToBytes, canonicalMatchId, submissionMessage } from "./dealerroom-crypto.js";

const BACKUP_KIND = "dealerroom seat backup";
const storageKey = (matchId, player) => `dealerroom:seat:${canonicalMatchId(matchId)}:${player}`;

/** The seat kept in this browser: {token, private_key_jwk, public_key, backed_up}, or null. */
export function loadSeat(matchId, player) {
  try {
    const seat = JSON.parse(localStorage.getItem(storageKey(matchId, player)));
    return seat && typeof seat === "object" ? seat : null;
  } catch (e) {
    return null;
  }
}

export function saveSeat(matchId, player, seat) {
  localStorage.setItem(storageKey(matchId, player), JSON.stringify(seat));
}

/**
 * Forget a credential that no longer works (the seat was given a new invite) and its key;
 * remember only when, so the room can say why it no longer opens.
 */
export function forgetSeat(matchId, player) {
  saveSeat(matchId, player, { revoked_at: new Date().toISOString() });
  KEYS.delete(storageKey(matchId, player));
}

/**
 * A new Ed25519 key pair from WebCrypto: {private_key_jwk, public_key (standard base64 of
 * the 32 raw bytes)}, or null when this browser cannot make one (no WebCrypto Ed25519, or a
 * page not served over HTTPS).
 */
export async function makeKeyPair() {
  try {
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    return { private_key_jwk: jwk, public_key: bytesToBase64(raw) };
  } catch (e) {
    return null;
  }
}

/** The standard base64 public key a private JWK belongs to (its ``x``, which is base64url). */
function publicKeyOfJwk(jwk) {
  const b64 = String(jwk.x || "").replaceAll("-", "+").replaceAll("_", "/");
  return b64 + "=".repeat((4 - (b64.length % 4)) % 4);
}

/**
 * Claim a seat with its one-time invite: make a key, register it, put a grant for the seat in
 * this browser's session and keep the credential and the key here. Resolves to the kept seat;
 * rejects with the API's error (``status`` 409: the invite was already used; 403: not valid).
 */
export async function claimSeat(matchId, player, invite) {
  const pair = await makeKeyPair();
  const body = { invite, sign_in: true };
  if (pair) body.public_key = pair.public_key;
  const answer = await api("POST", `/api/matches/${matchId}/players/${encodeURIComponent(player)}/claim`, body);
  setCsrfToken(answer.csrf_token);
  const seat = {
    token: answer.token,
    private_key_jwk: pair ? pair.private_key_jwk : null,
    public_key: pair ? pair.public_key : null,
    backed_up: false,
    claimed_at: new Date().toISOString(),
  };
  saveSeat(matchId, player, seat);
  return seat;
}

const KEYS = new Map(); // storage key -> Promise of the CryptoKey that signs

function signingKey(matchId, player, seat) {
  const id = storageKey(matchId, player);
  const cached = KEYS.get(id);
  if (cached && cached.jwk === seat.private_key_jwk) return cached.key;
  const key = crypto.subtle.importKey("jwk", seat.private_key_jwk, { name: "Ed25519" }, false, ["sign"]);
  KEYS.set(id, { jwk: seat.private_key_jwk, key });
  return key;
}

/** The player's signature (standard base64) of a commitment, as the service checks it. */
export async function signCommitment(matchId, step, player, seat, commitmentHex) {
  const key = await signingKey(matchId, player, seat);
  const message = submissionMessage(matchId, step, player, commitmentHex);
  return bytesToBase64(new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, key, message)));
}

/** The backup file of a seat: everything needed to play it from another browser. */
export function backupOf(matchId, player, seat) {
  return {
    kind: BACKUP_KIND,
    about: "This file is your seat in a dealerroom match: whoever holds it can make picks in your name."
      + " Keep it private. To play from another device or browser, open your dealer room there and restore from this file.",
    match_id: canonicalMatchId(matchId),
    player,
    token: seat.token,
    private_key_jwk: seat.private_key_jwk,
    public_key: seat.public_key,
  };
}

/** A backup file's name: which match and which player, readable in a downloads folder. */
export function backupFileName(matchId, player) {
  const safe = player.replace(/[^\p{L}\p{N}_-]+/gu, "_");
  return `dealerroom-seat-${canonicalMatchId(matchId).slice(0, 8)}-${safe}.json`;
}

/**
 * Read a backup file for this room's seat; resolve to the seat to keep. Rejects with a plain
 * sentence when the file is not a seat backup, is another seat's, or holds a broken key.
 */
export async function readBackup(text, matchId, player) {
  let backup;
  try {
    backup = JSON.parse(text);
  } catch (e) {
    throw new Error("That file is not a seat backup (it is not JSON); choose the file this page let you download.");
  }
  if (!backup || backup.kind !== BACKUP_KIND || typeof backup.token !== "string" || !backup.token) {
    throw new Error("That file is not a dealerroom seat backup; choose the file this page let you download.");
  }
  let sameMatch = false;
  try {
    sameMatch = canonicalMatchId(backup.match_id) === canonicalMatchId(matchId);
  } catch (e) {
    sameMatch = false;
  }
  if (!sameMatch || backup.player !== player) {
    const whose = typeof backup.player === "string" ? `${backup.player}'s seat` : "another seat";
    throw new Error(`That backup is ${whose} in another match or room, not ${player}'s seat here; open the room it belongs to.`);
  }
  const seat = { token: backup.token, private_key_jwk: null, public_key: null, backed_up: true };
  if (backup.private_key_jwk) {
    try {
      await crypto.subtle.importKey("jwk", backup.private_key_jwk, { name: "Ed25519" }, false, ["sign"]);
      base64ToBytes(backup.public_key);
    } catch (e) {
      throw new Error("The signing key in that backup file is damaged; use an intact copy of the file.");
    }
    if (publicKeyOfJwk(backup.private_key_jwk) !== backup.public_key) {
      throw new Error("The signing key in that backup file does not match its public key; use an intact copy of the file.");
    }
    seat.private_key_jwk = backup.private_key_jwk;
    seat.public_key = backup.public_key;
  }
  return seat;
}

/** Restore a seat from a backup file's text: sign in with its credential and keep its key here. */
export async function restoreSeat(text, matchId, player) {
  const seat = await readBackup(text, matchId, player);
  try {
    await signIn(matchId, seat.token);
  } catch (e) {
    if (e.status === 403) {
      throw new Error("That backup no longer opens this seat: the host has since made a new invite for it. Ask the host for a new invite.");
    }
    throw e;
  }
  saveSeat(matchId, player, { ...seat, restored_at: new Date().toISOString() });
  return seat;
}
