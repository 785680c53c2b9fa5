// Part of the in-browser verifier (dealerroom-crypto.js says what the rest checks and against
// which documents; pages import this module directly): fair play as the public records show
// it once the match is over. The revealed seed against its committed hash; every deal dealt
// from the seed recomputed from it (./fairrand.js, and each game's deals.js in its presentation
// folder); every host-chosen deal named; every default for a missing pick and every default decision
// recomputed by the game's rule. The checks of replay/verify/seed.py and the deal and default
// parts of replay/state.py; the outcomes themselves are left to `dealerroom verify`.

import { isObject } from "./bytes.js";
import { canonicalJSON } from "./jcs.js";
import { Rng, seedHash } from "./fairrand.js";

// A game's deals and defaults, as the browser recomputes them, are the game's own: its
// presentation folder serves them at /games/<game>/static/deals.js (web/games/<package>/
// static/deals.js), found by this convention like its dealer-room controls. Such a module
// exports either
//   NO_DEALS = {payload, why}   a game that deals nothing: its constant default for a missing pick
//   noDeals(created)            the same from the match's options, and maybe `decisionDefault`
// or `follow(created)` (created: MatchCreated.data), returning an object read in log order:
//   dealState(step)             {state} for deal(), or {unknown: why it cannot be known yet}
//   deal(state, rng)            the deal the rules make from the stream: {public, private}
//   explicitProblem(state, public, private)   why a host-chosen deal could not be dealt, or null
//   applyDeal(step, public, private|null)     the recorded deal, after it was checked
//   resolved(StepResolved.data)
//   defaultPick(step, player, StepOpened.data)   {payload, why} or {unknown: why}
//   decisionDefault(DecisionRequested.data)      {payload, why}, {problem} or null (no rule here)
//   partName(key)               a deal part in words ("the pool", "ana's hand")
// and, for tests, `deal(state, rng)` itself. A game without one (a plug-in game not written
// for the browser yet) has its deals and defaults left to `dealerroom verify`; the page says so.

/** The deals module of a game, loaded from its presentation folder, or null when it has none. */
export async function gameDeals(game) {
  try {
    return await import(`/games/${encodeURIComponent(game)}/static/deals.js`);
  } catch (error) {
    return null;
  }
}

/** A follower for a game that deals nothing and defaults a missing pick to a constant (and a
 * decision, when `decisionDefault(DecisionRequested.data)` says so). */
function noDeals({ payload, why, decisionDefault = () => null }, created) {
  return {
    players: [...(created.players || [])],
    dealState: () => ({ unknown: "this game deals nothing" }),
    deal: async () => {
      throw new Error("this game deals nothing");
    },
    explicitProblem: () => null,
    applyDeal() {},
    resolved() {},
    defaultPick: () => ({ payload: structuredClone(payload), why }),
    decisionDefault,
    partName: (key) => key,
  };
}

/** The follower of a game's records from its module, or null for a game the browser does not know. */
function follow(module, created) {
  if (module && typeof module.follow === "function") return module.follow(created);
  if (module && isObject(module.NO_DEALS)) return noDeals(module.NO_DEALS, created);
  if (module && typeof module.noDeals === "function") return noDeals(module.noDeals(created), created);
  return null;
}

/** The names of the checks, as a person reads them next to a record. */
export const CHECKS = {
  seed: "the seed",
  deal: "the deal",
  default: "the default pick",
  decision: "the default decision",
  fairness: "fair play",
};

const same = (a, b) => canonicalJSON(a ?? null) === canonicalJSON(b ?? null);

/** A value of a deal or a pick in words: lists joined by commas, null as "none". */
export function words(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.length ? value.map(words).join(", ") : "nothing";
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "sequence") return words(value.sequence);
    return keys.map((k) => `${k.replaceAll("_", " ")} ${words(value[k])}`).join("; ");
  }
  return String(value);
}

// The first part of two deals (objects of parts) that differ, in words.
function difference(expected, recorded, partName, where) {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(recorded || {})])];
  const key = keys.find((k) => !same(expected[k], (recorded || {})[k]));
  if (key === undefined) return null;
  const mine = Object.hasOwn(expected, key) ? words(expected[key]) : "nothing";
  const theirs = recorded && Object.hasOwn(recorded, key) ? words(recorded[key]) : "nothing";
  return `the seed gives ${partName(key)} ${mine}; ${where} ${theirs}`;
}

