/** One (doc comment → code) pair as mined by train/data.ts. The code side holds no comment. */
export interface Pair {
  pkg: string;
  /** the doc comment's first sentence: what the model is trained to map to the code */
  query: string;
  /** the whole description (tags removed) */
  doc: string;
  kind: string;
  name: string;
  container: string | null;
  path: string;
  signature: string;
  /** identifier words of the comment-stripped body (the chunker's `body`) */
  body: string;
}
