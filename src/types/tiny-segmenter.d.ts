declare module 'tiny-segmenter' {
  /** TinySegmenter 0.2: a compact Japanese word segmenter (no dictionary; a trained boosting model). */
  export default class TinySegmenter {
    segment(input: string): string[];
  }
}