class Findings {
  constructor() {
    this.bySeq = new Map(); // seq -> [{check, status ("pass" | "fail" | "note"), text}]
    this.general = [];
  }

  add(seq, check, status, text) {
    if (!this.bySeq.has(seq)) this.bySeq.set(seq, []);
    this.bySeq.get(seq).push({ check, status, text });
  }
}

// What the whole log says before the walk: the seed, the private deals, the entropy.
function survey(records) {
  const facts = { created: null, committed: null, revealed: null, finished: false, privates: new Map(), entropy: {} };
  let opened = false;
  for (const record of records) {
    const data = isObject(record) && isObject(record.data) ? record.data : null;
    if (!data) continue;
    if (record.type === "MatchCreated" && !facts.created) facts.created = data;
    else if (record.type === "SeedCommitted" && !facts.committed) facts.committed = { seq: record.seq, hash: data.seed_hash };
    else if (record.type === "SeedRevealed") facts.revealed = { seq: record.seq, seed: data.seed };
    else if (record.type === "MatchFinished" || record.type === "MatchEnded") facts.finished = true;
    else if (record.type === "DealRevealed") facts.privates.set(data.step, { seq: record.seq, private: data.private });
    else if (record.type === "StepOpened") opened = true;
    else if (record.type === "PlayerJoined" && !opened && typeof data.entropy === "string") {
      facts.entropy[data.player] = data.entropy;
    }
  }
  return facts;
}

async function checkSeed(facts, findings) {
  if (!facts.revealed) {
    if (facts.finished) findings.general.push("the match finished but the seed was never revealed");
    return facts.committed ? "pending" : "none";
  }
  const { seq, seed } = facts.revealed;
  let hash = null;
  try {
    hash = await seedHash(seed);
  } catch (error) {
    findings.add(seq, "seed", "fail", `the revealed seed is not a seed: ${error.message}`);
    return "fail";
  }
  if (!facts.committed || hash !== facts.committed.hash) {
    const where = facts.committed ? `record ${facts.committed.seq}` : "no record";
    findings.add(seq, "seed", "fail", `the revealed seed does not hash to the seed hash committed in ${where}: it is not the seed the host committed to before the first deal`);
    return "fail";
  }
  findings.add(seq, "seed", "pass", `the seed hashes to the seed hash committed in record ${facts.committed.seq}`);
  findings.add(facts.committed.seq, "seed", "pass", `the seed revealed in record ${seq} hashes to this`);
  return "pass";
}

async function checkSeedDeal(ctx, record, counts) {
  const { findings, game, facts, matchId } = ctx;
  const { step, deal } = record.data;
  const disclosed = facts.privates.get(step);
  if (!facts.revealed) {
    findings.add(record.seq, "deal", "note", `dealt from the committed seed; your browser recomputes it once the seed is revealed at the end of the match`);
    counts.pending += 1;
    return;
  }
  const { state, unknown } = game.dealState(step, record.data);
  if (unknown) {
    findings.add(record.seq, "deal", "note", `not recomputed in your browser: ${unknown}`);
    counts.pending += 1;
    return;
  }
  let expected;
  try {
    const rng = await Rng.open(facts.revealed.seed, matchId, `deal/${step}`, facts.entropy);
    expected = await game.deal(state, rng);
  } catch (error) {
    findings.add(record.seq, "deal", "fail", `the rules cannot deal step ${step} from the seed: ${error.message}`);
    counts.failed += 1;
    return;
  }
  const publicDiff = difference(expected.public, isObject(deal) ? deal : {}, game.partName, "the log says");
  const privateDiff = disclosed
    ? difference(expected.private, isObject(disclosed.private) ? disclosed.private : {}, game.partName, "the cards disclosed after the match say")
    : null;
  if (publicDiff || privateDiff) {
    const why = `step ${step} was not dealt from the seed: ${publicDiff || privateDiff}`;
    findings.add(record.seq, "deal", "fail", why);
    if (privateDiff && disclosed) findings.add(disclosed.seq, "deal", "fail", why);
    counts.failed += 1;
    return;
  }
  findings.add(record.seq, "deal", "pass", `the deal of step ${step} is the one the seed gives (recomputed in your browser)`);
  if (disclosed) findings.add(disclosed.seq, "deal", "pass", `the cards disclosed for step ${step} are the ones the seed gives`);
  else if (Object.keys(expected.private).length) counts.partial += 1;
  counts.recomputed += 1;
}

