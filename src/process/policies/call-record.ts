/** One executed tool call. Detectors get the FULL session history, never the trimmed model view. */
export interface CallRecord {
  iteration: number;
  name: string;
  arguments: Record<string, unknown>;
  outcome?: 'ok' | 'error';
  /** hash or short text of the result/error */
  resultDigest?: string;
}
