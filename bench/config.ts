/** Sizes of the full run (about 4 minutes on 2 cores) and of `--smoke` (CI, seconds). */

export interface BenchConfig {
  smoke: boolean;
  /** The reply every stream is cut from. */
  textLength: number;
  deltaSize: number;
  paceHz: number;
  /** Deltas streamed paced (a prefix of the reply: all 12,500 at 100/s would take 125 s). */
  pacedDeltas: number;
  /** Deltas streamed in bursts (the whole reply in the full run). */
  burstDeltas: number;
  latencyClients: number[];
  throughputClients: number;
  gateMs: number;
  resume: { historyMessages: number; gapMs: number; deltas: number; dropAfterDeltas: number };
  /**
   * `compareHistoryMessages`: a second, short history, to show what grows with the history (0: none).
   * `passes`: runs over the long history; the one with the median main-thread time is reported (a
   * single run varies by ±0.3 ms per delta on a shared VM). `planDeltas`: deltas of a second reply,
   * a plan (one long list), streamed after the first (0: none). `wheelSteps`: 100 px wheel steps up
   * through the history at the end of each pass (0: none).
   */
  browser: { historyMessages: number; compareHistoryMessages: number; deltas: number; passes: number; planDeltas: number; wheelSteps: number };
  /** Deltas of the reply the peer encodings are computed for (prefix and full). */
  peerPrefixDeltas: number;
  peerFullDeltas: number;
  streamTimeoutMs: number;
  /** Section 8: client counts, and the paced deltas streamed to each. */
  scalingClients: number[];
  scalingDeltas: number;
  /** Section 9: tokens streamed by the local model server, 10 ms apart. */
  modelTokens: number;
}

export const FULL: BenchConfig = {
  smoke: false,
  textLength: 50_000,
  deltaSize: 4,
  paceHz: 100,
  pacedDeltas: 1_200,
  burstDeltas: 12_500,
  latencyClients: [1, 10, 50],
  throughputClients: 10,
  gateMs: 250,
  resume: { historyMessages: 500, gapMs: 1_000, deltas: 300, dropAfterDeltas: 50 },
  browser: { historyMessages: 2_000, compareHistoryMessages: 100, deltas: 600, passes: 3, planDeltas: 1_500, wheelSteps: 40 },
  peerPrefixDeltas: 1_200,
  peerFullDeltas: 12_500,
  streamTimeoutMs: 90_000,
  scalingClients: [1, 10, 50, 200],
  scalingDeltas: 400,
  modelTokens: 500,
};

export const SMOKE: BenchConfig = {
  smoke: true,
  textLength: 50_000,
  deltaSize: 4,
  paceHz: 100,
  pacedDeltas: 40,
  burstDeltas: 500,
  latencyClients: [1, 10],
  throughputClients: 10,
  gateMs: 150,
  resume: { historyMessages: 100, gapMs: 500, deltas: 120, dropAfterDeltas: 30 },
  browser: { historyMessages: 100, compareHistoryMessages: 0, deltas: 50, passes: 1, planDeltas: 50, wheelSteps: 5 },
  peerPrefixDeltas: 100,
  peerFullDeltas: 500,
  streamTimeoutMs: 30_000,
  scalingClients: [10],
  scalingDeltas: 30,
  modelTokens: 30,
};
