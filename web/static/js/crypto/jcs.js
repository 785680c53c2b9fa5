// Part of the in-browser verifier (dealerroom-crypto.js, which says what it checks and against
// which documents): RFC 8785 canonical JSON (JCS), as domain/canonical.py writes it.

import { LONE_SURROGATE, fail } from "./bytes.js";

/**
 * The RFC 8785 canonical JSON text of a JSON value: object members sorted by the UTF-16 code
 * units of their names, no whitespace, numbers as ECMAScript writes them (which is what RFC
 * 8785 prescribes), strings escaped as JSON.stringify does. Encode it with `utf8()`.
 */
export function canonicalJSON(value) {
  return serialize(value, "$");
}

function serialize(value, path) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) fail(`${path} is ${value}, which JSON cannot hold`);
      return JSON.stringify(value); // ECMAScript Number::toString; -0 becomes 0
    case "string":
      return serializeString(value, path);
    case "object":
      if (Array.isArray(value)) {
        return `[${value.map((item, i) => serialize(item, `${path}[${i}]`)).join(",")}]`;
      }
      return `{${Object.keys(value)
        .sort() // UTF-16 code unit order, as RFC 8785 section 3.2.3 asks
        .map((k) => `${serializeString(k, path)}:${serialize(value[k], `${path}.${k}`)}`)
        .join(",")}}`;
    default:
      return fail(`${path} is a ${typeof value}, which JSON cannot hold`);
  }
}

function serializeString(text, path) {
  if (LONE_SURROGATE.test(text)) fail(`${path} holds a lone surrogate, which I-JSON forbids`);
  return JSON.stringify(text);
}