function checkExplicitDeal(ctx, record, counts) {
  const { findings, game, facts, hostDealt } = ctx;
  const { step, deal } = record.data;
  const disclosed = facts.privates.get(step);
  hostDealt.push({ seq: record.seq, step });
  counts.explicit += 1;
  const loud = `dealt by the host, not from the seed: nothing shows this deal is random`;
  findings.add(record.seq, "deal", "note", loud);
  if (disclosed) findings.add(disclosed.seq, "deal", "note", `the cards the host chose for step ${step}`);
  const { state } = game.dealState(step, record.data);
  if (!state || !disclosed) return;
  const problem = game.explicitProblem(state, isObject(deal) ? deal : {}, isObject(disclosed.private) ? disclosed.private : {});
  if (problem) {
    findings.add(record.seq, "deal", "fail", `the host's deal of step ${step} could not have been dealt: ${problem}`);
    counts.failed += 1;
  }
}

function checkDefault(ctx, record, opened, counts) {
  const { findings, game } = ctx;
  const { step, player, payload } = record.data;
  if (!opened) return;
  const expected = game.defaultPick(step, player, opened);
  if (expected.unknown) {
    findings.add(record.seq, "default", "note", `not recomputed in your browser: ${expected.unknown}`);
    counts.unchecked += 1;
  } else if (same(expected.payload, payload)) {
    findings.add(record.seq, "default", "pass", `the rules' default for ${player}: ${expected.why}`);
    counts.checked += 1;
  } else {
    findings.add(record.seq, "default", "fail", `the rules' default for ${player} is ${words(expected.payload)} (${expected.why}), not ${words(payload)}`);
    counts.failed += 1;
  }
}

function checkDecision(ctx, record, requests, counts) {
  const { findings, game } = ctx;
  const data = record.data;
  const key = `${data.step}/${data.index}`;
  if (record.type === "DecisionRequested") {
    requests.set(key, data);
    const rule = game.decisionDefault(data);
    if (!rule) return;
    if (rule.problem) {
      findings.add(record.seq, "decision", "fail", rule.problem);
      counts.failed += 1;
    } else if (!same(rule.payload, data.default)) {
      findings.add(record.seq, "decision", "fail", `the rules' default is ${words(rule.payload)} (${rule.why}), not ${words(data.default)}`);
      counts.failed += 1;
    } else {
      findings.add(record.seq, "decision", "pass", `the default offered is the rules' own: ${rule.why}`);
      counts.checked += 1;
    }
  } else if (data.defaulted === true) {
    const request = requests.get(key);
    if (request && !same(request.default, data.payload)) {
      findings.add(record.seq, "decision", "fail", `the default applied, ${words(data.payload)}, is not the one requested in step ${data.step}, ${words(request.default)}`);
      counts.failed += 1;
    } else if (request) {
      findings.add(record.seq, "decision", "pass", "the default applied is the one requested");
      counts.checked += 1;
    }
  }
}

// One record of the walk: deals at StepOpened, the game's state at StepResolved, defaults.
async function visit(ctx, record, data, { steps, requests, counts, gameName }) {
  const { findings, game } = ctx;
  const { deals, defaults, decisions } = counts;
  if (record.type === "StepOpened") {
    steps.set(data.step, data);
    if (!game) {
      if (data.deal_source === "explicit") ctx.hostDealt.push({ seq: record.seq, step: data.step });
      if (data.deal_source !== "none") {
        findings.add(record.seq, "deal", "note", `${gameName} deals are not recomputed in your browser; dealerroom verify recomputes them`);
        deals.unknown += 1;
      }
      return;
    }
    if (data.deal_source === "seed") await checkSeedDeal(ctx, record, deals);
    else if (data.deal_source === "explicit") checkExplicitDeal(ctx, record, deals);
    else if (isObject(data.deal) && Object.keys(data.deal).length) {
      findings.add(record.seq, "deal", "fail", `step ${data.step} deals nothing, yet records a deal`);
      deals.failed += 1;
    }
    if (data.deal_source === "seed" || data.deal_source === "explicit") {
      const disclosed = ctx.facts.privates.get(data.step);
      game.applyDeal(data.step, isObject(data.deal) ? data.deal : {}, disclosed && isObject(disclosed.private) ? disclosed.private : null);
    }
  } else if (!game) {
    return;
  } else if (record.type === "StepResolved") {
    game.resolved(data);
  } else if (record.type === "DefaultApplied") {
    checkDefault(ctx, record, steps.get(data.step), defaults);
  } else if (record.type === "DecisionRequested" || record.type === "DecisionMade") {
    checkDecision(ctx, record, requests, decisions);
  }
}

