export { canonicalizeJson } from './canonical-json.ts';
export { formatCheckpointBody, openCheckpoint, parseCheckpointBody, signCheckpoint, type Checkpoint } from './checkpoint.ts';
export {
  decodeLogEntry,
  digestReview,
  digestReviewParts,
  encodeLogEntry,
  LogEntrySchema,
  MAX_LOG_ENTRY_BYTES,
  replayLog,
  REVIEW_DIGEST_FIELDS,
  UPDATE_CHANGES,
  UpdateChangeSchema,
  isReviewEntry,
  type DecodedEntry,
  type JobLogEntry,
  type LogEntry,
  type ReviewLogEntry,
  type ReviewLogState,
  type UpdateChange,
} from './entry.ts';
export { CORRECTION_REASONS, CorrectionReasonSchema, WITHDRAW_REASONS, WithdrawReasonSchema, type CorrectionReason, type WithdrawReason } from './reasons.ts';
export { formatLogTime, planLogAppend, readLogTimes, replayJobs, type JobForLog, type JobLogState, type PublishedForLog } from './plan-append.ts';
export { buildLogFiles, CHECKPOINT_PATH, logOriginOf, openLogFiles, VKEY_PATH, type LogFileReader, type LogFiles, type OpenedLog, type OpenLogResult } from './log-files.ts';
export { EMPTY_TREE_HASH, hashLeaf, hashNode, MerkleTree, verifyConsistency, verifyInclusion } from './merkle.ts';
export {
  computeKeyId,
  formatPrivateKey,
  formatVerifierKey,
  generateSigner,
  openNote,
  parsePrivateKey,
  parseVerifierKey,
  signerFromSeed,
  signNote,
  type NoteSigner,
  type NoteVerifier,
} from './note.ts';
export { decodeEntryBundle, encodeEntryBundle, encodeTileIndex, entryTilesOf, hashTilesOf, parseTilePath, tilePath, TILE_WIDTH, type Tile } from './tiles.ts';
