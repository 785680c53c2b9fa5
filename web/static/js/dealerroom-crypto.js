// dealerroom's public formats, checked in the browser with WebCrypto (SHA-256, Ed25519).
//
// Pure functions, no DOM. Byte for byte the contracts of docs/PROTOCOL.md (commitments, JCS),
// docs/protocol-tamper-evidence.md (leaves, the RFC 6962 tree and its proofs, C2SP signed
// notes and checkpoints) and docs/protocol-bundles.md (receipts, bundles), as implemented in
// Python by domain/canonical.py, domain/commitment.py, domain/merkle.py,
// domain/signed_note.py and replay/receipt.py, replay/verify.py.
//
// Hashes are Uint8Array; commitments and salts are lowercase hex text; proof hashes in
// receipts are standard base64. Failures throw VerificationError with the reason in one
// sentence, except the two report builders (verifyReceipt, verifyLog), which return every
// finding instead.
//
// The modules under crypto/, in the order they build on one another: bytes, jcs, merkle,
// note, commitment, receipt, log. This file is what pages and tests import.

export {
  VerificationError,
  base64ToBytes,
  bytesEqual,
  bytesToBase64,
  bytesToHex,
  concatBytes,
  hexToBytes,
  utf8,
} from "./crypto/bytes.js";
export { canonicalJSON } from "./crypto/jcs.js";
export {
  emptyRoot,
  leafHash,
  merkleRoot,
  nodeHash,
  rootFromInclusion,
  sha256,
  verifyConsistency,
  verifyInclusion,
} from "./crypto/merkle.js";
export {
  ed25519Verify,
  openCheckpoint,
  openSignedNote,
  parseCheckpoint,
  parseVerifierKey,
} from "./crypto/note.js";
export {
  canonicalMatchId,
  commitment,
  randomSaltHex,
  submissionMessage,
} from "./crypto/commitment.js";
export { splitOrigin, verifyReceipt } from "./crypto/receipt.js";
export { verifyLog } from "./crypto/log.js";