/**
 * Check fair play in a match's public records (a bundle's `records`) in the browser: the
 * revealed seed against its committed hash, each deal dealt from the seed recomputed, each
 * host-chosen deal named, each default pick and default decision recomputed by the rules.
 * Never throws for a bad log. Returns {bySeq: Map(seq -> [{check, status, text}]),
 * hostDealt: [{seq, step}], summary: {ok, game, known, seed, deals, defaults, decisions,
 * problems, text}}. `load(game)` gives a game's deals module (by default from its folder).
 */
export async function verifyFairness(records, matchId, load = gameDeals) {
  const findings = new Findings();
  const facts = survey(Array.isArray(records) ? records : []);
  const gameName = facts.created ? String(facts.created.game) : "?";
  const game = facts.created ? follow(await load(gameName), facts.created) : null;
  const hostDealt = [];
  const deals = { recomputed: 0, failed: 0, pending: 0, explicit: 0, partial: 0, unknown: 0 };
  const defaults = { checked: 0, failed: 0, unchecked: 0 };
  const decisions = { checked: 0, failed: 0 };
  const seed = await checkSeed(facts, findings);
  const ctx = { findings, game, facts, matchId, hostDealt };
  const steps = new Map(); // step -> StepOpened.data
  const requests = new Map();
  const counts = { deals, defaults, decisions };
  for (const record of facts.created ? records : []) {
    const data = isObject(record) && isObject(record.data) ? record.data : null;
    if (!data) continue;
    try {
      await visit(ctx, record, data, { steps, requests, counts, gameName });
    } catch (error) {
      findings.add(record.seq, "fairness", "fail", `this record cannot be read for fair play: ${error.message}`);
      deals.failed += 1;
    }
  }
  const summary = { game: gameName, known: Boolean(game), seed, deals, defaults, decisions, problems: findings.general };
  summary.ok = seed !== "fail" && !deals.failed && !defaults.failed && !decisions.failed && !findings.general.length;
  summary.text = fairnessText(summary);
  return { bySeq: findings.bySeq, hostDealt, summary };
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function fairnessText(s) {
  const parts = [];
  if (s.seed === "pass") parts.push("the revealed seed matches the hash committed before the first deal");
  else if (s.seed === "fail") parts.push("the revealed seed does NOT match its committed hash");
  else if (s.seed === "pending") parts.push("the seed is revealed when the match ends");
  const d = s.deals;
  if (d.recomputed) parts.push(`${plural(d.recomputed, "deal")} recomputed from the seed and equal`);
  if (d.failed) parts.push(`${plural(d.failed, "deal")} NOT the one the seed gives`);
  if (d.pending) parts.push(`${plural(d.pending, "deal")} from the seed still to check`);
  if (d.explicit) parts.push(`${plural(d.explicit, "deal")} chosen by the host, not from the seed`);
  if (d.unknown) parts.push(`${plural(d.unknown, "deal")} this browser cannot recompute (${s.game})`);
  const f = s.defaults;
  const c = s.decisions;
  if (f.checked) parts.push(`${plural(f.checked, "default pick")} for a missing pick recomputed by the rules and equal`);
  if (c.checked) parts.push(`${plural(c.checked, "default decision")} recomputed and equal`);
  if (f.failed) parts.push(`${plural(f.failed, "default pick")} NOT the rules' own`);
  if (c.failed) parts.push(`${plural(c.failed, "default decision")} NOT the rules' own`);
  if (f.unchecked) parts.push(`${plural(f.unchecked, "default pick")} not recomputed here`);
  parts.push(...s.problems);
  return parts.length ? `Fair play: ${parts.join("; ")}.` : "Fair play: nothing was dealt at random and no default was applied.";
}
